"""Yu-Gi-Oh!'s words in the languages replayer speaks (issue 24): the catalog of this game's
messages (the gettext domain ``replayer-ygo``, in ``locale/`` beside this file), its rules terms
(the five Damage Step timings as the OCG and the German TCG rulebook name them), the citations in
their sources' own languages, and the glossary (docs/glossary.md is made from :data:`GLOSSARY`).

>>> timing(Timing.BEFORE_CALC).render("en"), timing(Timing.BEFORE_CALC).render("ja")
('before-calc', 'ダメージ計算前')
"""

from __future__ import annotations

from pathlib import Path

from ...i18n import TITLES, Msg, domain, join, source
from .vocabulary import Timing

#: this game's messages: ``M("text {param}", param=...)`` (extracted by pybabel with the keyword ``M``)
M = domain("replayer-ygo", Path(__file__).resolve().parent / "locale")

#: the timings as words of a message: English the notation's word (today's output), Japanese and
#: German the rulebooks' (ダメージ計算前, vor der Schadensberechnung)
TIMING_TERMS: dict[Timing, Msg] = {
    Timing.DS_START: M.term("ygo timing", "ds-start"),
    Timing.BEFORE_CALC: M.term("ygo timing", "before-calc"),
    Timing.CALC: M.term("ygo timing", "calc"),
    Timing.AFTER_CALC: M.term("ygo timing", "after-calc"),
    Timing.DS_END: M.term("ygo timing", "ds-end"),
}


#: the timings in their order, as a message writes them: ds-start → before-calc → …
ARROW = M.term("timing list", " → ")
TITLES["Yu-Gi-Oh!"] = M.term("game", "Yu-Gi-Oh!")


def timing(t: Timing) -> Msg:
    return TIMING_TERMS[t]


#: the separators of a list of timings (German quotes each timing: „vor der Schadensberechnung“ oder „…“)
TIMING_OR = M.term("timing list", " or ")
TIMING_COMMA = M.term("timing list", ", ")


def timings(ts, sep: Msg = TIMING_OR) -> object:
    """Timings as a list of a message: ``ds-start or before-calc``."""
    return join([timing(t) for t in ts], sep)


# ---- the sources, each labelled in its own language (the registry's labels are the English ones) ----
_OCG_WIKI = "遊戯王OCG wiki「ダメージステップ」"
source("Yugipedia: Damage Step § Cards and effects that can be activated", "en",
       "Yugipedia: Damage Step § Cards and effects that can be activated", M)
source("Yugipedia: Damage Step § Breakdown of the Damage Step", "en",
       "Yugipedia: Damage Step § Breakdown of the Damage Step", M)
source("Yugipedia: Damage Step § After damage calculation", "en", "Yugipedia: Damage Step § After damage calculation", M)
source("Yugipedia: Damage Step § Before damage calculation", "en",
       "Yugipedia: Damage Step § Before damage calculation", M)
source("TCG rulebook: Damage Step table", "de", "TCG-Regelheft: Regeln für den Damage Step (Tabelle)", M)
source("OCG wiki: Damage Step § the five timings", "ja", _OCG_WIKI + " § ダメージステップ内の５つのタイミング", M)
source("OCG wiki: Damage Step § flip effects (rulebook, Master Rule 3)", "ja",
       _OCG_WIKI + " § リバースした場合に発動するモンスターの効果（公式ルールブック マスタールール３対応）", M)
source("OCG wiki: Damage Step § before Master Rule 3", "ja", _OCG_WIKI + " § マスタールール３以前", M)
source("OCG FAQ 11/01/09 (Damage Step)", "ja", _OCG_WIKI + " § FAQ 11/01/09", M)
source("OCG FAQ 17/04/29 (Damage Step)", "ja", _OCG_WIKI + " § FAQ 17/04/29", M)
source("OCG FAQ 09/08/01 (Damage Step)", "ja", _OCG_WIKI + " § FAQ 09/08/01", M)
source("OCG FAQ 14/03/26 (Damage Step)", "ja", _OCG_WIKI + " § FAQ 14/03/26", M)
source("Yu-Gi-Oh! rulebook: chains and spell speed", "en", "Yu-Gi-Oh! rulebook: chains and spell speed", M)
source("Yu-Gi-Oh! rulebook: damage calculation", "en", "Yu-Gi-Oh! rulebook: damage calculation", M)
source("the card's own condition (imported card data: its script, run as the simulator runs it)", "en",
       "the card's own condition (imported card data: its script, run as the simulator runs it)", M)
source("Yu-Gi-Oh! rulebook: activating cards and effects (where an effect is used from)", "en",
       "Yu-Gi-Oh! rulebook: activating cards and effects (where an effect is used from)", M)
source("Yu-Gi-Oh! rulebook: face-down cards", "en", "Yu-Gi-Oh! rulebook: face-down cards", M)
source("Yu-Gi-Oh! rulebook: the field", "en", "Yu-Gi-Oh! rulebook: the field", M)

#: the seeds, by the label docs/glossary.md gives them
OCG = "OCG wiki: Damage Step (000)"
YP = "Yugipedia: Damage Step (002)"
TCG = "TCG rulebook: Damage Step table (003)"

