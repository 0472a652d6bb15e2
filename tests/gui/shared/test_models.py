"""Every model passes qtmodeltester, empty and filled, and filters do what they say."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt

from replayer.gui.document import document_from_text
from replayer.gui.shared.models import FindingsFilter, FindingsModel, StateModel, VerdictRole
from replayer.reviews import CONFIRMED, DISMISSED, Reviews

from ..conftest import DM_LOG, YGO_LOG, line_of


def _doc_and_reviews(tmp_path, text=YGO_LOG):
    path = tmp_path / "m.duel"
    path.write_text(text, encoding="utf-8")
    doc = document_from_text(text, str(path))
    return doc, Reviews.open(str(path), doc.match.lines)


def test_findings_model_empty(qtmodeltester):
    model = FindingsModel()
    qtmodeltester.check(model)
    assert model.rowCount() == 0
    assert model.data(model.index(3, 0)) is None


def test_findings_model_with_findings(qtmodeltester, tmp_path):
    doc, reviews = _doc_and_reviews(tmp_path)
    model = FindingsModel()
    model.set_document(doc, reviews)
    qtmodeltester.check(model)
    assert model.rowCount() == len(doc.findings) >= 1
    rules = [model.data(model.index(r, FindingsModel.RULE)) for r in range(model.rowCount())]
    assert "syntax.line" in rules
    row = rules.index("syntax.line")
    assert model.data(model.index(row, FindingsModel.LINE)) == line_of(YGO_LOG, "atack")
    assert model.data(model.index(row, FindingsModel.SEVERITY)) == "error"
    assert "hint" in model.data(model.index(row, 0), Qt.ToolTipRole) or doc.findings[row].hint == ""
    # a verdict shows in its column and role
    model.set_verdict(row, CONFIRMED, "seen on video")
    assert model.data(model.index(row, FindingsModel.VERDICT)) == "✓ confirmed — seen on video"
    assert model.data(model.index(row, 0), VerdictRole) == CONFIRMED
    qtmodeltester.check(model)


def test_findings_filter(qtmodeltester, tmp_path):
    doc, reviews = _doc_and_reviews(tmp_path)
    model = FindingsModel()
    model.set_document(doc, reviews)
    proxy = FindingsFilter()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    total = proxy.rowCount()
    errors = sum(1 for f in doc.findings if f.severity.value == "error")
    proxy.set_severities({"error"})
    assert proxy.rowCount() == errors
    qtmodeltester.check(proxy)
    proxy.set_severities({"error", "warning", "info"})
    proxy.set_kind("syntax")
    assert proxy.rowCount() == sum(1 for f in doc.findings if f.kind.value == "syntax") >= 1
    proxy.set_kind("")
    proxy.set_player("", False)  # the syntax error has no player
    assert proxy.rowCount() == sum(1 for p in doc.finding_player if p)
    proxy.set_player("", True)
    assert proxy.rowCount() == total
    row = next(r for r, f in enumerate(doc.findings) if f.rule == "syntax.line")
    model.set_verdict(row, DISMISSED)
    proxy.set_verdict("dismissed")
    assert proxy.rowCount() == 1 and proxy.finding_at(0) == row
    proxy.set_verdict("open")
    assert proxy.rowCount() == total - 1
    qtmodeltester.check(proxy)


def test_state_model_empty(qtmodeltester):
    model = StateModel()
    qtmodeltester.check(model)
    model.set_state(None)
    assert model.rowCount() == 0
    assert model.parent(QModelIndex()) == QModelIndex()


def _rows(model, parent=QModelIndex()):
    out = {}
    for r in range(model.rowCount(parent)):
        idx = model.index(r, 0, parent)
        out[model.data(idx)] = (model.data(model.index(r, 1, parent)), idx)
    return out


def test_state_model_ygo(qtmodeltester):
    doc = document_from_text(YGO_LOG)
    i = doc.replay.index_of_line[line_of(YGO_LOG, 'activate "Honest"')]
    model = StateModel()
    model.set_state(doc.replay.state_at(i), doc.players)
    qtmodeltester.check(model)
    rows = _rows(model)
    assert rows["Turn"][0] == "3 · A (Yuki)"
    assert "before damage calculation" in rows["Where"][0]
    assert rows["Life Points"][0] == "A 8000 · B 8000"
    chain = _rows(model, rows["Chain"][1])
    assert chain["CL1"][0].startswith("A (Yuki) · Honest")
    field_b = _rows(model, rows["Field · B (海馬)"][1])
    assert "Blue-Eyes White Dragon" in field_b


def test_state_model_dm(qtmodeltester):
    doc = document_from_text(DM_LOG)
    i = doc.replay.index_of_line[line_of(DM_LOG, "s-trigger")]
    model = StateModel()
    model.set_state(doc.replay.state_at(i), doc.players)
    qtmodeltester.check(model)
    rows = _rows(model)
    assert rows["Shields"][0] == "A 5 · B 4"
    assert "6B" in rows["Where"][0]
    waiting = _rows(model, rows["Waiting"][1])
    assert any("Terror Pit" in v for v, _ in waiting.values())


def test_findings_model_sorts_itself(qtmodeltester, tmp_path):
    doc, reviews = _doc_and_reviews(tmp_path)
    model = FindingsModel()
    model.set_document(doc, reviews)
    proxy = FindingsFilter()
    proxy.setSourceModel(model)
    proxy.sort(FindingsModel.SEVERITY, Qt.AscendingOrder)
    sev = [proxy.data(proxy.index(r, FindingsModel.SEVERITY)) for r in range(proxy.rowCount())]
    rank = {"error": 0, "warning": 1, "info": 2}
    assert sev == sorted(sev, key=rank.get)
    proxy.sort(FindingsModel.LINE, Qt.DescendingOrder)
    lines = [proxy.data(proxy.index(r, FindingsModel.LINE)) for r in range(proxy.rowCount())]
    assert lines == sorted(lines, reverse=True)
    # the finding index survives sorting
    for r in range(proxy.rowCount()):
        k = proxy.finding_at(r)
        assert proxy.proxy_row_of(k) == r
        assert doc.findings[k].span.line == lines[r]
    qtmodeltester.check(model)
    qtmodeltester.check(proxy)
