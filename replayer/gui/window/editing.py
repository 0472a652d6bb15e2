"""The log editor in the window: its actions and menu entries (File ▸ New Log, New Match from
Video…, Edit Log, Save, Save As…; Edit ▸ Undo, Redo, Insert Video Timecode, Complete) and what the
window does with what it emits: a re-check shown (in place when it can be), a save (the file
watched, the verdicts kept with it), a new log shown (the editor: :mod:`replayer.gui.log.editor`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from ..log.editor import LogEditor
from ..log.newlog import UnsavedVerdicts
from ..shared.language import M, live

if TYPE_CHECKING:
    from ...reviews import Reviews
    from ..app import MainWindow
    from ..document import Document


def install(window: MainWindow) -> LogEditor:
    """The editor's actions and menu entries in ``window`` (File ▸ New Match from Video…,
    File ▸ Edit Log, File ▸ Save, Edit ▸ Undo/Redo, Edit ▸ Insert Video Timecode)."""
    def clock() -> float | None:  # Ctrl+T: the video's position, when one plays
        video = window.video
        return video.log_position_s() if video is not None and video.has_media() else None

    ed = LogEditor(window.log_pane.view, window, clock=clock)
    window.editor = ed
    ed.message.connect(lambda text, ms: window.statusBar().showMessage(text, ms))
    ed.heldMessage.connect(window.hold_message)
    ed.titleChanged.connect(window.log_title.setText)
    ed.started.connect(window.stop_play)
    ed.lineFollowed.connect(lambda line: window.select_line(line, origin="editor"))
    ed.rechecked.connect(lambda doc, change, base, line: show_rechecked(window, doc, change, base, line))
    ed.saved.connect(lambda path, data: on_saved(window, path, data))
    ed.newLog.connect(lambda doc, reviews: show_new_log(window, doc, reviews))
    ed.openRequested.connect(window.open_path)
    A = window._action
    window.act_edit = A(M("&Edit Log"), ed.toggle, "Ctrl+E", M("Edit the log here (the findings follow as you type)"),
                        checkable=True)
    window.act_save = A(M("&Save"), lambda: ed.save(), QKeySequence.Save, M("Save the log (Ctrl+S)"))
    window.act_save_as = A(M("Save &As…"), ed.save_as, QKeySequence.SaveAs, M("Save the log as another file"))
    window.act_new_video = A(M("&New Match from Video…"), ed.new_from_video_dialog, None,
                             M("Start a log for a match video, its header filled"))
    window.act_new = A(M("&New Log"), lambda: ed.new_log(), QKeySequence.New,
                       M("A new log typed here, its header ready to fill in (Ctrl+N)"))
    window.act_timecode = A(M("Insert Video &Timecode"), ed.insert_timecode, "Ctrl+T",
                            M("Put the video's position at the start of the line (Ctrl+T)"))
    window.act_complete = A(M("&Complete"), lambda: ed.complete(forced=True), "Ctrl+Space",
                            M("Complete the keyword or card name (Ctrl+Space)"))
    window.act_undo = A(M("&Undo"), lambda: ed.view.undo())
    window.act_redo = A(M("&Redo"), lambda: ed.view.redo())
    window.act_undo.setShortcut(QKeySequence.Undo)
    window.act_redo.setShortcut(QKeySequence.Redo)
    # the text edit handles Ctrl+Z itself when it has the focus; the menu entries are for the mouse
    for a in (window.act_undo, window.act_redo, window.act_complete):  # (Ctrl+Space too: see eventFilter)
        a.setShortcutContext(Qt.WidgetShortcut)
    menus = window.menus
    f = menus.get("File")
    if f is not None:
        first = f.actions()[0] if f.actions() else None
        f.insertAction(first, window.act_new)
        f.insertAction(first, window.act_new_video)
        acts = f.actions()
        at = acts.index(window.act_reload) + 1 if window.act_reload in acts else len(acts)
        f.insertSeparator(acts[at] if at < len(acts) else None)
        f.insertAction(acts[at] if at < len(acts) else None, window.act_edit)
        f.insertAction(acts[at] if at < len(acts) else None, window.act_save)
        f.insertAction(acts[at] if at < len(acts) else None, window.act_save_as)
    e = live(window.menuBar().addMenu(""), M("&Edit"), "setTitle")
    window.menus["Edit"] = e
    window.menuBar().insertMenu(menus["View"].menuAction() if "View" in menus else None, e)
    for a in (window.act_undo, window.act_redo):
        e.addAction(a)
    e.addSeparator()
    e.addAction(window.act_timecode)
    e.addAction(window.act_complete)
    ed.editingChanged.connect(window.act_edit.setChecked)
    window.loaded.connect(lambda: ed.show(window.doc, window.path, window.data))
    return ed


def show_rechecked(w: MainWindow, doc: Document, change, base, line: int) -> None:
    """Show the editor's re-check ``doc`` (``change`` from ``base``; ``line``: the cursor's)."""
    old = w.doc
    # in place only over the document the change is from (not over a file read again meanwhile)
    if old is None or change.full or old.path != doc.path or old.result is not base:
        w._keep_line = line
        w.show_document(doc, w.reviews)
    else:
        update_document(w, old, doc, change, line)


def update_document(w: MainWindow, old: Document, doc: Document, change, line: int) -> None:
    """Show ``doc``, the re-check of an edit of ``old``'s text, updating the panes in place:
    what :meth:`MainWindow.show_document` does after a re-check, without rebuilding what did not
    change (the findings table when the findings are the same, the state tree's rows, the log's
    colours away from the lines whose findings changed)."""
    w.doc = doc
    if old.pyramid is not None and doc.pyramid is not None:
        doc.pyramid.adopt(old.pyramid)
    w.log_pane.view.update_document(doc, old, change)
    same = old.findings == doc.findings
    w.findings.update_document(doc, w.reviews, same=same)
    w.timeline.set_document(doc, w.reviews, keep_view=True)
    if not same or len(old.events) != len(doc.events):
        w.overview.invalidate()
    w.show_counts(doc)
    w._update_title()
    w._update_actions()
    w.select_line(line, origin="reload")
    w.log_pane.lay_out_now()
    w.loaded.emit()


def on_saved(w: MainWindow, path: str, data: bytes) -> None:
    """The editor saved the text at ``path``: a new file is watched and recent, and the verdicts
    of a log that had no file yet go with it."""
    if path != w.path:
        w.path = path
        w._set_watch(path)
        w._add_recent(path)
        if w.reviews is not None and isinstance(w.reviews.backend, UnsavedVerdicts):
            from ...reviews import store

            w.reviews.log_path, w.reviews.backend = path, store()
            if w.reviews.entries:
                w.reviews.backend.save(path, w.reviews.entries)
    w.data = data


def show_new_log(w: MainWindow, doc: Document, reviews: Reviews) -> None:
    """File ▸ New Log: the window leaves its file (no longer watched) and shows the new log."""
    w.stop_play()
    watched = w.watcher.files()
    if watched:
        w.watcher.removePaths(watched)
    w.path = None
    w.data = None
    w._keep_line = None
    w.show_document(doc, reviews)
