"""One fire of the Combat Sequence: rule 10.11 steps 1-3 (10.12, 10.2x, 10.3x, 10.4x, 10.5, 9.14).

:func:`stack_strength` (CF, halvings, ASP, artillery, defensive support),
:func:`fire_shifts` and :func:`read_column` (the FERT column), :func:`fire_drms`
with :func:`cavalry_superiority` (the DRMs) and :func:`fire`, which rolls the die
and reads the cell.  Every result says why.  :class:`Circumstances` (what the
referee knows beyond the state) lives here because :func:`fire` reads it.
The readings chosen are listed in :mod:`.combat`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Mapping, Sequence, cast

from .state_types import FullGameState, Turn
from ...geometry.hex import HexSide
from . import forces as fc
from . import model
from .fert import Cell, Fert, Shift
from .names import force_name, surname

HASTY_DRM = -2                             # 10.41a
CAVALRY_DRM = 3                            # 10.43
WEATHER_DRM = {"Rain": -1, "Mud": -1, "Blizzard": -4}     # 10.45


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
    depot_cf: int = 0                           # 7.22: a defending depot's capacity
    supporters: tuple[str, ...] = ()
    halvings: list[str] = field(default_factory=list)
    asp: list[AspPayment] = field(default_factory=list)
    general_short: bool = False                 # the OC could not pay the general ASP (10.23)
    covered: list[AspPayment] = field(default_factory=list)     # 10.12a reading: a later wave fires on these,
    #                                             paid before the wave attack's first resolution; nothing paid now
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


def stack_leaders(state: FullGameState, forces: Iterable[str]) -> list[str]:
    out: list[str] = []
    for f in forces:
        out += [x for x in fc.force_leaders_of(state, f) if x not in out
                and not state["leaders"][x].get("captured") and not state["leaders"][x].get("killed")]
    return out


def stack_oc(state: FullGameState, forces: Iterable[str]) -> str | None:
    """3.22: the OC of a stack of forces (None: unled)."""
    return fc.senior_of(state, stack_leaders(state, forces))[0]


def stack_units(state: FullGameState, forces: Iterable[str], side: str) -> list[str]:
    return [u for f in forces for u in model.units_of(state, f, side)]


def _forced(state: FullGameState, force: str, forced_march: Collection[str]) -> bool:
    """10.22: the force forced-marched this impulse (listed, or a leader flagged ``forced_march``)."""
    return force in forced_march or any(state["leaders"][x].get("forced_march")
                                        for x in fc.force_leaders_of(state, force))


def _supply_of(state: FullGameState, force: str, given: Mapping[str, str]) -> str:
    if force in given:
        return given[force]
    imp: Mapping[str, Any] = (state.get("current") or cast(Turn, {})).get("active_impulse") or {}
    s = (imp.get("supply") or {}).get(force)
    if isinstance(s, dict):
        return s.get("state", "full")
    return str(s) if s else "full"


def _general_asp(s: Strength, L: Mapping, avail: Mapping[str, int]) -> tuple[int, int, bool]:
    """10.21, 10.12, 10.23: an inactive OC halves CF and artillery; the OC pays 1 general ASP or
    the whole stack's CF is halved.  Returns the stack's CF and artillery halvings and whether
    the stack is short of ammunition."""
    oc = s.oc
    k_stack, k_art, ammo_stack = 0, 0, False
    if oc is not None and not L[oc].get("active"):
        k_stack += 1
        k_art += 1
        s.halvings.append(f"inactive OC {surname(L, oc)}: CF and artillery halved (10.21)")
    if oc is not None:
        if avail[oc] >= 1:
            s.asp.append(AspPayment(oc, 1, "general", "10.12"))
        else:
            s.general_short = True
            ammo_stack = True
            s.halvings.append(f"OC {surname(L, oc)} cannot pay the general ASP: the whole stack's CF halved (10.23)")
    return k_stack, k_art, ammo_stack


def _unit_cf_groups(state: FullGameState, s: Strength, avail: Mapping[str, int], k_stack: int, ammo_stack: bool,
                    supply: Mapping[str, str], forced_march: Collection[str], notes: list[str]) -> dict[int, int]:
    """10.22, 7.32, 10.12b, 10.23(3), 10.5: each unit's CF, halved for forced march, out of supply
    or a box leader with no ASP (ammunition counted once, whatever the cause).  Returns the CF
    by halving exponent."""
    groups: dict[int, int] = {}          # halving exponent -> CF
    short: list[str] = []                # box leaders with no ASP (10.23(3))
    ammo_causes = int(ammo_stack)
    for f in s.forces:
        fm = _forced(state, f, forced_march)
        out = _supply_of(state, f, supply) == "out" and not model.is_unled(f)
        if fm:
            s.halvings.append(f"{f} forced-marched: CF and artillery halved (10.22)")
        if out:
            ammo_causes += 1
            s.halvings.append(f"{f} is out of supply: CF halved, no artillery (7.32)")
        for u in model.units_of(state, f, s.side):
            cf = model.unit_cf(state["units"][u])
            s.unit_cf += cf
            box = state["units"][u].get("leader")
            no_asp = box in avail and avail[cast(str, box)] == 0
            if no_asp and (box != s.oc or not s.general_short) and box not in short:
                short.append(cast(str, box))
                ammo_causes += 1
                s.halvings.append(f"{box} has no ASP: his units' CF halved, no artillery (10.12b, 10.23(3))")
            k = k_stack + int(fm) + int(ammo_stack or out or no_asp)
            groups[k] = groups.get(k, 0) + cf
    if ammo_causes > 1:
        notes.append("a unit short of ammunition is halved once for it, whatever the cause (10.5 reading)")
    return groups


def _artillery_groups(state: FullGameState, s: Strength, leaders: Sequence[str], avail: Mapping[str, int], k_art: int,
                      artillery: bool | Collection[str], supply: Mapping[str, str],
                      forced_march: Collection[str], notes: list[str]) -> tuple[dict[int, int], list[str]]:
    """10.42, 10.12, 10.23, 7.32, 10.22: each leader's artillery fires if he chooses, is in supply and
    pays 1 ASP for it (halved after a forced march).  Returns the artillery by halving exponent
    and the leaders who fired theirs."""
    L = state["leaders"]
    force_of = {x: f for f in s.forces for x in fc.force_leaders_of(state, f)}
    paid = {x: (1 if s.asp and s.asp[0].leader == x else 0) for x in leaders}
    art_groups: dict[int, int] = {}
    users: list[str] = []
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
    return art_groups, users


def _add_support(s: Strength, own_cf: int, own_art: int, supports: Sequence) -> None:
    """9.14: the defensive support's CF and artillery (already halved, rounded up) are added."""
    s.support_cf = sum(getattr(x, "added_cf", 0) for x in supports)
    s.support_artillery = sum(getattr(x, "added_artillery", 0) for x in supports)
    s.supporters = tuple(x.supporter for x in supports)
    s.cf = own_cf + s.support_cf
    s.artillery = own_art + s.support_artillery


