"""A step of the Reorganization Segment, its record and its bookkeeping (12.0, 13.0, 4.3-4.4).

:class:`Action` and :class:`StepResult` (what a step did and why), the refusal and summary
helpers, and the small questions about the state (turn, calendar, leaders, this turn's
records, AP and WEP bookkeeping) that every step asks: :mod:`.reorg_destruction`,
:mod:`.reorg_foraging`, :mod:`.reorg_supply_recheck` and :mod:`.administration`.  The order
of the steps is in :mod:`.reorganization`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, cast

from .state_types import FullGameState, Leader, Turn
from ..base import Problem
from . import forces as fc
from . import model
from .forced_march import Change, Work


# --------------------------------------------------------------------------
# results


@dataclass
class Action:
    """What one order (or one automatic effect) did."""

    kind: str
    side: str
    leader: str | None = None
    target: str | None = None
    ap: int = 0
    wep: int = 0                     # + gained, - spent or lost (this side's, unless ``wep_side``)
    wep_side: str | None = None
    rolls: list[int] = field(default_factory=list)
    success: bool | None = None
    rule: str = ""
    why: str = ""


@dataclass
class StepResult:
    """One step of the Reorganization Segment for one side."""

    step: str
    side: str | None
    actions: list[Action] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    rule: str = ""
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        head = f"{self.step} ({self.side or 'both sides'}, {self.rule}): {self.why}"
        return [head] + [f"  {a.why}" for a in self.actions] + [f"  illegal: {p.message} ({p.rule})"
                                                                for p in self.problems]


def _refused(step: str, side: str, problems: list[Problem], rule: str) -> StepResult:
    return StepResult(step, side, [], problems, [], rule,
                      "refused, nothing done: " + "; ".join(p.message for p in problems))


def _summary(actions: list[Action], nothing: str) -> str:
    return "; ".join(a.why for a in actions) if actions else nothing


# --------------------------------------------------------------------------
# questions about the state


def turn_of(state: FullGameState) -> int:
    return int(state.get("turn", 1) or 1)


def calendar_entry(state: FullGameState) -> Mapping[str, Any]:
    cal = state.get("calendar") or []
    t = turn_of(state)
    return cal[t - 1] if 0 < t <= len(cal) else {}


def month_of(state: FullGameState) -> int | None:
    return calendar_entry(state).get("month", state.get("month"))


def year_of(state: FullGameState) -> int | None:
    return calendar_entry(state).get("year")


def gone(leader: Leader) -> bool:
    """Killed, captured or removed: out of the game."""
    return bool(leader.get("killed") or leader.get("captured") or leader.get("removed"))


def reorg(state: FullGameState) -> Mapping[str, Any]:
    """This turn's reorganization records (read only)."""
    return (state.get("current") or cast(Turn, {})).get("reorganization") or {}


def hex_units(state: FullGameState, label: str, side: str) -> list[str]:
    """Living combat units of ``side`` in hex ``label``: in the boxes of its forces there, and unled."""
    out: list[str] = []
    for f in model.forces_in_hex(state, label, side):
        out += [u for u in model.units_of(state, f) if u not in out]
    return out


def _leader_problems(state: FullGameState, side: str, lid, path: list, rule: str, *, active: bool = False,
                     on_map: bool = True) -> list[Problem]:
    if not isinstance(lid, str) or lid not in state["leaders"]:
        return [Problem(f"{lid!r} is not a leader", rule, path)]
    ld = state["leaders"][lid]
    if ld["side"] != side:
        return [Problem(f"{lid} is not one of your leaders", rule, path)]
    if gone(ld) or ld.get("pool") or ld.get("cos_of"):
        return [Problem(f"{lid} is not on the map or in a box", rule, path)]
    if on_map and not fc.in_service(ld):
        return [Problem(f"{lid} is not on the map or in a box", rule, path)]
    if active and not ld.get("active"):
        return [Problem(f"{lid} is inactive: only active leaders may do this (8.1)", rule, path)]
    return []


