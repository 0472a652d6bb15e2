"""Lark tree -> events. Positions are kept: a card's columns are those of its name on the line.

The alias table :data:`ALIASES` is the one place where Japanese and German keywords (notation §8)
are mapped to the English ones; the grammar lists which words are accepted where.
"""

from __future__ import annotations

from lark import Token, Transformer

from . import events as ev
from .numbers import read_digits

#: alias text (case-folded, single spaces) -> canonical name
ALIASES: dict[str, str] = {
    # phases
    "battle phase": "battle", "バトルフェイズ": "battle", "ドローフェイズ": "draw",
    "スタンバイフェイズ": "standby", "メインフェイズ1": "main1", "メインフェイズ2": "main2",
    "エンドフェイズ": "end", "ドロー": "draw", "スタンバイ": "standby", "メイン1": "main1",
    "バトル": "battle", "メイン2": "main2", "エンド": "end", "main 1": "main1", "main 2": "main2",
    # steps
    "damage step": "damage", "ダメージステップ": "damage", "スタートステップ": "start",
    "バトルステップ": "battle", "エンドステップ": "end", "開始": "start", "ダメージ": "damage",
    "終了": "end",
    # Damage Step timings
    "ダメージステップ開始時": "ds-start", "beginn des damage steps": "ds-start",
    "ダメージ計算前": "before-calc", "vor der schadensberechnung": "before-calc",
    "ダメージ計算時": "calc", "schadensberechnung": "calc",
    "ダメージ計算後": "after-calc", "nach der schadensberechnung": "after-calc",
    "ダメージステップ終了時": "ds-end", "ende des damage steps": "ds-end",
    # zones
    "手札から": "hand", "aus der hand": "hand", "墓地から": "gy", "デッキから": "deck",
    "除外から": "banished", "フィールドから": "field", "graveyard": "gy",
    # dm
    "ninja strike": "ninja-strike", "revolution 0": "revolution-0",
    "revolution change": "revolution-change", "invade": "invade",
    "shield": "shields",
    # line keywords (the transformer needs none of these: they are for the hints of syntax findings)
    "ターン": "turn", "zug": "turn", "解決": "resolve", "auflösung": "resolve", "aufloesung": "resolve",
    "発動": "activate", "aktiviert": "activate", "攻撃": "attack", "greift an": "attack",
    # values written in Japanese or German (the grammar accepts the words; this says what they mean)
    "通常": "normal", "アドバンス": "tribute", "特殊": "special", "融合": "fusion", "シンクロ": "synchro",
    "エクシーズ": "xyz", "儀式": "ritual", "リンク": "link", "ペンデュラム": "pendulum",
    "tribut": "tribute", "spezial": "special", "fusions": "fusion", "pendel": "pendulum",
    "手札": "hand", "墓地": "gy", "デッキ": "deck", "除外": "banished", "エクストラデッキ": "extra",
    "フィールド": "field", "friedhof": "gy", "verbannt": "banished", "feld": "field",
    "エクストラデッキから": "extra", "aus dem friedhof": "gy", "aus dem deck": "deck",
    "aus dem extra deck": "extra", "aus dem extradeck": "extra", "vom feld": "field",
    "攻撃表示": "attack", "守備表示": "defense", "angriffsposition": "attack",
    "verteidigungsposition": "defense",
    "ターン開始": "start", "アンタップ": "untap", "チャージ": "charge", "マナ": "mana", "メイン": "main",
    "enttappen": "untap", "ziehen": "draw", "aufladen": "charge", "haupt": "main", "angriff": "attack",
    "kampf": "battle", "ende": "end",
    "召喚": "summon", "唱える": "cast", "lädt": "charge", "laedt": "charge", "beschwört": "summon",
    "beschwoert": "summon", "wirkt": "cast", "タップ": "tap", "enttappt": "untap", "tappt": "tap",
    "ニンジャ・ストライク": "ninja-strike", "ニンジャストライク": "ninja-strike", "革命0": "revolution-0",
    "革命チェンジ": "revolution-change", "侵略": "invade", "ninja-schlag": "ninja-strike",
    "revolution null": "revolution-0", "revolutionswechsel": "revolution-change", "invasion": "invade",
    "マナゾーン": "mana", "シールド": "shields", "シールドゾーン": "shields", "manazone": "mana",
    "schild": "shields", "schilde": "shields",
}


