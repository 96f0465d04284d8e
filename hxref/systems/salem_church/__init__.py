"""Musket & Sabre: Salem Church (issue 6) -- the game-system object.

The sequence (13.4): before turn 1 the Confederates place Wilcox/M (13.3); then 14 turns,
each a Union player turn and a Confederate player turn, one signed orders file each
(:mod:`.turn`); after turn 14 the victory determination (14.x, :mod:`.victory`).  Nothing
in the scenario is secret or simultaneous (digest F): no commit-reveal; in umpired games
each side sees the enemy only in its line of sight (:mod:`.views`) unless the game was made
with ``--option open_map``.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

from ...errors import InvalidInput
from ...paths import games_dir
from ..base import Decision, Field, Problem, Section

NAME = "salem-church"
DATA = "salem_church"                # the folder under games/
SIDES = ("union", "confederate")
RULE_KEYS = ("reinforcements", "reinforcement_entry", "formations", "returning_units", "replacements", "victory",
             "wagon_train", "defensive_positions", "night", "initiative", "setup", "turns")


def hexmap(state: dict):
    return load_map(state["map"])


@lru_cache(maxsize=None)
def load_map(name: str):
    """The scenario's map, parsed once per process."""
    from ...maps import load_map as _load

    return _load(games_dir() / DATA / "maps" / f"{name}.yaml")


