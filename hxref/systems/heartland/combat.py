"""The Combat Sequence: rules 10.0-10.71 (with 3.25, 3.52-3.55 and 9.14-9.15).

Three layers, each pure:

1. **One fire** (10.11 steps 1-3): :func:`stack_strength` (CF, halvings, ASP,
   artillery, defensive support), :func:`fire_shifts` and :func:`read_column`
   (the FERT column), :func:`fire_drms` (the DRMs) and :func:`fire`, which
   rolls the die and reads the cell.  Every result says why.
2. **One target's combat** (10.11, 10.6x): :func:`resolve_combat` fires every
   exchange of a (wave) attack, then works the results out in the order of
   10.61 on a *copy* of the state and returns a :class:`Combat` whose
   ``effects`` are small frozen records (:class:`StepLoss`, :class:`MlChange`,
   :class:`MoveStack` ...).
3. **Effects**: :func:`apply_effect` (one ``singledispatch`` function) and
   :func:`apply_combat` change a state; they roll no dice.

Extended battle (10.7, 10.71): :func:`extended_battle`, :func:`extended_assault`,
:func:`in_contact`.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_combat.py`` and ``test_combat_example.py``):

* 10.12a: a defender attacked in waves pays, at **every** resolution, the
  artillery ASP of each leader using artillery **and** the OC's general ASP
  (each part of a wave is an independent resolution).
* 10.12/10.23 ASP state is judged per leader's box before the resolution's
  payments; the OC pays the general ASP first, then each leader using his
  artillery pays 1 (an OC needs 2 to do both).  Unled stacks pay nothing,
  use no artillery and are never short of ammunition (7.33).
* Halvings compound across *causes* (10.5): inactive defending OC (10.21, CF
  and artillery), forced march (10.22, CF and artillery) and *ammunition*.
  Ammunition is one cause, counted once per unit: out of supply (7.32, which
  by definition is "out of communication without ASP"), a box leader with no
  ASP (10.12b, 10.23(3)) and an OC who cannot pay the general ASP (10.23:
  the whole stack).  So H-26 (out of supply + forced march) is a quarter and
  H-7's OC with no ASP halves the stack once.  Units sharing a halving factor
  are summed before rounding up.
* 10.21: only the OC's state counts (an inactive SL under an active OC is not
  halved); an attacking stack with an inactive OC does not fire and is not
  fired on, and does not count as a wave.
* 9.14/9.15 support adds half (rounded up, computed by
  :func:`.reaction.defensive_support`) of the supporter's printed CF and
  artillery, after the stack's own halvings; supporters pay no ASP; their
  cavalry and broken units do not count; they take no result and their
  leaders gain no ML (10.64) and roll no casualty check (10.67).
* 10.31: ML superiority of the two stacks exchanging fire (the hex OC's ML, or
  an unled stack's worst unit ML inverted, 3.52b), judged per exchange.
* 10.32 terrain from ``fert.yaml``'s ``terrain_shifts`` (stand-in); an
  entrenchment's level is read from ``state["entrenchments"][hex]`` (an int
  or ``{level: n}``) unless :class:`Circumstances` gives it; a town in
  ``state["devastated"]`` and a bridge in ``state["burned_bridges"]`` are gone
  (13.11, 13.12: an unbridged river shifts as such).
* 10.43: cavalry CF and unit counts of the two stacks exchanging fire (living
  units, printed CF of the side showing); equal CF gives nobody anything.
* 10.44: each side counts the broken units of its own firing stack (their CF
  still counts: the rule gives only the DRM).
* 10.61b vs 10.65: the leader casualty checks (10.67) are made *before* the
  morale checks so that 10.65's exception can work: a stack whose OC was
  killed skips its morale check.  Order: step losses, capture of wiped-out
  forces, ML rise, casualties, morale checks, artillery loss, netted
  retreats, advance, then the 1-hex retreats of failed morale checks.
* 10.62: the defender makes one morale check however many wave fires gave
  it an asterisk; each attacking stack checks for its own return fire.
* 10.63: the k-th step loss of a result is chosen by the owner when k is odd,
  by the enemy when even, each from its ``loss_order`` (default: owner the
  weakest unit first, enemy the strongest); a unit takes a second step only
  when every unit of the pool has taken one in this combat.  Extra losses
  (failed morale check, enemy-ZOC hexes entered in a retreat) are chosen by
  the owner under the same no-concentration tally.
* 10.63b: a force (not the whole hex) whose every unit is eliminated has all
  its leaders captured; an HQ goes to ``state["hq_pool"][side]``.
* 10.64: "more step losses" compares the cells' losses (FERT only).
* 10.65: unled stacks check with 3.52b (a roll *below* the inverted ML).
* 10.66: a side that used no artillery in that fire has nothing to lose and
  does not roll; the owner names the leader who loses (default the user with
  most artillery); captured artillery goes to the opposing stack's OC (or
  ``artillery_gain``); an unled opponent cannot take it.
* 10.67: the side that rolled the natural 6 checks **its own** leaders (the
  literal wording, parallel to 10.66), every leader of its firing stack.  A
  killed leader's box, SLs, artillery and ASP pass to his superior, or to his
  most senior SL if he headed the force; with neither, his units are unled in
  the hex.  The dead leader is kept with ``killed: true``; an HQ marker he
  held goes to the pool as on a capture (14.61 is missing).  A wound adds
  its level to ``leaders[id]["wound"]`` (the key :mod:`.reorganization`
  heals a level a turn); every rating read (BR here) is the printed one of
  the side showing less the wound, not below 0 (ML is not a rating).
* 3.53(3c)/(3d) and 10.68: a retreat by combat result costs the OC 1 ML, and
  passing through enemy ZOC 1 more (once); the 1-hex retreat of a failed
  morale check costs only 10.65's 1 ML (plus 1 for ZOC).
* 10.68 routes: the route is chosen by the side with more cavalry CF (the
  retreating stack against all enemy stacks of the combat, after losses),
  else by the retreating side.  A route is N distinct adjacent hexes, never
  into enemy combat units nor across prohibited terrain or an unbridged major
  river; it must enter as few enemy-ZOC hexes as possible and, when such a
  route exists, end nearer a friendly supply source, depot or wagon than it
  started.  A friendly unit does not cancel enemy ZOC for a retreat (3.61
  says so only for supply lines).  No route: the stack is eliminated.
* 10.62: when the attackers received the larger total, every attacking stack
  retreats the net number of hexes.  Losses beyond the steps a pool has are
  lost (noted as a ``losses`` check).
* 3.54b: one commander of the retreating side (the OC of one of its stacks)
  gives up 1 ML to cancel 1 hex of the netted retreat (not of a morale-check
  retreat); in a wave it shortens every attacking stack's retreat.
* 10.61d advance: into the hex vacated by retreat or elimination, by a
  victorious stack (or ``advance_parts`` of it, without AP).
* 10.71: the extended-battle attack costs the attacking OC 1 AP and needs no
  check (H-1's "all AP used up" is read as after that payment); the
  phasing side keeps the +1 wave shift of its stacks that had it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import singledispatch
from typing import Collection, Iterable, Mapping, Sequence

from ...geometry.hex import HexSide
from ...geometry.hex import distance as hex_distance
from ..base import Problem
from . import forces as fc
from . import model
from .attack import Assault, default_passable, enemy_zoc, neighbours
from .fert import Cell, Fert, Shift
from .forces import APCharge
from .reaction import supports_for

ML_MAX, ML_MIN = 9, 0                      # 3.51
HASTY_DRM = -2                             # 10.41a
CAVALRY_DRM = 3                            # 10.43
WEATHER_DRM = {"Rain": -1, "Mud": -1, "Blizzard": -4}     # 10.45
DEFENDER_GENERAL_EACH_WAVE = True          # 10.12a reading
ROUTE_SEARCH_LIMIT = 50_000                # paths looked at for one retreat


# --- 1. one fire -----------------------------------------------------------------------

@dataclass(frozen=True)
class AspPayment:
    leader: str
    points: int
    purpose: str            # "general" or "artillery"
    rule: str = "10.12"


@dataclass
class Strength:
    """The strength of a firing stack in one resolution (10.12, 10.2x, 10.5, 9.14)."""

    forces: tuple[str, ...]
    side: str
    oc: str | None
    role: str                                   # "attacker" or "defender"
    unit_cf: int = 0                            # printed CF of the living units
    cf: int = 0                                 # after halvings, with support
    artillery: int = 0                          # the artillery DRM (10.42)
    artillery_users: tuple[str, ...] = ()
    support_cf: int = 0
    support_artillery: int = 0
    supporters: tuple[str, ...] = ()
    halvings: list[str] = field(default_factory=list)
    asp: list[AspPayment] = field(default_factory=list)
    cancelled: bool = False
    rule: str = "10.12, 10.2"
    why: str = ""

    @property
    def asp_paid(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.asp:
            out[p.leader] = out.get(p.leader, 0) + p.points
        return out


def _ceil_div(n: int, k: int) -> int:
    return -(-n // (2 ** k))


def stack_leaders(state: dict, forces: Iterable[str]) -> list[str]:
    out: list[str] = []
    for f in forces:
        out += [x for x in fc.force_leaders_of(state, f) if x not in out
                and not state["leaders"][x].get("captured") and not state["leaders"][x].get("killed")]
    return out


def stack_oc(state: dict, forces: Iterable[str]) -> str | None:
    """3.22: the OC of a stack of forces (None: unled)."""
    return fc.senior_of(state, stack_leaders(state, forces))[0]


def stack_units(state: dict, forces: Iterable[str], side: str) -> list[str]:
    return [u for f in forces for u in model.units_of(state, f, side)]


def _forced(state: dict, force: str, forced_march: Collection[str]) -> bool:
    """10.22: the force forced-marched this impulse (listed, or a leader flagged ``forced_march``)."""
    return force in forced_march or any(state["leaders"][x].get("forced_march")
                                        for x in fc.force_leaders_of(state, force))


def _supply_of(state: dict, force: str, given: Mapping[str, str]) -> str:
    if force in given:
        return given[force]
    imp = (state.get("current") or {}).get("active_impulse") or {}
    s = (imp.get("supply") or {}).get(force)
    if isinstance(s, dict):
        return s.get("state", "full")
    return str(s) if s else "full"


def stack_strength(state: dict, forces: Sequence[str], *, role: str, side: str | None = None,
                   artillery: bool | Collection[str] = True, supply: Mapping[str, str] | None = None,
                   forced_march: Collection[str] = (), supports: Sequence = (),
                   asp_spent: Mapping[str, int] | None = None) -> Strength:
    """The CF and artillery a stack fires with, and the ASP it pays (10.12, 10.2x, 10.5, 9.14).

    ``artillery``: True (every leader who can), False, or the leader ids who use theirs.
    ``supply``: force -> "full" / "combat" / "out" (default: the impulse's locked state, else full).
    ``forced_march``: forces that forced-marched this impulse (or leaders flagged ``forced_march``).
    ``supports``: :class:`.reaction.Support` results (defender only).
    ``asp_spent``: ASP already spent by each leader earlier in this combat (waves)."""
    forces = tuple(forces)
    side = side or model.force_side(state, forces[0])
    supply = supply or {}
    spent = dict(asp_spent or {})
    leaders = stack_leaders(state, forces)
    oc = fc.senior_of(state, leaders)[0]
    s = Strength(forces, side, oc, role)
    L = state["leaders"]
    if role == "attacker" and oc is not None and not L[oc].get("active"):
        s.cancelled, s.rule = True, "10.21"
        s.why = f"the attacking OC {oc} is inactive: no combat is resolved (10.21)"
        return s
    avail = {x: max(0, L[x].get("asp", 0) - spent.get(x, 0)) for x in leaders}
    k_stack, k_art, ammo_stack, notes = 0, 0, False, []
    if oc is not None and not L[oc].get("active"):
        k_stack += 1
        k_art += 1
        s.halvings.append(f"inactive OC {oc}: CF and artillery halved (10.21)")
    if oc is not None:
        if avail[oc] >= 1:
            s.asp.append(AspPayment(oc, 1, "general", "10.12"))
        else:
            ammo_stack = True
            s.halvings.append(f"OC {oc} cannot pay the general ASP: the whole stack's CF halved (10.23)")
    paid = {x: (1 if s.asp and s.asp[0].leader == x else 0) for x in leaders}
    groups: dict[int, int] = {}          # halving exponent -> CF
    art_groups: dict[int, int] = {}
    users: list[str] = []
    short: list[str] = []                # box leaders with no ASP (10.23(3))
    ammo_causes = int(ammo_stack)
    force_of = {x: f for f in forces for x in fc.force_leaders_of(state, f)}
    for f in forces:
        fm = _forced(state, f, forced_march)
        out = _supply_of(state, f, supply) == "out" and not model.is_unled(f)
        if fm:
            s.halvings.append(f"{f} forced-marched: CF and artillery halved (10.22)")
        if out:
            ammo_causes += 1
            s.halvings.append(f"{f} is out of supply: CF halved, no artillery (7.32)")
        for u in model.units_of(state, f, side):
            cf = model.unit_cf(state["units"][u])
            s.unit_cf += cf
            box = state["units"][u].get("leader")
            no_asp = box in avail and avail[box] == 0
            if no_asp and box != oc and box not in short:
                short.append(box)
                ammo_causes += 1
                s.halvings.append(f"{box} has no ASP: his units' CF halved, no artillery (10.12b, 10.23(3))")
            k = k_stack + int(fm) + int(ammo_stack or out or no_asp)
            groups[k] = groups.get(k, 0) + cf
    if ammo_causes > 1:
        notes.append("a unit short of ammunition is halved once for it, whatever the cause (10.5 reading)")
    for x in leaders:
        guns = L[x].get("artillery", 0)
        if guns <= 0:
            continue
        f = force_of.get(x)
        wants = artillery if isinstance(artillery, bool) else x in artillery
        if not wants:
            notes.append(f"{x} does not use his {guns} artillery")
            continue
        if f is not None and _supply_of(state, f, supply) == "out":
            notes.append(f"{x}'s artillery cannot fire out of supply (7.32)")
            continue
        if avail[x] - paid[x] < 1:
            notes.append(f"{x} has no ASP left for his artillery (10.23)")
            continue
        paid[x] += 1
        s.asp.append(AspPayment(x, 1, "artillery", "10.12"))
        users.append(x)
        k = k_art + int(f is not None and _forced(state, f, forced_march))
        art_groups[k] = art_groups.get(k, 0) + guns
    own_cf = sum(_ceil_div(n, k) for k, n in groups.items())
    own_art = sum(_ceil_div(n, k) for k, n in art_groups.items())
    s.support_cf = sum(getattr(x, "added_cf", 0) for x in supports)
    s.support_artillery = sum(getattr(x, "added_artillery", 0) for x in supports)
    s.supporters = tuple(x.supporter for x in supports)
    s.cf = own_cf + s.support_cf
    s.artillery = own_art + s.support_artillery
    s.artillery_users = tuple(users)
    text = f"{s.unit_cf} CF"
    if s.halvings:
        text += f" -> {own_cf} (" + "; ".join(s.halvings) + ")"
    if s.supporters:
        text += (f" + {s.support_cf} CF and {s.support_artillery} artillery of support from "
                 f"{', '.join(s.supporters)} (half, rounded up, 9.14) = {s.cf} CF")
    parts = [text, f"artillery {s.artillery}"]
    if s.asp:
        parts.append("ASP " + ", ".join(f"{p.leader} {p.points} ({p.purpose})" for p in s.asp))
    parts += notes
    s.why = "; ".join(parts)
    return s


@dataclass(frozen=True)
class ColumnRead:
    """The FERT column of one fire: the band, the shifts and where they end (10.3)."""

    strength: int
    base: int
    base_label: str
    shifts: tuple[Shift, ...]
    net: int
    index: int
    label: str
    clamped: bool
    rule: str = "10.3"

    @property
    def why(self) -> str:
        sh = "; ".join(s.text() for s in self.shifts) or "no shifts"
        out = f"{self.strength} CF is column {self.base_label}; {sh}"
        if self.shifts:
            out += f"; net {self.net:+d} -> {self.label}"
        if self.clamped:
            out += " (off the end of the table: the end column is read)"
        return out


def read_column(fert: Fert, strength: int, shifts: Sequence[Shift]) -> ColumnRead:
    base = fert.column_for(strength)
    net = sum(s.amount for s in shifts)
    idx, clamped = fert.shift(base, net)
    return ColumnRead(strength, base, fert.label(base), tuple(shifts), net, idx, fert.label(idx), clamped)


def stack_ml(state: dict, forces: Sequence[str], side: str) -> tuple[int, str]:
    """10.31: the OC's ML, or for an unled stack the worst unit ML inverted (3.52b)."""
    oc = stack_oc(state, forces)
    if oc is not None:
        return state["leaders"][oc]["ml"], f"{oc} ML {state['leaders'][oc]['ml']}"
    mls = [model.unit_ml(state["units"][u]) for u in stack_units(state, forces, side)]
    worst = max(mls) if mls else 6
    inv = fc.inverted_ml(worst)
    return inv, f"unled ML {worst} inverted to {inv} (3.52b)"


def _entrenchment(state: dict, label: str, given: Mapping[str, int] | None) -> int:
    table = given if given is not None else state.get("entrenchments", {})
    v = table.get(label, 0)
    return int(v.get("level", 0)) if isinstance(v, dict) else int(v or 0)


def fire_shifts(state: dict, hexmap, fert: Fert, firer: Sequence[str], fired_on: Sequence[str], *,
                firer_hex: str, fired_on_hex: str, firer_attacks: bool, wave: int = 1,
                wave_shift_carried: bool = False, entrenchments: Mapping[str, int] | None = None,
                doctrine: bool = False) -> list[Shift]:
    """10.31 ML superiority, 10.33 waves (and the 10.71 carry-over), 10.32 terrain (10.32a with ``doctrine``)."""
    side = model.force_side(state, firer[0])
    enemy = model.other_side(side)
    out: list[Shift] = []
    a, a_why = stack_ml(state, firer, side)
    b, b_why = stack_ml(state, fired_on, enemy)
    if a > b:
        out.append(Shift(1, f"ML superiority, {a_why} over {b_why}", "10.31"))
    if firer_attacks and wave >= 2:
        out.append(Shift(1, f"wave attack, attack {wave} on this target (once only)", "10.33"))
    elif firer_attacks and wave_shift_carried:
        out.append(Shift(1, "the wave shift kept from the earlier attack", "10.71"))
    elif not firer_attacks and wave >= 2:
        out.append(Shift(-(wave - 1), f"return fire against attack {wave} of a wave", "10.33"))
    out += fert.terrain.for_fire(hexmap, fired_on_hex, firer_hex, firer_attacks=firer_attacks,
                                 entrenchment=_entrenchment(state, fired_on_hex, entrenchments),
                                 doctrine=doctrine, without=_gone(state, hexmap, fired_on_hex, firer_hex))
    return out


def _gone(state: dict, hexmap, target: str, firer: str) -> set[str]:
    """Map features destroyed since: a devastated town (13.12), a burned bridge (13.11)."""
    out = set()
    if target in set(map(str, state.get("devastated") or ())):
        out.add("town")
    side = HexSide(hexmap.parse(target), hexmap.parse(firer))
    for label in map(str, state.get("burned_bridges") or ()):
        try:
            if hexmap.grid.parse_hexside(label) == side:
                out.add("bridge")
        except ValueError:
            continue
    return out


@dataclass(frozen=True)
class Drm:
    amount: int
    reason: str
    rule: str

    def text(self) -> str:
        return f"{self.reason} {self.amount:+d}"


@dataclass(frozen=True)
class Cavalry:
    """10.43 between two stacks: cavalry CF and units of each, and each one's DRM."""

    cf: tuple[int, int]
    units: tuple[int, int]
    drm: tuple[int, int]
    superior: int | None            # 0, 1 or None
    rule: str = "10.43"


def cavalry_superiority(cf_a: int, units_a: int, cf_b: int, units_b: int) -> Cavalry:
    """10.43 / H-23: more cavalry CF gets +3; the other gets minus the difference in numbers of
    cavalry units, unless it has as many or more; equal CF: nothing for anybody."""
    if cf_a == cf_b:
        return Cavalry((cf_a, cf_b), (units_a, units_b), (0, 0), None)
    if cf_a > cf_b:
        return Cavalry((cf_a, cf_b), (units_a, units_b), (CAVALRY_DRM, -max(0, units_a - units_b)), 0)
    return Cavalry((cf_a, cf_b), (units_a, units_b), (-max(0, units_b - units_a), CAVALRY_DRM), 1)


def stack_cavalry(state: dict, forces: Sequence[str], side: str) -> tuple[int, int]:
    """Cavalry CF and number of cavalry units of a stack (supporters are never passed in)."""
    cav = [u for u in stack_units(state, forces, side) if state["units"][u]["arm"] == "cavalry"]
    return sum(model.unit_cf(state["units"][u]) for u in cav), len(cav)


def leader_rating(leader: dict, key: str) -> int:
    """AR, BR or MR now: the side the counter shows, less the wound level (10.67), not below 0.

    The same reading as :func:`.forced_march.rating`; a brevet's -1 (14.51) is in the state's ratings."""
    return max(0, int(model.leader_ratings(leader)[key]) - int(leader.get("wound", 0) or 0))


def fire_drms(state: dict, strength: Strength, fired_on: Sequence[str], *, weather: str = "Clear",
              offset: int = 0, hasty: bool = False, extra: Sequence[Drm] = ()) -> list[Drm]:
    """10.41-10.46: the DRMs of one fire."""
    out: list[Drm] = []
    side, enemy = strength.side, model.other_side(strength.side)
    if strength.oc is not None:
        ld = state["leaders"][strength.oc]
        br = leader_rating(ld, "br")
        out.append(Drm(br, f"{strength.oc}'s BR" + (f" (wound -{ld['wound']})" if ld.get("wound") else ""),
                       "10.41"))
    if strength.artillery:
        out.append(Drm(strength.artillery, "artillery", "10.42"))
    ca, na = stack_cavalry(state, strength.forces, side)
    cb, nb = stack_cavalry(state, fired_on, enemy)
    cav = cavalry_superiority(ca, na, cb, nb)
    if cav.drm[0]:
        what = (f"cavalry superiority ({ca} CF to {cb})" if cav.drm[0] > 0
                else f"cavalry inferiority ({ca} CF to {cb}; {na} units to {nb})")
        out.append(Drm(cav.drm[0], what, "10.43"))
    broken = sum(len(fc.broken_units(state, x).broken) for x in stack_leaders(state, strength.forces))
    if broken:
        out.append(Drm(-broken, f"{broken} broken unit(s)", "10.44"))
    if WEATHER_DRM.get(weather):
        out.append(Drm(WEATHER_DRM[weather], weather, "10.45"))
    if offset:
        out.append(Drm(offset, "FERT offset", "10.46"))
    if hasty:
        out.append(Drm(HASTY_DRM, "hasty attack", "10.41a"))
    out += list(extra)
    return out


@dataclass
class Fire:
    """One fire on the FERT: who fires on whom, the column, the DRMs, the die and the cell (10.61)."""

    firer: tuple[str, ...]
    fired_on: tuple[str, ...]
    side: str
    role: str                           # "attack" or "return"
    wave: int
    strength: Strength
    column: ColumnRead
    drms: tuple[Drm, ...]
    drm: int
    die: int | None = None
    modified: int | None = None
    row: int | None = None
    cell: Cell = Cell(0, 0, False)
    stand_in: bool = True
    rule: str = "10.61"

    @property
    def artillery_check(self) -> bool:
        """10.66: a natural 1."""
        return self.die == 1

    @property
    def casualty_check(self) -> bool:
        """10.67: a natural 6."""
        return self.die == 6

    @property
    def why(self) -> str:
        who = "/".join(self.firer)
        drms = ", ".join(d.text() for d in self.drms) or "none"
        out = (f"{who} fires on {'/'.join(self.fired_on)} ({self.role}, wave {self.wave}): {self.strength.why}; "
               f"{self.column.why}; DRM {self.drm:+d} ({drms})")
        if self.die is not None:
            out += (f"; die {self.die} -> {self.modified}"
                    + (f" (reads row {self.row})" if self.row != self.modified else "")
                    + f": {self.cell.text} on column {self.column.label}"
                    + (" [stand-in FERT]" if self.stand_in else ""))
        return out


def fire(state: dict, hexmap, fert: Fert, firer: Sequence[str], fired_on: Sequence[str], *, firer_hex: str,
         fired_on_hex: str, role: str, wave: int = 1, dice=None, purpose: str = "", hasty: bool = False,
         artillery: bool | Collection[str] = True, supports: Sequence = (), asp_spent=None,
         circumstances: "Circumstances | None" = None) -> Fire:
    """One fire (10.11 steps 1-3, 10.61): strength, column, DRMs; rolls 1d6 when ``dice`` is given."""
    circ = circumstances or Circumstances()
    side = model.force_side(state, firer[0])
    st = stack_strength(state, firer, role="attacker" if role == "attack" else "defender", side=side,
                        artillery=artillery, supply=circ.supply, forced_march=circ.forced_march,
                        supports=supports, asp_spent=asp_spent)
    shifts = fire_shifts(state, hexmap, fert, firer, fired_on, firer_hex=firer_hex, fired_on_hex=fired_on_hex,
                         firer_attacks=role == "attack", wave=wave,
                         wave_shift_carried=role == "attack" and firer[0] in circ.wave_shift_carried,
                         entrenchments=circ.entrenchments, doctrine=circ.doctrine)
    col = read_column(fert, st.cf, shifts)
    drms = fire_drms(state, st, fired_on, weather=_weather(state, circ), offset=_offset(state, circ),
                     hasty=hasty and role == "attack", extra=circ.extra_drms.get(side, ()))
    total = sum(d.amount for d in drms)
    f = Fire(tuple(firer), tuple(fired_on), side, role, wave, st, col, tuple(drms), total, stand_in=fert.stand_in)
    if dice is not None:
        f.die = dice.d6(purpose or f"FERT {'/'.join(firer)} on {fired_on_hex}", by=side)
        f.modified = f.die + total
        f.row, _ = fert.row_for(f.modified)
        f.cell = fert.cell(col.index, f.row)
    return f


def _weather(state: dict, circ: "Circumstances") -> str:
    if circ.weather:
        return circ.weather
    from .supply import weather_of
    return weather_of(state)


def _offset(state: dict, circ: "Circumstances") -> int:
    if circ.fert_offset is not None:
        return circ.fert_offset
    return int(state.get("fert_offset") or 0)


# --- 3. effects --------------------------------------------------------------------------

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
def apply_effect(effect, state: dict) -> None:
    """Change ``state`` by one combat effect (no dice)."""
    raise TypeError(f"not a combat effect: {effect!r}")


@apply_effect.register
def _(e: SpendAsp, state: dict) -> None:
    ld = state["leaders"][e.leader]
    ld["asp"] = max(0, ld.get("asp", 0) - e.points)


@apply_effect.register
def _(e: StepLoss, state: dict) -> None:
    u = state["units"][e.unit]
    u["steps"] = max(0, u["steps"] - 1)


@apply_effect.register
def _(e: MlChange, state: dict) -> None:
    state["leaders"][e.leader]["ml"] = e.after


def _remove_leader(state: dict, lid: str, **flags) -> None:
    ld = state["leaders"][lid]
    if ld.get("hq"):
        state.setdefault("hq_pool", {}).setdefault(ld["side"], []).append(lid)
    ld.update(hex=None, superior=None, pool=False, active=False, hq=False, artillery=0, asp=0, **flags)


@apply_effect.register
def _(e: Capture, state: dict) -> None:
    _remove_leader(state, e.leader, captured=True)


@apply_effect.register
def _(e: Kill, state: dict) -> None:
    ld = state["leaders"][e.leader]
    here = ld.get("hex") or fc.top_leader_hex(state, e.leader)
    boss = ld.get("superior")
    subs = [x for x, o in state["leaders"].items() if o.get("superior") == e.leader]
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


@apply_effect.register
def _(e: Wound, state: dict) -> None:
    ld = state["leaders"][e.leader]
    ld["wound"] = int(ld.get("wound", 0) or 0) + e.level


@apply_effect.register
def _(e: ArtilleryChange, state: dict) -> None:
    ld = state["leaders"][e.leader]
    ld["artillery"] = max(0, ld.get("artillery", 0) + e.delta)


@apply_effect.register
def _(e: MoveStack, state: dict) -> None:
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


def apply_combat(state: dict, combat: "Combat") -> None:
    """Apply a resolved combat's effects to ``state`` (the state it was resolved against)."""
    for e in combat.effects:
        apply_effect(e, state)


# --- step losses (10.63) -----------------------------------------------------------------

def allocate_losses(state: dict, units: Sequence[str], losses: int, *, owner_order: Sequence[str] = (),
                    enemy_order: Sequence[str] = (), taken: dict[str, int] | None = None,
                    owner_only: bool = False) -> list[tuple[str, str]]:
    """10.63a / H-8: who loses each step: ``[(unit, "owner" | "enemy"), ...]``.

    The k-th loss is chosen by the owner when k is odd, by the enemy when even (``owner_only``:
    always the owner); only units that have taken the fewest losses so far (``taken``, kept across
    calls of one combat) are eligible.  Each chooser takes the first eligible unit of his order;
    by default the owner the weakest (lowest current CF) and the enemy the strongest."""
    steps = {u: state["units"][u]["steps"] for u in units}
    taken = taken if taken is not None else {}
    out: list[tuple[str, str]] = []

    def cf_now(u: str) -> int:
        unit = state["units"][u]
        return unit["cf"][0] if steps[u] >= 2 else unit["cf"][-1]

    for k in range(1, losses + 1):
        alive = [u for u in units if steps[u] > 0]
        if not alive:
            break
        least = min(taken.get(u, 0) for u in alive)
        eligible = [u for u in alive if taken.get(u, 0) == least]
        chooser = "owner" if owner_only or k % 2 == 1 else "enemy"
        order = owner_order if chooser == "owner" else enemy_order
        pick = next((u for u in order if u in eligible), None)
        if pick is None:
            key = (lambda u: (cf_now(u), u)) if chooser == "owner" else (lambda u: (-cf_now(u), u))
            pick = min(eligible, key=key)
        steps[pick] -= 1
        taken[pick] = taken.get(pick, 0) + 1
        out.append((pick, chooser))
    return out


# --- retreats (10.68) --------------------------------------------------------------------

def _enemy_unit_hexes(state: dict, side: str) -> set[str]:
    out = set()
    for u in state["units"].values():
        if u["side"] == side or u["steps"] <= 0:
            continue
        if u.get("leader"):
            h = fc.top_leader_hex(state, u["leader"])
        else:
            h = u.get("hex")
        if h:
            out.add(h)
    return out


def supply_points(state: dict, side: str) -> list[str]:
    """Friendly supply sources, depots and wagons on the map (10.68's "supply source or relay")."""
    pts = list((state.get("sources") or {}).get(side, []))
    for sid, s in (state.get("logistics") or {}).items():
        if s.get("side") == side and s.get("kind") in ("depot", "wagon"):
            h = s.get("hex") or (fc.top_leader_hex(state, s["leader"]) if s.get("leader") else None)
            if h:
                pts.append(h)
    return pts


@dataclass
class RetreatPlan:
    """The legal routes of one retreat and the one taken (10.68)."""

    side: str
    start: str
    hexes: int
    chooser: str
    routes: list[tuple[str, ...]] = field(default_factory=list)     # every allowed route
    route: tuple[str, ...] = ()
    zoc: tuple[str, ...] = ()
    eliminated: bool = False
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.68"
    why: str = ""


def plan_retreat(state: dict, hexmap, side: str, start: str, hexes: int, *, chooser: str | None = None,
                 route: Sequence[str] | None = None, passable=None) -> RetreatPlan:
    """10.68: the allowed routes of ``hexes`` hexes from ``start`` for ``side``'s stack, and the one taken
    (``route`` if allowed, else the default: fewest enemy-ZOC hexes, then nearest a supply point)."""
    passable = passable or default_passable(hexmap)
    plan = RetreatPlan(side, start, hexes, chooser or side)
    blocked = _enemy_unit_hexes(state, side)
    zoc = set(enemy_zoc(state, hexmap, side))
    pts = [hexmap.parse(p) for p in supply_points(state, side)]

    def dist(label: str) -> int:
        h = hexmap.parse(label)
        return min((hex_distance(h, p) for p in pts), default=0)

    found: list[tuple[str, ...]] = []
    budget = [ROUTE_SEARCH_LIMIT]

    def walk(path: list[str]) -> None:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if len(path) == hexes + 1:
            found.append(tuple(path[1:]))
            return
        for n in neighbours(hexmap, path[-1]):
            if n in path or n in blocked or not passable(path[-1], n):
                continue
            walk(path + [n])

    walk([start])
    if not found:
        plan.eliminated = True
        plan.why = f"no route of {hexes} hex(es) from {start}: the stack is eliminated (10.68)"
        return plan
    fewest = min(sum(h in zoc for h in r) for r in found)
    allowed = [r for r in found if sum(h in zoc for h in r) == fewest]
    if pts:
        toward = [r for r in allowed if dist(r[-1]) < dist(start)]
        allowed = toward or allowed
    plan.routes = allowed
    best = min(allowed, key=lambda r: (dist(r[-1]), r))
    if route is not None:
        route = tuple(route)
        if route in allowed:
            best = route
        else:
            plan.problems.append(Problem(
                f"retreat route {'-'.join(route)} from {start} is not allowed (it must be {hexes} hex(es), enter "
                f"as few enemy-ZOC hexes as possible ({fewest}) and lead towards supply); the default is taken",
                "10.68", ["route", start]))
    plan.route = best
    plan.zoc = tuple(h for h in best if h in zoc)
    plan.why = (f"{side} retreats {hexes} hex(es) from {start} by {'-'.join(best)} (route chosen by {plan.chooser})"
                + (f", through enemy ZOC in {', '.join(plan.zoc)}" if plan.zoc else ""))
    return plan


# --- 2. one target's combat --------------------------------------------------------------

@dataclass(frozen=True)
class Circumstances:
    """What the referee knows about a combat beyond the state (each has a default from the state)."""

    weather: str | None = None                          # None: the turn's weather
    fert_offset: int | None = None                      # None: state["fert_offset"] (10.46)
    supply: Mapping[str, str] = field(default_factory=dict)          # force -> full/combat/out
    forced_march: frozenset[str] = frozenset()          # forces that forced-marched (10.22)
    entrenchments: Mapping[str, int] | None = None      # hex -> level (None: state["entrenchments"])
    doctrine: bool = False                              # optional 10.32a
    supports: Mapping[str, Sequence] | None = None      # attacking force -> Support list (None: 9.14a automatic)
    wave_shift_carried: frozenset[str] = frozenset()    # 10.71: phasing forces that keep the wave shift
    last_impulse: bool = False                          # 10.67b: replacement now or in reorganization
    targets: tuple[str, ...] = ()                       # hexes attacked this sequence (9.14a)
    extra_drms: Mapping[str, Sequence[Drm]] = field(default_factory=dict)   # side -> e.g. gunboat 10.42a


@dataclass(frozen=True)
class Choices:
    """One side's choices for one combat; each has a default the referee applies."""

    artillery: bool | frozenset[str] = True             # leaders who use (and pay for) artillery (10.12)
    loss_order: tuple[str, ...] = ()                    # unit preference for the steps this side picks (10.63a)
    routes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # start hex -> route (10.68)
    refuse_retreat: str | None = None                   # 3.54b: the commander who gives up 1 ML
    advance: str | None = None                          # the force that advances (10.61d)
    advance_to: str | None = None                       # which vacated hex (a defender after a wave)
    advance_parts: tuple[str, ...] = ()                 # only these SLs / units advance
    artillery_loss: str | None = None                   # the leader who loses artillery (10.66)
    artillery_gain: str | None = None                   # the leader who takes captured artillery (10.66)


@dataclass
class Exchange:
    """One 1-vs-1 exchange of fire of a (wave) attack (10.11)."""

    wave: int
    assault: Assault
    attack: Fire | None = None
    defence: Fire | None = None
    cancelled: bool = False
    why: str = ""


@dataclass
class Check:
    """A roll made while applying results (morale 10.65, casualty 10.67, artillery 10.66)."""

    kind: str
    who: str
    dice: tuple[int, ...]
    result: str
    rule: str
    why: str


@dataclass
class Combat:
    """One target's combat, resolved: every fire, the pooled results and the effects (10.6x)."""

    target: str
    attacker_side: str
    defender_side: str
    defenders: tuple[str, ...]
    exchanges: list[Exchange] = field(default_factory=list)
    inflicted: dict[str, int] = field(default_factory=dict)           # side -> FERT step losses inflicted
    retreat_totals: dict[str, int] = field(default_factory=dict)      # side -> retreat count suffered
    retreating: str | None = None
    retreat_hexes: int = 0
    ml_winner: str | None = None
    checks: list[Check] = field(default_factory=list)
    retreats: list[RetreatPlan] = field(default_factory=list)
    effects: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)     # why the combat was not resolved at all
    refused: list[Problem] = field(default_factory=list)      # choices refused: the default was applied
    stand_in: bool = True
    rule: str = "10.6"
    why: str = ""

    @property
    def fires(self) -> list[Fire]:
        return [f for x in self.exchanges for f in (x.attack, x.defence) if f is not None]

    def asp_paid(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.effects:
            if isinstance(e, SpendAsp):
                out[e.leader] = out.get(e.leader, 0) + e.points
        return out

    def losses(self, cause: str | None = None) -> list[StepLoss]:
        return [e for e in self.effects if isinstance(e, StepLoss) and (cause is None or e.cause == cause)]

    def lines(self) -> list[str]:
        """The combat for a report: every fire, every roll and every effect, with its rule."""
        out = [f"combat at {self.target}: {self.attacker_side} attacks {'/'.join(self.defenders)}"
               + (" (stand-in FERT)" if self.stand_in else "")]
        for x in self.exchanges:
            if x.cancelled:
                out.append(f"  wave {x.wave}: {x.why}")
                continue
            out.append(f"  {x.attack.why}")
            out.append(f"  {x.defence.why}")
        out.append(f"  {self.why}")
        out += [f"  {c.why} ({c.rule})" for c in self.checks]
        out += [f"  {e.why} ({e.rule})" for e in self.effects if not isinstance(e, SpendAsp)]
        out += [f"  not resolved: {p.message} ({p.rule})" for p in self.problems]
        out += [f"  choice refused: {p.message} ({p.rule})" for p in self.refused]
        return out


def _defender_forces(state: dict, target: str, side: str) -> list[str]:
    return [f for f in model.forces_in_hex(state, target, side) if model.units_of(state, f, side)]


def resolve_combat(state: dict, hexmap, assaults: Sequence[Assault], dice, *, fert: Fert | None = None,
                   circumstances: Circumstances | None = None,
                   choices: Mapping[str, Choices] | None = None) -> Combat:
    """10.11, 10.6x: every Assault on one target, in the phasing player's order, then the results.

    ``state`` is not changed; apply the result with :func:`apply_combat`."""
    fert = fert or Fert.load()
    circ = circumstances or Circumstances()
    choices = dict(choices or {})
    if not assaults:
        raise ValueError("resolve_combat needs at least one Assault")
    target = assaults[0].target
    aside = model.force_side(state, assaults[0].attacker)
    dside = model.other_side(aside)
    ch = {aside: choices.get(aside, Choices()), dside: choices.get(dside, Choices())}
    defenders = tuple(_defender_forces(state, target, dside))
    c = Combat(target, aside, dside, defenders, stand_in=fert.stand_in)
    for i, a in enumerate(assaults):
        if a.target != target:
            c.problems.append(Problem(f"assault {i + 1} is on {a.target}, not {target}: one target per combat",
                                      "10.11", ["assaults", i]))
        if model.force_side(state, a.attacker) != aside:
            c.problems.append(Problem(f"{a.attacker} is not a {aside} force", "10.1", ["assaults", i]))
        elif model.force_hex(state, a.attacker) != a.source or a.target not in neighbours(hexmap, a.source):
            c.problems.append(Problem(f"{a.attacker} is not in {a.source} next to {a.target}", "10.1",
                                      ["assaults", i]))
    if not defenders:
        c.problems.append(Problem(f"no {dside} combat units in {target}", "10.1", ["target"]))
    if c.problems:
        c.why = "not resolved: " + "; ".join(p.message for p in c.problems)
        return c
    spent: dict[str, int] = {}
    wave = 0
    for a in assaults:
        x = Exchange(wave + 1, a)
        probe = stack_strength(state, [a.attacker], role="attacker", side=aside)
        if probe.cancelled:
            x.cancelled, x.wave, x.why = True, 0, f"{a.attacker} on {target}: {probe.why}"
            c.exchanges.append(x)
            continue
        supports = (circ.supports.get(a.attacker, ()) if circ.supports is not None
                    else _auto_supports(state, hexmap, a, circ.targets))
        wave += 1
        x.wave = wave
        x.attack = fire(state, hexmap, fert, [a.attacker], defenders, firer_hex=a.source, fired_on_hex=target,
                        role="attack", wave=wave, dice=dice, hasty=a.hasty, artillery=ch[aside].artillery,
                        asp_spent=spent, circumstances=circ,
                        purpose=f"FERT {a.attacker} on {target} (attack {wave})")
        _spend(spent, x.attack.strength)
        x.defence = fire(state, hexmap, fert, defenders, [a.attacker], firer_hex=target, fired_on_hex=a.source,
                         role="return", wave=wave, dice=dice, artillery=ch[dside].artillery, supports=supports,
                         asp_spent=spent, circumstances=circ,
                         purpose=f"FERT {target} return fire on {a.attacker} (attack {wave})")
        _spend(spent, x.defence.strength)
        x.why = f"attack {wave}: {x.attack.cell.text} on {target}, {x.defence.cell.text} on {a.attacker}"
        c.exchanges.append(x)
    _Results(state, hexmap, c, ch, circ, dice).run()
    return c


def _spend(spent: dict[str, int], st: Strength) -> None:
    for p in st.asp:
        spent[p.leader] = spent.get(p.leader, 0) + p.points


def _auto_supports(state: dict, hexmap, assault: Assault, targets: Sequence[str]) -> list:
    return supports_for(state, hexmap, assault, targets=targets)


@dataclass
class _Stack:
    """A stack of the combat, fixed at the start: its units and leaders (ids do not change)."""

    name: str
    side: str
    forces: tuple[str, ...]
    units: tuple[str, ...]
    leaders: tuple[str, ...]
    by_force: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]

    @classmethod
    def of(cls, state: dict, forces: Sequence[str], side: str) -> "_Stack":
        by = {f: (tuple(model.units_of(state, f, side)), tuple(fc.force_leaders_of(state, f))) for f in forces}
        units = tuple(u for us, _ in by.values() for u in us)
        leaders = tuple(x for _, ls in by.values() for x in ls)
        return cls("/".join(forces), side, tuple(forces), units, leaders, by)


