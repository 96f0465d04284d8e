"""Hex Duel's players, from what a side sees (H8): the demo's scripted player, which makes for the
objectives and attacks at fair odds, and the conformance suite's random player, which walks its
units at random and attacks any hex next to them (the rules refuse what is illegal)."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from hxref.geometry.hex import distance
from hxref.geometry.mapmodel import HexMap

from . import board


def scripted(view: Mapping[str, Any], hm: HexMap, side: str, goals: list[str] | None = None) -> dict:
    """A side's orders from its view: each unit heads for the nearest of ``goals`` (by default the
    objectives it does not hold, then the enemies it sees), as far as its move is legal; then every
    enemy counter in sight is attacked by all the units next to it, when their strength at least
    equals its own."""
    mine = {uid: u for uid, u in view["units"].items() if u["side"] == side and u["hex"]}
    seen = {f"seen@{s['hex']}": {**s, "ma": 0} for s in view["seen"]}
    seen.update({uid: u for uid, u in view["units"].items() if u["side"] != side and u["hex"]})
    if goals is None:
        goals = [hm.label(hm.place(p)) for p, held in view["objectives"].items() if held != side]
    ends = {uid: u["hex"] for uid, u in mine.items()}
    moves = []
    for uid in sorted(mine):
        targets = goals or [s["hex"] for s in seen.values()] or [hm.label(hm.place(p)) for p in view["objectives"]]
        goal = min(targets, key=lambda t: (_far(hm, ends[uid], t), t))
        path = _path(hm, {**mine, **seen}, uid, goal, set(ends.values()) - {ends[uid]})
        if path:
            moves.append({"unit": uid, "path": path})
            ends[uid] = path[-1]
            goals = [g for g in goals if g != path[-1]] or goals
    attacks, used = [], set()
    for s in sorted(seen.values(), key=lambda s: s["hex"]):
        near = [uid for uid in sorted(mine) if uid not in used and board.next_to(hm, ends[uid], s["hex"])]
        if near and sum(mine[uid]["strength"] for uid in near) >= s["strength"]:
            attacks.append({"target": s["hex"], "by": near})
            used |= set(near)
    return {"moves": moves, "attacks": attacks}


def _far(hm: HexMap, a: str, b: str) -> int:
    ha, hb = board.hex_at(hm, a), board.hex_at(hm, b)
    return distance(ha, hb) if ha is not None and hb is not None else 99


def _path(hm: HexMap, units: Mapping[str, Any], uid: str, goal: str, taken: set[str]) -> list[str]:
    """The longest legal greedy path of ``uid`` toward ``goal`` that ends in no hex of ``taken``."""
    path: list[str] = []
    here = units[uid]["hex"]
    for _ in range(units[uid]["ma"]):
        h = board.hex_at(hm, here)
        steps = sorted((hm.label(n) for n in h.neighbours() if n in hm) if h else [],
                       key=lambda lab: (_far(hm, lab, goal), lab))
        nxt = next((lab for lab in steps if lab not in path and board.move(hm, units, uid, [*path, lab]).legal), None)
        if nxt is None or _far(hm, nxt, goal) >= _far(hm, here, goal):
            break
        path.append(nxt)
        here = nxt
    while path and path[-1] in taken:
        path.pop()
    return path


def random_orders(rng: random.Random, eng: Any, dec: Any, side: str) -> list[dict]:
    """Orders a player might write: random walks of random units, attacks on hexes next to them."""
    system = eng.system
    view = system.view(eng.state, side, eng.mode)
    hm = system.hexmap(eng.state)
    mine = sorted(uid for uid, u in view["units"].items() if u["side"] == side and u["hex"])
    out = []
    for _ in range(3):
        moves, ends = [], {uid: view["units"][uid]["hex"] for uid in mine}
        for uid in rng.sample(mine, k=rng.randint(0, len(mine))):
            path, here = [], ends[uid]
            for _ in range(rng.randint(1, view["units"][uid]["ma"])):
                h = board.hex_at(hm, here)
                options = [hm.label(n) for n in h.neighbours() if n in hm] if h else []
                if not options:
                    break
                here = rng.choice(options)
                path.append(here)
            moves.append({"unit": uid, "path": path})
            ends[uid] = path[-1] if path else ends[uid]
        attacks = []
        for uid in rng.sample(mine, k=rng.randint(0, len(mine))):
            h = board.hex_at(hm, ends[uid])
            near = [hm.label(n) for n in h.neighbours() if n in hm] if h else []
            if near:
                attacks.append({"target": rng.choice(near), "by": [uid]})
        out.append({"moves": moves, "attacks": attacks})
    enemies = sorted(u["hex"] for u in view["units"].values() if u["side"] != side and u["hex"])
    enemies += sorted(s["hex"] for s in view["seen"])
    charge = scripted(view, hm, side, [rng.choice(enemies)] if enemies else None)
    return [charge, *out] if rng.random() < .5 else [*out, charge]
