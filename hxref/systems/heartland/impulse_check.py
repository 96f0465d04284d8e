"""Checking an orders file of an activity impulse (:mod:`.impulse`): its keys, the moves (paths, reach,
detachments, rail, forced march, off-map moves, the must-attack rule) and the special orders (engineers,
gunboats, screens, naval), all before any die is rolled."""
from __future__ import annotations

from collections.abc import Mapping, Set as AbstractSet, Sequence
from typing import TYPE_CHECKING, Any

from .state_types import FullGameState
from ..base import Problem
from . import model
from .impulse_conditions import _stacking_problems, cost_fn, enemy_zoc, own_use_forces
from .imc import UNLED_MR
from .impulse_moves import _yield, detachment_ap
from .movement import path_problems
from .fog import enemy_stacks_in_sight, hidden_armies

if TYPE_CHECKING:
    from ...kit.charts import Charts

ORDER_KEYS = {"level", "moves", "standing", "emergency", "remove", "combat", "engineers", "gunboats", "screen",
              "naval", "plot", "reveal", "searched", "exhaust",
              "deactivate",             # 8.12a: leaders deactivated voluntarily (.deactivation)
              "depots"}                 # 8.5: {wagon, detachment}, checked by .wagons.depot_problems
MOVE_KEYS = {"force", "detach", "lend_mr", "ml_reduction", "reactivate", "path", "attack", "retreat", "step_loss",
             "merge", "detachments", "forced_march", "rail", "cut_rail", "recon", "hide", "off_map",
             "capture_landing"}
OFF_MAP_VALUES = ("leave", "enter")        # 8.74: ride off the map at an edge / come back onto it
DEFENCE_KEYS = {"react", "retreat"}


# --- checking an orders file --------------------------------------------------------------

def check_orders(state: FullGameState, side: str, choice: dict, *, charts: Charts) -> list[Problem]:
    """What is wrong with ``side``'s orders for the impulse (all of it that can be known now), on
    the game's map and charts (``charts``)."""
    hm = charts.map(state["map"])
    if "standing" in choice and hidden_armies(state):
        return [Problem("with hidden armies the enemy's copy cannot read standing orders before they are used, "
                        "so the defender answers each assault with a file of its own (the impulse's defence)",
                        "9.0", ["standing"])]
    if any(k in choice for k in ("plot", "reveal", "searched")) or (state.get("pending_searches") or {}).get(side):
        from . import hidden_open as ho

        if not ho.open_mode(state):
            bad = next((k for k in ("plot", "reveal", "searched") if k in choice), "plot")
            return [Problem(f"`{bad}` is for open games: in an umpired or solo game the referee keeps hidden "
                            "forces (move them with `path` and `hide: true`)", "8.62a", [bad])]
        found = (ho.search_answer_problems(state, side, choice) + ho.reveal_problems(state, side, choice.get("reveal", []))
                 + ho.plot_problems(state, side, choice.get("plot", [])))
        if found:
            return found[:1]
        both = {x["force"] for x in choice.get("plot", [])} & {x["force"] for x in choice.get("reveal", [])}
        if both:
            return [Problem(f"{sorted(both)[0]} is both plotted and revealed", "8.62a", ["plot"])]
        if choice.get("reveal"):              # the moves start where the revealed forces appear
            import copy

            state = copy.deepcopy(state)
            for r in choice["reveal"]:
                ho.apply_reveal(state, hm, r["force"], ho.open_plots(state, r["force"], r["plots"]).hexes[-1]
                                if r["plots"] else state[ho.KEY][r["force"]]["from"])
    # 3.71, 8.62a: in an umpired game the orders are checked against the side's own map (the
    # enemy's hidden forces off it); running into them is settled at resolution (.fog)
    from .fog import checked_state

    return _check_orders(checked_state(state, side), hm, side, choice, charts=charts)


