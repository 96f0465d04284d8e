"""The assaults of an activity impulse (:mod:`.impulse`): attack checks that place Assault markers
(8.4), the defender's reactions and pre-combat retreats (the Combat Preparation Sequence, 9.0-9.2),
the Combat Sequence with extended battles and replacements (10.0-10.7), and the gunboats' part (10.8)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state_types import FullGameState
from ...geometry.hex import are_adjacent
from ..base import Problem
from . import model
from .impulse_conditions import _name, _supply_states
from .names import surname, unit_label
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts
    from .reaction import PreCombatRetreat, Reaction


# --- 8.41/8.42: the attack check and its Assault marker -----------------------------------

def _attack_check(state: FullGameState, hm, side: str, force: str, mv: dict, dice, events: list[Event]) -> None:
    """8.41/8.42: a force in enemy ZOC checks against the ordered target, or a stack whose ZOC holds it."""
    from .attack import apply_attack_check, attack_check
    from .attack import enemy_zoc as zoc_sources

    imp = state["current"]["active_impulse"]
    here = model.force_hex(state, force)
    candidates = sorted(zoc_sources(state, hm, side).get(here, set()))
    wanted = mv.get("attack")
    if candidates:      # 8.41: compulsory, against the ordered stack if it is one of those exerting ZOC
        target = wanted if wanted in candidates else candidates[0]
    elif wanted and wanted in model.occupied_hexes(state, model.other_side(side)) and \
            are_adjacent(hm.parse(here), hm.parse(wanted)):
        target = wanted  # 8.4: optional, against adjacent enemy units that exert no ZOC on the force
    else:
        if wanted:
            # 8.4: an attack check needs an enemy stack next to the force; say which of the two is missing
            why = (f"no enemy stack is in {wanted} any more" if wanted not in model.occupied_hexes(
                state, model.other_side(side)) else f"not adjacent to {wanted}")
            events.append(event("attack.void", f"{_name(state, force)} ends in {here}, {why}: no attack", "8.4",
                                side=side, force=force))
        return
    r = attack_check(state, hm, force, target, dice, retreat_to=mv.get("retreat"), step_loss=mv.get("step_loss"))
    if r.problems:
        r = attack_check(state, hm, force, target, dice)
    if r.problems:
        events.append(event("attack.refused", f"{_name(state, force)}: {r.why}", r.rule, side=side, force=force,
                            visible_to=[side]))
        return
    new_id = apply_attack_check(state, r)
    # what the enemy sees: the check, its die and the Assault marker or the retreat on the map (D-20);
    # which unit lost the step and the ML change stay on the attacker's display (3.71)
    if r.unit_checks:       # 3.52b: unled units check one by one
        rolls = ", ".join(f"{unit_label(state, u)} rolled {c.roll} against inverted ML {c.target}: "
                          f"{'passes' if c.passed else 'fails'}" for u, c in r.unit_checks)
        public = (f"unled units in {r.source} check to attack {target}, each for itself (3.52b): {rolls}"
                  + ("; Assault marker placed" if r.passed else "")
                  + (f"; {', '.join(unit_label(state, u) for u in r.failed_units)} retreat to {r.retreat_to}"
                     if r.failed_units and r.retreat_to else ""))
    else:
        public = (f"{_name(state, new_id)} checks to attack {target}: rolled {r.roll} against "
                  f"{'inverted ML' if r.unled else 'BR'} {r.rating}: "
                  + ("passes; Assault marker placed" + (" (hasty, no AP)" if r.hasty else "") if r.passed
                     else "fails" + (f" and retreats to {r.retreat_to}" if r.retreat_to else "")))
    events.append(event("attack.check", public, r.rule + (", 3.52b" if r.unit_checks else ""), side=side, force=force,
                        target=target, passed=r.passed))
    own = ([f"checks with BR {r.rating} ({r.brevet_note})"] if r.brevet_note else []) + r.own
    if own:         # the check itself is told once, above; this is what the AOD adds to it
        events.append(event("attack.check.detail", f"{_name(state, new_id)}: " + "; ".join(own),
                            r.rule + (", 14.51" if r.brevet_note else ""), side=side, visible_to=[side]))
    if r.passed and r.assault is not None:
        a = r.assault
        imp["assaults"].append({"force": a.attacker, "source": a.source, "target": a.target, "hasty": a.hasty})


def _join_assault(state: FullGameState, side: str, force: str, events: list[Event]) -> bool:
    """8.42: a force that enters a hex whose force already passed its attack check makes no check:
    it joins that attack, its OC paying 1 AP for the stack merge (8.25a).  False when there is
    no such assault in the hex, or the merge is not possible (then the force checks as usual)."""
    from .attack import Assault, apply_join, join_assault

    imp = state["current"]["active_impulse"]
    here = model.force_hex(state, force)
    passed = [Assault(a["force"], a["source"], a["target"], a.get("hasty", False)) for a in imp["assaults"]]
    if not any(a.source == here and a.attacker != force for a in passed):
        return False
    j = join_assault(state, force, passed)
    if j.problems or j.assault is None:
        events.append(event("attack.join.void", f"{_name(state, force)} cannot join the attack from {here}: "
                                                f"{j.why}; it checks as usual (8.41)", "8.42", side=side, force=force,
                            visible_to=[side]))
        return False
    old = next(a for a in imp["assaults"] if a["source"] == here and a["force"] != force)
    apply_join(state, j)
    old["force"] = j.assault.attacker            # the merged force's head (the senior leader)
    events.append(event("attack.join",
                        f"{_name(state, force)} enters {here}, where the attack on {old['target']} has passed "
                        "its check, and joins it without a check (8.42)", "8.42", side=side, force=force,
                        target=old["target"], attacker=old["force"]))
    events.append(event("attack.join.detail", j.why, "8.42, 8.25a", side=side,
                        ap=j.order.ap if j.order is not None else 0, visible_to=[side]))
    return True


# --- the defender's decision (9.0-9.2) ----------------------------------------------------

class _Probe(Exception):
    """Raised by :class:`_ProbeDice`: the attempt is legal and would roll now."""


class _ProbeDice:
    """Dice for checking a defence file before it is stored: legality is known before any roll."""

    def d6(self, *a, **k):
        raise _Probe()

    def roll(self, *a, **k):
        raise _Probe()


def _assaults(state: FullGameState) -> list:
    from .attack import Assault

    imp = state["current"]["active_impulse"]
    return [Assault(a["force"], a["source"], a["target"], a.get("hasty", False)) for a in imp["assaults"]]


def _assault_on(state: FullGameState, target: str):
    return next((a for a in _assaults(state) if a.target == target), None)


def _defence_problems(state: FullGameState, hm, side: str, choice: dict) -> list[Problem]:
    from .reaction import pre_combat_retreat, reaction

    targets = {a.target for a in _assaults(state)}
    for key in ("react", "retreat"):        # their shapes: .order_schema.DEFENCE
        for i, item in enumerate(choice.get(key, [])):
            if item["force"] not in model.forces(state, side):
                return [Problem(f"`{item['force']}` is not one of your forces on the map", "9.0", [key, i, "force"])]
            against = item.get("against") if key == "react" else model.force_hex(state, item["force"])
            assault = _assault_on(state, against) if against else None
            if assault is None:
                return [Problem(f"no assault is declared against {against}; assaulted hexes: "
                                f"{', '.join(sorted(targets)) or 'none'}", "9.0", [key, i])]
            r: Reaction | PreCombatRetreat
            try:
                if key == "react":
                    r = reaction(state, hm, item["force"], assault, _ProbeDice(), commander=item.get("commander"),
                                 lend_mr=bool(item.get("lend_mr")), destination=item.get("to"))
                else:
                    r = pre_combat_retreat(state, hm, item["force"], assault, to=item.get("to"),
                                           rear_guard=item.get("rear_guard", []),
                                           rear_guard_leader=item.get("rear_guard_leader"))
            except _Probe:
                continue
            if r.problems:
                p = r.problems[0]
                return [Problem(p.message, p.rule, [key, i, *p.path])]
    return []


def resolve_defence(state: FullGameState, hm, answers: dict, dice, events: list[Event]) -> None:
    """9.1 reactions one at a time, then 9.2 pre-combat retreats (with overruns and pursuit)."""
    from .reaction import apply_pre_combat_retreat, apply_reaction, pre_combat_retreat, reaction

    imp = state["current"]["active_impulse"]
    side = model.other_side(imp["side"])
    choice = answers[side]
    for item in choice.get("react", []):
        assault = _assault_on(state, item.get("against"))
        if assault is None or item["force"] not in model.forces(state, side):
            continue
        r = reaction(state, hm, item["force"], assault, dice, commander=item.get("commander"),
                     lend_mr=bool(item.get("lend_mr")), destination=item.get("to"))
        if r.problems:
            events.append(event("reaction.void", f"{_name(state, item['force'])}: no reaction: {r.why}", r.rule,
                                side=side, force=item["force"], visible_to=[side]))
            continue
        apply_reaction(state, r)
        events.append(event("reaction", f"{_name(state, item['force'])} tries to react (rolled {r.roll}): "
                                        + (f"moves to {r.destination}" if r.success else "fails"),
                            r.rule, side=side, force=item["force"], success=r.success))
        events.append(event("reaction.detail", f"{_name(state, item['force'])}: {r.why}", r.rule, side=side,
                            visible_to=[side]))
    for item in choice.get("retreat", []):
        if item["force"] not in model.forces(state, side):
            continue
        assault = _assault_on(state, model.force_hex(state, item["force"]))
        if assault is None:
            continue
        pr = pre_combat_retreat(state, hm, item["force"], assault, to=item.get("to"),
                               rear_guard=item.get("rear_guard", []), rear_guard_leader=item.get("rear_guard_leader"))
        if pr.problems:
            events.append(event("retreat.void", f"{_name(state, item['force'])}: no pre-combat retreat: {pr.why}",
                                pr.rule, side=side, force=item["force"], visible_to=[side]))
            continue
        apply_pre_combat_retreat(state, pr)
        events.append(event("retreat.before.combat",
                            f"{_name(state, item['force'])} retreats before combat to {pr.to}"
                            + (" leaving a rear guard" if pr.rear_guard else "")
                            + ("; the rear guard is overrun" if pr.overrun is not None and pr.overrun.overrun else ""),
                            pr.rule, side=side, force=item["force"], to=pr.to))
        events.append(event("retreat.detail", f"{_name(state, item['force'])}: {pr.why}", pr.rule, side=side,
                            visible_to=[side]))
        if pr.overrun is not None or pr.attacker_advances or pr.next_assault is not None:
            for a in imp["assaults"]:
                if a["target"] == assault.target and a["force"] == assault.attacker:
                    if pr.next_assault is not None:
                        a.update(force=pr.next_assault.attacker, source=pr.next_assault.source,
                                 target=pr.next_assault.target, hasty=False)
                    elif pr.attacker_advances:
                        a["resolved"] = "the attacker advances into the vacated hex (9.22)"
        imp["assaults"] = [a for a in imp["assaults"] if not a.get("resolved")]


# --- 10.0-10.7: the Combat Sequence ---------------------------------------------------------

WDO_COST = 10        # 3.41a: a War Department Order costs 10 WEP

COMBAT_KEYS = {"order", "losses", "artillery", "advance", "refuse_retreat", "extended_battle"}


def _combat_choices(state: FullGameState, side: str, own: dict | None):
    """A side's combat choices (10.12 artillery, 10.63a loss order, 10.61d advance, 3.54b) from its
    orders (the phasing side) or its standing orders (the defender)."""
    from .combat import Choices

    spec = own if own is not None else state.get("standing", {}).get(side, {}).get("combat", {})
    return Choices(artillery=bool(spec.get("artillery", True)), loss_order=tuple(spec.get("losses", ())),
                   refuse_retreat=spec.get("refuse_retreat"),
                   advance=spec.get("advance") if isinstance(spec.get("advance"), str) else None)


def _combat_events(state: FullGameState, c, events: list[Event]) -> None:
    """Who fought whom, the columns, DRMs, dice and results are public (10.11, D-11); which units took
    the steps stays on each side's own display."""

    from .combat import Capture, Kill, Wound

    leaders = state["leaders"]
    attackers = list(dict.fromkeys(_name(state, x.assault.attacker) for x in c.exchanges))
    defenders = [_name(state, f) for f in c.defenders]
    public = [line for line in c.lines() if " loses " not in line and "step" not in line.lower()
              or "steps" in line and "inflict" in line]
    public[0] = (f"combat at {c.target}: {c.attacker_side} ({', '.join(attackers)}) attacks "
                 f"{' and '.join(defenders) or 'an empty hex'}" + (" (stand-in FERT)" if c.stand_in else ""))
    lost: dict[str, int] = {}
    for e in c.losses():
        side = state["units"][e.unit]["side"]
        lost[side] = lost.get(side, 0) + 1
    public.append("  steps lost: " + ", ".join(f"{s} {n}" for s, n in sorted(lost.items())) if lost
                  else "  no steps lost")
    events.append(event("combat", "\n".join(public), c.rule, target=c.target, attacker=c.attacker_side,
                        inflicted=c.inflicted, retreating=c.retreating, attackers=attackers, defenders=defenders,
                        lost=lost, results=[{"side": f.side, "by": _name(state, f.firer[0]), "result": f.cell.text}
                                            for f in c.fires],
                        retreats=[{"side": r.side, "from": r.start, "to": r.route[-1] if r.route else None,
                                   "eliminated": r.eliminated} for r in c.retreats],
                        killed=[{"leader": surname(leaders, e.leader),
                                 "heir": surname(leaders, e.heir) if e.heir else None}
                                for e in c.effects if isinstance(e, Kill)],
                        wounded=[surname(leaders, e.leader) for e in c.effects if isinstance(e, Wound)],
                        captured=[surname(leaders, e.leader) for e in c.effects if isinstance(e, Capture)]))
    for side in (c.attacker_side, c.defender_side):
        mine = [e for e in c.losses() if state["units"][e.unit]["side"] == side]
        if mine:
            steps: dict[str, int] = {}
            for e in mine:
                steps[unit_label(state, e.unit)] = steps.get(unit_label(state, e.unit), 0) + 1
            events.append(event("combat.losses", f"{side} losses at {c.target}: " + "; ".join(e.why for e in mine),
                                "10.63", side=side, target=c.target, units=steps, visible_to=[side]))
        _own_notes(state, c, side, events)


