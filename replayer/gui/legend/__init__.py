"""The legend (F1, :class:`.dialog.LegendDialog`): what the timeline's marks and colours mean, and
every key of the widget it is handed (its actions and shortcuts, under the menu that shows them).
Handed the theme and that widget; emits nothing."""
