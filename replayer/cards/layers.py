"""The layers of card facts: inline ``{…}`` > built-in catalog > imported card database.

The inline layer is the validator's (a log's ``{…}`` adds to and overrides what a card is);
:class:`LayeredCatalog` is the other two: a name the built-in catalog knows is its card (curated,
with cited rulings), any other name is looked up in the card database. :func:`catalog_for` is
what ``check``, ``view``, ``import`` and ``cards`` use: the layered catalog when a card database
exists (``--cards-db PATH``, env ``REPLAYER_CARDS_DB``, or ``cards.db`` in the user data folder).
"""

from __future__ import annotations

import os
from pathlib import Path

from typing import TYPE_CHECKING

from ..cache import Kept, private_cache_dir
from ..catalog import Catalog, CardInfo
from . import names as names_module
from .names import Suggester, name_key
from .where import default_cards_path

if TYPE_CHECKING:
    from ..games import Game
    from .db import CardDB

ENV = "REPLAYER_CARDS_DB"
_chosen: list[str | None] = [None]  # set by --cards-db


def use_cards_db(path: str | os.PathLike[str] | None) -> None:
    """Choose the card database for this process (``None``: the default one)."""
    _chosen[0] = str(path) if path is not None else None
    catalog_for.cache_clear()


def cards_db_path() -> Path | None:
    """The card database chosen, or None when none is wanted (env REPLAYER_CARDS_DB="" or "none")."""
    chosen = _chosen[0] if _chosen[0] is not None else os.environ.get(ENV)
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "none") else Path(chosen)
    return default_cards_path()


def active_cards_db() -> CardDB | None:
    path = cards_db_path()
    if path is None or not os.path.exists(path):
        return None  # (the card database's module, sqlite3 and hashlib are not imported for nothing)
    from .db import open_cards

    return open_cards(str(path))


class LayeredCatalog(Catalog):
    """The built-in catalog of a game, then the card database."""

    def __init__(self, builtin: Catalog, db: CardDB | None):
        self.game = builtin.game
        self.cards = builtin.cards
        self.builtin = builtin
        self.db = db
        self._by_name = builtin._by_name
        self._by_key: dict[str, CardInfo] = {}
        for card in builtin.cards:
            for name in list(card.names.values()) + list(card.aliases):
                self._by_key.setdefault(name_key(name), card)
        self._suggester: Suggester | None = None
        self._suggested: dict[tuple[str, int], list[str]] = {}
        self._kept: Kept | None = None  # the suggestions of earlier runs (_kept_suggestions)
        self._found: dict[str, CardInfo | None] = {}

    def find(self, name: str) -> CardInfo | None:
        hit = self._found.get(name, _MISS)
        if hit is not _MISS:
            return hit  # type: ignore[return-value]
        card = self.builtin.find(name) or self._by_key.get(name_key(name))
        if card is None and self.db is not None:
            card = self.db.find(self.game, name)
        self._found[name] = card
        return card

    def search(self, text: str) -> list[CardInfo]:
        found = self.builtin.search(text)
        if len(found) == 1 and self.builtin.find(text):
            return found
        if self.db is not None:
            seen = {c.id for c in found}
            found += [c for c in self.db.search(self.game, text) if c.id not in seen]
        return found

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        hit = self._suggested.get((name, limit))
        if hit is not None:
            return hit
        kept = self._kept_suggestions()
        key = f"{limit}\x1f{name}"
        hit = kept.get(key)
        if hit is None:
            if self._suggester is None:
                index = self.db.suggest_index(self.game) if self.db is not None else None
                keyed = self.db.keyed_names(self.game) if self.db is not None and index is None else []
                self._suggester = Suggester(self._builtin_names(), keyed, index)
            hit = self._suggester.suggest(name, limit)
            kept.put(key, hit)
        self._suggested[(name, limit)] = hit
        return hit

    def _builtin_names(self) -> list[str]:
        return [n for c in self.builtin.cards for n in list(c.names.values()) + list(c.aliases)]

    def _kept_suggestions(self) -> Kept:
        """"Did you mean" of earlier runs against the same names (replayer.cache.Kept): on a
        card database of some 27,000 names a suggestion costs ~0.1 ms with the database's
        index (nameindex.py; a few milliseconds without it), so a log re-checked with unknown
        names need not pay them again. The
        file's name is a digest of what the suggestions depend on: the built-in names, the card
        database (its path, size and time of change: `cards import` rewrites it) and the code
        that suggests."""
        kept = self._kept
        if kept is None:
            import hashlib

            folder = private_cache_dir()
            path, replaces = None, ""
            if folder is not None:
                where = os.path.abspath(self.db.path) if self.db is not None else ""
                h = hashlib.sha256("\x1e".join(self._builtin_names()).encode("utf-8"))
                if self.db is not None:
                    try:
                        st = os.stat(self.db.path)
                        h.update(f"{st.st_size}\x1e{st.st_mtime_ns}\x1e{st.st_ino}".encode())
                    except OSError:
                        h.update(b"?")
                try:
                    h.update(Path(names_module.__file__).read_bytes())
                except OSError:
                    pass
                # one file a card database (or none): a newer state of the same one replaces it
                stem = f"suggest-{self.game}-{hashlib.sha256(where.encode('utf-8')).hexdigest()[:8]}"
                path, replaces = folder / f"{stem}-{h.hexdigest()[:16]}.json", f"{stem}-*.json"
            kept = self._kept = Kept(path, limit=20_000, replaces=replaces, valid=_is_names)
        return kept


_MISS = object()


def _is_names(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _catalog_for(game: "Game") -> Catalog:
    """The built-in catalog of ``game`` itself when there is no card database; else the two layers."""
    db = active_cards_db()
    return game.catalog if db is None else LayeredCatalog(game.catalog, db)


from functools import lru_cache  # noqa: E402

catalog_for = lru_cache(maxsize=None)(_catalog_for)


def suggest(catalog: Catalog, name: str, limit: int = 3) -> list[str]:
    """"Did you mean …?" for a name the catalog does not know."""
    if isinstance(catalog, LayeredCatalog):
        return catalog.suggest(name, limit)
    wrapper = _WRAPPERS.get(id(catalog))
    if wrapper is None or wrapper.builtin is not catalog:
        wrapper = _WRAPPERS[id(catalog)] = LayeredCatalog(catalog, None)
    return wrapper.suggest(name, limit)


_WRAPPERS: dict[int, LayeredCatalog] = {}
