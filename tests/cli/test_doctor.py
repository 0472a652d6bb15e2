"""`replayer doctor` says what replayer finds here (issue 14, point 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


def _env_path() -> str:
    return os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])


def test_doctor_reports_the_card_database_the_video_extra_and_poppler(tmp_path):
    """Issue 23 (13): where the card database is, its cards per game and the files they came from;
    whether the video pane can play; whether poppler's pdftoppm is there."""
    import json
    import shutil

    cards = tmp_path / "dm-cards.json"
    cards.write_text(json.dumps({"cards": [
        {"name": "Test Wall", "type": "Creature", "civilizations": ["Water"], "cost": 2, "power": "2000",
         "text": "Blocker", "printings": [{"set": "X", "id": "1", "rarity": "C", "illustrator": "-"}]},
        {"name": "Test Racer", "type": "Creature", "civilizations": ["Fire"], "cost": 5, "power": "6000",
         "text": "Double breaker", "printings": [{"set": "X", "id": "2", "rarity": "C", "illustrator": "-"}]},
    ]}), encoding="utf-8")
    db = tmp_path / "cards.db"
    done = subprocess.run([sys.executable, "-m", "replayer", "cards", "import", "--cards-db", str(db), str(cards)],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": _env_path()}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = _doctor(tmp_path, PYTHONPATH=_env_path(), REPLAYER_CARDS_DB=str(db)).stdout
    line = next(x for x in out.splitlines() if x.startswith("  card database: "))
    assert line.startswith(f"  card database: {db}, ") and "last imported 20" in line and line.endswith("dm 2")
    rows = out.splitlines()[out.splitlines().index(line) + 1:]
    assert rows[0].split() == ["source", "file", "dated"]
    assert rows[1].split()[0].endswith("dm-cards.json") and rows[1].split()[1].startswith("20")
    assert any(x.startswith("  video pane: ") for x in out.splitlines())
    assert ("pdftoppm: " + shutil.which("pdftoppm")) in out if shutil.which("pdftoppm") else \
        "sudo apt install poppler-utils" in out


def test_doctor_says_what_to_do_without_a_card_database(tmp_path):
    out = _doctor(tmp_path, PYTHONPATH=_env_path(), REPLAYER_CARDS_DB=str(tmp_path / "none.db")).stdout
    assert f"card database: {tmp_path / 'none.db'} (none yet: `replayer cards import" in out
