"""The Combat Preparation Sequence: reaction (9.1-9.13), defensive support (9.14, 9.15)
and pre-combat retreat with overrun and capture (9.2-9.24).

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_reaction.py``):

* 9.1 who may react, reading (a): an *ordered* reaction needs an active army
  commander (a leader with an HQ); the attacked hex must be within his MR
  and the reacting force within his command range (his MR); the reacting
  force is led by a leader who is not an army commander.  On its *own
  initiative* a force may react only if it is entrenched (the caller says
  so) or a cavalry corps.  3.26a's wider wording is not followed.
* 9.11 the roll is against the reacting OC's own MR unless the army
  commander lends his (1 AP), which then also sets the distance.
* 9.13 movement: up to MR hexes, never through a hex with enemy units,
  never across a step the caller's ``passable`` refuses (by default the
  map's prohibited terrain and hexsides: an unbridged major river, a
  mountain).  A reacting force may end its move in enemy ZOC (its
  destination normally is) but may not move on out of an enemy-ZOC hex.
* 9.13 the merge into the attacked hex costs the attacked hex's OC 1 AP;
  if the attacked force is unled, the reacting OC takes it into his box and
  pays.  A reaction to a support position stacks without a merge.
* 9.11a "only part of its box": the units and SLs named in ``leave`` stay
  behind (leaders as independent forces, units unled); 1 AP of the
  reacting OC, charged only on success.
* 9.14/9.15 support: a force that is itself the target of an attack does
  not support.  Support is given by every force in position (9.14a,
  "automatically"); ``automatic`` is False only for one that arrived by
  reaction.  The supporter's CF is the printed CF of its living units, its
  artillery the sum of its leaders' artillery; a depot supports with its
  own CF.  Across a major river without bridge or ford (between the
  supporter and either the attacked or the attacking hex) only half the
  artillery counts.  Halves are rounded up; supporters suffer no results.
* 9.21 exceptions exactly as H-25: 1861 nobody retreats; 1862 Confederates
  need conditions 1-3, lose no ML, still leave a rear guard; 1863
  Confederates need conditions 1 and 2 only, lose no ML, leave no rear
  guard.  Condition 3 compares OC MLs (an unled attacker's inverted ML,
  3.52b) or total cavalry CF (printed).
* 9.22 the rear guard: at least one living combat unit of the force; an
  SL may stay with it (``rear_guard_leader``: he keeps his whole box).
  1 AP of the OC when any rear-guard unit is taken out of a box other than
  that SL's.  The OC always retreats.
* 9.22/9.23 overrun: the attacker's printed CF of the side showing (living
  units, no artillery, no halving) against the rear guard's, overrun when
  attacker >= 20 x rear guard (H-24: 40 vs 2 overruns, 39 does not).  The
  overrun rear guard is eliminated, its leaders captured (``captured:
  true``, off the map; an HQ marker goes to ``state["hq_pool"][side]``;
  artillery and ASP removed), the attacker advances and must attack the
  retreated force (an ``automatic`` Assault: no AP, no check).
* 9.22 no rear guard (the cavalry exception or 1863 Confederates): the
  attacker simply advances into the vacated hex; there is no combat.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, cast

from .state_types import FullGameState
from ...geometry.hex import HexSide
from ..base import Problem
from . import forces as fc
from . import model
from .attack import Assault, default_passable, enemy_zoc, neighbours
from .forces import APCharge
from .imc import half_up
from .reorg_step import year_of

OVERRUN_RATIO = 20       # 9.22, 9.23


def _defender_side(state: FullGameState, attack: Assault) -> str:
    return model.other_side(model.force_side(state, attack.attacker))


def _is_cavalry_corps(state: FullGameState, force_id: str, flag: bool | None) -> bool:
    oc = fc.force_oc(state, force_id)
    if oc is None:
        return False
    units = model.units_of(state, force_id)
    corps = state["leaders"][oc].get("cavalry_corps", False) if flag is None else flag
    return bool(corps) and bool(units) and all(state["units"][u]["arm"] == "cavalry" for u in units)


def reachable_hexes(state: FullGameState, hexmap, force_id: str, steps: int, passable=None) -> dict[str, int]:
    """9.13: hexes a reacting force can reach in at most ``steps`` hexes -> the hexes needed.

    No hex with enemy units; no step the ``passable`` callback refuses; no moving on out of an
    enemy-ZOC hex (one may end there)."""
    passable = passable or default_passable(hexmap)
    side = model.force_side(state, force_id)
    start = model.force_hex(state, force_id)
    enemy_units = model.occupied_hexes(state, model.other_side(side))
    zoc = enemy_zoc(state, hexmap, side)
    seen = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if seen[h] >= steps or (h != start and h in zoc):
            continue
        for n in neighbours(hexmap, h):
            if n in seen or n in enemy_units or not passable(h, n):
                continue
            seen[n] = seen[h] + 1
            todo.append(n)
    return seen


def support_positions(hexmap, attack: Assault) -> list[str]:
    """9.14: hexes adjacent both to the attacked hex and to the attacker's hex."""
    a = set(neighbours(hexmap, attack.target))
    return [h for h in neighbours(hexmap, attack.source) if h in a]