def _check_orders(state: FullGameState, hm, side: str, choice: dict, *, charts: Charts) -> list[Problem]:
    """The orders checked in the order of the impulse: its level (5.15), emergency supply (7.35),
    removals (7.21, 7.22), the special orders and the moves (8.21)."""
    imp = state["current"]["active_impulse"]
    problems, refused = _level_order(state, side, choice)
    if refused:
        return problems
    # the shapes of the orders (keys, types) are checked first, in hxref.referee.orders: .order_schema
    emergency = choice.get("emergency", {})
    if emergency:
        found = _emergency_problems(state, hm, side, emergency)
        if found:
            return found
    found = _removal_problems(state, side, choice.get("remove", []))
    if found:
        return found
    if "exhaust" in choice:                 # 8.64a: the Union flips its captured landings
        from .capture import exhaust_order_problems

        found = exhaust_order_problems(state, side, choice["exhaust"])
        if found:
            return found
    if "deactivate" in choice:              # 8.12a: leaders deactivated voluntarily
        from .deactivation import order_problems

        found = order_problems(state, side, choice["deactivate"], choice.get("moves", []))
        if found:
            return found
    depots = choice.get("depots")
    if depots is not None:                  # 8.5: wagons that become depots, before any move
        from .wagons import depot_problems

        found = depot_problems(state, side, depots, hm)
        if found:
            return found
    problems += _special_order_problems(state, hm, side, choice)
    made = {d["wagon"] for d in depots or [] if isinstance(d, dict) and isinstance(d.get("wagon"), str)}
    return problems + _check_moves(state, hm, side, choice.get("moves", []), choice.get("level") or imp.get("level"),
                                   made, charts=charts)


def _level_order(state: FullGameState, side: str, choice: dict) -> tuple[list[Problem], bool]:
    """5.15: the impulse's level, declared now (within what the side has left) or set by the bid.
    The flag is True when the orders are refused outright."""
    from .initiative import level_problems

    cur = state["current"]
    imp = cur["active_impulse"]
    if imp.get("level") is None:
        if "level" not in choice:
            return [Problem("this impulse's level is declared: give `level`", "5.15", [])], True
        return level_problems(choice["level"], cur["remaining"][side], state.get("impulse_level_limit")), False
    if "level" in choice and choice["level"] != imp["level"]:
        return [Problem(f"this impulse's level was set by the bid: {imp['level']}", "5.15", ["level"])], True
    return [], False


def _emergency_problems(state: FullGameState, hm, side: str, emergency) -> list[Problem]:
    """7.35: the emergency supply the side calls on for this impulse, checked by the supply rules on
    the lines the impulse's Supply Sequence will trace (its Own Use markers, laid pontoons and Rail
    Line Cut markers: :func:`.impulse_conditions._supply_states`)."""
    from .supply import line_conditions, supply_status

    found = supply_status(state, side, hm, emergency=emergency, own_use=own_use_forces(state, side),
                          **line_conditions(state, side)).problems
    if found:
        return [Problem(found[0].message, found[0].rule, ["emergency", *found[0].path])]
    return []


