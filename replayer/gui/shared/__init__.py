"""What every part of the window shares: the theme, fonts, the window's words and language
(:mod:`.language`: ``tr``, ``M``, ``live``), event and state labels, marker painting, small widgets
and the atomic file writer. It shows nothing and emits nothing of its own (``language.NOTIFIER``
says when the language changed)."""