def _own_notes(state: FullGameState, c, side: str, events: list[Event]) -> None:
    """What only the side's own display explains: a brevetted OC's BR (14.51; the marker stays on the
    AOD, 3.72(3)) and the defender's ASP at the later waves of a wave attack (10.12a)."""
    brevets: list[str] = []
    covered: list[int] = []            # the later waves fired on the first resolution's ASP (10.12a reading)
    paid: dict[str, int] = {}
    for f in c.fires:
        if f.side != side:
            continue
        br = next((d.amount for d in f.drms if d.rule == "10.41"), None)
        if f.brevet_note and br is not None:             # read as he fired, before the results (14.51)
            text = f"{f.strength.oc} fires with BR {br}: {f.brevet_note}"
            if text not in brevets:
                brevets.append(text)
        if f.strength.covered:
            covered.append(f.wave)
            paid = {}
            for p in f.strength.covered:                # the same payments at every later wave
                paid[p.leader] = paid.get(p.leader, 0) + p.points
    waves = ["the ASP paid before attack 1 (" + ", ".join(f"{x} {n}" for x, n in paid.items())
             + f") covers attack{'s' if len(covered) > 1 else ''} " + ", ".join(map(str, covered))
             + " of the wave attack: nothing is paid again (10.12a read by the 10.7 example)"] if covered else []
    for rule, notes in (("14.51", brevets), ("10.12a", waves)):
        if notes:
            events.append(event("combat.detail", f"{side} at {c.target}: " + "; ".join(notes), rule, side=side,
                                visible_to=[side]))


