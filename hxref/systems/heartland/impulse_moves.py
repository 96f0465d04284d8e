"""Moving the forces of an activity impulse (:mod:`.impulse`): each force's move with its IMC roll
(:mod:`.movement`), reactivation, detachments and merging, forced march, rail moves, cuts and captures,
and what a force may do during its move: recon, hiding and, in open games, hidden plots and reveals."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast

from .state_types import ActiveImpulse, FullGameState, Turn, Unit
from . import model
from .impulse_combat import _attack_check, _join_assault
from .impulse_conditions import _name, _stacking_problems, cost_fn, enemy_zoc, weather_of
from .fog import contact_made, contact_on_path, fog_of_war, reveal_mover, reveal_on_contact
from .movement import walk
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts


# --- 8.2: one force's move ----------------------------------------------------------------

def _move_one(state: FullGameState, hm, side: str, force: str, mv: dict, dice, events: list[Event], *,
              charts: Charts) -> None:
    """8.21: one force's move in the order of the procedure -- detachments and reactivation, rail or
    standing or the IMC roll, forced march, the walk, its losses and report, and what it does at the end."""
    imp = state["current"]["active_impulse"]
    start_hex = model.force_hex(state, force)
    if not _ready_to_move(state, hm, force, mv, dice, events, charts=charts):
        return
    zoc = enemy_zoc(state, hm, side)
    if mv.get("rail"):              # 8.72: by train, no other movement this impulse
        _rail_move(state, hm, side, force, mv["rail"], events, mv.get("off_map"))
        return
    if not mv.get("path"):          # staying put: no IMC roll (8.23), perhaps an attack check
        _stand(state, hm, side, force, mv, start_hex in zoc, dice, events)
        return
    mp = _imc_roll(state, hm, force, imp, mv, dice, events, charts=charts)
    if mp is None:
        return
    cost = cost_fn(state, hm, side)
    march = (_forced_march(state, side, force, mp, mv, dice, events, charts=charts) if mv.get("forced_march")
             else None)
    cuts = [h for h in mv.get("cut_rail", []) if h in mv.get("path", [])]
    cost = _step_cost(state, side, hm, zoc, march, cuts, cost, charts=charts)
    ordered = force
    if isinstance(mv.get("recon"), dict) and "at" in mv["recon"]:      # 8.61: it recons while moving
        w, force = _recon_walk(state, side, force, mv, start_hex, mp, hm, cost, zoc, march, dice, events)
    else:
        w = _walk_the_path(state, side, force, mv.get("path", []), start_hex, mp, hm, cost, zoc, march, events)
    force = _relocate(state, force, w.end)          # 8.22b: an unled stack is known by the hex it ends in
    imp["mp"][ordered] = imp["mp"][force] = {"rolled": mp, "spent": w.spent}
    _captures_and_cuts(state, hm, side, force, w.hexes[1:], cuts, events, mv.get("capture_landing") or [])
    if march is not None:
        _end_forced_march(state, side, force, march, imp, events)
    if len(w.hexes) > 1 and weather_of(state) == "Blizzard":
        _blizzard_march_loss(state, side, force, events)
    _report_move(state, side, force, w, mp, hm, events, ordered)
    _at_the_end_of_move(state, hm, side, force, mv, w, zoc, dice, events)


def _move_alone(state: FullGameState, hm, side: str, mover: str, mv: dict, events: list[Event],
                left: str | None) -> None:
    """7.21, 8.81: a wagon or an unbridged pontoon moves on its own 8 MP, a wagon's escort of
    detachments riding with it (8.52), which capture what is alone where they go (8.64)."""
    from . import wagons

    m = wagons.lone_move(state, side, mover, mv.get("path") or [], hexmap=hm, cost=cost_fn(state, hm, side),
                         zoc=enemy_zoc(state, hm, side), left=left)
    wagons.apply_lone_move(state, m)
    state["current"]["active_impulse"]["mp"][mover] = {"rolled": wagons.LONE_MP, "spent": m.spent}
    if len(m.hexes) > 1:        # the counter is seen to move; whose force it left and its escort are the side's (3.71)
        events.append(event("move", f"the {m.kind} {mover} moves alone {' > '.join(m.hexes)} ({m.stopped})", m.rule,
                            side=side, force=mover, path=m.hexes))
    events.append(event("move.detail", wagons.lone_move_text(state, m), m.rule + (", 8.52" if m.escort else ""),
                        side=side, force=mover, escort=m.escort, visible_to=[side]))
    if m.escort and len(m.hexes) > 1:
        _captures_and_cuts(state, hm, side, f"unled@{m.hexes[-1]}", m.hexes[1:], [], events)
    if m.kind == "wagon" and len(m.hexes) > 1 and weather_of(state) == "Blizzard":
        _blizzard_march_loss(state, side, mover, events)


def _ready_to_move(state: FullGameState, hm, force: str, mv: dict, dice, events: list[Event], *,
                   charts: Charts) -> bool:
    """8.51 / 8.12: split off the ordered detachments, then reactivate an inactive leader;
    False when the force stays inactive and so does not move."""
    if mv.get("detach"):
        _detach(state, force, mv["detach"], events, mv.get("lend_mr", []))
    for spec in mv.get("detachments", []):
        _create_detachments(state, force, spec, events, charts.chart("detachment"))
    if not model.is_unled(force) and not state["leaders"][force]["active"]:
        return _reactivate(state, hm, force, mv.get("reactivate"), dice, events, charts=charts)
    return True


def _stand(state: FullGameState, hm, side: str, force: str, mv: dict, in_zoc: bool, dice,
           events: list[Event]) -> None:
    """8.23: a force that stays put makes no IMC roll; it may recon from its hex (8.6: the special
    actions are taken at any point of the Movement Sequence; 8.62a: a force next to the enemy makes
    an attack check "or a recon") and take a force of its hex along (8.25a, 3.24a: attaching is an
    impulse order); in enemy ZOC or when ordered it makes an attack check, otherwise it may hide
    where it stands (8.62a)."""
    if mv.get("recon"):
        _recon(state, hm, side, force, mv["recon"], dice, events)
    if mv.get("merge"):
        _merge(state, side, force, mv["merge"], events)
    if in_zoc or mv.get("attack"):
        _attack_check(state, hm, side, force, mv, dice, events)
    elif mv.get("hide"):
        _hide(state, hm, side, force, events)


def _step_cost(state: FullGameState, side: str, hm, zoc, march, cuts: list[str], cost, *, charts: Charts):
    """The MP cost of each step: the ordinary cost, or the forced-march chart when the march
    succeeded (8.31), plus 3 MP to cut the rail line in each ordered hex (8.63)."""
    if march is not None and march.success:
        from .forced_march import ForcedMarchChart, march_step_cost

        cost = march_step_cost(hm, weather=weather_of(state), side=side, chart=ForcedMarchChart.load(charts),
                               enemy_occupied=model.occupied_hexes(state, model.other_side(side)),
                               enemy_zoc=zoc, friendly_occupied=model.occupied_hexes(state, side))
    if cuts:                                        # 8.63: +3 MP to cut the line in each of these hexes
        from .rail import with_cuts

        cost = with_cuts(cost, cuts, hm)
    return cost


def _walk_the_path(state: FullGameState, side: str, force: str, path: list[str], start_hex: str, mp: int, hm, cost,
                   zoc, march, events: list[Event]):
    """8.22 / 3.22a / 8.62a / 8.31b: walk the ordered path with the MP rolled, stopping where a
    hidden enemy force is met, before enemy ZOC on a failed forced march, and where stacking is legal."""
    active = model.is_unled(force) or state["leaders"][force]["active"]
    contact = contact_on_path(state, side, path, start=start_hex, hexmap=hm, cost=cost,
                              active=bool(active) and not (march is not None and march.deactivate))
    if contact is not None:                         # 8.62a: the path runs into a hidden enemy force
        path = path[:contact.stop]
    if march is not None and march.deactivate:      # 8.31b: no entry into enemy ZOC with this move
        from .forced_march import truncate_at_zoc

        path = truncate_at_zoc(path, zoc)
    w = walk(path, start=start_hex, mp=mp, hexmap=hm, cost=cost, enemy_zoc=zoc)
    w = _legal_stop(state, side, force, w)
    if contact is not None and contact_made(contact, w.hexes, mp):
        met = ", ".join(sorted({model.force_hex(state, f) for f in contact.hidden}))
        w.stopped = f"stopped by contact: a hidden {model.other_side(side)} force in {met} appears ({contact.why})"
        w.rule = contact.rule
        reveal_on_contact(state, side, force, contact, w.end, events)
    return w


def _end_forced_march(state: FullGameState, side: str, force: str, march, imp: ActiveImpulse,
                      events: list[Event]) -> None:
    """8.31b: the losses of the forced march, and the deactivation it may bring (paid for, 11.0)."""
    from .forced_march import apply_march_end

    if apply_march_end(state, march) is not None:
        imp["involuntary"].append(march.oc)          # 11.0: paid for all the same
        events.append(event("deactivated", f"{_name(state, force)} is deactivated at the end of the forced march",
                            "8.31b", side=side, force=force))


def _blizzard_march_loss(state: FullGameState, side: str, force: str, events: list[Event]) -> None:
    """5.29: a force that moves in a blizzard may lose strength."""
    from .weather import apply_blizzard_loss, blizzard_loss

    loss = blizzard_loss(state, force)
    if loss.hits:
        apply_blizzard_loss(state, loss)
        events.append(event("blizzard", loss.why, "5.29", side=side, visible_to=[side]))


def _report_move(state: FullGameState, side: str, force: str, w, mp: int, hm, events: list[Event],
                 ordered: str) -> None:
    """8.22: the move and the MP used, under the name the orders gave the force (an unled stack is
    named by the hex it left); a hidden force's move is its side's secret (8.62a) and it appears at
    once in enemy ZOC."""
    hidden = _is_hidden(state, force)               # 8.62a: a hidden force's moves are its side's secret
    if len(w.hexes) > 1:
        events.append(event("move", f"{_name(state, ordered)} moves {' > '.join(w.hexes)} ({w.stopped})", w.rule,
                            side=side, force=ordered, path=w.hexes, visible_to=[side] if hidden else None))
        events.append(event("move.mp", f"{_name(state, ordered)}: {mp} MP rolled, {w.spent:g} used", "8.22",
                            side=side, force=ordered, mp=mp, spent=w.spent, visible_to=[side]))
    if hidden:                                      # [translator] 8.62a: in enemy ZOC it appears at once
        reveal_mover(state, hm, force, events)


def _at_the_end_of_move(state: FullGameState, hm, side: str, force: str, mv: dict, w, zoc, dice,
                        events: list[Event]) -> None:
    """What a force does where its move ends: recon (8.61), hiding (8.62a), merging (8.25a), joining
    a passed assault (8.42) or its own attack check (8.4)."""
    here = model.force_hex(state, force)
    reconned = bool(mv.get("recon")) and _recon(state, hm, side, force, mv["recon"], dice, events)
    if mv.get("hide"):
        _hide(state, hm, side, force, events)
    if mv.get("merge"):
        _merge(state, side, force, mv["merge"], events)
    if len(w.hexes) > 1 and _join_assault(state, side, force, events):
        return                                      # 8.42: it joins a passed check, it makes none
    if here in zoc and not mv.get("attack") and _recon_ignores_zoc(state, side, force, reconned, events):
        return                                      # 8.61: a reconning cavalry force makes no check
    if here in zoc or mv.get("attack"):
        _attack_check(state, hm, side, force, mv, dice, events)


def _recon_ignores_zoc(state: FullGameState, side: str, force: str, reconned: bool, events: list[Event]) -> bool:
    """8.61: a cavalry-only force that reconned from the enemy ZOC hex it entered has no attack check."""
    from .cavalry import zoc_on_entry

    z = zoc_on_entry(state, force, recons=reconned)
    if z.attack_check:
        return False
    events.append(event("recon.zoc", z.why, z.rule, side=side, force=force))
    return True


def _is_hidden(state: FullGameState, force: str) -> bool:
    from .cavalry import hidden_forces

    return fog_of_war(state) and force in hidden_forces(state, model.force_side(state, force))


def _relocate(state: FullGameState, force: str, label: str) -> str:
    """Put the force in ``label`` and return its id there: a leader's force keeps its id; an unled
    stack is known by its hex (``unled@<hex>``), so its id changes with the move (8.22b).  Unled
    detachments stay where they are: they move only with a leader or a wagon (8.22b, 8.52)."""
    if model.is_unled(force):
        side = model.force_side(state, force)
        for uid in model.units_of(state, force):
            if state["units"][uid]["arm"] != "detachment":
                state["units"][uid]["hex"] = label
        return f"unled@{label}" if force.count("@") == 1 else f"unled@{label}@{side}"
    for lid in model.force_leaders(state, force):
        state["leaders"][lid]["hex"] = label
    for sid in model.force_logistics(state, force):
        state["logistics"][sid]["hex"] = label
    return force


def _legal_stop(state: FullGameState, side: str, force: str, w):
    """3.22a / 3.23: a force may pass through friendly stacks but must end where stacking is legal."""
    while len(w.hexes) > 1 and _stacking_problems(state, side, force, w.end):
        label, c = w.steps.pop()
        w.hexes.pop()
        w.spent -= c
        w.stopped = f"stopped short of {label}: stacking limits (3.22a, 3.23)"
        w.in_enemy_zoc = False
    return w


def _detach(state: FullGameState, force: str, parts: list[str], events: list[Event], lend: Sequence[str] = ()) -> None:
    """8.25b/c: the OC detaches the leaders and units named, all at once in his hex: 1 AP in
    total (:func:`.forces.detach_order`), and 1 AP more for each detached leader who is to roll
    his IMC with the OC's MR (3.24b, H-18).  An order no longer legal when its turn comes (an
    earlier move changed the force) detaches nothing, and says why."""
    from .forces import apply_detach, detach_order

    ld = state["leaders"][force]
    order = detach_order(state, force, parts, lend_mr_to=lend)
    if order.problems:
        p = order.problems[0]
        events.append(event("detach.void", f"{ld['name']} detaches nothing: {p.message}", p.rule, side=ld["side"],
                            force=force, visible_to=[ld["side"]]))
        return
    apply_detach(state, order)
    left = state["current"]["active_impulse"].setdefault("detached_from", {})
    for part in order.parts:                        # 8.25b: who may have to rejoin him this impulse
        if part in state["leaders"]:
            left[part] = force
    lent = state["current"]["active_impulse"].setdefault("mr_lent", {})
    for b in lend:                                  # 3.24b: paid now; the borrower's IMC uses it later
        lent[b] = force
    events.append(event("detach", f"{ld['name']} detaches {', '.join(order.parts)} (1 AP for all, 8.25c"
                                  + (f"; 1 AP each for lending his MR to {', '.join(lend)}, 3.24b" if lend else "")
                                  + f"); {order.hex} now holds {order.stacks} stack(s)", "8.25c", side=ld["side"],
                        force=force, parts=list(order.parts), ap=order.ap, stacks=order.stacks, lend_mr=list(lend),
                        visible_to=[ld["side"]]))


def _rejoin(state: FullGameState, side: str, force: str, imp: ActiveImpulse, events: list[Event]) -> None:
    """8.25b: a leader detached this impulse who fails to get movement (under 1 MP) rejoins at once the
    force he was detached from, and the AP paid for the detach is wasted.  Reading: only while that
    force's OC still heads a force in his hex (if it has moved on, he stays where he is)."""
    parent = imp.get("detached_from", {}).get(force)
    if parent is None or model.is_unled(force):
        return
    pl, ld = state["leaders"].get(parent), state["leaders"][force]
    if pl is None or pl.get("superior") or not pl.get("hex") or pl.get("hex") != ld.get("hex"):
        return
    ld["superior"] = parent
    events.append(event("rejoin",
                        f"{_name(state, force)} fails to get moving and rejoins {_name(state, parent)}'s force "
                        "in " + str(pl["hex"]) + "; the AP of the detach is wasted (8.25b)", "8.25b", side=side,
                        force=force, visible_to=[side]))


