"""The "did you mean" index of a card database (replayer/cards/nameindex.py): its count filter keeps
every key that can reach the cutoff, and a suggester with it gives the same suggestions, in the
same order, as the one that compares every name (the reference), on thousands of queries."""

from __future__ import annotations

import random
import sqlite3

import pytest
from rapidfuzz import fuzz

from replayer.cards.db import CardDB, write_suggest_index
from replayer.cards.importer import import_cards
from replayer.cards.nameindex import CountFilter, SuggestIndex, name_words
from replayer.cards.names import Suggester, name_key
from replayer.games import ALL as GAMES

from .test_importer import _no_card_database_left_behind, dm_list, install  # noqa: F401 (fixtures)

_SYL = ["ash", "blo", "ssom", "joy", "ous", "spr", "ing", "dra", "gon", "white", "eyes", "blue", "gho", "st",
        "ogre", "snow", "rab", "bit", "vei", "ler", "mir", "ror", "for", "ce", "sky", "stri", "ker", "ace", "rai",
        "ze", "lyla", "light", "sworn", "sor", "ress", "hon", "est", "kur", "iboh", "x", "q", "7"]
_KANA = list("アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン・ー") + list("竜王神聖光闇")


def _names(rnd: random.Random, n: int) -> list[str]:
    words = sorted({"".join(rnd.choice(_SYL) for _ in range(rnd.randint(1, 3))) for _ in range(1500)})
    out = set()
    while len(out) < n:
        r = rnd.random()
        if r < 0.75:
            out.add(" ".join(rnd.choice(words).capitalize() for _ in range(rnd.randint(1, 6))))
        elif r < 0.95:
            out.add("".join(rnd.choice(_KANA) for _ in range(rnd.randint(2, 12))))
        else:  # short names, punctuation, digits, full-width forms
            out.add(rnd.choice(["Ｅ・ＨＥＲＯ ", "D-", "#", "ZW - ", ""]) + rnd.choice(words).upper()[:rnd.randint(1, 4)])
    return sorted(out)


def _typo(rnd: random.Random, s: str) -> str:
    if len(s) < 2:
        return s + "e"
    k, op = rnd.randrange(len(s)), rnd.randrange(4)
    c = rnd.choice("aeiostrnxー竜")
    return [s[:k] + s[k + 1:], s[:k] + c + s[k:], s[:k] + c + s[k + 1:], s[:k] + s[k + 1:k + 2] + s[k:k + 1] + s[k + 2:]][op]


def _queries(rnd: random.Random, names: list[str], n: int) -> list[str]:
    out = []
    for _ in range(n):
        name, r = rnd.choice(names), rnd.random()
        if r < 0.25:
            q = _typo(rnd, name)
        elif r < 0.4:
            q = _typo(rnd, _typo(rnd, _typo(rnd, name)))
        elif r < 0.65:  # a part of a name, maybe with a typo
            ws = name.split()
            k = rnd.randrange(len(ws))
            q = " ".join(ws[k:k + rnd.randint(1, 3)])
            q = _typo(rnd, q) if rnd.random() < 0.5 else q
        elif r < 0.75:
            q = name[:rnd.randint(1, 6)]
        elif r < 0.85:  # made up: mostly no suggestion
            q = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz  ") for _ in range(rnd.randint(1, 30)))
        elif r < 0.92:
            q = name[rnd.randrange(len(name)):]
        else:
            q = name
        out.append(q)
    return out


@pytest.fixture(scope="module")
def world():
    rnd = random.Random(25)
    names = _names(rnd, 4000)
    keyed = [(name_key(n), n) for n in names[:3600]]
    keyed += [(name_key(n), n + " (reprint)") for n in names[:50]]  # a key twice: the first name is its
    builtin = names[3500:] + ["Ash Blossom & Joyous Spring"]  # partly in the database too
    blob = SuggestIndex.of(keyed).to_bytes(len(keyed))
    index = SuggestIndex.from_bytes(blob, len(keyed))
    assert index is not None
    return rnd, names, keyed, builtin, index


def test_the_filter_keeps_every_key_that_can_reach_the_cutoff():
    rnd = random.Random(7)
    keys = [name_key(n) for n in _names(rnd, 1500)]
    f = CountFilter(keys, list(range(len(keys))))
    for q in _queries(rnd, keys, 400):
        q = name_key(q) or "x"
        for cutoff in (75.0, 80.0, 50.0, 91.3):
            kept = set(f.candidates(q, cutoff))
            reach = {i for i, k in enumerate(keys) if fuzz.ratio(q, k, score_cutoff=cutoff)}
            assert reach <= kept, (q, cutoff)
            assert len(kept) <= len(keys)


def test_the_filter_lets_few_keys_through():
    rnd = random.Random(8)
    keys = [name_key(n) for n in _names(rnd, 3000)]
    f = CountFilter(keys, list(range(len(keys))))
    kept = [len(f.candidates(name_key(_typo(rnd, k)), 75.0)) for k in rnd.sample(keys, 200)]
    assert sum(kept) / len(kept) < len(keys) / 10  # a filter, not every key


def test_the_same_suggestions_as_comparing_every_name(world):
    rnd, names, keyed, builtin, index = world
    reference = Suggester(builtin, keyed)
    indexed = Suggester(builtin, [], index)
    assert indexed.keys == reference.keys and indexed.names == reference.names
    queries = _queries(rnd, names, 3000) + ["Ash Blosom", "Joyous Sprng", "ab", "", "ーー", "竜"]
    found = 0
    for q in queries:
        for limit in (3, 1):
            got = indexed.suggest(q, limit)
            assert got == reference.suggest(q, limit), (q, limit)
            found += bool(got)
    assert found > len(queries) // 2  # most queries find something: the comparison is not of empty lists