# --- reaction (9.1-9.13) -------------------------------------------------------------------

@dataclass
class Reaction:
    """One reaction attempt (9.11) and, on success, where the force goes."""

    force: str
    attack: Assault
    commander: str | None = None
    mr: int = 0
    mr_from: str = ""
    roll: int | None = None
    success: bool = False
    destination: str | None = None
    kind: str | None = None            # "join" (the attacked hex) or "support"
    reachable: dict[str, int] = field(default_factory=dict)
    charges: list[APCharge] = field(default_factory=list)       # paid whatever the roll
    on_success: list[APCharge] = field(default_factory=list)    # paid only if it succeeds
    activate: bool = False
    leave: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "9.11"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def reaction(state: FullGameState, hexmap, force_id: str, attack: Assault, dice, *, commander: str | None = None,
             lend_mr: bool = False, destination: str | None = None, passable=None, entrenched: bool = False,
             cavalry_corps: bool | None = None, activate: bool = False, leave: Iterable[str] = ()) -> Reaction:
    """9.1-9.13: try to move ``force_id`` to the attacked hex (or a support position) of ``attack``.

    ``commander`` is the army commander ordering the reaction (None: own initiative, only
    for an entrenched force or a cavalry corps); ``lend_mr`` lets him lend his MR (1 AP);
    ``activate`` has him activate an inactive reacting leader first (1 AP, 9.12).
    Nothing is rolled when the attempt is illegal (see ``problems``)."""
    r = Reaction(force_id, attack, commander, leave=list(leave), activate=activate)
    p = r.problems
    side = _defender_side(state, attack)
    if model.is_unled(force_id):
        p.append(Problem("unled units cannot react: a reaction is a leader's order", "9.1", ["force"]))
        r.why = "not tried: " + p[0].message
        return r
    oc = fc.force_oc(state, force_id) or force_id
    here = model.force_hex(state, force_id)
    _who_may_react(state, hexmap, r, here, side)
    oc_ld = state["leaders"][oc]
    r.mr_from = oc
    if commander is None:
        _own_initiative(state, r, oc, lend_mr=lend_mr, entrenched=entrenched, cavalry_corps=cavalry_corps)
        r.mr = model.current_rating(oc_ld, "mr")
    else:
        r.mr = _commander_order(state, hexmap, r, commander, oc, here, side, lend_mr=lend_mr)
    dest = destination or attack.target
    _destination(state, hexmap, r, here, dest, passable)
    _room_at_destination(state, r, dest, oc, side)
    _part_left_behind(state, r, oc)
    p.extend(fc.ap_problems(state, r.charges + r.on_success))
    if p:
        r.why = "not tried: " + "; ".join(x.message for x in p)
        return r
    _roll_reaction(r, dest, dice, side)
    return r


def _who_may_react(state: FullGameState, hexmap, r: Reaction, here: str, side: str) -> None:
    """9.1 / 9.12: only a free force of the attacked side, other than the attacked force and not
    in enemy ZOC, may react."""
    force_id, p = r.force, r.problems
    ld = state["leaders"][force_id]
    if ld["side"] != side:
        p.append(Problem(f"{force_id} is not a force of the attacked side", "9.1", ["force"]))
    if ld.get("superior"):
        p.append(Problem(f"{force_id} is part of another force; detach it first", "9.1", ["force"]))
    if here == r.attack.target:
        p.append(Problem(f"{force_id} is the attacked force", "9.1", ["force"]))
    if here in enemy_zoc(state, hexmap, side):
        p.append(Problem(f"{force_id} is in enemy ZOC in {here}: it cannot react, only support",
                         "9.12", ["force"]))