def _check_moves(state: FullGameState, hm, side: str, moves: list[dict], level,
                 depots: AbstractSet[str] = frozenset(), *, charts: Charts) -> list[Problem]:
    """8.21: each ordered force's move in turn -- who moves, the path and its reach, rail, forced
    march, detachments and merging -- then the must-attack rule (8.4) over all of them.  A wagon or
    an unbridged pontoon may be ordered alone (7.21, 8.81; :mod:`.wagons`); ``depots`` are the
    wagons the orders make depots (8.5)."""
    from . import wagons

    problems: list[Problem] = []
    zoc = enemy_zoc(state, hm, side)
    enemy = enemy_stacks_in_sight(state, side)
    cost = cost_fn(state, hm, side)
    detachment = charts.chart("detachment")
    seen: set[str] = set()
    mine = set(model.forces(state, side))
    for i, mv in enumerate(moves):
        force = mv["force"]
        if "off_map" in mv:
            found = _off_map_move_problems(state, hm, side, mv, i, seen)
            if found is not None:
                problems += found
                continue
        if wagons.is_lone_mover(state, side, force):        # 7.21, 8.81: on its own 8 MP
            if force in seen:
                return problems + [Problem(f"{force} is ordered to move twice", "8.21", ["moves", i, "force"])]
            seen.add(force)
            problems += wagons.move_problems(state, side, mv, i, hexmap=hm, cost=cost, zoc=zoc,
                                             enemy=enemy, depots=depots)
            continue
        bad = _sl_detach_problem(state, side, force, mv, i) or _mover_problem(force, mine, seen, i,
                                                                              wagons.lone_movers(state, side))
        if bad is not None:
            return problems + [bad]
        seen.add(force)
        bad = _leader_order_problem(force, mv, i)
        if bad is not None:
            return problems + [bad]
        if model.is_unled(force) and mv.get("path") and all(
                state["units"][u]["arm"] == "detachment" for u in model.units_of(state, force)):
            from .imc import unled_detachments_stay     # 8.22b, 8.52: they ride with a leader or a wagon

            problems.append(Problem(unled_detachments_stay(state, model.force_hex(state, force), side),
                                    "8.22b, 8.52", ["moves", i, "force"]))
            continue
        path = mv.get("path", [])
        found = _path_order_problems(state, hm, side, force, mv, i, cost=cost, zoc=zoc, enemy=enemy, level=level,
                                     charts=charts)
        problems += found
        if mv.get("rail"):
            problems += _rail_order_problems(state, hm, force, mv, i)
        if mv.get("forced_march"):              # 8.32a reads the hexes of a path already found sound
            problems += _forced_march_order_problems(state, hm, force, [] if found else path, i)
        if not model.is_unled(force):
            found = _detach_problems(state, force, mv, i)
            more = _detachment_problems(state, force, mv, i, detachment)
            problems += found + more + ([] if found or more else _move_ap_problems(state, force, mv, i, detachment))
            if mv.get("detach") and not found:      # 8.25b, H-19: what is detached moves on its own,
                state = _after_detach(state, force, mv)     # later in this impulse
                mine = set(model.forces(state, side))
        if mv.get("capture_landing") is not None:
            problems += _capture_landing_problems(state, side, force, mv, i)
        target = mv.get("attack")
        if target is not None and target not in enemy:
            # 8.4: the check is made against an adjacent enemy stack; ``enemy`` is the side's own map
            # (3.71: hidden forces are off it), read alike from the state and from the side's view,
            # so a stack it cannot see reads as an empty hex, in words that do not depend on the hex
            # (the path names it)
            problems.append(Problem("the hex to attack holds no enemy stack that you can see: an attack check "
                                    "is made against an adjacent enemy stack", "8.4", ["moves", i, "attack"]))
        merge = mv.get("merge")
        if merge is not None and (merge not in mine or merge == force):
            problems.append(Problem(f"`merge` names another of your forces to take along (8.25a), not {merge!r}",
                                    "8.25a", ["moves", i, "merge"]))
    return problems + check_must_attack(state, hm, side, moves)


#: what only a leader orders, with its rule: an unled stack has no leader to give it (8.22b)
LEADER_ORDERS = {"detach": "8.25b", "detachments": "8.51", "lend_mr": "3.24b", "ml_reduction": "3.54",
                 "merge": "8.25a", "reactivate": "8.12"}


def _leader_order_problem(force: str, mv: dict, i: int) -> Problem | None:
    """8.22b: an unled stack moves on MR 1 or 2 and nothing else: detaching, making detachments,
    lending MR, lowering an ML, merging and reactivating are a leader's orders (refused here, not
    dropped by ``resolve`` after the impulse)."""
    if not model.is_unled(force):
        return None
    key = next((k for k in LEADER_ORDERS if mv.get(k) not in (None, [], False)), None)
    if key is None:
        return None
    return Problem(f"`{key}` is a leader's order; {force} is an unled stack (it only moves, 8.22b)",
                   LEADER_ORDERS[key], ["moves", i, key])