def combat_sequence(state: FullGameState, dice, events: list[Event], *, charts: Charts) -> None:
    """Resolve every standing assault, target by target in the phasing side's order (10.11), on the
    game's map and Fire Effects Results Table (``charts``)."""
    from .attack import Assault
    from .capture import depot_retreats
    from .combat import Circumstances, Fert, apply_combat, resolve_combat

    cur = state["current"]
    imp = cur["active_impulse"]
    side = imp["side"]
    other = model.other_side(side)
    hm = charts.map(state["map"])
    fert = Fert.load(charts)
    own = imp.get("combat") or {}
    order = list(own.get("order", []))
    targets = [a["target"] for a in imp["assaults"]]
    targets = [t for t in order if t in targets] + [t for t in dict.fromkeys(targets) if t not in order]
    # 7.35b: supply for combat is judged when the combat is resolved: the phasing side's was locked for
    # the impulse (7.34); the defender's is traced now
    supply = {f: s["state"] for f, s in imp.get("supply", {}).items()}
    supply.update({f: s["state"] for f, s in _supply_states(state, hm, other).items()})
    circ = Circumstances(supply=supply, targets=tuple(targets),
                         doctrine=bool(state.get("options", {}).get("tactical_doctrine")),
                         forced_march=frozenset(imp.get("forced_march", ())),
                         last_impulse=not cur.get("queue") and not any(v > 0 for v in cur["remaining"].values()))
    choices = {side: _combat_choices(state, side, own), other: _combat_choices(state, other, None)}
    fought = []
    for target in targets:
        group = [Assault(a["force"], a["source"], a["target"], a.get("hasty", False))
                 for a in imp["assaults"] if a["target"] == target
                 and a["force"] in model.forces(state, side) and model.force_hex(state, a["force"]) == a["source"]]
        if not group:
            continue
        c = resolve_combat(state, hm, group, dice, fert=fert, circumstances=_with_bombardment(state, hm, circ, group),
                           choices=choices)
        if c.problems:
            events.append(event("combat.void", f"no combat at {target}: {c.why}", c.rule, target=target))
            continue
        apply_combat(state, c)
        fought.append(c)
        _combat_events(state, c, events)
        events += depot_retreats(state, c)      # 8.64b: a depot forced to retreat is captured
        _replacements(state, c, events)
    imp["assaults"] = []
    if fought:
        _extended_battle(state, hm, fert, dice, events, fought, choices)