# --- 8.12, 8.21/8.22: reactivation and the IMC roll ---------------------------------------

REACTIVATION_METHODS = {"roll": 1, "order": 2, "wdo": 3, "imc": 4, 1: 1, 2: 2, 3: 3, 4: 4}


def _reactivate(state: FullGameState, hm, force: str, method, dice, events: list[Event], *, charts: Charts) -> bool:
    """8.12: an inactive OC may try one method; without one his IMC roll is method 4."""
    if method is None:
        return True     # the IMC roll with the inactive MR is the attempt (method 4)
    from .imc import IMCChart, apply_reactivation, reactivation

    imp = state["current"]["active_impulse"]
    side = imp["side"]
    commander = next((lid for lid, ld in model.on_map_leaders(state, side) if ld.get("hq") and ld["active"]),
                     None)
    from .reorganization import wdo_used

    r = reactivation(state, force, REACTIVATION_METHODS.get(method, 0), dice, commander=commander,
                     hexmap=hm, wep=state["wep"][side], wdo_used=wdo_used(state, side) > 0,
                     level=imp["level"], supply=imp["supply"].get(force, {}).get("state", "full"),
                     chart=IMCChart.load(charts))
    if r.problems:
        events.append(event("reactivation.refused", f"{_name(state, force)}: reactivation not possible: {r.why}",
                            "8.12", side=side, force=force, visible_to=[side]))
        return False
    apply_reactivation(state, r)
    if r.wep:
        state["wep"][side] -= r.wep
        wdo = state["current"].setdefault("wdo", {})
        wdo[side] = wdo.get(side, 0) + 1             # 3.41a: one limited WDO a turn per side
    events.append(event("reactivation",
                        f"{_name(state, force)} " + ("reactivates" if r.success else "stays inactive"), "8.12",
                        side=side, force=force, success=r.success))
    events.append(event("reactivation.detail", f"{_name(state, force)}: {r.why}", "8.12", side=side,
                        visible_to=[side]))
    if r.success and r.imc is not None:      # method 4: he moves with the MP obtained
        imp.setdefault("mp_from_reactivation", {})[force] = r.imc.mp
    return r.success