def _mover_problem(force: str, mine: set[str], seen: set[str], i: int, alone: Sequence[str] = ()) -> Problem | None:
    """8.21: the force is one of the side's own, ordered once this impulse (``alone``: the wagons and
    pontoons that may be ordered on their own, 7.21, 8.81)."""
    if force not in mine:       # 3.71: one answer for any id, an enemy's (hidden or not) or none
        return Problem(f"`{force}` is not one of your forces on the map; your forces: "
                       f"{', '.join(sorted(mine))}"
                       + (f"; your wagons and pontoons, which move alone: {', '.join(alone)}" if alone else ""),
                       "8.21", ["moves", i, "force"])
    if force in seen:
        return Problem(f"{force} is ordered to move twice; each force moves once per impulse",
                       "8.21", ["moves", i, "force"])
    return None


def moves_active(state: FullGameState, force: str, mv: Mapping) -> bool:
    """3.61, 8.12: the force moves as an active one -- an unled stack, an active leader's force, or one
    whose leader the move reactivates -- and so may enter enemy ZOC."""
    return bool(model.is_unled(force) or state["leaders"][force]["active"] or mv.get("reactivate"))


def _path_order_problems(state: FullGameState, hm, side: str, force: str, mv: dict, i: int, *, cost, zoc, enemy,
                         level, charts: Charts) -> list[Problem]:
    """8.21 / 8.22: the ordered path, hex by hex, and whether any IMC roll could pay for it."""
    path = mv.get("path", [])
    active = moves_active(state, force, mv)
    found = path_problems(path, start=model.force_hex(state, force), hexmap=hm, cost=cost,
                          enemy_zoc=zoc, enemy_occupied=enemy, active=active, index=i)
    if isinstance(mv.get("recon"), dict) and "at" in mv["recon"]:    # 8.61: a recon while moving
        from .cavalry import recon_move_problems

        found = recon_move_problems(state, force, mv, start=model.force_hex(state, force), hexmap=hm,
                                    cost=cost, enemy_zoc=zoc, enemy_occupied=enemy, active=active,
                                    index=i) or []
    if path and not found:
        return _reach_problems(state, hm, side, force, path, cost, i, level, charts=charts)
    return found


def _rail_order_problems(state: FullGameState, hm, force: str, mv: dict, i: int) -> list[Problem]:
    """8.72: a rail move names its stations and has no path."""
    from .rail import rail_move_problems

    stations = mv["rail"]
    if mv.get("path", []) or not isinstance(stations, list):
        return [Problem("a rail move gives `rail: [stations]` and no `path` (8.72)", "8.72", ["moves", i, "rail"])]
    return [Problem(p.message, p.rule, ["moves", i, "rail", *p.path])
            for p in rail_move_problems(state, hm, force, stations, off_map=mv.get("off_map") == "leave")]


def _forced_march_order_problems(state: FullGameState, hm, force: str, path: list[str], i: int) -> list[Problem]:
    """8.3 / 8.32a: only an active leader's force force-marches, and only through clear hexes or along roads."""
    from .forced_march import march_path_problems

    if model.is_unled(force) or not state["leaders"][force]["active"]:
        return [Problem("only an active leader's force may force-march", "8.3", ["moves", i, "forced_march"])]
    if path:
        return march_path_problems(path, start=model.force_hex(state, force), hexmap=hm, index=i)
    return []


def _removal_problems(state: FullGameState, side: str, remove) -> list[Problem]:
    """7.21, 7.22: the wagons and depots the side removes from the map in its own impulse."""
    from .capture import voluntary_removal

    if not isinstance(remove, list):
        return [Problem("`remove` is a list of your wagons and depots", "7.21, 7.22", ["remove"])]
    for i, sid in enumerate(remove):
        s = (state.get("logistics") or {}).get(sid) if isinstance(sid, str) else None
        if s is None or s.get("side") != side or not s.get("hex") and not s.get("leader"):
            # 3.71: one answer for any id, the enemy's or none
            return [Problem(f"`{sid}` is not one of your wagons or depots on the map", "7.21, 7.22", ["remove", i])]
        found = voluntary_removal(state, side, sid).problems
        if found:
            return [Problem(found[0].message, found[0].rule, ["remove", i])]
    return []


