"""The cavalry corps' limits in play: rule 3.12 (with 3.11b, 4.32(3), 6.1, 8.62 and 10.66).

A cavalry corps is a field command made up only of cavalry combat units; each side may have at
most 2; a corps may have at most 2 artillery (3.12, repeated by 8.62).  The Cavalry Corps marker is
``leaders[id]["cavalry_corps"]`` (its "Screen" side ``screen``, 8.62a); :func:`.cavalry.is_corps`
says when a marked leader's force enjoys the corps' benefits.  This module keeps the limits while
orders change the forces:

* **forming** (3.12 "may be made a corps", 8.62; 4.32(3) "form new field commands"): the
  Administration order ``cavalry_corps: [LEADER, ...]`` puts a marker on an independent leader on
  the map, not an army commander, who heads no SL and whose box holds only living cavalry units and
  at most 2 artillery, while his side has fewer than 2 corps (:func:`formation`).  The rules name no
  AP or WEP for it and none is charged.
* **artillery** (3.11b "the artillery that can be assigned to a corps is limited", 3.12): no order
  gives a corps' box a third artillery -- forming refuses a box with more, and captured artillery
  (10.66) goes to another leader of the stack, or is lost, rather than to a corps that has its 2
  (:func:`artillery_room`).  A merge adds none: unled units bring no artillery, and two leaders
  keep their own boxes.
* **cavalry only, one leader's box** (3.11b, 3.12 are definitions): an order may still put other
  units in a corps' box (a merge, detachment regiments, 8.51) or an SL under its leader, or give it
  more artillery by any other way (a reinforcement's record); the force is then no longer a cavalry
  corps and its marker comes off (:func:`lapses`), as it does when the leader leaves the map for
  the Leader Pool or is killed or captured.  A successor who takes over the box takes the marker
  with it (the marker is in the box's Status, 3.12; :mod:`.admin_leaders`).
* **two a side** (3.12): counted at any one time, the marked leaders on the map (a corps in an army
  commander's box included): the counter mix has two markers a side.  A reinforcement (6.1) whose
  leader comes marked beyond that enters without the marker (:func:`admit`).

:func:`corps_check` is the scenario set-up's check of the same limits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .state_types import FullGameState
from ..base import Problem
from . import model
from ...kit.events import Event, event

MAX_CORPS = 2                  # 3.12, 8.62
MAX_CORPS_ARTILLERY = 2        # 3.12, 8.62
RULE = "3.12"


def _out_of_play(ld) -> bool:
    """In the Leader Pool, killed, captured or removed: his box is no longer a command on the map.
    (A leader off the map by rail, 8.74, keeps his command.)"""
    return bool(ld.get("pool") or ld.get("killed") or ld.get("captured") or ld.get("removed")
                or ld.get("cos_of"))


def marked(state: FullGameState, side: str) -> list[str]:
    """The leaders of ``side`` whose box holds a Cavalry Corps marker, in play (3.12: at most 2)."""
    return sorted(lid for lid, ld in state["leaders"].items()
                  if ld["side"] == side and ld.get("cavalry_corps") and not _out_of_play(ld))


def artillery_of(state: FullGameState, lid: str) -> int:
    return int(state["leaders"][lid].get("artillery", 0) or 0)


def artillery_room(state: FullGameState, lid: str) -> int | None:
    """How much more artillery ``lid``'s box may take: None when no corps limit applies (3.12)."""
    if not state["leaders"][lid].get("cavalry_corps"):
        return None
    return max(0, MAX_CORPS_ARTILLERY - artillery_of(state, lid))


def _not_cavalry(state: FullGameState, units: Iterable[str]) -> list[str]:
    return [u for u in units if state["units"][u]["arm"] != "cavalry"]


def breach(state: FullGameState, lid: str) -> str | None:
    """Why the marked leader ``lid``'s command is no longer a cavalry corps (3.11b, 3.12), or None."""
    ld = state["leaders"][lid]
    if _out_of_play(ld):
        return f"{ld['name']} has left the map ({'the Leader Pool' if ld.get('pool') else 'out of the game'})"
    subs = model.subordinates(state, lid)
    if subs:
        return (f"{ld['name']} now heads {', '.join(sorted(subs))}: a cavalry corps is a field command, one "
                "leader's box (3.11b)")
    others = _not_cavalry(state, model.force_units(state, lid))
    if others:
        what = ", ".join(f"{u} ({state['units'][u]['arm']})" for u in sorted(others))
        return f"{ld['name']}'s box now holds {what}: a cavalry corps is made up of cavalry units only"
    if artillery_of(state, lid) > MAX_CORPS_ARTILLERY:
        return f"{ld['name']}'s box has {artillery_of(state, lid)} artillery; a cavalry corps at most {MAX_CORPS_ARTILLERY}"
    return None


@dataclass
class Lapse:
    """A Cavalry Corps marker comes off: the command no longer is one (3.12)."""

    leader: str
    side: str
    why: str
    rule: str = RULE


def lapses(state: FullGameState) -> list[Lapse]:
    """Every marked command that no longer meets 3.12 (nothing is changed)."""
    out = []
    for lid in sorted(state["leaders"]):
        ld = state["leaders"][lid]
        if not ld.get("cavalry_corps"):
            continue
        reason = breach(state, lid)
        if reason is not None:
            out.append(Lapse(lid, ld["side"], f"{reason}: it is no longer a cavalry corps and its marker comes "
                                              f"off (3.12)"))
    return out