def _imc_roll(state: FullGameState, hm, force: str, imp: ActiveImpulse, mv: dict, dice, events: list[Event], *,
              charts: Charts):
    """8.21/8.22: the force's MP for this impulse, or None when it does not move."""
    from .imc import IMCChart, apply_imc, imc_roll

    side = imp["side"]
    known = imp.get("mp_from_reactivation", {}).pop(force, None)
    if known is not None:
        return known
    lender = imp.get("mr_lent", {}).get(force)     # 3.24b: the MR his detaching OC paid to lend him
    res = imc_roll(state, force, cast(int, imp["level"]), dice,       # declared with the orders (5.15)
                   supply=imp["supply"].get(force, {}).get("state", "full"),
                   voluntary_ml=int(mv.get("ml_reduction", 0) or 0), hexmap=hm,
                   mr_from=lender, mr_paid=lender is not None, chart=IMCChart.load(charts))
    if res.problems:
        events.append(event("imc.refused", f"{_name(state, force)} does not move: {res.why}", res.rule, side=side,
                            force=force, visible_to=[side]))
        return None
    apply_imc(state, res)
    events.append(event("imc", f"{_name(state, force)}: {res.why}", res.rule, side=side, force=force, mp=res.mp,
                        visible_to=[side]))
    if res.mp < 1:
        _rejoin(state, side, force, imp, events)
    if res.deactivates:
        imp["involuntary"].append(res.oc)
        events.append(event("deactivated", f"{_name(state, force)} fails to get moving and is deactivated (8.11)",
                            "8.11", side=side, force=force))
        if state.get("options", {}).get("sickness"):          # 8.13 (optional): is he ill?
            from .sickness import apply_sickness, sickness_check

            sick = sickness_check(state, cast(str, res.oc), dice)
            if not sick.problems:
                apply_sickness(state, sick)
                events.append(event("sickness", sick.why, sick.rule, side=side, visible_to=[side]))
        return None
    return res.mp


