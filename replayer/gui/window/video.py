"""The Video pane in the window: its tab beside the State pane, its header writes, its actions
and keys (each with a tooltip that names it, which the legend shows less the key) and its menu
entries, View ▸ Video and File ▸ Attach Video… (the pane itself: :mod:`replayer.gui.video.pane`).

Space (play / pause) is the window's own action (``act_play``), which plays the video when
there is one. The keys that type a character (J, K, L, ``<``, ``>``) and Shift+←/→ are the text's
while the log is being edited: the editor takes them before any shortcut (Qt's
ShortcutOverride), as it does for every typed key.

So that the footage can be worked while transcribing (typing while playing, pausing and going
back), F7 / F8 / F9 (back 2 s, play / pause, on 2 s: the keys that carry ◀◀ ▶‖ ▶▶ on many
keyboards), Shift+F7 / Shift+F9 (slower / faster, as J / L while playing) and Ctrl+Shift+F7 /
Ctrl+Shift+F9 (pause, and one frame back / on, as Shift+←/→) work with the editor focused too:
as in transcription tools (oTranscribe, Express Scribe), keys that type nothing and that no
text edit uses. They work with the completion list open too (Qt keeps a window's shortcuts
working under a completer's popup). Not these: F1 (the legend), F3 (Find Next, by convention),
F5 (Reload), F10 and F11 (the desktop's menu and full screen keys), Esc (closes the completion
list), Ctrl+K (Delete to End of Line in Qt's text edits on Linux), Alt+←/→ (a word move on
macOS); and for the frame steps not Ctrl+F7 / Ctrl+F9 (the desktop takes them: workspaces 7
and 9 in XFCE, Present Windows in KDE, keyboard access on macOS) nor Alt+F7 / Alt+F9 (move the
window in GNOME and XFCE, hide it in XFCE). KDE's shortcut scheme leaves Ctrl+Shift to the
applications, and none of GNOME's, KDE's or XFCE's default bindings uses Ctrl+Shift+F7 / F9.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from ...logtext import set_header_tag
from ..shared.savefile import atomic_write

from ..shared.language import M, live, tr
from ..video.pane import SKIP_MS, VideoPane

if TYPE_CHECKING:
    from ..app import MainWindow


def install_keys(window: MainWindow, pane: VideoPane) -> None:
    """The pane's actions in ``window``, with their keys and menu entries."""

    def action(text, slot, shortcut=None, tip="", checkable=False):
        return window._action(text, slot, shortcut, tip, checkable=checkable)

    # the tooltips name the key; the legend (F1) shows them less the key, under View ▸ Video
    window.act_attach_video = action(M("Attach &Video…"), pane.attach_dialog)
    window.act_attach_video.setEnabled(False)
    window.act_show_video = action(M("&Video Pane"), lambda: show_pane(window, window.act_show_video.isChecked()),
                                   "Ctrl+Shift+V", M("Show or hide the video pane (Ctrl+Shift+V)"), checkable=True)
    window.act_shuttle = {
        "J": action(M("Shuttle &Back (Slower, or Back 2 s)"), lambda: pane.shuttle("J"), "J",
                    M("Shuttle back: slower, or back 2 s (J)")),
        "K": action(M("Shuttle S&top (Pause)"), lambda: pane.shuttle("K"), "K", M("Shuttle stop: pause the video (K)")),
        "L": action(M("Shuttle &Forward (Play, or Faster)"), lambda: pane.shuttle("L"), "L",
                    M("Shuttle forward: play, or faster (L)")),
    }
    window.act_prev_frame = action(M("&Previous Frame"), lambda: pane.frame_step(-1), QKeySequence(Qt.SHIFT | Qt.Key_Left),
                                   M("Pause, and one frame back (Shift+←)"))
    window.act_next_frame = action(M("&Next Frame"), lambda: pane.frame_step(1), QKeySequence(Qt.SHIFT | Qt.Key_Right),
                                   M("Pause, and one frame on (Shift+→)"))
    # "<" and ">": Shift+, and Shift+. on a US keyboard (Qt's key map tries the shifted character
    # too), the key left of Z and its Shift on a German one
    window.act_slower = action(M("S&lower"), lambda: pane.speed_step(-1), "<", M("Slower: the speed a step down (<)"))
    window.act_faster = action(M("F&aster"), lambda: pane.speed_step(1), ">", M("Faster: the speed a step up (>)"))
    # the keys that work while typing in the log (they type nothing): View ▸ Video, and the legend
    def with_video(slot):
        def run():
            if pane.has_media():
                slot()
            else:
                pane.message.emit(tr("No video to play: attach one (File ▸ Attach Video…)"))
        return run

    def play_pause():
        window.stop_play()  # the events' own playing, when it was on
        pane.toggle()

    s = SKIP_MS // 1000
    window.act_typing_keys = [
        action(M("Back {s} Seconds, Also While Typing", s=s), with_video(lambda: pane.skip(-SKIP_MS)), "F7",
               M("Back {s} s in the video, also while typing (F7)", s=s)),
        action(M("Play / Pause, Also While Typing"), with_video(play_pause), "F8",
               M("Play / pause the video, also while typing (F8)")),
        action(M("Forward {s} Seconds, Also While Typing", s=s), with_video(lambda: pane.skip(SKIP_MS)), "F9",
               M("Forward {s} s in the video, also while typing (F9)", s=s)),
        action(M("Slower, Also While Typing"), with_video(lambda: pane.speed_step(-1)), "Shift+F7",
               M("Slower: a speed step down, also while typing (Shift+F7)")),
        action(M("Faster, Also While Typing"), with_video(lambda: pane.speed_step(1)), "Shift+F9",
               M("Faster: a speed step up, also while typing (Shift+F9)")),
        # Shift+←/→ select text there; Ctrl+F7 / Ctrl+F9 and Alt+F7 / Alt+F9 are the desktop's
        action(M("Previous Frame, Also While Typing"), with_video(lambda: pane.frame_step(-1)), "Ctrl+Shift+F7",
               M("Pause, and one frame back, also while typing (Ctrl+Shift+F7)")),
        action(M("Next Frame, Also While Typing"), with_video(lambda: pane.frame_step(1)), "Ctrl+Shift+F9",
               M("Pause, and one frame on, also while typing (Ctrl+Shift+F9)")),
    ]
    window.act_sync_video = action(M("&Sync Video Here"), pane.sync_here, "Alt+S",
                                   M("Sync here: the event is at this frame (Alt+S)"))
    window.act_open_footage = action(M("&Open Footage at Timecode"), pane.open_in_browser, None,
                                     M("Open a web video in the browser at the selected event"))
    menus = window.menus
    if "File" in menus:
        f = menus["File"]
        before = window.act_reload
        acts = f.actions()
        after = acts[acts.index(before) + 1] if before in acts and acts.index(before) + 1 < len(acts) else None
        f.insertAction(after, window.act_attach_video)
    if "View" in menus:
        v = menus["View"]
        v.addSeparator()
        v.addAction(window.act_show_video)
        sub = live(v.addMenu(""), M("V&ideo"), "setTitle")
        for a in window.act_shuttle.values():
            sub.addAction(a)
        sub.addSeparator()
        for a in (window.act_prev_frame, window.act_next_frame, None, window.act_slower, window.act_faster, None,
                  *window.act_typing_keys, None, window.act_sync_video, window.act_open_footage):
            sub.addSeparator() if a is None else sub.addAction(a)


