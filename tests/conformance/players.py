"""Random players that write the orders a player of each system writes: random moves along the map,
attacks on neighbouring hexes, detachments, shots at enemy units, dice requested twice.

The schema's random values (:func:`.harness.candidates`) seldom make an order the rules accept:
a path of random hex labels is never a path.  These players build orders from the position, so
random play reaches what a real player can order (an unled stack's move, a wagon moving alone, two
attacks by one brigade) and :func:`.harness.random_play` checks that no order ``check`` accepts
makes ``resolve`` raise.  The rules then prune what they refuse (:func:`.harness.repaired`), so
the players need not know the rules, only the shape of an order and the map.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from hxref.referee.engine import Engine


def _walk(rng: random.Random, neighbours: Callable[[str], list[str]], start: str | None, most: int) -> list[str]:
    """A random walk of up to ``most`` hexes from ``start`` (not included), never back to the hex
    it just left."""
    path: list[str] = []
    here, last = start, None
    for _ in range(rng.randint(0, most)):
        if here is None:
            break
        options = [h for h in neighbours(here) if h != last] or neighbours(here)
        if not options:
            break
        last, here = here, rng.choice(options)
        path.append(here)
    return path


def _some(rng: random.Random, items: list, most: int) -> list:
    return rng.sample(items, k=min(len(items), rng.randint(0, most)))


# --- The Army of the Heartland -------------------------------------------------------------------

def heartland(rng: random.Random, eng: Engine, dec, side: str) -> list[dict]:
    from hxref.systems.heartland import model
    from hxref.systems.heartland.attack import neighbours

    state = eng.state
    if dec.kind not in ("orders", "defence") or not isinstance(state.get("leaders"), dict):
        return []
    hm = eng.system.charts.map(state["map"])
    near = lambda h: neighbours(hm, h)                                          # noqa: E731
    forces = model.forces(state, side)
    leaders = [lid for lid in forces if not model.is_unled(lid)]
    logistics = [lid for lid, x in sorted(state["logistics"].items()) if x.get("side") == side and x.get("hex")]
    here = {f: model.force_hex(state, f) for f in forces}
    here.update({lid: state["logistics"][lid]["hex"] for lid in logistics})
    if dec.kind == "defence":
        return [{"react": [{"force": f, "to": rng.choice(near(here[f]) or [here[f]])}], "retreat": []}
                for f in _some(rng, leaders, 1)] + [
                {"react": [], "retreat": [{"force": f, "to": rng.choice(near(here[f]) or [here[f]])}
                                          for f in _some(rng, forces, 2)]}]
    out = []
    for _ in range(3):
        moves = []
        for f in _some(rng, forces + logistics, 4):
            move: dict = {"force": f, "path": _walk(rng, near, here[f], 6)}
            end = move["path"][-1] if move["path"] else here[f]
            if rng.random() < .4:
                move["attack"] = rng.choice(near(end))
            if f in leaders and rng.random() < .25:
                units = model.force_units(state, f)
                move["detach"] = _some(rng, units, 2)
                if move["detach"]:          # what is detached becomes unled in the hex and may move on
                    moves.append(move)
                    move = {"force": f"unled@{here[f]}", "path": _walk(rng, near, here[f], 3)}
            if rng.random() < .15:
                move["forced_march"] = True
            if model.is_unled(move["force"]) and rng.random() < .15:    # a leader's order, which it has not
                move[rng.choice(["ml_reduction", "lend_mr", "merge", "reactivate"])] = rng.choice(leaders or [1])
            moves.append(move)
        choice: dict = {"moves": moves}
        if leaders and rng.random() < .2:
            choice["deactivate"] = _some(rng, leaders, 1)
        wagons = [w for w in logistics if state["logistics"][w].get("kind") == "wagon"]
        unled = [u for u, x in sorted(state["units"].items()) if x.get("side") == side and x.get("hex")
                 and x.get("leader") is None]
        if wagons and unled and rng.random() < .2:      # 8.5: a wagon made a depot, garrisoned
            choice["depots"] = [{"wagon": rng.choice(wagons), "detachment": rng.choice(unled)}]
        out.append(choice)
    return out


# --- Musket & Sabre: Salem Church ---------------------------------------------------------------------

def salem_church(rng: random.Random, eng: Engine, dec, side: str) -> list[dict]:
    from hxref.systems.salem_church.board import hexmap

    state = eng.state
    if dec.kind != "orders":
        return []
    hm = hexmap(eng.system.charts, state)

    def near(label: str) -> list[str]:
        h = hm.parse(label)
        return [hm.label(n) for n in h.neighbours() if n in hm.grid]

    units = {u: x for u, x in sorted(state["units"].items()) if x.get("side") == side and x.get("hex")}
    enemy = sorted({x["hex"] for x in state["units"].values() if x.get("side") != side and x.get("hex")})
    leaders = [u for u, x in units.items() if x.get("type") == "leader"]
    out = []
    for _ in range(3):
        moves = []
        for u in _some(rng, list(units), 5):
            move: dict = {"unit": u, "path": _walk(rng, near, units[u]["hex"], 5)}
            if leaders and rng.random() < .2:
                move["leader"] = rng.choice(leaders)
            moves.append(move)
        attacks = []
        for target in _some(rng, enemy, 2):
            # two attacks may name one brigade: the rules must say which they accept
            attackers = _some(rng, list(units), 3) or list(units)[:1]
            attack: dict = {"attackers": attackers, "target": target}
            if rng.random() < .3 and attackers:
                attack["first"] = rng.choice(attackers)
            if rng.random() < .3 and attackers:
                attack["advance"] = True
            attacks.append(attack)
        bombard = [{"unit": u, "target": rng.choice(enemy)} for u, x in units.items()
                   if x.get("type") == "artillery" and enemy and rng.random() < .3]
        choice: dict = {"moves": moves, "attacks": attacks, "bombard": bombard}
        if rng.random() < .5:
            choice["standing"] = {"choice": rng.choice(["retreat", "disrupt"]), "hexes": rng.randint(1, 2)}
        out.append(choice)
    return out


# --- ACW miniatures -------------------------------------------------------------------------------

def acw_minis(rng: random.Random, eng: Engine, dec, side: str) -> list[dict]:
    state = eng.state
    if dec.kind != "orders":
        return []
    own = [u for u, x in sorted(state["units"].items()) if x.get("side") == side and not x.get("eliminated")]
    enemy = [u for u, x in sorted(state["units"].items()) if x.get("side") != side and not x.get("eliminated")]
    out = []
    for _ in range(3):
        movers = _some(rng, own, 3)
        moves = [{"unit": u, "pivot_start": round(rng.uniform(-90, 90), 1), "advance": round(rng.uniform(0, 12), 1),
                  "pivot_end": round(rng.uniform(-90, 90), 1)} for u in movers]
        shots = [{"shooter": u, "target": rng.choice(enemy)} for u in own if u not in movers and enemy
                 and rng.random() < .8]
        out.append({"moves": moves, "shots": shots})
    return out


# --- ASL Kampfgruppe Peiper -----------------------------------------------------------------------------

def kgp(rng: random.Random, eng: Engine, dec, side: str) -> list[dict]:
    if dec.kind == "report":
        # the two reports must agree on the shared facts (8.603): both sides draw them from one
        # generator seeded by the decision, or every report round disagrees and play never goes on
        shared = random.Random(dec.id)
        view = eng.system.view(eng.state, side, eng.mode)
        base = dict(eng.system.template(view, dec, side).choice)
        lvp = {s: shared.randint(0, 12) for s in ("us", "german")}
        return [{**base, "lvp": lvp, "cvp": {s: shared.randint(0, 6) for s in ("us", "german")}}, base]
    if dec.kind != "turn":
        return []
    kinds = ["game_end", "reinforcement", "reserve_release", "sniper"]
    sides = list(eng.system.info.sides) if hasattr(eng.system, "info") else ["us", "german"]
    out = []
    for _ in range(3):
        rolls = [{"roll": rng.choice(kinds), "side": rng.choice(sides)} for _ in range(rng.randint(0, 3))]
        if rolls and rng.random() < .5:
            rolls.append(dict(rolls[0]))        # the same dr asked for twice in one turn
        # an end is sent with a Game End dr (CG Game End); the rules refuse it otherwise
        choice: dict = {"rolls": rolls, "end": any(r["roll"] == "game_end" for r in rolls) and rng.random() < .5}
        placed = [p for s in sides for p in (eng.state.get("placements") or {}).get(s, [])
                  if isinstance(p, dict) and p.get("id")]
        hexes = [p["hex"] for p in placed if p.get("hex")] or ["x"]
        if placed and rng.random() < .4:        # CG7b: a Reserve released, by sight or attack
            choice["release"] = [{"id": rng.choice(placed)["id"], "by": rng.choice(["los", "attack"]),
                                  "enemy_hex": rng.choice(hexes)} for _ in range(rng.randint(1, 2))]
        if placed and rng.random() < .3:        # I.3: a Gun's Covered Arc fixed when it is revealed
            choice["guns"] = [{"id": rng.choice(placed)["id"], "secret": rng.random() < .5}]
        out.append(choice)
    return out


#: the players by system; a system without one is played from its schema alone
PLAYERS: dict[str, Callable[[random.Random, Engine, object, str], list[dict]]] = {
    "heartland": heartland, "salem-church": salem_church, "acw-minis": acw_minis, "kgp": kgp}


def propose(system: str, rng: random.Random, eng: Engine, dec, side: str) -> list[dict]:
    """Orders a player of ``system`` might write for ``dec``, built from the position."""
    player = PLAYERS.get(system)
    return player(rng, eng, dec, side) if player else []
