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

from ...geometry.hex import are_adjacent
from ...paths import games_dir
from ..base import Decision, Field, Problem
from . import model
from .movement import path_problems, walk

ORDER_KEYS = {"level", "moves", "standing", "emergency", "combat", "engineers", "gunboats", "screen", "naval",
              "plot", "reveal", "searched"}
MOVE_KEYS = {"force", "detach", "ml_reduction", "reactivate", "path", "attack", "retreat", "step_loss", "merge",
             "detachments", "forced_march", "rail", "cut_rail", "recon", "hide", "off_map"}
OFF_MAP_VALUES = ("leave", "enter")        # 8.74: ride off the map at an edge / come back onto it
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
    from .engineers import pontoon_hexsides

    from .naval import blockaded_hexsides

    hm = hexmap(state)
    return step_cost(hm, weather=weather_of(state), side=side, enemy_occupied=enemy,
                     enemy_zoc=enemy_zoc(state, side), friendly_occupied=model.occupied_hexes(state, side),
                     pontoons=pontoon_hexsides(state, side),
                     blockaded=blockaded_hexsides(state, hm) if state.get("naval") else ())


# --- decisions ----------------------------------------------------------------------------

def orders_decision(state: dict) -> Decision:
    cur = state["current"]
    imp = cur["active_impulse"]
    t, n, side = state["turn"], imp["n"], imp["side"]
    need_level = imp.get("level") is None
    schema = {"moves": Field("list", "the forces' moves, in the order they move (8.21)"),
              "standing": Field("dict", "standing orders for the enemy's next assaults: "
                                        "{defence: {react: [...], retreat: [...]}} (9.0)", optional=True),
              "emergency": Field("dict", "emergency supply: {force: wagon or depot to consume} (7.35)",
                                 optional=True),
              "combat": Field("dict", "combat choices: {order: [target hexes], losses: [your units, first to "
                                      "lose], artillery: true, extended_battle: false} (10.x)", optional=True),
              "engineers": Field("list", "pontoon work: {engineer, lay: PONTOON, hexside} or "
                                         "{engineer, take_up: PONTOON} (8.81)", optional=True),
              "gunboats": Field("list", "gunboat moves: {gunboat, to: HEXSIDE} (8.91)", optional=True),
              "screen": Field("list", "screens on or off: {who: corps leader or cavalry unit, on: true} (8.62)",
                              optional=True),
              "naval": Field("list", "Union naval assault: {embark: {gunboat, port, units}} at the start, "
                                     "{assault: {gunboat, target, hexside}} (8.92)", optional=True),
              "plot": Field("list", "open games: hidden forces moved this impulse, {force, commitment} "
                                    "(`hxref plot`, 8.62a)", optional=True),
              "reveal": Field("list", "open games: hidden forces that appear, {force, plots: [{hex, salt}]} "
                                      "(`hxref plot --reveal`, 8.62a)", optional=True),
              "searched": Field("list", "open games: answers to enemy searches, {search, found: [forces]} "
                                        "(8.61c)", optional=True)}
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
    return _check_orders(state, side, choice)


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
    if "combat" in choice:
        imp["combat"] = choice["combat"]
    if "standing" in choice:
        state.setdefault("standing", {})[side] = choice["standing"]
        events.append({"type": "standing", "side": side, "private": True, "rule": "9.0",
                       "text": f"{side} leaves standing orders for its defence"})
    _impulse_start(state, side, events)
    _hidden_orders(state, side, choice, dice, events)
    _special_orders(state, side, choice, dice, events)
    # 4.21 / 7.34: supply states, locked for the whole impulse; emergency supply consumes (7.35)
    imp["supply"] = _supply_states(state, side, choice.get("emergency") or {}, events, spend_own_use=True)
    events.append({"type": "supply", "side": side, "private": True, "rule": "7.34",
                   "states": imp["supply"],
                   "text": "supply: " + ", ".join(f"{f} {s['state']}" for f, s in sorted(imp["supply"].items()))})
    imp["mp"] = {}
    _hidden_plots(state, side, choice, dice, events)
    for mv in choice.get("moves", []):
        force = mv["force"]
        if mv.get("off_map") == "enter":          # 8.74: coming back by train from off the map
            _rail_move(state, side, force, mv["rail"], events, "enter")
            continue
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


