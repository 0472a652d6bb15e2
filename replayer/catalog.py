"""The card catalog: facts about cards (names in JA/EN/DE, kind, stats, effect properties).

Each game's data lives in its package (``replayer/games/<id>/catalog.toml``), one ``[[card]]``
table a card; ``Game.catalog`` reads it (this module is handed the game's id and cards, and looks
no game up).
The validator decides legality from these properties (and a log's inline ``{...}``), never
from a card's name.
"""

from __future__ import annotations

import hashlib
import unicodedata
from pathlib import Path
from typing import Any

from .records import record


@record(slots=False)
class CardInfo:
    id: str  # the English name, or the Japanese one where there is no English name
    game: str
    names: dict[str, str]  # "en", "ja", "de" -> name
    kind: str | None = None
    atk: int | None = None
    def_: int | None = None
    level: int | None = None
    power: int | None = None
    props: frozenset[str] = frozenset()
    effects: tuple[frozenset[str], ...] = ()
    notes: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    def effect_props(self, effect: int | None = None, *, flip: bool = False, trigger: bool = False) -> frozenset[str]:
        """The properties of one effect: the card's own plus those of the chosen effect."""
        chosen: frozenset[str] = frozenset()
        if self.effects:
            if flip:
                chosen = next((e for e in self.effects if "flip" in e), self.effects[0])
            elif trigger:
                chosen = next((e for e in self.effects if "trigger" in e), self.effects[0])
            elif effect is not None and 1 <= effect <= len(self.effects):
                chosen = self.effects[effect - 1]
            else:
                chosen = self.effects[0]
        return self.props | chosen

    def to_dict(self) -> dict:
        out = {"id": self.id, "game": self.game, "names": self.names, "kind": self.kind}
        for k in ("atk", "def_", "level", "power"):
            if getattr(self, k) is not None:
                out[k.rstrip("_")] = getattr(self, k)
        out["props"] = sorted(self.props)
        if self.effects:
            out["effects"] = [sorted(e) for e in self.effects]
        if self.aliases:
            out["aliases"] = list(self.aliases)
        return out


def name_key(name: str) -> str:
    """What two spellings of one name share: NFKC (full-width letters and half-width katakana
    fold, ｵﾈｽﾄ is オネスト), single spaces, case folded."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


_key = name_key


class Catalog:
    def __init__(self, game: str, cards: list[CardInfo]):
        self.game = game
        self.cards = cards
        self._by_name: dict[str, CardInfo] = {}
        self._suggester: Any = None
        self._suggested: dict[tuple[str, int], list[str]] = {}
        for card in cards:
            for name in list(card.names.values()) + list(card.aliases):
                self._by_name.setdefault(_key(name), card)

    def find(self, name: str) -> CardInfo | None:
        """The card with this name in any language (case and spacing do not matter)."""
        return self._by_name.get(_key(name))

    def search(self, text: str) -> list[CardInfo]:
        k = _key(text)
        exact = self.find(text)
        if exact:
            return [exact]
        return [c for c in self.cards if any(k in _key(n) for n in list(c.names.values()) + list(c.aliases))]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """"Did you mean …?" for a name the catalog does not know: its nearest names (kept)."""
        hit = self._suggested.get((name, limit))
        if hit is not None:
            return hit
        if self._suggester is None:
            from .cards.names import Suggester

            self._suggester = Suggester([n for c in self.cards for n in list(c.names.values()) + list(c.aliases)], [])
        hit = self._suggested[(name, limit)] = self._suggester.suggest(name, limit)
        return hit

    def __len__(self) -> int:
        return len(self.cards)


def read_catalog(game: str, path: Path) -> Catalog:
    """The catalog of a built-in TOML file (one ``[[card]]`` a card).

    Parsing TOML is the slowest part of reading it (~15 ms for the Yu-Gi-Oh! catalog against
    ~1 ms for the same data as JSON), and it is read by every run: so the parsed file is kept as
    JSON in the private cache folder (:mod:`replayer.cache`), under a name that is the digest of
    the TOML's bytes (an edited catalog is parsed again). A copy that does not read is parsed
    again from the TOML."""
    from .cache import private_cache_dir, read_json, write_json

    raw = path.read_bytes()
    folder = private_cache_dir()
    kept = folder / f"catalog-{game}-{hashlib.sha256(raw).hexdigest()[:16]}.json" if folder is not None else None
    data = read_json(kept) if kept is not None else None
    if isinstance(data, dict) and isinstance(data.get("card"), list):
        try:
            return Catalog(game, [card_from_toml(game, c) for c in data["card"]])
        except (AttributeError, KeyError, TypeError, ValueError):
            pass  # not what this replayer writes: parsed again below
    import tomllib

    data = tomllib.loads(raw.decode("utf-8"))
    cards = [card_from_toml(game, c) for c in data.get("card", [])]
    if kept is not None:
        write_json(kept, {"card": data.get("card", [])}, replaces=f"catalog-{game}-*.json")
    return Catalog(game, cards)


def card_from_toml(game: str, data: dict) -> CardInfo:
    names = {lang: data[lang] for lang in ("en", "ja", "de") if data.get(lang)}
    props = set(data.get("props", ()))
    kind = data.get("kind")
    if kind:
        props.add(kind)
    power = data.get("power")
    for p in list(props):
        if p.startswith("power "):
            power = int(p.split()[1])
    effects = tuple(frozenset(e.get("props", ())) for e in data.get("effects", ()))
    notes = tuple(e["note"] for e in data.get("effects", ()) if e.get("note"))
    return CardInfo(
        id=names.get("en") or names.get("ja") or names.get("de") or "?",
        game=game, names=names, kind=kind, atk=data.get("atk"), def_=data.get("def"),
        level=data.get("level"), power=power, props=frozenset(props), effects=effects,
        notes=notes, aliases=tuple(data.get("aliases", ())),
    )