def _own_initiative(state: FullGameState, r: Reaction, oc: str, *, lend_mr: bool, entrenched: bool,
                    cavalry_corps: bool | None) -> None:
    """9.1 reading (a): without an ordering army commander only an active, entrenched force or a
    cavalry corps reacts, and nobody lends MR or activates it (9.11, 8.1)."""
    p = r.problems
    if lend_mr or r.activate:
        p.append(Problem("lending MR or activating needs an ordering army commander", "9.11", ["commander"]))
    if not state["leaders"][oc].get("active"):
        p.append(Problem(f"{oc} is inactive: only active leaders react", "8.1", ["force"]))
    if not (entrenched or _is_cavalry_corps(state, r.force, cavalry_corps)):
        p.append(Problem(f"{r.force} may react on its own initiative only when entrenched or a cavalry "
                         "corps; otherwise an army commander must order it (reading (a))", "9.1",
                         ["commander"]))


def _commander_order(state: FullGameState, hexmap, r: Reaction, commander: str, oc: str, here: str, side: str, *,
                     lend_mr: bool) -> int:
    """9.1 / 9.11 / 9.12: an active friendly army commander orders the reaction of an SL within his
    command range; he may activate him (1 AP) and lend his MR (1 AP).  Returns the MR to roll against."""
    p, force_id, target = r.problems, r.force, r.attack.target
    oc_ld = state["leaders"][oc]
    mr = model.current_rating(oc_ld, "mr")
    cd = state["leaders"].get(commander)
    if not cd or not cd.get("hq") or cd["side"] != side:
        p.append(Problem(f"{commander} is not a friendly leader with an HQ", "9.1", ["commander"]))
        return mr
    if not cd.get("active"):
        p.append(Problem(f"{commander} is inactive", "9.1", ["commander"]))
        return mr
    rng = fc.command_range(state, commander)
    if not fc.in_command_range(state, hexmap, commander, target):
        p.append(Problem(f"the attacked hex {target} is more than {rng} hexes (his MR) from "
                         f"{commander}", "9.1", ["commander"]))
    if not fc.in_command_range(state, hexmap, commander, here):
        p.append(Problem(f"{force_id} in {here} is outside {commander}'s command range ({rng})",
                         "9.1", ["commander"]))
    if oc_ld.get("hq"):
        p.append(Problem(f"{oc} is an army commander, not an SL: he reacts only on his own initiative",
                         "9.1", ["force"]))
    if not oc_ld.get("active"):
        if r.activate:
            r.charges.append(APCharge(commander, 1, "9.12", f"{commander} activates {oc} to react"))
        else:
            p.append(Problem(f"{oc} is inactive; {commander} must activate him first (1 AP)",
                             "9.12", ["activate"]))
    elif r.activate:
        p.append(Problem(f"{oc} is already active", "9.12", ["activate"]))
    if lend_mr:
        mr = model.current_rating(cd, "mr")
        r.mr_from = f"{commander} (lent, 1 AP)"
        r.charges.append(APCharge(commander, 1, "9.11", f"{commander} lends his MR to {oc}"))
    return mr


def _destination(state: FullGameState, hexmap, r: Reaction, here: str, dest: str, passable) -> None:
    """9.13: the force reacts into the attacked hex (join) or a support position, within its MR in hexes."""
    p, attack, force_id, mr = r.problems, r.attack, r.force, r.mr
    r.reachable = reachable_hexes(state, hexmap, force_id, mr, passable)
    supports = support_positions(hexmap, attack)
    r.destination = dest
    if dest == attack.target:
        r.kind = "join"
    elif dest in supports:
        r.kind = "support"
    else:
        p.append(Problem(f"{dest} is neither the attacked hex {attack.target} nor a support position "
                         f"({', '.join(supports) or 'none'})", "9.13", ["destination"]))
    if dest == here:
        p.append(Problem(f"{force_id} is already in {dest}: it supports without reacting (9.14a)", "9.13",
                         ["destination"]))
    elif dest not in r.reachable:
        p.append(Problem(f"{force_id} cannot reach {dest} within {mr} hexes (MR)", "9.13", ["destination"]))


def _room_at_destination(state: FullGameState, r: Reaction, dest: str, oc: str, side: str) -> None:
    """9.13 / 3.22a: stacking where it arrives; joining the attacked force costs its commander 1 AP
    on success to merge."""
    if r.kind == "join":
        target = r.attack.target
        defenders = model.forces_in_hex(state, target, side)
        r.problems.extend(fc.check_stacking(state, defenders + [r.force], target).problems)
        payer = fc.overall_commander(state, target, side) or oc
        r.on_success.append(APCharge(payer, 1, "9.13", f"{payer} merges {r.force} into {target}"))
    elif r.kind == "support":
        r.problems.extend(fc.check_hex(state, dest, side, [r.force]).problems)


