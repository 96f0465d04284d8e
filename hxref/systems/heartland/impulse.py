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

The module is the façade of the impulse and holds its life cycle (the decisions, start, resolution,
finish); the layers live in :mod:`.impulse_check` (checking an orders file), :mod:`.impulse_moves`
(moving the forces and what they do during a move), :mod:`.impulse_combat` (attack checks, the
Combat Preparation and Combat Sequences) and :mod:`.impulse_conditions` (the weather, ZOC, costs
and supply they share).  The game's map (``hm``) and charts (a :class:`~hxref.kit.charts.Charts`)
come in as arguments: a step that needs a chart takes the charts, one that reads only the map
takes the map.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from .state_types import FullGameState
from ..base import Decision, Field, Problem
from . import model
from .impulse_check import (DEFENCE_KEYS, MOVE_KEYS, OFF_MAP_VALUES, ORDER_KEYS, SPECIAL_ORDERS, _army_commander,
                            _naval_order, check_must_attack, check_orders, forces_in_enemy_zoc)
from .impulse_combat import COMBAT_KEYS, WDO_COST, _defence_problems, _naval_combats, combat_sequence, resolve_defence
from .impulse_conditions import _supply_states, cost_fn, enemy_zoc, weather_of
from .views import wep_event
from .impulse_moves import REACTIVATION_METHODS, _hidden_orders, _hidden_plots, _move_one, _rail_move
from .impulse_moves import _move_alone
from . import wagons
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

__all__ = [      # what other modules, tools and tests take from here (re-exported from the layers)
    "COMBAT_KEYS", "DEFENCE_KEYS", "MOVE_KEYS", "OFF_MAP_VALUES", "ORDER_KEYS", "REACTIVATION_METHODS",
    "SPECIAL_ORDERS", "WDO_COST", "check_defence", "check_must_attack", "check_orders", "combat_sequence",
    "cost_fn", "defence_decision", "enemy_zoc", "finish", "forces_in_enemy_zoc", "orders_decision",
    "resolve_defence", "resolve_orders", "start", "weather_of",
]


# --- decisions ----------------------------------------------------------------------------