def _add_depots(state: FullGameState, s: Strength, leaders: Sequence[str], notes: list[str]) -> None:
    """7.22: a depot cannot move but has a CF equal to its capacity, added to the total of the
    stack it is in when that stack is attacked."""
    hexes = {state["leaders"][x].get("hex") for x in leaders}
    hexes |= {u.get("hex") for uid, u in state["units"].items() if uid in s.forces}
    hexes.discard(None)
    for sid, d in sorted((state.get("logistics") or {}).items()):
        if d.get("kind") == "depot" and d.get("side") == s.side and d.get("hex") in hexes \
                and not d.get("captured"):
            cf = int(d.get("capacity", 0) or 0)
            if cf:
                s.depot_cf += cf
                s.cf += cf
                notes.append(f"+{cf} CF of the depot {sid} in the stack (7.22)")


def _strength_why(L: Mapping[str, Any], s: Strength, own_cf: int, notes: list[str]) -> str:
    text = f"{s.unit_cf} CF"
    if s.halvings:
        text += f" -> {own_cf} (" + "; ".join(s.halvings) + ")"
    if s.supporters:
        text += (f" + {s.support_cf} CF and {s.support_artillery} artillery of support from "
                 f"{', '.join(force_name(L, x) for x in s.supporters)} (half, rounded up, 9.14) = {s.cf} CF")
    parts = [text, f"artillery {s.artillery}"]
    if s.asp:
        parts.append("ASP " + ", ".join(f"{surname(L, p.leader)} {p.points} ({p.purpose})" for p in s.asp))
    elif s.covered:
        parts.append("no ASP paid again: it fires on the ASP paid before the wave attack's first resolution ("
                     + ", ".join(f"{surname(L, p.leader)} {p.points} ({p.purpose})" for p in s.covered)
                     + "; 10.12a read by the 10.7 example)")
    parts += notes
    return "; ".join(parts)


