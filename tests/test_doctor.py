"""`replayer doctor` says what replayer finds here (issue 14, point 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _doctor(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(extra)
    return subprocess.run([sys.executable, "-m", "replayer", "doctor"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_doctor_reports_qt_fonts_data_and_catalogs(tmp_path):
    env_path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = _doctor(tmp_path, PYTHONPATH=env_path, REPLAYER_LIBRARY=str(tmp_path / "none.db"))
    assert proc.returncode in (0, 1), proc.stderr
    out = proc.stdout
    for heading in ("replayer ", "Qt", "Fonts", "Data"):
        assert any(line.startswith(heading) for line in out.splitlines()), (heading, out)
    assert "cards (ygo): " in out and "cards (dm): " in out
    assert f"library: {tmp_path / 'none.db'} (none yet" in out
    assert out.rstrip().endswith(("All is well.", "found."))
    assert (proc.returncode == 1) == ("  ! " in out)


def test_doctor_names_a_display_that_does_not_answer(tmp_path):
    if not sys.platform.startswith("linux") or os.path.exists("/tmp/.X11-unix/X55"):
        return
    env_path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = _doctor(tmp_path, PYTHONPATH=env_path, DISPLAY=":55")
    assert proc.returncode == 1
    assert "! DISPLAY=:55 does not answer" in proc.stdout
