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
            return state, fog_events(state, events, dice)
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
        return state, fog_events(state, events, dice)

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
        if v["view"]["los"]:
            # every combat of the turn stays in the turn summary; enemy units out of sight are not named
            hidden = {uid for uid in state["units"] if uid not in v["units"]}
            v["combats"] = [_redact(c, _needles(state, hidden)) for c in state.get("combats") or []]
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


# --- line-of-sight fog for the events and dice of a resolution (umpired play) ----------------------

#: events about a unit's own doings: a side that does not see the unit gets nothing of them
_SUBJECT_EVENTS = ("setup", "move", "move.void", "entry.delayed", "recover", "replacement", "replacement.void")


@lru_cache(maxsize=None)
def _sight_from(map_name: str, label: str) -> frozenset:
    """The hexes a unit in ``label`` sees (contact and the TEC's line of sight, as
    :func:`.views.visible_hexes`), worked out once per hex: the terrain never changes."""
    from ...geometry.hex import distance
    from .views import line_of_sight

    hm = load_map(map_name)
    o = hm.parse(label)
    return frozenset(hm.label(h) for h in hm.hexes() if distance(o, h) <= 1 or line_of_sight(hm, o, h).visible)


def _seen_units(state: dict, side: str) -> set:
    """:func:`.views.seen_units`, from the cached sight of each hex a unit of ``side`` is in."""
    from .views import observers

    vis = set().union(*(_sight_from(state["map"], h) for h in sorted(observers(state, side))))
    return {uid for uid, u in state["units"].items() if u.get("side") != side and u.get("hex") is not None
            and (u.get("steps") or 0) > 0 and str(u["hex"]) in vis}


def _fogged(state: dict) -> bool:
    return state.get("mode") == "umpired" and not (state.get("options") or {}).get("open_map")


def _needles(state: dict, hidden) -> dict:
    """uid -> (pattern of its id and name, what to say instead)."""
    import re

    out = {}
    for uid in sorted(hidden):
        u = state["units"][uid]
        words = sorted({uid, str(u.get("name") or uid)}, key=len, reverse=True)
        out[uid] = (re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])"),
                    f"an unseen {'Union' if u['side'] == 'union' else 'Confederate'} unit")
    return out


def _names(node, needles: dict) -> set:
    if isinstance(node, str):
        return {uid for uid, (pat, _) in needles.items() if pat.search(node)}
    if isinstance(node, dict):
        return set().union(*(_names(v, needles) | _names(k, needles) for k, v in node.items())) if node else set()
    if isinstance(node, (list, tuple)):
        return set().union(*(_names(v, needles) for v in node)) if node else set()
    return set()


def _redact(node, needles: dict):
    if isinstance(node, str):
        for pat, say in needles.values():
            node = pat.sub(say, node)
        return node
    if isinstance(node, dict):
        return {_redact(k, needles): _redact(v, needles) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [_redact(v, needles) for v in node]
    return node


def fog_events(state: dict, events: list[dict], dice) -> list[dict]:
    """Umpired line-of-sight play (views): no report names an enemy unit its reader does not see.

    After the resolution, an event naming a unit that one side does not see is kept whole for the
    sides that see every unit it names (``only``; the umpire sees all) and, for a side that does
    not, either left out (a move, recovery or replacement of an unseen unit) or given again with
    the unseen units named "an unseen Union/Confederate unit" (combats, victory-hex control, the
    wagon train).  Control of a hex other than the four public victory hexes is told only to the
    side that took it (the views show no other control either).  A die whose purpose names a
    unit the other side does not see is private to its roller; a unit its roller does not see
    is not named in the purpose.  Open games, and ``--option open_map``, show everything.
    """
    if not _fogged(state):
        return events
    from .views import PUBLIC_CONTROL_HEXES

    units = state["units"]
    needles = {}
    for side in SIDES:
        seen = _seen_units(state, side)
        needles[side] = _needles(state, {u for u, x in units.items() if x["side"] != side and u not in seen})
    out: list[dict] = []
    for ev in events:
        if ev.get("type") == "control" and ev.get("hex") not in PUBLIC_CONTROL_HEXES and ev.get("holder") in SIDES:
            out.append({**ev, "only": [ev["holder"]]})      # where a side's units went is its own business
            continue
        hid = {side: _names(ev, needles[side]) for side in SIDES}
        if not any(hid.values()):
            out.append(ev)
            continue
        out.append({**ev, "only": [side for side in SIDES if not hid[side]]})
        for side in SIDES:
            if not hid[side] or ev.get("type") in _SUBJECT_EVENTS or (
                    ev.get("type") == "control" and ev.get("hex") not in PUBLIC_CONTROL_HEXES):
                continue
            out.append({**_redact({k: v for k, v in ev.items() if k != "only"},
                                  {u: needles[side][u] for u in hid[side]}), "only": [side], "redacted": True})
    for roll in getattr(dice, "rolls", []):
        by = roll.by if roll.by in SIDES else None
        if by is None:
            continue
        other = SIDES[1] if by == SIDES[0] else SIDES[0]
        if _names(roll.purpose, needles[other]):
            roll.private = True
        mine = {u: needles[by][u] for u in _names(roll.purpose, needles[by])}
        if mine:
            roll.purpose = _redact(roll.purpose, mine)
    return out
