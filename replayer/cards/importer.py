"""``replayer cards import PATH…``: find the card data in PATHs, read it, write the card database.

PATH may be an EDOPro/YGOPro folder (``cards.cdb``, ``expansions/**/*.cdb``,
``config/languages/<lang>/*.cdb``, scripts under ``script/`` and ``repositories/*/script/``), a
``.cdb`` file, a folder of scripts, a YGOProDeck ``cardinfo`` JSON file, or a Duel Masters card
list (``{"cards": [...]}``). The facts of one card from several files (a cdb row, a script, a
language cdb) are merged by passcode, and with what an earlier import stored. Re-importing
writes only the cards that changed.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import sqlite3
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Callable, Iterable, Mapping

import msgspec
from msgspec import UNSET, Meta, UnsetType

from . import constants as K
from . import derive, text
from .db import CardDB, schema_state, write_suggest_index
from .lua import Script, ScriptEffect
from .luarun import read_script
from ..i18n import M, Msg, Said, render
from ..safe import shorten
from .names import name_key, visible

if TYPE_CHECKING:
    from ..games import Game

#: non-activated script effects that change a battle's arithmetic: the card gets `continuous`
BATTLE_CODES = frozenset({
    "EFFECT_UPDATE_ATTACK", "EFFECT_SET_ATTACK", "EFFECT_SET_ATTACK_FINAL", "EFFECT_UPDATE_DEFENSE",
    "EFFECT_SET_DEFENSE", "EFFECT_SET_DEFENSE_FINAL", "EFFECT_INDESTRUCTABLE_BATTLE", "EFFECT_AVOID_BATTLE_DAMAGE",
    "EFFECT_REFLECT_BATTLE_DAMAGE", "EFFECT_CHANGE_BATTLE_DAMAGE", "EFFECT_NO_BATTLE_DAMAGE",
    "EFFECT_BOTH_BATTLE_DAMAGE", "EFFECT_INDESTRUCTABLE_COUNT", "EFFECT_SWAP_AD", "EFFECT_DEFENSE_ATTACK",
    "EFFECT_DESTROY_REPLACE", "EFFECT_MATCH_KILL", "EFFECT_ALSO_BATTLE_DAMAGE",
})
#: what the readers make of a file: a new version reads files again that have not changed since the last
#: import (the rows that come out the same are still not written)
READER_VERSION = "9"  # 6: scripts run in the Lua sandbox (luarun.py), on: and from: words; 7: shut-as: words; 8: event-player: words; 9: event-player: of card events
MAX_PASSCODE = 2**63 - 1  # what SQLite's INTEGER holds
LANGS = {"ja": "ja", "ja-jp": "ja", "jp": "ja", "de": "de", "de-de": "de", "en": "en", "en-us": "en",
         # YGOProDeck's card info and EDOPro's language packs in French, Italian, Portuguese (issue 23)
         "fr": "fr", "fr-fr": "fr", "it": "it", "it-it": "it", "pt": "pt", "pt-pt": "pt", "pt-br": "pt"}


@dataclass
class Sources:
    cdbs: list[tuple[Path, str]] = field(default_factory=list)  # (file, language)
    scripts: list[Path] = field(default_factory=list)
    ygoprodeck: list[tuple[Path, str]] = field(default_factory=list)
    dm: list[Path] = field(default_factory=list)
    unknown: list[Path] = field(default_factory=list)
    #: (file, what it is) for the files not read: a FIFO, a device, a link to nothing or a link loop
    not_regular: list[tuple[str, str]] = field(default_factory=list)

    def files(self) -> list[str]:
        return [str(p) for p, _ in self.cdbs] + [str(p) for p in self.scripts] + \
            [str(p) for p, _ in self.ygoprodeck] + [str(p) for p in self.dm]


@dataclass
class Summary:
    cards: dict[str, int] = field(default_factory=dict)  # game -> cards read
    effects: int = 0
    written: int = 0
    unchanged: int = 0
    files: int = 0
    complete_scripts: int = 0
    scripts: int = 0
    #: "file:line: what", each the English text of its message (:class:`~replayer.i18n.Said`)
    problems: list[str] = field(default_factory=list)

    def to_dict(self, lang: str = "en") -> dict:
        """The JSON of ``cards import --format json``: in another language than English the problems
        are in it and the English ones beside them (``problems_en``), as ``check`` keeps ``message_en``."""
        return {"cards": self.cards, "effects": self.effects, "written": self.written, "unchanged": self.unchanged,
                "files": self.files, "scripts": self.scripts, "scripts_fully_read": self.complete_scripts,
                "problems": [render(p, lang) for p in self.problems] if lang != "en" else self.problems,
                **({"problems_en": [str(p) for p in self.problems]} if lang != "en" else {})}


def _lang_of(path: Path) -> str:
    for part in reversed(path.parts[:-1]):
        lang = LANGS.get(part.lower())
        if lang:
            return lang
    m = re.search(r"(?:^|[._-])(ja|jp|de|en|fr|it|pt)(?:[._-]|$)", path.stem.lower())
    return LANGS[m.group(1)] if m else "en"


def find_sources(paths: Iterable[str | os.PathLike[str]], lang: str | None = None) -> Sources:
    """The card data in ``paths``; ``lang``: the language of every cdb and card info JSON among them
    (``cards import --lang de``), instead of the one their folder or name says."""
    src = _find_sources(paths)
    if lang:
        src.cdbs = [(p, lang) for p, _ in src.cdbs]
        src.ygoprodeck = [(p, lang) for p, _ in src.ygoprodeck]
    return src


def not_regular(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is when it is not a regular file (links followed), else None: only regular files are
    read (a named pipe would block the import for ever; a link loop or a link to nothing cannot be opened)."""
    try:
        st = os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return Said(M("a loop of symbolic links"))
        if os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return Said(M("a symbolic link to nothing ({target})", target=target))
        return Said(M("cannot be read ({error})", error=str(e.strerror or e)))
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return Said(M("a named pipe (FIFO), not a regular file"))
    if stat.S_ISSOCK(mode):
        return Said(M("a socket, not a regular file"))
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Said(M("a device, not a regular file"))
    return Said(M("not a regular file"))