def _part_left_behind(state: FullGameState, r: Reaction, oc: str) -> None:
    """9.11a: sending only part of the force costs 1 AP on success; what stays must belong to it."""
    if not r.leave:
        return
    members = set(model.subordinates(state, r.force)) | set(model.force_units(state, r.force))
    for i, x in enumerate(r.leave):
        if x not in members:
            r.problems.append(Problem(f"{x} is not part of {r.force}'s force", "9.11a", ["leave", i]))
    r.on_success.append(APCharge(oc, 1, "9.11a", f"{oc} sends only part of his force"))


def _roll_reaction(r: Reaction, dest: str, dice, side: str) -> None:
    """9.11: the reaction succeeds on a d6 roll of the MR or less."""
    mr = r.mr
    r.roll = dice.d6(f"reaction {r.force} -> {dest}", by=side)
    r.success = r.roll <= mr
    r.why = (f"{r.force} rolls {r.roll} against MR {mr} ({r.mr_from}): "
             + (f"reacts {r.reachable[dest]} hex(es) to {dest} "
                + ("and joins the attacked force" if r.kind == "join" else "to support") if r.success
                else "fails and stays"))


def apply_reaction(state: FullGameState, r: Reaction) -> None:
    """Apply a reaction attempt: its AP, the activation and, on success, the move and merge."""
    if r.problems:
        raise ValueError("cannot apply an illegal reaction: " + r.why)
    fc.apply_charges(state, r.charges)
    oc = fc.force_oc(state, r.force) or r.force
    if r.activate:
        state["leaders"][oc]["active"] = True
    if not r.success:
        return
    fc.apply_charges(state, r.on_success)
    here = model.force_hex(state, r.force)
    for x in r.leave:
        if x in state["leaders"]:
            state["leaders"][x]["superior"] = None
        else:
            state["units"][x]["leader"] = None
            state["units"][x]["hex"] = here
    side = state["leaders"][r.force]["side"]
    defenders = model.forces_in_hex(state, cast(str, r.destination), side) if r.kind == "join" else []
    fc.apply_move(state, r.force, cast(str, r.destination))
    if r.kind != "join":
        return
    for d in defenders:
        if model.is_unled(d):
            for uid in model.units_of(state, d, side):
                state["units"][uid]["leader"] = r.force
                state["units"][uid]["hex"] = None
    leaders = [d for d in defenders if not model.is_unled(d)]
    if leaders:
        head, _ = fc.senior_of(state, leaders + [r.force])
        for x in leaders + [r.force]:
            if x != head:
                state["leaders"][x]["superior"] = head


# --- defensive support (9.14, 9.15) --------------------------------------------------------

@dataclass
class Support:
    """What a supporting force adds to the attacked force (9.14, 9.15)."""

    supporter: str
    attack: Assault
    cf: int = 0
    artillery: int = 0
    added_cf: int = 0
    added_artillery: int = 0
    across_major_river: bool = False
    automatic: bool = True
    suffers_results: bool = False      # 9.15: never
    problems: list[Problem] = field(default_factory=list)
    rule: str = "9.14"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def _unbridged_major_river(hexmap, a: str, b: str) -> bool:
    side = HexSide(hexmap.parse(a), hexmap.parse(b))
    return "major_river" in hexmap.side_features(side)      # effective: a bridge or ford replaces it