def _must_be_oc(state: FullGameState, side: str, lid: str, path: list, rule: str) -> list[Problem]:
    """13.1: the order is the OC's of the stack in his hex."""
    here = state["leaders"][lid].get("hex")
    if not here:
        return [Problem(f"{lid} is not on the map", rule, path)]
    oc = fc.hex_command(state, here, side).oc
    if oc != lid:
        return [Problem(f"{lid} is not the OC of the stack in {here} ({oc} is): the OC acts and pays", rule, path)]
    return []


class _AP:
    """AP reserved by the orders of one step, checked against what each leader has."""

    def __init__(self, state: FullGameState):
        self.state = state
        self.due: dict[str, int] = {}

    def take(self, lid: str, n: int, path: list, rule: str, what: str) -> list[Problem]:
        have = int(self.state["leaders"][lid].get("ap", 0))
        if self.due.get(lid, 0) + n > have:
            return [Problem(f"{lid} has {have} AP; {what} needs {n} more than the {self.due.get(lid, 0)} "
                            "already ordered", "3.24", path)]
        self.due[lid] = self.due.get(lid, 0) + n
        return []


def _spend_ap(work: Work, lid: str, n: int) -> None:
    """Spend ``n`` AP of a leader, down to 0 (3.24)."""
    ap = int(work.state["leaders"][lid].get("ap", 0))
    work.set(("leaders", lid, "ap"), max(0, ap - n))


def _wep_change(work: Work, side: str, amount: int) -> int:
    """Add ``amount`` WEP (never below 0, 3.16); returns the change actually made."""
    wep = work.state.setdefault("wep", {})
    before = int(wep.get(side, 0))
    after = max(0, before + amount)
    work.set(("wep", side), after)
    return after - before


def marked(state: FullGameState, key: str) -> set[str]:
    """Labels in a marker record (``burned_bridges``, ``devastated``): a mapping or a list."""
    return set(map(str, cast(Mapping[str, Any], state).get(key) or ()))


def _mark(work: Work, key: str, label: str, value: dict) -> None:
    raw = work.state.get(key)
    if isinstance(raw, list):           # an old list record: turn it into the mapping first
        work.set((key,), {str(x): {} for x in raw})
    work.set((key, label), value)


def _record(work: Work, key: str, side: str | None, value: Any) -> None:
    """Append ``value`` to this turn's record current.reorganization[key][side] (or [key] without side)."""
    rec = reorg(work.state)
    if side is None:
        cur = list(rec.get(key, []))
        cur.append(value)
        work.set(("current", "reorganization", key), cur)
    else:
        cur = list((rec.get(key) or {}).get(side, []))
        cur.append(value)
        work.set(("current", "reorganization", key, side), cur)


def _recorded(state: FullGameState, key: str, side: str | None = None) -> list:
    rec = reorg(state).get(key)
    if rec is None:
        return []
    return list(rec.get(side, [])) if side is not None else list(rec)


def _label_of_side(hexmap, raw) -> tuple[Any, str] | tuple[None, str]:
    try:
        s = hexmap.grid.parse_hexside(str(raw))
    except Exception as e:      # InvalidInput, ValueError
        return None, str(e)
    return s, hexmap.grid.side_label(s)


def landing_hexes(state: FullGameState) -> set[str]:
    """Hexes of Union Naval Landings (``state["landings"]``: ids to ``{hex}``, or a list of hexes)."""
    raw = state.get("landings") or {}
    items = raw.values() if isinstance(raw, Mapping) else raw
    out = set()
    for x in items:
        out.add(str(x["hex"]) if isinstance(x, Mapping) else str(x))
    return out


def brigades_in(state: FullGameState, label: str, side: str) -> list[str]:
    """13.13: living infantry and cavalry units of brigade size of ``side`` in ``label``."""
    return [u for u in hex_units(state, label, side)
            if state["units"][u].get("size") == "brigade" and state["units"][u]["arm"] in ("infantry", "cavalry")]
