"""An activity impulse of the full game (4.2, 6.0-9.2, 11.0), played by e-mail.

One decision per side per impulse:

* ``tT.iN.orders`` -- the phasing side's orders file: the operation level
  when it is declared (5.15), then its moves, one force after another (8.21):
  detachments, voluntary ML reduction, reactivation, the intended path, the
  target of the attack check and the retreat hex should it fail.  Resolution
  rolls the IMC per force, moves it along its path as far as the MP last
  (:mod:`.movement`), and makes the attack checks.
* ``tT.iN.defence`` -- asked of the other side only when assaults were
  declared: its reactions and pre-combat retreats (9.1-9.2).  A side may
  answer it in advance with ``standing`` orders in its own orders file.

Combat itself (10.x) is the subject of the rules' second part; assaults that
stand after the Combat Preparation Sequence are recorded in the log and in
the reports.
"""
from __future__ import annotations

from functools import cache

from ...paths import games_dir
from ..base import Decision, Field, Problem
from . import model
from .movement import path_problems, walk

ORDER_KEYS = {"level", "moves", "standing"}
MOVE_KEYS = {"force", "detach", "ml_reduction", "reactivate", "path", "attack", "retreat", "step_loss"}
DEFENCE_KEYS = {"react", "retreat"}


@cache
def load_map(name: str):
    from ...maps import load_map as _load

    return _load(games_dir() / "heartland" / "maps" / f"{name}.yaml")


def hexmap(state: dict):
    return load_map(state["map"])


def weather_of(state: dict) -> str:
    w = state["current"].get("weather")
    return w["result"] if w else "Clear"


def enemy_zoc(state: dict, side: str) -> set[str]:
    from .zoc import zoc_hexes

    return set(zoc_hexes(state, model.other_side(side), hexmap(state)))


def cost_fn(state: dict, side: str):
    from .terrain import step_cost

    enemy = model.occupied_hexes(state, model.other_side(side))
    return step_cost(hexmap(state), weather=weather_of(state), side=side, enemy_occupied=enemy,
                     enemy_zoc=enemy_zoc(state, side), friendly_occupied=model.occupied_hexes(state, side))


# --- decisions ----------------------------------------------------------------------------

def orders_decision(state: dict) -> Decision:
    cur = state["current"]
    imp = cur["active_impulse"]
    t, n, side = state["turn"], imp["n"], imp["side"]
    need_level = imp.get("level") is None
    schema = {"moves": Field("list", "the forces' moves, in the order they move (8.21)")}
    if need_level:
        schema["level"] = Field("int", "operation levels for this impulse (5.15)", minimum=1)
    return Decision(
        id=f"t{t}.i{n}.orders", sides=(side,), kind="orders", rule="8.21", dice=True,
        prompt=(f"turn {t}, impulse {n}: " + (f"declare the level (1-{cur['remaining'][side]}) and "
                                                if need_level else f"operation level {imp['level']}: ")
                + "give your forces' moves"),
        schema=schema,
        example={"moves": [{"force": "LEADER", "path": ["HEX", "HEX"], "attack": "HEX"}],
                 **({"level": 1} if need_level else {})},
    )


def defence_decision(state: dict) -> Decision:
    imp = state["current"]["active_impulse"]
    side = model.other_side(imp["side"])
    return Decision(
        id=f"t{state['turn']}.i{imp['n']}.defence", sides=(side,), kind="defence", rule="9.0", dice=True,
        prompt=("assaults are declared against you: give reactions (9.1) and pre-combat retreats (9.2), "
                "or an empty answer to stand"),
        schema={"react": Field("list", "reaction moves: leader, to (the attacked hex)", optional=True),
                "retreat": Field("list", "pre-combat retreats: force, to, rear_guard", optional=True)},
        example={"react": [], "retreat": []},
    )


# --- checking an orders file --------------------------------------------------------------