def test_the_parts_of_a_name_the_same_as_comparing_every_word(world):
    rnd, names, keyed, builtin, index = world
    reference = Suggester(builtin, keyed)
    indexed = Suggester(builtin, [], SuggestIndex.from_bytes(SuggestIndex.of(keyed).to_bytes(len(keyed)), len(keyed)))
    for q in _queries(rnd, names, 1500):
        assert indexed.suggest_part(q) == reference.suggest_part(q), q


def test_the_word_index_with_other_names_holds_each_word_once(world):
    """The built-in names' words that the index has too are the index's words, their names added."""
    rnd, names, keyed, builtin, index = world
    reference = Suggester(builtin, keyed)
    indexed = Suggester(builtin, [], index)
    ref_words, ref_postings = reference._word_index()
    words, postings = indexed._word_index()
    assert len(set(words)) == len(words)
    assert words[:len(index.words)] == index.words
    shared = [j for j, w in enumerate(words[:len(index.words)]) if any(w in name_words(n) for n in builtin)]
    assert shared  # (some of the built-in names' words are the index's: the case looked at)
    holding = {w: {indexed.names[i] for i in postings(j)} for j, w in enumerate(words)}
    assert holding == {w: {reference.names[i] for i in ref_postings(j)} for j, w in enumerate(ref_words)}


def test_a_kept_index_of_other_names_or_another_version_is_not_used(world):
    _, _, keyed, _, _ = world
    blob = SuggestIndex.of(keyed).to_bytes(len(keyed))
    assert SuggestIndex.from_bytes(blob, len(keyed) + 1) is None  # names added since
    assert SuggestIndex.from_bytes(b"RPSX\x00", len(keyed)) is None
    assert SuggestIndex.from_bytes("text", len(keyed)) is None
    assert SuggestIndex.from_bytes(blob[:4] + b"\xff\xff\xff\x00" + blob[8:], len(keyed)) is None
    # a damaged filter or word part is made again from the names: the same suggestions still
    damaged = bytearray(blob)
    damaged[-200:] = b"\xff" * 200
    index = SuggestIndex.from_bytes(bytes(damaged), len(keyed))
    if index is not None:
        reference = Suggester([], keyed)
        s = Suggester([], [], index)
        for q in ("Ashblossom", "Dragon Whit", "オネスト"):
            assert s.suggest(q) == reference.suggest(q)


def test_an_import_keeps_the_index_and_a_changed_database_is_read_the_old_way(tmp_path, install, dm_list):  # noqa: F811
    db_path = tmp_path / "cards.db"
    import_cards([install, dm_list], CardDB(db_path), games=GAMES, jobs=1)
    db = CardDB(db_path)
    index = db.suggest_index("ygo")
    assert index is not None and sorted(index.names) == sorted({n for _, n in db.keyed_names("ygo")})
    assert db.suggest_index("dm") is not None
    db.close()
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("INSERT INTO names (key, card_id, game, lang, name) VALUES ('newname', 'ygo:1', 'ygo', 'en', 'New Name')")
    db = CardDB(db_path)
    assert db.suggest_index("ygo") is None  # names changed by hand: not the index's
    assert db.suggester("ygo").suggest("New Nme") == ["New Name"]
    db.close()
    with conn:
        write_suggest_index(conn)
    assert CardDB(db_path).suggest_index("ygo") is not None
    with conn:  # an older database: no index, and an import of unchanged files writes it
        conn.execute("DELETE FROM meta WHERE key LIKE 'suggest:%'")
    conn.close()
    assert CardDB(db_path).suggest_index("ygo") is None
    summary = import_cards([install, dm_list], CardDB(db_path), games=GAMES, jobs=1)
    assert summary.unchanged == summary.files
    assert CardDB(db_path).suggest_index("ygo") is not None


def test_the_index_is_written_again_on_the_same_connection_and_a_database_opened_once(tmp_path, install, dm_list):  # noqa: F811
    from replayer.cards.db import open_cards

    db_path = tmp_path / "cards.db"
    import_cards([install, dm_list], CardDB(db_path), games=GAMES, jobs=1)
    conn = sqlite3.connect(db_path)
    with conn:
        write_suggest_index(conn)
        conn.execute("DELETE FROM meta WHERE key LIKE 'suggest:%'")
        write_suggest_index(conn)  # (the same call on the same connection: written again, nothing kept)
    conn.close()
    assert CardDB(db_path).suggest_index("ygo") is not None
    assert open_cards(str(db_path)) is open_cards(str(db_path))  # one object per path and process


def test_the_positions_of_the_bits_set():
    from replayer.cards.nameindex import _positions

    rnd = random.Random(3)
    for n in (1, 7, 8, 9, 64, 1000, 20_000):
        for _ in range(20):
            want = sorted(rnd.sample(range(n), rnd.randint(1, min(n, 40))))
            assert _positions(sum(1 << p for p in want)) == want
    assert _positions(0) == [] and _positions(0xFF << 16) == list(range(16, 24))


def test_a_kept_filter_lets_the_same_keys_through_as_one_made_here(world):
    rnd, names, keyed, _, index = world
    made = SuggestIndex.of(keyed)
    for cls in (0, 1):
        kept, here = index.key_filter(cls), made.key_filter(cls)
        for q in _queries(rnd, names, 600):
            q = name_key(q) or "x"
            for cutoff in (75.0, 80.0, 50.0):
                assert kept.candidates(q, cutoff) == here.candidates(q, cutoff), (q, cutoff)