def defensive_support(state: FullGameState, hexmap, supporter: str, attack: Assault, *, targets: Iterable[str] = (),
                      by_reaction: bool = False) -> Support:
    """9.14/9.15: what ``supporter`` (a force id, or a depot's logistics id) adds to the defence
    of ``attack.target``.  ``targets`` are every hex attacked this sequence."""
    s = Support(supporter, attack, automatic=not by_reaction)
    p = s.problems
    side = _defender_side(state, attack)
    logistics = state.get("logistics", {})
    if supporter in logistics:
        dep = logistics[supporter]
        here = dep.get("hex")
        if dep.get("kind") != "depot" or dep.get("leader") or dep.get("side") != side:
            p.append(Problem(f"{supporter} is not a friendly depot standing alone", "9.14", ["supporter"]))
        s.cf, s.artillery = dep.get("cf", 0), 0
    else:
        here = model.force_hex(state, supporter)
        if model.force_side(state, supporter) != side:
            p.append(Problem(f"{supporter} is not a force of the attacked side", "9.14", ["supporter"]))
        s.cf = sum(model.unit_cf(state["units"][u]) for u in model.units_of(state, supporter, side))
        s.artillery = sum(state["leaders"][x].get("artillery", 0) for x in fc.force_leaders_of(state, supporter))
    tset = set(targets) | {attack.target}
    if not here or here not in support_positions(hexmap, attack):
        p.append(Problem(f"{supporter} in {here} is not adjacent both to {attack.target} and to the attacker "
                         f"in {attack.source}", "9.14", ["supporter"]))
    elif here in tset:
        p.append(Problem(f"{supporter} in {here} is itself attacked and does not support", "9.14a", ["supporter"]))
    if p:
        s.why = "no support: " + "; ".join(x.message for x in p)
        return s
    s.across_major_river = (_unbridged_major_river(hexmap, cast(str, here), attack.target)
                            or _unbridged_major_river(hexmap, cast(str, here), attack.source))
    s.added_artillery = half_up(s.artillery)
    s.added_cf = 0 if s.across_major_river else half_up(s.cf)
    if s.across_major_river:
        s.rule = "9.15"
        s.why = (f"{supporter} in {here} is across a major river without bridge or ford: adds only half its "
                 f"artillery ({s.artillery} -> {s.added_artillery}), no CF")
    else:
        s.why = (f"{supporter} in {here} adds half its CF ({s.cf} -> {s.added_cf}) and half its artillery "
                 f"({s.artillery} -> {s.added_artillery}), rounded up")
    s.why += "; supporters suffer no combat results (9.15)"
    return s


def supports_for(state: FullGameState, hexmap, attack: Assault, targets: Iterable[str] = ()) -> list[Support]:
    """9.14a: every defending force (and lone depot) already in position supports automatically."""
    side = _defender_side(state, attack)
    out = []
    positions = support_positions(hexmap, attack)
    for h in positions:
        for f in model.forces_in_hex(state, h, side):
            s = defensive_support(state, hexmap, f, attack, targets=targets)
            if s.legal:
                out.append(s)
    for sid, dep in state.get("logistics", {}).items():
        if dep.get("kind") == "depot" and dep.get("hex") in positions and not dep.get("leader") \
                and dep.get("side") == side:
            s = defensive_support(state, hexmap, sid, attack, targets=targets)
            if s.legal:
                out.append(s)
    return out


# --- pre-combat retreat (9.2-9.24) ---------------------------------------------------------

@dataclass
class Overrun:
    """9.22/9.23/9.24: the attacker against the rear guard left behind."""

    attacker_strength: int
    rear_guard_strength: int
    overrun: bool
    eliminated: list[str] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)
    hq_returned: list[str] = field(default_factory=list)
    artillery_lost: int = 0
    asp_lost: int = 0
    rule: str = "9.23"
    why: str = ""


@dataclass
class PreCombatRetreat:
    """A pre-combat retreat (9.21, 9.22) and what the attacker does next."""

    force: str
    attack: Assault
    year: int | None
    side: str
    conditions: dict[int, str] = field(default_factory=dict)     # condition -> "met" / "waived" / why not
    allowed: bool = False
    options: list[str] = field(default_factory=list)
    to: str | None = None
    rear_guard_needed: bool = True
    rear_guard: list[str] = field(default_factory=list)
    rear_guard_leaders: list[str] = field(default_factory=list)
    ml_loss: int = 0
    ml_after: int | None = None
    charges: list[APCharge] = field(default_factory=list)
    overrun: Overrun | None = None
    attacker_advances: bool = False
    next_assault: Assault | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "9.21"
    why: str = ""

    @property
    def legal(self) -> bool:
        return not self.problems


def force_strength(state: FullGameState, force_id: str, side: str | None = None) -> int:
    """Printed CF of the side showing of a force's living units (the 9.22 overrun comparison)."""
    return sum(model.unit_cf(state["units"][u]) for u in model.units_of(state, force_id, side))


def cavalry_cf(state: FullGameState, force_id: str, side: str | None = None) -> int:
    return sum(model.unit_cf(state["units"][u]) for u in model.units_of(state, force_id, side)
               if state["units"][u]["arm"] == "cavalry")


def force_ml(state: FullGameState, force_id: str) -> int:
    """The ML a force compares (10.31): its OC's, or an unled force's inverted unit ML (3.52b)."""
    oc = fc.force_oc(state, force_id)
    if oc is not None:
        return state["leaders"][oc]["ml"]
    return fc.inverted_ml(fc.unled_ml(state, force_id))


