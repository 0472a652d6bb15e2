"""Importing logs into the match library: the files found, read and checked (the one pipeline,
:mod:`replayer.check`), in worker processes for ``--jobs N``; each checked result handed to the
store (:mod:`replayer.store`), which turns it into rows and writes them, in this process.

A file that cannot be read (missing, a directory, not UTF-8 text, binary) is reported as
``replayer check`` reports it: a ``skipped`` outcome whose ``report`` is the JSON object
``check --format json`` prints for it and whose ``message`` is what ``check`` prints for it (made
safe for a terminal already): ``cannot read PATH: why``, or the findings of a file that is not
UTF-8 text.

>>> from replayer import store
>>> db = store.open_library(":memory:")
>>> outcome = import_text(db, '[Game "ygo"]\\n[A "Yuki"]\\nturn 3 A\\nA: draw\\n', path="/logs/one.duel")
>>> outcome.status, db["matches"].count
('new', 1)
"""

from __future__ import annotations

import os
from itertools import chain
from typing import Any, Iterable, Iterator, Sequence

from . import store
from .check import check_match, unreadable_report
from .i18n import M, current as _language  # (what the import says, in the chosen language)
from .diagnostics import render_text
from .errors import UnreadableFile
from .check import read_bytes
from .reader import find_logs
from .safe import visible
from .store import Database, ImportOutcome, Prepared, content_hash, library_path

__all__ = [
    "find_logs",
    "import_paths",
    "import_text",
    "prepare_bytes",
    "prepare_file",
    "replace_reviews",
    "save_review",
]


