"""Properties from card text: Yu-Gi-Oh! Problem-Solving Card Text, and Duel Masters keywords.

Card text is read where no script is: a YGOProDeck ``cardinfo`` dump, or a cdb row whose card
has no script. It is a lower-confidence source than a script (``confidence = "text"``): the
markers say what the text says, not how the simulator rules it.
"""

from __future__ import annotations

import re

# ---- Yu-Gi-Oh! ------------------------------------------------------------------------------
#: YGOProDeck's type and race (the Spell/Trap subtype) -> the kind word
YGOPRODECK_SPELL = {"Normal": "normal-spell", "Quick-Play": "quick-play", "Continuous": "continuous-spell",
                    "Equip": "equip-spell", "Field": "field-spell", "Ritual": "ritual-spell"}
YGOPRODECK_TRAP = {"Normal": "normal-trap", "Continuous": "continuous-trap", "Counter": "counter-trap"}


def ygoprodeck_kind(type_: str, race: str) -> str | None:
    t = (type_ or "").lower()
    if "spell" in t:
        return YGOPRODECK_SPELL.get(race, "normal-spell")
    if "trap" in t:
        return YGOPRODECK_TRAP.get(race, "normal-trap")
    if "flip" in t:
        return "flip-monster"
    if t.startswith("normal monster") or t in ("normal tuner monster",):
        return "normal-monster"
    if "monster" in t or "token" in t:
        return "effect-monster"
    return None


_SENT = re.compile(r"(?<=[.)])\s+(?=[A-Z\"●①-⑩])|\n+")
_ATK = re.compile(r"\b(gains?|loses?|lose|gain|becomes?|halved|doubled|switch(?:es)?)\b[^.]{0,60}\b(ATK|DEF)\b|"
                  r"\b(ATK|DEF)\b[^.]{0,40}\b(becomes?|is halved|are halved|is doubled|switched)\b|"
                  r"\b(increase|decrease|reduce)\b[^.]{0,40}\b(ATK|DEF)\b", re.I)


def text_effects(desc: str, kind: str | None) -> list[tuple[frozenset[str], str]]:
    """(property words, the marker that gave them) for each effect the text shows.

    An effect is a sentence group with an activation marker ("(Quick Effect):", "FLIP:",
    "If …:" / "When …:"); a Spell/Trap's text is its activation.
    """
    text = (desc or "").replace("\r", "")
    # Pendulum cards: the monster text comes after "[ Monster Effect ]"
    if "[ Monster Effect ]" in text:
        text = text.split("[ Monster Effect ]", 1)[1]
    spell_trap = kind is not None and (kind.endswith("spell") or kind.endswith("trap") or kind == "quick-play")
    pieces = [p.strip() for p in re.split(r"(?<=\.)\s+(?=(?:[A-Z\"●]|\(\d\)|You can|If|When|During|FLIP))|\n+", text)
              if p.strip()]
    out: list[tuple[frozenset[str], str]] = []
    if spell_trap:
        words, marker = _words(text, spell_trap=True)
        out.append((frozenset(words), marker or "Spell/Trap activation"))
        return out
    for piece in pieces:
        if ":" not in piece and not piece.upper().startswith("FLIP"):
            continue
        words, marker = _words(piece, spell_trap=False)
        if words:
            out.append((frozenset(words), marker))
    return out