def _move_one(state: dict, side: str, force: str, mv: dict, dice, events: list[dict]) -> None:
    imp = state["current"]["active_impulse"]
    hm = hexmap(state)
    start_hex = model.force_hex(state, force)
    for piece in mv.get("detach", []):
        _detach(state, force, piece, events)
    for spec in mv.get("detachments", []):
        _create_detachments(state, force, spec, events)
    if not model.is_unled(force) and not state["leaders"][force]["active"]:
        if not _reactivate(state, force, mv.get("reactivate"), dice, events):
            return
    zoc = enemy_zoc(state, side)
    if mv.get("rail"):              # 8.72: by train, no other movement this impulse
        _rail_move(state, side, force, mv["rail"], events, mv.get("off_map"))
        return
    if not mv.get("path"):          # staying put: no IMC roll (8.23), perhaps an attack check
        if start_hex in zoc or mv.get("attack"):
            _attack_check(state, side, force, mv, dice, events)
        elif mv.get("hide"):        # 8.62a: it may vanish where it stands
            _hide(state, side, force, events)
        return
    mp = _imc_roll(state, force, imp, mv, dice, events)
    if mp is None:
        return
    cost = cost_fn(state, side)
    march = _forced_march(state, side, force, mp, mv, dice, events) if mv.get("forced_march") else None
    if march is not None and march.success:
        from .forced_march import march_step_cost

        cost = march_step_cost(hm, weather=weather_of(state), side=side,
                               enemy_occupied=model.occupied_hexes(state, model.other_side(side)),
                               enemy_zoc=zoc, friendly_occupied=model.occupied_hexes(state, side))
    cuts = [h for h in mv.get("cut_rail", []) if h in mv.get("path", [])]
    if cuts:                                        # 8.63: +3 MP to cut the line in each of these hexes
        from .rail import with_cuts

        cost = with_cuts(cost, cuts, hm)
    path = mv.get("path", [])
    if march is not None and march.deactivate:      # 8.31b: no entry into enemy ZOC with this move
        from .forced_march import truncate_at_zoc

        path = truncate_at_zoc(path, zoc)
    w = walk(path, start=start_hex, mp=mp, hexmap=hm, cost=cost, enemy_zoc=zoc)
    w = _legal_stop(state, side, force, w)
    _relocate(state, force, w.end)
    imp["mp"][force] = {"rolled": mp, "spent": w.spent}
    _captures_and_cuts(state, side, force, w.hexes[1:], cuts, events)
    if march is not None:
        from .forced_march import apply_march_end

        if apply_march_end(state, march) is not None:
            imp["involuntary"].append(march.oc)          # 11.0: paid for all the same
            events.append({"type": "deactivated", "side": side, "force": force, "rule": "8.31b",
                           "text": f"{_name(state, force)} is deactivated at the end of the forced march"})
    if len(w.hexes) > 1 and weather_of(state) == "Blizzard":
        from .weather import apply_blizzard_loss, blizzard_loss

        loss = blizzard_loss(state, force)
        if loss.hits:
            apply_blizzard_loss(state, loss)
            events.append({"type": "blizzard", "side": side, "private": True, "rule": "5.29", "text": loss.why})
    if len(w.hexes) > 1:
        events.append({"type": "move", "side": side, "force": force, "path": w.hexes, "rule": w.rule,
                       "text": f"{_name(state, force)} moves {' > '.join(w.hexes)} ({w.stopped})"})
        events.append({"type": "move.mp", "side": side, "private": True, "force": force, "mp": mp,
                       "spent": w.spent, "rule": "8.22",
                       "text": f"{_name(state, force)}: {mp} MP rolled, {w.spent:g} used"})
    here = model.force_hex(state, force)
    if mv.get("recon"):
        _recon(state, side, force, mv["recon"], dice, events)
    if mv.get("hide"):
        _hide(state, side, force, events)
    if mv.get("merge"):
        _merge(state, side, force, mv["merge"], events)
    if here in zoc or mv.get("attack"):
        _attack_check(state, side, force, mv, dice, events)


def finish(state: dict, events: list[dict], dice=None) -> None:
    """4.25 / 11.0: pay the leaders; the impulse goes into the turn's record."""
    cur = state["current"]
    if state.get("naval") and dice is not None:
        _naval_combats(state, dice, events)
    if cur["active_impulse"]["assaults"]:
        combat_sequence(state, dice, events)
    _impulse_end(state, events)
    imp = cur.pop("active_impulse")
    side = imp["side"]
    pay = _leader_pay(state, side, imp["involuntary"])
    state["wep"][side] -= pay
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

def _supply_states(state: dict, side: str, emergency: dict | None = None,
                   events: list[dict] | None = None, spend_own_use: bool = False) -> dict[str, dict]:
    """4.21 / 7.1-7.35: every force's supply state, locked for the impulse (7.34)."""
    from .supply import supply_status

    # 7.35a: Own Use markers are spent at the start of the owner's own impulse (here: the next one)
    own_use = [lid for lid, ld in model.on_map_leaders(state, side) if ld.get("own_use")
               and not ld.get("superior")] if spend_own_use else []
    from .engineers import pontoon_hexsides

    result = supply_status(state, side, hexmap(state), emergency=emergency or {}, own_use=own_use,
                           rail_cuts=state.get("rail_cuts") or [], pontoons=pontoon_hexsides(state, side))
    for lid in own_use:
        state["leaders"][lid].pop("own_use", None)
        if events is not None:
            events.append({"type": "own.use", "side": side, "private": True, "rule": "7.35a",
                           "text": f"{state['leaders'][lid]['name']} spends an Own Use marker: full supply"})
    for sid in result.consumed:                     # 7.35: the wagon or depot is used up
        kind = state["logistics"][sid]["kind"]
        del state["logistics"][sid]
        if events is not None:
            events.append({"type": "emergency.supply", "side": side, "rule": "7.35",
                           "text": f"{side} uses up a {kind} for emergency supply (7.35)"})
    return {f: {"state": fs.state.value if hasattr(fs.state, "value") else str(fs.state),
                "in_communication": fs.in_communication, "mp_halved": fs.mp_halved,
                "cf_halved": fs.cf_halved, "reason": fs.reason}
            for f, fs in result.forces.items()}


REACTIVATION_METHODS = {"roll": 1, "order": 2, "wdo": 3, "imc": 4, 1: 1, 2: 2, 3: 3, 4: 4}


