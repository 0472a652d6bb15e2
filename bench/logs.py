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
    rng = random.Random(seed)
    pool = card_pool(rng)
    out = ['[Game "ygo"]', '[A "Yuki"]', '[B "Kaiba"]', '[Event "Regional"]', ""]
    turn = 1
    lp = {"A": 8000, "B": 8000}
    while len(out) < n_events:
        p = "A" if turn % 2 else "B"
        o = "B" if p == "A" else "A"
        out.append(f"turn {turn} {p}")
        out.append("phase draw")
        out.append(f"{p}: draw")
        out.append("phase main1")
        mon = _q(rng, rng.choice(pool))
        out.append(f"{p}: normal summon {mon} {rng.randrange(0, 30) * 100}/{rng.randrange(0, 30) * 100}")
        if rng.random() < 0.5:
            out.append(f"{p}: set {_q(rng, rng.choice(pool))}")
        out.append("phase battle")
        for _ in range(rng.randrange(1, 3)):
            tgt = _q(rng, rng.choice(pool))
            out.append(f"@{rng.randrange(0, 59)}:{rng.randrange(0, 59):02d} {p}: attack {mon} -> {tgt}")
            out.append("step damage")
            out.append("timing ds-start")
            out.append("timing before-calc")
            if rng.random() < 0.4:
                out.append(f"{p}: activate {_q(rng, rng.choice(pool))} from hand   # coach: good timing")
                out.append(f"{o}: pass")
                out.append("resolve")
                out.append(f"{p}: atk {mon} +{rng.randrange(1, 30) * 100}")
            out.append("timing calc")
            dmg = rng.randrange(1, 25) * 100
            lp[o] = max(0, lp[o] - dmg)
            out.append(f"{o}: damage {dmg}")
            out.append(f"{o}: lp {lp[o]}")
            out.append(f"{o}: destroy {tgt} by battle")
            out.append("timing after-calc")
            out.append("timing ds-end")
            out.append(f"{o}: send {tgt} to gy")
            out.append("step battle")
        out.append("phase main2")
        out.append("phase end")
        turn += 1
        if lp["A"] == 0 or lp["B"] == 0:
            lp = {"A": 8000, "B": 8000}
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
