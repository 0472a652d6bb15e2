"""PySide6 6.12.0 on Python 3.11 corrupted None's reference count on every Qt method that returns
nothing ("Fatal Python error: none_dealloc" after a few thousand calls). pyproject.toml keeps
that release off Python 3.11; this test makes the 300,000 calls that crashed it, in a child
process so that a crash is a failure, not a lost test run."""

from __future__ import annotations

import os
import subprocess
import sys

CODE = """
import os
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtGui import QBrush, QColor, QGuiApplication
from PySide6.QtWidgets import QApplication, QGraphicsRectItem
app = QApplication([])
item = QGraphicsRectItem(0, 0, 10, 10)
brushes = [QBrush(QColor(i, 0, 0)) for i in range(256)]
for i in range(300_000):
    item.setBrush(brushes[i & 255])
print("ok done")
"""


def test_qt_void_methods_do_not_corrupt_none():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok done"


def test_installed_pyside6_is_not_the_broken_release_on_311():
    import PySide6

    if sys.version_info[:2] == (3, 11):
        assert PySide6.__version__ != "6.12.0"
