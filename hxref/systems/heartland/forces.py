"""Forces, command and morale: rules 3.22-3.24, 3.52, 4.25/11.0 and 8.25.

Pure questions about the state (layout in :mod:`.model`), plus the AP
bookkeeping every impulse action shares.  Functions named ``apply_...``
change the state they are given; every other function leaves it alone.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_forces.py``):

* 3.22 OC: an army commander (``hq``) outranks every leader who is not one;
  otherwise *intrinsic* stars decide first and brevet stars only break a tie
  ("intrinsic stars take precedence", 14.51).  Several army commanders in a
  hex are ordered the same way; a tie left after that is broken by the order
  of the leaders in the state and flagged ``tied``.
* 3.22a "same rank" compares stars including brevet (固有にしろ戦時昇進にしろ).
* 3.23 counting: only living infantry units count.  A division-size unit
  is one division; a smaller infantry unit is ``1 / INFANTRY_PER_DIVISION``
  of one (Confederate brigades 1/4; every Union infantry unit counts as a
  division, as :data:`.model.INFANTRY_PER_DIVISION` says).
* 3.23b unled units: the same count (infantry only, as 3.23b words it) must
  not exceed one division per side per hex.
* 3.52a: a unit is broken when its ML is above the ML of the leader whose box
  holds it (the box leader, not the hex's OC).
* 3.52b: the inversion is ``6 - ML`` for every ML 0-6; an unled force's ML
  is its worst (highest) unit ML.  An unled check passes only on a roll
  *below* the inverted ML, for morale checks and attack checks alike.
* 4.25/11.0 pay: leaders counted are those of the side who are not in the
  pool and are on the map or in a box (``hex`` set, or ``superior`` set); a
  leader marked ``captured`` is gone.  The caller names the leaders
  deactivated involuntarily this impulse (they are paid too).
* 8.25c / 3.24: detaching any number of leaders and units from one hex at
  one time is 1 AP of the OC; each detached force that uses the OC's MR is
  1 AP more (3.24b, H-18).  A detached unit becomes unled in the hex.
* 8.25a: a merge is paid by the OC of the force doing it (``mover``); the
  most senior leader heads the merged force.
* 3.24: the acting leader pays, unless his OC in the same hex, or an army
  commander with him in command range (MR hexes), orders it (``who_pays``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, cast

from .state_types import FullGameState, Leader
from ...geometry.hex import distance
from ..base import Problem
from . import model

UNLED_LIMIT = Fraction(1)        # 3.23b: one infantry division (Confederate: 4 brigades) per hex
INVERT_FROM = 6                  # 3.52b: 0 -> 6, 1 -> 5, 2 -> 4


# --- command (3.22) ------------------------------------------------------------------------

def command_key(leader: Leader) -> tuple[int, int, int]:
    """Seniority for 3.22: army commanders first, then intrinsic stars, then stars with brevet."""
    return (1 if leader.get("hq") else 0, leader["stars"], model.rank(leader))


@dataclass
class Command:
    """Who commands a hex (3.22): the OC and his SLs."""

    hex: str | None
    side: str
    oc: str | None
    sls: list[str] = field(default_factory=list)
    tied: list[str] = field(default_factory=list)
    rule: str = "3.22"
    why: str = ""


def senior_of(state: FullGameState, leader_ids: Iterable[str]) -> tuple[str | None, list[str]]:
    """The most senior leader of ``leader_ids`` (3.22) and those tied with him (first wins)."""
    ids = list(leader_ids)
    if not ids:
        return None, []
    best = max(command_key(state["leaders"][lid]) for lid in ids)
    top = [lid for lid in ids if command_key(state["leaders"][lid]) == best]
    return top[0], top[1:]


def hex_command(state: FullGameState, label: str, side: str) -> Command:
    """3.22: the OC of ``side``'s leaders in hex ``label`` and his SLs, with the reason."""
    ids = model.leaders_in_hex(state, label, side)
    ids = [lid for lid in ids if not state["leaders"][lid].get("captured")]
    oc, tied = senior_of(state, ids)
    if oc is None:
        return Command(label, side, None, why=f"no {side} leader in {label}: the units there are unled")
    ld = state["leaders"][oc]
    what = ("army commander" if ld.get("hq") else f"{ld['stars']} intrinsic star(s)"
            + (f" + {ld.get('brevet', 0)} brevet" if ld.get("brevet") else ""))
    why = f"{ld.get('name', oc)} commands {label} ({what})"
    if tied:
        why += f"; tied with {', '.join(tied)}, the first listed is taken"
    return Command(label, side, oc, [x for x in ids if x != oc], tied, "3.22", why)


