"""Moving the forces of an activity impulse (:mod:`.impulse`): each force's move with its IMC roll
(:mod:`.movement`), reactivation, detachments and merging, forced march, rail moves, cuts and captures,
and what a force may do during its move: recon, hiding and, in open games, hidden plots and reveals."""
from __future__ import annotations

from . import model
from .impulse_combat import _attack_check, _join_assault
from .impulse_conditions import _name, _stacking_problems, cost_fn, enemy_zoc, hexmap, weather_of
from .fog import contact_made, contact_on_path, fog_of_war, reveal_mover, reveal_on_contact
from .movement import walk


# --- 8.2: one force's move ----------------------------------------------------------------

def _move_one(state: dict, side: str, force: str, mv: dict, dice, events: list[dict]) -> None:
    imp = state["current"]["active_impulse"]
    hm = hexmap(state)
    start_hex = model.force_hex(state, force)
    if mv.get("detach"):
        _detach(state, force, mv["detach"], events, mv.get("lend_mr", []))
    for spec in mv.get("detachments", []):
        _create_detachments(state, force, spec, events)
    if not model.is_unled(force) and not state["leaders"][force]["active"]:
        if not _reactivate(state, force, mv.get("reactivate"), dice, events):
            return
    zoc = enemy_zoc(state, side)
    if mv.get("rail"):              # 8.72: by train, no other movement this impulse
        _rail_move(state, side, force, mv["rail"], events, mv.get("off_map"))
        return
    if not mv.get("path"):          # staying put: no IMC roll (8.23), perhaps an attack check
        if start_hex in zoc or mv.get("attack"):
            _attack_check(state, side, force, mv, dice, events)
        elif mv.get("hide"):        # 8.62a: it may vanish where it stands
            _hide(state, side, force, events)
        return
    mp = _imc_roll(state, force, imp, mv, dice, events)
    if mp is None:
        return
    cost = cost_fn(state, side)
    march = _forced_march(state, side, force, mp, mv, dice, events) if mv.get("forced_march") else None
    if march is not None and march.success:
        from .forced_march import march_step_cost

        cost = march_step_cost(hm, weather=weather_of(state), side=side,
                               enemy_occupied=model.occupied_hexes(state, model.other_side(side)),
                               enemy_zoc=zoc, friendly_occupied=model.occupied_hexes(state, side))
    cuts = [h for h in mv.get("cut_rail", []) if h in mv.get("path", [])]
    if cuts:                                        # 8.63: +3 MP to cut the line in each of these hexes
        from .rail import with_cuts

        cost = with_cuts(cost, cuts, hm)
    path = mv.get("path", [])
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
    _relocate(state, force, w.end)
    imp["mp"][force] = {"rolled": mp, "spent": w.spent}
    _captures_and_cuts(state, side, force, w.hexes[1:], cuts, events)
    if march is not None:
        from .forced_march import apply_march_end

        if apply_march_end(state, march) is not None:
            imp["involuntary"].append(march.oc)          # 11.0: paid for all the same
            events.append({"type": "deactivated", "side": side, "force": force, "rule": "8.31b",
                           "text": f"{_name(state, force)} is deactivated at the end of the forced march"})
    if len(w.hexes) > 1 and weather_of(state) == "Blizzard":
        from .weather import apply_blizzard_loss, blizzard_loss

        loss = blizzard_loss(state, force)
        if loss.hits:
            apply_blizzard_loss(state, loss)
            events.append({"type": "blizzard", "side": side, "visible_to": [side], "rule": "5.29", "text": loss.why})
    hidden = _is_hidden(state, force)               # 8.62a: a hidden force's moves are its side's secret
    if len(w.hexes) > 1:
        events.append({"type": "move", "side": side, "force": force, "path": w.hexes, "rule": w.rule,
                       **({"visible_to": [side]} if hidden else {}),
                       "text": f"{_name(state, force)} moves {' > '.join(w.hexes)} ({w.stopped})"})
        events.append({"type": "move.mp", "side": side, "visible_to": [side], "force": force, "mp": mp,
                       "spent": w.spent, "rule": "8.22",
                       "text": f"{_name(state, force)}: {mp} MP rolled, {w.spent:g} used"})
    if hidden:                                      # [translator] 8.62a: in enemy ZOC it appears at once
        reveal_mover(state, hm, force, events)
    here = model.force_hex(state, force)
    if mv.get("recon"):
        _recon(state, side, force, mv["recon"], dice, events)
    if mv.get("hide"):
        _hide(state, side, force, events)
    if mv.get("merge"):
        _merge(state, side, force, mv["merge"], events)
    if len(w.hexes) > 1 and _join_assault(state, side, f"unled@{w.end}" if model.is_unled(force) else force,
                                          events):
        return                                      # 8.42: it joins a passed check, it makes none
    if here in zoc or mv.get("attack"):
        _attack_check(state, side, force, mv, dice, events)


