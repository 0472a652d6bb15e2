"""What the window shows first of a log it opens, made on the loader's thread."""

from replayer.gui.document import SEVERITY_RANK, document_from_text, load_document

from ..conftest import YGO_LOG


def test_first_finding_is_the_first_of_the_worst_and_its_state_is_made_by_the_loader(tmp_path):
    path = tmp_path / "m.duel"
    path.write_text(YGO_LOG, encoding="utf-8")
    doc = load_document(str(path), first=True)
    assert doc.findings
    worst = max(SEVERITY_RANK[f.severity.value] for f in doc.findings)
    k = doc.first_finding()
    assert SEVERITY_RANK[doc.findings[k].severity.value] == worst
    assert all(SEVERITY_RANK[f.severity.value] < worst for f in doc.findings[:k])
    i = doc.first_event()
    assert i == doc.finding_event[k] and i >= 0
    assert i in doc.trees and i in doc.states  # made while loading
    fresh = load_document(str(path))
    assert not fresh.trees and not fresh.states
    assert repr(fresh.state_tree(i)) == repr(doc.state_tree(i))


def test_first_event_without_findings_is_the_first():
    doc = document_from_text('[Game "ygo"]\nturn 1 A\nphase draw\n')
    assert doc.first_finding() == -1 and doc.first_event() == 0
    assert document_from_text('[Game "ygo"]\n').first_event() == -1
