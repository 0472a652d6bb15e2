"""`replayer view FILE --screenshot PATH`: a PNG that is not blank and shows the badges."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner
from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QImage

from replayer.cli import cli
from replayer.gui.app import MainWindow
from replayer.gui.shared.theme import LIGHT

from .conftest import ROOT, YGO_LOG, line_of


def _close(a: QColor, b: QColor, tol: int = 40) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) <= tol


def test_screenshot_command_writes_a_png_that_is_not_blank(tmp_path, ygo_log):
    out = tmp_path / "shot.png"
    result = CliRunner().invoke(cli, ["view", str(ygo_log), "--screenshot", str(out), "--size", "1200x800"])
    assert result.exit_code == 0, result.output
    image = QImage(str(out))
    assert not image.isNull() and (image.width(), image.height()) == (1200, 800)
    colours = {image.pixel(x, y) for x in range(0, 1200, 5) for y in range(0, 800, 5)}
    assert len(colours) > 100
    error = QColor(LIGHT.severity["error"])
    hits = sum(1 for x in range(0, 1200, 2) for y in range(0, 480, 2) if _close(QColor(image.pixel(x, y)), error))
    assert hits > 10  # the red of the error badges (and gutter marks) is there


def test_screenshot_shows_a_badge_on_the_event_of_each_finding(qtbot, ygo_log):
    window = MainWindow(theme="light")
    qtbot.add_widget(window)
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    doc = window.open_path_now(ygo_log)
    window.timeline.fit_match()
    image = window.grab().toImage()
    tl = window.timeline
    checked = 0
    for k, f in enumerate(doc.findings):
        centre = tl.badge_center(k)
        assert centre is not None
        p = tl.viewport().mapTo(window, tl.mapFromScene(centre))
        # left of the disc's centre (the glyph sits in the middle)
        colour = QColor(image.pixel(p + QPoint(-4, 1)))
        assert _close(colour, QColor(LIGHT.severity[f.severity.value])), (f.rule, colour.name())
        checked += 1
    assert checked == len(doc.findings) >= 2


def test_dark_screenshot_and_bad_arguments(tmp_path, ygo_log):
    out = tmp_path / "dark.png"
    result = CliRunner().invoke(cli, ["view", str(ygo_log), "--screenshot", str(out), "--theme", "dark",
                                      "--select", str(line_of(YGO_LOG, "B: lp"))])
    assert result.exit_code == 0, result.output
    image = QImage(str(out))
    assert QColor(image.pixel(image.width() // 3, image.height() - 60)).lightness() < 100
    result = CliRunner().invoke(cli, ["view", str(tmp_path / "missing.duel"), "--screenshot", str(out)])
    assert result.exit_code == 2 and "cannot read" in result.output
    result = CliRunner().invoke(cli, ["view", "--screenshot", str(out)])
    assert result.exit_code != 0


def test_replayer_check_does_not_load_qt():
    code = ("import sys; from replayer.cli import cli; "
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'PySide6 loaded'; "
            "assert 'view' in cli.commands")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