def stack_strength(state: FullGameState, forces: Sequence[str], *, role: str, side: str | None = None,
                   artillery: bool | Collection[str] = True, supply: Mapping[str, str] | None = None,
                   forced_march: Collection[str] = (), supports: Sequence = (),
                   asp_spent: Mapping[str, int] | None = None, wave_covered: bool = False) -> Strength:
    """The CF and artillery a stack fires with, and the ASP it pays (10.12, 10.2x, 10.5, 9.14).

    ``artillery``: True (every leader who can), False, or the leader ids who use theirs.
    ``supply``: force -> "full" / "combat" / "out" (default: the impulse's locked state, else full).
    ``forced_march``: forces that forced-marched this impulse (or leaders flagged ``forced_march``).
    ``supports``: :class:`.reaction.Support` results (defender only).
    ``asp_spent``: ASP already spent by each leader earlier in this combat (waves).
    ``wave_covered``: a defender's second or later resolution of a wave attack (10.12a read by the
    10.7 example, where Longstreet pays 2 and Hood 1 for the whole wave attack): ``asp_spent`` is
    given as it stood at the first resolution, so the stack's ammunition state is that one, and
    the payments worked out are not made again but listed in ``covered``."""
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
        s.why = f"the attacking OC {surname(L, oc)} is inactive: no combat is resolved (10.21)"
        return s
    avail = {x: max(0, L[x].get("asp", 0) - spent.get(x, 0)) for x in leaders}
    notes: list[str] = []
    k_stack, k_art, ammo_stack = _general_asp(s, L, avail)
    groups = _unit_cf_groups(state, s, avail, k_stack, ammo_stack, supply, forced_march, notes)
    art_groups, users = _artillery_groups(state, s, leaders, avail, k_art, artillery, supply, forced_march, notes)
    if wave_covered:
        s.covered, s.asp = s.asp, []
    own_cf = sum(_ceil_div(n, k) for k, n in groups.items())
    own_art = sum(_ceil_div(n, k) for k, n in art_groups.items())
    _add_support(s, own_cf, own_art, supports)
    if role == "defender":
        _add_depots(state, s, leaders, notes)
    s.artillery_users = tuple(users)
    s.why = _strength_why(state["leaders"], s, own_cf, notes)
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


def stack_ml(state: FullGameState, forces: Sequence[str], side: str) -> tuple[int, str]:
    """10.31: the OC's ML, or for an unled stack the worst unit ML inverted (3.52b)."""
    oc = stack_oc(state, forces)
    if oc is not None:
        return state["leaders"][oc]["ml"], f"{surname(state['leaders'], oc)} ML {state['leaders'][oc]['ml']}"
    mls = [model.unit_ml(state["units"][u]) for u in stack_units(state, forces, side)]
    worst = max(mls) if mls else 6
    inv = fc.inverted_ml(worst)
    return inv, f"unled ML {worst} inverted to {inv} (3.52b)"


def _entrenchment(state: FullGameState, label: str, given: Mapping[str, int] | None) -> int:
    table = given if given is not None else state.get("entrenchments", {})
    v = table.get(label, 0)
    return int(v.get("level", 0)) if isinstance(v, dict) else int(v or 0)