def most_mp(state: FullGameState, force: str, level: int, *, charts: Charts) -> tuple[int, int]:
    """8.22: the most MP any IMC roll gives ``force`` at operation ``level`` (a cavalry force reads
    the next table, an unled stack moves on MR 1 or 2, 8.22b), and the MR it rolls on."""
    from .imc import IMCChart

    chart = IMCChart.load(charts)
    units = model.units_of(state, force)
    cavalry = bool(units) and all(state["units"][u]["arm"] == "cavalry" for u in units)
    if model.is_unled(force):
        mr = UNLED_MR["cavalry"] if cavalry else UNLED_MR["infantry"]     # 8.22b
    else:
        mr = model.current_rating(state["leaders"][force], "mr")
    table = min(level + 1, 6) if cavalry else level
    return chart.lookup(table, mr, min(chart.rows)), mr


def _reach_problems(state: FullGameState, hm, side: str, force: str, path: list[str], cost, i: int, level, *,
                    charts: Charts) -> list[Problem]:
    """8.22: a path no IMC roll could pay for; 3.22a/3.23: a final hex where the stack would be illegal."""
    total, here = 0.0, model.force_hex(state, force)
    for label in path:
        total += cost(hm.parse(here), hm.parse(label))
        here = label
    if isinstance(level, int) and level >= 1:
        best, mr = most_mp(state, force, level, charts=charts)
        if total > best:
            return [Problem(f"the path costs {total:g} MP; at operation level {level} with MR {mr} {force} can "
                            f"roll at most {best} MP", "8.22", ["moves", i, "path"])]
    stack = _stacking_problems(state, side, force, path[-1])
    if stack:
        return [Problem(f"{force} would end in {path[-1]} in a stack over its limits: {stack[0].message}",
                        stack[0].rule, ["moves", i, "path"])]
    return []


def _detach_problems(state: FullGameState, force: str, mv: dict, i: int) -> list[Problem]:
    """8.25b/c, 3.23b: the detach order of a move, as :func:`.forces.detach_order` reads it: only
    parts of the OC's force, 1 AP for all of them, and no more unled infantry in the hex than
    3.23b allows."""
    from .forces import detach_order

    detach, lend = mv.get("detach", []), mv.get("lend_mr", [])
    if not isinstance(detach, list) or not all(isinstance(d, str) for d in detach):
        return [Problem("`detach` is a list of leaders or units", "8.25", ["moves", i, "detach"])]
    if not isinstance(lend, list) or not all(isinstance(d, str) for d in lend):
        return [Problem("`lend_mr` is a list of the leaders this move detaches", "3.24b", ["moves", i, "lend_mr"])]
    if not detach:
        return [Problem("`lend_mr` names leaders detached by this move's `detach`", "3.24b",
                        ["moves", i, "lend_mr"])] if lend else []
    order = detach_order(state, force, detach, lend_mr_to=lend)
    return [Problem(p.message, p.rule, ["moves", i, "lend_mr" if p.path[:1] == ["lend_mr_to"] else "detach",
                                        *p.path[1:]])
            for p in order.problems]


def _sl_detach_problem(state: FullGameState, side: str, force, mv: dict, i: int) -> Problem | None:
    """8.25b: only the OC of a force detaches; an SL in it gives no detach order of his own."""
    ld = state["leaders"].get(force) if isinstance(force, str) and mv.get("detach") else None
    if ld is None or ld["side"] != side or not ld.get("superior"):
        return None
    oc = model.top_of(state, force)
    if not state["leaders"][oc].get("hex") or state["leaders"][oc].get("pool"):
        return None
    return Problem(f"{force} is an SL in {oc}'s force: only the OC detaches (give the detach order to {oc})",
                   "8.25b", ["moves", i, "force"])


