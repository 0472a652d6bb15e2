"""The legend (F1): what the timeline's marks mean and every key of the window, read from the
window's menus and actions. Handed the theme and the actions; emits nothing."""