def retreat_options(state: FullGameState, hexmap, force_id: str, passable=None) -> list[str]:
    """9.21(2): adjacent hexes the force can enter that hold no enemy and are not in enemy ZOC."""
    passable = passable or default_passable(hexmap)
    side = model.force_side(state, force_id)
    here = model.force_hex(state, force_id)
    zoc = enemy_zoc(state, hexmap, side)
    enemy_units = model.occupied_hexes(state, model.other_side(side))
    return [n for n in neighbours(hexmap, here)
            if n not in zoc and n not in enemy_units and passable(here, n)]


def _condition_1(state: FullGameState, force_id: str, attack: Assault, side: str) -> str:
    """9.21(1): a stack led by an active leader, the target of the attack."""
    oc = fc.force_oc(state, force_id)
    c1 = []
    if oc is None:
        c1.append("the force has no leader")
    elif not state["leaders"][oc].get("active"):
        c1.append(f"its OC {oc} is inactive")
    if model.force_hex(state, force_id) != attack.target:
        c1.append(f"it is not the target of the attack on {attack.target}")
    if model.force_side(state, force_id) != side:
        c1.append("it is not a defending force")
    return "met" if not c1 else "; ".join(c1)


def _condition_3(state: FullGameState, force_id: str, attack: Assault, side: str) -> str:
    """9.21(3): the OC's ML above the attacking OC's, or the higher total cavalry CF."""
    d_ml = force_ml(state, force_id) if fc.force_oc(state, force_id) else None
    a_ml = force_ml(state, attack.attacker)
    d_cav, a_cav = cavalry_cf(state, force_id, side), cavalry_cf(state, attack.attacker)
    if d_ml is not None and d_ml > a_ml:
        return "met"
    if d_cav > a_cav:
        return "met"
    return (f"the OC's ML {d_ml} is not above the attacker's {a_ml} and its cavalry CF "
            f"{d_cav} is not above the attacker's {a_cav}")


def _condition_4(state: FullGameState, oc: str | None, units: list[str], rear_guard_needed: bool, waive_ml: bool) -> str:
    """9.21(4): the OC can lower his ML by 1 (not the 1862-63 Confederates) and a rear guard
    can be left."""
    c4 = []
    if not waive_ml and oc is not None and state["leaders"][oc]["ml"] < 1:
        c4.append(f"{oc} has ML 0 and cannot lower it")
    if rear_guard_needed and not units:
        c4.append("no combat unit can be left as a rear guard")
    if c4:
        return "; ".join(c4)
    return "met (1862 Confederates: no ML loss, rear guard still required)" if waive_ml else "met"


def _all_cavalry_against_none(state: FullGameState, units: list[str], attack: Assault) -> bool:
    """9.22 exception: an all-cavalry stack retreating from an attacker with no cavalry."""
    attacker_units = model.units_of(state, attack.attacker)
    return (bool(units) and all(state["units"][u]["arm"] == "cavalry" for u in units)
            and not any(state["units"][u]["arm"] == "cavalry" for u in attacker_units))


def _rear_guard_leaders(state: FullGameState, force_id: str, oc: str | None, rear_guard_leader: str | None,
                        p: list[Problem]) -> list[str]:
    """9.22: the SL who stays with the rear guard, with his whole box."""
    if rear_guard_leader is None:
        return []
    if oc is None or rear_guard_leader not in model.subordinates(state, oc):
        p.append(Problem(f"{rear_guard_leader} is not an SL of {force_id}", "9.22", ["rear_guard_leader"]))
        return []
    return model.force_leaders(state, rear_guard_leader)


def _rear_guard_size_problems(state: FullGameState, units: list[str], rg: list[str], rg_all: list[str],
                              staying: list[str]) -> list[Problem]:
    """3.23: the rear guard's SL leads no more than his stars allow; an unled rear guard at most
    1 infantry division (4 Confederate brigades)."""
    if staying:
        lead = state["leaders"][staying[0]]
        led = fc.division_equivalents(state, [u for u in rg if state["units"][u].get("leader") not in staying]
                                      + [u for u in units if state["units"][u].get("leader") == staying[0]])
        if led > fc.command_capacity(lead):
            return [Problem(f"{staying[0]} cannot lead a rear guard of {led} infantry divisions "
                            f"(at most {fc.command_capacity(lead)})", "3.23", ["rear_guard"])]
    elif fc.division_equivalents(state, rg_all) > fc.UNLED_LIMIT:
        return [Problem("an unled rear guard may hold at most 1 infantry division (4 Confederate brigades)",
                        "3.23b", ["rear_guard"])]
    return []