def _reactivate(state: dict, force: str, method, dice, events: list[dict]) -> bool:
    """8.12: an inactive OC may try one method; without one his IMC roll is method 4."""
    if method is None:
        return True     # the IMC roll with the inactive MR is the attempt (method 4)
    from .imc import apply_reactivation, reactivation

    imp = state["current"]["active_impulse"]
    side = imp["side"]
    commander = next((lid for lid, ld in model.on_map_leaders(state, side) if ld.get("hq") and ld["active"]),
                     None)
    from .reorganization import wdo_used

    r = reactivation(state, force, REACTIVATION_METHODS.get(method, 0), dice, commander=commander,
                     hexmap=hexmap(state), wep=state["wep"][side], wdo_used=wdo_used(state, side) > 0,
                     level=imp["level"], supply=imp["supply"].get(force, {}).get("state", "full"))
    if r.problems:
        events.append({"type": "reactivation.refused", "side": side, "force": force, "rule": "8.12", "private": True,
                       "text": f"{_name(state, force)}: reactivation not possible: {r.why}"})
        return False
    apply_reactivation(state, r)
    if r.wep:
        state["wep"][side] -= r.wep
        wdo = state["current"].setdefault("wdo", {})
        wdo[side] = wdo.get(side, 0) + 1             # 3.41a: one limited WDO a turn per side
    events.append({"type": "reactivation", "side": side, "force": force, "success": r.success, "rule": "8.12",
                   "text": f"{_name(state, force)} " + ("reactivates" if r.success else "stays inactive")})
    events.append({"type": "reactivation.detail", "side": side, "private": True, "rule": "8.12",
                   "text": f"{_name(state, force)}: {r.why}"})
    if r.success and r.imc is not None:      # method 4: he moves with the MP obtained
        imp.setdefault("mp_from_reactivation", {})[force] = r.imc.mp
    return r.success


def _imc_roll(state: dict, force: str, imp: dict, mv: dict, dice, events: list[dict]):
    """8.21/8.22: the force's MP for this impulse, or None when it does not move."""
    from .imc import apply_imc, imc_roll

    side = imp["side"]
    known = imp.get("mp_from_reactivation", {}).pop(force, None)
    if known is not None:
        return known
    res = imc_roll(state, force, imp["level"], dice, supply=imp["supply"].get(force, {}).get("state", "full"),
                   voluntary_ml=int(mv.get("ml_reduction", 0) or 0), hexmap=hexmap(state))
    if res.problems:
        events.append({"type": "imc.refused", "side": side, "force": force, "rule": res.rule, "private": True,
                       "text": f"{_name(state, force)} does not move: {res.why}"})
        return None
    apply_imc(state, res)
    events.append({"type": "imc", "side": side, "force": force, "private": True, "mp": res.mp, "rule": res.rule,
                   "text": f"{_name(state, force)}: {res.why}"})
    if res.deactivates:
        imp["involuntary"].append(res.oc)
        events.append({"type": "deactivated", "side": side, "force": force, "rule": "8.11",
                       "text": f"{_name(state, force)} fails to get moving and is deactivated (8.11)"})
        if state.get("options", {}).get("sickness"):          # 8.13 (optional): is he ill?
            from .sickness import apply_sickness, sickness_check

            sick = sickness_check(state, res.oc, dice)
            if not sick.problems:
                apply_sickness(state, sick)
                events.append({"type": "sickness", "side": side, "private": True, "rule": sick.rule,
                               "text": sick.why})
        return None
    return res.mp


def _stacking_problems(state: dict, side: str, force: str, label: str) -> list[Problem]:
    from .forces import check_hex

    if label == model.force_hex(state, force):
        return []
    return check_hex(state, label, side, extra=[force]).problems


def _attack_check(state: dict, side: str, force: str, mv: dict, dice, events: list[dict]) -> None:
    """8.41/8.42: a force in enemy ZOC checks against the ordered target, or a stack whose ZOC holds it."""
    from .attack import apply_attack_check, attack_check
    from .attack import enemy_zoc as zoc_sources

    imp = state["current"]["active_impulse"]
    hm = hexmap(state)
    here = model.force_hex(state, force)
    candidates = sorted(zoc_sources(state, hm, side).get(here, set()))
    wanted = mv.get("attack")
    if candidates:      # 8.41: compulsory, against the ordered stack if it is one of those exerting ZOC
        target = wanted if wanted in candidates else candidates[0]
    elif wanted and wanted in model.occupied_hexes(state, model.other_side(side)) and \
            are_adjacent(hm.parse(here), hm.parse(wanted)):
        target = wanted  # 8.4: optional, against adjacent enemy units that exert no ZOC on the force
    else:
        if wanted:
            events.append({"type": "attack.void", "side": side, "force": force, "rule": "8.4",
                           "text": f"{_name(state, force)} ends in {here}, not adjacent to {wanted}: no attack"})
        return
    r = attack_check(state, hm, force, target, dice, retreat_to=mv.get("retreat"), step_loss=mv.get("step_loss"))
    if r.problems:
        r = attack_check(state, hm, force, target, dice)
    if r.problems:
        events.append({"type": "attack.refused", "side": side, "force": force, "rule": r.rule, "private": True,
                       "text": f"{_name(state, force)}: {r.why}"})
        return
    new_id = apply_attack_check(state, r)
    # what the enemy sees: the check, its die and the Assault marker or the retreat on the map (D-20);
    # which unit lost the step and the ML change stay on the attacker's display (3.71)
    public = (f"{_name(state, new_id)} checks to attack {target}: rolled {r.roll} against "
              f"{'inverted ML' if r.unled else 'BR'} {r.rating}: "
              + ("passes; Assault marker placed" + (" (hasty, no AP)" if r.hasty else "") if r.passed
                 else "fails" + (f" and retreats to {r.retreat_to}" if r.retreat_to else "")))
    events.append({"type": "attack.check", "side": side, "force": force, "target": target, "passed": r.passed,
                   "rule": r.rule, "text": public})
    events.append({"type": "attack.check.detail", "side": side, "private": True, "rule": r.rule,
                   "text": f"{_name(state, new_id)}: {r.why}"})
    if r.passed and r.assault is not None:
        a = r.assault
        imp["assaults"].append({"force": a.attacker, "source": a.source, "target": a.target, "hasty": a.hasty})