def overall_commander(state: FullGameState, where, side: str | None = None) -> str | None:
    """3.22: the OC's id: of ``side`` in hex ``where`` (a label), or of the leader ids ``where``.

    ``hex_command`` gives the SLs and the reason too."""
    if isinstance(where, str):
        if side is None:
            raise TypeError("overall_commander(state, label, side): a hex label needs the side")
        return hex_command(state, where, side).oc
    return senior_of(state, [x for x in where if not state["leaders"][x].get("captured")])[0]


def force_oc(state: FullGameState, force_id: str) -> str | None:
    """The OC of a force: its most senior leader (normally the independent leader at its head)."""
    if model.is_unled(force_id):
        return None
    members = model.force_leaders(state, force_id)
    oc, _ = senior_of(state, members)
    return oc


def force_leaders_of(state: FullGameState, force_id: str) -> list[str]:
    """Leaders of a force (none for an unled force)."""
    return [] if model.is_unled(force_id) else model.force_leaders(state, force_id)


# --- stacking (3.22a, 3.23) ----------------------------------------------------------------

def division_equivalents(state: FullGameState, unit_ids: Iterable[str]) -> Fraction:
    """3.23: infantry divisions among ``unit_ids``; Confederate brigades count 1/4.

    Cavalry, engineers, detachments (and logistics, which are not units) are not counted.
    """
    total = Fraction(0)
    for uid in unit_ids:
        u = state["units"][uid]
        if u["steps"] <= 0 or u["arm"] != "infantry":
            continue
        if u.get("size") == "division":
            total += 1
        else:
            total += Fraction(1, model.INFANTRY_PER_DIVISION.get(u["side"], 1))
    return total


def command_capacity(leader: Leader) -> int:
    """3.23: infantry divisions a leader may lead directly: stars (with brevet) + 1."""
    return model.rank(leader) + 1


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass
class StackCheck:
    """Whether a set of forces may share one hex (3.22a, 3.23, 3.23b)."""

    hex: str | None
    side: str | None
    oc: str | None
    legal: bool
    problems: list[Problem] = field(default_factory=list)
    led: dict[str, Fraction] = field(default_factory=dict)     # leader -> divisions he leads directly
    unled: Fraction = Fraction(0)
    rule: str = "3.22a, 3.23"
    why: str = ""


def check_stacking(state: FullGameState, force_ids: Iterable[str], label: str | None = None) -> StackCheck:
    """3.22a, 3.23, 3.23b: may these forces (of one side) stand together in one hex?"""
    ids = list(force_ids)
    problems: list[Problem] = []
    if not ids:
        return StackCheck(label, None, None, True, why="no forces")
    sides = {model.force_side(state, f) for f in ids}
    side = sorted(sides)[0]
    if label is None:
        label = model.force_hex(state, ids[0])
    if len(sides) > 1:
        problems.append(Problem(f"forces of both sides cannot stack in {label}", "3.22", ["forces"]))
    leaders: list[str] = []
    unled_units: list[str] = []
    for f in ids:
        if model.is_unled(f):
            unled_units += model.units_of(state, f)
        else:
            leaders += [x for x in model.force_leaders(state, f) if x not in leaders]
    has_hq = any(state["leaders"][x].get("hq") for x in leaders)
    # 3.22a: same rank (intrinsic or brevet) only with an army commander present
    if not has_hq:
        by_rank: dict[int, list[str]] = {}
        for x in leaders:
            by_rank.setdefault(model.rank(state["leaders"][x]), []).append(x)
        for r, same in sorted(by_rank.items()):
            if len(same) > 1:
                problems.append(Problem(
                    f"{' and '.join(same)} both have {r} star(s) and no army commander (HQ) is in "
                    f"{label}: same-rank leaders cannot stack", "3.22a", ["forces"]))
    # 3.23: each leader leads at most stars + 1 infantry divisions directly
    led: dict[str, Fraction] = {}
    for x in leaders:
        ld = state["leaders"][x]
        mine = [uid for uid, u in state["units"].items() if u.get("leader") == x and u["steps"] > 0]
        led[x] = division_equivalents(state, mine)
        cap = command_capacity(ld)
        if led[x] > cap:
            problems.append(Problem(
                f"{x} ({model.rank(ld)} star(s)) leads {_fmt(led[x])} infantry divisions; at most {cap} "
                "(stars + 1; Confederate 4 brigades = 1 division)", "3.23", ["units", x]))
    # 3.23b: unled units at most one division (4 Confederate brigades) per hex
    unled = division_equivalents(state, unled_units)
    if unled > UNLED_LIMIT:
        problems.append(Problem(
            f"{_fmt(unled)} divisions of unled infantry in {label}; at most 1 division "
            "(Confederate: 4 brigades) of unled units per hex", "3.23b", ["units"]))
    oc, _ = senior_of(state, leaders)
    why = ("legal" if not problems else "illegal: " + "; ".join(p.message for p in problems))
    return StackCheck(label, side, oc, not problems, problems, led, unled, "3.22a, 3.23", why)