def _is_hidden(state: dict, force: str) -> bool:
    from .cavalry import hidden_forces

    return fog_of_war(state) and force in hidden_forces(state, model.force_side(state, force))


def _relocate(state: dict, force: str, label: str) -> None:
    if model.is_unled(force):
        old = model.force_hex(state, force)
        side = model.force_side(state, force)
        for u in state["units"].values():
            if u.get("leader") is None and u.get("hex") == old and u["side"] == side:
                u["hex"] = label
        return
    for lid in model.force_leaders(state, force):
        state["leaders"][lid]["hex"] = label
    for sid in model.force_logistics(state, force):
        state["logistics"][sid]["hex"] = label


def _legal_stop(state: dict, side: str, force: str, w):
    """3.22a / 3.23: a force may pass through friendly stacks but must end where stacking is legal."""
    while len(w.hexes) > 1 and _stacking_problems(state, side, force, w.end):
        label, c = w.steps.pop()
        w.hexes.pop()
        w.spent -= c
        w.stopped = f"stopped short of {label}: stacking limits (3.22a, 3.23)"
        w.in_enemy_zoc = False
    return w


def _detach(state: dict, force: str, parts: list[str], events: list[dict], lend: list[str] = ()) -> None:
    """8.25b/c: the OC detaches the leaders and units named, all at once in his hex: 1 AP in
    total (:func:`.forces.detach_order`), and 1 AP more for each detached leader who is to roll
    his IMC with the OC's MR (3.24b, H-18).  An order no longer legal when its turn comes (an
    earlier move changed the force) detaches nothing, and says why."""
    from .forces import apply_detach, detach_order

    ld = state["leaders"][force]
    order = detach_order(state, force, parts, lend_mr_to=lend)
    if order.problems:
        p = order.problems[0]
        events.append({"type": "detach.void", "side": ld["side"], "force": force, "rule": p.rule,
                       "visible_to": [ld["side"]],
                       "text": f"{ld['name']} detaches nothing: {p.message}"})
        return
    apply_detach(state, order)
    lent = state["current"]["active_impulse"].setdefault("mr_lent", {})
    for b in lend:                                  # 3.24b: paid now; the borrower's IMC uses it later
        lent[b] = force
    events.append({"type": "detach", "side": ld["side"], "force": force, "parts": list(order.parts),
                   "ap": order.ap, "stacks": order.stacks, "lend_mr": list(lend), "rule": "8.25c",
                   "visible_to": [ld["side"]],
                   "text": f"{ld['name']} detaches {', '.join(order.parts)} (1 AP for all, 8.25c"
                           + (f"; 1 AP each for lending his MR to {', '.join(lend)}, 3.24b" if lend else "")
                           + f"); {order.hex} now holds {order.stacks} stack(s)"})


# --- 8.12, 8.21/8.22: reactivation and the IMC roll ---------------------------------------

REACTIVATION_METHODS = {"roll": 1, "order": 2, "wdo": 3, "imc": 4, 1: 1, 2: 2, 3: 3, 4: 4}


def _reactivate(state: dict, force: str, method, dice, events: list[dict]) -> bool:
    """8.12: an inactive OC may try one method; without one his IMC roll is method 4."""
    if method is None:
        return True     # the IMC roll with the inactive MR is the attempt (method 4)
    from .imc import apply_reactivation, reactivation

    imp = state["current"]["active_impulse"]
    side = imp["side"]
    commander = next((lid for lid, ld in model.on_map_leaders(state, side) if ld.get("hq") and ld["active"]),
                     None)
    from .reorganization import wdo_used

    r = reactivation(state, force, REACTIVATION_METHODS.get(method, 0), dice, commander=commander,
                     hexmap=hexmap(state), wep=state["wep"][side], wdo_used=wdo_used(state, side) > 0,
                     level=imp["level"], supply=imp["supply"].get(force, {}).get("state", "full"))
    if r.problems:
        events.append({"type": "reactivation.refused", "side": side, "force": force, "rule": "8.12", "visible_to": [side],
                       "text": f"{_name(state, force)}: reactivation not possible: {r.why}"})
        return False
    apply_reactivation(state, r)
    if r.wep:
        state["wep"][side] -= r.wep
        wdo = state["current"].setdefault("wdo", {})
        wdo[side] = wdo.get(side, 0) + 1             # 3.41a: one limited WDO a turn per side
    events.append({"type": "reactivation", "side": side, "force": force, "success": r.success, "rule": "8.12",
                   "text": f"{_name(state, force)} " + ("reactivates" if r.success else "stays inactive")})
    events.append({"type": "reactivation.detail", "side": side, "visible_to": [side], "rule": "8.12",
                   "text": f"{_name(state, force)}: {r.why}"})
    if r.success and r.imc is not None:      # method 4: he moves with the MP obtained
        imp.setdefault("mp_from_reactivation", {})[force] = r.imc.mp
    return r.success


