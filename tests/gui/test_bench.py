"""bench/gui.py: the generated log is what it says, and only the "## Window" section is written."""

from __future__ import annotations

import importlib.util

from replayer import read_text

from .conftest import ROOT


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_gui", ROOT / "bench" / "gui.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_log_has_the_events_asked_for():
    bench = load_bench()
    match = read_text(bench.generate_log(2000), "gen.duel")
    assert 2000 <= len(match.events) < 2100
    assert any(f.rule == "syntax.line" for f in match.findings) or len(match.events) < 5000


def test_write_docs_replaces_only_the_window_section(tmp_path):
    bench = load_bench()
    doc = tmp_path / "performance.md"
    doc.write_text("# Performance\n\n## Reader\n\nfast\n\n## Window\n\nold\n\n## Library\n\nkept\n", encoding="utf-8")
    bench.write_docs(["new figures"], doc)
    text = doc.read_text(encoding="utf-8")
    assert "## Reader\n\nfast" in text and "## Library\n\nkept" in text
    assert "new figures" in text and "old" not in text
    assert text.count("## Window") == 1
    other = tmp_path / "empty.md"
    bench.write_docs(["x"], other)
    assert other.read_text(encoding="utf-8").endswith("## Window\n\nx\n")