def check_hex(state: FullGameState, label: str, side: str, extra: Iterable[str] = ()) -> StackCheck:
    """Stacking of every ``side`` force in ``label`` plus ``extra`` forces arriving there."""
    ids = model.forces_in_hex(state, label, side)
    ids += [f for f in extra if f not in ids]
    return check_stacking(state, ids, label)


# --- morale (3.52) -------------------------------------------------------------------------

@dataclass
class Broken:
    """3.52a: which units of a leader's box are broken (unit ML above the leader's ML)."""

    leader: str
    leader_ml: int
    broken: list[str]
    effective: list[str]
    rule: str = "3.52a"
    why: str = ""


def broken_units(state: FullGameState, lid: str) -> Broken:
    """3.52a / H-15: units in ``lid``'s box whose ML is above his ML are broken."""
    ld = state["leaders"][lid]
    broken: list[str] = []
    effective: list[str] = []
    for uid, u in state["units"].items():
        if u.get("leader") != lid or u["steps"] <= 0:
            continue
        (broken if model.unit_ml(u) > ld["ml"] else effective).append(uid)
    why = (f"leader ML {ld['ml']}: " + (", ".join(f"{b} (ML {model.unit_ml(state['units'][b])}) is broken"
                                                  for b in broken) or "no unit is broken"))
    return Broken(lid, ld["ml"], broken, effective, "3.52a", why)


def inverted_ml(unit_ml: int) -> int:
    """3.52b: an unled unit's ML read the leaders' way: 0 -> 6, 1 -> 5, 2 -> 4 (6 - ML)."""
    if not 0 <= unit_ml <= 6:
        raise ValueError(f"unit ML runs 0-6 (got {unit_ml})")
    return INVERT_FROM - unit_ml


def unled_ml(state: FullGameState, force_id: str) -> int:
    """The unit ML an unled force checks with: its worst (highest) living unit's."""
    units = model.units_of(state, force_id)
    if not units:
        raise ValueError(f"{force_id} has no living units")
    return max(model.unit_ml(state["units"][u]) for u in units)


@dataclass
class MoraleCheck:
    """A 1d6 check of an unled unit or force against its inverted ML (3.52b)."""

    roll: int
    target: int
    passed: bool
    rule: str = "3.52b"
    why: str = ""


def unled_check(unit_ml: int, dice, purpose: str, by: str | None = None) -> MoraleCheck:
    """3.52b / H-16: roll 1d6; passes only if the roll is below 6 - ML."""
    target = inverted_ml(unit_ml)
    roll = dice.d6(purpose, by=by)
    passed = roll < target
    why = f"unled ML {unit_ml} reads as {target}: rolled {roll}, {'below' if passed else 'not below'} {target}"
    return MoraleCheck(roll, target, passed, "3.52b", why)


# --- pay (4.25, 11.0) ----------------------------------------------------------------------

@dataclass
class Pay:
    """Leader pay at the end of an impulse (4.25, 11.0)."""

    side: str
    amount: int
    paid: list[str]
    rule: str = "4.25, 11.0"
    why: str = ""


