"""`replayer view` on a machine with no display: a clear message and the findings, not a Qt abort."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_view_without_a_display_prints_the_findings():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    if sys.platform.startswith("linux"):
        proc = subprocess.run([sys.executable, "-m", "replayer", "view", "samples/ygo/honest-in-calc.duel"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 1, proc.stderr
        assert "no display" in proc.stderr
        assert "error[ygo.ds.atk-mod-after-calc]" in proc.stdout
        assert "Traceback" not in proc.stderr and "Aborted" not in proc.stderr
