"""Duel Masters' words in the languages replayer speaks (issue 24): the catalog of this game's
messages (the gettext domain ``replayer-dm``, in ``locale/`` beside this file), its rules terms
(the attack's declarations and lines as the Japanese procedure names them: ブロック, S・トリガー,
ニンジャ・ストライク, 革命チェンジ …), the citations in the procedure's own language (Japanese), and
the glossary (docs/glossary.md is made from :data:`GLOSSARY`).

>>> line_term("ninja-strike").render("ja")
'ニンジャ・ストライク'
"""

from __future__ import annotations

from pathlib import Path

from ...i18n import TITLES, Msg, card_name, domain, source

#: this game's messages: ``M("text {param}", param=...)`` (extracted by pybabel with the keyword ``M``)
M = domain("replayer-dm", Path(__file__).resolve().parent / "locale")

#: the kinds of an attack's lines and declarations as words of a message (English: the notation's
#: word with spaces, today's output)
LINE_TERMS: dict[str, Msg] = {
    "attack": M.term("dm line", "attack"),
    "trigger": M.term("dm line", "trigger"),
    "resolve": M.term("dm line", "resolve"),
    "resolve-all": M.term("dm line", "resolve all"),
    "invade": M.term("dm line", "invade"),
    "revolution-change": M.term("dm line", "revolution change"),
    "ninja-strike": M.term("dm line", "ninja strike"),
    "revolution-0": M.term("dm line", "revolution 0"),
    "block": M.term("dm line", "block"),
    "guardman": M.term("dm line", "guardman"),
    "redirect": M.term("dm line", "redirect"),
    "turn-player-ninja-strike": M.term("dm line", "turn player ninja strike"),
    "battle": M.term("dm line", "battle"),
    "break": M.term("dm line", "break"),
    "s-trigger": M.term("dm line", "s trigger"),
    "direct-attack": M.term("dm line", "direct attack"),
    "attack-ends": M.term("dm line", "attack ends"),
    "win": M.term("dm line", "win"),
    "tap": M.term("dm line", "tap"),
    "destroy": M.term("dm line", "destroy"),
    "move": M.term("dm line", "move"),
}

#: the abilities a sub-step 4 declaration needs, as words of a message
ABILITY_TERMS: dict[str, Msg] = {
    "blocker": M.term("dm ability", "blocker"),
    "guardman": M.term("dm ability", "guardman"),
    "redirect": M.term("dm ability", "redirect"),
}


def line_term(kind: str) -> Msg | str:
    """A line's kind (``ninja-strike``) as a word of a message; an unknown kind as the notation writes it."""
    return LINE_TERMS.get(kind) or kind.replace("-", " ")


def ability_term(word: str) -> Msg | str:
    return ABILITY_TERMS.get(word) or word


def quoted(label: str, names=None) -> Msg:
    """A card named in a message: ``"Bolshack Dragon"`` (Japanese 《…》, German „…“)."""
    return M('"{card}"', card=card_name(label, names))


THE_PLAYER = M("the player")
TITLES["Duel Masters"] = M.term("game", "Duel Masters")

# ---- the source, labelled in its own language (the registry's labels are the English ones) ----------
_DM = "デュエル・マスターズ ルール解説「解説：攻撃」"
source("Duel Masters attack procedure, who may attack", "ja", _DM + " § 攻撃できるクリーチャー", M)
source("Duel Masters attack procedure, attack targets", "ja", _DM + " § 攻撃の対象に選べる箇所", M)
source("Duel Masters attack procedure, principle", "ja", _DM + " § 大原則", M)
source("Duel Masters attack procedure, step 1", "ja", _DM + " § １、攻撃宣言", M)
source("Duel Masters attack procedure, step 2", "ja", _DM + " § ２、常在型能力", M)
source("Duel Masters attack procedure, step 3", "ja", _DM + " § ３、アタックトリガー等の解決", M)
source("Duel Masters attack procedure, step 4", "ja", _DM + " § ４、ブロック／攻撃曲げ宣言", M)
source("Duel Masters attack procedure, step 5", "ja", _DM + " § ５、ブロックに関する能力の解決", M)
source("Duel Masters attack procedure, step 6-A", "ja", _DM + " § ６－Ａ、クリーチャーとのバトルになった場合", M)
source("Duel Masters attack procedure, step 6-B", "ja", _DM + " § ６－Ｂ、相手プレーヤーを攻撃する場合", M)
source("Duel Masters attack procedure, step 6-C", "ja", _DM + " § ６－Ｃ、シールドがないプレーヤーを攻撃する場合", M)
source("Duel Masters attack procedure, step 7", "ja", _DM + " § ７、攻撃終了", M)
source("Duel Masters attack procedure, battles", "ja", _DM + " § 攻撃目標が相手クリーチャーの場合", M)
source("Duel Masters attack procedure, attacking players", "ja", _DM + " § 攻撃目標が相手プレイヤーの場合", M)
source("Duel Masters attack procedure, simultaneous abilities", "ja", _DM + " § 同時に誘発した能力", M)
source("Duel Masters attack procedure, aborted attacks", "ja", _DM + " § 攻撃の中断", M)
source("Duel Masters attack procedure, common mistakes", "ja", _DM + " § よくある勘違い", M)
source("Duel Masters attack procedure", "ja", _DM, M)
source("replayer's Duel Masters card text reader (docs/rules-dm.md §12)", "en",
       "replayer's Duel Masters card text reader (docs/rules-dm.md §12)", M)

