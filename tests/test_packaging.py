"""The built package carries its grammar: a wheel installed (not editable) finds the games'
``.lark`` files (``replayer/games/core.lark``, ``replayer/games/<id>/grammar.lark``), and the sdist
contains them.

Slow-ish (a wheel build and a venv, about ten seconds) but run by default: a grammar missing
from the wheel breaks every installed copy while every other test stays green.

Offline: the venv is made with ``--system-site-packages`` so lark and click come from this
Python; the builds use the hatchling installed here (``--no-build-isolation``) when there is one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRAMMARS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "replayer" / "games").rglob("*.lark"))


def _have_hatchling() -> bool:
    try:
        import hatchling  # noqa: F401
    except ImportError:
        return False
    return True


def _pip(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    isolation = ["--no-build-isolation"] if _have_hatchling() else []
    proc = _pip("wheel", "--no-deps", *isolation, "-w", str(out), str(ROOT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (whl,) = out.glob("replayer-*.whl")
    return whl


def test_the_wheel_contains_the_grammar_and_the_data(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert GRAMMARS == ["replayer/games/core.lark", "replayer/games/dm/grammar.lark",
                        "replayer/games/ygo/grammar.lark"]
    for grammar in GRAMMARS:
        assert grammar in names
    assert "replayer/py.typed" in names
    tomls = sorted((ROOT / "replayer" / "games").rglob("catalog.toml"))
    assert len(tomls) == 2
    for toml in tomls:
        assert toml.relative_to(ROOT).as_posix() in names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "replayer = replayer.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_an_installed_wheel_finds_its_grammar(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
                   check=True, timeout=300)
    python = venv / "bin" / "python"
    proc = _pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel))
    assert proc.returncode == 0, proc.stdout + proc.stderr

    elsewhere = tmp_path / "elsewhere"  # not the checkout: nothing may come from the source tree
    elsewhere.mkdir()
    script = textwrap.dedent("""
        import json, replayer, replayer.grammar
        from replayer import check_text
        result = check_text('[Game "ygo"]\\nturn 2 A\\nA: drwa\\n')
        print(json.dumps({"module": replayer.__file__, "grammar": str(replayer.grammar.grammar_dir()),
                          "events": len(result.match.events),
                          "findings": [(f.line, f.rule) for f in result.findings]}))
    """)
    proc = subprocess.run([str(python), "-c", script], cwd=elsewhere, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["module"].startswith(str(venv)), got["module"]
    assert got["grammar"] == str(Path(got["module"]).parent / "games")
    assert got["events"] == 1
    assert got["findings"] == [[3, "syntax.line"]]

    log = elsewhere / "g.duel"
    log.write_text('[Game "dm"]\nturn 7 A\nA: brake 2\n', encoding="utf-8")
    proc = subprocess.run([str(venv / "bin" / "replayer"), "check", "--format", "json", str(log)],
                          cwd=elsewhere, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert [f["rule"] for f in json.loads(proc.stdout)["findings"]] == ["syntax.line"]


def test_the_sdist_contains_the_grammar(tmp_path: Path):
    if not _have_hatchling():
        pytest.skip("hatchling is not importable here, and building an sdist offline needs it "
                    "(the wheel half of this module still runs)")
    from hatchling.builders.sdist import SdistBuilder

    (sdist,) = SdistBuilder(str(ROOT)).build(directory=str(tmp_path))
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for grammar in GRAMMARS:
        assert grammar in names
    for required in ("pyproject.toml", "README.md", "replayer/__init__.py", "replayer/grammar.py"):
        assert required in names