def _extended_battle(state: FullGameState, hm, fert, dice, events: list[Event], fought: list, choices: dict) -> None:
    """10.7/10.71: the phasing side may fight one extended battle for 1 operation level, then the other."""
    from .attack import Assault
    from .capture import depot_retreats
    from .combat import Circumstances, apply_combat, extended_battle, in_contact, resolve_combat

    cur = state["current"]
    imp = cur["active_impulse"]
    side = imp["side"]
    other = model.other_side(side)
    answers = {side: bool((imp.get("combat") or {}).get("extended_battle")),
               other: bool(state.get("standing", {}).get(other, {}).get("combat", {}).get("extended_battle"))}
    if not any(answers.values()) or not in_contact(state, hm, side):
        return
    eb = extended_battle(side, answers, levels_left=cur["remaining"], earlier=fought)
    events.append(event("extended.battle", eb.why, eb.rule))
    if not eb.chooser:
        return
    cur["remaining"][eb.chooser] -= 1
    contacts = in_contact(state, hm, eb.chooser)
    by_target: dict[str, list] = {}
    for force, target in contacts:
        if any(a.attacker == force for group in by_target.values() for a in group):
            continue          # each force attacks one hex
        by_target.setdefault(target, []).append(Assault(force, model.force_hex(state, force), target, False,
                                                        automatic=True, rule="10.71"))
    circ = Circumstances(supply={f: s["state"] for f, s in imp.get("supply", {}).items()},
                         targets=tuple(by_target), wave_shift_carried=eb.wave_shift_kept,
                         doctrine=bool(state.get("options", {}).get("tactical_doctrine")),
                         forced_march=frozenset(imp.get("forced_march", ())))
    for target, group in by_target.items():
        c = resolve_combat(state, hm, group, dice, fert=fert, circumstances=circ, choices=choices)
        if c.problems:
            continue
        apply_combat(state, c)
        _combat_events(state, c, events)
        events += depot_retreats(state, c)      # 8.64b: a depot forced to retreat is captured