def _find_sources(paths: Iterable[str | os.PathLike[str]]) -> Sources:
    src = Sources()
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            _scan_dir(p, src)
            continue
        what = not_regular(p)
        if what:
            src.not_regular.append((str(p), what))
        elif p.suffix.lower() == ".cdb":
            src.cdbs.append((p, _lang_of(p)))
        elif p.suffix.lower() == ".lua":
            src.scripts.append(p)
        elif p.suffix.lower() == ".json":
            _classify_json(p, src)
        else:
            src.unknown.append(p)
    return src


_SCRIPT_NAME = re.compile(r"c\d+\.lua")


def _scan_dir(root: Path, src: Sources) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            low = name.lower()
            if low.endswith(".lua"):
                if not _SCRIPT_NAME.fullmatch(low):
                    continue
            elif not (low.endswith(".cdb") or (low.endswith(".json") and ("cardinfo" in low or "cards" in low))):
                continue
            full = os.path.join(dirpath, name)
            what = not_regular(full)
            if what:
                src.not_regular.append((full, what))
            elif low.endswith(".lua"):
                src.scripts.append(full)  # type: ignore[arg-type]  (a str: cheaper)
            elif low.endswith(".cdb"):
                p = Path(full)
                src.cdbs.append((p, _lang_of(p.relative_to(root))))
            else:
                _classify_json(Path(full), src)


def _classify_json(p: Path, src: Sources) -> None:
    try:
        with p.open("rb") as f:
            head = f.read(4096).decode("utf-8", errors="replace")
    except OSError:
        src.unknown.append(p)
        return
    # the keys of a YGOProDeck dump's first entries, or its name (a first entry may be longer than the head)
    if '"data"' in head and ('"race"' in head or '"desc"' in head or '"frameType"' in head
                             or "cardinfo" in p.name.lower()):
        src.ygoprodeck.append((p, _lang_of(p)))
    elif '"cards"' in head or '"civilizations"' in head:
        src.dm.append(p)
    else:
        src.unknown.append(p)


# ---- reading ----------------------------------------------------------------------------------
@dataclass
class YgoRecord:
    passcode: int
    names: dict[str, str] = field(default_factory=dict)
    kind: str | None = None
    atk: int | None = None
    def_: int | None = None
    level: int | None = None
    desc: str = ""
    script: Script | None = None
    sources: dict[str, str] = field(default_factory=dict)
    #: names a second source gives in a language the first already named (an older cdb's name beside a
    #: script's current one): every name a source gives is a name of the card
    other_names: list[tuple[str, str]] = field(default_factory=list)


