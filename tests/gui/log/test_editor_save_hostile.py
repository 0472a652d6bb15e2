"""The editor's save when the file system is against it (issue 22, points 11 to 15 and 18): a
symlinked log, another program's version after a conflict, a folder that cannot be written
when the window is closed, temporaries a killed save left, a read-only log; and a ``[Video]``
that is not a web address, which "Open at timecode" never opens.

Run as root (as the CI's containers do), a folder of mode 0555 can still be written: the folder
that cannot be written is also simulated by making ``os.open`` refuse to create a file in it.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import Qt

from replayer.gui.shared import savefile

from ..conftest import YGO_LOG, open_and_wait
from .test_editor import put_cursor


def _edit(qtbot, window, text: str = " mine") -> str:
    """Start editing, type ``text`` at the end of the first line; the text now."""
    ed = window.editor
    ed.start()
    view = window.log_pane.view
    put_cursor(view, 1)
    qtbot.keyClicks(view, text)
    assert view.document().isModified()
    return view.toPlainText()


def _save_and_wait(qtbot, window):
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        out = window.editor.save()
    return out


def _dead_pid() -> int:
    """The id of a process that has ended."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ---- 11: a symlinked log -----------------------------------------------------------------------
def test_a_symlinked_log_is_saved_through_the_link(qtbot, window, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "links").mkdir()
    real = tmp_path / "real" / "match.duel"
    real.write_text(YGO_LOG, encoding="utf-8")
    link = tmp_path / "links" / "match.duel"
    link.symlink_to(os.path.relpath(real, link.parent))
    open_and_wait(qtbot, window, link)
    mine = _edit(qtbot, window)
    _save_and_wait(qtbot, window)
    assert link.is_symlink() and os.readlink(link) == os.path.relpath(real, link.parent)  # the link stays
    assert real.read_text(encoding="utf-8") == mine  # the linked file got the edit
    assert (tmp_path / "real" / "match.duel.bak").read_text(encoding="utf-8") == YGO_LOG  # beside the target
    assert sorted(p.name for p in (tmp_path / "links").iterdir()) == ["match.duel"]  # nothing beside the link
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["match.duel", "match.duel.bak"]
    message = window.statusBar().currentMessage()
    assert "which the link points to" in message and str(real) in message, message
    # a second save goes the same way; reloading reads the target through the link
    qtbot.keyClicks(window.log_pane.view, " again")
    _save_and_wait(qtbot, window)
    assert link.is_symlink() and real.read_text(encoding="utf-8").splitlines()[0].endswith("mine again")