def _replacements(state: FullGameState, c, events: list[Event]) -> None:
    """3.41(2) / 10.67b: a leader killed in an impulse that is not the turn's last is replaced at once
    by a War Department Order for 10 WEP (his heir takes the command, see combat.Kill)."""
    from .combat import Kill

    for e in c.effects:
        if isinstance(e, Kill) and e.replacement.startswith("now"):
            side = state["leaders"][e.leader]["side"]
            state["wep"][side] -= WDO_COST
            heir = f"; {state['leaders'][e.heir]['name']} takes the command" if e.heir else ""
            events.append(event("replacement", f"{side} pays {WDO_COST} WEP: a War Department Order replaces "
                                               f"{state['leaders'][e.leader]['name']} (killed){heir}",
                                "3.41(2), 10.67b", side=side))


# --- 10.8: gunboats in combat -------------------------------------------------------------

def _naval_combats(state: FullGameState, dice, events: list[Event], *, charts: Charts) -> None:
    """10.81: the phasing side's gunboats and batteries attack the enemy units they are in contact with,
    on the game's map and Naval Combat Results Table (``charts``)."""
    from . import naval

    side = state["current"]["active_impulse"]["side"]
    hm = charts.map(state["map"])
    pairs = naval.contacts(state, hm, side)
    done: set = set()
    for mine, theirs in pairs:
        if (mine, theirs) in done:
            continue
        done.add((mine, theirs))
        r = naval.naval_combat(state, hm, [mine], [theirs], dice, phasing=side, chart=naval.Ncrt.load(charts))
        if r.problems:
            continue
        naval.apply_naval_combat(state, r)
        events.append(event("naval.combat", r.why, r.rule))


def _with_bombardment(state: FullGameState, hm, circ, group):
    """10.83: gunboat support enters a land combat as a DRM for each side (no ASP)."""
    if not state.get("naval") or not group:
        return circ
    import dataclasses

    from . import naval

    a = group[0]
    attacker_side = model.force_side(state, a.attacker)
    extra = dict(circ.extra_drms)
    for side, role in ((attacker_side, "attack"), (model.other_side(attacker_side), "defence")):
        b = naval.bombardment_drm(state, hm, side, a.source, a.target, role)
        if b.drms:                  # a Bombardment has no problems: gunboats that cannot support are in b.refused
            naval.apply_bombardment(state, b)
            extra[side] = tuple(extra.get(side, ())) + tuple(b.drms)
    return dataclasses.replace(circ, extra_drms=extra)
