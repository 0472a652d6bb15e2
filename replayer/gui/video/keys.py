"""The video pane's actions: its keys (each with a tooltip that names it, which the legend
shows less the key) and its menu entries, View ▸ Video and File ▸ Attach Video… (a part of
:mod:`.video`).

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

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from ..shared.language import M, live, tr

if TYPE_CHECKING:
    from ..app import MainWindow
    from .pane import VideoPane


def install(window: MainWindow, pane: VideoPane) -> None:
    """The pane's actions in ``window``, with their keys and menu entries."""
    from .pane import SKIP_MS, show_pane

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