def apply_lapse(state: FullGameState, lp: Lapse) -> None:
    ld = state["leaders"][lp.leader]
    for key in ("cavalry_corps", "screen"):
        ld.pop(key, None)       # type: ignore[misc]


def lapse_events(state: FullGameState) -> list[Event]:
    """3.12 after any resolution: remove the markers of commands that broke the corps' limits; one
    event each, for the owner (the AOD is his, 3.1)."""
    out = []
    for lp in lapses(state):
        apply_lapse(state, lp)
        out.append(event("corps.lapsed", lp.why, lp.rule, side=lp.side, leader=lp.leader, visible_to=[lp.side]))
    return out


def admit(state: FullGameState, lid: str) -> str | None:
    """6.1 with 3.12: an arriving leader marked a corps keeps the marker only while his side has fewer
    than 2 others; returns why the marker came off, or None."""
    ld = state["leaders"][lid]
    if not ld.get("cavalry_corps"):
        return None
    others = [x for x in marked(state, ld["side"]) if x != lid]
    if len(others) < MAX_CORPS:
        return None
    for key in ("cavalry_corps", "screen"):
        ld.pop(key, None)       # type: ignore[misc]
    return (f"{ld['name']} arrives without the Cavalry Corps marker: {ld['side']} already has {len(others)} "
            f"cavalry corps ({', '.join(others)}), at most {MAX_CORPS} (3.12)")


@dataclass
class Formation:
    """The Administration order that makes a command a cavalry corps (3.12, 8.62, 4.32(3))."""

    leader: str
    side: str
    problems: list[Problem] = field(default_factory=list)
    rule: str = RULE
    why: str = ""


def _not_formable(state: FullGameState, side: str, lid: str) -> str | None:
    """Why ``lid``'s command may not be made a cavalry corps now (3.11b, 3.12), or None."""
    ld = state["leaders"][lid]
    units = model.force_units(state, lid)
    others = _not_cavalry(state, units)
    have = marked(state, side)
    checks = (
        (_out_of_play(ld) or not ld.get("hex"), f"{lid} is not on the map"),
        (ld.get("cavalry_corps"), f"{lid} already heads a cavalry corps"),
        (ld.get("hq"), f"{lid} is an army commander: a cavalry corps is a field command (3.11b)"),
        (ld.get("superior"), f"{lid} is in {ld.get('superior')}'s box: only a leader heading his own force forms a corps"),
        (model.subordinates(state, lid), f"{lid} heads SLs: a cavalry corps is a field command, one leader's box (3.11b)"),
        (not units or others, f"{lid}'s box holds "
         + (", ".join(f"{u} ({state['units'][u]['arm']})" for u in others) if others else "no combat unit")
         + ": a cavalry corps is made up of cavalry units only"),
        (artillery_of(state, lid) > MAX_CORPS_ARTILLERY,
         f"{lid}'s box has {artillery_of(state, lid)} artillery; a cavalry corps at most {MAX_CORPS_ARTILLERY}"),
        (len(have) >= MAX_CORPS,
         f"{side} already has {len(have)} cavalry corps ({', '.join(have)}); at most {MAX_CORPS} a side"),
    )
    return next((why for bad, why in checks if bad), None)


def formation(state: FullGameState, side: str, lid, path: list) -> Formation:
    """3.12 / 8.62: ``lid``'s command becomes a cavalry corps (the markers already placed count)."""
    f = Formation(str(lid), side)
    ld = state["leaders"].get(lid) if isinstance(lid, str) else None
    if ld is None or ld["side"] != side:
        f.problems.append(Problem(f"{lid!r} is not one of your leaders", RULE, path))
        return f
    why = _not_formable(state, side, lid)
    if why is not None:
        f.problems.append(Problem(why, RULE, path))
        f.why = "not formed: " + why
        return f
    f.why = (f"{ld['name']}'s command ({len(model.force_units(state, lid))} cavalry unit(s), "
             f"{artillery_of(state, lid)} artillery) becomes a cavalry corps (3.12, 8.62)")
    return f


# --- the scenario's set-up ----------------------------------------------------------------------

@dataclass
class CorpsCheck:
    side: str
    corps: list[str]
    problems: list[Problem] = field(default_factory=list)
    rule: str = RULE
    why: str = ""


def corps_check(state: FullGameState, side: str) -> CorpsCheck:
    """3.12/8.62: at most 2 corps a side, each cavalry only, one leader's box, at most 2 artillery."""
    from .cavalry import is_corps

    flagged = [lid for lid, ld in model.on_map_leaders(state, side) if ld.get("cavalry_corps")]
    p: list[Problem] = []
    for lid in flagged:
        if not is_corps(state, lid):
            p.append(Problem(f"{lid} is marked a cavalry corps but his force is not an independent "
                             "force of cavalry only", RULE, ["leaders", lid]))
        if artillery_of(state, lid) > MAX_CORPS_ARTILLERY:
            p.append(Problem(f"{lid}'s cavalry corps has {artillery_of(state, lid)} artillery; "
                             f"at most {MAX_CORPS_ARTILLERY}", RULE, ["leaders", lid, "artillery"]))
    if len(flagged) > MAX_CORPS:
        p.append(Problem(f"{side} has {len(flagged)} cavalry corps ({', '.join(flagged)}); at most {MAX_CORPS}",
                         RULE, ["leaders"]))
    why = f"{side}: {len(flagged)} cavalry corps" + ("" if not p else "; " + "; ".join(x.message for x in p))
    return CorpsCheck(side, flagged, p, why=why)
