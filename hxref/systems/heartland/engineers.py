"""Union bridging engineers and pontoon bridges (8.8, 8.81, 8.93).

State keys read or written::

    pontoons:                          Pontoon Bridge markers (8.81), a list
      - {id: p1, side: union, hex: "0602", hexside: null, status: unbridged, laid_turn: null}
        # status: unbridged | laying | bridged | lifting; hexside set once laid
        # work: the impulse key (rail.impulse_key) the work was ordered in
    units[id]["at_work"]: true         an engineer flipped to its "at work" side (8.81a)

:func:`pontoon_hexsides` gives :func:`.terrain.step_cost` its ``pontoons``
(laid bridges cross a major river for a ford's cost, 8.81).

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_engineers.py``):

* 8.81a "next impulse": the work is finished at the start of the next
  **Union** impulse (:func:`finish_work`, called by the caller then).
* The 1 AP is paid by a Union army commander (3.31b), active (8.1), with the
  engineer's hex within his command range (3.31a: his MR in hexes).
* Only the Union uses its pontoons (the only ones in the game); a pontoon
  being taken up stays usable until the work is finished.
* A laid pontoon is removed when an enemy **combat unit** is in either bank
  hex (:func:`pontoon_losses`); an unbridged one when enemy combat units
  enter its hex while no friendly combat unit is there (8.81a; see
  :mod:`.capture`), or when the units with it retreat or are eliminated
  (the caller reports that: :func:`remove_pontoon`).
* 8.93: pontoon hexsides blockaded by Confederate gunboats are passed as
  ``blockaded`` (gunboat control ranges are not modelled here).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Mapping, cast

from .state_types import FullGameState, Pontoon
from ..base import Problem
from . import forces as fc
from . import model
from .rail import impulse_key
from .zoc import zoc_hexes

MAJOR_RIVER = "major_river"
WORK_AP = 1              # 8.81a, 8.81b: 1 AP of a Union army commander
SIDE = "union"           # 8.8: only Union engineers bridge


def pontoons(state: FullGameState) -> list[Pontoon]:
    return state.setdefault("pontoons", [])


def pontoon(state: FullGameState, pid: str) -> Pontoon | None:
    return next((p for p in state.get("pontoons") or [] if p.get("id") == pid), None)


def pontoon_hexsides(state: FullGameState, side: str, blockaded: Collection[str] = ()) -> list[str]:
    """The laid pontoon hexsides ``side`` may cross at a ford's cost (8.81; 8.93 closes blockaded ones)."""
    return cast(list[str], [p["hexside"] for p in state.get("pontoons") or []
                            if p.get("side") == side and p.get("status") in ("bridged", "lifting") and p.get("hexside")
                            and p["hexside"] not in set(blockaded)])


def unit_hex(state: FullGameState, uid: str) -> str | None:
    u = state["units"][uid]
    if u.get("leader"):
        return state["leaders"][model.top_of(state, cast(str, u["leader"]))].get("hex")
    return u.get("hex")