def move_ap_bill(state: FullGameState, force: str, mv: Mapping[str, Any],
                 detachment: Mapping[str, Any]) -> tuple[int, list[str]]:
    """3.24, 8.25c: the AP the OC pays for the orders of his move ``mv`` -- the detach (1 AP for all,
    8.25c), each MR lent (3.24b), each detachment regiment (8.51, its cost on the Detachment Chart's
    data ``detachment``), the merge (8.25a), each landing captured (8.64a) -- and the bill, item by
    item.  Whatever its dice show, a move pays no other AP but an attack check's (8.41)."""
    from .capture import LANDING_AP
    from .forces import MERGE_AP, detach_order
    from .impulse_moves import detachment_ap

    bill = []
    due = 0
    if mv.get("detach"):
        order = detach_order(state, force, mv["detach"], lend_mr_to=mv.get("lend_mr", []))
        bill.append(f"{order.ap} to detach (8.25c" + (", 3.24b)" if mv.get("lend_mr") else ")"))
        due = order.ap
    if mv.get("detachments"):
        due += len(mv["detachments"]) * detachment_ap(detachment)
        bill.append(f"{len(mv['detachments']) * detachment_ap(detachment)} for detachment regiments (8.51)")
    if mv.get("merge"):
        due += MERGE_AP
        bill.append(f"{MERGE_AP} to merge (8.25a)")
    if isinstance(mv.get("capture_landing"), list) and mv["capture_landing"]:
        due += len(mv["capture_landing"]) * LANDING_AP
        bill.append(f"{len(mv['capture_landing']) * LANDING_AP} to capture landings (8.64a)")
    return due, bill


def _move_ap_problems(state: FullGameState, force: str, mv: dict, i: int, detachment: Mapping[str, Any]) -> list[Problem]:
    """3.24, 8.25c: the OC pays every AP order of his move (:func:`move_ap_bill`) from the AP he has
    when the orders are checked: a move that would run out of AP part-way is refused, not cut short."""
    due, bill = move_ap_bill(state, force, mv, detachment)
    have = state["leaders"][force].get("ap", 0)
    if due <= have or (len(bill) < 2 and not mv.get("merge")):    # a detach alone: its own check
        return []
    return [Problem(f"{force} must pay {due} AP for this move ({', '.join(bill)}) but has {have}: "
                    "the orders would run out of AP part-way", "3.24", ["moves", i])]


def _capture_landing_problems(state: FullGameState, side: str, force: str, mv: dict, i: int) -> list[Problem]:
    """8.64a: the Confederates choose to capture a Union Naval Landing they enter: it is on the move's
    path, not yet captured, and the force has a combat unit, a leader and a wagon to do it."""
    from .capture import _landings, _logistics_hex

    where = ["moves", i, "capture_landing"]
    chosen = mv["capture_landing"]
    if not isinstance(chosen, list) or not all(isinstance(x, str) for x in chosen):
        return [Problem("`capture_landing` is a list of Union Naval Landings on the path", "8.64a", where)]
    if side != "confederate":
        return [Problem("only the Confederates capture Union Naval Landings", "8.64a", where)]
    if model.is_unled(force):
        return [Problem("a landing is captured by a leader's force, with a combat unit and a wagon", "8.64a", where)]
    landings = _landings(state)
    for j, lid in enumerate(chosen):
        ln = landings.get(lid)
        if ln is None:
            return [Problem(f"`{lid}` is not a Union Naval Landing on the map", "8.64a", where + [j])]
        if ln.get("captured") or ln.get("exhausted"):
            return [Problem(f"the landing {lid} has already been captured", "8.64a", where + [j])]
        if str(ln.get("hex")) not in [str(h) for h in mv.get("path") or []]:
            return [Problem(f"the landing {lid} in {ln.get('hex')} is not on {force}'s path: a landing is "
                            "captured by entering its hex", "8.64a", where + [j])]
        kinds = [state["logistics"][x].get("kind") for x in model.force_logistics(state, force)]
        kinds += [s.get("kind") for s in (state.get("logistics") or {}).values()
                  if s.get("side") == side and _logistics_hex(state, s) == str(ln.get("hex"))]
        if not model.units_of(state, force) or "wagon" not in kinds:
            return [Problem(f"to capture the landing {lid} {force} needs a combat unit with him and a wagon "
                            "with him or in its hex", "8.64a", where + [j])]
    return []


