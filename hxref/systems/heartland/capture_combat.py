"""Capture by combat: rule 8.64 (with 7.21, 7.22, 8.73, 8.81a).

8.64: wagons, depots, trains and the Confederate Chief Engineer are captured when all the enemy
combat units in their hex are eliminated by combat (the other way, entering a hex where they are
alone, is :func:`.capture.captures_on_entry` during a move).  What each capture does is
:func:`.capture.apply_capture`; a depot forced to retreat is 8.64b (:func:`.capture.depot_retreats`).

Readings: the captures are taken at the end of the Combat Sequence, after every combat of the
impulse; a hex counts as cleared by combat when its owner had combat units there before the
Combat Sequence and has none after it (eliminated, or driven off by a retreat: what stays behind
has lost its escort to the combat all the same); the captor is the enemy force that fought
against that hex (the first attacker of the target hex still on the map, or a defending force of
the target when an attacker's own hex was cleared), and it must have an active OC (8.1) as for a
capture by entry.  A Union Naval Landing is never taken this way (8.64a: a choice on entry).
"""
from __future__ import annotations

from typing import Iterable, Mapping

from .state_types import FullGameState
from . import model
from ...kit.events import Event, event


def _fights(assaults: Iterable[Mapping]) -> list[tuple[str, str, str]]:
    return [(str(a["force"]), str(a["source"]), str(a["target"])) for a in assaults]


def held_before(state: FullGameState, assaults: Iterable[Mapping]) -> dict[str, list[str]]:
    """Before the Combat Sequence: every hex fought over or from -> the sides with combat units there."""
    from .capture import hex_combat_units

    hexes = {h for _, src, tgt in _fights(assaults) for h in (src, tgt)}
    return {h: [s for s in ("union", "confederate") if hex_combat_units(state, h, s)] for h in sorted(hexes)}


def _captor(state: FullGameState, side: str, label: str, fights: list[tuple[str, str, str]]) -> str | None:
    """The force of ``side`` that fought against ``label``: an attacker of it, or a defender of the
    target an attacker from ``label`` fought."""
    mine = set(model.forces(state, side))
    for force, src, tgt in fights:
        if tgt == label and force in mine and model.units_of(state, force):
            return force
    for force, src, tgt in fights:
        if src == label:
            for f in model.forces(state, side):
                if model.force_hex(state, f) == tgt and model.units_of(state, f):
                    return f
    return None


def captures_after_combat(state: FullGameState, assaults: Iterable[Mapping],
                          before: Mapping[str, list[str]]) -> list[Event]:
    """8.64: apply the captures in every hex the combat cleared of its owner's combat units; the events."""
    from .capture import apply_capture, captures_on_entry, hex_combat_units

    fights = _fights(assaults)
    events: list[Event] = []
    for label, sides in before.items():
        for owner in sides:
            if hex_combat_units(state, label, owner):
                continue                            # still held
            captor = _captor(state, model.other_side(owner), label, fights)
            if captor is None:
                continue
            for c in captures_on_entry(state, captor, label, by_combat=True):
                if not c.automatic:
                    continue                        # 8.64a: a landing is taken only by entering it
                if c.problems:
                    events.append(event("capture.void", c.why, c.problems[0].rule, side=c.captor,
                                        visible_to=[c.captor]))
                    continue
                apply_capture(state, c)
                events.append(event("capture", c.why + " (8.64: every enemy combat unit there is gone by combat)",
                                    c.rule, side=c.captor, id=c.id, hex=label))
    return events
