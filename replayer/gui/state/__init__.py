"""The State pane: the game state after the selected event (life points, zones, the chain, the
phase), as a tree. Handed the state, the players' names and the event's source line
(``set_state``) and the theme; it emits nothing (it only shows)."""