class _Results:
    """10.61-10.68 worked out on a copy of the state; every change is an effect in ``combat.effects``."""

    def __init__(self, state, hexmap, combat: Combat, choices, circ: Circumstances, dice):
        self.work = copy.deepcopy(state)
        self.hexmap, self.c, self.ch, self.circ, self.dice = hexmap, combat, choices, circ, dice
        self.taken: dict[str, int] = {}
        self.live = [x for x in combat.exchanges if not x.cancelled]
        self.defender = _Stack.of(state, combat.defenders, combat.defender_side)
        self.attackers = [_Stack.of(state, [x.assault.attacker], combat.attacker_side) for x in self.live]

    def emit(self, e) -> None:
        apply_effect(e, self.work)
        self.c.effects.append(e)

    def ml_down(self, lid: str, rule: str, why: str) -> None:
        ml = self.work["leaders"][lid]["ml"]
        if ml > ML_MIN:
            self.emit(MlChange(lid, ml, ml - 1, rule, why))

    # -- the working copy --
    def units(self, st: _Stack, among: Iterable[str] | None = None) -> list[str]:
        pool = st.units if among is None else among
        return [u for u in pool if self.work["units"][u]["steps"] > 0]

    def leaders(self, st: _Stack, among: Iterable[str] | None = None) -> list[str]:
        pool = st.leaders if among is None else among
        return [x for x in pool if not self.work["leaders"][x].get("captured")
                and not self.work["leaders"][x].get("killed")]

    def oc(self, st: _Stack) -> str | None:
        return fc.senior_of(self.work, self.leaders(st))[0]

    def hex(self, st: _Stack) -> str | None:
        for u in self.units(st):
            unit = self.work["units"][u]
            h = fc.top_leader_hex(self.work, unit["leader"]) if unit.get("leader") else unit.get("hex")
            if h:
                return h
        return None

    def run(self) -> None:
        c, aside, dside = self.c, self.c.attacker_side, self.c.defender_side
        if not self.live:
            c.why = "every attacking OC is inactive: no combat (10.21)"
            return
        for x in self.live:
            for f in (x.attack, x.defence):
                for p in f.strength.asp:
                    self.emit(SpendAsp(p.leader, p.points, p.rule,
                                       f"{p.leader} spends {p.points} ASP ({p.purpose}, attack {x.wave})"))
        pairs = list(zip(self.live, self.attackers))
        # step losses (10.62, 10.63), then forces wiped out (10.63b)
        def_losses = sum(x.attack.cell.losses for x in self.live)
        self.lose(self.defender, def_losses, "fert", f"FERT, {len(self.live)} fire(s) pooled")
        for x, st in pairs:
            self.lose(st, x.defence.cell.losses, "fert", f"return fire, attack {x.wave}")
        for st in [self.defender] + self.attackers:
            self.capture_wiped(st)
        # ML rise (10.64): FERT losses only
        c.inflicted = {aside: def_losses, dside: sum(x.defence.cell.losses for x in self.live)}
        if c.inflicted[aside] != c.inflicted[dside]:
            c.ml_winner = aside if c.inflicted[aside] > c.inflicted[dside] else dside
            stacks = self.attackers if c.ml_winner == aside else [self.defender]
            for st in stacks:
                for lid in self.leaders(st):
                    ml = self.work["leaders"][lid]["ml"]
                    if ml < ML_MAX:
                        self.emit(MlChange(lid, ml, ml + 1, "10.64",
                                           f"{lid} +1 ML: his side inflicted {c.inflicted[c.ml_winner]} FERT step "
                                           f"losses to {c.inflicted[model.other_side(c.ml_winner)]}"))
        # leader casualties (10.67), before the morale checks (10.65's exception)
        ocs = {st.name: self.oc(st) for st in [self.defender] + self.attackers}
        killed: set[str] = set()
        for x, st in pairs:
            if x.attack.casualty_check:
                killed |= self.casualties(st, x.attack)
            if x.defence.casualty_check:
                killed |= self.casualties(self.defender, x.defence)
        # morale checks (10.65)
        failed: list[_Stack] = []
        asterisk = any(x.attack.cell.morale for x in self.live)
        if asterisk and self.morale(self.defender, ocs[self.defender.name] in killed):
            failed.append(self.defender)
        for x, st in pairs:
            if x.defence.cell.morale and self.morale(st, ocs[st.name] in killed):
                failed.append(st)
        # artillery loss (10.66)
        for x, st in pairs:
            if x.attack.artillery_check:
                self.artillery(x.attack, st, self.defender)
            if x.defence.artillery_check:
                self.artillery(x.defence, self.defender, st)
        # retreats (10.61d, 10.62, 10.68) and the advance
        c.retreat_totals = {dside: sum(x.attack.cell.retreat for x in self.live),
                            aside: sum(x.defence.cell.retreat for x in self.live)}
        net = c.retreat_totals[dside] - c.retreat_totals[aside]
        winner, vacated = None, []
        if net:
            loser = dside if net > 0 else aside
            winner = model.other_side(loser)
            c.retreating, c.retreat_hexes = loser, abs(net)
            stacks = [self.defender] if loser == dside else self.attackers
            hexes = self.refuse(loser, abs(net), stacks)
            for st in stacks:
                h = self.hex(st)
                if hexes and h:
                    self.retreat(st, hexes, "10.61d", morale=False)
                    vacated.append(h)
        for st in [self.defender] + self.attackers:      # wiped out by losses: the hex is vacated too
            if not self.units(st) and st.side != winner:
                h = c.target if st is self.defender else next(x.assault.source for x, s in pairs if s is st)
                if h not in vacated:
                    vacated.append(h)
                winner = winner or model.other_side(st.side)
        c.why = (f"pooled: {dside} lost {c.inflicted[aside]} step(s) and {c.retreat_totals[dside]} retreat; "
                 f"{aside} lost {c.inflicted[dside]} and {c.retreat_totals[aside]}; "
                 + (f"net: {c.retreating} retreats {c.retreat_hexes} hex(es)" if c.retreating
                    else "the retreat counts cancel: nobody retreats")
                 + (f"; {c.ml_winner} inflicted more losses: its leaders +1 ML" if c.ml_winner else ""))
        self.advance(winner, vacated)
        for st in failed:
            if self.units(st):
                self.retreat(st, 1, "10.65", morale=True)

    # -- the steps --
    def lose(self, st: _Stack, n: int, cause: str, what: str) -> None:
        if n <= 0:
            return
        enemy = model.other_side(st.side)
        units = self.units(st)
        picks = allocate_losses(self.work, units, n, owner_order=self.ch[st.side].loss_order,
                                enemy_order=self.ch[enemy].loss_order, taken=self.taken,
                                owner_only=cause != "fert")
        rule = {"fert": "10.63", "morale": "10.65", "zoc": "10.68", "blocked": "10.68"}[cause]
        for k, (u, who) in enumerate(picks, 1):
            chooser = st.side if who == "owner" else enemy
            self.emit(StepLoss(u, cause, who, rule, f"{u} ({st.name}) loses a step: {what}, loss {k} of {n}, "
                                                    f"chosen by {chooser}"))
        if len(picks) < n:
            self.c.checks.append(Check("losses", st.name, (), "short", rule,
                                       f"{st.name} had only {len(picks)} step(s) for {n} loss(es)"))

    def capture_wiped(self, st: _Stack) -> None:
        for f, (units, leaders) in st.by_force.items():
            if units and not self.units(st, units):
                for lid in self.leaders(st, leaders):
                    hq = self.work["leaders"][lid].get("hq")
                    self.emit(Capture(lid, "10.63b", f"{lid} is captured: every combat unit of {f}'s force is "
                                                     "eliminated; his artillery and ASP are lost"
                                      + ("; his HQ goes to the Leader Pool" if hq else "")))

    def casualties(self, st: _Stack, f: Fire) -> set[str]:
        killed = set()
        for lid in self.leaders(st):
            d = self.dice.d6(f"leader casualty {lid}", by=st.side)
            faces: tuple[int, ...] = (d,)
            result = "killed" if d == 6 else "unhurt"
            if d == 5:
                d2 = self.dice.d6(f"wound {lid}", by=st.side)
                faces = (d, d2)
                result = "killed" if d2 == 6 else f"wounded {d2}"
            self.c.checks.append(Check("casualty", lid, faces, result, "10.67",
                                       f"natural 6 for {'/'.join(f.firer)}: {lid} rolls "
                                       f"{'/'.join(map(str, faces))}: {result}"))
            if result == "killed":
                killed.add(lid)
                heir = self.heir(lid)
                self.emit(Kill(lid, heir, "in the Reorganization Segment" if self.circ.last_impulse
                               else "now, for 10 WEP (10.67b)", "10.67",
                               f"{lid} is killed; " + (f"{heir} takes his command" if heir
                                                       else "his units are unled")))
            elif result.startswith("wounded"):
                self.emit(Wound(lid, faces[1], "10.67", f"{lid} is wounded, level {faces[1]}: every rating "
                                                        f"-{faces[1]}"))
        return killed

    def heir(self, lid: str) -> str | None:
        ld = self.work["leaders"][lid]
        if ld.get("superior"):
            return ld["superior"]
        subs = [x for x, o in self.work["leaders"].items() if o.get("superior") == lid
                and not o.get("captured") and not o.get("killed")]
        return fc.senior_of(self.work, subs)[0]

    def morale(self, st: _Stack, oc_killed: bool) -> bool:
        """10.65: True when the check fails."""
        if not self.units(st):
            return False
        if oc_killed:
            self.c.checks.append(Check("morale", st.name, (), "ignored", "10.65",
                                       f"asterisk on {st.name}: its OC was killed; the new OC ignores the check"))
            return False
        oc = self.oc(st)
        if oc is None:
            ml = max(model.unit_ml(self.work["units"][u]) for u in self.units(st))
            r = fc.unled_check(ml, self.dice, f"morale check {st.name}", by=st.side)
            passed, why, faces = r.passed, r.why, (r.roll,)
        else:
            d = self.dice.d6(f"morale check {oc}", by=st.side)
            ml = self.work["leaders"][oc]["ml"]
            passed, why, faces = d <= ml, f"{oc} rolls {d} against ML {ml} (after 10.64)", (d,)
        self.c.checks.append(Check("morale", oc or st.name, faces, "passed" if passed else "failed", "10.65",
                                   f"asterisk on {st.name}: {why}: {'passes' if passed else 'fails'}"))
        if passed:
            return False
        if oc is not None:
            self.ml_down(oc, "10.65", f"{oc} -1 ML: failed morale check (3.53(3e))")
        self.lose(st, 1, "morale", "failed morale check")
        self.capture_wiped(st)
        return True

    def artillery(self, f: Fire, st: _Stack, opponent: _Stack) -> None:
        users = [u for u in self.leaders(st, f.strength.artillery_users)
                 if self.work["leaders"][u].get("artillery", 0) > 0]
        if not users:
            self.c.checks.append(Check("artillery", st.name, (), "none used", "10.66",
                                       f"natural 1 for {st.name}: it used no artillery, nothing to lose"))
            return
        d = self.dice.d6(f"artillery loss {st.name}", by=st.side)
        res = "lost" if d in (4, 5) else "captured" if d == 6 else "no effect"
        self.c.checks.append(Check("artillery", st.name, (d,), res, "10.66",
                                   f"natural 1 for {st.name}: artillery check rolls {d}: {res}"))
        if d < 4:
            return
        want = self.ch[st.side].artillery_loss
        loser = want if want in users else max(users, key=lambda u: (self.work["leaders"][u]["artillery"], u))
        self.emit(ArtilleryChange(loser, -1, "10.66", f"{loser} loses 1 artillery"
                                  + (", captured by the enemy" if d == 6 else "")))
        if d == 6:
            cand = self.leaders(opponent)
            want = self.ch[opponent.side].artillery_gain
            gainer = want if want in cand else self.oc(opponent)
            if gainer is not None:
                self.emit(ArtilleryChange(gainer, 1, "10.66", f"{gainer} takes 1 captured artillery"))

    def refuse(self, side: str, hexes: int, stacks: list[_Stack]) -> int:
        who = self.ch[side].refuse_retreat
        if who is None:
            return hexes
        ocs = {self.oc(st) for st in stacks} - {None}
        ld = self.work["leaders"].get(who)
        if who not in ocs or ld is None or ld["ml"] < 1:
            self.c.refused.append(Problem(f"{who} cannot refuse the retreat: only the OC of a retreating stack "
                                           "with ML 1 or more may (3.54b)", "3.54b", ["refuse_retreat"]))
            return hexes
        self.emit(MlChange(who, ld["ml"], ld["ml"] - 1, "3.54b", f"{who} gives up 1 ML to cancel 1 hex of retreat"))
        return hexes - 1

    def retreat(self, st: _Stack, hexes: int, rule: str, morale: bool) -> None:
        start = self.hex(st)
        enemy = model.other_side(st.side)
        others = [self.defender] if st.side == self.c.attacker_side else self.attackers
        mine = sum(model.unit_cf(self.work["units"][u]) for u in self.units(st)
                   if self.work["units"][u]["arm"] == "cavalry")
        theirs = sum(model.unit_cf(self.work["units"][u]) for o in others for u in self.units(o)
                     if self.work["units"][u]["arm"] == "cavalry")
        chooser = enemy if theirs > mine else st.side
        plan = plan_retreat(self.work, self.hexmap, st.side, start, hexes, chooser=chooser,
                            route=self.ch[chooser].routes.get(start))
        self.c.retreats.append(plan)
        self.c.refused += plan.problems
        oc = self.oc(st)
        if plan.eliminated:
            self.lose(st, sum(self.work["units"][u]["steps"] for u in self.units(st)), "blocked",
                      f"no retreat route from {start}, the stack is eliminated")
            self.capture_wiped(st)
            return
        if oc is not None and not morale:
            self.ml_down(oc, "3.53", f"{oc} -1 ML: retreats by combat result (3.53(3c))")
        if plan.zoc:
            if oc is not None:
                self.ml_down(oc, "10.68", f"{oc} -1 ML: retreats through enemy ZOC (once; 10.68, 3.53(3d))")
            self.lose(st, len(plan.zoc), "zoc", f"retreat through enemy ZOC in {', '.join(plan.zoc)}")
            self.capture_wiped(st)
        if self.units(st):
            self.move(st, plan.route[-1], self.leaders(st), None, rule, f"{st.name} retreats: {plan.why}")

    def move(self, st: _Stack, to: str, leaders: Sequence[str], units: Sequence[str] | None, rule: str,
             why: str) -> None:
        if units is None:
            units = [u for u in self.units(st) if self.work["units"][u].get("leader") is None]
        moving = set(leaders)
        logi = [s for s, o in (self.work.get("logistics") or {}).items() if o.get("leader") in moving and o.get("hex")]
        self.emit(MoveStack(tuple(leaders), tuple(units), tuple(logi), to, rule, why))

    def advance(self, winner: str | None, vacated: list[str]) -> None:
        c = self.c
        for side in (c.attacker_side, c.defender_side):
            want = self.ch[side].advance
            if want is None:
                continue
            if side != winner or not vacated:
                c.refused.append(Problem(f"{side} did not make the enemy retreat and cannot advance", "10.61d",
                                          ["advance"]))
                continue
            mine = self.attackers if side == c.attacker_side else [self.defender]
            st = next((s for s in mine if want in s.forces and self.units(s)), None)
            if st is None:
                c.refused.append(Problem(f"{want} is not a surviving {side} force of this combat", "10.61d",
                                          ["advance"]))
                continue
            to = self.ch[side].advance_to or vacated[0]
            if to not in vacated or to in _enemy_unit_hexes(self.work, side):
                c.refused.append(Problem(f"{to} is not a hex vacated by the enemy in this combat", "10.61d",
                                          ["advance_to"]))
                continue
            parts = self.ch[side].advance_parts
            if parts:
                leaders = [x for p in parts if p in self.work["leaders"] for x in model.force_leaders(self.work, p)]
                units = [p for p in parts if p in self.work["units"]]
            else:
                leaders, units = self.leaders(st), None
            self.move(st, to, leaders, units, "10.61d", f"{want} advances after combat into {to}"
                      + (f" ({', '.join(parts)} only, no AP)" if parts else ""))