def _after_detach(state: FullGameState, force: str, mv: dict) -> FullGameState:
    """The position after ``force``'s legal detach order (a copy): its detached leaders and units are
    forces of their own, which the moves after it may move (8.25b)."""
    import copy

    from .forces import apply_detach, detach_order

    state = copy.deepcopy(state)
    apply_detach(state, detach_order(state, force, mv["detach"], lend_mr_to=mv.get("lend_mr", [])))
    return state


def forces_in_enemy_zoc(state: FullGameState, hm, side: str) -> list[str]:
    zoc = enemy_zoc(state, hm, side)
    return [f for f in model.forces(state, side) if model.force_hex(state, f) in zoc]


def standing_attack_checks(state: FullGameState, hm, side: str) -> list[dict]:
    """8.42a: the least a force that starts in enemy ZOC may be ordered when it stands where it is,
    an attack check against an enemy stack exerting that ZOC (the stand-fast orders of a late side)."""
    from .attack import enemy_zoc as exerted

    zoc, seen = exerted(state, hm, side), enemy_stacks_in_sight(state, side)
    out = []
    for f in forces_in_enemy_zoc(state, hm, side):
        targets = sorted(h for h in zoc.get(model.force_hex(state, f), ()) if h in seen)
        if targets:
            out.append({"force": f, "attack": targets[0]})
    return out


def check_must_attack(state: FullGameState, hm, side: str, moves: list[dict]) -> list[Problem]:
    """8.41/8.42: a force that starts in enemy ZOC must leave it at the start of its move or check to attack."""
    ordered = {mv.get("force"): (i, mv) for i, mv in enumerate(moves) if isinstance(mv, dict)}
    out = []
    for f in forces_in_enemy_zoc(state, hm, side):
        i, mv = ordered.get(f, (None, {}))
        if mv.get("path") or mv.get("attack"):
            continue
        where = ["moves", i] if i is not None else ["moves"]
        out.append(Problem(f"{f} is in enemy ZOC at {model.force_hex(state, f)}: it must leave at the start "
                           "of its move or make an attack check (give `path` or `attack`)", "8.42", where))
    return out


def _off_map_move_problems(state: FullGameState, hm, side: str, mv: dict, i: int,
                           seen: set[str]) -> list[Problem] | None:
    """8.74: an ``off_map`` move is a rail move that leaves at (``leave``) or comes back from
    (``enter``) a friendly map edge.  The problems of a move coming back (None for a move
    leaving: it is checked with the forces on the map)."""
    from .rail import rail_move_problems

    off, force, stations = mv.get("off_map"), mv.get("force"), mv.get("rail")
    where = ["moves", i, "off_map"]
    if off not in OFF_MAP_VALUES:
        return [Problem("`off_map` is `leave` (ride off the map at a friendly edge) or `enter` (come back)",
                        "8.74", where)]
    if not isinstance(stations, list) or not stations or set(mv) - {"force", "rail", "off_map"}:
        return [Problem("an off-map move is `{force, rail: [stations], off_map}` and nothing else: a force "
                        "moving by train makes no other move (8.72)", "8.74", where)]
    if off == "leave":
        return None
    away = {x["force"] for x in state.get("off_map") or [] if x.get("side") == side}
    if force not in away:
        return [Problem(f"`{force}` is not one of your forces off the map"
                        + (f" (off the map: {', '.join(sorted(away))})" if away else ""), "8.74",
                        ["moves", i, "force"])]
    if force in seen:
        return [Problem(f"{force} is ordered to move twice", "8.21", ["moves", i, "force"])]
    seen.add(force)
    return [Problem(p.message, p.rule, ["moves", i, "rail", *p.path])
            for p in rail_move_problems(state, hm, force, stations, entering=True)]


