"""Properties from card text: Yu-Gi-Oh! Problem-Solving Card Text, and Duel Masters keywords.

Card text is read where no script is: a YGOProDeck ``cardinfo`` dump, or a cdb row whose card
has no script. It is a lower-confidence source than a script (``confidence = "text"``): the
markers say what the text says, not how the simulator rules it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
# A card's text is read a sentence at a time (reminder text in parentheses left out). A sentence
# that *is* a keyword or a "this creature …" ability gives the card a property word; a sentence
# that gives other creatures an ability while this one is in the battle zone gives a static
# ability (a dict, applied by replayer.games.dm.abilities); a sentence that looks like either but
# fits no pattern read here is kept as unread, and the rules model says so in an info.

#: civilization words, English and Japanese
CIVILIZATIONS = {"light": "light", "water": "water", "darkness": "darkness", "fire": "fire", "nature": "nature",
                 "光": "light", "水": "water", "闇": "darkness", "火": "fire", "自然": "nature"}
_CIV = r"(?:light|water|darkness|fire|nature)"
_CIV_JA = r"(?:光|水|闇|火|自然)"
_CIVS = rf"({_CIV}(?:\s*(?:,|or|and|,\s*or|,\s*and)\s*{_CIV})*)"
_CIVS_JA = rf"({_CIV_JA}(?:(?:または|か|と|・|、){_CIV_JA})*)"
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "「": '"', "」": '"', "＋": "+", "　": " "})


def _civs(text: str) -> list[str]:
    return [CIVILIZATIONS[c.lower()] for c in re.findall(rf"{_CIV}|{_CIV_JA}", text, re.I)]


#: (pattern of a whole sentence, the words it gives: a function of the match)
_OWN: tuple[tuple[re.Pattern[str], object], ...] = tuple((re.compile(p, re.I), f) for p, f in (
    (r"^blocker$|^ブロッカー$", lambda m: ["blocker"]),
    (r"^double breaker$|^[WＷ]・ブレイカー$|^ダブル・ブレイカー$", lambda m: ["w-breaker"]),
    (r"^triple breaker$|^[TＴ]・ブレイカー$|^トリプル・ブレイカー$", lambda m: ["t-breaker"]),
    (r"^shield trigger(?: cross)?$|^[SＳ]・トリガー$|^シールド・トリガー$", lambda m: ["s-trigger"]),
    (r"^speed attacker$|^スピードアタッカー$", lambda m: ["speed-attacker"]),
    (r"^mach fighter$|^マッハファイター$", lambda m: ["mach-fighter"]),
    (r"^guardman$|^ガードマン$", lambda m: ["guardman"]),
    (r"^slayer$|^スレイヤー$", lambda m: ["slayer"]),
    (r"^power attacker \+(\d+)$|^パワーアタッカー\s*\+\s*(\d+)$", lambda m: [f"power-attacker {m.group(1) or m.group(2)}"]),
    (r"^(?:vortex |neo |galaxy )?evolution\s*[—―–-]|^\S{0,8}進化\s*[ー―－—:：-]", lambda m: ["evolution"]),
    (r"^this creature can't attack players$|^このクリーチャーは、?相手プレイヤーを攻撃できない$",
     lambda m: ["cannot-attack-players"]),
    (r"^this creature can't attack creatures$|^このクリーチャーは、?クリーチャーを攻撃できない$",
     lambda m: ["cannot-attack-creatures"]),
    (r"^this creature can't attack$|^このクリーチャーは、?攻撃(?:することが)?できない$", lambda m: ["cannot-attack"]),
    (r"^this creature can't attack or block$|^このクリーチャーは、?攻撃もブロックもできない$",
     lambda m: ["cannot-attack", "cannot-block"]),
    (r"^this creature can't block$|^このクリーチャーは、?ブロックできない$", lambda m: ["cannot-block"]),
    (r"^this creature can attack untapped creatures$|^このクリーチャーは、?アンタップしているクリーチャーを攻撃できる$",
     lambda m: ["can-attack-untapped"]),
    (rf"^this creature can attack untapped {_CIVS} creatures$|^このクリーチャーは、?アンタップしている{_CIVS_JA}のクリーチャーを攻撃できる$",
     lambda m: [f"can-attack-untapped:{c}" for c in _civs(m.group(0).split("untapped", 1)[-1])]),
    (r"^this creature can't be attacked or blocked by non-evolution creatures$",
     lambda m: ["cannot-be-attacked-by:non-evolution", "cannot-be-blocked-by:non-evolution"]),
    (rf"^{_CIVS} slayer$|^{_CIVS_JA}スレイヤー$", lambda m: [f"slayer:{c}" for c in _civs(m.group(0))]),
    (rf"^{_CIVS} blocker$|^{_CIVS_JA}ブロッカー$", lambda m: [f"blocker:{c}" for c in _civs(m.group(0))]),
    (r"^this creature can't be blocked$|^このクリーチャーは、?ブロックされない$", lambda m: ["cannot-be-blocked"]),
    (r"^while attacking a creature, this creature can't be blocked$|"
     r"^このクリーチャーは、?クリーチャーを攻撃している間、?ブロックされない$",
     lambda m: ["cannot-be-blocked-attacking-creatures"]),
    (r"^while attacking (?:a player|players|your opponent), this creature can't be blocked$|"
     r"^このクリーチャーは、?(?:相手)?プレイヤーを攻撃している間、?ブロックされない$",
     lambda m: ["cannot-be-blocked-attacking-players"]),
    (r"^this creature can't be blocked by (?:any )?creatures? that (?:has|have) power (\d+) or (more|less)$",
     lambda m: [f"cannot-be-blocked-by-power-at-{'least' if m.group(2).lower() == 'more' else 'most'} {m.group(1)}"]),
    (r"^このクリーチャーは、?パワー(\d+)(以上|以下)のクリーチャーにブロックされない$",
     lambda m: [f"cannot-be-blocked-by-power-at-{'least' if m.group(2) == '以上' else 'most'} {m.group(1)}"]),
    (rf"^this creature can't be blocked by {_CIVS} creatures$|^このクリーチャーは、?{_CIVS_JA}のクリーチャーにブロックされない$",
     lambda m: [f"cannot-be-blocked-by:{c}" for c in _civs(m.group(0).split("by", 1)[-1])]),
    (r"^this creature can't be attacked$|^このクリーチャーは、?攻撃されない$", lambda m: ["cannot-be-attacked"]),
    (rf"^this creature can't be attacked by {_CIVS} creatures$|^このクリーチャーは、?{_CIVS_JA}のクリーチャーに攻撃されない$",
     lambda m: [f"cannot-be-attacked-by:{c}" for c in _civs(m.group(0).split("by", 1)[-1])]),
    (r"^when you put this creature into the battle zone\b|^このクリーチャーをバトルゾーンに出した時", lambda m: ["cip"]),
    (r"^whenever this creature attacks\b|^このクリーチャーが攻撃する時", lambda m: ["attack-trigger"]),
))

#: a sentence that grants words to other creatures: "Each of your other fire creatures in the battle zone has "…""
_GRANT = re.compile(
    r"^(?:each of |each |all of |all )?(?P<whose>your opponent's |your |)(?P<other>other )?(?P<filter>.+?)"
    r"(?: in the battle zone)?(?: that (?:has|have) (?P<race2>\w+) in (?:its|their) race)?"
    r"(?: in the battle zone)? (?:has|have|gets?|gains?|can) (?P<what>.+)$", re.I)
_FILTER_CREATURES = re.compile(rf"^(?:creatures?|(?:{_CIV}(?: creatures?)?(?:\s*(?:,|or|and)\s*)?)+)$", re.I)
_SPEED_SICK = re.compile(r"^creatures that have \"speed attacker\" can't attack on the turn they are put into the "
                         r"battle zone$|^スピードアタッカーを持つクリーチャーは、?バトルゾーンに出たターンに攻撃できない$", re.I)
_NO_BLOCK = re.compile(r"^your opponent's creatures can't block$|^相手のクリーチャーは、?ブロックできない$", re.I)
_ATTACK_BONUS = re.compile(
    r"^(?:all of |all |each of )?your (other )?creatures(?: in the battle zone)? gets? \+(\d+) power while attacking$|"
    r"^while attacking, (?:each of )?your (other )?creatures gets? \+(\d+) power$|"
    r"^自分の(他の)?クリーチャーはすべて、?攻撃中、?パワー\+(\d+)される$", re.I)
_POWER_CAP = re.compile(r"^creatures that have power (\d+) or more can't attack$", re.I)
#: a sentence about attacking, blocking, breaking or power (what an unread ability may change)
_ABOUT_ATTACK = re.compile(r"attack|block|breaker|slayer|power|攻撃|ブロック|ブレイカー|スレイヤー|パワー", re.I)
_ONE_SHOT = re.compile(r"until the (?:end|start)|this turn|ターン", re.I)
_TRIGGER = re.compile(r"^(?:when|whenever|at the|after|instead|if\b|each time|\$|choose|destroy|return|put|"
                      r"draw|tap|untap|search|look|reveal|you may)|時、|たび、", re.I)


@dataclass
class DmReading:
    """What a Duel Masters card's text gives: its own property words, its static abilities on other
    creatures, and the sentences about an attack that no pattern here reads; each with its line."""

    words: list[tuple[str, str]] = field(default_factory=list)
    statics: list[tuple[dict, str]] = field(default_factory=list)
    unread: list[tuple[str, str]] = field(default_factory=list)  # (line, "own" | "field")


def _sentences(line: str) -> list[str]:
    line = line.translate(_QUOTES)
    line = re.sub(r"\s*[(（][^()（）]*[)）]", "", line)  # reminder text
    line = re.sub(r"\bcannot\b", "can't", line, flags=re.I)
    line = re.sub(r"\s+([.。])", r"\1", line)
    line = re.sub(r'([.。])"', r'"\1', line)  # 'has "blocker."': the sentence ends after the quote
    out = []
    for s in re.split(r"(?<=[.。])\s*(?=\S)", line):
        s = s.strip().rstrip(".。").strip()
        if s:
            out.append(s)
    return out


def _own_words(sentence: str) -> list[str] | None:
    s = " ".join(sentence.split())
    m = re.match(r"^survivor\s*:\s*(.+)$", s, re.I)  # "Survivor: X": each of your Survivors, this one too
    if m:
        s = m.group(1).strip()
    for pat, give in _OWN:
        m = pat.search(s)
        if m:
            return give(m)  # type: ignore[operator]
    return None


def _quoted_words(what: str) -> list[str] | None:
    """The words of '"power attacker +3000" and "double breaker"' (None: something not read)."""
    parts = re.findall(r'"([^"]+)"', what)
    rest = re.sub(r'"[^"]+"', "", what)
    if not parts or re.sub(r"\b(?:and|,)\b|[,.\s]", "", rest):
        if re.fullmatch(r"\s*can't be blocked\s*", what, re.I):
            return ["cannot-be-blocked"]
        if re.fullmatch(r"\s*attack untapped creatures\s*", what, re.I):
            return ["can-attack-untapped"]
        return None
    words: list[str] = []
    for p in parts:
        w = _own_words(p.strip().rstrip(".").strip())
        if w is None:
            return None
        words += w
    return words


_NO_SHIELDS = re.compile(r"^while (you have|your opponent has) no shields, this creature (.+)$", re.I)


def _clause_words(clause: str) -> list[str] | None:
    """The words of "has 'blocker'", "can attack untapped creatures and has 'power attacker +3000'",
    "gets +4000 power and has 'double breaker'", "can't attack" (None: a part not read)."""
    words: list[str] = []
    for part in re.split(r',\s*(?:and\s+)?(?=has|have|gets?|can)|\s+and\s+(?=has\b|have\b|gets?\b|can\b)', clause):
        part = part.strip()
        m = re.fullmatch(r"gets? \+(\d+) power", part, re.I)
        if m:
            words.append(f"power-plus {m.group(1)}")
            continue
        if re.fullmatch(r"(?:has|have) .+", part, re.I):
            got = _quoted_words(part.split(" ", 1)[1])
        else:
            got = _own_words("this creature " + part)
        if not got:
            return None
        words += got
    return words


def _grant(sentence: str) -> dict | None:
    s = " ".join(sentence.split())
    m = _NO_SHIELDS.match(s)
    if m:
        words = _clause_words(m.group(2))
        if not words:
            return None
        return {"who": "yours", "itself": True, "gives": words,
                "while_no_shields": "yours" if m.group(1).lower() == "you have" else "opponents"}
    if _SPEED_SICK.search(s):
        return {"who": "all", "needs": "speed-attacker", "gives": ["cannot-attack-turn-entered"]}
    if _NO_BLOCK.search(s):
        return {"who": "opponents", "gives": ["cannot-block"]}
    m = _ATTACK_BONUS.search(s)
    if m:
        n = m.group(2) or m.group(4) or m.group(6)
        return {"who": "yours", "other": bool(m.group(1) or m.group(3) or m.group(5)), "gives": [f"power-attacker {n}"]}
    m = _POWER_CAP.search(s)
    if m:
        return {"who": "all", "power_at_least": int(m.group(1)), "gives": ["cannot-attack"]}
    if _ONE_SHOT.search(s) or re.match(r"^(?:this|the crossed) creature\b", s, re.I):
        return None
    m = _GRANT.match(s)
    if not m:
        m2 = re.match(r"^(?P<whose>your |)(?P<other>other )?(?P<filter>.+?)(?: in the battle zone)? can't be blocked$",
                      s, re.I)
        if not m2:
            return None
        whose, other, filt, race2 = m2.group("whose"), m2.group("other"), m2.group("filter"), None
        words = ["cannot-be-blocked"]
    else:
        whose, other, filt, race2 = m.group("whose"), m.group("other"), m.group("filter"), m.group("race2")
        what = m.group("what")
        if what.lower().startswith("+"):
            p = re.fullmatch(r"\+(\d+) power", what, re.I)
            words = [f"power-plus {p.group(1)}"] if p else None
        else:
            words = _quoted_words(what)
        if not words:
            return None
    out: dict = {"who": {"your opponent's ": "opponents", "your ": "yours"}.get(whose.lower(), "all"),
                 "other": bool(other), "gives": words}
    filt = filt.strip()
    if filt.lower().startswith("each "):
        filt = filt[5:]
    if _FILTER_CREATURES.match(filt):
        civs = _civs(filt)
        if civs:
            out["civs"] = civs
    else:
        races = [r.strip() for r in re.split(r"\s*(?:,|\bor\b|\band\b)\s*", filt) if r.strip()]
        if not races or any(not re.fullmatch(r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)*", r) for r in races):
            return None
        out["races"] = races
    if race2:
        out["races"] = out.get("races", []) + [race2]
    return out


def _about_itself(sentence: str) -> bool:
    """Is the sentence about the card itself ("While …, this creature gets …", "Turbo rush: This creature
    …"), not about other creatures ("While this creature is in the battle zone, each of your …")?"""
    s = re.sub(r"^[\w' -]{1,30}\s*:\s*", "", sentence)  # an ability's label: "Turbo rush :", "Wave striker :"
    s = re.sub(r"^(?:while|whenever|if|during) [^,]+,\s*", "", s, flags=re.I)
    return bool(re.match(r"^(?:this creature|it)\b|^このクリーチャー", s, re.I))


def dm_read(text: str, *, creature: bool = True) -> DmReading:
    """Read a Duel Masters card's text (English or Japanese): see :class:`DmReading`.

    Only a sentence that *is* the ability gives it: "Each of your creatures gets 'double breaker'"
    gives other cards the keyword (a static ability, while this one is in the battle zone), and
    "While …, this creature has …" is a condition the log does not show (unread)."""
    out = DmReading()
    for raw in (text or "").splitlines():
        line = raw.strip()
        if not line:
            continue
        for s in _sentences(line):
            words = _own_words(s)
            if words is not None:
                out.words += [(w, line) for w in words]
                given = [w for w in words if w not in ("cip", "attack-trigger")]
                if re.match(r"^survivor\s*:", s, re.I) and creature and given:
                    out.statics.append(({"who": "yours", "other": True, "races": ["Survivor"], "gives": given}, line))
                continue
            if not creature:
                continue  # a spell's text happens once, when it is cast
            grant = _grant(s)
            if grant is not None:
                out.statics.append((grant, line))
            elif _ABOUT_ATTACK.search(s) and not _TRIGGER.search(s) and not _ONE_SHOT.search(s):
                out.unread.append((line, "own" if _about_itself(s) else "field"))
    return out


def dm_words(text: str) -> list[tuple[str, str]]:
    """(property word, the text line that gave it) for the card's own abilities (:func:`dm_read`)."""
    return dm_read(text).words


def dm_power(value) -> int | None:
    if value is None:
        return None
    m = re.match(r"\s*(\d{1,18})(?!\d)", str(value))  # (a power of more digits is no power)
    return int(m.group(1)) if m else None