def in_service(leader: Leader) -> bool:
    """On the map or in a box: not in the pool, not captured, placed somewhere."""
    return (not leader.get("pool") and not leader.get("captured")
            and bool(leader.get("hex") or leader.get("superior")))


def leader_pay(state: FullGameState, side: str, involuntary: Iterable[str] = (),
               voluntary: Iterable[str] = ()) -> Pay:
    """4.25/11.0 / H-30: 1 WEP per active leader of ``side`` (map and boxes, not the pool),
    plus each leader named in ``involuntary`` (deactivated this impulse by the IMC, attrition or
    forced march).  Leaders deactivated voluntarily (``voluntary``, 8.12a), or who failed to
    reactivate, are not paid."""
    unpaid = list(voluntary)
    paid = [lid for lid, ld in state["leaders"].items()
            if ld["side"] == side and in_service(ld) and ld.get("active") and lid not in unpaid]
    extra = [lid for lid in involuntary
             if lid not in paid and lid not in unpaid and state["leaders"][lid]["side"] == side
             and in_service(state["leaders"][lid])]
    why = f"{len(paid)} active leader(s)"
    if extra:
        why += f" + {len(extra)} deactivated involuntarily this impulse ({', '.join(extra)})"
    why += f" = {len(paid) + len(extra)} WEP"
    if unpaid:
        why += f"; not paid: {', '.join(unpaid)}, deactivated voluntarily (8.12a)"
    return Pay(side, len(paid) + len(extra), paid + extra, "4.25, 11.0", why)


# --- administration points (3.24, 3.31, 8.25) ----------------------------------------------

@dataclass(frozen=True)
class APCharge:
    """AP one leader pays for one order."""

    leader: str
    ap: int
    rule: str
    why: str


#: the AP a leader pays to take another force along (8.25a)
MERGE_AP = 1


def ap_problems(state: FullGameState, charges: Iterable[APCharge]) -> list[Problem]:
    """3.24: every leader must have the AP he is charged (summed over the charges)."""
    due: dict[str, int] = {}
    for c in charges:
        due[c.leader] = due.get(c.leader, 0) + c.ap
    out = []
    for lid, n in due.items():
        have = state["leaders"][lid].get("ap", 0)
        if n > have:
            out.append(Problem(f"{lid} must pay {n} AP but has {have}", "3.24", ["ap", lid]))
    return out


def apply_charges(state: FullGameState, charges: Iterable[APCharge]) -> None:
    """Deduct the AP charged (never below 0)."""
    for c in charges:
        ld = state["leaders"][c.leader]
        ld["ap"] = max(0, ld.get("ap", 0) - c.ap)


def is_army_commander(leader: Leader) -> bool:
    return bool(leader.get("hq"))


def command_range(state: FullGameState, lid: str) -> int:
    """3.24, 3.31a: an army commander's command range is his MR; every other leader's is 0."""
    ld = state["leaders"][lid]
    return model.current_rating(ld, "mr") if is_army_commander(ld) else 0


def hex_distance(hexmap, a: str, b: str) -> int:
    return distance(hexmap.parse(a), hexmap.parse(b))


def in_command_range(state: FullGameState, hexmap, lid: str, label: str) -> bool:
    """3.24 / 3.31a: ``label`` is within ``lid``'s command range (his own hex always is)."""
    here = state["leaders"][lid].get("hex")
    if not here:
        return False
    if here == label:
        return True
    if hexmap is None:
        return False
    return hex_distance(hexmap, here, label) <= command_range(state, lid)


def who_pays(state: FullGameState, actor: str, ordered_by: str | None = None, hexmap=None) -> tuple[str, list[Problem]]:
    """3.24: the leader who performs an action pays its AP, unless an OC orders it for his SL
    (in his hex) or an army commander for a leader in his command range (3.31a): then he pays."""
    if ordered_by is None or ordered_by == actor:
        return actor, []
    boss, ld = state["leaders"][ordered_by], state["leaders"][actor]
    if boss["side"] != ld["side"]:
        return actor, [Problem(f"{ordered_by} cannot give orders to an enemy leader", "3.24", ["ordered_by"])]
    where = top_leader_hex(state, actor)
    if where and (boss.get("hex") == where or in_command_range(state, hexmap, ordered_by, where)):
        return ordered_by, []
    return actor, [Problem(f"{actor} is neither in {ordered_by}'s hex nor within his command range "
                           f"({command_range(state, ordered_by)} hexes)", "3.24", ["ordered_by"])]