def _leader_pay(state: dict, side: str, involuntary: list[str]) -> int:
    from .forces import leader_pay

    return leader_pay(state, side, involuntary).amount


# --- the defender's decision (9.0-9.2) ----------------------------------------------------

class _Probe(Exception):
    """Raised by :class:`_ProbeDice`: the attempt is legal and would roll now."""


class _ProbeDice:
    """Dice for checking a defence file before it is stored: legality is known before any roll."""

    def d6(self, *a, **k):
        raise _Probe()

    def roll(self, *a, **k):
        raise _Probe()


def _assaults(state: dict) -> list:
    from .attack import Assault

    imp = state["current"]["active_impulse"]
    return [Assault(a["force"], a["source"], a["target"], a.get("hasty", False)) for a in imp["assaults"]]


def _assault_on(state: dict, target: str):
    return next((a for a in _assaults(state) if a.target == target), None)


def _defence_problems(state: dict, side: str, choice: dict) -> list[Problem]:
    from .reaction import pre_combat_retreat, reaction

    hm = hexmap(state)
    targets = {a.target for a in _assaults(state)}
    for key, fields in (("react", {"force", "against", "to", "commander", "lend_mr"}),
                        ("retreat", {"force", "to", "rear_guard", "rear_guard_leader"})):
        items = choice.get(key, [])
        if not isinstance(items, list):
            return [Problem(f"`{key}` is a list", "9.0", [key])]
        for i, item in enumerate(items):
            if not isinstance(item, dict) or "force" not in item:
                return [Problem(f"each `{key}` entry is a mapping with `force`", "9.0", [key, i])]
            bad = set(item) - fields
            if bad:
                return [Problem(f"unknown key `{sorted(bad)[0]}` (allowed: {', '.join(sorted(fields))})", "9.0",
                                [key, i, sorted(bad)[0]])]
            if item["force"] not in model.forces(state, side):
                return [Problem(f"`{item['force']}` is not one of your forces on the map", "9.0", [key, i, "force"])]
            against = item.get("against") if key == "react" else model.force_hex(state, item["force"])
            assault = _assault_on(state, against) if against else None
            if assault is None:
                return [Problem(f"no assault is declared against {against}; assaulted hexes: "
                                f"{', '.join(sorted(targets)) or 'none'}", "9.0", [key, i])]
            try:
                if key == "react":
                    r = reaction(state, hm, item["force"], assault, _ProbeDice(), commander=item.get("commander"),
                                 lend_mr=bool(item.get("lend_mr")), destination=item.get("to"))
                else:
                    r = pre_combat_retreat(state, hm, item["force"], assault, to=item.get("to"),
                                           rear_guard=item.get("rear_guard", []),
                                           rear_guard_leader=item.get("rear_guard_leader"))
            except _Probe:
                continue
            if r.problems:
                p = r.problems[0]
                return [Problem(p.message, p.rule, [key, i, *p.path])]
    return []


def resolve_defence(state: dict, answers: dict, dice, events: list[dict]) -> None:
    """9.1 reactions one at a time, then 9.2 pre-combat retreats (with overruns and pursuit)."""
    from .reaction import apply_pre_combat_retreat, apply_reaction, pre_combat_retreat, reaction

    imp = state["current"]["active_impulse"]
    side = model.other_side(imp["side"])
    choice = answers[side]
    hm = hexmap(state)
    for item in choice.get("react", []):
        assault = _assault_on(state, item.get("against"))
        if assault is None or item["force"] not in model.forces(state, side):
            continue
        r = reaction(state, hm, item["force"], assault, dice, commander=item.get("commander"),
                     lend_mr=bool(item.get("lend_mr")), destination=item.get("to"))
        if r.problems:
            events.append({"type": "reaction.void", "side": side, "force": item["force"], "rule": r.rule,
                           "private": True,
                           "text": f"{_name(state, item['force'])}: no reaction: {r.why}"})
            continue
        apply_reaction(state, r)
        events.append({"type": "reaction", "side": side, "force": item["force"], "success": r.success,
                       "rule": r.rule, "text": f"{_name(state, item['force'])} tries to react (rolled {r.roll}): "
                       + (f"moves to {r.destination}" if r.success else "fails")})
        events.append({"type": "reaction.detail", "side": side, "private": True, "rule": r.rule,
                       "text": f"{_name(state, item['force'])}: {r.why}"})
    for item in choice.get("retreat", []):
        if item["force"] not in model.forces(state, side):
            continue
        assault = _assault_on(state, model.force_hex(state, item["force"]))
        if assault is None:
            continue
        r = pre_combat_retreat(state, hm, item["force"], assault, to=item.get("to"),
                               rear_guard=item.get("rear_guard", []), rear_guard_leader=item.get("rear_guard_leader"))
        if r.problems:
            events.append({"type": "retreat.void", "side": side, "force": item["force"], "rule": r.rule,
                           "private": True,
                           "text": f"{_name(state, item['force'])}: no pre-combat retreat: {r.why}"})
            continue
        apply_pre_combat_retreat(state, r)
        events.append({"type": "retreat.before.combat", "side": side, "force": item["force"], "to": r.to,
                       "rule": r.rule, "text": f"{_name(state, item['force'])} retreats before combat to {r.to}"
                       + (" leaving a rear guard" if r.rear_guard else "")
                       + ("; the rear guard is overrun" if r.overrun is not None and r.overrun.overrun else "")})
        events.append({"type": "retreat.detail", "side": side, "private": True, "rule": r.rule,
                       "text": f"{_name(state, item['force'])}: {r.why}"})
        if r.overrun is not None or r.attacker_advances or r.next_assault is not None:
            for a in imp["assaults"]:
                if a["target"] == assault.target and a["force"] == assault.attacker:
                    if r.next_assault is not None:
                        a.update(force=r.next_assault.attacker, source=r.next_assault.source,
                                 target=r.next_assault.target, hasty=False)
                    elif r.attacker_advances:
                        a["resolved"] = "the attacker advances into the vacated hex (9.22)"
        imp["assaults"] = [a for a in imp["assaults"] if not a.get("resolved")]


