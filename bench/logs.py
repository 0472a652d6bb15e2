"""Generated match logs for the benchmarks: varied like real transcripts.

Card names come from a pool of several hundred (built from word lists), numbers vary, and
structure lines come in the proportion a feature-match transcript has them.
"""

from __future__ import annotations

import random

_ADJ = ["Ancient", "Blazing", "Crystal", "Dark", "Elemental", "Frozen", "Gilded", "Hidden", "Iron", "Jade",
        "Kinetic", "Lunar", "Mystic", "Noble", "Obsidian", "Phantom", "Quiet", "Radiant", "Silent", "Thunder",
        "Umbral", "Vicious", "Wandering", "Xeno", "Young", "Zealous", "Cyber", "Divine", "Savage", "Royal"]
_NOUN = ["Dragon", "Knight", "Sorceress", "Golem", "Wyvern", "Samurai", "Sentinel", "Phoenix", "Beast", "Warrior",
         "Mage", "Serpent", "Titan", "Guardian", "Specter", "Hydra", "Angel", "Fiend", "Machine", "Ninja"]
_JA = ["オネスト", "クリボー", "ブルーアイズ", "ブラック・マジシャン", "聖なるバリア", "神の宣告", "月の書", "激流葬"]


def card_pool(rng: random.Random, n: int = 600) -> list[str]:
    names = sorted({f"{a} {b}" for a in _ADJ for b in _NOUN})
    rng.shuffle(names)
    return names[: n - len(_JA)] + _JA


def _q(rng: random.Random, name: str) -> str:
    if any(ord(c) > 0x3000 for c in name):
        return f"《{name}》" if rng.random() < 0.7 else f"「{name}」"
    return f'"{name}"'


def ygo_log(n_events: int, seed: int = 1) -> str:
    """A long Yu-Gi-Oh! log that is legal (so that validating it walks the normal paths)."""
    rng = random.Random(seed)
    pool = card_pool(rng)
    out = ['[Game "ygo"]', '[A "Yuki"]', '[B "Kaiba"]', '[Event "Regional"]', ""]
    turn = 1
    lp = {"A": 8000, "B": 8000}
    field: dict[str, list[tuple[str, int]]] = {"A": [], "B": []}
    copies: dict[str, int] = {}

    def fresh() -> str:
        name = rng.choice(pool)
        copies[name] = copies.get(name, 0) + 1
        return _q(rng, name) + (f"#{copies[name]}" if copies[name] > 1 else "")

    while len(out) < n_events:
        p = "A" if turn % 2 else "B"
        o = "B" if p == "A" else "A"
        out += [f"turn {turn} {p}", "phase draw", f"{p}: draw", "phase main1"]
        mon, atk = fresh(), rng.randrange(5, 30) * 100
        out.append(f"{p}: normal summon {mon} {atk}/{rng.randrange(0, 30) * 100}")
        field[p].append((mon, atk))
        if rng.random() < 0.4:
            out.append(f"{p}: set {fresh()}")
        out.append("phase battle")
        if field[o]:
            tgt, tatk = rng.choice(field[o])
            out.append(f"@{rng.randrange(0, 59)}:{rng.randrange(0, 59):02d} {p}: attack {mon} -> {tgt}")
        else:
            tgt, tatk = None, 0
            out.append(f"@{rng.randrange(0, 59)}:{rng.randrange(0, 59):02d} {p}: attack {mon} -> direct")
        out += ["step damage", "timing ds-start", "timing before-calc"]
        if rng.random() < 0.4:
            boost = rng.randrange(1, 10) * 100
            out.append(f"{p}: activate {fresh()} {{quick-play, atk-mod}} from hand   # coach: good timing")
            out.append(f"{o}: pass")
            out.append("resolve")
            atk += boost
            out.append(f"{p}: atk {mon} {atk}")
            field[p] = [(m, a) for m, a in field[p] if m != mon]  # the boost lasts this turn only:
            out.append(f"# {mon} keeps its boost this turn")
        out.append("timing calc")
        loser = None
        if tgt is None:
            dmg, hurt = atk, o
        elif atk > tatk:
            dmg, hurt, loser = atk - tatk, o, (o, tgt)
        elif atk < tatk:
            dmg, hurt, loser = tatk - atk, p, (p, mon)
        else:
            dmg, hurt = 0, None
        if hurt and dmg:
            if lp[hurt] - dmg <= 0:
                dmg = 0
            else:
                lp[hurt] -= dmg
                out.append(f"{hurt}: damage {dmg}")
                out.append(f"{hurt}: lp {lp[hurt]}")
        if loser:
            out.append(f"{loser[0]}: destroy {loser[1]} by battle")
        out += ["timing after-calc", "timing ds-end"]
        if loser:
            out.append(f"{loser[0]}: send {loser[1]} to gy")
            field[loser[0]] = [m for m in field[loser[0]] if m[0] != loser[1]]
        out += ["step battle", "phase main2", "phase end"]
        for side in ("A", "B"):
            if lp[side] < 1500:  # a new game of the match
                lp[side] = 8000
                out.append(f"{side}: lp 8000   # next game")
        field[p] = [m for m in field[p] if m[0] != mon] if len(field[p]) > 3 else field[p]
        if not loser or loser[1] != mon:
            field[p] = [(m, a) for m, a in field[p] if m != mon] + [(mon, atk)]
        turn += 1
    return "\n".join(out[: n_events + 5]) + "\n"


def dm_log(n_events: int, seed: int = 2) -> str:
    rng = random.Random(seed)
    pool = card_pool(rng)
    out = ['[Game "dm"]', '[A "Kaito"]', '[B "Rin"]', ""]
    turn = 1
    while len(out) < n_events:
        p = "A" if turn % 2 else "B"
        o = "B" if p == "A" else "A"
        out.append(f"turn {turn} {p}")
        out.append(f"{p}: charge {_q(rng, rng.choice(pool))}")
        out.append(f"{p}: summon {_q(rng, rng.choice(pool))} {rng.randrange(1, 15) * 1000}")
        att = _q(rng, rng.choice(pool))
        out.append(f"{p}: attack {att} {rng.randrange(1, 15) * 1000} -> player")
        if rng.random() < 0.3:
            out.append(f"{p}: trigger {att}")
            out.append(f"{p}: resolve {att}")
        if rng.random() < 0.3:
            out.append(f"{o}: block with {_q(rng, rng.choice(pool))}")
            out.append(f"battle {att} vs {_q(rng, rng.choice(pool))}")
        else:
            out.append(f"{p}: break {rng.randrange(1, 3)}")
        out.append("attack ends")
        turn += 1
    return "\n".join(out[: n_events + 4]) + "\n"