def check_orders(state: dict, side: str, choice: dict) -> list[Problem]:
    from .initiative import level_problems

    cur = state["current"]
    imp = cur["active_impulse"]
    problems: list[Problem] = []
    for key in choice:
        if key not in ORDER_KEYS:
            return [Problem(f"unknown key `{key}` in orders (allowed: {', '.join(sorted(ORDER_KEYS))})", "8.21", [key])]
    if imp.get("level") is None:
        if "level" not in choice:
            return [Problem("this impulse's level is declared: give `level`", "5.15", [])]
        problems += level_problems(choice["level"], cur["remaining"][side], state.get("impulse_level_limit"))
    elif "level" in choice and choice["level"] != imp["level"]:
        return [Problem(f"this impulse's level was set by the bid: {imp['level']}", "5.15", ["level"])]
    moves = choice.get("moves", [])
    if not isinstance(moves, list):
        return [Problem("`moves` must be a list of moves", "8.21", ["moves"])]
    zoc = enemy_zoc(state, side)
    enemy = model.occupied_hexes(state, model.other_side(side))
    cost = cost_fn(state, side)
    seen: set[str] = set()
    mine = set(model.forces(state, side))
    for i, mv in enumerate(moves):
        if not isinstance(mv, dict):
            return problems + [Problem("each move is a mapping with `force` and `path`", "8.21", ["moves", i])]
        bad = set(mv) - MOVE_KEYS
        if bad:
            return problems + [Problem(f"unknown key `{sorted(bad)[0]}` in a move (allowed: "
                                       f"{', '.join(sorted(MOVE_KEYS))})", "8.21", ["moves", i, sorted(bad)[0]])]
        force = mv.get("force")
        if force not in mine:
            enemy_ids = set(model.forces(state, model.other_side(side)))
            why = "an enemy force" if force in enemy_ids else "not one of your forces on the map"
            return problems + [Problem(f"`{force}` is {why}; your forces: {', '.join(sorted(mine))}",
                                       "8.21", ["moves", i, "force"])]
        if force in seen:
            return problems + [Problem(f"{force} is ordered to move twice; each force moves once per impulse",
                                       "8.21", ["moves", i, "force"])]
        seen.add(force)
        path = mv.get("path", [])
        if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
            return problems + [Problem("`path` is a list of hex labels in quotes, e.g. [\"0512\", \"0613\"]",
                                       "8.2", ["moves", i, "path"])]
        active = model.is_unled(force) or state["leaders"][force]["active"] or mv.get("reactivate")
        problems += path_problems(path, start=model.force_hex(state, force), hexmap=hexmap(state), cost=cost,
                                  enemy_zoc=zoc, enemy_occupied=enemy, active=bool(active), index=i)
        if not model.is_unled(force):
            problems += _detach_problems(state, force, mv, i)
    return problems


def _detach_problems(state: dict, force: str, mv: dict, i: int) -> list[Problem]:
    detach = mv.get("detach", [])
    if not isinstance(detach, list):
        return [Problem("`detach` is a list of leaders or units", "8.25", ["moves", i, "detach"])]
    members = set(model.force_leaders(state, force)[1:]) | set(model.force_units(state, force))
    for j, d in enumerate(detach):
        if d not in members:
            return [Problem(f"`{d}` is not part of {force}'s force", "8.25", ["moves", i, "detach", j])]
    if detach and state["leaders"][force]["ap"] < 1:
        return [Problem(f"{force} has no AP left to detach (1 AP)", "8.25", ["moves", i, "detach"])]
    return []


def forces_in_enemy_zoc(state: dict, side: str) -> list[str]:
    zoc = enemy_zoc(state, side)
    return [f for f in model.forces(state, side) if model.force_hex(state, f) in zoc]


def check_must_attack(state: dict, side: str, moves: list[dict]) -> list[Problem]:
    """8.41/8.42: a force that starts in enemy ZOC must leave it at the start of its move or check to attack."""
    ordered = {mv.get("force"): (i, mv) for i, mv in enumerate(moves) if isinstance(mv, dict)}
    out = []
    for f in forces_in_enemy_zoc(state, side):
        i, mv = ordered.get(f, (None, {}))
        if mv.get("path") or mv.get("attack"):
            continue
        where = ["moves", i] if i is not None else ["moves"]
        out.append(Problem(f"{f} is in enemy ZOC at {model.force_hex(state, f)}: it must leave at the start "
                           "of its move or make an attack check (give `path` or `attack`)", "8.42", where))
    return out