# --- 8.25a merging and 8.51 detachments ---------------------------------------------------

def _merge(state: dict, side: str, force: str, other: str, events: list[dict]) -> None:
    from .forces import apply_merge, merge_order

    if other not in model.forces(state, side) or model.force_hex(state, other) != model.force_hex(state, force):
        events.append({"type": "merge.void", "side": side, "private": True, "rule": "8.25a",
                       "text": f"{_name(state, force)} does not meet {other}: no merge"})
        return
    order = merge_order(state, force, other)
    if order.problems:
        events.append({"type": "merge.void", "side": side, "private": True, "rule": "8.25a",
                       "text": f"{_name(state, force)} cannot take {other} along: {order.problems[0].message}"})
        return
    apply_merge(state, order)
    events.append({"type": "merge", "side": side, "private": True, "rule": "8.25a",
                   "text": f"{_name(state, force)} takes {other} along (1 AP)"})


@cache
def detachment_chart() -> dict:
    from ...yamlio import load_data_fast

    return load_data_fast(games_dir() / "heartland" / "charts" / "detachment.yaml")


def _yield(unit: dict, by: str) -> int:
    for row in detachment_chart()["yields"]:
        if row["arm"] == unit["arm"] and row["size"] == unit["size"]:
            return int(row[by])
    return 0


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


def _create_detachments(state: dict, force: str, spec: dict, events: list[dict]) -> None:
    """8.51: 1 AP; the unit loses a step or is removed; the chart says how many detachments it yields."""
    ld = state["leaders"][force]
    unit = state["units"].get(spec.get("unit"))
    if unit is None or unit["steps"] <= 0 or ld["ap"] < 1:
        return
    count = _yield(unit, spec["by"])
    if count < 1:
        return
    ld["ap"] -= 1
    unit["steps"] = 0 if spec["by"] == "removal" else unit["steps"] - 1
    counter = detachment_chart()["detachment"][unit["side"]]
    made = []
    for k in range(count):
        n = 1
        while f"{spec['unit']}-d{n}" in state["units"]:
            n += 1
        uid = f"{spec['unit']}-d{n}"
        state["units"][uid] = {"side": unit["side"], "name": f"Detachment of {unit['name']}", "arm": counter["arm"],
                               "size": counter["size"], "cf": list(counter["cf"]), "ml": list(counter["ml"]),
                               "steps": counter["steps"], "leader": force, "hex": None}
        made.append(uid)
    events.append({"type": "detachments", "side": unit["side"], "private": True, "rule": "8.51",
                   "text": f"{ld['name']} breaks {unit['name']} down by {spec['by'].replace('_', ' ')} into "
                           f"{count} detachment(s): {', '.join(made)} (1 AP; stand-in Detachment Chart)"})


# --- 10.0-10.7: the Combat Sequence ---------------------------------------------------------

WDO_COST = 10        # 3.41a: a War Department Order costs 10 WEP

COMBAT_KEYS = {"order", "losses", "artillery", "advance", "refuse_retreat", "extended_battle"}


def _combat_choices(state: dict, side: str, own: dict | None):
    """A side's combat choices (10.12 artillery, 10.63a loss order, 10.61d advance, 3.54b) from its
    orders (the phasing side) or its standing orders (the defender)."""
    from .combat import Choices

    spec = own if own is not None else state.get("standing", {}).get(side, {}).get("combat", {})
    return Choices(artillery=bool(spec.get("artillery", True)), loss_order=tuple(spec.get("losses", ())),
                   refuse_retreat=spec.get("refuse_retreat"),
                   advance=spec.get("advance") if isinstance(spec.get("advance"), str) else None)


def _combat_events(state: dict, c, events: list[dict]) -> None:
    """Who fought whom, the columns, DRMs, dice and results are public (10.11, D-11); which units took
    the steps stays on each side's own display."""
    from .combat import StepLoss

    public = [line for line in c.lines() if " loses " not in line and "step" not in line.lower()
              or "steps" in line and "inflict" in line]
    lost: dict[str, int] = {}
    for e in c.losses():
        side = state["units"][e.unit]["side"]
        lost[side] = lost.get(side, 0) + 1
    public.append("  steps lost: " + ", ".join(f"{s} {n}" for s, n in sorted(lost.items())) if lost
                  else "  no steps lost")
    events.append({"type": "combat", "target": c.target, "attacker": c.attacker_side, "rule": c.rule,
                   "inflicted": c.inflicted, "retreating": c.retreating, "text": "\n".join(public)})
    for side in (c.attacker_side, c.defender_side):
        mine = [e.why for e in c.effects if isinstance(e, StepLoss) and state["units"][e.unit]["side"] == side]
        if mine:
            events.append({"type": "combat.losses", "side": side, "private": True, "rule": "10.63",
                           "text": f"{side} losses at {c.target}: " + "; ".join(mine)})


