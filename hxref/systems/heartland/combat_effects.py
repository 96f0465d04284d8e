"""Combat effects: the frozen records a resolved combat is made of, and how they change a state.

:class:`SpendAsp` (10.12), :class:`StepLoss` (10.63), :class:`MlChange` (3.53, 10.64,
10.65), :class:`Capture` (10.63b), :class:`Kill` and :class:`Wound` (10.67),
:class:`ArtilleryChange` (10.66) and :class:`MoveStack` (10.61d, 10.68);
:func:`apply_effect` (one ``singledispatch`` function) and :func:`apply_combat`.
They roll no dice.  The readings chosen are listed in :mod:`.combat`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import singledispatch
from typing import TYPE_CHECKING, cast

from .state_types import FullGameState
from . import forces as fc
from . import model

if TYPE_CHECKING:
    from .combat_results import Combat


@dataclass(frozen=True)
class SpendAsp:
    leader: str
    points: int
    rule: str
    why: str


@dataclass(frozen=True)
class StepLoss:
    """One step off one unit (10.63): ``cause`` fert | morale | zoc | blocked; ``chooser`` owner | enemy."""

    unit: str
    cause: str
    chooser: str
    rule: str
    why: str


@dataclass(frozen=True)
class MlChange:
    leader: str
    before: int
    after: int
    rule: str
    why: str


@dataclass(frozen=True)
class Capture:
    """10.63b / 10.68: the leader is captured; an HQ goes to the pool; artillery and ASP are lost."""

    leader: str
    rule: str
    why: str


@dataclass(frozen=True)
class Kill:
    """10.67: the leader is killed; ``heir`` takes his box, SLs, artillery and ASP (None: units unled)."""

    leader: str
    heir: str | None
    replacement: str
    rule: str
    why: str
    brevet: int = 0             # 3.32b: stars of the brevet the heir, a Chief of Staff, is given


@dataclass(frozen=True)
class Wound:
    leader: str
    level: int
    rule: str
    why: str


@dataclass(frozen=True)
class ArtilleryChange:
    leader: str
    delta: int
    rule: str
    why: str


@dataclass(frozen=True)
class MoveStack:
    """Leaders (with their boxes), unled units and logistics go to ``to``.  A listed leader whose
    superior is not listed becomes independent; a listed unit whose leader is not listed is unled."""

    leaders: tuple[str, ...]
    units: tuple[str, ...]
    logistics: tuple[str, ...]
    to: str
    rule: str
    why: str


@singledispatch
def apply_effect(effect, state: FullGameState) -> None:
    """Change ``state`` by one combat effect (no dice)."""
    raise TypeError(f"not a combat effect: {effect!r}")


@apply_effect.register
def _(e: SpendAsp, state: FullGameState) -> None:
    ld = state["leaders"][e.leader]
    ld["asp"] = max(0, ld.get("asp", 0) - e.points)


@apply_effect.register
def _(e: StepLoss, state: FullGameState) -> None:
    u = state["units"][e.unit]
    u["steps"] = max(0, u["steps"] - 1)


@apply_effect.register
def _(e: MlChange, state: FullGameState) -> None:
    state["leaders"][e.leader]["ml"] = e.after


def _remove_leader(state: FullGameState, lid: str, **flags: bool) -> None:
    ld = state["leaders"][lid]
    if ld.get("hq"):
        state.setdefault("hq_pool", {}).setdefault(ld["side"], []).append(lid)
    ld.update({"hex": None, "superior": None, "pool": False, "active": False, "hq": False, "artillery": 0,
               "asp": 0})
    cast(dict, ld).update(flags)        # killed, captured or removed: True (10.67, 10.52)


@apply_effect.register
def _(e: Capture, state: FullGameState) -> None:
    _remove_leader(state, e.leader, captured=True)


@apply_effect.register
def _(e: Kill, state: FullGameState) -> None:
    ld = state["leaders"][e.leader]
    here = ld.get("hex") or fc.top_leader_hex(state, e.leader)
    boss = ld.get("superior")
    subs = [x for x, o in state["leaders"].items() if o.get("superior") == e.leader]
    if e.heir is not None and state["leaders"][e.heir].get("cos_of") == e.leader:
        _cos_takes_command(state, e, here)
    if e.heir is not None:
        heir = state["leaders"][e.heir]
        if e.heir in subs:
            heir["superior"] = boss
        heir["artillery"] = heir.get("artillery", 0) + ld.get("artillery", 0)
        heir["asp"] = heir.get("asp", 0) + ld.get("asp", 0)
        for x in subs:
            if x != e.heir:
                state["leaders"][x]["superior"] = e.heir
    for u in state["units"].values():
        if u.get("leader") == e.leader:
            if e.heir is not None:
                u["leader"] = e.heir
            else:
                u["leader"], u["hex"] = None, here
    _remove_leader(state, e.leader, killed=True)


def _cos_takes_command(state: FullGameState, e: Kill, here: str | None) -> None:
    """3.32b: the Chief of Staff leaves the army commander's box and takes the army, its HQ with it,
    where the commander fell; a brevet (14.51) costs the side 1 WEP."""
    ld, cos = state["leaders"][e.leader], state["leaders"][cast(str, e.heir)]
    cos.pop("cos_of", None)
    ld.pop("cos", None)
    cos.update({"hex": here, "superior": ld.get("superior"), "pool": False, "active": True,
                "hq": bool(ld.get("hq"))})
    ld["hq"] = False                    # the HQ stays with the army, not the Leader Pool
    # 3.32b(3): the next Administration names a new commander (he goes back to staff duty, his
    # brevet reverted) or keeps him; until then he holds the army for its fallen commander
    cos["acting_for"] = e.leader
    cos["cos_brevet"] = e.brevet
    if e.brevet:
        cos["brevet"] = int(cos.get("brevet", 0) or 0) + e.brevet
        state["wep"][ld["side"]] -= model.COS_BREVET_WEP


@apply_effect.register
def _(e: Wound, state: FullGameState) -> None:
    ld = state["leaders"][e.leader]
    ld["wound"] = int(ld.get("wound", 0) or 0) + e.level


@apply_effect.register
def _(e: ArtilleryChange, state: FullGameState) -> None:
    ld = state["leaders"][e.leader]
    ld["artillery"] = max(0, ld.get("artillery", 0) + e.delta)


@apply_effect.register
def _(e: MoveStack, state: FullGameState) -> None:
    moving = set(e.leaders)
    for x in e.leaders:
        ld = state["leaders"][x]
        ld["hex"] = e.to
        if ld.get("superior") and ld["superior"] not in moving:
            ld["superior"] = None
    for uid in e.units:
        u = state["units"][uid]
        if u.get("leader") not in moving:
            u["leader"], u["hex"] = None, e.to
    for sid in e.logistics:
        state["logistics"][sid]["hex"] = e.to


def apply_combat(state: FullGameState, combat: "Combat") -> None:
    """Apply a resolved combat's effects to ``state`` (the state it was resolved against)."""
    for e in combat.effects:
        apply_effect(e, state)
