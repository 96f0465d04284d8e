"""Hex Duel: a small hex-and-counter game, built from the kit alone.

H1 Counters.  Each side has the scenario's counters: a name, an arm, a strength and a movement
   allowance (MA), each in one hex of the scenario's map.
H2 Turns.  Each turn red and then blue gives its orders: moves, then attacks.  The game ends after
   the scenario's last turn (H7).
H3 Movement.  A unit enters adjacent hexes one by one, paying each hex's MP (the terrain chart:
   clear 1, woods 2, lake none) up to its MA.  It may pass its own units but ends alone in its hex.
H4 Zones of control.  A unit exerts a zone of control into the six hexes around it.  A unit that
   enters an enemy zone stops there; no unit enters an enemy's hex.  A move meeting a hidden
   enemy stops where the enemy's zone or counter stops it.
H5 Attacks.  After the moves, units next to a hex attack the enemy unit in it together: their
   strength against its strength as odds on the combat results table (``charts/crt.yaml``),
   shifted by the defender's terrain, one d6.  A retreat is one hex, into no unit and no enemy
   zone, else the unit is eliminated.
H6 Objectives.  A side holds an objective place of the map once one of its units ends a move in it,
   until an enemy unit does.  Who holds what is public.
H7 Victory.  A side with no unit left loses at once.  After the last turn the side holding more
   objectives wins, then the side with more strength on the map; else a draw.
H8 Hidden units.  In an umpired game a side sees an enemy counter only next to one of its own, and
   never its name; orders are checked against what the side sees.

State (plain data)::

    stage: play | over    turn, turns, sides, phasing, mode, map, result
    units: {id: {side, name, arm, strength, ma, hex | None (eliminated)}}
    objectives: {place: side | None}
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hxref.kit.data import map_file
from hxref.kit.fog import unseen
from hxref.kit.protocol import (UMPIRE, Decision, Field, GameSystem, MapView, Problem, Result, Section, Template,
                                other_side)
from hxref.kit.results import ResultsTable
from hxref.kit.views import AllowList, sides_own

from . import board, combat
from .info import INFO
from hxref.kit.events import Event, event, event_dicts

from .state_types import DuelState, GameResult

#: H2: an order file's shape
SCHEMA = {
    "moves": Field("list", "each unit's move: {unit: ID, path: [HEX, ...]}, the hexes it enters (H3)", optional=True,
                   items=Field("dict", fields={"unit": Field("str", "the unit's id"),
                                               "path": Field("list", "the hexes entered", items=Field("str"))})),
    "attacks": Field("list", "attacks after the moves: {target: HEX, by: [ID, ...]} (H5)", optional=True,
                     items=Field("dict", fields={"target": Field("str", "the enemy's hex"),
                                                 "by": Field("list", "the attacking units", items=Field("str"))})),
}


#: H6-H8: what each audience of an umpired game sees of the state: the public fields, its own units
FOGGED = AllowList(public=("stage", "turn", "turns", "sides", "phasing", "mode", "map", "objectives", "result"),
                   built={"units": lambda state, side: sides_own(state["units"], side)})


class HexDuel(GameSystem[DuelState]):
    info = INFO
    scenario_keys = ("map", "turns", "objectives", "units")

    def table(self) -> ResultsTable:
        """H5: the combat results table the game pinned."""
        return ResultsTable.read(self.charts.chart_source("crt"))

    def hexmap(self, state: Mapping[str, Any]) -> Any:
        return self.charts.map(state["map"])

    # --- the sequence of play ----------------------------------------------------------------
    def setup(self, scenario: dict) -> DuelState:
        sides = list(scenario.get("sides") or self.sides)
        return {"stage": "play", "turn": 1, "turns": int(scenario["turns"]), "sides": sides, "phasing": sides[0],
                "mode": scenario.get("table_mode", "open"), "map": scenario["map"],
                "objectives": {p: None for p in scenario["objectives"]},
                "units": copy.deepcopy(scenario["units"]), "result": None}

    def decisions(self, state: DuelState) -> list[Decision]:
        if state["stage"] != "play":
            return []
        side = state["phasing"]
        return [Decision(id=f"t{state['turn']}.{side}", sides=(side,), kind="orders", rule="H2", dice=True,
                         prompt=f"turn {state['turn']} of {state['turns']}: {side}'s moves, then attacks",
                         schema=SCHEMA, example={"moves": [], "attacks": []})]

    def check(self, state: DuelState, decision: Decision, side: str, choice: dict) -> list[Problem]:
        hm = self.hexmap(state)
        units = board.known(state, hm, side)
        out: list[Problem] = []
        moved: set[str] = set()
        ends = {uid: u["hex"] for uid, u in units.items() if u["side"] == side}
        for i, mv in enumerate(choice.get("moves") or []):
            uid = mv["unit"]
            if uid not in ends:
                out.append(Problem(f"{uid!r} is none of your units on the map", "H1", ["moves", i, "unit"]))
                continue
            if uid in moved:
                out.append(Problem(f"{uid} moves twice", "H3", ["moves", i, "unit"]))
                continue
            moved.add(uid)
            w = board.move(hm, units, uid, list(mv["path"]))
            if not w.legal:
                out.append(Problem(w.why, w.rule, ["moves", i, "path"]))
                continue
            if w.here != ends[uid] and w.here in ends.values():      # the moves are made in their order
                out.append(Problem(f"{uid} would end in {w.here}, which another of your units holds then", "H3",
                                   ["moves", i, "path"]))
                continue
            ends[uid] = w.here
        attacking: set[str] = set()
        for i, at in enumerate(choice.get("attacks") or []):
            target = at["target"]
            if board.hex_at(hm, target) is None:
                out.append(Problem(f"{target!r} is not a hex of the map", "H5", ["attacks", i, "target"]))
            elif target in ends.values():
                out.append(Problem(f"{target} holds your own unit", "H5", ["attacks", i, "target"]))
            for uid in at["by"]:
                if uid not in ends:
                    out.append(Problem(f"{uid!r} is none of your units on the map", "H5", ["attacks", i, "by"]))
                elif uid in attacking:
                    out.append(Problem(f"{uid} attacks twice", "H5", ["attacks", i, "by"]))
                elif board.hex_at(hm, target) is not None and not board.next_to(hm, ends[uid], target):
                    out.append(Problem(f"{uid} ends its move in {ends[uid]}, not next to {target}", "H5",
                                       ["attacks", i, "by"]))
                attacking.add(uid)
            if not at["by"]:
                out.append(Problem("an attack needs a unit", "H5", ["attacks", i, "by"]))
        return out

    def resolve(self, state: DuelState, decision: Decision, answers: dict[str, dict],
                dice: Any) -> tuple[DuelState, list[dict]]:
        new = copy.deepcopy(state)
        side, hm = new["phasing"], self.hexmap(new)
        orders = answers[side]
        events: list[Event] = []
        before = {s: set(board.known(new, hm, s)) for s in new["sides"]}
        for mv in orders.get("moves") or []:
            events += self._move(new, hm, side, mv["unit"], list(mv["path"]))
        table = self.table()
        for at in orders.get("attacks") or []:
            events += combat.attack(new, hm, table, side, at, dice)
        events += self._objectives(new, hm, side)
        events += self._sighted(new, hm, before)
        enemy = other_side(tuple(new["sides"]), side)
        if side == new["sides"][-1]:
            new["turn"] += 1
        new["phasing"] = enemy
        result = self._victory(new)
        if result is not None:
            new["result"], new["stage"] = result, "over"
            events.append(event("result", result["how"], "H7"))
        return new, event_dicts(events)

    def _move(self, state: DuelState, hm: Any, side: str, uid: str, path: list[str]) -> list[Event]:
        """H3, H4: the move walked against every unit, stopped short of an own unit's hex."""
        units = board.on_map(state["units"])
        w = board.move(hm, units, uid, path)
        hexes = w.hexes
        taken = {u["hex"] for k, u in units.items() if k != uid}
        while hexes[-1] in taken:
            hexes.pop()
        state["units"][uid]["hex"] = hexes[-1]
        name = state["units"][uid]["name"]
        if len(hexes) == 1:
            text = f"{name} stays in {hexes[0]}"
        else:
            text = f"{name} moves {'-'.join(hexes)}"
        if not w.legal or len(hexes) < len(w.hexes) or w.halt is not None:
            why = w.why if len(hexes) == len(w.hexes) else f"{w.hexes[len(hexes)]} holds another of your units"
            text += f" and stops: {why}"
        return [event("move", text, w.rule, side=side, unit=uid, path=hexes, visible_to=[side])]

    def _sighted(self, state: DuelState, hm: Any, before: Mapping[str, set[str]]) -> list[Event]:
        """H8: each side told of the enemy counters that came into its sight."""
        events = []
        for side in state["sides"]:
            units = board.known(state, hm, side)
            new = [u for uid, u in sorted(units.items()) if u["side"] != side and uid not in before[side]]
            if new:
                events.append(event("sighted",
                                    "in sight now: " + ", ".join(f"{board.counter(u)} in {u['hex']}" for u in new),
                                    "H8", side=side, visible_to=[side]))
        return events

    def _objectives(self, state: DuelState, hm: Any, side: str) -> list[Event]:
        """H6: the objectives ``side``'s units stand in after its moves and attacks are its own."""
        events = []
        for place, held in state["objectives"].items():
            label = hm.label(hm.place(place))
            if held != side and any(u["hex"] == label and u["side"] == side for u in state["units"].values()):
                state["objectives"][place] = side
                events.append(event("objective", f"{side} takes the {place} ({label})", "H6"))
        return events

    def _victory(self, state: DuelState) -> GameResult | None:
        """H7: who wins, once the game is over."""
        a, b = state["sides"]
        left = {s: sum(u["strength"] for u in state["units"].values() if u["side"] == s and u["hex"]) for s in (a, b)}
        for s in (a, b):
            if left[s] == 0:
                w = other_side((a, b), s)
                return {"winner": w, "margin": left[w], "how": f"{w} wins: {s} has no unit left (H7)"}
        if state["turn"] <= state["turns"]:
            return None
        held = {s: sum(1 for v in state["objectives"].values() if v == s) for s in (a, b)}
        for score, what in ((held, "objectives"), (left, "strength on the map")):
            if score[a] != score[b]:
                w = a if score[a] > score[b] else b
                lose = other_side((a, b), w)
                return {"winner": w, "margin": score[w] - score[lose],
                        "how": f"{w} wins after turn {state['turns']}: {score[w]} {what} to {score[lose]} (H7)"}
        return {"winner": None, "margin": 0, "how": f"a draw after turn {state['turns']} (H7)"}

    def result(self, state: DuelState) -> Result | None:
        r = state.get("result")
        return Result(r["winner"], r["margin"], r["how"]) if r else None

    # --- what each audience sees --------------------------------------------------------------
    def view(self, state: DuelState, audience: str | None, mode: str) -> dict:
        if mode != "umpired" or audience == UMPIRE:
            v = copy.deepcopy(dict(state))
            v["seen"] = []
        else:
            v = FOGGED.view(state, audience)
            v["seen"] = self._seen(state, audience)
        v["viewer"] = audience
        return v

    def _seen(self, state: DuelState, side: str | None) -> list[dict]:
        """H8: the enemy counters ``side`` sees, without their names (the public sees none)."""
        if side is None:
            return []
        units = board.known(state, self.hexmap(state), side)
        return [{"hex": u["hex"], "side": u["side"], "arm": u["arm"], "strength": u["strength"]}
                for _, u in sorted(units.items()) if u["side"] != side]

    def report(self, view: Mapping[str, Any]) -> list[Section]:
        turn = Section("The skirmish")
        if view["result"]:
            turn.lines.append(view["result"]["how"])
        else:
            turn.lines.append(f"turn {view['turn']} of {view['turns']}: {view['phasing']} gives orders (H2)")
        units = Section("Units", columns=["unit", "id", "side", "arm", "strength", "MA", "hex"])
        for uid, u in sorted(view["units"].items()):
            units.rows.append([u["name"], uid, u["side"], u["arm"], str(u["strength"]), str(u["ma"]),
                               u["hex"] or "eliminated"])
        out = [turn, units]
        if view["seen"]:
            seen = Section("Enemy counters in sight (H8)", columns=["side", "arm", "strength", "hex"])
            seen.rows += [[s["side"], s["arm"], str(s["strength"]), s["hex"]] for s in view["seen"]]
            out.append(seen)
        held = Section("Objectives (H6)", columns=["place", "held by"])
        held.rows += [[p, s or "nobody"] for p, s in view["objectives"].items()]
        return out + [held]

    def map_view(self, view: Mapping[str, Any]) -> MapView:
        side = view.get("viewer")
        marks = [{"id": uid, "side": u["side"], "hex": u["hex"], "label": u["name"], "kind": u["arm"],
                  "strength": u["strength"], "viewer": u["side"] == side} for uid, u in sorted(view["units"].items())
                 if u["hex"]]
        marks += [{"id": f"{s['side']}@{s['hex']}", "side": s["side"], "hex": s["hex"], "label": s["arm"],
                   "kind": s["arm"], "strength": s["strength"]} for s in view["seen"]]
        shade: frozenset = frozenset()
        if view["mode"] == "umpired" and isinstance(side, str) and side in view["sides"]:
            hm = self.hexmap(view)
            shade = frozenset(hm.label(h) for h in unseen(hm.hexes(), board.eyes(view["units"], hm, side), board.SIGHT))
        return MapView(map_file(self.name, view["map"]), marks, fog=shade)

    def template(self, view: Mapping[str, Any], decision: Decision, side: str) -> Template:
        mine = ", ".join(f"{uid} {u['name']} in {u['hex']} (MA {u['ma']})" for uid, u in sorted(view["units"].items())
                         if u["side"] == side and u["hex"])
        return Template([f"your units: {mine}",
                         "moves: {unit: ID, path: [HEX, ...]}, the hexes entered (H3); entering a hex next to "
                         "an enemy ends the move (H4)",
                         "attacks: {target: HEX, by: [ID, ...]}, by units next to it after the moves (H5)"],
                        {"moves": [], "attacks": []})


SYSTEM = HexDuel()