def combat_sequence(state: dict, dice, events: list[dict]) -> None:
    """Resolve every standing assault, target by target in the phasing side's order (10.11)."""
    from .attack import Assault
    from .combat import Circumstances, apply_combat, resolve_combat

    cur = state["current"]
    imp = cur["active_impulse"]
    side = imp["side"]
    other = model.other_side(side)
    hm = hexmap(state)
    own = imp.get("combat") or {}
    order = list(own.get("order", []))
    targets = [a["target"] for a in imp["assaults"]]
    targets = [t for t in order if t in targets] + [t for t in dict.fromkeys(targets) if t not in order]
    # 7.35b: supply for combat is judged when the combat is resolved: the phasing side's was locked for
    # the impulse (7.34); the defender's is traced now
    supply = {f: s["state"] for f, s in imp.get("supply", {}).items()}
    supply.update({f: s["state"] for f, s in _supply_states(state, other).items()})
    circ = Circumstances(supply=supply, targets=tuple(targets),
                         doctrine=bool(state.get("options", {}).get("tactical_doctrine")),
                         forced_march=frozenset(imp.get("forced_march", ())),
                         last_impulse=not cur.get("queue") and not any(v > 0 for v in cur["remaining"].values()))
    choices = {side: _combat_choices(state, side, own), other: _combat_choices(state, other, None)}
    fought = []
    for target in targets:
        group = [Assault(a["force"], a["source"], a["target"], a.get("hasty", False))
                 for a in imp["assaults"] if a["target"] == target
                 and a["force"] in model.forces(state, side) and model.force_hex(state, a["force"]) == a["source"]]
        if not group:
            continue
        c = resolve_combat(state, hm, group, dice, circumstances=_with_bombardment(state, circ, group),
                           choices=choices)
        if c.problems:
            events.append({"type": "combat.void", "target": target, "rule": c.rule,
                           "text": f"no combat at {target}: {c.why}"})
            continue
        apply_combat(state, c)
        fought.append(c)
        _combat_events(state, c, events)
        _replacements(state, c, events)
    imp["assaults"] = []
    if fought:
        _extended_battle(state, dice, events, fought, choices)


def _extended_battle(state: dict, dice, events: list[dict], fought: list, choices: dict) -> None:
    """10.7/10.71: the phasing side may fight one extended battle for 1 operation level, then the other."""
    from .attack import Assault
    from .combat import Circumstances, apply_combat, extended_battle, in_contact, resolve_combat

    cur = state["current"]
    imp = cur["active_impulse"]
    side = imp["side"]
    other = model.other_side(side)
    hm = hexmap(state)
    answers = {side: bool((imp.get("combat") or {}).get("extended_battle")),
               other: bool(state.get("standing", {}).get(other, {}).get("combat", {}).get("extended_battle"))}
    if not any(answers.values()) or not in_contact(state, hm, side):
        return
    eb = extended_battle(side, answers, levels_left=cur["remaining"], earlier=fought)
    events.append({"type": "extended.battle", "rule": eb.rule, "text": eb.why})
    if not eb.chooser:
        return
    cur["remaining"][eb.chooser] -= 1
    contacts = in_contact(state, hm, eb.chooser)
    by_target: dict[str, list] = {}
    for force, target in contacts:
        if any(a.attacker == force for group in by_target.values() for a in group):
            continue          # each force attacks one hex
        by_target.setdefault(target, []).append(Assault(force, model.force_hex(state, force), target, False,
                                                        automatic=True, rule="10.71"))
    circ = Circumstances(supply={f: s["state"] for f, s in imp.get("supply", {}).items()},
                         targets=tuple(by_target), wave_shift_carried=eb.wave_shift_kept,
                         doctrine=bool(state.get("options", {}).get("tactical_doctrine")),
                         forced_march=frozenset(imp.get("forced_march", ())))
    for target, group in by_target.items():
        c = resolve_combat(state, hm, group, dice, circumstances=circ, choices=choices)
        if c.problems:
            continue
        apply_combat(state, c)
        _combat_events(state, c, events)


def _replacements(state: dict, c, events: list[dict]) -> None:
    """3.41(2) / 10.67b: a leader killed in an impulse that is not the turn's last is replaced at once
    by a War Department Order for 10 WEP (his heir takes the command, see combat.Kill)."""
    from .combat import Kill

    for e in c.effects:
        if isinstance(e, Kill) and e.replacement.startswith("now"):
            side = state["leaders"][e.leader]["side"]
            state["wep"][side] -= WDO_COST
            events.append({"type": "replacement", "side": side, "rule": "3.41(2), 10.67b",
                           "text": f"{side} pays {WDO_COST} WEP: a War Department Order replaces "
                                   f"{state['leaders'][e.leader]['name']} (killed)"
                                   + (f"; {state['leaders'][e.heir]['name']} takes the command" if e.heir else "")})


def _forced_march(state: dict, side: str, force: str, mp: int, mv: dict, dice, events: list[dict]):
    """8.31: the Forced March Table roll after the IMC; a success halves CF and artillery in combat (8.31c)."""
    from .forced_march import apply_forced_march, forced_march

    imp = state["current"]["active_impulse"]
    fm = forced_march(state, force, mp, dice, supply=imp["supply"].get(force, {}).get("state", "full"),
                      imc_ml=int(mv.get("ml_reduction", 0) or 0), loss_unit=mv.get("step_loss"))
    if fm.problems:
        events.append({"type": "forced.march.void", "side": side, "private": True, "rule": fm.rule,
                       "text": f"{_name(state, force)}: no forced march: {fm.why}"})
        return None
    apply_forced_march(state, fm)
    if fm.success:
        imp.setdefault("forced_march", []).append(force)
    events.append({"type": "forced.march", "side": side, "private": True, "rule": fm.rule,
                   "text": f"{_name(state, force)}: {fm.why}"})
    return fm


# --- 8.63, 8.64, 8.72: rail, cuts and captures ----------------------------------------------

