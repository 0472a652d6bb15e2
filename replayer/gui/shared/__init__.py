"""What the window's parts share: the theme (:mod:`.theme`), fonts, the window's words and language
(:mod:`.language`: ``tr``, ``M``, ``live``), event and state labels, marker painting, the item
models over the findings and the state (:mod:`.models`), small widgets and the atomic file writer
(:mod:`.savefile`). It shows nothing of its own; ``language.NOTIFIER.changed`` says when the
language changed."""
