"""The built package carries its grammar: a wheel installed (not editable) finds the games'
``.lark`` files (``replayer/games/core.lark``, ``replayer/games/<id>/grammar.lark``), and the sdist
contains them.

Slow-ish (a wheel build and a venv, about ten seconds) but run by default: a grammar missing
from the wheel breaks every installed copy while every other test stays green.

Offline: the inner venv sees the packages of the Python running the tests (lark, click, ...)
through a ``.pth`` file listing this interpreter's site-packages folders, so the test works the
same from a virtual environment (the README's way) as from a base Python. ``--system-site-packages``
would not do: from inside a venv it gives the *base* interpreter's packages, not the venv's. The
builds use the hatchling installed here (``--no-build-isolation``) when there is one.
"""

from __future__ import annotations

import json
import os
import site
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


def outer_site_packages() -> list[str]:
    """The site-packages folders of the Python running the tests (a venv's own, and the base
    Python's when that venv was made with ``--system-site-packages``), in import order."""
    folders = list(site.getsitepackages())
    if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
        folders.append(site.getusersitepackages())
    return [f for f in dict.fromkeys(folders) if os.path.isdir(f)]


def make_venv_seeing_ours(venv: Path) -> Path:
    """A venv without pip whose own site-packages comes first, then this Python's: a wheel
    installed in it is the one imported, and its dependencies come from here (offline)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    inner = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                           capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    # Lines of a .pth file are appended to sys.path after the venv's own folder; .pth files in
    # those folders are not run, so an editable install of the checkout there is not picked up.
    Path(inner, "_outer_site_packages.pth").write_text("\n".join(outer_site_packages()) + "\n")
    return python


def clean_env() -> dict[str, str]:
    """The environment without PYTHONPATH (a developer's PYTHONPATH=checkout would shadow the wheel)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def test_the_inner_venv_sees_this_pythons_packages(tmp_path: Path):
    python = make_venv_seeing_ours(tmp_path / "venv")
    proc = subprocess.run([str(python), "-c", "import lark, click, sys; print(lark.__file__); print(sys.prefix)"],
                          capture_output=True, text=True, timeout=60, env=clean_env(), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lark_file, prefix = proc.stdout.split("\n")[:2]
    assert prefix == str(tmp_path / "venv")
    assert any(lark_file.startswith(f) for f in outer_site_packages()), lark_file


def test_an_installed_wheel_finds_its_grammar(wheel: Path, tmp_path: Path):
    venv = tmp_path / "venv"
    python = make_venv_seeing_ours(venv)
    proc = _pip("--python", str(python), "install", "--no-deps", "--no-index", str(wheel))
    assert proc.returncode == 0, proc.stdout + proc.stderr

    elsewhere = tmp_path / "elsewhere"  # not the checkout: nothing may come from the source tree
    elsewhere.mkdir()
    script = textwrap.dedent("""
        import json, replayer, replayer.grammar
        from replayer import check_text
        result = check_text('[Game "ygo"]\\nturn 2 A\\nA: drwa\\n')
        print(json.dumps({"module": replayer.__file__, "grammar": str(replayer.grammar.grammar_dir(replayer.games.get("ygo"))),
                          "events": len(result.match.events),
                          "findings": [(f.line, f.rule) for f in result.findings]}))
    """)
    proc = subprocess.run([str(python), "-c", script], cwd=elsewhere, capture_output=True, text=True,
                          timeout=300, env=clean_env())
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["module"].startswith(str(venv)), got["module"]
    assert got["grammar"] == str(Path(got["module"]).parent / "games")
    assert got["events"] == 1
    assert got["findings"] == [[3, "syntax.line"]]

    log = elsewhere / "g.duel"
    log.write_text('[Game "dm"]\nturn 7 A\nA: brake 2\n', encoding="utf-8")
    proc = subprocess.run([str(venv / "bin" / "replayer"), "check", "--format", "json", str(log)],
                          cwd=elsewhere, capture_output=True, text=True, timeout=300, env=clean_env())
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
