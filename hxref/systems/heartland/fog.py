"""Fog-safe checks in umpired games (3.71, 8.62a).

In an umpired game a side's orders are checked against the map as that side
sees it: the enemy forces hidden under a cavalry screen (8.62a) are off its
map, so they block no hex and exert no ZOC *in the check*, and no refusal
can name them.  They are still physically present (8.62a): a move that runs
into one is stopped at resolution as the rules say, and the hidden force
appears.

Readings chosen (pinned by ``tests/security/test_fog_checks.py``):

* The side's picture is :func:`.cavalry.without_hidden`, the same one the
  views are redacted with (:func:`.cavalry.concealment`).  Open games keep
  no hidden force on the map (plotted, :mod:`.hidden_open`) and solo games
  hide nothing from the one player: both are checked against the state.
* Contact, step by step along the ordered path (first match wins):

  - a step the terrain allows on the side's map but not on the true map
    (8.24a: a ferry closed by hidden units or their ZOC): the force stops
    before the step;
  - a step into a hex holding a hidden force: the force stops in the hex
    before (8.26: a force never enters an enemy-occupied hex);
  - a step into a hidden force's ZOC: the force enters and stops there
    (3.61, 8.26) and must make its attack check (3.61, 8.41), unless the step
    is ZOC to ZOC or the force is inactive (3.61): then it stops before.

  Contact happens when the force gets there with its MP (it reached the last
  hex it may enter, and, for a stop before its first step, it had MP to move).
  Every hidden force met appears ([translator] 8.62a: it appears at once on
  entering enemy ZOC; the mover has entered its ZOC or bumped into it).
* A hidden force that itself ends a move in enemy ZOC appears at once
  ([translator] 8.62a), not only at the end of the impulse.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from .state_types import FullGameState
from ...geometry.paths import is_prohibited
from . import model
from . import zoc as zc
from ...kit.events import Event, event


def fog_of_war(state: FullGameState) -> bool:
    """3.71: an umpired game (setup's default), or an open game played with hidden armies (each side
    keeps its own display), keeps the enemy's hidden forces from a side."""
    return state.get("mode", "umpired") in ("umpired", "fog")


def hidden_armies(state: Mapping[str, Any]) -> bool:
    """An open game played with hidden armies: each side's copy holds only its own display, so a
    roll the enemy's copy needs to move a force on the map (the IMC, a forced march) is made in the
    open there: the enemy sees the force go as far as the roll lets it."""
    return state.get("mode") == "fog"


def checked_state(state: FullGameState, side: str) -> FullGameState:
    """The state ``side``'s orders are checked against: the enemy's hidden forces off the map."""
    from .cavalry import hidden_forces, without_hidden

    enemy = model.other_side(side)
    if not fog_of_war(state) or not hidden_forces(state, enemy):
        return state
    return without_hidden(state, enemy)


#: the counters on top of a hex that make it a stack an attack is made against (8.4)
STACK_TOPS = ("leader", "unit")


def enemy_stacks_in_sight(state: FullGameState, side: str) -> set[str]:
    """3.71, 8.4: the hexes where ``side`` sees an enemy stack on its own map -- a leader or a unit
    on top; a wagon or a depot alone is no stack.

    The side's map is what it sees of the enemy (:func:`.counters.top_counters`, with the hidden
    forces off it: :func:`checked_state`).  A side's view carries that map as ``seen`` (made by the
    same functions, :mod:`.views`); a state makes it.  So the umpire's check on the state and the
    player's check on his view at home read the same hexes."""
    from .counters import top_counters

    enemy = model.other_side(side)
    view = cast(dict, state)
    seen = view["seen"].get(enemy, {}) if "seen" in view else top_counters(checked_state(state, side), enemy)
    return {label for label, entry in seen.items() if entry["top"]["kind"] in STACK_TOPS}


# --- contact with hidden forces at resolution --------------------------------------------------

@dataclass
class Contact:
    """A move runs into hidden enemy forces: how far it goes and whom it meets."""

    hidden: list[str]           # the hidden enemy forces met
    stop: int                   # the force may enter path[:stop]
    at: str                     # the hex of the step that makes the contact
    rule: str
    why: str


def _exerts_zoc(state: FullGameState, force: str) -> bool:
    return any(zc.exerts_zoc(state["units"][u]) for u in model.units_of(state, force))


def _hidden_in(state: FullGameState, hidden: list[str], label: str) -> list[str]:
    return [f for f in hidden if model.force_hex(state, f) == label]