def _imc_roll(state: dict, force: str, imp: dict, mv: dict, dice, events: list[dict]):
    """8.21/8.22: the force's MP for this impulse, or None when it does not move."""
    from .imc import apply_imc, imc_roll

    side = imp["side"]
    known = imp.get("mp_from_reactivation", {}).pop(force, None)
    if known is not None:
        return known
    lender = imp.get("mr_lent", {}).get(force)     # 3.24b: the MR his detaching OC paid to lend him
    res = imc_roll(state, force, imp["level"], dice, supply=imp["supply"].get(force, {}).get("state", "full"),
                   voluntary_ml=int(mv.get("ml_reduction", 0) or 0), hexmap=hexmap(state),
                   mr_from=lender, mr_paid=lender is not None)
    if res.problems:
        events.append({"type": "imc.refused", "side": side, "force": force, "rule": res.rule, "visible_to": [side],
                       "text": f"{_name(state, force)} does not move: {res.why}"})
        return None
    apply_imc(state, res)
    events.append({"type": "imc", "side": side, "force": force, "visible_to": [side], "mp": res.mp, "rule": res.rule,
                   "text": f"{_name(state, force)}: {res.why}"})
    if res.deactivates:
        imp["involuntary"].append(res.oc)
        events.append({"type": "deactivated", "side": side, "force": force, "rule": "8.11",
                       "text": f"{_name(state, force)} fails to get moving and is deactivated (8.11)"})
        if state.get("options", {}).get("sickness"):          # 8.13 (optional): is he ill?
            from .sickness import apply_sickness, sickness_check

            sick = sickness_check(state, res.oc, dice)
            if not sick.problems:
                apply_sickness(state, sick)
                events.append({"type": "sickness", "side": side, "visible_to": [side], "rule": sick.rule,
                               "text": sick.why})
        return None
    return res.mp


# --- 8.25a merging and 8.51 detachments ---------------------------------------------------

def _merge(state: dict, side: str, force: str, other: str, events: list[dict]) -> None:
    from .forces import apply_merge, merge_order

    if other not in model.forces(state, side) or model.force_hex(state, other) != model.force_hex(state, force):
        events.append({"type": "merge.void", "side": side, "visible_to": [side], "rule": "8.25a",
                       "text": f"{_name(state, force)} does not meet {other}: no merge"})
        return
    order = merge_order(state, force, other)
    if order.problems:
        events.append({"type": "merge.void", "side": side, "visible_to": [side], "rule": "8.25a",
                       "text": f"{_name(state, force)} cannot take {other} along: {order.problems[0].message}"})
        return
    apply_merge(state, order)
    events.append({"type": "merge", "side": side, "visible_to": [side], "rule": "8.25a",
                   "text": f"{_name(state, force)} takes {other} along (1 AP)"})


def detachment_chart() -> dict:
    """The Detachment Chart's data (the game's pinned chart, or the disk's); read-only."""
    from ...kit import data

    return data.chart("heartland", "detachment")


def _yield(unit: dict, by: str) -> int:
    for row in detachment_chart()["yields"]:
        if row["arm"] == unit["arm"] and row["size"] == unit["size"]:
            return int(row[by])
    return 0