# --- the impulse's life -------------------------------------------------------------------

def start(state: dict, imp: dict, events: list[dict]) -> None:
    """Begin an impulse of the full game: it waits for the phasing side's orders."""
    cur = state["current"]
    n = len(cur["impulses"]) + 1
    cur["active_impulse"] = {"n": n, "side": imp["side"], "level": imp["level"], "fixed": imp["fixed"],
                             "rule": imp["rule"], "stage": "orders", "assaults": [], "involuntary": []}
    events.append({"type": "impulse.start", "n": n, "side": imp["side"], "level": imp["level"],
                   "rule": imp["rule"],
                   "text": f"impulse {n}: {imp['side']} " + (f"at operation level {imp['level']} (set by the bid)"
                                                             if imp["level"] else "declares its level")})


def resolve_orders(state: dict, answers: dict, dice, events: list[dict]) -> bool:
    """Supply, then every ordered move with its IMC roll and attack check; True when the impulse is over."""
    cur = state["current"]
    imp = cur["active_impulse"]
    side = imp["side"]
    choice = answers[side]
    if imp["level"] is None:
        imp["level"] = choice["level"]
        cur["remaining"][side] -= choice["level"]
        events.append({"type": "level", "side": side, "level": choice["level"], "rule": "5.15",
                       "text": f"{side} declares operation level {choice['level']} for impulse {imp['n']}"})
    if "standing" in choice:
        state.setdefault("standing", {})[side] = choice["standing"]
    # 4.21 / 7.34: supply states, locked for the whole impulse
    imp["supply"] = _supply_states(state, side)
    events.append({"type": "supply", "side": side, "private": True, "rule": "7.34",
                   "states": imp["supply"],
                   "text": "supply: " + ", ".join(f"{f} {s['state']}" for f, s in imp["supply"].items())})
    imp["mp"] = {}
    for mv in choice.get("moves", []):
        force = mv["force"]
        if force not in model.forces(state, side):
            events.append({"type": "move.void", "side": side, "force": force, "rule": "8.21",
                           "text": f"{force} is no longer a force on the map: its move is void"})
            continue
        _move_one(state, side, force, mv, dice, events)
    imp["stage"] = "moved"
    if not imp["assaults"]:
        return True
    standing = state.get("standing", {}).get(model.other_side(side), {}).get("defence")
    if standing is not None:
        events.append({"type": "standing", "side": model.other_side(side), "rule": "9.0",
                       "text": f"{model.other_side(side)} answers with its standing orders"})
        resolve_defence(state, {model.other_side(side): standing}, dice, events)
        return True
    imp["stage"] = "defence"
    return False


def _move_one(state: dict, side: str, force: str, mv: dict, dice, events: list[dict]) -> None:
    imp = state["current"]["active_impulse"]
    hm = hexmap(state)
    start_hex = model.force_hex(state, force)
    for piece in mv.get("detach", []):
        _detach(state, force, piece, events)
    if not model.is_unled(force) and not state["leaders"][force]["active"]:
        if not _reactivate(state, force, mv.get("reactivate"), dice, events):
            return
    mp = _imc_roll(state, force, imp, mv, dice, events)
    if mp is None:
        return
    zoc = enemy_zoc(state, side)
    w = walk(mv.get("path", []), start=start_hex, mp=mp, hexmap=hm, cost=cost_fn(state, side), enemy_zoc=zoc)
    w = _legal_stop(state, side, force, w)
    _relocate(state, force, w.end)
    imp["mp"][force] = {"rolled": mp, "spent": w.spent}
    if len(w.hexes) > 1:
        events.append({"type": "move", "side": side, "force": force, "path": w.hexes, "rule": w.rule,
                       "text": f"{_name(state, force)} moves {' > '.join(w.hexes)} ({w.stopped})"})
        events.append({"type": "move.mp", "side": side, "private": True, "force": force, "mp": mp,
                       "spent": w.spent, "rule": "8.22",
                       "text": f"{_name(state, force)}: {mp} MP rolled, {w.spent:g} used"})
    here = model.force_hex(state, force)
    if here in zoc:
        _attack_check(state, side, force, mv, dice, events)