# --- 8.25a merging and 8.51 detachments ---------------------------------------------------

def _merge(state: FullGameState, side: str, force: str, other: str, events: list[Event]) -> None:
    from .forces import apply_merge, merge_order

    if other not in model.forces(state, side) or model.force_hex(state, other) != model.force_hex(state, force):
        events.append(event("merge.void", f"{_name(state, force)} does not meet {other}: no merge", "8.25a",
                            side=side, visible_to=[side]))
        return
    order = merge_order(state, force, other)
    if order.problems:
        p = order.problems[0]
        events.append(event("merge.void", f"{_name(state, force)} cannot take {other} along: {p.message}",
                            "8.25a" if p.rule == "8.25a" else f"8.25a, {p.rule}", side=side, visible_to=[side]))
        return
    apply_merge(state, order)
    events.append(event("merge", f"{_name(state, force)} takes {other} along (1 AP)", "8.25a", side=side,
                        visible_to=[side]))


def detachment_ap(chart: Mapping[str, Any]) -> int:
    """8.51, 3.24a: the AP one detachment order costs, on the Detachment Chart's data ``chart``."""
    return int(chart["cost"]["ap"])


def _yield(chart: Mapping[str, Any], unit: Unit, by: str) -> int:
    """8.51: how many detachments ``unit`` yields ``by`` step loss or removal, on the Detachment
    Chart's data ``chart`` (``charts/detachment.yaml``)."""
    for row in chart["yields"]:
        if row["arm"] == unit["arm"] and row["size"] == unit["size"]:
            return int(row[by])
    return 0