#: every rules term the findings use: (notation word or "", English, Japanese, German, where each is from).
#: The Japanese and German are the catalogs' translations of the terms (a test holds them together).
GLOSSARY: tuple[tuple[str, str, str, str, str], ...] = (
    ("ds-start", "start of the Damage Step", "ダメージステップ開始時", "Beginn des Damage Steps", f"{OCG}; {YP}; {TCG}"),
    ("before-calc", "before damage calculation", "ダメージ計算前", "vor der Schadensberechnung",
     f"{OCG}; {YP}; {TCG} (key phrase; the table's row head writes „Vor der Schadenberechnung“)"),
    ("calc", "during damage calculation", "ダメージ計算時", "während der Schadensberechnung", f"{OCG}; {YP}; {TCG}"),
    ("after-calc", "after damage calculation", "ダメージ計算後", "nach der Schadensberechnung", f"{OCG}; {YP}; {TCG}"),
    ("ds-end", "end of the Damage Step", "ダメージステップ終了時", "Ende des Damage Steps", f"{OCG}; {YP}; {TCG}"),
    ("step damage", "Damage Step", "ダメージステップ", "Damage Step", f"{OCG}; {YP}; {TCG}"),
    ("step battle", "Battle Step", "バトルステップ", "Battle Step", f"{OCG}; {TCG}"),
    ("phase battle", "Battle Phase", "バトルフェイズ", "Battle Phase", f"{OCG}; {YP}"),
    ("", "damage calculation", "ダメージ計算", "Schadensberechnung", f"{OCG}; {YP}; {TCG}"),
    ("", "battle damage", "戦闘ダメージ", "Kampfschaden", f"{OCG}; {YP}; {TCG}"),
    ("by battle", "destroyed by battle", "戦闘で破壊", "durch Kampf zerstört", f"{OCG}; {YP}; {TCG}"),
    ("gy", "Graveyard (GY)", "墓地", "Friedhof", f"{OCG}; {YP}; {TCG}"),
    ("", "Life Points (LP)", "ライフポイント", "Life Points", f"{OCG}; {TCG}"),
    ("", "ATK/DEF", "攻撃力・守備力", "ATK/DEF", f"{OCG}; {YP}; {TCG}"),
    ("flip", "flip (face-up)", "リバース", "aufdecken", f"{OCG}; {TCG}"),
    ("flip effect", "Flip effect", "リバース効果", "Flippeffekt", f"{OCG}; {YP}; {TCG}"),
    ("trigger", "Trigger Effect", "誘発効果", "Triggereffekt", f"{OCG}; {YP}; {TCG}"),
    ("quick", "Quick Effect", "誘発即時効果", "Schnelleffekt", f"{OCG}; {YP}"),
    ("counter-trap", "Counter Trap Card", "カウンター罠", "Konterfallenkarte", f"{OCG}; {YP}"),
    ("quick-play", "Quick-Play Spell Card", "速攻魔法", "Schnellzauberkarte", f"{OCG}; {YP}"),
    ("atk-mod", "effects that directly change ATK/DEF", "攻撃力・守備力を変化させる効果",
     "Effekte, die ATK/DEF modifizieren", f"{OCG}; {YP}; {TCG}"),
    ("mandatory", "mandatory effect", "強制効果", "Pflichteffekt", f"{OCG}; {YP}"),
    ("", "optional effect", "任意効果", "optionaler Effekt", f"{OCG}; {YP}"),
    ("negates-activation", "negate the activation", "発動を無効にする", "die Aktivierung annullieren", f"{OCG}; {YP}"),
    ("", "chain, chain link", "チェーン、チェーンリンク", "Kette, Kettenglied", f"{OCG}; {YP}"),
    ("", "Spell Speed", "スペルスピード", "Zaubergeschwindigkeit", YP),
    ("", "once per specific timing", "そのタイミングで１度（最初のチェーンのみ）",
     "einmal pro bestimmtem Zeitpunkt (nur in der ersten Kette)", OCG),
    ("", "battle position", "表示形式", "Kampfposition", f"{OCG}; {YP}"),
    ("", "attack declaration", "攻撃宣言", "Angriffsdeklaration", f"{OCG}; {YP}"),
    ("", "turn player", "ターンプレイヤー", "Zugspieler", f"{OCG}; {TCG}"),
    ("", "target", "対象", "Ziel", f"{OCG}; {YP}"),
    ("", "cost", "コスト", "Kosten", f"{OCG}; {YP}"),
    ("", "Tribute", "リリース", "Tribut", YP),
    # the State pane's chain links (replayer/games/ygo/states.py: "cost: discard …", "negated")
    ("", "discard (as a cost)", "捨てる", "abwerfen", f"{OCG}; German: the TCG's term (not in the seeds)"),
    ("", "send to the GY (as a cost)", "墓地へ送る", "auf den Friedhof legen", f"{OCG}; {TCG}"),
    ("", "negated (a chain link)", "無効", "annulliert", f"{OCG}; {YP}; German: as „annullieren“ above"),
    ("", "banished", "除外", "verbannt", YP),
    ("", "piercing battle damage", "貫通ダメージ", "durchschlagender Kampfschaden", YP),
    ("mr2", "before Master Rule 3", "マスタールール３以前", "vor Master Rule 3", OCG),
)


#: the zones as the log names them, as words of a message
ZONE_TERMS: dict[str, Msg] = {
    "hand": M.term("ygo zone", "hand"), "field": M.term("ygo zone", "field"), "gy": M.term("ygo zone", "gy"),
    "banished": M.term("ygo zone", "banished"), "deck": M.term("ygo zone", "deck"),
    "extra": M.term("ygo zone", "extra"),
}


def zone_word(zone: str | None) -> Msg | str:
    """A zone as the log names it (``gy``, ``hand``): a word of a message."""
    return ZONE_TERMS.get(zone, zone) if zone else ""
