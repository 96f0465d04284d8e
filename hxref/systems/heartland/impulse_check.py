"""Checking an orders file of an activity impulse (:mod:`.impulse`): its keys, the moves (paths, reach,
detachments, rail, forced march, off-map moves, the must-attack rule) and the special orders (engineers,
gunboats, screens, naval), all before any die is rolled."""
from __future__ import annotations

from ..base import Problem
from . import model
from .impulse_combat import COMBAT_KEYS
from .impulse_common import _stacking_problems, cost_fn, enemy_zoc, hexmap
from .impulse_moves import _yield
from .movement import path_problems

ORDER_KEYS = {"level", "moves", "standing", "emergency", "combat", "engineers", "gunboats", "screen", "naval",
              "plot", "reveal", "searched"}
MOVE_KEYS = {"force", "detach", "ml_reduction", "reactivate", "path", "attack", "retreat", "step_loss", "merge",
             "detachments", "forced_march", "rail", "cut_rail", "recon", "hide", "off_map"}
OFF_MAP_VALUES = ("leave", "enter")        # 8.74: ride off the map at an edge / come back onto it
DEFENCE_KEYS = {"react", "retreat"}


# --- checking an orders file --------------------------------------------------------------

def check_orders(state: dict, side: str, choice: dict) -> list[Problem]:
    """What is wrong with ``side``'s orders for the impulse (all of it that can be known now)."""
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
            hm = hexmap(state)
            for r in choice["reveal"]:
                ho.apply_reveal(state, hm, r["force"], ho.open_plots(state, r["force"], r["plots"]).hexes[-1]
                                if r["plots"] else state[ho.KEY][r["force"]]["from"])
    # 3.71, 8.62a: in an umpired game the orders are checked against the side's own map (the
    # enemy's hidden forces off it); running into them is settled at resolution (.fog)
    from .fog import checked_state

    return _check_orders(checked_state(state, side), side, choice)


def _check_orders(state: dict, side: str, choice: dict) -> list[Problem]:
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
    standing = choice.get("standing", {})
    if not isinstance(standing, dict) or set(standing) - {"defence", "combat"}:
        return [Problem("`standing` takes `defence: {react: [...], retreat: [...]}` and `combat: {...}`", "9.0",
                        ["standing"])]
    for where, spec in (("combat", choice.get("combat", {})), ("standing.combat", standing.get("combat", {}))):
        if not isinstance(spec, dict) or set(spec) - COMBAT_KEYS:
            return [Problem(f"`{where}` takes {', '.join(sorted(COMBAT_KEYS))}", "10.11", where.split("."))]
    if "defence" in standing:
        d = standing["defence"]
        if not isinstance(d, dict) or set(d) - DEFENCE_KEYS:
            return [Problem("`standing.defence` has `react` and `retreat` lists", "9.0", ["standing", "defence"])]
    emergency = choice.get("emergency", {})
    if not isinstance(emergency, dict):
        return [Problem("`emergency` maps a force to the wagon or depot it consumes", "7.35", ["emergency"])]
    if emergency:
        from .supply import supply_status

        found = supply_status(state, side, hexmap(state), emergency=emergency).problems
        if found:
            return [Problem(found[0].message, found[0].rule, ["emergency", *found[0].path])]
    problems += _special_order_problems(state, side, choice)
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
        if "off_map" in mv:
            found = _off_map_move_problems(state, side, mv, i, seen)
            if found is not None:
                problems += found
                continue
        if force not in mine:       # 3.71: one answer for any id, an enemy's (hidden or not) or none
            return problems + [Problem(f"`{force}` is not one of your forces on the map; your forces: "
                                       f"{', '.join(sorted(mine))}", "8.21", ["moves", i, "force"])]
        if force in seen:
            return problems + [Problem(f"{force} is ordered to move twice; each force moves once per impulse",
                                       "8.21", ["moves", i, "force"])]
        seen.add(force)
        path = mv.get("path", [])
        if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
            return problems + [Problem("`path` is a list of hex labels in quotes, e.g. [\"0512\", \"0613\"]",
                                       "8.2", ["moves", i, "path"])]
        active = model.is_unled(force) or state["leaders"][force]["active"] or mv.get("reactivate")
        found = path_problems(path, start=model.force_hex(state, force), hexmap=hexmap(state), cost=cost,
                              enemy_zoc=zoc, enemy_occupied=enemy, active=bool(active), index=i)
        problems += found
        if path and not found:
            problems += _reach_problems(state, side, force, path, cost, i, choice.get("level") or imp.get("level"))
        if mv.get("rail"):
            from .rail import rail_move_problems

            stations = mv["rail"]
            if path or not isinstance(stations, list):
                problems.append(Problem("a rail move gives `rail: [stations]` and no `path` (8.72)", "8.72",
                                        ["moves", i, "rail"]))
            else:
                problems += [Problem(p.message, p.rule, ["moves", i, "rail", *p.path])
                             for p in rail_move_problems(state, hexmap(state), force, stations,
                                                         off_map=mv.get("off_map") == "leave")]
        if mv.get("forced_march"):
            from .forced_march import march_path_problems

            if model.is_unled(force) or not state["leaders"][force]["active"]:
                problems.append(Problem("only an active leader's force may force-march", "8.3",
                                        ["moves", i, "forced_march"]))
            elif path:
                problems += march_path_problems(path, start=model.force_hex(state, force), hexmap=hexmap(state),
                                                index=i)
        if not model.is_unled(force):
            problems += _detach_problems(state, force, mv, i)
            problems += _detachment_problems(state, force, mv, i)
        merge = mv.get("merge")
        if merge is not None and (merge not in mine or merge == force):
            problems.append(Problem(f"`merge` names another of your forces to take along (8.25a), not {merge!r}",
                                    "8.25a", ["moves", i, "merge"]))
    return problems + check_must_attack(state, side, moves)


