"""The loader's collector: paused over the whole load, what the document keeps aged at the end."""

import gc

from replayer.gui.document import _no_gc, load_document

from ..conftest import YGO_LOG


def _in(generation: int) -> set[int]:
    return {id(o) for o in gc.get_objects(generation=generation)}


def test_what_was_made_is_put_in_the_oldest_generation_and_the_collector_is_on_again():
    assert gc.isenabled()
    with _no_gc(age=True):
        assert not gc.isenabled()
        made = [[i] for i in range(1000)]
    assert gc.isenabled()
    oldest = _in(2)
    assert all(gc.is_tracked(d) and id(d) in oldest for d in made)
    assert not any(id(d) in _in(0) for d in made)  # no young pass will walk them


def test_objects_something_else_froze_stay_frozen_and_a_paused_collector_stays_paused():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with _no_gc(age=True):
            made = [[i] for i in range(10)]
        assert gc.get_freeze_count() == frozen  # (nothing unfrozen: the age is left to the collector)
        assert made
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        with _no_gc(age=True):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_loaded_document_is_in_the_oldest_generation(tmp_path):
    path = tmp_path / "m.duel"
    path.write_text(YGO_LOG, encoding="utf-8")
    doc = load_document(str(path), first=True)
    assert gc.isenabled()
    oldest = _in(2)
    kept = [doc, doc.result, doc.match.events, doc.events[0], doc.findings, doc.replay, doc.trees]
    assert all(gc.is_tracked(o) for o in kept)
    assert all(id(o) in oldest for o in kept)