#: the seed, by the label docs/glossary.md gives it
DM = "Duel Masters attack procedure (001)"
#: Duel Masters has no German source among the seeds: the German column writes the English
#: release's terms (as German Yu-Gi-Oh! keeps Damage Step), and says so
NO_DE = "German: the English terms (no German source)"

#: every rules term the findings use: (notation word or "", English, Japanese, German, where each is from)
GLOSSARY: tuple[tuple[str, str, str, str, str], ...] = (
    ("attack", "attack declaration (sub-step 1)", "攻撃宣言", "Angriffsdeklaration", f"{DM}; {NO_DE}"),
    ("", "continuous abilities (sub-step 2)", "常在型能力", "dauerhafte Fähigkeiten", f"{DM}; {NO_DE}"),
    ("trigger", "attack trigger (sub-step 3)", "アタックトリガー", "Angriffsauslöser (attack trigger)", f"{DM}; {NO_DE}"),
    ("ninja strike", "ninja strike", "ニンジャ・ストライク", "Ninja Strike", f"{DM}; {NO_DE}"),
    ("revolution 0", "revolution 0 trigger", "革命０トリガー", "Revolution 0", f"{DM}; {NO_DE}"),
    ("invade", "invasion", "侵略", "Invasion", f"{DM}; {NO_DE}"),
    ("revolution change", "revolution change", "革命チェンジ", "Revolution Change", f"{DM}; {NO_DE}"),
    ("block with", "block (sub-step 4)", "ブロック", "Blocken", f"{DM}; {NO_DE}"),
    ("", "blocker", "ブロッカー", "Blocker", f"{DM}; {NO_DE}"),
    ("guardman", "guardman", "ガードマン", "Guardman", f"{DM}; {NO_DE}"),
    ("redirect", "redirect", "攻撃曲げ", "Umlenken (redirect)", f"{DM}; {NO_DE}"),
    ("", "block triggers (sub-step 5)", "ブロックに関する能力", "Blockfähigkeiten", f"{DM}; {NO_DE}"),
    ("battle", "battle (sub-step 6-A)", "バトル", "Kampf", f"{DM}; {NO_DE}"),
    ("break", "shield break (sub-step 6-B)", "シールドブレイク", "Schild brechen (break)", f"{DM}; {NO_DE}"),
    ("s-trigger", "S-Trigger (shield trigger)", "S・トリガー", "S-Trigger", f"{DM}; {NO_DE}"),
    ("", "W-breaker, T-breaker", "W・ブレイカー、T・ブレイカー", "W-Breaker, T-Breaker", f"{DM}; {NO_DE}"),
    ("direct attack", "direct attack (sub-step 6-C)", "ダイレクトアタック", "direkter Angriff", f"{DM}; {NO_DE}"),
    ("attack ends", "end of the attack (sub-step 7)", "攻撃終了", "Ende des Angriffs", f"{DM}; {NO_DE}"),
    ("", "aborted attack", "攻撃中止", "abgebrochener Angriff", f"{DM}; {NO_DE}"),
    ("", "attack sub-step", "攻撃サブステップ", "Angriffsunterschritt", f"{DM}; {NO_DE}"),
    ("", "turn player / non-turn player", "アクティブ・プレイヤー／非アクティブ・プレイヤー",
     "Zugspieler / Nicht-Zugspieler", f"{DM}; {NO_DE}"),
    ("", "battle zone", "バトルゾーン", "Kampfzone", f"{DM}; {NO_DE}"),
    ("", "cip (comes into play) ability", "cip能力", "cip-Fähigkeit", f"{DM}; {NO_DE}"),
    ("tap", "tap / untap", "タップ／アンタップ", "tappen / enttappen", f"{DM}; {NO_DE}"),
    ("", "summoning sickness", "召喚酔い", "Beschwörungskrankheit", f"{DM}; {NO_DE}"),
    ("", "speed attacker", "スピードアタッカー", "Speed Attacker", f"{NO_DE}"),
    ("", "mach fighter", "マッハファイター", "Mach Fighter", f"{DM}; {NO_DE}"),
    ("", "slayer", "スレイヤー", "Slayer", f"{NO_DE}"),
    ("", "shield", "シールド", "Schild", f"{DM}; {NO_DE}"),
    ("", "power", "パワー", "Stärke (power)", f"{DM}; {NO_DE}"),
)

#: the civilizations as words of a message (the notation's word in English)
CIVILIZATION_TERMS: dict[str, Msg] = {
    "light": M.term("dm civilization", "light"),
    "water": M.term("dm civilization", "water"),
    "darkness": M.term("dm civilization", "darkness"),
    "fire": M.term("dm civilization", "fire"),
    "nature": M.term("dm civilization", "nature"),
}


def civilization(word: str) -> Msg | str:
    return CIVILIZATION_TERMS.get(word) or word
