"""ACW miniatures on a measured table: the game-system object.

One signed orders file per player turn (digest E1): the phasing side's moves and shots
together; the referee checks every move, then every shot against the state after the
moves, and rejects the whole file at the first broken rule (exit 2, the rule and where).
Resolution: movement, shooting (one d6 per shooting unit, rolled with the verifiable
dice), eliminating units (A2); then the scenario's victory: 4 of the 6 enemy units
eliminated at once, else the side holding the town at the end of turn 15, else a draw.

Orders (a choice)::

    moves:  [{unit, pivot_start?, advance?, pivot_end?}]   one straight advance (C8); or {unit, to: [x, y], facing}
    shots:  [{shooter, target}]                           units that did not move, one target each (C15)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...base.errors import InvalidInput
from ...kit.protocol import GameSystem, MapView, Result, Template
from ..base import Decision, Field, Problem, Section
from .info import INFO
from .state_types import AcwState, ShotRecord
from ...kit.events import Event, event, event_dicts

if TYPE_CHECKING:
    from ...geometry.mapmodel import TableMap

NAME = "acw-minis"
DATA = "acw_minis"
SIDES = ("union", "confederate")
#: the table picture's colour for a unit eliminated by the shots it shows
ELIMINATED_COLOUR = "#f0f0f0"


def _units(state: AcwState):
    from .units import Unit

    return {uid: Unit.from_dict({k: v for k, v in u.items() if k not in ("eliminated",)}, uid)
            for uid, u in state["units"].items() if not u.get("eliminated")}


def _options(state: AcwState):
    """The scenario options the game was made with (``options:`` of the scenario, ``hxref new --option``)."""
    from .units import Options

    opts = state.get("options") or {}
    return Options(road_following=bool(opts.get("road_following")),
                   fire_apex="centre" if opts.get("fire_arc_centre") else "edge")


def _orders(choice: dict) -> dict:
    return {m["unit"]: {k: v for k, v in m.items() if k != "unit"} for m in choice.get("moves", [])}


class AcwMinis(GameSystem[AcwState]):
    # name, title, sides and the optional rules come from INFO; the scenarios are the base's
    # (games/acw_minis/scenarios/*.yaml)
    info = INFO

    def table(self, game: Mapping[str, Any]) -> TableMap:
        """The table of a scenario, a state or a view (its ``map``) as the game's charts hold it:
        the game's pinned copy in play, parsed once per content."""
        return self.charts.map(game["map"])

    def setup(self, scenario: dict) -> AcwState:
        from .units import Unit, check_setup

        units = {u["id"]: Unit.from_dict({k: v for k, v in u.items() if k != "id"}, u["id"]).to_dict()
                 for u in scenario["units"]}
        found = check_setup(self.table(scenario), {k: Unit.from_dict(v, k) for k, v in units.items()})
        if found:
            raise InvalidInput(f"scenario set-up: {found[0].message}", code="E503", rule=found[0].rule)
        state: AcwState = {
                "scenario": scenario["scenario"], "title": scenario["title"], "map": scenario["map"], "turn": 1,
                "turns": int(scenario["turns"]), "order": list(scenario["player_turn_order"]), "phasing_index": 0,
                "mode": scenario.get("table_mode", "umpired"), "units": units,
                "options": dict(scenario.get("options") or {}), "victory_rule": scenario["victory"],
                "last": {"moves": [], "shots": [], "eliminated": []}, "history": [], "result": None,
                "eliminated": {s: [] for s in SIDES}}
        return state

    def decisions(self, state: AcwState) -> list[Decision]:
        if state.get("result"):
            return []
        from .movement import ORDER_FIELDS

        side = state["order"][state["phasing_index"]]
        t = state["turn"]
        return [Decision(
            id=f"t{t}.{side}", sides=(side,), kind="orders", rule="A2", dice=True,
            prompt=f"turn {t} of {state['turns']}, the {side} player turn: moves, then shots by units that did not move",
            schema={"moves": Field("list", "{unit, pivot_start?, advance?, pivot_end?} (one straight advance, C8)",
                                   rule="A3; C8", items=Field("dict", fields={
                                       "unit": Field("str", "the unit's id"), **ORDER_FIELDS})),
                    "shots": Field("list", "{shooter, target}: one target per unit that did not move", optional=True,
                                   rule="A4", items=Field("dict", fields={"shooter": Field("str"),
                                                                          "target": Field("str")}))},
            example={"moves": [], "shots": []})]

    def check(self, state: AcwState, decision: Decision, side: str, choice: dict) -> list[Problem]:
        """The rules' problems of orders whose shape fits the decision's schema (checked first, in
        :mod:`hxref.referee.orders`)."""
        from .movement import movement_step
        from .sequence import start_player_turn
        from .shooting import shooting_step

        moves = choice.get("moves", [])
        seen = set()
        for i, m in enumerate(moves):
            if m["unit"] not in state["units"] or state["units"][m["unit"]].get("eliminated"):
                return [Problem(f"`{m['unit']}` is not a unit on the table", "A3", ["moves", i, "unit"])]
            if state["units"][m["unit"]]["side"] != side:
                return [Problem(f"{m['unit']} is not yours: only the phasing player moves (C17)", "A2; C17",
                                ["moves", i, "unit"])]
            if m["unit"] in seen:
                return [Problem(f"{m['unit']} has two move orders: one move per player turn (A2)", "A2",
                                ["moves", i, "unit"])]
            seen.add(m["unit"])
        tm = self.table(state)
        units = start_player_turn(_units(state), side)
        ms = movement_step(tm, units, _orders(choice), phasing=side, options=_options(state))
        if ms.problems:
            p = ms.problems[0]
            idx = next((i for i, m in enumerate(moves) if p.path and m["unit"] == p.path[0]), 0)
            return [Problem(p.message, p.rule, ["moves", idx, *p.path[1:]])]
        shots = choice.get("shots", [])
        st = shooting_step(tm, ms.units, shots, {s["shooter"]: 1 for s in shots}, phasing=side,
                           options=_options(state))
        if st.problems:
            p = st.problems[0]
            idx = next((i for i, s in enumerate(shots) if p.path and s["shooter"] == p.path[0]), 0)
            return [Problem(p.message, p.rule, ["shots", idx, *p.path[1:]])]
        return []

    def resolve(self, state: AcwState, decision: Decision, answers: dict, dice) -> tuple[AcwState, list[dict]]:
        st, events = self._resolve(state, answers, dice)      # the engine's copy, updated in place
        return st, event_dicts(events)

    def _resolve(self, state: AcwState, answers: dict, dice) -> tuple[AcwState, list[Event]]:
        from .movement import movement_step
        from .sequence import eliminating_step, start_player_turn
        from .shooting import shooting_step

        side = state["order"][state["phasing_index"]]
        choice = answers[side]
        tm = self.table(state)
        events: list[Event] = []
        units = start_player_turn(_units(state), side)
        ms = movement_step(tm, units, _orders(choice), phasing=side, options=_options(state))
        for m in ms.moves:
            if m.moved:
                events.append(event("move", m.why, "A3", side=side))
        shots = choice.get("shots", [])
        faces = {s["shooter"]: dice.d6(f"shot {s['shooter']} at {s['target']} (A4)", by=side) for s in shots}
        st = shooting_step(tm, ms.units, shots, faces, phasing=side, options=_options(state))
        last_shots: list[ShotRecord] = []
        for o in st.shots:
            c, r = o.check, o.roll
            shooter, target = _name(ms.units, o.shooter), _name(ms.units, o.target)
            events.append(event("shot", f"{shooter} shoots at {target}: {c.why}; {r.why if r else ''}", "A4",
                                side=side, shooter=shooter, target=target, hits=r.hits if r else 0))
            last_shots.append({"from": o.shooter, "to": o.target, "range": c.max_range, "arc": 45,
                               "label": f"{r.hits if r else 0} hit{'' if r and r.hits == 1 else 's'} (d6 {r.die if r else '-'})",
                               "distance": round(c.range, 1) if c.range is not None else None,
                               "hits": r.hits if r else 0, "die": r.die if r else None, "cover": c.target_in_cover})
        for w in st.warnings:
            events.append(event("shot.warning", w, "C16", side=side))
        el = eliminating_step(st.units, phasing=side)
        events.append(event("eliminate", el.why, el.rule, side=side,
                            eliminated=[_name(st.units, u) for u in el.removed]))
        new_units = {k: u.to_dict() for k, u in st.units.items()}
        for uid in el.removed:
            new_units[uid]["eliminated"] = True
            state["eliminated"][new_units[uid]["side"]].append(uid)
        for uid, u in state["units"].items():          # already eliminated before this turn
            if u.get("eliminated") and uid not in new_units:
                new_units[uid] = u
        state["units"] = new_units
        state["last"] = {"side": side, "turn": state["turn"], "moves": [m.why for m in ms.moves if m.moved],
                         "shots": last_shots, "eliminated": list(el.removed)}
        state["history"].append({"turn": state["turn"], "side": side, "shots": last_shots,
                                 "eliminated": list(el.removed)})
        self._victory(state, side, events)
        if not state.get("result"):
            if state["phasing_index"] == 0:
                state["phasing_index"] = 1
            else:
                state["phasing_index"] = 0
                state["turn"] += 1
        return state, events

    def _victory(self, state: AcwState, side: str, events: list[Event]) -> None:
        rule = state["victory_rule"]
        need = int(rule["elimination"]["enemy_units"])
        enemy = "confederate" if side == "union" else "union"
        if len(state["eliminated"][enemy]) >= need:
            state["result"] = {"winner": side, "why": f"{side} has eliminated {need} enemy units "
                                                      f"({', '.join(_name_of(state, u) for u in state['eliminated'][enemy])}): "
                                                      "it wins at once"}
        elif state["turn"] >= int(rule["town"]["at_end_of_turn"]) and state["phasing_index"] == 1:
            holder = self.town_holder(state)
            state["result"] = ({"winner": holder, "why": f"the end of turn {state['turn']}: {holder} alone holds "
                                                         f"{rule['town']['area']}"} if holder else
                               {"winner": None, "why": f"the end of turn {state['turn']}: nobody alone holds "
                                                       f"{rule['town']['area']}: a draw"})
        res = state["result"]
        if res:
            events.append(event("victory", res["why"], "scenario"))

    def town_holder(self, state: AcwState) -> str | None:
        from shapely.geometry import Point

        tm = self.table(state)
        area = next(a for a in tm.table.areas if a.name == state["victory_rule"]["town"]["area"])
        sides = {u["side"] for u in state["units"].values() if not u.get("eliminated")
                 and area.polygon.intersects(Point(u["x"], u["y"]))}
        return sides.pop() if len(sides) == 1 else None

    # --- views and reports ---------------------------------------------------------------------
    def view(self, state: AcwState, side: str | None, mode: str) -> dict:
        """Every side, the public and the umpire see the whole state, in every mode: on a
        miniatures table both players see every figure, every order is carried out in the
        open and every die is rolled in the open (digest E), so the rules keep no secret.
        This is the allow-list of a game without secrets: all of it.  A rule that made
        something secret would build this view field by field, as the other systems do."""
        import copy

        v = copy.deepcopy(dict(state))    # E: nothing on the table is secret
        v["viewer"] = side
        return v

    def report(self, view: Mapping[str, Any]) -> list[Section]:
        out = []
        head = Section(f"Turn {view['turn']} of {view['turns']}" if not view.get("result") else "Game over")
        if view.get("result"):
            r = view["result"]
            head.lines.append(f"Result: {(r['winner'] or 'nobody').upper()} -- {r['why']}")
        else:
            head.lines.append(f"Phasing: the {view['order'][view['phasing_index']]} player turn")
        head.lines.append("Eliminated: " + "; ".join(f"{s} {len(v)} ({', '.join(_name_of(view, u) for u in v) or '-'})"
                                                      for s, v in view["eliminated"].items()))
        out.append(head)
        # one table per side, so that the columns fit an 80-column terminal and e-mail (no cut words)
        for side in SIDES:
            s = Section(f"{side.capitalize()} units (positions in inches from the south-west corner; "
                        "facing 0 = north, clockwise)",
                        columns=["unit", "type", "x", "y", "facing", "frontage", "hits", "state"])
            for uid, u in sorted(view["units"].items()):
                if u["side"] != side:
                    continue
                s.rows.append([f"{uid} {u.get('name', '')}".strip(), u["type"], f"{u['x']:.1f}", f"{u['y']:.1f}",
                               f"{u['facing']:.0f}", f"{u['frontage']:g}\"", str(u["hits"]),
                               "eliminated" if u.get("eliminated") else "in play"])
            out.append(s)
        last = view.get("last") or {}
        if last.get("shots"):
            t = Section(f"Shots of the {last['side']} player turn {last['turn']} (A4)",
                        columns=["shooter", "target", "range", "cover", "d6", "hits"])
            for x in last["shots"]:
                t.rows.append([_name_of(view, x["from"]), _name_of(view, x["to"]),
                               f"{x['distance']}\"" if x.get("distance") is not None else "-",
                               "yes (halved)" if x.get("cover") else "no", str(x.get("die")), str(x.get("hits"))])
            out.append(t)
        return out

    def brief(self, events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[str]:
        from .brief import brief

        return brief(events)

    def result(self, state: AcwState) -> Result | None:
        """The scenario's victory: the margin is how many fewer units the winner lost than the other
        side.  None while the game goes on."""
        r = state.get("result")
        if not r:
            return None
        winner = r.get("winner")
        lost = {s: len(v) for s, v in (state.get("eliminated") or {}).items()}
        margin = 0
        if winner and lost:
            margin = max((lost.get(s, 0) for s in SIDES if s != winner), default=0) - lost.get(winner, 0)
        return Result(winner, margin, str(r.get("why") or "no result"))

    def template(self, view: Mapping[str, Any], decision: Decision, side: str) -> Template:
        """Notes and a skeleton for the side's player turn (``hxref template``, ``hxref play``)."""
        from .units import MOVE_ALLOWANCE, RANGE

        notes = [f"Your units ({side}): id, position (x, y inches), facing, hits; move allowance and range:"]
        moves = []
        for uid, u in sorted(view["units"].items()):
            if u["side"] != side or u.get("eliminated"):
                continue
            notes.append(f"  {uid} {u.get('name', '')}: {u['type']} at ({u['x']:.1f}, {u['y']:.1f}) facing "
                         f"{u['facing']:.0f}, {u['hits']} hits; moves up to {MOVE_ALLOWANCE[u['type']]:g}\" "
                         f"(+3\" all on a road), shoots {RANGE[u['type']]:g}\"")
            moves.append({"unit": uid, "pivot_start": 0, "advance": 0, "pivot_end": 0})
        notes += ["Enemy units:"] + [f"  {uid} {u.get('name', '')}: {u['type']} at ({u['x']:.1f}, {u['y']:.1f}) "
                                      f"facing {u['facing']:.0f}, {u['hits']} hits"
                                      for uid, u in sorted(view["units"].items())
                                      if u["side"] != side and not u.get("eliminated")]
        road = bool((view.get("options") or {}).get("road_following"))
        keys = [
            "choice.moves: the phasing side's moves, one per unit (A2, A3); leave out the units that stay; "
            "each {unit, pivot_start?, advance?, pivot_end?} or {unit, to?, path?, facing?}:",
            "choice.moves[].unit: your unit's id (C17)",
            "choice.moves[].pivot_start: degrees pivoted before the advance, clockwise + (A3 Turning; C8)",
            "choice.moves[].advance: inches straight ahead, within the move allowance (A3; C8, C11)",
            "choice.moves[].pivot_end: degrees pivoted after the advance, clockwise + (A3 Turning; C8)",
            "choice.moves[].to: instead of the pivots, the point [x, y] in inches to move to straight (C8, C9)",
            "choice.moves[].path: instead of to, the points [[x, y], ...] to pass through: one straight segment"
            + (", or a road move along one road (C8 scenario option)" if road else "") + " (C8, C9)",
            "choice.moves[].facing: with to or path, the facing in degrees at the end (C8, C9)",
            "choice.shots: shots by your units that did not move, one target each (A4; C10, C15), "
            "a list of {shooter, target}:",
            "choice.shots[].shooter: your unit that shoots (A4)",
            "choice.shots[].target: the enemy unit it shoots at, in its field of fire and range (A4; C6, C7)",
        ]
        return Template(keys + [""] + notes, {"moves": moves, "shots": []})

    def map_view(self, view: Mapping[str, Any]) -> MapView:
        # the units on the table; and, greyed, those the last shots eliminated, where they stood, so that the
        # lines of those shots have an end
        just_out = set((view.get("last") or {}).get("eliminated") or [])
        units = [{"id": uid, "side": u["side"], "x": u["x"], "y": u["y"], "facing": u["facing"],
                  "frontage": u["frontage"], "depth": u.get("depth", 1.0),
                  "kind": u["type"] + (", eliminated" if u.get("eliminated") else ""),
                  "label": (u.get("name") or uid).split("'")[0][:14],
                  **({"hits": u["hits"]} if u.get("hits") is not None else {}),
                  **({"colour": ELIMINATED_COLOUR} if u.get("eliminated") else {})}
                 for uid, u in view["units"].items() if not u.get("eliminated") or uid in just_out]
        return MapView(self.charts.map_path(view["map"]), units, (view.get("last") or {}).get("shots", []),
                       hexmap=self.table(view))

    def map_marks(self, events, view: Mapping[str, Any], audience: str | None) -> list:
        from .marks import marks

        return marks(events, view, audience)


def _name(units: Mapping[str, Any], uid: str) -> str:
    """The unit's name as the players know it (its id when the scenario gives it none)."""
    u = units.get(uid)
    return (u.name if u is not None else "") or uid


def _name_of(state: Mapping[str, Any], uid: str) -> str:
    """The same, from a state or a view's plain unit records."""
    return str((state.get("units") or {}).get(uid, {}).get("name") or uid)


SYSTEM = AcwMinis()
