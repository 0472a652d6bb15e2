"""Where the card database is by default: ``cards.db`` in the user data folder, beside the match
library (``store.default_library_path``, not imported from there: the store loads sqlite-utils).

A module of its own, light to import: every ``replayer check`` asks where the card database is,
and the database's own module (sqlite3, the readers' records) is imported only when one exists.
"""

from __future__ import annotations

from pathlib import Path


def default_cards_path() -> Path:
    """``cards.db`` in the user's data folder (``platformdirs.user_data_dir("replayer")``)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("replayer")) / "cards.db"
