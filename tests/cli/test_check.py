"""`replayer check`: text and JSON output, exit status, unreadable input, and the golden outputs.

The golden files under ``tests/golden/<game>/`` hold the exact stdout of
``replayer check --color never samples/<game>/<name>.duel`` (``.txt``) and of the same with
``--format json`` (``.json``), run from the repository's top folder. ``pytest --update-golden``
rewrites them from the current code; review the diff before committing it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from replayer.cli import cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
SAMPLES = sorted(p for game in ("ygo", "dm") for p in (ROOT / "samples" / game).glob("*.duel"))

CLEAN = '[Game "ygo"]\nturn 2 A\nphase draw\nA: draw\nphase standby\nphase main1\n'
BAD = '[Game "ygo"]\nturn 2 A\nphase draw\nA: drwa\nphase standby\n'
FINDING_KEYS = {"severity", "kind", "rule", "line", "column", "message", "hint", "cite"}
FILE_KEYS = {"file", "game", "rules", "events", "findings"}


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(cli, ["check", *args], catch_exceptions=False)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(cli, ["check", *args], catch_exceptions=False)
    finally:
        os.chdir(old)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# ---- exit status (spec §9) ---------------------------------------------------------------------
def test_exit_0_with_no_errors(tmp_path):
    result = run(str(write(tmp_path, "ok.duel", CLEAN)))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == "1 file checked: 0 errors, 0 warnings\n"


def test_exit_1_with_errors(tmp_path):
    result = run(str(write(tmp_path, "bad.duel", BAD)))
    assert result.exit_code == 1
    assert result.stderr == "1 file checked: 1 error, 0 warnings\n"


@pytest.mark.parametrize("content,message", [
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00", "this is a binary file, not a text log"),
    ('[Game "ygo"]\nturn 2 A\nA: activate "Café"\n'.encode("latin-1"), "the file is not UTF-8 text"),
])
def test_exit_2_for_a_file_that_is_not_text(tmp_path, content, message):
    path = write(tmp_path, "x.duel", content)
    result = run(str(path))
    assert result.exit_code == 2
    assert message in result.stdout
    assert "Traceback" not in result.output


def test_exit_2_for_a_missing_file(tmp_path):
    result = run(str(tmp_path / "nope.duel"))
    assert result.exit_code == 2
    assert "cannot read" in result.stderr and "nope.duel" in result.stderr
    assert "Traceback" not in result.output


def test_exit_2_for_a_folder_with_no_logs(tmp_path):
    result = run(str(tmp_path))
    assert result.exit_code == 2
    assert "no .duel files" in result.stderr


def test_an_empty_file_is_an_error_not_a_crash(tmp_path):
    result = run(str(write(tmp_path, "empty.duel", "")))
    assert result.exit_code == 1
    assert ":1:1: error[syntax.empty]: the file is empty" in result.stdout


def test_unreadable_wins_over_errors(tmp_path):
    bad = write(tmp_path, "a.duel", BAD)
    binary = write(tmp_path, "b.duel", b"\x00\x01")
    assert run(str(bad), str(binary)).exit_code == 2
    assert run(str(binary), str(bad)).exit_code == 2


# ---- text output -------------------------------------------------------------------------------
def test_text_output_is_like_a_compiler(tmp_path):
    path = write(tmp_path, "t.duel", '[Game "ygo"]\nturn 2 A\n  timing before-calculation\n')
    result = run(str(path))
    assert result.stdout.splitlines() == [
        f"{path}:3:10: error[syntax.line]: unexpected `before-calculation`; expected a timing "
        "(ds-start, before-calc, calc, after-calc, ds-end)",
        "    timing before-calculation",
        "           ^~~~~~~~~~~~~~~~~~",  # the whole token (issue 23, point 9)
        "  = hint: did you mean `timing before-calc`?",
        "  = cite: replayer log notation v1 §3-§5",
    ]


def test_caret_under_wide_characters(tmp_path):
    path = write(tmp_path, "w.duel", '[Game "ygo"]\nA: 発動 《オネスト》 手札\n')
    lines = run(str(path)).stdout.splitlines()
    assert lines[1] == "  A: 発動 《オネスト》 手札"
    # 発動 and オネスト are two columns wide on a terminal; the caret goes under 手札
    assert lines[2] == "  " + " " * 21 + "^~~~"  # (手札: four columns)


def test_no_colour_unless_asked(tmp_path):
    path = write(tmp_path, "bad.duel", BAD)
    assert "\x1b[" not in run(str(path)).stdout  # CliRunner is not a terminal
    assert "\x1b[" not in run("--color", "never", str(path)).stdout


def test_color_always_colours_a_pipe(tmp_path):
    path = write(tmp_path, "bad.duel", BAD)
    proc = subprocess.run([sys.executable, "-m", "replayer", "check", "--color", "always", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert "\x1b[1;31m" in proc.stdout


def test_a_folder_is_searched_for_logs(tmp_path):
    write(tmp_path, "b/two.duel", BAD)
    write(tmp_path, "a/one.duel", CLEAN)
    write(tmp_path, "a/notes.txt", "not a log")
    result = run("--format", "json", str(tmp_path))
    files = [json.loads(line)["file"] for line in result.stdout.splitlines()]
    assert files == [str(tmp_path / "a" / "one.duel"), str(tmp_path / "b" / "two.duel")]
    assert result.exit_code == 1


# ---- JSON output (spec §9) ---------------------------------------------------------------------
def test_json_has_exactly_the_fields_of_spec_9(tmp_path):
    path = write(tmp_path, "bad.duel", BAD + "B: activate \"Honest\" {quik-play}\n")
    result = run("--format", "json", str(path))
    (line,) = result.stdout.splitlines()
    obj = json.loads(line)
    assert set(obj) == FILE_KEYS
    assert (obj["file"], obj["game"], obj["rules"], obj["events"]) == (str(path), "ygo", "current", 4)
    syntax = [f for f in obj["findings"] if f["kind"] == "syntax"]
    assert [(f["line"], f["column"], f["rule"], f["severity"]) for f in syntax] == [
        (4, 4, "syntax.line", "error"), (6, 13, "syntax.property", "warning")]
    for finding in obj["findings"]:
        assert set(finding) == FINDING_KEYS
        assert finding["severity"] in ("error", "warning", "info")
        assert finding["kind"] in ("syntax", "illegal-activation", "wrong-timing", "ordering", "state",
                                   "unknown-card")
        assert isinstance(finding["line"], int) and isinstance(finding["column"], int)
    assert syntax[0]["hint"] == "did you mean `A: draw`?"
    assert result.exit_code == 1


def test_json_is_one_object_a_file_one_a_line(tmp_path):
    paths = [write(tmp_path, f"{i}.duel", CLEAN) for i in range(3)]
    result = run("--format", "json", *map(str, paths))
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["file"] for o in objs] == list(map(str, paths))
    assert result.stderr == ""  # no summary line in JSON mode


def test_json_keeps_non_ascii_text(tmp_path):
    path = write(tmp_path, "ja.duel", '[Game "ygo"]\nA: 発動 《オネスト》 手札\n')
    line = run("--format", "json", str(path)).stdout
    assert "手札" in line and "\\u" not in line


# ---- as a program --------------------------------------------------------------------------------
def test_python_dash_m_replayer(tmp_path):
    path = write(tmp_path, "bad.duel", BAD)
    proc = subprocess.run([sys.executable, "-m", "replayer", "check", "--format", "json", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["findings"][0]["line"] == 4
    for bad in (tmp_path / "missing.duel", write(tmp_path, "bin.duel", b"\x00" * 10)):
        proc = subprocess.run([sys.executable, "-m", "replayer", "check", str(bad)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2
        assert "Traceback" not in proc.stderr + proc.stdout


# ---- golden outputs of the samples ------------------------------------------------------------------
def test_every_game_has_at_least_eight_samples():
    assert sum(p.parent.name == "ygo" for p in SAMPLES) >= 8
    assert sum(p.parent.name == "dm" for p in SAMPLES) >= 8


def _golden(sample: Path, suffix: str) -> Path:
    return GOLDEN / sample.parent.name / (sample.stem + suffix)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_output(sample: Path, update_golden: bool):
    rel = sample.relative_to(ROOT).as_posix()
    text = run("--color", "never", rel, cwd=ROOT)
    js = run("--format", "json", rel, cwd=ROOT)
    obj = json.loads(js.stdout)
    errors = sum(f["severity"] == "error" for f in obj["findings"])
    assert text.exit_code == js.exit_code == (1 if errors else 0)
    if update_golden:
        for suffix, out in ((".txt", text.stdout), (".json", js.stdout)):
            path = _golden(sample, suffix)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(out, encoding="utf-8")
        return
    for suffix, out in ((".txt", text.stdout), (".json", js.stdout)):
        path = _golden(sample, suffix)
        assert path.is_file(), f"{path} is missing: run pytest --update-golden"
        assert out == path.read_text(encoding="utf-8"), f"{rel}: output differs from {path.name}"


def test_no_stale_golden_files(update_golden: bool):
    expected = {_golden(s, suffix) for s in SAMPLES for suffix in (".txt", ".json")}
    present = set(GOLDEN.rglob("*.*")) if GOLDEN.is_dir() else set()
    stale = present - expected
    if update_golden:
        for path in stale:
            path.unlink()
        return
    assert sorted(map(str, stale)) == []


def test_the_typo_transcript_shows_syntax_findings_and_is_still_read():
    sample = ROOT / "samples" / "ygo" / "transcript-with-typos.duel"
    obj = json.loads(run("--format", "json", str(sample)).stdout)
    syntax = [(f["line"], f["column"], f["hint"]) for f in obj["findings"] if f["kind"] == "syntax"]
    assert syntax == [
        (22, 8, "did you mean `timing before-calc`?"),
        (23, 4, "did you mean `A: activate`?"),
        (28, 8, "the form is `A: lp 7500`"),
        (29, 37, "did you mean `by battle`?"),
        (36, 8, "a card name's closing quote is missing"),
    ]
    assert obj["events"] == 39  # the 44 event lines less the 5 typos


def test_a_missing_file_is_an_object_in_json_output_too(tmp_path):
    good = write(tmp_path, "good.duel", '[Game "ygo"]\nturn 1 A\nA: draw\n')
    result = run("--format", "json", str(tmp_path / "nope.duel"), str(good))
    assert result.exit_code == 2
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["file"].endswith(name) for o, name in zip(objects, ("nope.duel", "good.duel"))] == [True, True]
    assert objects[0]["findings"][0]["rule"] == "file.unreadable"
    assert set(objects[0]) == {"file", "game", "rules", "events", "findings"}
    text = run(str(tmp_path / "nope.duel"), str(good))
    assert "1 file checked: 0 errors, 0 warnings; 1 could not be read" in text.stderr


def test_an_internal_error_is_a_message_not_a_traceback(tmp_path, monkeypatch):
    import replayer.cli.check as cli_module

    def broken(match):
        raise RuntimeError("boom")

    monkeypatch.setattr(cli_module, "check_match", broken)
    monkeypatch.delenv("REPLAYER_DEBUG", raising=False)
    path = write(tmp_path, "ok.duel", '[Game "ygo"]\nturn 1 A\n')
    result = run(str(path))
    assert result.exit_code == 2
    assert "internal error while checking" in result.stderr and "boom" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
