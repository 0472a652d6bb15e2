"""replayer.importing: the files' keys made as the tasks are handed over (the workers started first)."""

from __future__ import annotations

import pytest

from replayer import importing, store
from replayer.store import rows

LOG = '[Game "ygo"]\n[A "Yuki"]\n[B "Kai"]\nturn 1 A\nA: draw\n# log {n}\n'


def _folder(tmp_path, n):
    folder = tmp_path / "logs"
    folder.mkdir()
    for k in range(n):
        (folder / f"{k:02}.duel").write_text(LOG.format(n=k), encoding="utf-8")
    return importing.find_logs([folder])


@pytest.mark.parametrize("jobs", [1, 2])
def test_keys_are_made_as_the_files_are_handed_over_and_are_the_same(tmp_path, jobs):
    files = _folder(tmp_path, 12)
    db = store.open_library(tmp_path / "library.db")
    try:
        outcomes = list(importing.import_paths(db, files, jobs=jobs, chunksize=2))
        assert [o.status for o in outcomes] == ["new"] * 12
        assert [o.path for o in outcomes] == [f"logs/{k:02}.duel" for k in range(12)]
        assert sorted(store.known_hashes(db)) == [f"logs/{k:02}.duel" for k in range(12)]
    finally:
        db.close()


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_making_a_key_is_raised_not_a_file_left_out(tmp_path, monkeypatch, jobs):
    # the keys are made lazily (with workers, on the pool's thread): an error there must reach
    # the importer, in the file's turn, not end the files silently
    files = _folder(tmp_path, 8)
    key_for = rows.key_for

    def failing(path, root):
        if path.endswith("05.duel"):
            raise RuntimeError("no key for this one")
        return key_for(path, root)

    monkeypatch.setattr(rows, "key_for", failing)
    db = store.open_library(tmp_path / "library.db")
    try:
        seen = []
        with pytest.raises(RuntimeError, match="no key for this one"):
            for outcome in importing.import_paths(db, files, jobs=jobs, chunksize=1):
                seen.append(outcome.path)
        assert seen == [f"logs/{k:02}.duel" for k in range(len(seen))]
    finally:
        db.close()


def test_library_paths_is_lazy(tmp_path):
    made = []

    def files():
        for k in range(3):
            made.append(k)
            yield str(tmp_path / f"{k}.duel")

    keys = rows.library_paths(files(), str(tmp_path))
    assert made == []
    assert next(keys) == "0.duel" and made == [0]
    assert list(keys) == ["1.duel", "2.duel"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_link_that_leads_round_in_a_loop_is_a_file_skipped_not_a_crash(tmp_path, jobs):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.duel").write_text(LOG.format(n=1), encoding="utf-8")
    (folder / "loop.duel").symlink_to("loop.duel")  # a link to itself: resolving it loops
    (folder / "z.duel").write_text(LOG.format(n=2), encoding="utf-8")
    files = importing.find_logs([folder])
    db = store.open_library(tmp_path / "library.db")
    try:
        outcomes = list(importing.import_paths(db, files, jobs=jobs, chunksize=1))
        assert [o.status for o in outcomes].count("new") == 2
        assert sorted(store.known_hashes(db)) == ["logs/a.duel", "logs/z.duel"]
        skipped = [o for o in outcomes if o.status != "new"]
        assert len(skipped) == 1 and skipped[0].path.endswith("loop.duel")
    finally:
        db.close()


def test_the_last_hand_overs_shrink_to_one_file_and_keep_the_order():
    tasks = [(f"{k}.duel", None, f"{k}.duel") for k in range(5000)]
    chunks = list(importing._hand_overs(iter(tasks), len(tasks), 2, 64))
    assert [t for chunk in chunks for t in chunk] == tasks
    sizes = [len(chunk) for chunk in chunks]
    assert max(sizes) == 64 and sizes[-1] == 1
    assert sizes == sorted(sizes, reverse=True)
    # none is more than a quarter of what is left when it is handed over (two workers)
    left = len(tasks)
    for size in sizes:
        assert size == 1 or size <= left // 4
        left -= size


def test_hand_overs_of_a_few_files_and_of_more_than_counted():
    assert list(importing._hand_overs(iter(range(3)), 3, 2, 64)) == [[0], [1], [2]]
    assert [len(c) for c in importing._hand_overs(iter(range(20)), 20, 2, 4)] == [4, 4, 3, 2, 1, 1, 1, 1, 1, 1, 1]
    assert list(importing._hand_overs(iter(range(5)), 3, 2, 64)) == [[0], [1], [2], [3], [4]]
    assert list(importing._hand_overs(iter(range(2)), 4, 2, 64)) == [[0], [1]]


def test_a_task_that_cannot_be_made_ends_its_hand_over_and_is_raised_next():
    def tasks():
        yield from range(6)
        raise RuntimeError("no key for this one")

    chunks = importing._hand_overs(tasks(), 40, 2, 4)
    assert next(chunks) == [0, 1, 2, 3]
    assert next(chunks) == [4, 5]  # (the files before the error, handed over in their turn)
    with pytest.raises(RuntimeError, match="no key for this one"):
        next(chunks)