def canonical(text: str) -> str:
    key = " ".join(str(text).split()).casefold()
    return ALIASES.get(key, key)


def unquote(name: str) -> str:
    """Strip the quotes of any of the four styles; inner white space is folded."""
    return " ".join(name[1:-1].split())


def _tokens(children, type_: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type.endswith(type_)]


class ToEvents(Transformer):
    """Builds one event (or a header tag ``("tag", key, value)``) from a line's tree.

    The events carry no span yet: the reader adds line, timecode and notes, so that the
    result for one line text can be cached and reused.
    """

    # ---- cards --------------------------------------------------------------------------
    def card(self, children):
        name_tok = children[0]
        copy = atk = def_ = power = None
        props: tuple[str, ...] = ()
        end = name_tok.end_column
        for c in children[1:]:
            if not isinstance(c, Token):
                continue
            if c.type == "COPY":
                copy = _int(c, 1)
            elif c.type == "STATS":
                a, d = c.split("/")
                atk = None if a == "?" else read_digits(a, c.column)
                def_ = None if d == "?" else read_digits(d, c.column + len(a) + 1)
            elif c.type == "INT":
                power = _int(c)
            elif c.type == "PROPS":
                from .properties import parse_props

                props = tuple(parse_props(c[1:-1]))
            end = c.end_column
        return ev.CardRef(unquote(name_tok), copy, atk, def_, power, props, name_tok.column, end)

    # ---- header and structure -----------------------------------------------------------
    def tag(self, c):
        return ("tag", str(c[0]), unquote(c[1]))

    def turn(self, c):
        return ev.Turn(number=_int(c[0]), player=str(c[1]).upper())

    def phase(self, c):
        return ev.Phase(name=canonical(c[-1]).replace(" ", ""))

    def step(self, c):
        return ev.Step(name=canonical(c[-1]))

    def timing(self, c):
        return ev.Timing(name=canonical(c[-1]))

    def resolve_all(self, c):
        return ev.ResolveAll()

    def attack_ends(self, c):
        return ev.AttackEnds()

    def battle(self, c):
        return ev.Battle(first=c[0], second=c[1])

    # ---- actor lines --------------------------------------------------------------------
    def actor(self, c):
        player, action = c
        return _with(action, player=str(player).upper())

    def chain_actor(self, c):
        cl, event = c
        digits = "".join(ch for ch in str(cl) if ch.isdigit())  # CL2, チェーン2, KG2
        return _with(event, chain_link=read_digits(digits, (cl.column or 1) + len(cl) - len(digits)))

    # ygo
    def draw(self, c):
        ints = _tokens(c, "INT")
        return ev.Draw(count=_int(ints[0]) if ints else 1)

    def summon(self, c):
        method = canonical(c[0])
        card = next(x for x in c if isinstance(x, ev.CardRef))
        zone = next((x for x in c if isinstance(x, tuple) and x and x[0] == "zone"), None)
        return ev.Summon(method=method, card=card, from_zone=zone[1] if zone else None)

    def flip_summon(self, c):
        return ev.Summon(method="flip", card=_card(c))

    def set(self, c):
        return ev.SetCard(card=c[0])

    def attack(self, c):
        attacker, target = c[0], c[1]
        if isinstance(target, tuple):  # ("target", position, card)
            _, position, card = target
            return ev.Attack(attacker=attacker, target=card, target_position=position)
        if isinstance(target, ev.CardRef):
            return ev.Attack(attacker=attacker, target=target, target_position="attack")
        return ev.Attack(attacker=attacker, target=None, target_position="player")  # dm PLAYER_WORD

    def target_attack(self, c):
        return ("target", "attack", c[0])

    def target_direct(self, c):
        return ("target", "direct", None)

    def target_set(self, c):
        return ("target", "set", c[0])

    def target_defense(self, c):
        return ("target", "defense", c[0])

    def activate(self, c):
        fields: dict = {"card": c[0]}
        for x in c[1:]:
            kind = x[0]
            if kind == "effect":
                fields["effect"] = x[1]
            elif kind == "flip-effect":
                fields["flip_effect"] = True
            elif kind == "trigger":
                fields["trigger"] = True
            elif kind == "zone":
                fields["from_zone"] = x[1]
            elif kind == "targets":
                fields["targets"] = x[1]
            elif kind == "cost":
                fields["cost"], fields["cost_card"] = x[1], x[2]
        return ev.Activate(**fields)

    def effect_n(self, c):
        return ("effect", _int(_tokens(c, "INT")[0]))

    def flip_effect(self, c):
        return ("flip-effect",)

    def trigger_effect(self, c):
        return ("trigger",)

    def from_zone(self, c):
        return ("zone", canonical(c[-1]))

    def targeting(self, c):
        return ("targets", tuple(x for x in c if isinstance(x, ev.CardRef)))

    def cost_discard(self, c):
        return ("cost", "discard", _card(c))

    def cost_send(self, c):
        return ("cost", "send", _card(c))

    def cost_tribute(self, c):
        return ("cost", "tribute", _card(c))

    def flip(self, c):
        return ev.Flip(card=_card(c))

    def destroy(self, c):
        return ev.Destroy(card=_card(c), by_battle=bool(_tokens(c, "BY_BATTLE")))

    def destroy_by_battle(self, c):  # 戦闘破壊 C
        return ev.Destroy(card=_card(c), by_battle=True)

    def send_to_gy(self, c):
        return ev.Move(card=_card(c), to="gy", how="send")

    def banish(self, c):
        return ev.Move(card=_card(c), to="banished", how="banish")

    def return_to_hand(self, c):
        return ev.Move(card=_card(c), to="hand", how="return")

    def discard(self, c):
        return ev.Move(card=_card(c), to="gy", how="discard")

    def change(self, c):
        return ev.ChangePosition(card=_card(c), position=canonical(_tokens(c, "POSITION")[0]))

    def negate(self, c):
        return ev.Negate(card=_card(c))

    def damage(self, c):
        return ev.Damage(amount=_int(_tokens(c, "INT")[0]))

    def lp(self, c):
        return ev.LifePoints(value=_int(_tokens(c, "INT")[0]))

    def atk(self, c):
        num = c[-1]
        relative = num.type.endswith("SIGNED_INT")
        value = _int(num, 1) if relative else _int(num)
        return ev.AtkChange(card=_card(c), value=-value if num.startswith("-") else value, relative=relative)

    def pass_(self, c):
        return ev.Pass()

    def end_battle_phase(self, c):
        return ev.EndBattlePhase()

    # dm
    def main_action(self, c):
        return ev.MainAction(verb=canonical(c[0]), card=c[1])

    def tap(self, c):
        return ev.Tap(card=c[1], tapped=canonical(c[0]) == "tap")

    def trigger(self, c):
        return ev.TriggerAbility(card=_card(c))

    def resolve_one(self, c):
        return ev.ResolveAbility(card=_card(c))

    def declare(self, c):
        return ev.Declare(what=canonical(c[0]), card=c[1])

    def block(self, c):
        return ev.Block(card=_card(c))

    def guardman(self, c):
        return ev.Block(card=_card(c), guardman=True)

    def redirect(self, c):
        cards = [x for x in c if isinstance(x, ev.CardRef)]
        return ev.Redirect(card=cards[0], target=cards[1])

    def put(self, c):
        return ev.Move(card=_card(c), to=canonical(c[-1]), how="put")

    def break_(self, c):
        return ev.Break(count=_int(_tokens(c, "INT")[0]))

    def s_trigger(self, c):
        return ev.STrigger(triggers=tuple(x for x in c if isinstance(x, ev.CardRef)))

    def direct_attack(self, c):
        return ev.DirectAttack()

    def win(self, c):
        return ev.Win()


# `pass` and `break` are Python keywords: lark looks rules up by name.
setattr(ToEvents, "pass", ToEvents.pass_)
setattr(ToEvents, "break", ToEvents.break_)


def _int(tok: Token, skip: int = 0) -> int:
    """The number a token writes after its first ``skip`` characters (``#2``, ``CL3``, ``+500``)."""
    return read_digits(tok[skip:], (tok.column or 1) + skip)


def _card(children) -> ev.CardRef:
    return next(x for x in children if isinstance(x, ev.CardRef))


def _with(event: ev.Event, **changes) -> ev.Event:
    from dataclasses import replace

    return replace(event, **changes)
