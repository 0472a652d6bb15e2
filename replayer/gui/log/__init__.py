"""The log pane and its editor.

:class:`.pane.LogPane` / :class:`.pane.LogView`: the log's text, the findings underlined at their
columns and explained under the selected line. Handed the text (``set_text``), the document
(``set_document``, ``update_document``) and the selected line (``select_line``, ``show_line``);
emits ``lineActivated(line)`` when the user clicks a line.

:class:`.editor.LogEditor` turns that view into an editor (completion: :mod:`.completion`; the
re-check as you type: :mod:`.recheck`; new logs: :mod:`.newlog`). Handed the view, what the window
shows (``on_opened``, ``show``) and the video's clock; emits status messages, the pane's title,
editing on/off, the cursor's line, re-checks, saves, new logs and files to open (see the module)."""
