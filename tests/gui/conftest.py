"""Fixtures for the window's tests: offscreen Qt, isolated settings, small logs written inline."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

#: Qt messages the offscreen platform prints that say nothing about our code
QT_NOISE = [r"propagateSizeHints", r"QFont::setPointSizeF", r"Populating font family aliases",
            r"This plugin does not support (raise|grabbing)"]
#: and what QtMultimedia's FFmpeg backend says about optional system libraries (PipeWire, VA-API, GPU)
QT_NOISE += [r"Couldn't (load|resolve) .*(librar|symbols)", r"No HW decoder", r"No RHI backend",
             r"Using Qt multimedia with FFmpeg"]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(HERE):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(*QT_NOISE))


@pytest.fixture(autouse=True)
def _app(qapp):
    """Every test here may paint (icons, fonts): a QApplication exists first."""
    return qapp


@pytest.fixture(autouse=True)
def _english_window(monkeypatch):
    """The window speaks English whatever the machine's locale (tests/gui/shared/test_language.py chooses
    others); each test's first window chooses its language again."""
    from replayer.gui.shared import language

    monkeypatch.setenv("REPLAYER_LANG", "en")
    language.reset()
    yield
    language.reset()


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path_factory):
    """Recent files and the theme go to a temporary INI file, never the user's."""
    from PySide6.QtCore import QSettings

    folder = tmp_path_factory.mktemp("settings")
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, str(folder))
    yield folder


YGO_LOG = """\
# A short Damage Step with one bad line and a wrong Life Points line.
[Game "ygo"]
[A "Yuki"]
[B "海馬"]
[Event "Test <Regional> & Co"]

@1:00 turn 3 A
A: set "Zz Mystery Card"
phase battle
A: attack "Lyla, Lightsworn Sorceress" 1700/200 -> "Blue-Eyes White Dragon" 3000/2500
step damage
timing ds-start
timing before-calc
A: activate "Honest" {quick, atk-mod} from hand   # Honest <b>before</b> calc
resolve
A: atk "Lyla, Lightsworn Sorceress" 4700
timing calc
B: damage 1700
@1:42 B: lp 6400
B: destroy "Blue-Eyes White Dragon" by battle
A: atack "Lyla" -> direct
timing after-calc
timing ds-end
B: send "Blue-Eyes White Dragon" to gy
step battle
"""

DM_LOG = """\
[Game "dm"]
[A "Kaito"]
[B "Rin"]

turn 7 A
A: summon "Gatling Cyclone" {creature, power 3000, speed-attacker}
@21:05 A: attack "Gatling Cyclone" -> player
A: break 1
B: s-trigger "Terror Pit" {spell, s-trigger}   # destroys one of A's creatures
B: resolve "Terror Pit"
A: destroy "Gatling Cyclone"
attack ends
A: attack "Bolshack Dragon" 6000 {creature, w-breaker} -> player
A: break 2
attack ends
turn 8 B
"""


@pytest.fixture
def ygo_log(tmp_path) -> Path:
    p = tmp_path / "match.duel"
    p.write_text(YGO_LOG, encoding="utf-8")
    return p


@pytest.fixture
def dm_log(tmp_path) -> Path:
    p = tmp_path / "dm.duel"
    p.write_text(DM_LOG, encoding="utf-8")
    return p


def line_of(text: str, needle: str) -> int:
    """1-based number of the first line of ``text`` that contains ``needle``."""
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in the log")


@pytest.fixture
def window(qtbot):
    from replayer.gui.app import MainWindow

    w = MainWindow(theme="light")
    qtbot.add_widget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.loader.wait(10_000)


def open_and_wait(qtbot, window, path, timeout: int = 20_000):
    with qtbot.waitSignal(window.loaded, timeout=timeout):
        assert window.open_path(path)
    return window.doc