def _reach_problems(state: dict, side: str, force: str, path: list[str], cost, i: int, level) -> list[Problem]:
    """8.22: a path no IMC roll could pay for; 3.22a/3.23: a final hex where the stack would be illegal."""
    from .imc import IMCChart

    hm = hexmap(state)
    total, here = 0.0, model.force_hex(state, force)
    for label in path:
        total += cost(hm.parse(here), hm.parse(label))
        here = label
    if isinstance(level, int) and level >= 1:
        chart = IMCChart.load()
        units = model.units_of(state, force)
        cavalry = bool(units) and all(state["units"][u]["arm"] == "cavalry" for u in units)
        if model.is_unled(force):
            mr = 2 if cavalry else 1
        else:
            mr = model.current_rating(state["leaders"][force], "mr")
        table = min(level + 1, 6) if cavalry else level
        best = chart.lookup(table, mr, min(chart.rows))
        if total > best:
            return [Problem(f"the path costs {total:g} MP; at operation level {level} with MR {mr} {force} can "
                            f"roll at most {best} MP", "8.22", ["moves", i, "path"])]
    stack = _stacking_problems(state, side, force, path[-1])
    if stack:
        return [Problem(f"{force} would end in {path[-1]} in a stack over its limits: {stack[0].message}",
                        stack[0].rule, ["moves", i, "path"])]
    return []


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


def _off_map_move_problems(state: dict, side: str, mv: dict, i: int, seen: set[str]) -> list[Problem] | None:
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
            for p in rail_move_problems(state, hexmap(state), force, stations, entering=True)]


def _detachment_problems(state: dict, force: str, mv: dict, i: int) -> list[Problem]:
    specs = mv.get("detachments", [])
    if not isinstance(specs, list):
        return [Problem("`detachments` is a list of {unit, by: step_loss or removal}", "8.51",
                        ["moves", i, "detachments"])]
    units = set(model.force_units(state, force))
    for j, spec in enumerate(specs):
        where = ["moves", i, "detachments", j]
        if not isinstance(spec, dict) or spec.get("unit") not in units or spec.get("by") not in ("step_loss",
                                                                                               "removal"):
            return [Problem("each detachment names one of the force's units and `by: step_loss` or "
                            "`by: removal`", "8.51", where)]
        if _yield(state["units"][spec["unit"]], spec["by"]) < 1:
            return [Problem(f"{spec['unit']} yields no detachments by {spec['by']} (Detachment Chart)", "8.51",
                            where)]
    if specs and state["leaders"][force]["ap"] < len(specs):
        return [Problem(f"{force} has {state['leaders'][force]['ap']} AP; each detachment order costs 1 AP",
                        "8.51", ["moves", i, "detachments"])]
    return []


# --- 8.6, 8.8, 8.9, 10.8: cavalry, engineers, gunboats: the special orders ----------------

SPECIAL_ORDERS = {"engineers": {"engineer", "lay", "take_up", "hexside"}, "gunboats": {"gunboat", "to"},
                  "screen": {"who", "on"}, "naval": {"embark", "assault"}}


def _army_commander(state: dict, side: str) -> str | None:
    return next((lid for lid, ld in model.on_map_leaders(state, side) if ld.get("hq") and ld["active"]), None)


def _special_order_problems(state: dict, side: str, choice: dict) -> list[Problem]:
    """Shape and legality of engineer, gunboat and screen orders (8.81, 8.91, 8.62), before any die."""
    from . import cavalry, engineers, naval

    hm = hexmap(state)
    for key, fields in SPECIAL_ORDERS.items():
        items = choice.get(key, [])
        if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
            return [Problem(f"`{key}` is a list of mappings", "8.6", [key])]
        for i, item in enumerate(items):
            bad = set(item) - fields
            if bad:
                return [Problem(f"unknown key `{sorted(bad)[0]}` (allowed: {', '.join(sorted(fields))})", "8.6",
                                [key, i])]
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


def _own_screener(state: dict, side: str, who) -> bool:
    """8.62: a screen is ordered for one of the side's own leaders or cavalry units."""
    if not isinstance(who, str):
        return False
    rec = state["leaders"].get(who) or state["units"].get(who)
    return rec is not None and rec.get("side") == side


def _naval_order(state: dict, hm, item: dict):
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