class SalemChurch:
    name = NAME
    title = "Musket & Sabre: Salem Church"
    sides = SIDES
    #: optional rules chosen at ``hxref new --option NAME``
    optional_rules = {"open_map": "F: no line-of-sight fog in umpired games (every unit shown to both sides)"}

    # --- scenarios -----------------------------------------------------------------------------
    def scenarios(self) -> list[str]:
        return sorted(p.stem for p in (games_dir() / DATA / "scenarios").glob("*.yaml"))

    def load_scenario(self, name: str) -> dict:
        from ...yamlio import load_data, to_plain

        path = Path(name) if name.endswith((".yaml", ".yml")) else games_dir() / DATA / "scenarios" / f"{name}.yaml"
        if not path.is_file():
            raise InvalidInput(f"no scenario {name!r} for {NAME}; known: {', '.join(self.scenarios())}", code="E503")
        data = to_plain(load_data(path))
        for key in ("sides", "units", "reinforcements", "victory", "map", "turns"):
            if key not in data:
                raise InvalidInput(f"scenario lacks `{key}`", code="E503", file=str(path))
        return data

    def setup(self, scenario: dict) -> dict:
        units = {}
        for uid, u in scenario["units"].items():
            rec = {k: v for k, v in u.items() if k not in ("stand_in", "source")}
            rec.update(hex=None, disrupted=False, full_steps=int(u["steps"]))
            units[uid] = rec
        wagon = (scenario.get("wagon_train") or {}).get("unit", "wagon-train")
        return {
            "scenario": scenario["scenario"], "map": scenario["map"], "turn": 1, "phasing": "union",
            "stage": "setup", "mode": scenario.get("table_mode", "umpired"),
            "options": dict(scenario.get("options") or {}), "initiative": "full", "initiative_checks": {},
            "units": units, "control": {}, "wagon": {"exited": None, "captured": False, "hex": None},
            "initial_steps": {uid: int(u["steps"]) for uid, u in scenario["units"].items()},
            "standing_orders": {}, "combats": [], "rules": {k: scenario[k] for k in RULE_KEYS if k in scenario},
            "wagon_unit": wagon, "victory_result": None,
        }

    # --- decisions -----------------------------------------------------------------------------
    def decisions(self, state: dict) -> list[Decision]:
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
        t, side = state["turn"], state["phasing"]
        night = " (night: no combat, no moving next to the enemy, 18.0)" if t in state["rules"]["night"]["turns"] else ""
        return [Decision(
            id=f"t{t}.{side}", sides=(side,), kind="orders", rule="13.4", dice=True,
            prompt=f"turn {t}, the {side} player turn{night}: replacements, moves, attacks, standing orders",
            schema={"moves": Field("list", "{unit, path: [hexes entered], leader?} in the order they move"),
                    "entry": Field("str", "the hex this turn's arrivals enter by (13.3)", optional=True),
                    "replacements": Field("list", "at most 2: {unit, hex?} (13.2, 13.3)", optional=True),
                    "attacks": Field("list", "{attackers: [units], target: HEX, first?, advance?} (B1)",
                                     optional=True),
                    "standing": Field("dict", "answers during the enemy's turn: {choice: retreat|disrupt, loss: "
                                              "loss|retreat, hexes: 1-3, losses: [units], counter_attacks: [...]}",
                                      optional=True)},
            example={"moves": [], "attacks": [], "standing": {"choice": "disrupt", "hexes": 1}})]

    def check(self, state: dict, decision: Decision, side: str, choice: dict) -> list[Problem]:
        if decision.kind == "setup":
            return self._setup_problems(state, choice)
        from .turn import check_orders

        return check_orders(state, state["rules"], hexmap(state), side, choice)

    def _setup_problems(self, state: dict, choice: dict) -> list[Problem]:
        spec = state["rules"]["setup"][0]
        place = choice.get("place")
        if not isinstance(place, dict) or set(place) != set(spec["units"]):
            return [Problem(f"`place` gives a hex for each of {', '.join(spec['units'])}", spec["rule"], ["place"])]
        lo, hi = spec.get("area", {}).get("columns", [1, 15])
        hm = hexmap(state)
        for uid, label in place.items():
            try:
                col = hm.grid.labels.to_offset(hm.parse(str(label)))[0]
            except Exception as exc:
                return [Problem(str(exc), spec["rule"], ["place", uid])]
            if not lo <= col <= hi:
                return [Problem(f"{uid} sets up west of column 16 (columns {lo:02d}-{hi:02d}), not in {label}",
                                spec["rule"], ["place", uid])]
        return []

    def resolve(self, state: dict, decision: Decision, answers: dict, dice) -> tuple[dict, list[dict]]:
        events: list[dict] = []
        if decision.kind == "setup":
            spec = state["rules"]["setup"][0]
            for uid, label in answers[spec["side"]]["place"].items():
                state["units"][uid]["hex"] = str(label)
                events.append({"type": "setup", "side": spec["side"], "rule": spec["rule"],
                               "text": f"{state['units'][uid]['name']} sets up in {label}"})
            state["stage"] = "play"
            return state, events
        from .turn import Turn

        side = state["phasing"]
        choice = answers[side]
        if "standing" in choice:
            state["standing_orders"][side] = copy.deepcopy(choice["standing"])
        if side == "union":
            state["combats"] = [c for c in state.get("combats", []) if c["turn"] == state["turn"]]
        t = Turn(state, state["rules"], hexmap(state), side, choice, dice)
        t.play()
        events += t.events
        if side == "union":
            state["phasing"] = "confederate"
        else:
            self._end_turn(state, events)
        return state, events

    def _end_turn(self, state: dict, events: list[dict]) -> None:
        from .victory import determine

        rules = state["rules"]
        v = determine(state, rules, end_of_turn=state["turn"])
        if v.final:
            state["victory_result"] = v.to_dict()
            state["stage"] = "over"
            events.append({"type": "victory", "rule": v.rule, "text": v.why.splitlines()[0], "detail": v.why})
            return
        events.append({"type": "turn.end", "rule": "13.4", "text": f"turn {state['turn']} ends"})
        state["turn"] += 1
        state["phasing"] = "union"
        state["cancelled_targets"] = []

    # --- views and reports ---------------------------------------------------------------------
    def view(self, state: dict, side: str | None, mode: str) -> dict:
        from .views import public_view, side_view

        los = not (state.get("options") or {}).get("open_map")
        if side in SIDES:
            v = side_view(state, hexmap(state), side, mode, los)
        else:
            v = public_view(state, hexmap(state), mode, los)
        v["viewer"] = side
        return v

    def report(self, view: dict) -> list[Section]:
        from .report import sections

        return sections(view)

    def map_view(self, view: dict):
        from .report import map_units

        return games_dir() / DATA / "maps" / f"{view['map']}.yaml", map_units(view)

    def template(self, view: dict, decision: Decision, side: str) -> tuple[list[str], dict]:
        from .report import template

        return template(view, decision, side)


SYSTEM = SalemChurch()