def finish(state: dict, events: list[dict]) -> None:
    """4.25 / 11.0: pay the leaders; the impulse goes into the turn's record."""
    cur = state["current"]
    imp = cur.pop("active_impulse")
    side = imp["side"]
    pay = _leader_pay(state, side, imp["involuntary"])
    state["wep"][side] -= pay
    for a in imp["assaults"]:
        events.append({"type": "assault.stands", "side": side, "force": a["force"], "target": a["target"],
                       "rule": "10.0",
                       "text": f"assault of {_name(state, a['force'])} on {a['target']} stands; combat (10.x) "
                               "is resolved by the rules of part 2, not yet played by hxref"})
    cur["impulses"].append({"n": imp["n"], "side": side, "level": imp["level"], "fixed": imp["fixed"],
                            "rule": imp["rule"], "pay": pay, "assaults": imp["assaults"]})
    events.append({"type": "impulse", "n": imp["n"], "side": side, "level": imp["level"],
                   "how": "set by the bid" if imp["fixed"] else "declared", "rule": "4.25", "pay": pay,
                   "private_wep": state["wep"][side]})


def _name(state: dict, force: str) -> str:
    if model.is_unled(force):
        return f"unled units in {model.force_hex(state, force)}"
    return state["leaders"][force]["name"]


def _relocate(state: dict, force: str, label: str) -> None:
    if model.is_unled(force):
        old = model.force_hex(state, force)
        side = model.force_side(state, force)
        for u in state["units"].values():
            if u.get("leader") is None and u.get("hex") == old and u["side"] == side:
                u["hex"] = label
        return
    for lid in model.force_leaders(state, force):
        state["leaders"][lid]["hex"] = label
    for sid in model.force_logistics(state, force):
        state["logistics"][sid]["hex"] = label


def _legal_stop(state: dict, side: str, force: str, w):
    """3.22a / 3.23: a force may pass through friendly stacks but must end where stacking is legal."""
    while len(w.hexes) > 1 and _stacking_problems(state, side, force, w.end):
        label, c = w.steps.pop()
        w.hexes.pop()
        w.spent -= c
        w.stopped = f"stopped short of {label}: stacking limits (3.22a, 3.23)"
        w.in_enemy_zoc = False
    return w


def _detach(state: dict, force: str, piece: str, events: list[dict]) -> None:
    ld = state["leaders"][force]
    if ld["ap"] < 1:
        return
    ld["ap"] -= 1
    if piece in state["leaders"]:
        state["leaders"][piece]["superior"] = None
    elif piece in state["units"]:
        u = state["units"][piece]
        u["leader"], u["hex"] = None, ld["hex"]
    events.append({"type": "detach", "side": ld["side"], "force": force, "piece": piece, "rule": "8.25",
                   "private": True, "text": f"{ld['name']} detaches {piece} (1 AP)"})


def check_defence(state: dict, side: str, choice: dict) -> list[Problem]:
    for key in choice:
        if key not in DEFENCE_KEYS:
            return [Problem(f"unknown key `{key}` (allowed: react, retreat)", "9.0", [key])]
    return _defence_problems(state, side, choice)


# --- adapters to the rules modules ---------------------------------------------------------

def _supply_states(state: dict, side: str) -> dict[str, dict]:
    """4.21 / 7.1-7.34: every force's supply state, locked for the impulse (7.34)."""
    from .supply import supply_status

    result = supply_status(state, side, hexmap(state))
    return {f: {"state": fs.state.value if hasattr(fs.state, "value") else str(fs.state),
                "in_communication": fs.in_communication, "mp_halved": fs.mp_halved,
                "cf_halved": fs.cf_halved, "reason": fs.reason}
            for f, fs in result.forces.items()}