# ---- 12: another program's version after a conflict ------------------------------------------
def test_the_other_programs_version_survives_the_next_save(qtbot, window, ygo_log):
    open_and_wait(qtbot, window, ygo_log)
    ed = window.editor
    mine = _edit(qtbot, window)
    asked = []
    ed.ask_reload = lambda: asked.append(1) or False  # "keep my text"
    other = YGO_LOG + "turn 4 B\n"
    ygo_log.write_text(other, encoding="utf-8")
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    window.show_counts(window.doc)  # the re-check of the typing ends now (it may, in any order): the warning stays
    assert ed.conflict and "kept as match.duel.conflict-" in window.statusBar().currentMessage()
    _save_and_wait(qtbot, window)
    kept = sorted(ygo_log.parent.glob("match.duel.conflict-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == other
    message = window.statusBar().currentMessage()
    assert f"another program wrote meanwhile is kept as {kept[0].name}" in message, message
    assert ygo_log.read_text(encoding="utf-8") == mine
    # the next ordinary saves overwrite .bak (the previous file), never the other version
    for more in (" two", " three"):
        qtbot.keyClicks(window.log_pane.view, more)
        _save_and_wait(qtbot, window)
    assert sorted(ygo_log.parent.glob("match.duel.conflict-*")) == kept
    assert kept[0].read_text(encoding="utf-8") == other
    assert ygo_log.with_name("match.duel.bak").read_text(encoding="utf-8").splitlines()[0].endswith("mine two")
    assert "another program" not in window.statusBar().currentMessage()  # nothing new to keep


def test_a_change_on_disk_not_noticed_yet_is_kept_too(qtbot, window, ygo_log):
    """The file changed between the watcher's last word and Ctrl+S: the save still keeps it."""
    open_and_wait(qtbot, window, ygo_log)
    mine = _edit(qtbot, window)
    window.watcher.removePaths(window.watcher.files())  # the change is not heard
    other = YGO_LOG + "turn 9 A\n"
    ygo_log.write_text(other, encoding="utf-8")
    assert not window.editor.conflict
    _save_and_wait(qtbot, window)
    kept = sorted(ygo_log.parent.glob("match.duel.conflict-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == other
    assert ygo_log.read_text(encoding="utf-8") == mine


# ---- 13: a failed save on close ----------------------------------------------------------------
@pytest.fixture
def unwritable(monkeypatch):
    """Make a folder unwritable: mode 0555, and (root writes anyway) no file may be created in it."""
    folders = []
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and os.path.dirname(os.path.abspath(path)) in folders:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)

    def make(folder):
        folders.append(str(folder.resolve()))
        folder.chmod(0o555)
        return folder

    yield make
    for f in folders:
        os.chmod(f, 0o755)


def test_a_failed_save_on_close_keeps_the_window_and_the_text(qtbot, window, tmp_path, unwritable):
    folder = tmp_path / "shared"
    folder.mkdir()
    log = folder / "match.duel"
    log.write_text(YGO_LOG, encoding="utf-8")
    open_and_wait(qtbot, window, log)
    ed = window.editor
    mine = _edit(qtbot, window)
    unwritable(folder)
    told = []
    ed.ask_save_changes = lambda: "save"  # "Save" in the close dialog
    ed.ask_save_failed = lambda target, why: told.append(why) or "cancel"
    window.close()
    assert window.isVisible(), "a failed save closed the window"
    assert window.log_pane.view.toPlainText() == mine and window.log_pane.view.document().isModified()
    assert log.read_text(encoding="utf-8") == YGO_LOG
    assert told and f"the folder {folder.resolve()} cannot be written" in told[0], told
    assert "Not saved" in window.statusBar().currentMessage()
    assert not [p for p in folder.iterdir() if p.name != "match.duel"]
    # "Save As…" in that message: saved elsewhere, and the window closes
    elsewhere = tmp_path / "mine.duel"
    ed.ask_save_failed = lambda target, why: "save-as"
    ed.ask_save_as = lambda start: str(elsewhere)
    window.close()
    assert not window.isVisible()
    assert elsewhere.read_text(encoding="utf-8") == mine


def test_a_failed_ctrl_s_says_why_and_keeps_the_text(qtbot, window, tmp_path, unwritable):
    folder = tmp_path / "ro"
    folder.mkdir()
    log = folder / "match.duel"
    log.write_text(YGO_LOG, encoding="utf-8")
    open_and_wait(qtbot, window, log)
    mine = _edit(qtbot, window)
    unwritable(folder)
    said = []
    window.show_error = lambda *a, **k: said.append(a)
    qtbot.keyClick(window, Qt.Key_S, Qt.ControlModifier)
    assert not said, "no 'Something went wrong': the editor says it"
    assert "cannot be written" in window.statusBar().currentMessage()
    assert window.editor.last_error and "match.duel could not be saved" in window.editor.last_error
    assert window.log_pane.view.toPlainText() == mine and "●" in window.log_title.text()


# ---- 14: what a killed save left is cleaned up on the next open ---------------------------------
def test_stale_temporaries_are_removed_when_the_log_is_opened(qtbot, window, ygo_log):
    folder = ygo_log.parent
    dead = _dead_pid()
    stale = [folder / f".match.duel.{dead}-0a1b2c3d.tmp", folder / f".match.duel.bak.{dead}-0a1b2c3d.tmp",
             folder / f".match.duel.conflict-20261202-070651.{dead}-00ff00ff.tmp",
             folder / ".match.duel.k3j4h5g6.tmp"]  # (the name an older replayer gave its temporary)
    for p in stale:
        p.write_bytes(YGO_LOG.encode() * 100)
    old = time.time() - 3600
    os.utime(stale[-1], (old, old))
    living = folder / f".match.duel.{os.getppid()}-0a1b2c3d.tmp"  # a save in progress in another process
    others = [folder / ".match.duel.notes", folder / "match.duel.bak", folder / ".other.duel.k3j4h5g6.tmp", living]
    for p in others:
        p.write_text("keep", encoding="utf-8")
    open_and_wait(qtbot, window, ygo_log)
    assert [p for p in stale if p.exists()] == []
    assert all(p.exists() for p in others)


def test_the_backup_is_whole_or_the_previous_one(tmp_path, monkeypatch):
    """The backup is written as the log is, not in place: a failure while writing it (here the
    disk filling up) leaves the previous backup whole, the log as it was, and no temporary."""
    log = tmp_path / "match.duel"
    log.write_bytes(b"version 2\n")
    bak = tmp_path / "match.duel.bak"
    bak.write_bytes(b"version 1\n")
    real_write = os.write
    calls = []

    def full_disk(fd, data):
        calls.append(len(data))
        if len(calls) == 2:  # the log's temporary takes its bytes; the backup's gets a part, then no more
            real_write(fd, bytes(data)[:3])
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError):
        savefile.atomic_write(log, b"version 3\n", backup=True)
    monkeypatch.undo()
    assert bak.read_bytes() == b"version 1\n" and log.read_bytes() == b"version 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.duel", "match.duel.bak"]


# ---- 15: a read-only log -------------------------------------------------------------------------
def test_a_read_only_log_is_not_saved_over_without_asking(qtbot, window, ygo_log):
    ygo_log.chmod(0o444)
    open_and_wait(qtbot, window, ygo_log)
    ed = window.editor
    mine = _edit(qtbot, window)
    asked = []
    ed.ask_readonly = lambda target: asked.append(target) or "cancel"
    assert ed.save() is None
    assert asked == [str(ygo_log)]
    assert ygo_log.read_text(encoding="utf-8") == YGO_LOG and "●" in window.log_title.text()
    assert "read-only" in window.statusBar().currentMessage()
    # "Save As…": another file; the read-only one is left alone
    other = ygo_log.with_name("copy.duel")
    ed.ask_readonly = lambda target: "save-as"
    ed.ask_save_as = lambda start: str(other)
    with qtbot.waitSignal(window.loaded, timeout=10_000):
        assert ed.save() == str(other)
    assert other.read_text(encoding="utf-8") == mine and ygo_log.read_text(encoding="utf-8") == YGO_LOG
    # "Save Over It": written, and still read-only (as editors do)
    window.open_path(ygo_log)
    qtbot.waitUntil(lambda: window.doc is not None and window.doc.path == str(ygo_log), timeout=10_000)
    _edit(qtbot, window, " over")
    ed.ask_readonly = lambda target: "overwrite"
    _save_and_wait(qtbot, window)
    assert ygo_log.read_text(encoding="utf-8").splitlines()[0].endswith(" over")
    assert stat.S_IMODE(ygo_log.stat().st_mode) == 0o444


# ---- 18: a [Video] that is not a web address ----------------------------------------------------
@pytest.mark.parametrize("address", ["https://[evil", "https://--option", "http://exa mple.com/v"])
def test_a_bad_video_address_is_a_finding_and_never_opened(qtbot, window, tmp_path, monkeypatch, address):
    from PySide6.QtGui import QDesktopServices

    from replayer.gui.video import pane as video_mod

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url) or True))
    log = tmp_path / "web.duel"
    log.write_text(f'[Game "ygo"]\n[A "Yuki"]\n[Video "{address}"]\n\n@0:05 turn 1 A\n@0:09 phase battle\n',
                   encoding="utf-8")
    doc = open_and_wait(qtbot, window, log)
    header = [f for f in doc.findings if f.rule == "syntax.header" and f.span.line == 3]
    assert header and "[Video] is not a web address" in header[0].message, doc.findings
    window.select_event(1)
    pane = window.video
    seen = []
    pane.message.connect(seen.append)
    pane.open_in_browser()  # (the button, and its key)
    assert opened == []
    assert seen and seen[-1].startswith("Not opened") and "Opened" not in window.statusBar().currentMessage()
    assert not pane.browser_button.isVisibleTo(pane)
    assert "not a web address" in pane.view.message
    assert isinstance(pane, video_mod.VideoPane)


