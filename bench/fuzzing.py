"""Fuzz inputs for replayer: logs made from the grammar, and logs mutated byte by byte.

Used by ``tests/test_fuzz.py`` (a few thousand a CI run, driven by hypothesis) and by
``bench/fuzz.py`` (the long run). Everything is drawn from one ``random.Random``, so a log is
reproduced from its seed.

- :func:`grammar_line` walks the game's lark grammar itself (its rules and terminals, after
  ``%import``), so every form of line, every keyword alias (English, Japanese, German) and every
  quote style is reachable; a terminal's text is drawn from its own regular expression
  (:func:`sample_regex`), with card names and properties drawn now and then from hostile text
  (escape sequences, bidi overrides, markup, unclosed quotes, huge numbers).
- :func:`grammar_log` puts such lines under a header, with timecodes and notes.
- :func:`mutate` changes the bytes of a log: flips, inserts (openers, digits, controls,
  invalid UTF-8, line breaks), deletions, duplicated and swapped lines, splices.
- :func:`bad_lines` is the oracle: the lines whose body the grammar alone rejects, each of
  which must carry a finding.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

try:
    import re._parser as sre_parse  # Python 3.11+
    from re._constants import (ANY, ASSERT, ASSERT_NOT, AT, BRANCH, CATEGORY, CATEGORY_DIGIT, CATEGORY_NOT_DIGIT,
                               CATEGORY_NOT_SPACE, CATEGORY_NOT_WORD, CATEGORY_SPACE, CATEGORY_WORD, IN, LITERAL,
                               MAX_REPEAT, MIN_REPEAT, NEGATE, NOT_LITERAL, RANGE, SUBPATTERN)
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore[no-redef]
    from sre_constants import (ANY, ASSERT, ASSERT_NOT, AT, BRANCH, CATEGORY, CATEGORY_DIGIT,  # type: ignore
                               CATEGORY_NOT_DIGIT, CATEGORY_NOT_SPACE, CATEGORY_NOT_WORD, CATEGORY_SPACE,
                               CATEGORY_WORD, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, NEGATE, NOT_LITERAL, RANGE,
                               SUBPATTERN)

from replayer import games
from replayer.grammar import parser
from replayer.reader import split_line, split_lines
from replayer.transform import ToEvents

GAMES = ("ygo", "dm")
GAME_TAGS = {"ygo": ["ygo", "yugioh", "Yu-Gi-Oh!", "遊戯王"], "dm": ["dm", "duel-masters", "Duel Masters", "デュエル・マスターズ"]}
QUOTES = (('"', '"'), ("《", "》"), ("「", "」"), ("„", "“"), ("„", "”"))

#: text a hostile log puts in names, notes and properties
HOSTILE = ["\x1b[2J", "\x1b]0;pwned\x07", "\u202e", "\u2066", "\x9b31m", "<b>", "</i>", "<img src=x>", "&amp;",
           "\x00", "\r", "\x0b", "\x0c", "\u2028", "\x7f", "#", "#2", "{", "}", "\"", "《", "》", "「", "」", "„", "“",
           "9" * 20, "9" * 4400, "²", "٣", "３", "\t", "\u3000", "\u00a0", "\ufeff", "@1:23", "A:", "CL1", "->"]
_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -'!.,:"
_WORLD = "クリボーオネスト聖なるバリア神の宣告月の書激流葬ドラゴン剣士äöüßÄÖÜéñ海馬遊戯"
_NAMES = ["Kuriboh", "Honest", "Blue-Eyes White Dragon", "Mirror Force", "Bolshack Dragon", "Aqua Hulcus",
          "クリボー", "オネスト", "Kuriboh der Kleine", "Gaia the Fierce Knight", "Holy Barrier", "Emperor Quazla"]


# ---- text from a regular expression --------------------------------------------------------------
def _char(rng: random.Random, hostile: float = 0.02) -> str:
    r = rng.random()
    if r < hostile:
        return rng.choice(HOSTILE)[:1] or " "
    if r < 0.25:
        return rng.choice(_WORLD)
    return rng.choice(_PLAIN)


def _in_set(ch: str, items) -> bool:
    code = ord(ch)
    for op, av in items:
        if op is LITERAL and code == av:
            return True
        if op is RANGE and av[0] <= code <= av[1]:
            return True
        if op is CATEGORY:
            if av is CATEGORY_DIGIT and ch.isdigit() or av is CATEGORY_NOT_DIGIT and not ch.isdigit():
                return True
            if av is CATEGORY_SPACE and ch.isspace() or av is CATEGORY_NOT_SPACE and not ch.isspace():
                return True
            if av is CATEGORY_WORD and (ch.isalnum() or ch == "_"):
                return True
            if av is CATEGORY_NOT_WORD and not (ch.isalnum() or ch == "_"):
                return True
    return False


def _gen(items, rng: random.Random, out: list[str], ignorecase: bool) -> None:
    for op, av in items:
        if op is LITERAL:
            ch = chr(av)
            out.append(ch.upper() if ignorecase and rng.random() < 0.3 else ch)
        elif op is NOT_LITERAL:
            ch = _char(rng)
            while ord(ch) == av:
                ch = _char(rng)
            out.append(ch)
        elif op is ANY:
            out.append(_char(rng))
        elif op is IN:
            negate = bool(av) and av[0][0] is NEGATE
            body = av[1:] if negate else av
            if negate:
                ch = _char(rng)
                while _in_set(ch, body) or ch == "\n":
                    ch = _char(rng)
                out.append(ch)
            else:
                op2, av2 = rng.choice(body)
                if op2 is LITERAL:
                    out.append(chr(av2))
                elif op2 is RANGE:
                    out.append(chr(rng.randint(*av2)))
                elif av2 is CATEGORY_DIGIT:
                    out.append(rng.choice("0123456789") if rng.random() < 0.97 else rng.choice("٣３७"))
                elif av2 is CATEGORY_SPACE:
                    out.append(" ")
                else:
                    out.append(rng.choice("abcxyzAB_9"))
        elif op is BRANCH:
            _gen(rng.choice(av[1]), rng, out, ignorecase)
        elif op is SUBPATTERN:
            flags = av[1] | 0
            _gen(av[-1], rng, out, ignorecase or bool(flags & re.IGNORECASE))
        elif op in (MAX_REPEAT, MIN_REPEAT):
            lo, hi, sub = av
            hi = lo + 8 if hi is sre_parse.MAXREPEAT or hi > lo + 8 else hi
            n = rng.randint(lo, hi) if rng.random() < 0.8 else lo + (rng.random() < 0.5)
            if rng.random() < 0.003:
                n = lo + rng.randint(50, 400)  # now and then a long run
            for _ in range(max(n, lo)):
                _gen(sub, rng, out, ignorecase)
        elif op in (AT, ASSERT, ASSERT_NOT):
            continue  # anchors and look-arounds constrain the neighbours only
        else:  # pragma: no cover - a construct the grammar does not use
            raise ValueError(f"regex construct {op} is not handled")


@lru_cache(maxsize=None)
def _parsed(pattern: str):
    return sre_parse.parse(pattern)


def sample_regex(pattern: str, rng: random.Random) -> str:
    """A random string the regular expression matches (look-arounds ignored)."""
    out: list[str] = []
    _gen(_parsed(pattern), rng, out, False)
    return "".join(out)


# ---- lines from the grammar ----------------------------------------------------------------------
@lru_cache(maxsize=None)
def _grammar(game: str):
    p = parser(games.get(game))
    rules: dict[str, list[list[tuple[str, bool]]]] = {}
    for r in p.rules:
        rules.setdefault(r.origin.name, []).append([(s.name, s.is_term) for s in r.expansion])
    terminals = {t.name: t.pattern.to_regexp() for t in p.terminals}
    return rules, terminals


def _name(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.6:
        name = rng.choice(_NAMES)
    elif r < 0.9:
        name = "".join(_char(rng, 0) for _ in range(rng.randint(1, 14))).strip() or "X"
    else:
        name = "".join(_char(rng, 0.3) for _ in range(rng.randint(1, 20)))
    open_, close = rng.choice(QUOTES)
    if any(c in name for c in '"《》「」„“”\n'):
        name = re.sub('["《》「」„“”\n]', "", name) or "X"
    return open_ + name + close


def _props(rng: random.Random, game: str) -> str:
    words = games.get(game).all_property_words()
    picked = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.8:
            w = rng.choice(words)
            picked.append(w.replace(" N", f" {rng.randint(0, 20000)}"))
        elif r < 0.9:
            other = games.get("ygo" if game == "dm" else "dm")
            picked.append(rng.choice(sorted(other.property_words)))  # the other game's word
        else:
            picked.append("".join(_char(rng, 0.3) for _ in range(rng.randint(1, 12))).replace("}", ""))
    return "{" + ", ".join(picked) + "}"


def _terminal(name: str, regexp: str, rng: random.Random, game: str) -> str:
    base = name.rsplit("__", 1)[-1].lstrip("_")
    if base == "CARD_NAME":
        return _name(rng)
    if base == "PROPS":
        return _props(rng, game)
    if base == "PLAYER":
        return rng.choice("AB")
    if base in ("INT", "SIGNED_INT", "COPY", "CL", "STATS") and rng.random() < 0.85:
        n = lambda: str(rng.choice([0, 1, 2, 3, 5, 8, 100, 500, 1000, 1500, 3000, 8000, rng.randint(0, 99999)]))
        return {"INT": n, "SIGNED_INT": lambda: rng.choice("+-") + n(), "COPY": lambda: f"#{rng.randint(1, 3)}",
                "CL": lambda: f"CL{rng.randint(1, 5)}",
                "STATS": lambda: f"{rng.choice([n(), '?'])}/{rng.choice([n(), '?'])}"}[base]()
    return sample_regex(regexp, rng)


def grammar_line(game: str, rng: random.Random, max_depth: int = 12) -> str:
    """One line of ``game`` made by walking its grammar from ``start``."""
    rules, terminals = _grammar(game)
    tokens: list[tuple[str, str]] = []

    def expand(symbol: str, depth: int) -> None:
        options = rules[symbol]
        if depth > max_depth:
            options = [min(options, key=len)]
        for sym, is_term in rng.choice(options):
            if is_term:
                tokens.append((sym, _terminal(sym, terminals[sym], rng, game)))
            else:
                expand(sym, depth + 1)

    expand("start", 0)
    out = []
    for i, (sym, text) in enumerate(tokens):
        base = sym.rsplit("__", 1)[-1].lstrip("_")
        if i and not (base in ("COPY", "STATS", "COLON", "RSQB") and rng.random() < 0.8):
            out.append(" " if rng.random() < 0.93 else rng.choice(["  ", "\t", "\u3000", "\u00a0"]))
        out.append(text)
    return "".join(out)


def grammar_log(rng: random.Random, game: str | None = None, lines: int | None = None) -> str:
    """A log: a header, then grammar-made lines with timecodes, notes and blank lines."""
    game = game or rng.choice(GAMES)
    n = lines if lines is not None else rng.choice([1, 3, 8, 20, 40, 80])
    out = [f'[Game "{rng.choice(GAME_TAGS[game])}"]']
    if rng.random() < 0.7:
        out.append(f'[A "{_name(rng)[1:-1]}"]')
    if rng.random() < 0.3:
        out.append(f'[{"LP" if game == "ygo" else "Shields"} "{rng.choice(["8000", "5", "4000", "²", "x", "9" * 30])}"]')
    if rng.random() < 0.1:
        out.append(f'[Rules "{rng.choice(["current", "mr2", "mr9"])}"]')
    for _ in range(n):
        line = grammar_line(game, rng)
        r = rng.random()
        if r < 0.05:
            line = f"@{rng.randint(0, 59)}:{rng.randint(0, 59):02d} " + line
        elif r < 0.08:
            line = ""
        if rng.random() < 0.1:
            line += "  # " + "".join(_char(rng, 0.2) for _ in range(rng.randint(0, 30)))
        out.append(line)
    return "\n".join(out) + ("\n" if rng.random() < 0.9 else "")


# ---- byte mutations ------------------------------------------------------------------------------
_INSERTS = [b'"', "„".encode(), "《".encode(), "「".encode(), b"{", b"}", b"#", b"\x1b[2J", b"\x1b]0;t\x07",
            b"9" * 5000, b"\r", b"\n", b"\r\n", b"\xff", b"\xc3", "\u202e".encode(), b"\x00", b"\t", b" ",
            b"A:", b"CL9 ", b"->", b"[", b"]", b"@1:2", "ー".encode(), "²".encode(), b"\x0c", "\u2028".encode()]


def mutate(data: bytes, rng: random.Random, corpus: list[bytes] | None = None) -> bytes:
    """``data`` with one to six random changes to its bytes."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        pos = rng.randint(0, len(buf)) if buf else 0
        if r < 0.25 and buf:
            buf[min(pos, len(buf) - 1)] = rng.randint(0, 255)
        elif r < 0.55:
            buf[pos:pos] = rng.choice(_INSERTS) * (rng.randint(1, 3) if rng.random() < 0.9 else rng.randint(100, 3000))
        elif r < 0.7 and buf:
            del buf[pos : pos + rng.randint(1, 40)]
        elif r < 0.8:
            lines = bytes(buf).split(b"\n")
            k = rng.randrange(len(lines))
            lines[k:k] = [lines[k]] * rng.randint(1, 50)
            buf = bytearray(b"\n".join(lines))
        elif r < 0.88:
            lines = bytes(buf).split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            buf = bytearray(b"\n".join(lines))
        elif r < 0.94 and corpus:
            other = rng.choice(corpus)
            cut = rng.randint(0, len(other))
            buf = buf[:pos] + bytearray(other[cut:])
        else:
            del buf[pos:]
    return bytes(buf)


# ---- the oracle ----------------------------------------------------------------------------------
def bad_lines(text: str, game: str) -> list[int]:
    """The numbers of the lines whose body the grammar alone does not read (each needs a finding).

    A line is split as the reader splits it (timecode, note); its body is parsed and transformed
    directly, without the reader's caches and templates.
    """
    from lark.exceptions import UnexpectedInput, VisitError

    p = parser(games.get(game))
    transformer = ToEvents()
    out = []
    for number, raw in enumerate(split_lines(text), 1):
        column, timecode, body, note = split_line(raw)
        if not body:
            continue
        try:
            transformer.transform(p.parse(" " * (column - 1) + body))
        except (UnexpectedInput, VisitError):
            out.append(number)
    return out