def _create_detachments(state: FullGameState, force: str, spec: dict, events: list[Event],
                        chart: Mapping[str, Any]) -> None:
    """8.51: the AP of the Detachment Chart (``chart``); the unit loses a step or is removed; the chart
    says how many detachments it yields."""
    ld = state["leaders"][force]
    unit = state["units"].get(cast(str, spec.get("unit")))     # order data: None finds no unit
    if unit is None or unit["steps"] <= 0:
        return
    cost = detachment_ap(chart)
    if ld["ap"] < cost:     # the check refuses a move whose orders outrun the AP (3.24); said, never skipped
        events.append(event("detachments.void",
                            f"{ld['name']} has no AP left to break {unit['name']} down (8.51, 3.24)", "3.24",
                            side=ld["side"], visible_to=[ld["side"]]))
        return
    count = _yield(chart, unit, spec["by"])
    if count < 1:
        return
    ld["ap"] -= cost
    unit["steps"] = 0 if spec["by"] == "removal" else unit["steps"] - 1
    counter = chart["detachment"][unit["side"]]
    made = []
    for k in range(count):
        n = 1
        while f"{spec['unit']}-d{n}" in state["units"]:
            n += 1
        uid = f"{spec['unit']}-d{n}"
        state["units"][uid] = {"side": unit["side"], "name": f"Detachment of {unit['name']}", "arm": counter["arm"],
                               "size": counter["size"], "cf": list(counter["cf"]), "ml": list(counter["ml"]),
                               "steps": counter["steps"], "leader": force, "hex": None}
        made.append(uid)
    events.append(event("detachments",
                        f"{ld['name']} breaks {unit['name']} down by {spec['by'].replace('_', ' ')} into "
                        f"{count} detachment(s): {', '.join(made)} (1 AP; stand-in Detachment Chart)", "8.51",
                        side=unit["side"], visible_to=[unit["side"]]))