#: the columns read from a cdb: (name, table, the SQLite storage class it must hold; None may be NULL)
_CDB_COLUMNS = (("id", "datas", int), ("alias", "datas", int), ("type", "datas", int), ("atk", "datas", int),
                ("def", "datas", int), ("level", "datas", int), ("name", "texts", str), ("desc", "texts", str))
_STORAGE = {int: M.term("SQLite storage", "an integer"), float: M.term("SQLite storage", "a real"),
            str: M.term("SQLite storage", "text"), bytes: M.term("SQLite storage", "a BLOB"),
            type(None): M.term("SQLite storage", "NULL")}
_OR_NULL = M("{storage} or NULL")


def _storage(value: object) -> Msg | str:
    return _STORAGE.get(type(value), type(value).__name__)


def _quote(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _bad_cdb_row(row: tuple) -> tuple[str, Msg] | None:
    """(table, what is wrong) for a row whose columns do not hold what a cdb holds there, else None."""
    for value, (col, table, kind) in zip(row, _CDB_COLUMNS):
        if value is None and col != "id":
            continue
        if type(value) is not kind:
            want = _STORAGE[kind] if col == "id" else _OR_NULL.replace(storage=_STORAGE[kind])
            return table, M("{column} is {storage} ({value}), not {wanted}", column=col, storage=_storage(value),
                            value=_quote(value), wanted=want)
    return None


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")  # a name that is not UTF-8 costs its row nothing


def read_cdb(path: Path, lang: str, records: dict[int, YgoRecord], summary: Summary) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            conn.text_factory = _text
            rows = conn.execute("SELECT d.id, d.alias, d.type, d.atk, d.def, d.level, t.name, t.desc "
                                "FROM datas d JOIN texts t ON t.id = d.id").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as e:
        summary.problems.append(Said(M("{path}: not a card database ({error})", path=str(path), error=str(e))))
        return
    for row in rows:
        bad = _bad_cdb_row(row)
        if bad:  # one odd row (another tool's cdb, a damaged one) costs only itself
            table, what = bad
            summary.problems.append(Said(M("{path}: table {table}, id {id}: {what}; the row is skipped", path=str(path),
                                           table=table, id=_quote(row[0]), what=what)))
            continue
        pid, alias, type_, atk, def_, level, name, desc = row
        if alias and abs(alias - pid) < 20:
            continue  # an alternate artwork: the same card
        rec = records.get(pid) or records.setdefault(pid, YgoRecord(pid))
        where = f"{path.name} id={pid}"
        if name:
            row_lang = "ja" if lang == "en" and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", name) else lang
            rec.names.setdefault(row_lang, name)
            rec.sources.setdefault(f"name.{row_lang}", where)
        row_lang_is_main = lang == "en"
        kind = derive.kind_of(type_ or 0)
        if kind and (rec.kind is None or row_lang_is_main):
            rec.kind = kind
            rec.sources["kind"] = where + f" type=0x{type_:x}"
        if type_ and type_ & K.TYPE_MONSTER:
            rec.atk = None if atk is None or atk < 0 else atk
            rec.def_ = None if def_ is None or def_ < 0 or type_ & K.TYPE_LINK else def_
            rec.level = (level or 0) & 0xFF or None
            rec.sources["stats"] = where
        if desc and (not rec.desc or lang == "en"):
            rec.desc = desc
            rec.sources["text"] = where


def _read_scripts(paths: list[Path], jobs: int) -> list[Script]:
    if jobs > 1 and len(paths) > 2000:
        import multiprocessing

        ctx = multiprocessing.get_context("fork") if hasattr(os, "fork") else multiprocessing.get_context()
        with ctx.Pool(jobs) as pool:
            return pool.map(read_script, [str(p) for p in paths], chunksize=256)
    return [read_script(p) for p in paths]


# ---- JSON card lists: each entry validated against a schema (msgspec: strict, no coercion) ----------
Passcode = Annotated[int, Meta(ge=0, le=2**63 - 1)]
Stat = Annotated[int, Meta(ge=-2**31, le=2**31)]  # ATK, DEF, level: what a cdb column and a battle hold


class YgoEntry(msgspec.Struct):
    """One card of a YGOProDeck ``cardinfo`` dump (the fields replayer reads; others are ignored)."""

    id: Passcode | Annotated[str, Meta(pattern=r"^[0-9]{1,18}$")]
    name: str | None = None
    type: str | None = None
    race: str | None = None
    desc: str | None = None
    atk: Stat | None | UnsetType = UNSET
    def_: Stat | None | UnsetType = msgspec.field(default=UNSET, name="def")
    level: Stat | None | UnsetType = UNSET


class DmEntry(msgspec.Struct):
    """One card of a Duel Masters card list."""

    name: Annotated[str, Meta(min_length=1)]
    type: str | None = None
    text: str | None = None
    civilizations: list[str] | None = None
    subtypes: list[str] | None = None
    supertypes: list[str] | None = None
    power: Stat | Annotated[str, Meta(max_length=40)] | None = None  # "6000+"
    nameJa: str | None = None
    name_ja: str | None = None
    ja: str | None = None


class _Huge:
    """A number of more digits than any card has (Python refuses to make an int of over 4,300): no field's
    type, so the schema reports its entry."""

    __slots__ = ("digits",)

    def __init__(self, digits: str):
        self.digits = digits


def _parse_int(digits: str) -> int | _Huge:
    return int(digits) if len(digits) <= 40 else _Huge(digits)


def _load_json(path: Path, summary: Summary):
    """The file's JSON value, or None (reported) when it is not JSON or nests deeper than can be read."""
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                summary.problems.append(Said(M("{path}: not a regular file; not read", path=str(path))))
                return None
            data = f.read()
        return json.loads(data, parse_int=_parse_int)
    except RecursionError:
        summary.problems.append(Said(M("{path}: not read: JSON nested deeper than any card list (and than can be read)",
                                       path=str(path))))
    except (OSError, ValueError) as e:
        summary.problems.append(Said(M("{path}: not JSON ({error})", path=str(path), error=str(e))))
    return None


def _entries(path: Path, data, key: str, summary: Summary) -> list:
    if isinstance(data, dict):
        entries = data.get(key, [])
    elif isinstance(data, list) and key == "cards":
        entries = data
    else:
        summary.problems.append(Said(M("{path}: not a card list (a JSON {type}, not an object with {key})", path=str(path),
                                       type=type(data).__name__, key=repr(key))))
        return []
    if not isinstance(entries, list):
        summary.problems.append(Said(M("{path}: {key} is a JSON {type}, not a list of cards", path=str(path),
                                       key=repr(key), type=type(entries).__name__)))
        return []
    return entries


def _validate(entry, schema, path: Path, i: int, summary: Summary):
    try:
        return msgspec.convert(entry, schema, strict=True)
    except msgspec.ValidationError as e:
        summary.problems.append(Said(M("{path}: entry {n}: {error}; skipped", path=str(path), n=i + 1,
                                       error=str(e)[:200])))
    except RecursionError:
        summary.problems.append(Said(M("{path}: entry {n}: nested too deeply; skipped", path=str(path), n=i + 1)))
    return None


def read_ygoprodeck(path: Path, lang: str, records: dict[int, YgoRecord], summary: Summary) -> None:
    data = _load_json(path, summary)
    if data is None:
        return
    for i, raw in enumerate(_entries(path, data, "data", summary)):
        card = _validate(raw, YgoEntry, path, i, summary)
        if card is None:
            continue
        pid = int(card.id)
        rec = records.get(pid) or records.setdefault(pid, YgoRecord(pid))
        where = f"{path.name} #{i + 1}"
        if card.name:
            rec.names.setdefault(lang, card.name)
            rec.sources.setdefault(f"name.{lang}", where)
        kind = text.ygoprodeck_kind(card.type or "", card.race or "")
        if kind and rec.kind is None:
            rec.kind = kind
            rec.sources["kind"] = where + f" type={card.type!r} race={card.race!r}"
        if card.atk is not UNSET and rec.atk is None:
            rec.atk = card.atk  # type: ignore[assignment]
            rec.def_ = card.def_ if card.def_ is not UNSET else None  # type: ignore[assignment]
            rec.level = card.level if card.level is not UNSET else None  # type: ignore[assignment]
            rec.sources.setdefault("stats", where)
        if card.desc and (not rec.desc or lang == "en"):
            rec.desc = card.desc
            rec.sources["text"] = where


def _script_facts(e: ScriptEffect) -> dict:
    return {"type": e.type, "categories": sorted(e.categories), "flags": sorted(e.flags),
            "event": e.code if not isinstance(e.code, int) else K.EVENT_NAMES.get(e.code, e.code),
            "range": sorted(e.range), "dscon": e.dscon, "after_calc": e.after_calc,
            "count_limit": e.count_limit, "label": e.label, "confidence": "script",
            **({"probe": sorted(e.probe)} if e.probe is not None else {}), **({"via": e.helper} if e.helper else {}),
            **({"shut": sorted(e.shut)} if e.shut else {})}


def _effect_from_facts(d: dict, line: int) -> ScriptEffect:
    code = d.get("event")
    code = K.EVENTS.get(code, code) if isinstance(code, str) else code
    return ScriptEffect(line, type=d.get("type", 0), categories=frozenset(d.get("categories", ())),
                        flags=frozenset(d.get("flags", ())), code=code, range=frozenset(d.get("range", ())),
                        dscon=d.get("dscon", False), after_calc=d.get("after_calc", False),
                        count_limit=d.get("count_limit", False), label=d.get("label", ""),
                        probe=frozenset(d["probe"]) if isinstance(d.get("probe"), list) else None,
                        shut=frozenset(str(p) for p in d["shut"]) if isinstance(d.get("shut"), list) else frozenset())


def ygo_row(rec: YgoRecord, old: dict | None, game: "Game") -> tuple[dict, list[tuple[str, str]]]:
    """The ``cards`` row and names of one Yu-Gi-Oh! card (merged with its ``old`` row); ``game``: the
    game its words are derived for (its Damage Step rules: :mod:`replayer.cards.derive`)."""
    sources = dict(json.loads(old["sources"])) if old else {}
    sources.update(rec.sources)
    kind = rec.kind or (old["kind"] if old and sources.get("kind", "").find("inferred") < 0 else None)
    script = rec.script
    old_effects = json.loads(old["effects"]) if old else []
    props: set[str] = set()
    if script is not None:
        for lang, n in script.names.items():
            if lang in rec.names and name_key(rec.names[lang]) != name_key(n):
                rec.other_names.append((lang, n))
            rec.names.setdefault(lang, n)
            sources.setdefault(f"name.{lang}", f"{os.path.basename(script.path)}:{1 if lang == 'ja' else 2}")
        if kind is None:
            acts = [e for e in script.effects if e.activated]
            # a Spell/Trap's script always registers its activation (ACTIVATE); a monster's never does
            if script.effects and not any(e.type & K.ACTIVATE for e in acts):
                kind = "flip-monster" if any(e.type & K.FLIP for e in acts) else "effect-monster"
                sources["kind"] = f"{os.path.basename(script.path)} (inferred: effects of a monster)"
        raw = [(_script_facts(e), e.line, os.path.basename(script.path)) for e in script.effects if e.activated]
        for e in script.effects:
            if not e.activated and isinstance(e.code, str):
                if e.code == "EFFECT_PIERCE":
                    props.add("piercing")
                elif e.code in BATTLE_CODES and kind and "monster" in kind:
                    props.add("continuous")
    elif old_effects and old_effects[0].get("confidence") == "script":
        raw = [(e, int(e["from"].rsplit(":", 1)[1].split()[0]), e["from"].rsplit(":", 1)[0]) for e in old_effects]
        props |= set(json.loads(old["props"])) - {old["kind"]}
    else:
        raw = []
    effects = []
    for facts, line, fname in raw:
        words, timings = derive.effect_words(_effect_from_facts(facts, line), kind, game)
        effects.append({"props": sorted(words), "damage_step": sorted(timings), "from": f"{fname}:{line} (script)",
                        **facts})
    if kind == "continuous-trap":
        derive.lend_trigger_window(effects)
    if not raw and rec.desc:
        for words, marker in text.text_effects(rec.desc, kind):
            effects.append({"props": sorted(words), "damage_step": sorted(derive.replayer_timings(words, kind, game)),
                            "from": f"{rec.sources.get('text', 'text')} (text: {marker})", "confidence": "text"})
    if kind:
        props.add(kind)
    names = dict(rec.names)
    # (an import of one language only, `--lang de`, keeps the card's English name from before)
    name = names.get("en") or (old["name"] if old else None) or names.get("ja") or names.get("de") \
        or next(iter(names.values()), None) or str(rec.passcode)
    row = {"id": f"ygo:{rec.passcode}", "game": "ygo", "passcode": rec.passcode, "name": name, "kind": kind,
           "atk": rec.atk if rec.atk is not None else (old["atk"] if old else None),
           "def": rec.def_ if rec.def_ is not None else (old["def"] if old else None),
           "level": rec.level if rec.level is not None else (old["level"] if old else None),
           "power": None, "props": json.dumps(sorted(props)), "effects": json.dumps(effects, ensure_ascii=False),
           "sources": json.dumps(sources, ensure_ascii=False, sort_keys=True),
           "source": (os.path.basename(script.path) + " (script)") if script else sources.get("kind", sources.get("text", "")),
           "complete": int(script.complete) if script else 0}
    name_rows = [(lang, visible(n)) for lang, n in [*names.items(), *rec.other_names]]
    row["name"] = visible(row["name"])
    return row, name_rows


def read_dm(path: Path, summary: Summary, game: "Game") -> list[tuple[dict, list[tuple[str, str]]]]:
    """The ``cards`` rows and names of a Duel Masters JSON card list; ``game``: the game whose
    property words the cards' text is read into (a word it does not know is left out)."""
    is_known = game.is_property

    data = _load_json(path, summary)
    if data is None:
        return []
    out = []
    for i, entry in enumerate(_entries(path, data, "cards", summary)):
        card = _validate(entry, DmEntry, path, i, summary)
        if card is None:
            continue
        c = msgspec.structs.asdict(card)
        raw_name = c["name"]
        name = repair_text(raw_name)
        typ = str(c.get("type", "")).lower()
        kind = "creature" if "creature" in typ else "spell" if "spell" in typ else None
        card_text = repair_text(c.get("text") or "") if isinstance(c.get("text"), str) else ""
        reading = text.dm_read(card_text, creature=kind == "creature")
        words = [(w, line) for w, line in reading.words if is_known(w)]
        props = {w for w, _ in words}
        where = f"{path.name} #{i + 1}"
        sources = {"kind": f"{where} type={c.get('type')!r}", "name.en": where}
        civs = c.get("civilizations") if isinstance(c.get("civilizations"), list) else []
        for civ in civs:
            word = text.CIVILIZATIONS.get(str(civ).lower())
            if word:
                props.add(word)
                sources[f"prop.{word}"] = f"{where} civilizations={civs!r}"
        races = c.get("subtypes") if isinstance(c.get("subtypes"), list) else []
        for race in races:
            if isinstance(race, str) and race.strip():
                props.add("race:" + " ".join(repair_text(race).split()).lower())
        if races:
            sources["races"] = f"{where} subtypes={races!r}"
        supertypes = c.get("supertypes") if isinstance(c.get("supertypes"), list) else []
        if "Evolution" in supertypes and "evolution" not in props:
            props.add("evolution")
            sources["prop.evolution"] = f"{where} supertypes={supertypes!r}"
        if kind:
            props.add(kind)
        power = text.dm_power(c.get("power"))
        if power is not None:
            sources["power"] = f"{where} power={c.get('power')!r}"
        for w, line in words:
            sources[f"prop.{w}"] = f"{where} text: {line!r}"
        effects = [{"props": [w], "from": f"{where} (text: {line!r})", "confidence": "text"} for w, line in words]
        effects += [{"props": [], "static": st, "from": f"{where} (text: {line!r})", "confidence": "text"}
                    for st, line in reading.statics if all(is_known(w) for w in st["gives"])]
        effects += [{"props": [], "unread": about, "from": f"{where} (text: {line!r})", "confidence": "text"}
                    for line, about in dict.fromkeys(reading.unread)]
        row = {"id": f"dm:{name_key(name)}", "game": "dm", "passcode": None, "name": name, "kind": kind,
               "atk": None, "def": None, "level": None, "power": power, "props": json.dumps(sorted(props)),
               "effects": "[]", "sources": json.dumps(sources, ensure_ascii=False, sort_keys=True),
               "source": where, "complete": 1}
        row["_effects_shown"] = effects
        names = [("en", name)]
        if raw_name != name:  # the list's own (mis-encoded) spelling stays findable
            names.append(("as-listed", raw_name))
            sources["name.as-listed"] = f"{where} (repaired: {raw_name!r} read as UTF-8)"
            row["sources"] = json.dumps(sources, ensure_ascii=False, sort_keys=True)
        for key in ("nameJa", "name_ja", "ja"):
            if isinstance(c.get(key), str) and c[key]:
                names.append(("ja", c[key]))
        out.append((row, names))
    return out


def repair_text(value: str) -> str:
    """Text as it was written: UTF-8 that was read as Latin-1 or Windows-1252 somewhere on its way
    ("Ãœberdragon" -> "Überdragon", "Evolutionâ€”" -> "Evolution—") is decoded again
    (``ftfy.fix_encoding``: only mis-decoded text changes; quotes, widths and the rest stay)."""
    if value.isascii():
        return value
    import ftfy

    return ftfy.fix_encoding(value)


# ---- the import ---------------------------------------------------------------------------------
_AT_LINE = M("{path}:{line}: {what}")


def _shortened(what: str) -> str | Msg:
    """A script's problem as a parameter: our message whole (its quoted script text was cut where it
    was made), else the text cut (a Lua message quotes the script)."""
    return what.msg if isinstance(what, Said) else shorten(what, 200)


def _unread_line(what: str) -> object:
    """The line of what a script's effect could not read (``line 12: type …``)."""
    if isinstance(what, Said) and what.msg.param("line") is not None:
        return what.msg.param("line")
    return what.split(":", 1)[0].replace("line ", "")


def _unread_what(what: str) -> str | Msg:
    if isinstance(what, Said) and what.msg.param("what") is not None:
        return what.msg.param("what")  # type: ignore[return-value]
    return shorten(what.split(": ", 1)[-1], 200)


def import_cards(paths: Iterable[str | os.PathLike[str]], db: CardDB, *, games: Mapping[str, "Game"], jobs: int = 2,
                 progress: Callable[[str, int, int], None] | None = None, lang: str | None = None) -> Summary:
    """Read the card data in ``paths`` and write what changed into ``db`` (``lang``: see :func:`find_sources`).

    ``games``: the games replayer knows, by id (:data:`replayer.games.ALL`): the readers of a
    game's card data ask its :class:`~replayer.games.Game` for its property words and rules."""
    summary = Summary()
    db.prepare()  # a read-only database, or one that is not a card database, is refused before reading
    src = find_sources(paths, lang)
    for p in src.unknown:
        summary.problems.append(Said(M("{path}: not card data (a .cdb, a c<passcode>.lua script, a cardinfo or "
                                       "Duel Masters JSON file)", path=str(p))))
    for p, what in src.not_regular:
        summary.problems.append(Said(M("{path}: not read: {what}", path=str(p), what=what)))
    summary.files = len(src.files())
    step = 0
    total = max(summary.files, 1)

    def tick(what: str, n: int = 1) -> None:
        nonlocal step
        step += n
        if progress:
            progress(what, step, total)

    file_rows = []
    for f in src.files():
        try:
            st = os.stat(f)
        except OSError as e:  # gone since the folder was read: its reader says so
            summary.problems.append(Said(M("{path}: cannot be read ({error})", path=str(f), error=str(e.strerror or e))))
            continue
        file_rows.append((os.path.abspath(f), st.st_size, st.st_mtime_ns, 0, ""))
    if db.exists() and file_rows:
        try:
            # (the writer's connection: the last one to close removes the WAL files; a read-only one cannot)
            conn = db.writer().conn
            try:
                known = {p: (size, mtime) for p, size, mtime in conn.execute("SELECT path, size, mtime_ns FROM files")}
                reader = conn.execute("SELECT value FROM meta WHERE key = 'reader'").fetchone()
                if schema_state(conn)[0] != "ok":
                    reader = None
                elif reader == (READER_VERSION,):
                    with conn:  # (a database of an earlier replayer gets its "did you mean" index)
                        write_suggest_index(conn, keep=True)
            finally:
                conn.close()
        except sqlite3.Error:
            known, reader = {}, None
        if reader == (READER_VERSION,) and all(known.get(p) == (size, mtime) for p, size, mtime, _, _ in file_rows):
            summary.unchanged = summary.files  # every file as it was read last time: nothing to do
            summary.cards = {"unchanged files": summary.files}
            return summary

    records: dict[int, YgoRecord] = {}
    for path, lang in src.cdbs:
        read_cdb(path, lang, records, summary)
        tick(path.name)
    for path, lang in src.ygoprodeck:
        read_ygoprodeck(path, lang, records, summary)
        tick(path.name)
    # scripts: in chunks, so that the progress bar moves
    chunk = 1000
    for start in range(0, len(src.scripts), chunk):
        part = src.scripts[start:start + chunk]
        for script in _read_scripts(part, jobs):
            summary.scripts += 1
            if script.complete:
                summary.complete_scripts += 1
            for line, what in script.problems:
                summary.problems.append(Said(_AT_LINE.replace(path=script.path, line=line, what=_shortened(what))))
            for e in script.effects:
                for what in e.unread:  # (the script's own text, quoted: cut, and made visible where it is shown)
                    summary.problems.append(Said(_AT_LINE.replace(path=script.path, line=_unread_line(what),
                                                                  what=_unread_what(what))))
            if script.passcode is None:
                continue
            if script.passcode > MAX_PASSCODE:
                summary.problems.append(Said(M("{path}: the passcode in its name is too large for a card; not read",
                                               path=script.path)))
                continue
            rec = records.get(script.passcode) or records.setdefault(script.passcode, YgoRecord(script.passcode))
            if rec.script is None or "/official/" in script.path.replace("\\", "/"):
                rec.script = script
        tick("scripts", len(part))
    dm_rows = []
    for path in src.dm:
        dm_rows += read_dm(path, summary, games["dm"])
        tick(path.name)

    w = db.writer()
    conn = w.conn
    cols = [d[0] for d in conn.execute("SELECT * FROM cards LIMIT 0").description]
    old_rows = {r[0]: dict(zip(cols, r)) for r in conn.execute("SELECT * FROM cards")}
    rows, names = [], []
    for rec in records.values():
        if not rec.names and rec.script is None:
            continue
        try:
            row, nm = ygo_row(rec, old_rows.get(f"ygo:{rec.passcode}"), games["ygo"])
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
            # the stored row is not of the shape this replayer writes (damaged, or another version's)
            summary.problems.append(Said(M("{path}: the stored row of {id} cannot be used ({error}); the card is read anew",
                                           path=str(db.path), id=f"ygo:{rec.passcode}", error=type(e).__name__)))
            row, nm = ygo_row(rec, None, games["ygo"])
        rows.append(row)
        names += [(row["id"], "ygo", lang, n) for lang, n in nm]
        summary.effects += len(json.loads(row["effects"]))
    summary.cards["ygo"] = len(rows)
    n_dm = 0
    for row, nm in dm_rows:
        row["effects"] = json.dumps(row.pop("_effects_shown"), ensure_ascii=False)
        rows.append(row)
        names += [(row["id"], "dm", lang, n) for lang, n in nm]
        n_dm += 1
    if n_dm:
        summary.cards["dm"] = n_dm
    changed = []
    for row in rows:
        old = old_rows.get(row["id"])
        if old is not None and all(old.get(k) == v for k, v in row.items()):
            summary.unchanged += 1
        else:
            changed.append(row)
    summary.written = len(changed)
    changed_ids = {r["id"] for r in changed}
    with conn:
        if changed:
            keys = list(changed[0])
            conn.executemany(f"INSERT OR REPLACE INTO cards ({', '.join(keys)}) VALUES ({', '.join('?' * len(keys))})",
                             [tuple(r[k] for k in keys) for r in changed])
            # a card's names in the languages read now are replaced; its other languages (an earlier
            # import of the English card info, then `--lang de` of the German one) are kept
            conn.executemany("DELETE FROM names WHERE card_id = ? AND lang = ?",
                             sorted({(cid, lang) for cid, _g, lang, _n in names if cid in changed_ids}))
        conn.executemany("INSERT OR REPLACE INTO names (key, card_id, game, lang, name) VALUES (?, ?, ?, ?, ?)",
                         [(name_key(n), cid, g, lang, n) for cid, g, lang, n in names if cid in changed_ids])
        conn.executemany("INSERT OR REPLACE INTO files (path, size, mtime_ns, cards, problems) VALUES (?, ?, ?, ?, ?)",
                         file_rows)
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('reader', ?)", (READER_VERSION,))
        write_suggest_index(conn)  # "did you mean" of the names as they are now (nameindex.SuggestIndex)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    db.close()
    return summary


def content_hash(row: dict) -> str:
    return hashlib.sha1(json.dumps(row, sort_keys=True, default=str).encode()).hexdigest()
