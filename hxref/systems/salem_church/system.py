"""Musket & Sabre: Salem Church -- the game-system object.

The sequence (13.4): before turn 1 the Confederates place Wilcox/M (13.3); then 14 turns,
each a Union player turn and a Confederate player turn, one signed orders file each
(:mod:`.turn`); after turn 14 the victory determination (14.x, :mod:`.victory`).  Nothing
in the scenario is secret or simultaneous (digest F): no commit-reveal; in umpired games
each side sees the enemy only in its line of sight (:mod:`.views`) unless the game was made
with ``--option open_map``.
"""
from __future__ import annotations

import copy

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...kit.protocol import GameSystem, MapList, MapView, Result, Template
from ..base import Decision, Field, Problem, Section
from .board import fogged, hexmap
from .info import INFO
from .state_types import SalemState, UnitRecord
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...geometry.mapmodel import HexMap

NAME = "salem-church"
SIDES = ("union", "confederate")
RULE_KEYS = ("reinforcements", "reinforcement_entry", "formations", "returning_units", "replacements", "victory",
             "wagon_train", "defensive_positions", "night", "initiative", "setup", "turns")


class SalemChurch(GameSystem[SalemState]):
    # name, title, sides and the optional rules (``hxref new --option NAME``) come from INFO
    info = INFO

    # --- scenarios -----------------------------------------------------------------------------
    scenario_keys = ("sides", "units", "reinforcements", "victory", "map", "turns")

    def setup(self, scenario: dict) -> SalemState:
        units: dict[str, UnitRecord] = {}
        for uid, u in scenario["units"].items():
            # the counter's values as the scenario file gives them (checked by tests/salem_church)
            rec = cast(UnitRecord, {k: v for k, v in u.items() if k not in ("stand_in", "source")})
            rec.update({"hex": None, "disrupted": False, "full_steps": int(u["steps"])})
            units[uid] = rec
        wagon = (scenario.get("wagon_train") or {}).get("unit", "wagon-train")
        state: SalemState = {
            "scenario": scenario["scenario"], "map": scenario["map"], "turn": 1, "phasing": "union",
            "stage": "setup", "mode": scenario.get("table_mode", "umpired"),
            "options": dict(scenario.get("options") or {}), "initiative": "full", "initiative_checks": {},
            "units": units, "control": {}, "wagon": {"exited": None, "captured": False, "hex": None},
            "initial_steps": {uid: int(u["steps"]) for uid, u in scenario["units"].items()},
            "standing_orders": {}, "combats": [], "rules": {k: scenario[k] for k in RULE_KEYS if k in scenario},
            "wagon_unit": wagon, "victory_result": None,
        }
        return state

    # --- decisions -----------------------------------------------------------------------------
    def decisions(self, state: SalemState) -> list[Decision]:
        if state["stage"] == "setup":
            spec = state["rules"]["setup"][0]
            cols = spec.get("area", {}).get("columns", [1, 15])
            return [Decision(
                id="t0.setup", sides=(spec["side"],), kind="setup", rule=str(spec.get("rule", "13.3")),
                prompt=f"place {', '.join(spec['units'])} in any hex of columns {cols[0]:02d}-{cols[1]:02d} (13.3)",
                schema={"place": Field("dict", "unit id -> hex, e.g. {wilcox-m: \"0609\"}")},
                example={"place": {u: "0609" for u in spec["units"]}})]
        if state["stage"] != "play":
            return []
        from .order_schema import orders_schema

        t, side = state["turn"], state["phasing"]
        night = " (night: no combat, no moving next to the enemy, 18.0)" if t in state["rules"]["night"]["turns"] else ""
        if side == "union" and state.get("initiative_turn") == t:      # 17.1: rolled before the orders
            from .movement import initiative_told

            night += f" at {initiative_told(state)}"
        return [Decision(
            id=f"t{t}.{side}", sides=(side,), kind="orders", rule="13.4", dice=True,
            prompt=f"turn {t}, the {side} player turn{night}: replacements, moves, attacks, standing orders",
            schema=orders_schema(side),
            example={"moves": [], "attacks": [], "standing": {"choice": "disrupt", "hexes": 1}})]

    def check(self, state: SalemState, decision: Decision, side: str, choice: dict) -> list[Problem]:
        if decision.kind == "setup":
            return self._setup_problems(state, choice)
        from .orders_check import check_orders

        return check_orders(state, state["rules"], self.charts, side, choice)

    def map_orders(self, state: SalemState, decision: Decision, side: str) -> list[MapList]:
        """The moves (D3) and bombardments of a player turn (:mod:`.map_orders`)."""
        from . import map_orders

        return map_orders.map_orders(state, decision, side, charts=self.charts)

    def reach(self, state: SalemState, decision: Decision, side: str, choice: Mapping[str, Any], key: str,
              piece: str) -> dict[str, float]:
        """Where a unit may move (MP) or fire (hexes) by the check's own rules (:mod:`.map_orders`)."""
        from . import map_orders

        return map_orders.reach(state, decision, side, choice, key, piece, charts=self.charts)

    def stand_fast(self, state: SalemState, decision: Decision, side: str) -> dict:
        """A late side's orders under stand-fast: the skeleton of its template, which moves and
        attacks nothing and brings on the units due this turn (13.x: every unit due enters) by the
        first entry hex, on to a hex where they may stop (D3, 16.0), as the checker accepts."""
        if decision.kind != "orders":
            return super().stand_fast(state, decision, side)
        from .report import template

        return template(self.view(state, side, str(state.get("mode") or "open")), decision, side, self.charts)[1]

    def _setup_problems(self, state: SalemState, choice: dict) -> list[Problem]:
        spec = state["rules"]["setup"][0]
        place = choice.get("place")
        if not isinstance(place, dict) or set(place) != set(spec["units"]):
            return [Problem(f"`place` gives a hex for each of {', '.join(spec['units'])}", spec["rule"], ["place"])]
        lo, hi = spec.get("area", {}).get("columns", [1, 15])
        hm = hexmap(self.charts, state)
        for uid, label in place.items():
            try:
                col = hm.grid.labels.to_offset(hm.parse(str(label)))[0]
            except Exception as exc:
                return [Problem(str(exc), spec["rule"], ["place", uid])]
            if not lo <= col <= hi:
                return [Problem(f"{uid} sets up west of column 16 (columns {lo:02d}-{hi:02d}), not in {label}",
                                spec["rule"], ["place", uid])]
        return []

    def resolve(self, state: SalemState, decision: Decision, answers: dict, dice) -> tuple[SalemState, list[dict]]:
        # the engine's own copy of the state: the rules update it in place
        events: list[Event] = []
        if decision.kind == "setup":
            from .narration import line, name

            spec = state["rules"]["setup"][0]
            for uid, label in answers[spec["side"]]["place"].items():
                state["units"][uid]["hex"] = str(label)
                events.append(event("setup", line(name(uid), f" sets up in {label}"), spec["rule"], side=spec["side"]))
            state["stage"] = "play"
            return state, tell_events(state, hexmap(self.charts, state), events)
        from .turn import Turn

        side = state["phasing"]
        choice = answers[side]
        if "standing" in choice:
            state["standing_orders"][side] = copy.deepcopy(choice["standing"])
        if side == "union":
            state["combats"] = [c for c in state.get("combats", []) if c["turn"] == state["turn"]]
        t = Turn(state, state["rules"], self.charts, side, choice, dice)
        t.play()
        events += t.events
        if side == "union":
            state["phasing"] = "confederate"
        else:
            self._end_turn(state, events, dice)
        return state, tell_events(state, t.hm, events)

    def _end_turn(self, state: SalemState, events: list[Event], dice) -> None:
        from .victory import determine

        rules = state["rules"]
        v = determine(state, rules, end_of_turn=state["turn"])
        if v.final:
            state["victory_result"] = v.to_dict()
            state["stage"] = "over"
            events.append(event("victory", v.why.splitlines()[0], v.rule, detail=v.why))
            return
        events.append(event("turn.end", f"turn {state['turn']} ends", "13.4"))
        state["turn"] += 1
        state["phasing"] = "union"
        state["cancelled_targets"] = []
        from .turn import open_union_turn

        events += open_union_turn(state, dice)       # 17.1: before the Union writes his orders

    # --- views and reports ---------------------------------------------------------------------
    def view(self, state: SalemState, side: str | None, mode: str) -> dict:
        from .views import public_view, side_view

        los = not (state.get("options") or {}).get("open_map")
        hm = hexmap(self.charts, state)
        if side in SIDES:
            v = side_view(state, hm, side, mode, los)
        else:
            v = public_view(state, hm, mode, los)
        v["viewer"] = side
        return v

    def report(self, view: Mapping[str, Any]) -> list[Section]:
        from .report import sections

        return sections(view)

    def brief(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[str]:
        from .brief import brief

        return brief(events)

    def map_view(self, view: Mapping[str, Any]) -> MapView:
        """The map, the units the view shows, and in line-of-sight play the hexes no unit of the
        reader's sees, shaded (the view keeps no last-seen positions, so no ghost is drawn)."""
        from .report import map_units

        hm = hexmap(self.charts, view)
        return MapView(self.charts.map_path(view["map"]), map_units(view), fog=_fog(view, hm), hexmap=hm)

    def map_marks(self, events, view: Mapping[str, Any], audience: str | None) -> list:
        from .marks import marks

        return marks(events, view, audience)

    def template(self, view: Mapping[str, Any], decision: Decision, side: str) -> Template:
        from .report import template

        notes, choice = template(view, decision, side, self.charts)
        return Template(notes, choice)

    def result(self, state: SalemState) -> Result | None:
        """The victory determination after turn 14 (14.x): the winner by the VP difference over the
        best other side.  None before it."""
        v = state.get("victory_result")
        if not v:
            return None
        points = v["score"]["points"]
        winner = v.get("winner")
        margin = 0
        if winner and points:
            margin = points.get(winner, 0) - max((points.get(s, 0) for s in SIDES if s != winner), default=0)
        return Result(winner, margin, str(v.get("result") or "no result"))

    def secrets(self, state: SalemState, side: str) -> set[str]:
        """``side``'s declared secrets (``INFO.secret_kinds``: :func:`.views.unseen_by_enemy`,
        :func:`.views.unseen_positions`), read on the game's map."""
        from .views import unseen_by_enemy, unseen_positions

        hm = hexmap(self.charts, state)
        found = {str(v) for v in (*unseen_by_enemy(state, side, hm), *unseen_positions(state, side, hm))}
        return {v for v in found if v.strip()}


SYSTEM = SalemChurch()


# --- line-of-sight fog for the events of a resolution (umpired play) ---------------------------------

def tell_events(state: SalemState, hm: HexMap, events: list[Event]) -> list[dict]:
    """The events of a resolution, each written for its audiences as it is made: the units it names
    as each side sees them when the resolution ends (:func:`.narration.tell`).  The dice name no
    unit in line-of-sight play (:class:`.turn.Roller`)."""
    from .narration import tell
    from .views import PUBLIC_CONTROL_HEXES, seen_now

    return tell(state, events, fogged(state), lambda side: seen_now(state, hm, side), PUBLIC_CONTROL_HEXES)


def _fog(view: Mapping[str, Any], hm: HexMap) -> frozenset:
    """The hexes of the map ``hm`` out of the sight of the reader's units (line-of-sight play,
    :mod:`.views`): worked out from the reader's own units in its view, so it tells nothing the
    view does not."""
    side = (view.get("view") or {}).get("side")
    seen = view.get("view") or {}
    if not seen.get("los") or seen.get("mode") != "umpired" or side not in ("union", "confederate"):
        return frozenset()
    from .views import _seen_from, observers

    eyes = [hm.parse(label) for label in sorted(observers(cast(SalemState, view), side))]
    return frozenset(hm.label(h) for h in hm.hexes() if not _seen_from(hm, eyes, h, True))