def _choose_rear_guard(state: FullGameState, r: PreCombatRetreat, oc: str | None, units: list[str],
                       rear_guard: Iterable[str], rear_guard_leader: str | None) -> None:
    """9.22: the units (and the SL) left in the hex, their problems and the 1 AP for taking a
    unit out of a box."""
    p = r.problems
    staying = _rear_guard_leaders(state, r.force, oc, rear_guard_leader, p)
    rg = list(rear_guard)
    strangers = [Problem(f"{u} is not a living unit of {r.force}", "9.22", ["rear_guard", i])
                 for i, u in enumerate(rg) if u not in units]
    if strangers:                       # the rear guard's size is reckoned only of the force's units
        p += strangers
        return
    boxed_with_leader = [u for u in units if state["units"][u].get("leader") in staying]
    rg_all = rg + [u for u in boxed_with_leader if u not in rg]
    r.rear_guard, r.rear_guard_leaders = rg_all, staying
    if r.rear_guard_needed and not rg_all:
        p.append(Problem("a rear guard of at least one combat unit must stay in the hex", "9.22", ["rear_guard"]))
    p += _rear_guard_size_problems(state, units, rg, rg_all, staying)
    if oc is not None and any(state["units"][u].get("leader") not in staying for u in rg):
        r.charges.append(APCharge(oc, 1, "9.22", f"{oc} takes the rear guard out of its box"))


def _overrun(state: FullGameState, r: PreCombatRetreat, here: str, attacker_strength: int | None) -> Overrun:
    """9.22-9.24: the attacker against the rear guard: overrun at 20 to 1 (the rear guard
    eliminated, its leaders captured, the attacker advances and attacks the retreated force),
    else the attacker must attack the rear guard."""
    attack, staying = r.attack, r.rear_guard_leaders
    a_str = force_strength(state, attack.attacker) if attacker_strength is None else attacker_strength
    g_str = sum(model.unit_cf(state["units"][u]) for u in r.rear_guard)
    over = a_str >= OVERRUN_RATIO * g_str
    o = Overrun(a_str, g_str, over)
    if not over:
        o.why = (f"attacker {a_str} CF < {OVERRUN_RATIO} x rear guard {g_str}: no overrun; the attacker "
                 f"must attack the rear guard in {here}")
        r.next_assault = Assault(attack.attacker, attack.source, attack.target, attack.hasty, False, "9.22")
        return o
    o.eliminated = list(r.rear_guard)
    o.captured = list(staying)
    o.hq_returned = [x for x in staying if state["leaders"][x].get("hq")]
    o.artillery_lost = sum(state["leaders"][x].get("artillery", 0) for x in staying)
    o.asp_lost = sum(state["leaders"][x].get("asp", 0) for x in staying)
    o.why = (f"attacker {a_str} CF >= {OVERRUN_RATIO} x rear guard {g_str}: overrun; the rear guard is "
             "eliminated" + (f", {', '.join(staying)} captured (9.24)" if staying else "")
             + f"; the attacker advances into {here} and must attack {r.to} with no AP and no check")
    r.attacker_advances = True
    r.next_assault = Assault(attack.attacker, here, cast(str, r.to), False, True, "9.23")
    return o


def _what_follows(state: FullGameState, r: PreCombatRetreat, here: str, attacker_strength: int | None,
                  cav_exception: bool) -> list[str]:
    """9.22, 9.23: the rear guard and the overrun test, or (no rear guard) the attacker's advance;
    the parts of the ``why``."""
    if not r.rear_guard:
        r.attacker_advances = True
        why_none = ("the retreating stack is all cavalry and the attacker has none (9.22)" if cav_exception
                    else "1863 Confederates need no rear guard (9.21)")
        return [f"no rear guard: {why_none}; the attacker advances into {here}, no combat"]
    r.overrun = _overrun(state, r, here, attacker_strength)
    staying = r.rear_guard_leaders
    return [f"rear guard {', '.join(r.rear_guard)}" + (f" under {', '.join(staying)}" if staying else "")
            + (" (1 AP to take it out of a box)" if r.charges else ""), r.overrun.why]


def _unmet_conditions(conditions: dict[int, str]) -> list[Problem]:
    """9.21a: if any condition is not met (nor waived), no pre-combat retreat is allowed."""
    return [Problem(f"condition {n}: {conditions[n]}", "9.21", ["force"]) for n in (1, 2, 3, 4)
            if not (conditions[n].startswith("met") or conditions[n].startswith("waived"))]