def _rail_move(state: dict, side: str, force: str, stations: list[str], events: list[dict],
               off_map: str | None = None) -> None:
    from .rail import apply_rail_move, rail_move

    m = rail_move(state, hexmap(state), force, stations, off_map=off_map == "leave", entering=off_map == "enter")
    if m.problems:
        events.append({"type": "rail.void", "side": side, "private": True, "rule": m.rule,
                       "text": f"{_name(state, force)}: no rail move: {m.why}"})
        return
    start = model.force_hex(state, force)
    apply_rail_move(state, m)
    if m.off_map:
        text = f"{_name(state, force)} leaves the map by rail from {start} at the {m.edge} edge (8.74)"
    elif m.entering:
        text = f"{_name(state, force)} comes back onto the map by rail at {stations[0]} and rides to {m.end} (8.74)"
    else:
        text = f"{_name(state, force)} moves by rail from {start} to {m.end}"
    events.append({"type": "rail", "side": side, "force": force, "rule": "8.74" if off_map else m.rule,
                   "text": text})
    events.append({"type": "rail.detail", "side": side, "private": True, "rule": m.rule,
                   "text": f"{_name(state, force)}: {m.why}"})


def _captures_and_cuts(state: dict, side: str, force: str, entered: list[str], cuts: list[str],
                       events: list[dict]) -> None:
    """8.64: what the force takes in the hexes it entered; 8.63: the rail cut where it was ordered."""
    from .capture import apply_capture, captures_on_entry
    from .rail import apply_cut_rail, cut_rail

    for label in entered:
        for c in captures_on_entry(state, force, label):
            if not c.problems:
                apply_capture(state, c)
                events.append({"type": "capture", "side": side, "rule": c.rule,
                               "text": f"{_name(state, force)}: {c.why}"})
        if label in cuts:
            cut = cut_rail(state, hexmap(state), force, label)
            if not cut.problems:
                apply_cut_rail(state, cut)
                events.append({"type": "rail.cut", "side": side, "rule": cut.rule,
                               "text": f"{_name(state, force)} cuts the rail line in {label} (8.63)"})


# --- 8.6, 8.8, 8.9, 10.8: cavalry, engineers, gunboats ----------------------------------------

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
                sc = cavalry.screen(state, item.get("who"), bool(item.get("on", True)))
                if sc.problems:
                    return [Problem(sc.problems[0].message, sc.problems[0].rule, [key, i])]
    return []


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


def _impulse_start(state: dict, side: str, events: list[dict]) -> None:
    """8.81: engineer work ordered earlier is finished at the start of the next Union impulse; pontoons
    with enemy units on a bank are lost; the gunboats' records of the last impulse lapse."""
    from . import engineers, naval

    if side == "union":
        for done in engineers.finish_work(state):
            events.append({"type": "pontoon", "side": "union", "rule": "8.81", "text": done.why})
    losses = engineers.pontoon_losses(state, hexmap(state))
    if losses:
        engineers.apply_pontoon_losses(state, losses)
        for x in losses:
            events.append({"type": "pontoon.lost", "rule": "8.81a", "text": x.why})
    if state.get("naval"):
        naval.new_impulse(state)


def _special_orders(state: dict, side: str, choice: dict, dice, events: list[dict]) -> None:
    from . import cavalry, engineers, naval

    hm = hexmap(state)
    cmd = _army_commander(state, side)
    for item in choice.get("screen", []):
        sc = cavalry.screen(state, item["who"], bool(item.get("on", True)))
        if not sc.problems:
            cavalry.apply_screen(state, sc)
            events.append({"type": "screen", "side": side, "private": True, "rule": sc.rule, "text": sc.why})
    for item in choice.get("engineers", []):
        w = (engineers.lay_pontoon(state, hm, item["engineer"], item["lay"], item.get("hexside"), cmd)
             if "lay" in item else engineers.take_up_pontoon(state, hm, item["engineer"], item["take_up"], cmd))
        if not w.problems:
            engineers.apply_pontoon_work(state, w)
            events.append({"type": "pontoon.work", "side": side, "rule": w.rule, "text": w.why})
    for item in choice.get("naval", []):           # 8.92a: embarking happens at the start of the impulse
        r = _naval_order(state, hm, item)
        if r is not None and not r.problems:
            (naval.apply_embark if "embark" in item else naval.apply_naval_assault)(state, r)
            private = "embark" in item                  # 3.17: the display is on the Union AOD
            events.append({"type": "naval.order", "side": side, "rule": r.rule, "text": r.why,
                           **({"private": True} if private else {})})
    for item in choice.get("gunboats", []):
        m = naval.gunboat_move(state, hm, item["gunboat"], item.get("to"))
        if not m.problems:
            naval.apply_gunboat_move(state, m)
            events.append({"type": "gunboat", "side": side, "rule": m.rule, "text": m.why})


def _naval_combats(state: dict, dice, events: list[dict]) -> None:
    """10.81: the phasing side's gunboats and batteries attack the enemy units they are in contact with."""
    from . import naval

    side = state["current"]["active_impulse"]["side"]
    hm = hexmap(state)
    pairs = naval.contacts(state, hm, side)
    done: set = set()
    for mine, theirs in pairs:
        if (mine, theirs) in done:
            continue
        done.add((mine, theirs))
        r = naval.naval_combat(state, hm, [mine], [theirs], dice, phasing=side)
        if r.problems:
            continue
        naval.apply_naval_combat(state, r)
        events.append({"type": "naval.combat", "rule": r.rule, "text": r.why})