# --- extended battle (10.7, 10.71) -------------------------------------------------------

@dataclass
class ExtendedBattle:
    """10.71: who chose the extended battle, who attacks, what it cost."""

    phasing: str
    asked: list[tuple[str, bool]] = field(default_factory=list)
    chooser: str | None = None
    attacker_side: str | None = None
    levels_paid: dict[str, int] = field(default_factory=dict)
    levels_left: dict[str, int] = field(default_factory=dict)
    wave_shift_kept: frozenset[str] = frozenset()
    new_asp: bool = True
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.71"
    why: str = ""


def extended_battle(phasing: str, answers: Mapping[str, bool], *, levels_left: Mapping[str, int],
                    already_fought: bool = False, earlier: Sequence[Combat] = ()) -> ExtendedBattle:
    """10.7/10.71: the phasing side is asked first, then the non-phasing side; the one who chooses pays
    1 operation level and is the attacker; only the phasing side's wave shift carries over."""
    eb = ExtendedBattle(phasing, levels_left=dict(levels_left))
    other = model.other_side(phasing)
    if already_fought:
        eb.problems.append(Problem("an extended battle is fought only once", "10.71", []))
        eb.why = "no extended battle: " + eb.problems[0].message
        return eb
    for side in (phasing, other):
        yes = bool(answers.get(side, False))
        eb.asked.append((side, yes))
        if not yes:
            continue
        if eb.levels_left.get(side, 0) < 1:
            eb.problems.append(Problem(f"{side} has no operation level left to pay", "10.7", [side]))
            continue
        eb.chooser = eb.attacker_side = side
        eb.levels_paid = {side: 1}
        eb.levels_left[side] -= 1
        break
    if eb.chooser == phasing:
        eb.wave_shift_kept = frozenset(x.assault.attacker for c in earlier for x in c.exchanges
                                       if not x.cancelled and x.wave >= 2)
    said = "; ".join(f"{s} {'accepts' if y else 'declines'}" for s, y in eb.asked)
    eb.why = (f"{said}: " + (f"{eb.chooser} pays 1 operation level and attacks; new ASP; everything is recomputed"
                             + (f"; {', '.join(sorted(eb.wave_shift_kept))} keep the wave shift"
                                if eb.wave_shift_kept else "")
                             if eb.chooser else "no extended battle"))
    return eb