def pre_combat_retreat(state: FullGameState, hexmap, force_id: str, attack: Assault, *, to: str | None = None,
                       rear_guard: Iterable[str] = (), rear_guard_leader: str | None = None,
                       year: int | None = None, passable=None,
                       attacker_strength: int | None = None) -> PreCombatRetreat:
    """9.21-9.24: may ``force_id`` (the target of ``attack``) retreat 1 hex before combat, and what
    follows: the rear guard, the overrun test and the attacker's advance or pursuit.

    ``rear_guard`` are unit ids left in the hex; ``rear_guard_leader`` an SL who stays with them
    (with his whole box).  ``year`` defaults to this turn's year in the game's calendar (9.21's
    exceptions by year).  ``attacker_strength`` overrides the printed CF of the attacker for the
    overrun test."""
    year = year_of(state) if year is None else year
    side = _defender_side(state, attack)
    r = PreCombatRetreat(force_id, attack, year, side)
    p = r.problems
    conf = side == "confederate"
    waive_ml = conf and year in (1862, 1863)        # 9.21 exceptions: no ML loss
    waive_3_4 = conf and year == 1863               # 9.21 exceptions: conditions 3 and 4 waived
    if year == 1861:
        p.append(Problem("in 1861 neither side may retreat before combat", "9.21", ["force"]))
    oc = fc.force_oc(state, force_id)
    here = model.force_hex(state, force_id)
    r.conditions[1] = _condition_1(state, force_id, attack, side)
    r.options = retreat_options(state, hexmap, force_id, passable)
    r.conditions[2] = "met" if r.options else "no adjacent hex out of enemy ZOC to retreat into"
    r.conditions[3] = "waived (1863 Confederates)" if waive_3_4 else _condition_3(state, force_id, attack, side)
    units = model.units_of(state, force_id)
    cav_exception = _all_cavalry_against_none(state, units, attack)
    r.rear_guard_needed = not (waive_3_4 or cav_exception)
    _choose_rear_guard(state, r, oc, units, rear_guard, rear_guard_leader)
    r.conditions[4] = ("waived (1863 Confederates)" if waive_3_4
                       else _condition_4(state, oc, units, r.rear_guard_needed, waive_ml))
    p += _unmet_conditions(r.conditions)
    if to is None and r.options:
        to = r.options[0]
    if to is not None and to not in r.options:
        p.append(Problem(f"{to} is not a hex to retreat into ({', '.join(r.options) or 'none'})", "9.21",
                         ["to"]))
    if oc is not None:
        p.extend(fc.ap_problems(state, r.charges))
    r.to = to
    if p:
        r.why = "no pre-combat retreat: " + "; ".join(x.message for x in p)
        return r
    r.allowed = True
    ld = state["leaders"][cast(str, oc)]
    r.ml_loss = 0 if waive_ml else 1
    r.ml_after = ld["ml"] - r.ml_loss
    parts = [f"{force_id} retreats from {here} to {to}"
             + (f"; {oc}'s ML {ld['ml']} -> {r.ml_after} (OC only)" if r.ml_loss
                else f"; {side} in {year}: no ML loss")]
    r.why = "; ".join(parts + _what_follows(state, r, here, attacker_strength, cav_exception))
    return r


def apply_pre_combat_retreat(state: FullGameState, r: PreCombatRetreat) -> None:
    """Apply an allowed retreat: AP and ML, the rear guard, the move, the overrun and capture,
    and the attacker's advance."""
    if r.problems or not r.allowed:
        raise ValueError("cannot apply a pre-combat retreat that is not allowed: " + r.why)
    fc.apply_charges(state, r.charges)
    oc = fc.force_oc(state, r.force)
    here = r.attack.target
    state["leaders"][cast(str, oc)]["ml"] = cast(int, r.ml_after)        # set with the OC's ML loss
    staying = set(r.rear_guard_leaders)
    if staying:
        head = next(x for x in r.rear_guard_leaders)
        state["leaders"][head]["superior"] = None
    for u in r.rear_guard:
        unit = state["units"][u]
        if unit.get("leader") in staying:
            continue
        if staying:
            unit["leader"] = r.rear_guard_leaders[0]
        else:
            unit["leader"] = None
            unit["hex"] = here
    fc.apply_move(state, r.force, cast(str, r.to))
    if r.overrun and r.overrun.overrun:
        for u in r.overrun.eliminated:
            state["units"][u]["steps"] = 0
        for x in r.overrun.captured:
            ld = state["leaders"][x]
            if ld.get("hq"):
                state.setdefault("hq_pool", {}).setdefault(ld["side"], []).append(x)
            ld.update({"hex": None, "superior": None, "pool": False, "captured": True, "active": False,
                       "hq": False, "artillery": 0, "asp": 0})
    if r.attacker_advances:
        fc.apply_move(state, r.attack.attacker, here)