# ---- the pane in the window -------------------------------------------------------------------------------
def install(window: MainWindow) -> VideoPane:
    """Put a video pane into ``window`` (beside the timeline) with its actions and menu entries."""
    pane = VideoPane()
    window.video = pane
    pane.setVisible(False)  # a tab beside the State pane once a log names a video (show_pane)
    pane.follow.connect(lambda i: window.select_event(i, origin="video"))
    pane.message.connect(lambda text: window.statusBar().showMessage(text, 6000))
    pane.headerWanted.connect(lambda key, value: write_header(window, key, value))
    # MainWindow.select_event calls pane.on_selected first, before the other panes follow

    def on_loaded() -> None:
        pane.set_document(window.doc, window.path)
        show_pane(window, pane.wanted() or window.act_show_video.isChecked(), forward=False)
        window.act_show_video.setChecked(window.side.indexOf(pane) >= 0)
        i = window.side.indexOf(pane)
        if i >= 0:  # the tab says what the pane's title said (the file, the offset): room for the frame
            window.side.setTabText(i, pane.title.text().replace("  ", " "))
            window.side.setTabToolTip(i, pane.title.text())
            pane.title.setVisible(False)
        window.act_attach_video.setEnabled(window.path is not None)
        editing = window.editor is not None and window.editor.editing()
        if window.current >= 0 and not editing:  # a re-check while typing leaves the footage alone
            pane.on_selected(window.current, "load")

    window.loaded.connect(on_loaded)

    def on_language(_code: str = "") -> None:
        pane.retranslate()
        i = window.side.indexOf(pane)
        if i >= 0:
            window.side.setTabText(i, pane.title.text().replace("  ", " "))
            window.side.setTabToolTip(i, pane.title.text())

    pane.retranslate_tab = on_language  # (the window's retranslate calls it)

    install_keys(window, pane)  # the keys and menu entries
    pane.set_theme(window.theme)
    return pane


def show_pane(window: MainWindow, visible: bool, *, forward: bool = True) -> None:
    """The Video tab beside the State pane, brought forward (or taken away: View ▸ Video Pane)."""
    pane = window.video
    window.show_side(pane, tr("Video"), visible, forward=forward)
    if not visible:
        pane.pause()


def write_header(window: MainWindow, key: str, value: str) -> None:
    """Put ``[key "value"]`` into the window's log: into the editor's text when it is being
    edited (unsaved, undoable), else into the file (atomically) and check it again."""

    after = "Video" if key == "VideoOffset" else None
    editor = getattr(window, "editor", None)
    if editor is not None and editor.editing():
        editor.set_header_tag(key, value, after=after)
        return
    if not window.path:
        window.statusBar().showMessage(tr("Save the log first"), 4000)
        return
    data = Path(window.path).read_bytes()
    text = data.decode("utf-8-sig")
    bom = data.startswith(b"\xef\xbb\xbf")
    new = set_header_tag(text, key, value, after=after)
    atomic_write(window.path, (b"\xef\xbb\xbf" if bom else b"") + new.encode("utf-8"), backup=False)
    window.reload()