def in_contact(state: dict, hexmap, side: str) -> list[tuple[str, str]]:
    """10.7: ``side``'s forces (with living units) adjacent to enemy combat units: (force, enemy hex)."""
    enemy = _enemy_unit_hexes(state, side)
    out = []
    for f in model.forces(state, side):
        if not model.units_of(state, f, side):
            continue
        for n in neighbours(hexmap, model.force_hex(state, f)):
            if n in enemy:
                out.append((f, n))
    return out


@dataclass
class ExtendedAttack:
    assault: Assault | None
    charges: list[APCharge] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule: str = "10.71"
    why: str = ""


def extended_assault(state: dict, hexmap, force: str, target: str) -> ExtendedAttack:
    """10.71: a force in contact attacks one adjacent enemy hex: 1 AP of its OC, no attack check."""
    side = model.force_side(state, force)
    here = model.force_hex(state, force)
    p: list[Problem] = []
    if target not in neighbours(hexmap, here):
        p.append(Problem(f"{target} is not adjacent to {here}", "10.71", ["target"]))
    elif target not in _enemy_unit_hexes(state, side):
        p.append(Problem(f"no enemy combat units in {target}", "10.71", ["target"]))
    oc = fc.force_oc(state, force)
    charges = []
    if oc is None:
        p.append(Problem("an unled force has no OC to pay the 1 AP of an extended-battle attack", "10.71", ["force"]))
    else:
        charges = [APCharge(oc, 1, "10.71", f"{oc} attacks {target} in the extended battle (no check)")]
        p += fc.ap_problems(state, charges)
    a = None if p else Assault(force, here, target, False, True, "10.71")
    why = (f"{force} attacks {target} in the extended battle: {oc} pays 1 AP instead of an attack check" if a
           else "no extended-battle attack: " + "; ".join(x.message for x in p))
    return ExtendedAttack(a, charges, p, "10.71", why)