def _create_detachments(state: dict, force: str, spec: dict, events: list[dict]) -> None:
    """8.51: 1 AP; the unit loses a step or is removed; the chart says how many detachments it yields."""
    ld = state["leaders"][force]
    unit = state["units"].get(spec.get("unit"))
    if unit is None or unit["steps"] <= 0 or ld["ap"] < 1:
        return
    count = _yield(unit, spec["by"])
    if count < 1:
        return
    ld["ap"] -= 1
    unit["steps"] = 0 if spec["by"] == "removal" else unit["steps"] - 1
    counter = detachment_chart()["detachment"][unit["side"]]
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
    events.append({"type": "detachments", "side": unit["side"], "visible_to": [unit["side"]], "rule": "8.51",
                   "text": f"{ld['name']} breaks {unit['name']} down by {spec['by'].replace('_', ' ')} into "
                           f"{count} detachment(s): {', '.join(made)} (1 AP; stand-in Detachment Chart)"})


# --- 8.31: forced march -------------------------------------------------------------------

def _forced_march(state: dict, side: str, force: str, mp: int, mv: dict, dice, events: list[dict]):
    """8.31: the Forced March Table roll after the IMC; a success halves CF and artillery in combat (8.31c)."""
    from .forced_march import apply_forced_march, forced_march

    imp = state["current"]["active_impulse"]
    fm = forced_march(state, force, mp, dice, supply=imp["supply"].get(force, {}).get("state", "full"),
                      imc_ml=int(mv.get("ml_reduction", 0) or 0), loss_unit=mv.get("step_loss"))
    if fm.problems:
        events.append({"type": "forced.march.void", "side": side, "visible_to": [side], "rule": fm.rule,
                       "text": f"{_name(state, force)}: no forced march: {fm.why}"})
        return None
    apply_forced_march(state, fm)
    if fm.success:
        imp.setdefault("forced_march", []).append(force)
    events.append({"type": "forced.march", "side": side, "visible_to": [side], "rule": fm.rule,
                   "text": f"{_name(state, force)}: {fm.why}"})
    return fm


# --- 8.63, 8.64, 8.72: rail, cuts and captures ----------------------------------------------

def _rail_move(state: dict, side: str, force: str, stations: list[str], events: list[dict],
               off_map: str | None = None) -> None:
    from .rail import apply_rail_move, rail_move

    m = rail_move(state, hexmap(state), force, stations, off_map=off_map == "leave", entering=off_map == "enter")
    if m.problems:
        events.append({"type": "rail.void", "side": side, "visible_to": [side], "rule": m.rule,
                       "text": f"{_name(state, force)}: no rail move: {m.why}"})
        return
    start = model.force_hex(state, force)
    apply_rail_move(state, m)
    if m.off_map:
        text = f"{_name(state, force)} leaves the map by rail from {start} at the {m.edge} edge (8.74)"
    elif m.entering:
        text = f"{_name(state, force)} comes back onto the map by rail at {stations[0]} and rides to {m.end} (8.74)"
    else:
        text = f"{_name(state, force)} moves by rail from {start} to {m.end}"
    events.append({"type": "rail", "side": side, "force": force, "rule": "8.74" if off_map else m.rule,
                   "text": text})
    events.append({"type": "rail.detail", "side": side, "visible_to": [side], "rule": m.rule,
                   "text": f"{_name(state, force)}: {m.why}"})


def _captures_and_cuts(state: dict, side: str, force: str, entered: list[str], cuts: list[str],
                       events: list[dict]) -> None:
    """8.64: what the force takes in the hexes it entered; 8.63: the rail cut where it was ordered."""
    from .capture import apply_capture, captures_on_entry
    from .rail import apply_cut_rail, cut_rail

    for label in entered:
        for c in captures_on_entry(state, force, label):
            if not c.problems:
                apply_capture(state, c)
                events.append({"type": "capture", "side": side, "rule": c.rule,
                               "text": f"{_name(state, force)}: {c.why}"})
        if label in cuts:
            cut = cut_rail(state, hexmap(state), force, label)
            if not cut.problems:
                apply_cut_rail(state, cut)
                events.append({"type": "rail.cut", "side": side, "rule": cut.rule,
                               "text": f"{_name(state, force)} cuts the rail line in {label} (8.63)"})


# --- 8.61, 8.62a: recon, hidden forces ----------------------------------------------------