def _with_bombardment(state: dict, circ, group):
    """10.83: gunboat support enters a land combat as a DRM for each side (no ASP)."""
    if not state.get("naval") or not group:
        return circ
    import dataclasses

    from . import naval

    hm = hexmap(state)
    a = group[0]
    attacker_side = model.force_side(state, a.attacker)
    extra = dict(circ.extra_drms)
    for side, role in ((attacker_side, "attack"), (model.other_side(attacker_side), "defence")):
        b = naval.bombardment_drm(state, hm, side, a.source, a.target, role)
        if not b.problems and b.drms:
            naval.apply_bombardment(state, b)
            extra[side] = tuple(extra.get(side, ())) + tuple(b.drms)
    return dataclasses.replace(circ, extra_drms=extra)


def _recon(state: dict, side: str, force: str, spec, dice, events: list[dict]) -> None:
    """8.61: the roll is public; what was found goes to the reconning side only."""
    from .cavalry import apply_recon, recon

    spec = spec if isinstance(spec, dict) else {"target": spec}
    target = spec.get("target")
    units = spec.get("units") or [u for u in model.units_of(state, force) if state["units"][u]["arm"] == "cavalry"]
    r = recon(state, hexmap(state), force, dice, target=target, units=units, search=bool(spec.get("search")))
    if r.problems:
        events.append({"type": "recon.void", "side": side, "private": True, "rule": r.rule,
                       "text": f"{_name(state, force)}: no recon: {r.why}"})
        return
    apply_recon(state, r)
    events.append({"type": "recon", "side": side, "rule": r.rule,
                   "text": f"{_name(state, force)} reconnoitres " + (f"{target}" if target else "around it")})
    if r.search and r.success:                  # 8.61c in open games: the hidden side must answer
        from .cavalry import corps_size
        from .hidden_open import open_mode, record_search

        s = open_mode(state) and record_search(state, model.other_side(side), model.force_hex(state, force),
                                              corps_size(state, force), force)
        if s:
            events.append({"type": "search", "side": side, "rule": "8.61c",
                           "text": f"search {s['id']}: {model.other_side(side)} must say in its next orders which "
                                   f"hidden forces are within {s['range']} of {s['center']} and reveal them"})
    events.append({"type": "recon.report", "side": side, "private": True, "rule": r.rule, "text": str(r.report())})


def _hidden_orders(state: dict, side: str, choice: dict, dice, events: list[dict]) -> None:
    """8.62a / 8.61c in open games: answers to searches, reveals, then this impulse's plots."""
    if not any(k in choice for k in ("plot", "reveal", "searched")):
        return
    from . import hidden_open as ho
    from .terrain import step_cost

    hm = hexmap(state)
    for a in ho.apply_search_answers(state, side, choice):
        events.append({"type": "search.answer", "side": side, "rule": "8.61c",
                       "text": f"{side} answers search {a['id']}: "
                               + (", ".join(_name(state, f) for f in a["found"]) + " found" if a["found"]
                                  else "nothing found")})
    for r in choice.get("reveal", []):
        force = r["force"]
        check = ho.check_reveal(state, hm, force, r["plots"], lambda w: step_cost(hm, weather=w, side=side))
        where = ho.apply_reveal(state, hm, force, check.end)
        events.append({"type": "reveal", "side": side, "force": force, "rule": check.rule,
                       "text": f"{_name(state, force)} appears in {where}: {check.why}"})
        for b in check.breaches:
            events.append({"type": "hidden.breach", "side": side, "force": force, "rule": b.rule,
                           "text": f"BREACH by {side}: {b.message} ({b.rule})"})


def _hidden_plots(state: dict, side: str, choice: dict, dice, events: list[dict]) -> None:
    """8.62a in open games: each plotted force rolls its IMC (as in full supply) for the record."""
    from . import hidden_open as ho

    imp = state["current"]["active_impulse"]
    for s in choice.get("plot", []):
        force = s["force"]
        mp = _imc_roll(state, force, imp, {}, dice, events) or 0
        ho.add_entry(state, hexmap(state), force, s["commitment"], mp, weather_of(state))
        events.append({"type": "plot", "side": side, "force": force, "rule": "8.62a",
                       "text": f"{_name(state, force)} moves hidden with {mp} MP; its plotted hex is committed "
                               f"({s['commitment'][:12]}...)"})


def _hide(state: dict, side: str, force: str, events: list[dict]) -> None:
    """8.62a: a force in a friendly cavalry screen leaves the map; the umpire keeps its hex, or in
    an open game its owner plots it from now on (:mod:`.hidden_open`)."""
    from . import hidden_open as ho
    from .cavalry import apply_hide, hide

    h = hide(state, hexmap(state), force)
    if not h.problems and ho.open_mode(state):
        ho.start(state, force, h.hex)
        events.append({"type": "hide", "side": side, "force": force, "rule": h.rule,
                       "text": f"{_name(state, force)} leaves the map in {h.hex}, hidden under the screen: its "
                               "owner plots it from now on (8.62a)"})
        return
    if not h.problems:
        apply_hide(state, h)
        events.append({"type": "hide", "side": side, "private": True, "rule": h.rule,
                       "text": f"{_name(state, force)} moves hidden under the screen (8.62a)"})


def _impulse_end(state: dict, events: list[dict]) -> None:
    """8.61/8.6: recon attempts lapse; 8.62a: hidden forces that must appear now do so."""
    from .cavalry import apply_reveal, reset_recon, reveals_now

    reset_recon(state)
    hm = hexmap(state)
    if state.get("plots"):                      # 8.62a open games: what each plotted hex must satisfy
        from .hidden_open import checkpoint

        checkpoint(state, hm, state["current"]["active_impulse"]["side"])
    for side in ("union", "confederate"):
        for r in reveals_now(state, hm, side):
            apply_reveal(state, r)
            events.append({"type": "reveal", "side": side, "rule": r.rule,
                           "text": f"a hidden {side} force appears at {model.force_hex(state, r.force)} ({r.reason})"})
