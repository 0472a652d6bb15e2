"""The match library: every checked log kept in one SQLite database (sqlite-utils).

The store takes a checked result (:class:`~replayer.check.CheckResult`) and turns it into rows;
it looks no game up (a result carries its game; a search is handed the games whose catalogs
name the cards) and it never reads nor checks a file itself: :mod:`replayer.importing` finds, reads and checks the
files (in worker processes) and hands each result here.

>>> from replayer.check import check_text
>>> db = open_library(":memory:")
>>> result = check_text('[Game "ygo"]\\n[A "Yuki"]\\nturn 3 A\\nA: draw\\n', path="/logs/one.duel")
>>> outcome = import_result(db, result)
>>> outcome.status, db["matches"].count
('new', 1)

The tables read well in Datasette (``datasette library.db``):

``matches``          one row a match (its log's path, relative to the library's root when under
                     it), with the header of its current revision
``match_revisions``  one row each time a changed file was imported; the log text is kept, and
                     its events as one JSON array (``events_json``)
``events``           (a view over ``match_revisions.events_json``) one row a log line that says
                     something happened, with turn/phase/step/timing
``event_cards``      (a view over ``events``) one row a card mentioned on an event line
``match_cards``      one row a card a match revision mentions (``card``: catalog name), with the
                     lines it is on: what ``search --card`` looks up
``findings``         what the reader and the validators said, line by line
``notes``            the ``#`` notes, searchable (``notes_fts``, SQLite FTS5)
``reviews``          the window's verdicts on findings
``current_findings`` (a view) findings of the current revisions with file, players and event
``library_settings`` the library's root (``root``: relative to the library's folder)

Every imported file is written whole (its own transaction, or a savepoint of its own in a bulk
import's transaction of a few dozen files): a match is in the library whole or not at all, even
if the process is killed. The database is in WAL mode so
that the window and the command line can use one library at the same time. The schema is
versioned: migrations (:data:`MIGRATIONS`) are recorded in the ``_sqlite_migrations`` table.
All the SQL of the library lives in this package:

``schema``     the tables, views and indexes, the migrations, the write transaction
``database``   where the library lives, opening it, what SQLite says of a damaged one
``rows``       a checked log as rows (:class:`Prepared`)
``writer``     writing them (one file a transaction), a bulk import's (a few dozen files a transaction)
``index``      the search tables, filled in batches
``search``     :func:`search`; ``stats``: :func:`stats` and what the window reads of a match
``reviews``    the reviewers' verdicts
``paths``      a log's path kept relative to the library's root, resolved against it
``moves``      logs that moved found again by their content hash (``relink``, ``locate``);
               the root changed (``set_root``)
"""

from __future__ import annotations

from sqlite_utils import Database

from ..errors import LibraryDamaged, LibraryError, ReplayerError, UnreadableFile
from .database import (
    default_library_path,
    integrity_verdict,
    is_damage,
    library_writable,
    open_library,
)
from .index import catch_up_index, index_behind, update_index
from .jsontext import _dumps, _dumps_header, _json_encoder
from .moves import (
    LibraryPlaces,
    Located,
    LogScan,
    RelinkReport,
    RootChange,
    library_places,
    locate,
    match_key,
    missing_logs,
    move_to,
    relink,
    set_root,
)
from .paths import library_key, library_root, resolve_key, root_setting, shown_root
from .reviews import load_reviews, replace_reviews, save_review
from .rows import (
    Prepared,
    _line_player,
    content_hash,
    library_path,
    library_paths,
    normalize_date,
    rows_of,
)
from .schema import (
    APP_NAME,
    CARD_COLUMNS,
    EVENT_COLUMNS,
    EVENT_FIELDS,
    FINDING_COLUMNS,
    FINDING_COLUMNS_M002,
    HASH_KEY_LEN,
    MATCH_COLUMNS,
    MIGRATIONS,
    NOTE_COLUMNS,
    migrate,
    schema_version,
    writing,
)
from .search import Filters, SearchResult, _card_keys, search
from .stats import (
    MISTAKE_KINDS,
    check_whole,
    count_rows,
    match_revisions,
    match_text,
    stats,
)
from .writer import (
    _SQL_LOOKUP,
    CHECKPOINT_FILES,
    COMMIT_FILES,
    COMMIT_SECONDS,
    IMPORT_CHECKPOINT_PAGES,
    INDEX_BATCH,
    BulkWriter,
    ImportOutcome,
    _Checkpointer,
    import_result,
    known_hash,
    known_hashes,
    save_prepared,
)