@dataclass
class PontoonWork:
    """An order to lay or take up a pontoon bridge (8.81a, 8.81b)."""

    kind: str                   # "lay" | "take_up"
    pontoon: str
    engineer: str
    hexside: str | None
    commander: str | None
    charges: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.81a"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def _common(state: FullGameState, hexmap, engineer: str, pid: str, commander: str | None, r: PontoonWork) -> Pontoon | None:
    p = r.problems
    u = state["units"].get(engineer)
    if u is None or u["arm"] != "engineer" or u["side"] != SIDE or u["steps"] <= 0:
        p.append(Problem(f"{engineer} is not a Union engineer unit: only Union engineers bridge", "8.8", ["engineer"]))
    elif u.get("at_work"):
        p.append(Problem(f"{engineer} is already at work", "8.81a", ["engineer"]))
    pt = pontoon(state, pid)
    if pt is None:
        p.append(Problem(f"no Pontoon Bridge marker {pid!r}", "8.81", ["pontoon"]))
    elif u is not None and unit_hex(state, engineer) != pt.get("hex"):
        p.append(Problem(f"{engineer} and pontoon {pid} are not stacked", "8.81a", ["engineer"]))
    if commander is None or commander not in state["leaders"]:
        p.append(Problem("a Union army commander must order the work (1 AP)", "8.81a", ["commander"]))
    else:
        ld = state["leaders"][commander]
        if not ld.get("hq") or ld["side"] != SIDE:
            p.append(Problem(f"{commander} is not a Union army commander", "8.81a", ["commander"]))
        elif not ld.get("active"):
            p.append(Problem(f"{commander} is inactive", "8.1", ["commander"]))
        elif pt is not None and not fc.in_command_range(state, hexmap, commander, cast(str, pt.get("hex"))):
            p.append(Problem(f"the pontoon in {pt.get('hex')} is outside {commander}'s command range", "3.31a",
                             ["commander"]))
        r.charges = [fc.APCharge(commander, WORK_AP, "8.81a", f"{commander} sets {engineer} to work")]
        p += fc.ap_problems(state, r.charges)
    return pt


def lay_pontoon(state: FullGameState, hexmap, engineer: str, pid: str, hexside: str, commander: str | None, *,
                controlled: Collection[str] = ()) -> PontoonWork:
    """8.81a: order ``engineer`` to lay pontoon ``pid`` across the major-river ``hexside`` from the
    stack's hex (``controlled``: hexsides under enemy battery or gunboat control)."""
    r = PontoonWork("lay", pid, engineer, str(hexside), commander)
    p = r.problems
    pt = _common(state, hexmap, engineer, pid, commander, r)
    if pt is not None and pt.get("status") != "unbridged":
        p.append(Problem(f"pontoon {pid} is {pt.get('status')}, not ready to lay", "8.81a", ["pontoon"]))
    try:
        s = hexmap.grid.parse_hexside(str(hexside))
        r.hexside = hexmap.grid.side_label(s)
    except Exception as e:
        p.append(Problem(str(e), "8.81", ["hexside"]))
        s = None
    if s is not None:
        if MAJOR_RIVER not in hexmap.side_features(s, effective=False):
            p.append(Problem(f"{r.hexside} is not a major-river hexside", "8.81", ["hexside"]))
        banks = [hexmap.label(h) for h in s.hexes]
        if pt is not None and pt.get("hex") not in banks:
            p.append(Problem(f"the pontoon in {pt.get('hex')} is not on a bank of {r.hexside}", "8.81",
                             ["hexside"]))
        else:
            far = [b for b in banks if pt is None or b != pt.get("hex")]
            enemy = model.other_side(SIDE)
            occupied = model.occupied_hexes(state, enemy)
            zoc = set(zoc_hexes(state, enemy, hexmap))
            friendly = model.occupied_hexes(state, SIDE)
            for b in banks:
                if b in occupied:
                    p.append(Problem(f"the enemy holds {b}", "8.81a", ["hexside"]))
            for b in far:
                if b in zoc and b not in friendly:
                    p.append(Problem(f"{b} is in enemy ZOC with no friendly combat unit in it", "8.81a",
                                     ["hexside"]))
        if r.hexside in set(controlled):
            p.append(Problem(f"{r.hexside} is controlled by enemy batteries or gunboats", "8.81a", ["hexside"]))
    r.why = ("illegal: " + "; ".join(x.message for x in p)) if p else (
        f"{commander} pays {WORK_AP} AP; {engineer} goes to work: the pontoon is laid across {r.hexside} "
        "next impulse")
    return r