def top_leader_hex(state: FullGameState, lid: str) -> str | None:
    """Where a leader is: his own hex, or (in a box) his force head's."""
    return state["leaders"][lid].get("hex") or state["leaders"][model.top_of(state, lid)].get("hex")


@dataclass
class Order:
    """An administrative order and what it costs (3.24)."""

    kind: str
    leader: str | None
    charges: list[APCharge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "3.24"
    why: str = ""
    parts: list[str] = field(default_factory=list)
    stacks: int = 1
    hex: str | None = None

    @property
    def ap(self) -> int:
        return sum(c.ap for c in self.charges)

    @property
    def legal(self) -> bool:
        return not self.problems


def lend_mr_order(state: FullGameState, lender: str, borrower: str, hexmap=None, rule: str = "3.24b") -> Order:
    """3.24b / 8.25b / 3.31a: ``lender`` lets ``borrower`` use his MR for an IMC roll: 1 AP.

    The lender must be in the borrower's hex, or be an army commander with the borrower in
    his command range."""
    problems: list[Problem] = []
    lh, bh = state["leaders"][lender].get("hex"), state["leaders"][borrower].get("hex")
    if state["leaders"][lender]["side"] != state["leaders"][borrower]["side"]:
        problems.append(Problem(f"{lender} cannot give orders to an enemy leader", rule, ["lender"]))
    elif lh != bh and not in_command_range(state, hexmap, lender, cast(str, bh)):
        problems.append(Problem(
            f"{lender} is not in {borrower}'s hex and {borrower} is not within his command range "
            "(only an army commander orders beyond his hex, up to his MR)", "3.31a", ["lender"]))
    charges = [APCharge(lender, 1, rule, f"{lender} lets {borrower} move with his MR")]
    problems += ap_problems(state, charges)
    mr = model.current_rating(state["leaders"][lender], "mr")
    return Order("lend_mr", lender, charges, problems, rule,
                 f"{lender} pays 1 AP so that {borrower} rolls the IMC with MR {mr}", [borrower], 1, bh)


def detach_order(state: FullGameState, oc: str, parts: Iterable[str], lend_mr_to: Iterable[str] = ()) -> Order:
    """8.25b/c, 3.24a/b: ``oc`` detaches leaders and/or units of his force.

    Any number detached in one hex at one time costs 1 AP in total (8.25c, H-19); each
    detached leader who is to use ``oc``'s MR costs 1 AP more (3.24b, H-18).  Detached
    leaders become independent forces; detached units become unled in the hex."""
    parts = list(parts)
    lend = list(lend_mr_to)
    problems: list[Problem] = []
    ld = state["leaders"][oc]
    label = ld.get("hex")
    if ld.get("superior"):
        problems.append(Problem(f"{oc} is an SL; only the OC of the force detaches", "8.25b", ["oc"]))
    subs = set(model.subordinates(state, oc))
    units = set(model.force_units(state, oc))
    detached_leaders = [p for p in parts if p in subs]
    carried = set()
    for p in detached_leaders:
        carried |= set(model.force_leaders(state, p))
    detached_units: list[str] = []
    for i, p in enumerate(parts):
        if p in subs:
            continue
        if p in units:
            if state["units"][p].get("leader") in carried:
                problems.append(Problem(f"unit {p} goes with its leader {state['units'][p]['leader']}",
                                        "8.25b", ["parts", i]))
            else:
                detached_units.append(p)
        else:
            problems.append(Problem(f"{p} is not a leader or unit of {oc}'s force", "8.25b", ["parts", i]))
    if not parts:
        problems.append(Problem("nothing to detach", "8.25b", ["parts"]))
    for i, b in enumerate(lend):
        if b not in detached_leaders:
            problems.append(Problem(f"{b} is not a leader detached by this order", "3.24b", ["lend_mr_to", i]))
    charges = [APCharge(oc, 1, "8.25c", f"{oc} detaches {', '.join(parts)} from {label} (1 AP for all)")]
    charges += [APCharge(oc, 1, "3.24b", f"{b} moves with {oc}'s MR") for b in lend]
    problems += ap_problems(state, charges)
    if detached_units:
        existing = [uid for uid, u in state["units"].items()
                    if u.get("leader") is None and u.get("hex") == label and u["side"] == ld["side"]
                    and u["steps"] > 0]
        count = division_equivalents(state, existing + detached_units)
        if count > UNLED_LIMIT:
            problems.append(Problem(f"detaching leaves {_fmt(count)} divisions of unled infantry in {label}",
                                    "3.23b", ["parts"]))
    stacks = 1 + len(detached_leaders) + (1 if detached_units else 0)
    why = (f"{oc} pays {sum(c.ap for c in charges)} AP: 1 for detaching {len(parts)} part(s) at once"
           + (f", 1 each for lending his MR to {', '.join(lend)}" if lend else "")
           + f"; {label} now holds {stacks} stack(s)")
    return Order("detach", oc, charges, problems, "8.25b, 8.25c, 3.24b", why, parts, stacks, label)


def apply_detach(state: FullGameState, order: Order) -> None:
    """Carry out a legal detach order: charge AP, free the leaders, unlead the units."""
    apply_charges(state, order.charges)
    for p in order.parts:
        if p in state["leaders"]:
            state["leaders"][p]["superior"] = None
        else:
            u = state["units"][p]
            u["leader"] = None
            u["hex"] = order.hex


def merge_order(state: FullGameState, mover: str, other: str, rule: str = "8.25a") -> Order:
    """8.25a: the force of ``mover`` (a leader force) takes ``other`` along: 1 AP of ``mover``.

    Both must be in one hex and the combined stack legal (3.22a, 3.23).  The most senior
    leader heads the merged force; an unled force goes into ``mover``'s box."""
    problems: list[Problem] = []
    if model.is_unled(mover):
        problems.append(Problem("an unled force has no OC to pay for a merge", rule, ["mover"]))
        return Order("merge", None, [], problems, rule, "illegal")
    label = model.force_hex(state, mover)
    if model.force_hex(state, other) != label:
        problems.append(Problem(f"{other} is not in {label}", rule, ["other"]))
    if model.force_side(state, other) != state["leaders"][mover]["side"]:
        problems.append(Problem(f"{other} is an enemy force", rule, ["other"]))
    stack = check_stacking(state, [mover, other], label)
    problems += stack.problems
    if model.is_unled(other):
        ld = state["leaders"][mover]
        total = stack.led.get(mover, Fraction(0)) + division_equivalents(state, model.units_of(state, other))
        if total > command_capacity(ld):
            problems.append(Problem(
                f"{mover} would lead {_fmt(total)} infantry divisions; at most {command_capacity(ld)}",
                "3.23", ["other"]))
    charges = [APCharge(mover, MERGE_AP, rule, f"{mover} merges {other} in {label}")]
    problems += ap_problems(state, charges)
    head = stack.oc
    why = f"{mover} pays 1 AP to merge {other} in {label}; {head} heads the merged force"
    return Order("merge", mover, charges, problems, rule, why, [other], 1, label)


def apply_merge(state: FullGameState, order: Order) -> None:
    """Carry out a legal merge order."""
    apply_charges(state, order.charges)
    mover, other = order.leader, order.parts[0]
    if model.is_unled(other):
        for uid in model.units_of(state, other):
            state["units"][uid]["leader"] = mover
            state["units"][uid]["hex"] = None
        return
    head, _ = senior_of(state, [cast(str, mover), other])
    low = other if head == mover else mover
    state["leaders"][cast(str, low)]["superior"] = head


# --- moving a force ------------------------------------------------------------------------

def apply_move(state: FullGameState, force_id: str, label: str) -> str:
    """Put a whole force (its leaders, their logistics, or its unled units) in ``label``.

    Returns the force's id after the move (an unled force's id names its hex)."""
    if model.is_unled(force_id):
        side = model.force_side(state, force_id)
        for uid in model.units_of(state, force_id):
            state["units"][uid]["hex"] = label
        return f"unled@{label}" if force_id.count("@") == 1 else f"unled@{label}@{side}"
    for lid in model.force_leaders(state, force_id):
        state["leaders"][lid]["hex"] = label
    for sid in model.force_logistics(state, force_id):
        if state["logistics"][sid].get("hex"):
            state["logistics"][sid]["hex"] = label
    return force_id