def test_a_good_video_address_is_opened_at_the_events_second(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url.toString()) or True))
    log = tmp_path / "web.duel"
    log.write_text('[Game "ygo"]\n[Video "https://www.youtube.com/watch?v=abc"]\n\n@0:05 turn 1 A\n'
                   "@1:09 phase battle\n", encoding="utf-8")
    doc = open_and_wait(qtbot, window, log)
    assert not [f for f in doc.findings if f.rule == "syntax.header"]
    window.select_event(1)
    window.video.open_in_browser()
    assert opened == ["https://www.youtube.com/watch?v=abc&t=69"]
    assert window.statusBar().currentMessage().startswith("Opened https://www.youtube.com/")


# ---- 16: the window's export on a full disk ---------------------------------------------------
@pytest.mark.parametrize("kind", ["html", "pdf", "png"])
def test_an_export_on_a_full_disk_keeps_the_old_file_and_says_so(qtbot, window, ygo_log, monkeypatch, kind):
    open_and_wait(qtbot, window, ygo_log)
    out = ygo_log.with_name(f"report.{kind}")
    out.write_bytes(b"the old report, whole")
    said = []
    monkeypatch.setattr(window, "show_error", lambda title, text, modal=True: said.append((title, text)))
    real_write = os.write

    def full(fd, data):
        if len(data) > 100:
            real_write(fd, bytes(data)[:100])
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    assert window.export(kind, str(out)) is None
    monkeypatch.undo()
    assert out.read_bytes() == b"the old report, whole"
    assert sorted(p.name for p in ygo_log.parent.iterdir() if "report" in p.name) == [out.name]
    assert said and said[0][0] == "The export was not written", said
    assert "the disk is full" in said[0][1] and "An older file of that name is as it was" in said[0][1]