def _detachment_problems(state: FullGameState, force: str, mv: dict, i: int, detachment: Mapping) -> list[Problem]:
    """8.51: the detachment orders of a move, read on the Detachment Chart (``detachment``)."""
    specs = mv.get("detachments", [])          # each {unit, by}: .order_schema.DETACHMENT
    units = set(model.force_units(state, force))
    for j, spec in enumerate(specs):
        where = ["moves", i, "detachments", j]
        if spec["unit"] not in units:
            return [Problem(f"{spec['unit']} is not one of {force}'s units: "
                            f"{', '.join(sorted(units))}", "8.51", where + ["unit"])]
        if _yield(detachment, state["units"][spec["unit"]], spec["by"]) < 1:
            return [Problem(f"{spec['unit']} yields no detachments by {spec['by']} (Detachment Chart)", "8.51",
                            where)]
    cost = detachment_ap(detachment)
    if specs and state["leaders"][force]["ap"] < len(specs) * cost:
        return [Problem(f"{force} has {state['leaders'][force]['ap']} AP; each detachment order costs {cost} AP",
                        "8.51", ["moves", i, "detachments"])]
    return []



# --- 8.6, 8.8, 8.9, 10.8: cavalry, engineers, gunboats: the special orders ----------------

SPECIAL_ORDERS = {"engineers": {"engineer", "lay", "take_up", "hexside"}, "gunboats": {"gunboat", "to"},
                  "screen": {"who", "on"}, "naval": {"embark", "assault"}}


def _army_commander(state: FullGameState, side: str) -> str | None:
    return next((lid for lid, ld in model.on_map_leaders(state, side) if ld.get("hq") and ld["active"]), None)


def _special_order_problems(state: FullGameState, hm, side: str, choice: dict) -> list[Problem]:
    """Shape and legality of engineer, gunboat and screen orders (8.81, 8.91, 8.62), before any die."""
    from . import cavalry, engineers, naval

    for key in SPECIAL_ORDERS:                 # their shapes: .order_schema.SPECIAL
        for i, item in enumerate(choice.get(key, [])):
            if key == "engineers":
                cmd = _army_commander(state, side)
                w = (engineers.lay_pontoon(state, hm, item.get("engineer"), item.get("lay"), item.get("hexside"), cmd)
                     if "lay" in item else engineers.take_up_pontoon(state, hm, item.get("engineer"),
                                                                     item.get("take_up"), cmd))
                if w.problems:
                    p = w.problems[0]
                    return [Problem(p.message, p.rule, [key, i])]
            elif key == "gunboats":
                g = state.get("naval", {}).get("gunboats", {}).get(item.get("gunboat"))
                if g is None or g.get("side") != side:
                    return [Problem(f"`{item.get('gunboat')}` is not one of your gunboats", "8.91", [key, i])]
                found = naval.gunboat_move_problems(state, hm, item["gunboat"], item.get("to"))
                if found:
                    return [Problem(found[0].message, found[0].rule, [key, i])]
            elif key == "naval":
                r = _naval_order(state, hm, item)
                if r is None or r.problems:
                    p = r.problems[0] if r is not None else Problem(
                        "each naval order is {embark: {...}} or {assault: {...}}", "8.92", [])
                    return [Problem(p.message, p.rule, [key, i])]
            else:
                if not _own_screener(state, side, item.get("who")):     # 3.71: no word on enemy ids
                    return [Problem(f"`{item.get('who')}` is not one of your corps leaders or cavalry units",
                                    "8.62", [key, i])]
                sc = cavalry.screen(state, item.get("who"), bool(item.get("on", True)))
                if sc.problems:
                    return [Problem(sc.problems[0].message, sc.problems[0].rule, [key, i])]
    return []


def _own_screener(state: FullGameState, side: str, who) -> bool:
    """8.62: a screen is ordered for one of the side's own leaders or cavalry units."""
    if not isinstance(who, str):
        return False
    rec = state["leaders"].get(who) or state["units"].get(who)
    return rec is not None and rec.get("side") == side


def _naval_order(state: FullGameState, hm, item: dict):
    """8.92a/b: an embarkation or a naval assault, computed (nothing rolled, nothing changed)."""
    from . import naval

    if isinstance(item.get("embark"), dict):
        e = item["embark"]
        return naval.embark(state, hm, e.get("gunboat"), e.get("port"), e.get("units", []),
                            leaders=e.get("leaders", []), wagon=e.get("wagon"))
    if isinstance(item.get("assault"), dict):
        a = item["assault"]
        return naval.naval_assault(state, hm, a.get("gunboat"), a.get("target"), a.get("hexside"))
    return None