def orders_decision(state: FullGameState) -> Decision:
    cur = state["current"]
    imp = cur["active_impulse"]
    t, n, side = state["turn"], imp["n"], imp["side"]
    need_level = imp.get("level") is None
    from . import order_schema as osc

    schema = {"moves": Field("list", "the forces' moves, in the order they move (8.21)", items=osc.MOVE),
              "standing": osc.STANDING,
              "emergency": Field("dict", "emergency supply: {force: wagon or depot to consume} (7.35)",
                                 optional=True, rule="7.35", values=Field("str", "a wagon or depot of yours")),
              "remove": Field("list", "your wagons and depots taken off the map so that the enemy cannot "
                                      "capture them (7.21, 7.22)", optional=True),
              "depots": osc.DEPOTS,
              "combat": osc.COMBAT,
              "deactivate": osc.DEACTIVATE,
              "exhaust": Field("list", "captured Union Naval Landings the Union declares exhausted (8.64a)",
                               optional=True, rule="8.64a", items=Field("str", "a landing's id")),
              "engineers": replace(osc.SPECIAL["engineers"], help="pontoon work: {engineer, lay: PONTOON, hexside} "
                                                                  "or {engineer, take_up: PONTOON} (8.81)"),
              "gunboats": replace(osc.SPECIAL["gunboats"], help="gunboat moves: {gunboat, to: HEXSIDE} (8.91)"),
              "screen": replace(osc.SPECIAL["screen"], help="screens on or off: {who: corps leader or cavalry "
                                                            "unit, on: true} (8.62)"),
              "naval": replace(osc.SPECIAL["naval"], help="Union naval assault: {embark: {gunboat, port, units}} "
                                                          "at the start, {assault: {gunboat, target, hexside}} (8.92)"),
              "plot": Field("list", "open games: hidden forces moved this impulse, {force, commitment} "
                                    "(`hxref heartland plot`, 8.62a)", optional=True),
              "reveal": Field("list", "open games: hidden forces that appear, {force, plots: [{hex, salt}]} "
                                      "(`hxref heartland plot --reveal`, 8.62a)", optional=True),
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


def defence_decision(state: FullGameState) -> Decision:
    from .order_schema import DEFENCE

    imp = state["current"]["active_impulse"]
    side = model.other_side(imp["side"])
    return Decision(
        id=f"t{state['turn']}.i{imp['n']}.defence", sides=(side,), kind="defence", rule="9.0", dice=True,
        prompt=("assaults are declared against you: give reactions (9.1) and pre-combat retreats (9.2), "
                "or an empty answer to stand"),
        schema=dict(DEFENCE),
        example={"react": [], "retreat": []},
    )


def check_defence(state: FullGameState, hm, side: str, choice: dict) -> list[Problem]:
    """The rules' problems of a defence whose shape fits its schema (checked first, in
    :mod:`hxref.referee.orders`), on the game's map ``hm``."""
    from . import fog

    # 3.71, 8.62a: in umpired games the defender's reactions and retreats are checked against what
    # it sees, so a refusal never confirms an enemy force hidden from it
    return _defence_problems(fog.checked_state(state, side), hm, side, choice)


# --- the impulse's life -------------------------------------------------------------------

def start(state: FullGameState, hm, imp: Mapping[str, Any], events: list[Event]) -> None:
    """Begin an impulse of the full game on its map ``hm``: it waits for the phasing side's orders."""
    cur = state["current"]
    n = len(cur["impulses"]) + 1
    cur["active_impulse"] = {"n": n, "side": imp["side"], "level": imp["level"], "fixed": imp["fixed"],
                             "rule": imp["rule"], "stage": "orders", "assaults": [], "involuntary": []}
    events.append(event("impulse.start",
                        f"impulse {n}: {imp['side']} " + (f"at operation level {imp['level']} (set by the bid)"
                                                          if imp["level"] else "declares its level"), imp["rule"],
                        n=n, side=imp["side"], level=imp["level"]))
    if state.get("reinforcements"):             # 6.1: they enter before the impulse's orders
        from .reinforcements import arrival_text, arrive

        for a in arrive(state, hm, imp["side"]):
            events.append(event("reinforcements", arrival_text(state, a), a.rule, side=a.side, entry=a.entry,
                                hex=a.hex, visible_to=[a.side]))


def resolve_orders(state: FullGameState, answers: dict, dice, events: list[Event], *, charts: Charts) -> bool:
    """Supply, then every ordered move with its IMC roll and attack check, on the game's map and
    charts (``charts``); True when the impulse is over."""
    hm = charts.map(state["map"])
    cur = state["current"]
    imp = cur["active_impulse"]
    side = imp["side"]
    choice = answers[side]
    if imp["level"] is None:
        imp["level"] = choice["level"]
        cur["remaining"][side] -= choice["level"]
        events.append(event("level", f"{side} declares operation level {choice['level']} for impulse {imp['n']}",
                            "5.15", side=side, level=choice["level"]))
    if "combat" in choice:
        imp["combat"] = choice["combat"]
    if choice.get("deactivate"):            # 8.12a: carried out at the end of the impulse (finish)
        imp["deactivate"] = list(choice["deactivate"])
    if "standing" in choice:
        state.setdefault("standing", {})[side] = choice["standing"]
        events.append(event("standing", f"{side} leaves standing orders for its defence", "9.0", side=side,
                            visible_to=[side]))
    _impulse_start(state, hm, side, events)
    _hidden_orders(state, hm, side, choice, dice, events)
    _special_orders(state, hm, side, choice, dice, events)
    _removals(state, side, choice.get("remove", []), events)
    _depots(state, hm, side, choice.get("depots") or [], events)
    if choice.get("exhaust"):               # 8.64a: the Union flips its captured landings
        from .capture import exhaust_landings

        events += exhaust_landings(state, side, choice["exhaust"])
    # 4.21 / 7.34: supply states, locked for the whole impulse; emergency supply consumes (7.35)
    imp["supply"] = _supply_states(state, hm, side, choice.get("emergency") or {}, events, spend_own_use=True)
    events.append(event("supply",
                        "supply: " + ", ".join(f"{f} {s['state']}" for f, s in sorted(imp["supply"].items())), "7.34",
                        side=side, states=imp["supply"], visible_to=[side]))
    imp["mp"] = {}
    _hidden_plots(state, hm, side, choice, dice, events, charts=charts)
    left = wagons.unhook(state, side, choice.get("moves", []))      # 7.21: wagons ordered alone
    for mv in choice.get("moves", []):
        force = mv["force"]
        if mv.get("off_map") == "enter":          # 8.74: coming back by train from off the map
            _rail_move(state, hm, side, force, mv["rail"], events, "enter")
            continue
        if wagons.is_lone_mover(state, side, force):      # 7.21, 8.81: a wagon or pontoon on its own
            _move_alone(state, hm, side, force, mv, events, left.get(force))
            continue
        if force not in model.forces(state, side):
            events.append(event("move.void", f"{force} is no longer a force on the map: its move is void", "8.21",
                                side=side, force=force))
            continue
        _move_one(state, hm, side, force, mv, dice, events, charts=charts)
    imp["stage"] = "moved"
    if not imp["assaults"]:
        return True
    standing = state.get("standing", {}).get(model.other_side(side), {}).get("defence")
    if standing is not None:
        events.append(event("standing", f"{model.other_side(side)} answers with its standing orders", "9.0",
                            side=model.other_side(side)))
        resolve_defence(state, hm, {model.other_side(side): standing}, dice, events)
        return True
    imp["stage"] = "defence"
    return False


def finish(state: FullGameState, events: list[Event], dice=None, *, charts: Charts) -> None:
    """4.25 / 11.0: the impulse's naval combats and Combat Sequence (on the game's map and charts,
    ``charts``); pay the leaders; the impulse goes into the turn's record."""
    cur = state["current"]
    if state.get("naval") and dice is not None:
        _naval_combats(state, dice, events, charts=charts)
    if cur["active_impulse"]["assaults"]:
        from .capture_combat import captures_after_combat, held_before

        assaults = list(cur["active_impulse"]["assaults"])
        held = held_before(state, assaults)
        combat_sequence(state, dice, events, charts=charts)
        events += captures_after_combat(state, assaults, held)     # 8.64: hexes cleared by combat
    _impulse_end(state, charts.map(state["map"]), events)
    imp = cur.pop("active_impulse")
    side = imp["side"]
    voluntary = _voluntary_deactivations(state, side, imp.get("deactivate", []), events)
    pay = _leader_pay(state, side, imp["involuntary"], voluntary, events)
    state["wep"][side] -= pay
    cur["impulses"].append({"n": imp["n"], "side": side, "level": cast(int, imp["level"]), "fixed": imp["fixed"],
                            "rule": imp["rule"], "pay": pay, "assaults": imp["assaults"]})
    events.append(event("impulse", None, "4.25", n=imp["n"], side=side, level=imp["level"],
                        how="set by the bid" if imp["fixed"] else "declared", pay=pay))
    events.append(wep_event(state, side, "4.25"))


def _voluntary_deactivations(state: FullGameState, side: str, names: list[str], events: list[Event]) -> list[str]:
    """8.12a: the leaders the orders deactivate, flipped now, before the pay."""
    if not names:
        return []
    from .deactivation import deactivate_at_impulse_end

    return deactivate_at_impulse_end(state, side, names, events)


def _leader_pay(state: FullGameState, side: str, involuntary: list[str], voluntary: list[str],
                events: list[Event]) -> int:
    from .forces import leader_pay

    pay = leader_pay(state, side, involuntary, voluntary)
    if voluntary:                           # 11.0: say who is not paid, and why
        events.append(event("pay", f"{side} pays its leaders: {pay.why}", pay.rule, side=side, wep=pay.amount,
                            visible_to=[side]))
    return pay.amount


# --- 8.6, 8.8, 8.9: special orders at the impulse's start and end -------------------------

def _impulse_start(state: FullGameState, hm, side: str, events: list[Event]) -> None:
    """8.81: engineer work ordered earlier is finished at the start of the next Union impulse; pontoons
    with enemy units on a bank are lost; the gunboats' records of the last impulse lapse."""
    from . import engineers, naval

    if side == "union":
        for done in engineers.finish_work(state):
            events.append(event("pontoon", done.why, "8.81", side="union", pontoon=done.pontoon,
                                **({"announce": "reorganization"} if done.status == "bridged" else {})))   # 3.72(4)
    losses = engineers.pontoon_losses(state, hm)
    if losses:
        engineers.apply_pontoon_losses(state, losses)
        for x in losses:
            events.append(event("pontoon.lost", x.why, "8.81a"))
    if state.get("naval"):
        naval.new_impulse(state)


def _special_orders(state: FullGameState, hm, side: str, choice: dict, dice, events: list[Event]) -> None:
    from . import cavalry, engineers, naval

    cmd = _army_commander(state, side)
    for item in choice.get("screen", []):
        sc = cavalry.screen(state, item["who"], bool(item.get("on", True)))
        if not sc.problems:
            cavalry.apply_screen(state, sc)
            events.append(event("screen", sc.why, sc.rule, side=side, visible_to=[side]))
    for item in choice.get("engineers", []):
        w = (engineers.lay_pontoon(state, hm, item["engineer"], item["lay"], item.get("hexside"), cmd)
             if "lay" in item else engineers.take_up_pontoon(state, hm, item["engineer"], item["take_up"], cmd))
        if not w.problems:
            engineers.apply_pontoon_work(state, w)
            events.append(event("pontoon.work", w.why, w.rule, side=side, pontoon=w.pontoon,
                                **({"announce": "reorganization"} if w.kind == "lay" else {})))          # 3.72(4)
    for item in choice.get("naval", []):           # 8.92a: embarking happens at the start of the impulse
        r = _naval_order(state, hm, item)
        if r is not None and not r.problems:
            (naval.apply_embark if "embark" in item else naval.apply_naval_assault)(state, r)
            private = "embark" in item                  # 3.17: the display is on the Union AOD
            events.append(event("naval.order", r.why, r.rule, side=side,
                                visible_to=[side] if private else None))
    for item in choice.get("gunboats", []):
        m = naval.gunboat_move(state, hm, item["gunboat"], item.get("to"))
        if not m.problems:
            naval.apply_gunboat_move(state, m)
            events.append(event("gunboat", m.why, m.rule, side=side))


def _removals(state: FullGameState, side: str, remove: list[str], events: list[Event]) -> None:
    """7.21, 7.22: the owner takes his wagons and depots off the map in his own impulse, before the
    supply states are set, to deny them to the enemy."""
    from .capture import apply_removal, voluntary_removal

    for sid in remove:
        r = voluntary_removal(state, side, sid)
        if r.problems:
            continue
        s = state["logistics"][sid]
        where, kind = s.get("hex"), s["kind"]
        apply_removal(state, r)
        # what the enemy sees of it is the counter gone from its map (3.71)
        events.append(event("logistics.removed", f"{side} removes its {kind} {sid} in {where} from the map", r.rule,
                            side=side, id=sid, hex=where, visible_to=[side]))


def _depots(state: FullGameState, hm, side: str, items: list[dict], events: list[Event]) -> None:
    """8.5: the wagons the owner makes depots, in his own impulse before any move (:mod:`.wagons`);
    one no longer possible (removed first) is void, and said."""
    for item in items:
        found = wagons.depot_problems(state, side, [item], hm)
        if found:
            events.append(event("depot.void", f"{item.get('wagon')} does not become a depot: {found[0].message}",
                                found[0].rule, side=side, visible_to=[side]))
            continue
        where = wagons.make_depot(state, item["wagon"], item["detachment"])
        events.append(event("depot", f"{side}'s wagon {item['wagon']} becomes a depot in {where} (8.5)", "8.5, 7.22",
                            side=side, id=item["wagon"], hex=where))
        events.append(event("depot.detail",
                            f"the detachment {item['detachment']} stays with the depot {item['wagon']} as its "
                            "garrison and leaves the map (8.5)", "8.5", side=side, visible_to=[side]))


def _impulse_end(state: FullGameState, hm, events: list[Event]) -> None:
    """8.61/8.6: recon attempts lapse; 8.62a: hidden forces that must appear now do so."""
    from .cavalry import apply_reveal, reset_recon, reveals_now

    reset_recon(state)
    if state.get("plots"):                      # 8.62a open games: what each plotted hex must satisfy
        from .hidden_open import checkpoint

        checkpoint(state, hm, state["current"]["active_impulse"]["side"])
    for side in ("union", "confederate"):
        for r in reveals_now(state, hm, side):
            apply_reveal(state, r)
            events.append(event("reveal",
                                f"a hidden {side} force appears at {model.force_hex(state, r.force)} ({r.reason})",
                                r.rule, side=side))