def take_up_pontoon(state: FullGameState, hexmap, engineer: str, pid: str, commander: str | None) -> PontoonWork:
    """8.81b: take up a laid pontoon: 1 AP of an army commander, steps as for laying."""
    pt = pontoon(state, pid)
    r = PontoonWork("take_up", pid, engineer, pt.get("hexside") if pt else None, commander, rule="8.81b")
    _common(state, hexmap, engineer, pid, commander, r)
    if pt is not None and pt.get("status") != "bridged":
        r.problems.append(Problem(f"pontoon {pid} is {pt.get('status')}, not laid", "8.81b", ["pontoon"]))
    r.why = ("illegal: " + "; ".join(x.message for x in r.problems)) if r.problems else (
        f"{commander} pays {WORK_AP} AP; {engineer} goes to work: the pontoon across {r.hexside} is taken up "
        "next impulse")
    return r


def apply_pontoon_work(state: FullGameState, w: PontoonWork) -> None:
    """The AP, the engineer "at work", the pontoon's status until :func:`finish_work`."""
    if w.problems:
        raise ValueError("cannot apply illegal engineer work: " + w.why)
    fc.apply_charges(state, w.charges)
    state["units"][w.engineer]["at_work"] = True
    pt = cast(Pontoon, pontoon(state, w.pontoon))      # pontoon_work found it
    pt["engineer"] = w.engineer
    pt["work"] = impulse_key(state)
    if w.kind == "lay":
        pt["status"], pt["hexside"] = "laying", w.hexside
    else:
        pt["status"] = "lifting"


@dataclass
class WorkDone:
    pontoon: str
    status: str
    hexside: str | None
    rule: str = "8.81a"
    why: str = ""


def finish_work(state: FullGameState) -> list[WorkDone]:
    """8.81a/b: at the start of the next Union impulse, finish the work ordered earlier: the pontoon
    flips to "bridged" (or back to "unbridged") and the engineer flips back."""
    now = impulse_key(state)
    out = []
    for pt in state.get("pontoons") or []:
        if pt.get("status") not in ("laying", "lifting") or pt.get("work") == now:
            continue
        if pt["status"] == "laying":
            pt["status"] = "bridged"
            pt["laid_turn"] = state.get("turn")
            why = f"pontoon {pt['id']} is laid across {pt['hexside']}"
        else:
            why = f"pontoon {pt['id']} is taken up from {pt['hexside']}"
            pt["status"], pt["hexside"], pt["laid_turn"] = "unbridged", None, None
        eng = pt.pop("engineer", None)
        if eng and eng in state["units"]:
            state["units"][eng]["at_work"] = False
        pt.pop("work", None)
        out.append(WorkDone(pt["id"], pt["status"], pt.get("hexside"), "8.81a", why))
    return out


@dataclass
class PontoonLoss:
    pontoon: str
    rule: str = "8.81a"
    why: str = ""


def pontoon_losses(state: FullGameState, hexmap) -> list[PontoonLoss]:
    """8.81a: laid pontoons with an enemy combat unit in either bank hex are removed."""
    out = []
    for pt in state.get("pontoons") or []:
        if not pt.get("hexside") or pt.get("status") not in ("bridged", "lifting", "laying"):
            continue
        s = hexmap.grid.parse_hexside(pt["hexside"])
        occupied = model.occupied_hexes(state, model.other_side(pt["side"]))
        held = [hexmap.label(h) for h in s.hexes if hexmap.label(h) in occupied]
        if held:
            out.append(PontoonLoss(pt["id"], "8.81a",
                                   f"the enemy occupies {', '.join(held)}: pontoon {pt['id']} is removed"))
    return out


def remove_pontoon(state: FullGameState, pid: str) -> None:
    """Remove a pontoon (8.81a losses; also when the units stacked with an unbridged one retreat or die)."""
    gone: Mapping[str, Any] = pontoon(state, pid) or {}
    state["pontoons"] = [p for p in state.get("pontoons") or [] if p.get("id") != pid]
    eng = gone.get("engineer")
    if eng and eng in state["units"]:
        state["units"][eng]["at_work"] = False


def apply_pontoon_losses(state: FullGameState, losses: list[PontoonLoss]) -> None:
    for x in losses:
        remove_pontoon(state, x.pontoon)
