"""The README's quick start is two commands: the first installs what a user runs (replayer with the
video extra) and opens the window, the second installs what the tests need and runs them; `.ci/run`
runs exactly those two (issue 23, point 14)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Quick start"):]
    section = section[:section.index("\n## ", 3)]
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", section, re.S)]


def _ci_lines() -> list[str]:
    return [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_two_commands_the_first_installs_what_a_user_runs():
    first, second = _quick_start()
    assert "\n" not in first and "\n" not in second
    assert "pip install -e '.[video]'" in first and "test" not in first.split("&& replayer")[0]
    assert first.endswith("replayer view samples/ygo/honest-in-calc.duel")
    assert "pip install -e '.[test]'" in second and second.endswith("QT_QPA_PLATFORM=offscreen python -m pytest -q")


def test_the_test_tools_are_in_the_test_extra_only():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    tools = {"pytest", "pytest-qt", "hypothesis", "hatchling", "av"}
    names = lambda reqs: {re.split(r"[<>=!;\[ ]", r, 1)[0].strip().lower() for r in reqs}  # noqa: E731
    assert tools <= names(extras["test"])
    assert not tools & names(extras["video"])


def test_ci_runs_exactly_the_two_commands():
    first, second = _quick_start()
    install = first.split(" && replayer view")[0]
    ci = _ci_lines()
    assert [line.replace(" --quiet", "") for line in ci if "pip install" in line] == [install, second]
    assert second in ci  # as written, not quietened
    assert any(line.endswith("replayer view samples/ygo/honest-in-calc.duel") for line in ci)
