"""The conditions an impulse is played under (:mod:`.impulse`): the weather (5.2), the enemy's ZOC
(6.0), the movement cost function (8.2, with pontoons 8.81 and blockades 8.93), a force's name,
the stacking check (3.6) and the supply states locked for the impulse (4.21, 7.34).  The map,
``hm``, is the game's (:meth:`hxref.kit.charts.Charts.map`), given by the caller."""
from __future__ import annotations


from .state_types import FullGameState
from ..base import Problem
from . import model
from ...kit.events import Event, event


def weather_of(state: FullGameState) -> str:
    w = state["current"].get("weather")
    return w["result"] if w else "Clear"


def enemy_zoc(state: FullGameState, hm, side: str) -> set[str]:
    from .zoc import zoc_hexes

    return set(zoc_hexes(state, model.other_side(side), hm))


def cost_fn(state: FullGameState, hm, side: str):
    from .terrain import step_cost

    enemy = model.occupied_hexes(state, model.other_side(side))
    from .engineers import pontoon_hexsides

    from .naval_movement import blockaded_hexsides

    return step_cost(hm, weather=weather_of(state), side=side, enemy_occupied=enemy,
                     enemy_zoc=enemy_zoc(state, hm, side), friendly_occupied=model.occupied_hexes(state, side),
                     pontoons=pontoon_hexsides(state, side),
                     blockaded=blockaded_hexsides(state, hm) if state.get("naval") else ())


def _name(state: FullGameState, force: str) -> str:
    if model.is_unled(force):
        return f"unled units in {model.force_hex(state, force)}"
    return state["leaders"][force]["name"]


def _stacking_problems(state: FullGameState, side: str, force: str, label: str) -> list[Problem]:
    from .forces import check_hex

    if label == model.force_hex(state, force):
        return []
    return check_hex(state, label, side, extra=[force]).problems


def own_use_forces(state: FullGameState, side: str) -> list[str]:
    """7.35a: the forces whose Own Use marker is spent at the start of the side's impulse."""
    return [lid for lid, ld in model.on_map_leaders(state, side) if ld.get("own_use") and not ld.get("superior")]


def _supply_states(state: FullGameState, hm, side: str, emergency: dict | None = None,
                   events: list[Event] | None = None, spend_own_use: bool = False) -> dict[str, dict]:
    """4.21 / 7.1-7.35: every force's supply state, locked for the impulse (7.34)."""
    from .supply import line_conditions, supply_status

    # 7.35a: Own Use markers are spent at the start of the owner's own impulse (here: the next one)
    own_use = own_use_forces(state, side) if spend_own_use else []
    result = supply_status(state, side, hm, emergency=emergency or {}, own_use=own_use,
                           **line_conditions(state, side))
    for lid in own_use:
        state["leaders"][lid].pop("own_use", None)
        if events is not None:
            events.append(event("own.use", f"{state['leaders'][lid]['name']} spends an Own Use marker: full supply",
                                "7.35a", side=side, visible_to=[side]))
    for sid in result.consumed:                     # 7.35: the wagon or depot is used up
        kind = state["logistics"][sid]["kind"]
        del state["logistics"][sid]
        if events is not None:
            events.append(event("emergency.supply", f"{side} uses up a {kind} for emergency supply (7.35)", "7.35",
                                side=side))
    return {f: {"state": fs.state.value if hasattr(fs.state, "value") else str(fs.state),
                "in_communication": fs.in_communication, "mp_halved": fs.mp_halved,
                "cf_halved": fs.cf_halved, "reason": fs.reason}
            for f, fs in result.forces.items()}