# --- 8.31: forced march -------------------------------------------------------------------

def _forced_march(state: FullGameState, side: str, force: str, mp: int, mv: dict, dice, events: list[Event], *,
                  charts: Charts):
    """8.31: the Forced March Table roll after the IMC; a success halves CF and artillery in combat (8.31c)."""
    from .forced_march import ForcedMarchChart, apply_forced_march, forced_march

    imp = state["current"]["active_impulse"]
    fm = forced_march(state, force, mp, dice, supply=imp["supply"].get(force, {}).get("state", "full"),
                      imc_ml=int(mv.get("ml_reduction", 0) or 0), loss_unit=mv.get("step_loss"),
                      chart=ForcedMarchChart.load(charts))
    if fm.problems:
        events.append(event("forced.march.void", f"{_name(state, force)}: no forced march: {fm.why}", fm.rule,
                            side=side, visible_to=[side]))
        return None
    apply_forced_march(state, fm)
    if fm.success:
        imp.setdefault("forced_march", []).append(force)
    events.append(event("forced.march", f"{_name(state, force)}: {fm.why}", fm.rule, side=side, visible_to=[side]))
    return fm


# --- 8.63, 8.64, 8.72: rail, cuts and captures ----------------------------------------------

def _rail_move(state: FullGameState, hm, side: str, force: str, stations: list[str], events: list[Event],
               off_map: str | None = None) -> None:
    from .rail import apply_rail_move, rail_move

    m = rail_move(state, hm, force, stations, off_map=off_map == "leave", entering=off_map == "enter")
    if m.problems:
        events.append(event("rail.void", f"{_name(state, force)}: no rail move: {m.why}", m.rule, side=side,
                            visible_to=[side]))
        return
    start = model.force_hex(state, force)
    apply_rail_move(state, m)
    if m.off_map:
        text = f"{_name(state, force)} leaves the map by rail from {start} at the {m.edge} edge (8.74)"
    elif m.entering:
        text = f"{_name(state, force)} comes back onto the map by rail at {stations[0]} and rides to {m.end} (8.74)"
    else:
        text = f"{_name(state, force)} moves by rail from {start} to {m.end}"
    events.append(event("rail", text, "8.74" if off_map else m.rule, side=side, force=force))
    events.append(event("rail.detail", f"{_name(state, force)}: {m.why}", m.rule, side=side, visible_to=[side]))