def prepare_file(path: str | os.PathLike[str], known_hash: str | None = None,
                 key: str | None = None) -> Prepared | ImportOutcome:
    """Read, check and turn one file into rows; never raises.

    ``known_hash`` is the content hash the library already has for this path: if the file
    still has it, it is not checked again (``status="unchanged"``). ``key``: the file's key in
    the library (:func:`~replayer.store.library_key`; default: its absolute path). A file
    that cannot be used is a ``skipped`` :class:`~replayer.store.ImportOutcome`.
    """
    key = key or library_path(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        # as reader.read_log words it, and `replayer check` reports it
        error = UnreadableFile(f"{path}: {e.strerror or e}")
        return ImportOutcome(key, "skipped", visible(M("cannot read {error}", error=str(error)).render(_language())),
                             report=unreadable_report(str(path), error, _language()))
    digest = content_hash(data)
    if known_hash is not None and digest == known_hash:
        return Prepared(key, digest, "unchanged")
    return prepare_bytes(data, key, digest, shown=str(path))


def prepare_bytes(data: bytes, path: str, digest: str | None = None, *,
                  shown: str | None = None) -> Prepared | ImportOutcome:
    """Check a log's bytes and turn them into rows (``path`` names it in the library; ``shown``:
    as the user named the file, for a report)."""
    digest = digest or content_hash(data)
    try:
        match = read_bytes(data, path)
        undecodable = any(f.rule == "syntax.encoding" for f in match.findings)
        if not undecodable and not match.events and not match.header:
            return ImportOutcome(path, "skipped", M("not a match log (no header tags, no events)").render(_language()))
        result = check_match(match)
        if undecodable:  # reported as `replayer check` reports it
            name = shown or path
            return ImportOutcome(path, "skipped", render_text(name, result.findings, match.lines, colour=False,
                                                              lang=_language(), words=result.hint_words),
                                 report={**result.to_dict(_language()), "file": name})
    except Exception as e:  # a crash in a validator must not stop a big import
        return ImportOutcome(path, "skipped", M("internal error while checking: {error}: {why}",
                                                error=type(e).__name__, why=str(e)).render(_language()))
    return store.rows_of(result, path, digest, data)


def _prepare_star(args: tuple[str, str | None, str]) -> Prepared | ImportOutcome:
    return prepare_file(*args)


def _prepare_all(tasks: list[tuple[str, str | None, str]]) -> list[Prepared | ImportOutcome]:
    """A worker's hand-over (:func:`_hand_overs`): its files read, checked and made rows, in order."""
    return [prepare_file(*args) for args in tasks]


#: the files a worker process is handed at a time: at most this many (each hand-over and its
#: results' return cost this process ~0.05 ms of CPU, whatever their size, with :func:`_pool_class`;
#: the standard pool's ~1 ms: the pool alone took this process 0.17 / 0.09 / 0.11 / 0.08 s of CPU
#: for 5,000 logs 8 / 16 / 32 / 64 at a time, the standard one 0.90 / 0.47 / 0.41 / 0.33 s) ...
CHUNK_FILES = 64
#: ... and small enough that each worker gets at least this many hand-overs (the last ones even out)
CHUNKS_A_WORKER = 8


def _hand_overs(tasks: Iterator[tuple], count: int, workers: int, most: int) -> Iterator[list[tuple]]:
    """The ``count`` tasks as the workers' hand-overs, in order: ``most`` tasks each, but none more
    than a ``2 * workers``-th of the tasks left, so that the last ones shrink down to one task and
    the workers finish at about the same time (the last hand-overs of ``most`` files left one
    worker idle while the other checked its last ~64 files, and this process waited for them
    before it could write them). A task that cannot be made (an error making its key) ends the
    hand-over before it, which is handed over; the error is raised when the next one is asked for
    (the pool raises it in its turn)."""
    left = count
    while left > 0:
        size = max(1, min(most, left // (2 * workers)))
        chunk = []
        try:
            for _ in range(size):
                chunk.append(next(tasks))
        except StopIteration:
            if chunk:
                yield chunk
            return
        except Exception:
            if chunk:
                yield chunk
            raise
        yield chunk
        left -= size
    yield from ([task] for task in tasks)  # (more tasks than counted: one a hand-over)


_POOL: list[type] = []


def _pool_class() -> type:
    """:class:`multiprocessing.pool.Pool` whose worker-handler thread waits for a worker to stop
    or the pool to change, not also for results to read (made once, on first use).

    The standard pool's handler thread (which restarts workers that exited) also wakes whenever
    the results' pipe has bytes to read, and a worker's results (~600 KB a hand-over) cross the
    64 KiB pipe in many pieces: it woke ~15,000 times for 5,000 logs, each time polling every
    worker and building a selector, 0.15–0.2 s of the writing process's CPU (and the GIL it
    shares with the writes). Its workers, tasks and results are the standard pool's; a worker
    that dies still wakes it (its sentinel is among those it waits for)."""
    if not _POOL:
        from multiprocessing.pool import Pool

        class _Pool(Pool):
            def _get_sentinels(self):  # (the standard pool's: the results' pipe and the notifier)
                return [self._change_notifier._reader]

        # (a Python whose pool is made otherwise gets the standard one)
        _POOL.append(_Pool if callable(getattr(Pool, "_get_sentinels", None)) else Pool)
    return _POOL[0]


def import_paths(db: Database, files: Sequence[str | os.PathLike[str]], *, jobs: int = 1,
                 chunksize: int | None = None) -> Iterator[ImportOutcome]:
    """Import files (not folders: see :func:`find_logs`), yielding one outcome a file, in order.

    With ``jobs > 1`` files are read and checked in that many worker processes, at most
    ``chunksize`` files at a time (default: :data:`CHUNK_FILES`, fewer for fewer files; the last
    hand-overs fewer, down to one: :func:`_hand_overs`); every write
    happens here, in this process, a few dozen files a transaction, each file whole
    (:class:`~replayer.store.BulkWriter`): a file's outcome comes once it is committed.
    """
    known = store.known_hashes(db)
    # each file's key: its path relative to the library's root (absolute when outside it), made
    # as the tasks are handed over: with workers, by the pool's thread that hands them over, once
    # the workers have started (they check the first files meanwhile; an error making a key is
    # raised here, in its file's turn, by the pool's own guard)
    keys = store.library_paths(files, store.library_root(db))
    tasks = ((str(f), known.get(key), key) for f, key in zip(files, keys))
    if jobs <= 1 or len(files) < 2:
        prepared_files: Iterable[Prepared | ImportOutcome] = map(_prepare_star, tasks)
        pool = None
    else:
        import multiprocessing

        # (made before the writer's checkpoint thread starts: a process forked with threads
        # running can inherit a lock one of them held)
        workers = min(jobs, len(files))
        pool = _pool_class()(workers, context=multiprocessing.get_context())
        if chunksize is None:
            chunksize = max(1, min(CHUNK_FILES, len(files) // (workers * CHUNKS_A_WORKER)))
        # (one hand-over a pool task: its results come back as one list)
        prepared_files = chain.from_iterable(pool.imap(_prepare_all, _hand_overs(tasks, len(files), workers,
                                                                                 chunksize)))
    writer = None
    try:
        writer = store.BulkWriter(db)
        add = writer.add
        for prepared in prepared_files:
            done = add(prepared)
            if done:
                yield from done
            if writer.failed is not None:
                raise writer.failed
        yield from writer.flush()
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if writer is not None:
            writer.close()


def _saved(db: Database, prepared: Prepared | ImportOutcome) -> ImportOutcome:
    return prepared if type(prepared) is ImportOutcome else store.save_prepared(db, prepared)


def import_text(db: Database, text: str, path: str = "<log>") -> ImportOutcome:
    """Check and store a log given as text (``path`` names it in the library)."""
    return _saved(db, prepare_bytes(text.encode("utf-8"), store.library_key(db, path)))


def save_review(db: Database, path: str | os.PathLike[str], rule: str, line: int, verdict: str | None,
                note: str = "", reviewer: str = "", **kw: Any) -> int:
    """:func:`replayer.store.save_review`, the file imported first if the library does not have it."""
    key = store.library_key(db, path)
    current = None if store.known_hash(db, key) is not None else prepare_file(path, key=key)
    return store.save_review(db, path, rule, line, verdict, note, reviewer, current=current, **kw)


def replace_reviews(db: Database, path: str | os.PathLike[str], reviews: Iterable[dict[str, Any]],
                    reviewer: str = "") -> int:
    """:func:`replayer.store.replace_reviews`, the file as it is on disk imported first if it
    changed (the verdicts go with the text the reviewer sees)."""
    key = store.library_key(db, path)
    current = prepare_file(path, store.known_hash(db, key), key)
    return store.replace_reviews(db, path, reviews, reviewer, current=current)