def fire_shifts(state: FullGameState, hexmap, fert: Fert, firer: Sequence[str], fired_on: Sequence[str], *,
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


def _gone(state: FullGameState, hexmap, target: str, firer: str) -> set[str]:
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


def stack_cavalry(state: FullGameState, forces: Sequence[str], side: str) -> tuple[int, int]:
    """Cavalry CF and number of cavalry units of a stack (supporters are never passed in)."""
    cav = [u for u in stack_units(state, forces, side) if state["units"][u]["arm"] == "cavalry"]
    return sum(model.unit_cf(state["units"][u]) for u in cav), len(cav)


leader_rating = model.current_rating     # AR, BR or MR now, less the wound level (10.67)


def fire_drms(state: FullGameState, strength: Strength, fired_on: Sequence[str], *, weather: str = "Clear",
              offset: int = 0, hasty: bool = False, extra: Sequence[Drm] = ()) -> list[Drm]:
    """10.41-10.46: the DRMs of one fire."""
    out: list[Drm] = []
    side, enemy = strength.side, model.other_side(strength.side)
    if strength.oc is not None:
        ld = state["leaders"][strength.oc]
        br = leader_rating(ld, "br")
        out.append(Drm(br, f"{surname(state['leaders'], strength.oc)}'s BR" + (f" (wound -{ld['wound']})" if ld.get("wound") else ""),
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
    names: Mapping[str, str] = field(default_factory=dict)   # force id -> the name a reader knows it by
    brevet_note: str = ""               # 14.51: how the OC's BR was read under a brevet marker, as he fired

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
        who = "/".join(self.names.get(x, x) for x in self.firer)
        drms = ", ".join(d.text() for d in self.drms) or "none"
        out = (f"{who} fires on {'/'.join(self.names.get(x, x) for x in self.fired_on)} ({self.role}, wave {self.wave}): {self.strength.why}; "
               f"{self.column.why}; DRM {self.drm:+d} ({drms})")
        if self.die is not None:
            out += (f"; die {self.die} -> {self.modified}"
                    + (f" (reads row {self.row})" if self.row != self.modified else "")
                    + f": {self.cell.text} on column {self.column.label}"
                    + (" [stand-in FERT]" if self.stand_in else ""))
        return out


def fire(state: FullGameState, hexmap, fert: Fert, firer: Sequence[str], fired_on: Sequence[str], *, firer_hex: str,
         fired_on_hex: str, role: str, wave: int = 1, dice=None, purpose: str = "", hasty: bool = False,
         artillery: bool | Collection[str] = True, supports: Sequence = (), asp_spent=None,
         wave_covered: bool = False, circumstances: "Circumstances | None" = None) -> Fire:
    """One fire (10.11 steps 1-3, 10.61): strength, column, DRMs; rolls 1d6 when ``dice`` is given."""
    circ = circumstances or Circumstances()
    side = model.force_side(state, firer[0])
    st = stack_strength(state, firer, role="attacker" if role == "attack" else "defender", side=side,
                        artillery=artillery, supply=circ.supply, forced_march=circ.forced_march,
                        supports=supports, asp_spent=asp_spent, wave_covered=wave_covered)
    shifts = fire_shifts(state, hexmap, fert, firer, fired_on, firer_hex=firer_hex, fired_on_hex=fired_on_hex,
                         firer_attacks=role == "attack", wave=wave,
                         wave_shift_carried=role == "attack" and firer[0] in circ.wave_shift_carried,
                         entrenchments=circ.entrenchments, doctrine=circ.doctrine)
    col = read_column(fert, st.cf, shifts)
    drms = fire_drms(state, st, fired_on, weather=_weather(state, circ), offset=_offset(state, circ),
                     hasty=hasty and role == "attack", extra=circ.extra_drms.get(side, ()))
    total = sum(d.amount for d in drms)
    f = Fire(tuple(firer), tuple(fired_on), side, role, wave, st, col, tuple(drms), total, stand_in=fert.stand_in,
             names={x: force_name(state["leaders"], x) for x in (*firer, *fired_on)},
             brevet_note=_brevet_note(state, st.oc))
    if dice is not None:
        f.die = dice.d6(purpose or f"FERT {'/'.join(firer)} on {fired_on_hex}", by=side)
        f.modified = f.die + total
        f.row, _ = fert.row_for(f.modified)
        f.cell = fert.cell(col.index, f.row)
    return f


def _brevet_note(state: FullGameState, oc: str | None) -> str:
    """14.51: the OC's printed BR (the side his counter shows now) and what his brevet marker (and a
    wound, 10.67) take from it; "" without a brevet marker.  Written when he fires: a combat's results
    (a capture flips the counter, a wound) must not change what the fire read."""
    if oc is None or not model.brevet_loss(state["leaders"][oc]):
        return ""
    ld = state["leaders"][oc]
    return (f"printed {model.leader_ratings(ld)['br']}, less {model.brevet_loss(ld)} for his brevet marker"
            + (f" (and his wound {ld['wound']}, 10.67)" if ld.get("wound") else ""))


def _weather(state: FullGameState, circ: "Circumstances") -> str:
    if circ.weather:
        return circ.weather
    from .supply import weather_of
    return weather_of(state)


def _offset(state: FullGameState, circ: "Circumstances") -> int:
    if circ.fert_offset is not None:
        return circ.fert_offset
    return int(state.get("fert_offset") or 0)