def _captures_and_cuts(state: FullGameState, hm, side: str, force: str, entered: list[str], cuts: list[str],
                       events: list[Event], chosen: Sequence[str] = ()) -> None:
    """8.64: what the force takes in the hexes it entered (a Union landing only when the order chose
    it, 8.64a); 8.63: the rail cut where it was ordered."""
    from .capture import apply_capture, captures_on_entry
    from .rail import apply_cut_rail, cut_rail
    from .rail_open import note_passage

    held = note_passage(state, hm, side, entered)      # 8.71: the last side through a rail hex
    if held:
        events.append(event("rail.held",
                            f"{_name(state, force)} is the last through the rail hexes {', '.join(held)} "
                            "(8.71: a stretch may be opened where the side's units were the last)", "8.71", side=side,
                            visible_to=[side]))
    for label in entered:
        for c in captures_on_entry(state, force, label):
            if not c.automatic and c.id not in chosen:     # 8.64a: the Confederates' choice
                events.append(event("capture.declined",
                                    f"{_name(state, force)} enters the Union landing {c.id} in {label} and "
                                    "does not capture it (8.64a: not ordered; it may be raided, 13.13)", c.rule,
                                    side=side, visible_to=[side]))
                continue
            if not c.automatic and c.problems:
                events.append(event("capture.void",
                                    f"{_name(state, force)} cannot capture the landing in {label}: {c.why}", c.rule,
                                    side=side, visible_to=[side]))
            if not c.problems:
                apply_capture(state, c)
                events.append(event("capture", f"{_name(state, force)}: {c.why}", c.rule, side=side))
        if label in cuts:
            cut = cut_rail(state, hm, force, label)
            if not cut.problems:
                apply_cut_rail(state, cut)
                events.append(event("rail.cut", f"{_name(state, force)} cuts the rail line in {label} (8.63)",
                                    cut.rule, side=side))


# --- 8.61, 8.62a: recon, hidden forces ----------------------------------------------------

def _reconned_here(state: FullGameState, force: str, label: str) -> bool:
    """The force stands where it reconned from while moving, and its recon was made (8.61)."""
    done = set((state.get("current") or cast(Turn, {})).get("reconned") or [])
    return model.force_hex(state, force) == label and bool(done & {force, *model.units_of(state, force)})


def _recon_walk(state: FullGameState, side: str, force: str, mv: dict, start_hex: str, mp: int, hm, cost, zoc, march,
                dice, events: list[Event]):
    """8.61: a cavalry force walks to the hex of its path it recons from and recons; it then goes on
    with the MP left, not stopped by the enemy ZOC there (it stops there if the recon is void).
    Returns the walk and the force's id where it stands (an unled stack's id names its hex)."""
    from .cavalry import recon_stop, zoc_on_entry
    from .movement import Walk

    path = [str(x) for x in mv.get("path", [])]
    k = path.index(str(recon_stop(mv)))
    w = _walk_the_path(state, side, force, path[:k + 1], start_hex, mp, hm, cost, zoc, march, events)
    if len(w.hexes) != k + 2:                       # it did not get there: no recon on the way
        return w, force
    force = _relocate(state, force, w.end)
    spec = {key: v for key, v in mv["recon"].items() if key != "at"}
    made = _recon(state, hm, side, force, spec, dice, events)
    if w.end in zoc and zoc_on_entry(state, force, recons=made).stop or k + 1 == len(path):
        return w, force
    rest = _walk_the_path(state, side, force, path[k + 1:], w.end, mp - w.spent, hm, cost, zoc, march, events)
    if len(rest.hexes) == 1:                        # no MP left: it ends its move where it reconned
        return w, force
    if w.end in zoc:
        events.append(event("recon.zoc",
                            f"{_name(state, force)} recons from {w.end}: not stopped by enemy ZOC, it moves on",
                            "8.61", side=side, force=force))
    return Walk(hexes=w.hexes + rest.hexes[1:], spent=w.spent + rest.spent, mp=mp, stopped=rest.stopped,
                in_enemy_zoc=rest.in_enemy_zoc, rule=rest.rule, steps=w.steps + rest.steps), force