def _hidden_zoc_at(state: FullGameState, hidden: list[str], full_zoc: dict, label: str) -> list[str]:
    sources = full_zoc.get(label, set())
    return [f for f in hidden if model.force_hex(state, f) in sources and _exerts_zoc(state, f)]


def contact_on_path(state: FullGameState, side: str, path: list[str], *, start: str, active: bool, hexmap,
                    cost) -> Contact | None:
    """Where the ordered ``path`` (checked on ``side``'s map) first meets a hidden enemy force.

    ``cost`` is the true step cost (:func:`.impulse_conditions.cost_fn` on the state)."""
    from .cavalry import hidden_forces
    from .impulse_conditions import cost_fn

    enemy = model.other_side(side)
    hidden = sorted(hidden_forces(state, enemy)) if fog_of_war(state) else []
    if not hidden:
        return None
    full_zoc = zc.zoc_hexes(state, enemy, hexmap)
    seen_cost = cost_fn(checked_state(state, side), hexmap, side)
    here = start
    for i, label in enumerate(path):
        a, b = hexmap.parse(here), hexmap.parse(label)
        if is_prohibited(cost(a, b)) and not is_prohibited(seen_cost(a, b)):       # 8.24a
            met = sorted({f for h in (here, label) for f in _hidden_in(state, hidden, h)
                          + _hidden_zoc_at(state, hidden, full_zoc, h)})
            return Contact(met, i, label, "8.24a", f"cannot enter {label} from {here}")
        met = _hidden_in(state, hidden, label)
        if met:                                                                  # 8.26
            return Contact(met, i, label, "8.26", f"{label} holds hidden enemy units")
        met = _hidden_zoc_at(state, hidden, full_zoc, label)
        from_zoc = _hidden_zoc_at(state, hidden, full_zoc, here)
        if here in full_zoc and label in full_zoc and (met or from_zoc):                     # 3.61
            return Contact(sorted(set(met + from_zoc)), i, label, "3.61", f"{here} to {label} would be ZOC to ZOC")
        if met:
            if not active:                                                                 # 3.61
                return Contact(met, i, label, "3.61", f"an inactive force may not enter enemy ZOC ({label})")
            return Contact(met, i + 1, label, "3.61", f"entered enemy ZOC in {label}")      # 3.61, 8.26
        here = label
    return None


def contact_made(contact: Contact, walked: list[str], mp: float) -> bool:
    """Did the force get as far as the contact (``walked``: start first, then every hex entered)?"""
    return len(walked) - 1 == contact.stop and (contact.stop > 0 or mp >= 1)


def reveal_on_contact(state: FullGameState, side: str, mover: str, contact: Contact, end: str,
                      events: list[Event]) -> None:
    """8.62a: the hidden forces met appear; each side is told what it sees of it."""
    from .cavalry import Reveal, apply_reveal
    from .impulse_conditions import _name

    enemy = model.other_side(side)
    for f in contact.hidden:
        where = model.force_hex(state, f)
        apply_reveal(state, Reveal(f, enemy, where, len(model.units_of(state, f)), "contact", "8.62a",
                                   f"{f} in {where} is met by an enemy move and appears"))
        events.append(event("reveal", f"a hidden {enemy} force appears at {where} (contact)", "8.62a", side=enemy,
                            force=f))
        events.append(event("contact", f"{_name(state, f)}, hidden in {where}, is met by an enemy force moving to "
                                       f"{end} and appears (8.62a)", "8.62a", side=enemy, visible_to=[enemy]))
    hexes = ", ".join(sorted({model.force_hex(state, f) for f in contact.hidden}))
    events.append(event("contact",
                        f"{_name(state, mover)} runs into a hidden {enemy} force in {hexes}, which appears: "
                        f"the move stops in {end} ({contact.why}; {contact.rule}, 8.62a)", contact.rule, side=side,
                        visible_to=[side]))


def reveal_mover(state: FullGameState, hexmap, force: str, events: list[Event]) -> None:
    """[translator] 8.62a: a hidden force that ends its move in enemy ZOC appears at once."""
    from .cavalry import apply_reveal, must_reveal

    r = must_reveal(state, hexmap, force)
    if r is not None and r.reason == "enemy zoc":
        apply_reveal(state, r)
        events.append(event("reveal", f"a hidden {r.side} force appears at {r.hex} (enemy zoc)", r.rule, side=r.side,
                            force=force))