def _words(piece: str, *, spell_trap: bool) -> tuple[set[str], str]:
    w: set[str] = set()
    markers = []
    low = piece.lower()
    head = piece.split(":", 1)[0] if ":" in piece else piece
    hl = head.lower()
    if not spell_trap:
        if piece.upper().startswith("FLIP:") or piece.upper().startswith("FLIP "):
            w |= {"flip"}
            markers.append("FLIP:")
        elif "(quick effect)" in low:
            w.add("quick")
            markers.append("(Quick Effect)")
        elif re.match(r"^(?:\(\d\)\s*|●\s*)?(if|when|at the start of the damage step)\b", hl) and ":" in piece:
            w.add("trigger")
            markers.append("If/When …:")
            if "you can" not in piece.split(":", 1)[1].lower()[:40] and not re.search(r"\byou can\b", hl):
                w.add("mandatory")
            if re.search(r"\bthis card\b[^:]{0,60}\b(is|was|are) (sent|destroyed|special summoned|normal summoned|"
                         r"summoned|flipped|banished|added|returned|detached|targeted|tributed|discarded|changed)", hl):
                w.add("self-trigger")
        elif re.search(r"\byou can\b", hl) and ":" in piece:
            w.add("ignition")
            markers.append("You can …:")
        else:
            return set(), ""
    if "during damage calculation" in low or "during the damage calculation" in low:
        w.add("timing:calc")
        markers.append('"during damage calculation"')
    if "at the start of the damage step" in low:
        w.add("timing:ds-start")
        markers.append('"at the start of the Damage Step"')
    if "after damage calculation" in low:
        w.add("timing:after-calc")
        markers.append('"after damage calculation"')
    if "at the end of the damage step" in low:
        w.add("timing:ds-end")
        markers.append('"at the end of the Damage Step"')
    if "can be activated during the damage step" in low:
        w.add("ds-ok")
        markers.append('"(can be activated during the Damage Step)"')
    if "except during the damage step" in low:
        w.add("no-ds")
        markers.append('"except during the Damage Step"')
    if re.search(r"destroyed by battle|inflicts? (?:battle )?damage to your opponent by battle|"
                 r"battle damage", low) and "trigger" in w:
        w.add("battle-trigger")
    if _ATK.search(piece):
        w.add("atk-mod")
        markers.append("ATK/DEF change")
    if re.search(r"negate the (?:activation|summon)", low):
        w.add("negates-activation")
    elif re.search(r"negate (?:its|that|the|those|their)?\s*(?:card'?s? )?effects?", low):
        w.add("negates-effect")
    if re.search(r"\btarget\b", low):
        w.add("targets")
    return w, ", ".join(markers)


# ---- Duel Masters -----------------------------------------------------------------------------
#: keyword at the start of a line of the card's own text -> property word (English and Japanese)
DM_KEYWORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:blocker\b|ブロッカー)", re.I), "blocker"),
    (re.compile(r"^(?:double breaker\b|W・ブレイカー|Ｗ・ブレイカー|ダブル・ブレイカー)", re.I), "w-breaker"),
    (re.compile(r"^(?:triple breaker\b|T・ブレイカー|Ｔ・ブレイカー|トリプル・ブレイカー)", re.I), "t-breaker"),
    (re.compile(r"^(?:shield trigger\b|S・トリガー|Ｓ・トリガー|シールド・トリガー)", re.I), "s-trigger"),
    (re.compile(r"^(?:speed attacker\b|スピードアタッカー)", re.I), "speed-attacker"),
    (re.compile(r"^(?:mach fighter\b|マッハファイター)", re.I), "mach-fighter"),
    (re.compile(r"^(?:guardman\b|ガードマン)", re.I), "guardman"),
    (re.compile(r"^(?:slayer\b|スレイヤー)", re.I), "slayer"),
    (re.compile(r"^this creature can(?:'|’|no)t attack players\b|^このクリーチャーは、?相手プレイヤーを攻撃できない", re.I),
     "cannot-attack-players"),
    (re.compile(r"^this creature can(?:'|’|no)t attack\s*[.(]?\s*$|^this creature can(?:'|’|no)t attack\.|"
                r"^このクリーチャーは攻撃することができない|^このクリーチャーは攻撃できない", re.I), "cannot-attack"),
    (re.compile(r"^this creature can attack untapped creatures\b|^このクリーチャーは、?アンタップしているクリーチャーを攻撃できる",
                re.I), "can-attack-untapped"),
    (re.compile(r"^when you put this creature into the battle zone\b|^このクリーチャーをバトルゾーンに出した時", re.I), "cip"),
    (re.compile(r"^whenever this creature attacks\b|^このクリーチャーが攻撃する時", re.I), "attack-trigger"),
)


def dm_words(text: str) -> list[tuple[str, str]]:
    """(property word, the text line that gave it) for the card's own keywords.

    Only a line that *starts* with the keyword gives it: "Each of your creatures gets
    'double breaker'" gives other cards the keyword, and "While …, this creature has …" only
    sometimes; neither line gives the card the keyword itself.
    """
    out = []
    for raw in (text or "").splitlines():
        line = raw.strip()
        for pat, word in DM_KEYWORDS:
            if pat.search(line):
                out.append((word, line[:60]))
    return out


def dm_power(value) -> int | None:
    if value is None:
        return None
    m = re.match(r"\s*(\d+)", str(value))
    return int(m.group(1)) if m else None