def _recon(state: FullGameState, hm, side: str, force: str, spec, dice, events: list[Event]) -> bool:
    """8.61: the roll is public; what was found goes to the reconning side only.  False when the
    attempt is void."""
    from .cavalry import apply_recon, recon

    spec = spec if isinstance(spec, dict) else {"target": spec}
    if "at" in spec:                            # 8.61: made while moving (_recon_walk), not again at the end
        return _reconned_here(state, force, str(spec["at"]))
    target = spec.get("target")
    units = spec.get("units") or [u for u in model.units_of(state, force) if state["units"][u]["arm"] == "cavalry"]
    r = recon(state, hm, force, dice, target=target, units=units, search=bool(spec.get("search")))
    if r.problems:
        events.append(event("recon.void", f"{_name(state, force)}: no recon: {r.why}", r.rule, side=side,
                            visible_to=[side]))
        return False
    apply_recon(state, r)
    events.append(event("recon", f"{_name(state, force)} reconnoitres " + (f"{target}" if target else "around it"),
                        r.rule, side=side))
    if r.search and r.success:                  # 8.61c in open games: the hidden side must answer
        from .cavalry import corps_size
        from .hidden_open import open_mode, record_search

        s = open_mode(state) and record_search(state, model.other_side(side), model.force_hex(state, force),
                                              corps_size(state, force), force)
        if s:
            events.append(event("search",
                                f"search {s['id']}: {model.other_side(side)} must say in its next orders which "
                                f"hidden forces are within {s['range']} of {s['center']} and reveal them", "8.61c",
                                side=side))
    events.append(event("recon.report", str(r.report()), r.rule, side=side, visible_to=[side]))
    return True


def _hidden_orders(state: FullGameState, hm, side: str, choice: dict, dice, events: list[Event]) -> None:
    """8.62a / 8.61c in open games: answers to searches, reveals, then this impulse's plots."""
    if not any(k in choice for k in ("plot", "reveal", "searched")):
        return
    from . import hidden_open as ho
    from .terrain import step_cost

    for a in ho.apply_search_answers(state, side, choice):
        events.append(event("search.answer", f"{side} answers search {a['id']}: "
                                             + (", ".join(_name(state, f) for f in a["found"]) + " found" if a["found"]
                                                else "nothing found"), "8.61c", side=side))
    for r in choice.get("reveal", []):
        force = r["force"]
        check = ho.check_reveal(state, hm, force, r["plots"], lambda w: step_cost(hm, weather=w, side=side))
        where = ho.apply_reveal(state, hm, force, cast(str, check.end))
        events.append(event("reveal", f"{_name(state, force)} appears in {where}: {check.why}", check.rule, side=side,
                            force=force))
        for b in check.breaches:
            events.append(event("hidden.breach", f"BREACH by {side}: {b.message} ({b.rule})", b.rule, side=side,
                                force=force))


def _hidden_plots(state: FullGameState, hm, side: str, choice: dict, dice, events: list[Event], *,
                  charts: Charts) -> None:
    """8.62a in open games: each plotted force rolls its IMC (as in full supply) for the record."""
    from . import hidden_open as ho

    imp = state["current"]["active_impulse"]
    for s in choice.get("plot", []):
        force = s["force"]
        mp = _imc_roll(state, hm, force, imp, {}, dice, events, charts=charts) or 0
        ho.add_entry(state, hm, force, s["commitment"], mp, weather_of(state))
        events.append(event("plot", f"{_name(state, force)} moves hidden with {mp} MP; its plotted hex is committed "
                                    f"({s['commitment'][:12]}...)", "8.62a", side=side, force=force))


def _hide(state: FullGameState, hm, side: str, force: str, events: list[Event]) -> None:
    """8.62a: a force in a friendly cavalry screen leaves the map; the umpire keeps its hex, or in
    an open game its owner plots it from now on (:mod:`.hidden_open`)."""
    from . import hidden_open as ho
    from .cavalry import apply_hide, hide

    h = hide(state, hm, force)
    if not h.problems and ho.open_mode(state):
        if model.is_unled(force):          # reading: a plot needs a name to come back under
            events.append(event("hide.void",
                                f"unled units in {h.hex} cannot be plotted in an open game: only a leader's "
                                "force moves hidden (reading of 8.62a)", h.rule, side=side, force=force))
            return
        ho.start(state, force, h.hex)
        events.append(event("hide", f"{_name(state, force)} leaves the map in {h.hex}, hidden under the screen: its "
                                    "owner plots it from now on (8.62a)", h.rule, side=side, force=force))
        return
    if not h.problems:
        apply_hide(state, h)
        events.append(event("hide", f"{_name(state, force)} moves hidden under the screen (8.62a)", h.rule, side=side,
                            visible_to=[side]))