def _recon(state: dict, side: str, force: str, spec, dice, events: list[dict]) -> None:
    """8.61: the roll is public; what was found goes to the reconning side only."""
    from .cavalry import apply_recon, recon

    spec = spec if isinstance(spec, dict) else {"target": spec}
    target = spec.get("target")
    units = spec.get("units") or [u for u in model.units_of(state, force) if state["units"][u]["arm"] == "cavalry"]
    r = recon(state, hexmap(state), force, dice, target=target, units=units, search=bool(spec.get("search")))
    if r.problems:
        events.append({"type": "recon.void", "side": side, "visible_to": [side], "rule": r.rule,
                       "text": f"{_name(state, force)}: no recon: {r.why}"})
        return
    apply_recon(state, r)
    events.append({"type": "recon", "side": side, "rule": r.rule,
                   "text": f"{_name(state, force)} reconnoitres " + (f"{target}" if target else "around it")})
    if r.search and r.success:                  # 8.61c in open games: the hidden side must answer
        from .cavalry import corps_size
        from .hidden_open import open_mode, record_search

        s = open_mode(state) and record_search(state, model.other_side(side), model.force_hex(state, force),
                                              corps_size(state, force), force)
        if s:
            events.append({"type": "search", "side": side, "rule": "8.61c",
                           "text": f"search {s['id']}: {model.other_side(side)} must say in its next orders which "
                                   f"hidden forces are within {s['range']} of {s['center']} and reveal them"})
    events.append({"type": "recon.report", "side": side, "visible_to": [side], "rule": r.rule, "text": str(r.report())})


def _hidden_orders(state: dict, side: str, choice: dict, dice, events: list[dict]) -> None:
    """8.62a / 8.61c in open games: answers to searches, reveals, then this impulse's plots."""
    if not any(k in choice for k in ("plot", "reveal", "searched")):
        return
    from . import hidden_open as ho
    from .terrain import step_cost

    hm = hexmap(state)
    for a in ho.apply_search_answers(state, side, choice):
        events.append({"type": "search.answer", "side": side, "rule": "8.61c",
                       "text": f"{side} answers search {a['id']}: "
                               + (", ".join(_name(state, f) for f in a["found"]) + " found" if a["found"]
                                  else "nothing found")})
    for r in choice.get("reveal", []):
        force = r["force"]
        check = ho.check_reveal(state, hm, force, r["plots"], lambda w: step_cost(hm, weather=w, side=side))
        where = ho.apply_reveal(state, hm, force, check.end)
        events.append({"type": "reveal", "side": side, "force": force, "rule": check.rule,
                       "text": f"{_name(state, force)} appears in {where}: {check.why}"})
        for b in check.breaches:
            events.append({"type": "hidden.breach", "side": side, "force": force, "rule": b.rule,
                           "text": f"BREACH by {side}: {b.message} ({b.rule})"})


def _hidden_plots(state: dict, side: str, choice: dict, dice, events: list[dict]) -> None:
    """8.62a in open games: each plotted force rolls its IMC (as in full supply) for the record."""
    from . import hidden_open as ho

    imp = state["current"]["active_impulse"]
    for s in choice.get("plot", []):
        force = s["force"]
        mp = _imc_roll(state, force, imp, {}, dice, events) or 0
        ho.add_entry(state, hexmap(state), force, s["commitment"], mp, weather_of(state))
        events.append({"type": "plot", "side": side, "force": force, "rule": "8.62a",
                       "text": f"{_name(state, force)} moves hidden with {mp} MP; its plotted hex is committed "
                               f"({s['commitment'][:12]}...)"})


def _hide(state: dict, side: str, force: str, events: list[dict]) -> None:
    """8.62a: a force in a friendly cavalry screen leaves the map; the umpire keeps its hex, or in
    an open game its owner plots it from now on (:mod:`.hidden_open`)."""
    from . import hidden_open as ho
    from .cavalry import apply_hide, hide

    h = hide(state, hexmap(state), force)
    if not h.problems and ho.open_mode(state):
        if model.is_unled(force):          # reading: a plot needs a name to come back under
            events.append({"type": "hide.void", "side": side, "force": force, "rule": h.rule,
                           "text": f"unled units in {h.hex} cannot be plotted in an open game: only a leader's "
                                   "force moves hidden (reading of 8.62a)"})
            return
        ho.start(state, force, h.hex)
        events.append({"type": "hide", "side": side, "force": force, "rule": h.rule,
                       "text": f"{_name(state, force)} leaves the map in {h.hex}, hidden under the screen: its "
                               "owner plots it from now on (8.62a)"})
        return
    if not h.problems:
        apply_hide(state, h)
        events.append({"type": "hide", "side": side, "visible_to": [side], "rule": h.rule,
                       "text": f"{_name(state, force)} moves hidden under the screen (8.62a)"})
