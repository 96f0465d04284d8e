"""KGP movement costs: MF for an MF-expending unit to enter a Location, what KGP adds for vehicles,
barbed wire and the Temporary Breach (rules 1.3, 2.51-2.53, 3.2-3.3, 3.21, 4.11-4.12, 5.11, 5.141).

* :func:`mf_cost` -- MF for an MF-expending unit (Infantry, cavalry, wagons,
  bicycles, horses) to enter an adjacent ground-level Location: the COT of
  the hex (Pine Woods 1.3), doubled when moving to a higher elevation (the
  2.51 example, ASL B10.4), climbing a slope (2.51), barbed wire and the
  Temporary Breach (3.2, 3.21), stream-hex terrain (4.11, 4.12), narrow
  streets and Roadblocks (5.11, 5.141), crest-line slopes (2.53).
* :func:`vehicle_entry` -- what KGP adds for MP units: the 1 MP to climb a
  slope (2.52), crest-line slopes barred (2.53), barbed wire (3.3: no MP,
  motorcycles barred, an extra Bog DR with :func:`wire_drms`).
* :func:`temporary_breach` -- creating a Temporary Breach (3.21).

Readings chosen where the rules are ambiguous (tests: tests/kgp/test_terrain.py):

* COT: the unit class key of the terrain type (``cavalry``, ``wagon`` ...),
  else its default.  Moving to a hex of higher base elevation ("crossing a
  crest line") doubles the whole COT -- road rate, bypass and stream costs
  included; going down adds nothing.  Slope climbing (+1/2) is paid by every
  MF unit (2.51 names Infantry, cavalry and wagons).
* Barbed wire is a hexside and costs the same in both directions.  At night
  every crossing extra is doubled, the breach's +1/2 included (so +1); the
  2 MF to *create* a breach is not a crossing extra and is not doubled.
  Armored Assault and trench/tunnel movement exempt Infantry only.
* Temporary Breach: usable by Infantry that is not broken, berserk,
  manhandling or in a Human Wave; cavalry pays its full +2.  Creating one
  needs a Good Order, unpinned (3.21: the breach lasts only while unpinned),
  non-Straying Infantry MMC.
* Bog DRMs (3.3, signs lost): +1 not fully tracked, +2 truck-type MP; a
  truck gets the larger (+2), not both -- the chart's ``combine`` says so.
* Streams (4.11): across a stream hexside the unit pays the depth cost only;
  across another hexside, into a stream-woods/pine/brush/orchard hex, the
  depth cost plus that terrain's COT.  Dry = 2 MF is derived from the printed
  Dry stream-woods 4 MF.  Deep and Flooded have no cost in the seed.
* Narrow streets: bypass (5.11) is computed along narrow-street hexsides
  only, at the chart's stand-in bypass cost (ASL A4.3: 1 MF, the Open
  Ground of a village hex); "pays 2 MF at the same time" in the 5.141
  example is that 1 + the Roadblock's 1.  A move that starts bypassing along
  a street, or crosses a street hexside, pays the full COT of an obstacle
  (a terrain with a LOS height) even along a road (5.11).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Sequence

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, HexSide, distance
from ...geometry.mapmodel import crossing_kind
from .terrain import (ASL_COT_RULE, BARBED_WIRE, CREST_SLOPE, CULVERT, KGP_COT_RULE, MMC, NARROW_STREETS, ROAD,
                      SLOPES, STREAM, STREAM_MIXED, Location, LocationLike, NotCovered, Part, TerrainChart, Unit, UnitLike,
                      _frac, _label, _loc, _rules, _side, _slope_drawn_in, _street, _unit, mf_text)

_KGP_SIDES = set(SLOPES) | {BARBED_WIRE, STREAM} | set(NARROW_STREETS)
_WIRE_BANNED = {"wagon": "wagons", "bicycle": "ridden bicycles", "horse": "horses"}     # 3.2


@dataclass(frozen=True)
class MoveCost:
    """MF to enter ``end`` from ``start`` (:func:`mf_cost`).

    ``legal`` False: ``total`` is None and ``rule`` names the rule that bars
    the move; ``task_impossible`` when a Straying unit becomes TI instead
    (3.2).  ``bonus``: MF the unit gains (skis going down a slope, 2.51).
    ``hazardous``: the move through a Temporary Breach is Hazardous Movement.
    """

    unit: str
    start: str
    end: str
    legal: bool
    total: Fraction | None
    parts: tuple[Part, ...] = ()
    notes: tuple[str, ...] = ()
    bonus: Fraction = Fraction(0)
    hazardous: bool = False
    task_impossible: bool = False
    rule: str | None = None
    why: str = ""

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules(self.parts, self.notes, self.rule)


@dataclass(frozen=True)
class BogDrms:
    """The barbed-wire Bog DRMs of a vehicle (3.3)."""

    total: int
    parts: tuple[Part, ...]
    stand_in: bool
    rule: str = "3.3"
    why: str = ""


@dataclass(frozen=True)
class VehicleEntry:
    """What KGP adds when an MP unit enters ``end`` (:func:`vehicle_entry`); the
    ASL COT in MP is not in the seed and is not included."""

    unit: str
    start: str
    end: str
    legal: bool
    extra_mp: Fraction | None
    parts: tuple[Part, ...] = ()
    wire_bog: bool = False
    bog: BogDrms | None = None
    notes: tuple[str, ...] = ()
    rule: str | None = None
    why: str = ""

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules(self.parts, self.notes, self.rule)


@dataclass(frozen=True)
class BreachAttempt:
    """Creating a Temporary Breach (3.21)."""

    legal: bool
    mf: Fraction | None
    task_impossible: bool
    concealment_loss: bool
    rule: str = "3.21"
    why: str = ""



def _wire_ban(unit: Unit) -> str | None:
    if unit.kind in _WIRE_BANNED:
        return _WIRE_BANNED[unit.kind]
    if unit.skis:
        return "Infantry on skis"
    if unit.cx:
        return "CX Infantry" if unit.infantry else f"CX {unit.kind}"
    return None


def _ground_only(*locs: Location) -> None:
    for x in locs:
        if x.level:
            raise NotCovered(f"{x.hex} level {x.level}: moving to or from an upper building level follows ASL B23 "
                             f"(stairways), which is not in the seed; give ground-level Locations")


def _why_cost(start: str, end: str, total: Fraction, parts: Sequence[Part], notes: Sequence[str],
              bonus: Fraction, unit: str = "MF") -> str:
    text = f"{start} -> {end}: {mf_text(total)} {unit}"
    if parts:
        text += " = " + " + ".join(p.text() for p in parts)
    if bonus:
        text += f"; +{mf_text(bonus)} MF bonus for skis going down a slope (2.51)"
    if notes:
        text += "; " + "; ".join(notes)
    return text


class _Refused(Exception):
    """A step the rules bar: the reason, the rule and whether a Straying unit becomes TI."""

    def __init__(self, reason: str, rule: str, ti: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.rule, self.ti = reason, rule, ti


@dataclass(frozen=True)
class _Step:
    """One step being priced: the map, the unit, both Locations and the hexside between them."""

    hexmap: Any
    unit: Unit
    a_loc: Location
    b_loc: Location
    a: Hex
    b: Hex
    side: HexSide
    feats: frozenset
    chart: TerrainChart

    @property
    def la(self) -> str:
        return self.hexmap.label(self.a)

    @property
    def lb(self) -> str:
        return self.hexmap.label(self.b)

    @property
    def side_label(self) -> str:
        return self.hexmap.grid.side_label(self.side)

    def bypass_side(self, x: Location, h: Hex) -> HexSide | None:
        """The narrow-street hexside ``x`` bypasses along (5.11), or None."""
        if x.bypass is None:
            return None
        s = _side(self.hexmap, x.bypass)
        if h not in s.hexes:
            raise InvalidInput(f"{x.bypass} is not a hexside of {self.hexmap.label(h)}: a unit bypasses along a "
                               f"hexside of its hex")
        if _street(self.hexmap, s) is None:
            raise NotCovered(f"bypass along {self.hexmap.grid.side_label(s)}, which is no narrow street: ASL A4.3 is "
                             f"not in the seed; this calculator prices bypass along narrow streets (5.11)")
        return s


def _terrain_cot(st: _Step, on_street: bool, notes: list[str]) -> list[Part]:
    """The COT of the hex entered off a stream: its terrain (or the road rate) and its features."""
    hexmap, cls, lb = st.hexmap, st.unit.cot_class, st.lb
    types = hexmap.types
    tt = hexmap.terrain(st.b)
    rule = KGP_COT_RULE.get(tt.name, ASL_COT_RULE)
    c = tt.cost(cls)
    if c is None:
        raise _Refused(f"{tt.label} in {lb} cannot be entered", rule)
    terrain_part = Part(_frac(c), f"{tt.label} COT", rule, tt.name not in KGP_COT_RULE)
    out = [terrain_part]
    rate = types["lines"][ROAD].cost(cls) if ROAD in hexmap.lines_between(st.a, st.b) and ROAD in types["lines"] else None
    if rate is not None and _frac(rate) <= terrain_part.value:
        if tt.height > 0 and on_street:
            notes.append("no road rate into an obstacle along or across a narrow street (5.11)")
        else:
            out = [Part(_frac(rate), "road", "ASL B3.4 (road rate; not in the seed)", True)]
    for f in hexmap.features(st.b):
        if f == STREAM:
            continue
        ft = types["features"][f]
        fc = ft.cost(cls)
        if fc is None:
            raise _Refused(f"{ft.label} in {lb} cannot be entered", ASL_COT_RULE)
        if fc:
            out.append(Part(_frac(fc), ft.label, ASL_COT_RULE, True))
    return out


def _stream_cot(st: _Step, depth: str | None, assault_move_possible: bool, notes: list[str]) -> list[Part]:
    """The cost of entering a stream hex (4.11) or, in crest status, a stream-woods/brush/orchard hex (4.12)."""
    u, lb, chart = st.unit, st.lb, st.chart
    tt = st.hexmap.terrain(st.b)
    if depth is None:
        raise InvalidInput(f"{lb} is a stream hex: give stream_depth (dry, shallow ...) (4.11, B20.4)")
    across_stream = STREAM in st.feats
    mixed = tt.name in STREAM_MIXED
    if st.b_loc.crest:
        if not mixed:
            raise NotCovered(f"crest status in the plain stream hex {lb} follows ASL B20.91, not in the seed")
        if across_stream:
            raise NotCovered(f"entering {lb} into crest status across the stream hexside: the 4.12 exception is for "
                             f"non-stream hexsides; otherwise ASL B20.91 applies (not in the seed)")
        if not u.infantry or u.status != "good_order":
            raise _Refused(f"only Good Order Infantry may enter {lb} directly into crest status", "4.12")
        if not assault_move_possible:
            raise _Refused(f"the unit must start where it could Assault Move into {lb}", "4.12")
        e = chart.group("stream.crest_entry_mf").get(tt.name)
        if e is None:
            raise NotCovered(f"the KGP chart has no crest-entry cost for stream-{tt.name} (4.12)")
        return [Part(e.value, f"stream-{tt.label.lower()} entered in crest status", e.rule, e.stand_in)]
    depths = chart.group("stream.depth_mf")
    e = depths.get(depth)
    if e is None:
        raise NotCovered(f"no MF for a {depth} stream: its ASL B20.4 cost is not in the seed; the KGP chart gives "
                         f"{', '.join(depths)}")
    out = [Part(e.value, f"{depth} stream", e.rule, e.stand_in)]
    if mixed and not across_stream:
        c = tt.cost(st.unit.cot_class)
        if c is None:
            raise _Refused(f"{tt.label} in {lb} cannot be entered", KGP_COT_RULE.get(tt.name, ASL_COT_RULE))
        out.append(Part(_frac(c), f"{tt.label} (cumulative across a non-stream hexside)", "4.11"))
    elif mixed:
        notes.append(f"along the stream the {tt.label.lower()} costs nothing (4.11)")
    return out


def _wire(st: _Step, *, night: bool, armored_assault: bool, in_trench: bool, breached: bool,
          manhandling: bool, human_wave: bool, notes: list[str]) -> tuple[list[Part], bool]:
    """The barbed-wire extra (3.2) or the Temporary Breach's (3.21); and whether the move is Hazardous."""
    u, chart = st.unit, st.chart
    night_x = chart.value("barbed_wire.night_multiplier") if night else Fraction(1)
    at_night = " (doubled at night)" if night else ""
    if not u.infantry:          # cavalry: wagons, bicycles and horses are barred before this
        e = chart.entry("barbed_wire.cavalry_mf")
        return [Part(e.value * night_x, f"barbed wire, cavalry{at_night}", e.rule, e.stand_in)], False
    if armored_assault or in_trench:
        how = "Armored Assault" if armored_assault else "movement in a trench or tunnel"
        notes.append(f"barbed wire: COT only by {how} (3.2)")
        return [], False
    barred = None
    if breached:
        if u.status in ("broken", "berserk"):
            barred = f"{u.status} Infantry"
        elif manhandling:
            barred = "manhandling Infantry"
        elif human_wave:
            barred = "Infantry in a Human Wave"
        if barred is None:
            e = chart.entry("barbed_wire.breach_mf")
            notes.append("movement through a Temporary Breach is Hazardous Movement (3.21)")
            return [Part(e.value * night_x, f"barbed wire through a Temporary Breach{at_night}", e.rule, e.stand_in)], True
        notes.append(f"{barred} cannot use the Temporary Breach (3.21)")
    e = chart.entry("barbed_wire.infantry_mf")
    return [Part(e.value * night_x, f"barbed wire{at_night}", e.rule, e.stand_in)], False


def mf_cost(
    hexmap,
    unit: UnitLike,
    start: LocationLike,
    end: LocationLike,
    *,
    night: bool = False,
    armored_assault: bool = False,
    in_trench: bool = False,
    breaches: Iterable[str | HexSide] = (),
    stream_depth: str | None = None,
    crosses_roadblock: bool = False,
    dash: bool = False,
    charging: bool = False,
    manhandling: bool = False,
    human_wave: bool = False,
    assault_move_possible: bool = True,
    vca_changes: int = 0,
    chart: TerrainChart,
) -> MoveCost:
    """MF for ``unit`` to enter the ground-level Location ``end`` from the adjacent ``start``.

    ``night`` doubles the barbed-wire extras (3.2); ``armored_assault`` and
    ``in_trench`` (moving in trenches or tunnels) exempt Infantry from them;
    ``breaches`` are the hexsides with a Temporary Breach (3.21);
    ``stream_depth`` (dry, shallow ...) is needed to enter a stream hex (4.11);
    ``crosses_roadblock`` adds the Roadblock's MF (5.141); ``dash`` is refused
    along or across a narrow street (5.11); ``charging`` cavalry cannot cross
    a crest-line slope (2.53); ``manhandling`` and ``human_wave`` bar the use of
    a breach; ``assault_move_possible`` says whether the unit could Assault
    Move into a stream hex it enters in crest status (4.12); ``vca_changes`` are a
    wagon's VCA changes while bypassing along a narrow street, 1 MF each (5.11).
    ``end`` may be the culvert under a hex (4.21).

    Bad input raises :class:`~hxref.base.errors.InvalidInput`; a question needing
    ASL rules the seed lacks raises :class:`NotCovered`; a step the rules bar
    gives a result with ``legal`` False.
    """
    u = _unit(unit)
    if u.vehicle:
        raise InvalidInput(f"a {u.kind} expends MP, not MF: use vehicle_entry for what KGP adds (2.52, 2.53, 3.3)")
    a_loc, b_loc = _loc(start), _loc(end)
    a, b = hexmap.parse(a_loc.hex), hexmap.parse(b_loc.hex)
    _ground_only(a_loc, b_loc)
    if distance(a, b) != 1:
        raise InvalidInput(f"{hexmap.label(a)} and {hexmap.label(b)} are not adjacent: mf_cost prices one step")
    side = HexSide(a, b)
    st = _Step(hexmap, u, a_loc, b_loc, a, b, side, frozenset(hexmap.side_features(side)), chart)
    la, lb = st.la, st.lb
    try:
        parts, notes, bonus, hazardous = _price(
            st, night=night, armored_assault=armored_assault, in_trench=in_trench,
            breached=side in {_side(hexmap, s) for s in breaches}, stream_depth=stream_depth,
            crosses_roadblock=crosses_roadblock, dash=dash, charging=charging, manhandling=manhandling,
            human_wave=human_wave, assault_move_possible=assault_move_possible)
        parts += _wagon_vca(st, vca_changes)
    except _Refused as no:
        why = f"{la} -> {lb}: {no.reason} ({no.rule})"
        if no.ti:
            why += "; the Straying unit becomes TI instead (3.2)"
        return MoveCost(u.kind, la, lb, False, None, rule=no.rule, task_impossible=no.ti, why=why)
    total = sum((p.value for p in parts), Fraction(0))
    return MoveCost(u.kind, la, lb, True, total, tuple(parts), tuple(notes), bonus, hazardous, False, None,
                    _why_cost(la, lb, total, parts, notes, bonus))


def _price(st: _Step, *, night: bool, armored_assault: bool, in_trench: bool, breached: bool,
           stream_depth: str | None, crosses_roadblock: bool, dash: bool, charging: bool, manhandling: bool,
           human_wave: bool, assault_move_possible: bool) -> tuple[list[Part], list[str], Fraction, bool]:
    """The parts of :func:`mf_cost`, in the order the 2.51 example lists them: COT, wire, slope.

    The steps: what bars the step (5.11 Dash, 2.53 charge, 3.2 wire), the COT of the Location entered
    (:func:`_entered_cot`), the hexside features the ASL rules price, the barbed wire (3.2), the slope (2.51)
    and a Roadblock (5.141)."""
    chart, feats = st.chart, st.feats
    a_bypass, b_bypass = st.bypass_side(st.a_loc, st.a), st.bypass_side(st.b_loc, st.b)
    on_street = _street(st.hexmap, st.side) is not None or a_bypass is not None or b_bypass is not None
    _barred_step(st, dash=dash, charging=charging, on_street=on_street, manhandling=manhandling)
    notes: list[str] = []
    parts = _entered_cot(st, b_bypass, on_street, stream_depth, assault_move_possible, notes)
    parts += _asl_hexsides(st)
    hazardous = False
    if BARBED_WIRE in feats:
        wire, hazardous = _wire(st, night=night, armored_assault=armored_assault, in_trench=in_trench,
                                breached=breached, manhandling=manhandling, human_wave=human_wave, notes=notes)
        parts.extend(wire)
    bonus = _slope_mf(st, parts, notes)
    # a narrow-street Roadblock (5.141)
    if crosses_roadblock:
        e = chart.entry("narrow_street.roadblock_mf")
        parts.append(Part(e.value, "crossing a narrow-street Roadblock", e.rule, e.stand_in))
    return parts, notes, bonus, hazardous


def _wagon_vca(st: _Step, vca_changes: int) -> list[Part]:
    """5.11: a wagon bypassing along a narrow street pays 1 MF for each VCA change (D2.33)."""
    if not vca_changes:
        return []
    if vca_changes < 0:
        raise InvalidInput("--vca-changes: a number of VCA changes is 0 or more")
    if st.unit.kind != "wagon":
        raise InvalidInput(f"a {st.unit.kind} has no VCA: --vca-changes is for wagons and vehicles (5.11)")
    if st.b_loc.bypass is None:
        raise InvalidInput("--vca-changes: the 5.11 VCA change is made bypassing along a narrow street (--bypass)")
    e = st.chart.entry("vehicle_street.vca_change_mp")
    return [Part(e.value * vca_changes, f"{vca_changes} VCA change{'s' if vca_changes > 1 else ''} of a wagon "
                 "(D2.33)", e.rule, e.stand_in)]


def _barred_step(st: _Step, *, dash: bool, charging: bool, on_street: bool, manhandling: bool) -> None:
    """What bars the step before any pricing: no Dash on a narrow street (5.11), only cavalry charges and
    never across a crest-line slope (2.53), who may not cross barbed wire (3.2)."""
    u, feats = st.unit, st.feats
    for x in (st.a_loc, st.b_loc):
        if x.culvert and x.crest:
            raise InvalidInput(f"{x.hex}: a unit in a culvert cannot be in crest status (4.22)")
    if st.a_loc.culvert and st.b_loc.crest:
        raise _Refused(f"the culvert-to-stream hexside {st.side_label} is not eligible for crest status", "4.22")
    if st.b_loc.culvert and manhandling:
        raise _Refused(f"Guns cannot enter the culvert under {st.lb}", "4.21")
    if dash and on_street:
        raise _Refused("no Dash along or across a narrow street", "5.11")
    if charging and u.kind != "cavalry":
        raise InvalidInput(f"only cavalry charges; a {u.kind} cannot (2.53)")
    if CREST_SLOPE in feats and charging:
        raise _Refused(f"a cavalry charge cannot cross the crest-line slope {st.side_label}", "2.53")
    if BARBED_WIRE in feats:
        banned = _wire_ban(u)
        if banned:
            raise _Refused(f"{banned} cannot cross the barbed wire on {st.side_label}", "3.2", ti=u.straying)


def _entered_cot(st: _Step, b_bypass: HexSide | None, on_street: bool, stream_depth: str | None,
                 assault_move_possible: bool, notes: list[str]) -> list[Part]:
    """The cost of terrain (COT) of the Location entered: a narrow-street bypass (5.11), a stream (4.11,
    4.12) or the terrain; doubled when moving to a higher elevation (2.51 example; ASL B10.4)."""
    hexmap, chart = st.hexmap, st.chart
    stream_hex = STREAM in hexmap.features(st.b)
    if st.a_loc.culvert and not st.b_loc.culvert and (not stream_hex or st.b_loc.level or st.b_loc.bypass):
        raise _Refused(f"a unit in the culvert under {st.la} leaves it only into the adjacent stream or culvert, "
                       f"and {st.lb} is neither", "4.21")
    if st.b_loc.crest and not stream_hex:
        raise InvalidInput(f"{st.lb} is no stream hex: crest status (B20.9) is for stream hexes")
    if st.b_loc.culvert:
        cot = _culvert_entry(st, stream_depth)
    elif b_bypass is not None:
        e = chart.entry("narrow_street.bypass_mf")
        cot = [Part(e.value, f"bypass along the narrow street {hexmap.grid.side_label(b_bypass)}", e.rule, e.stand_in)]
        notes.append("the road-movement bonus is kept (5.11)")
    elif stream_hex:
        cot = _stream_cot(st, stream_depth, assault_move_possible, notes)
    else:
        cot = _terrain_cot(st, on_street, notes)
    if hexmap.elevation(st.b) > hexmap.elevation(st.a):
        e = chart.entry("elevation.higher_cot_multiplier")
        cot = [Part(p.value * e.value, f"{p.reason} x{mf_text(e.value)} (moving to a higher elevation)",
                    f"{p.rule}; {e.rule}", p.stand_in) for p in cot]
    return list(cot)


def _culvert_entry(st: _Step, depth: str | None) -> list[Part]:
    """4.21: Infantry enters a culvert as any stream, only from the adjacent stream or culvert, not while
    the stream is Flooded; Guns cannot (an Infantry manhandling one is refused by the caller)."""
    u, chart = st.unit, st.chart
    if CULVERT not in st.hexmap.features(st.b):
        raise InvalidInput(f"{st.lb} has no culvert (4.2)")
    if not u.infantry:
        raise _Refused(f"only Infantry may enter the culvert under {st.lb}, not a {u.kind}", "4.21")
    if not (st.a_loc.culvert or (STREAM in st.hexmap.features(st.a) and not st.a_loc.level)):
        raise _Refused(f"the culvert under {st.lb} is entered only from the adjacent stream or culvert, and {st.la} "
                       "is neither", "4.21")
    if depth is None:
        raise InvalidInput(f"the culvert under {st.lb} is entered as a stream: give stream_depth (dry, shallow ...) "
                           "(4.21, B20.4)")
    if depth == "flooded":
        raise _Refused(f"no unit enters the culvert under {st.lb} while the stream is Flooded", "4.21")
    e = chart.group("stream.depth_mf").get(depth)
    if e is None:
        raise NotCovered(f"no MF for a {depth} stream: its ASL B20.4 cost is not in the seed; the KGP chart gives "
                         f"{', '.join(chart.group('stream.depth_mf'))}")
    return [Part(e.value, f"{depth} stream, into the culvert (as any stream)", f"4.21; {e.rule}", e.stand_in)]


def _asl_hexsides(st: _Step) -> list[Part]:
    """Hexside features the ASL rules price (walls, hedges ...): the map's data."""
    hexmap, u = st.hexmap, st.unit
    drawn = hexmap.drawn_in(st.side)
    parts = []
    for f in sorted(st.feats - _KGP_SIDES):
        ht = hexmap.types["hexside"][f]
        c = ht.cost(u.cot_class, crossing_kind(ht, drawn, st.a, st.b, along_line=False))
        if c is None:
            raise _Refused(f"{ht.label} on {st.side_label} cannot be crossed", ASL_COT_RULE)
        if c:
            parts.append(Part(_frac(c), ht.label.lower(), ASL_COT_RULE, True))
    return parts


def _slope_mf(st: _Step, parts: list[Part], notes: list[str]) -> Fraction:
    """2.51: climbing a slope costs its MF (a road keeps the B3.4 bonus); going down costs nothing, and
    skis gain the ski bonus.  Returns the bonus MF."""
    hexmap, chart = st.hexmap, st.chart
    bonus = Fraction(0)
    slope_drawn = _slope_drawn_in(hexmap, st.side)
    if slope_drawn == st.a:
        e = chart.entry("slope.climb_mf")
        parts.append(Part(e.value, "climbing a slope", e.rule, e.stand_in))
        if ROAD in hexmap.lines_between(st.a, st.b):
            notes.append("crossing a slope along a road does not affect the B3.4 road bonus (2.51)")
    elif slope_drawn == st.b:
        notes.append("going down a slope costs nothing extra (2.51)")
        if st.unit.skis:
            bonus += chart.value("slope.ski_bonus_mf")
    return bonus


# --------------------------------------------------------------------------
# vehicles and barbed wire


def wire_drms(unit: UnitLike, chart: TerrainChart) -> BogDrms:
    """The DRMs of the extra Bog DR a vehicle makes to cross barbed wire (3.3; signs lost: see the chart)."""
    u = _unit(unit)
    if not u.vehicle:
        raise InvalidInput(f"barbed-wire Bog DRs are for vehicles, not a {u.kind} (3.3)")
    found: list[Part] = []
    if not u.fully_tracked:
        e = chart.entry("barbed_wire.bog_drm.not_fully_tracked")
        found.append(Part(e.value, "not fully tracked", e.rule, e.stand_in))
    if u.truck_mp:
        e = chart.entry("barbed_wire.bog_drm.truck_type_mp")
        found.append(Part(e.value, "expends truck-type MP", e.rule, e.stand_in))
    if chart.bog_combine == "max" and len(found) > 1:
        best = max(found, key=lambda p: p.value)
        found = [best]
        note = " (the larger only)"
    else:
        note = ""
    total = int(sum((p.value for p in found), Fraction(0)))
    stand_in = chart.entry("barbed_wire.bog_drm.not_fully_tracked").stand_in
    body = " ".join(p.text(sign=True) for p in found) if found else "no DRM (fully tracked, not truck-type MP)"
    why = f"barbed-wire Bog DRM {total:+d}: {body}{note}; the signs are lost in the seed (3.3)"
    return BogDrms(total, tuple(found), stand_in, "3.3", why)


def vehicle_entry(
    hexmap,
    unit: UnitLike,
    start: LocationLike,
    end: LocationLike,
    *,
    breaches: Iterable[str | HexSide] = (),
    chart: TerrainChart,
) -> VehicleEntry:
    """What KGP adds when a vehicle enters ``end`` from the adjacent ``start``: +1 MP to
    climb a slope (2.52), no crossing of crest-line slopes (2.53), barbed wire (3.3)."""
    u = _unit(unit)
    if not u.vehicle:
        raise InvalidInput(f"vehicle_entry is for vehicles; a {u.kind} expends MF: use mf_cost")
    a_loc, b_loc = _loc(start), _loc(end)
    a, b = hexmap.parse(a_loc.hex), hexmap.parse(b_loc.hex)
    la, lb = _label(hexmap, a), _label(hexmap, b)
    if distance(a, b) != 1:
        raise InvalidInput(f"{la} and {lb} are not adjacent: vehicle_entry prices one step")
    side = HexSide(a, b)
    sl = hexmap.grid.side_label(side)
    feats = set(hexmap.side_features(side))

    def refuse(reason: str, rule: str) -> VehicleEntry:
        return VehicleEntry(u.kind, la, lb, False, None, rule=rule, why=f"{la} -> {lb}: {reason} ({rule})")

    if b_loc.culvert:
        return refuse(f"5/8\" vehicles cannot enter the culvert under {lb}", "4.21")
    if CREST_SLOPE in feats:
        return refuse(f"vehicles cannot cross the crest-line slope {sl}", "2.53")
    if BARBED_WIRE in feats and u.kind == "motorcycle":
        return refuse(f"motorcycles (SdKfz 2 included) cannot cross the barbed wire on {sl}", "3.3")
    parts: list[Part] = []
    notes: list[str] = []
    bog = None
    if _slope_drawn_in(hexmap, side) == a:
        e = chart.entry("slope.climb_mp")
        parts.append(Part(e.value, "MP climbing a slope", e.rule, e.stand_in))
    if BARBED_WIRE in feats:
        bog = wire_drms(u, chart)
        notes.append("barbed wire costs no MP (3.3)")
        notes.append(f"an extra Bog DR ({bog.total:+d}) to enter {lb}; bogging leaves the vehicle in {lb}, and with "
                     f"another Bog there it is Mired (3.3)")
        if side in {_side(hexmap, s) for s in breaches}:
            notes.append("a Temporary Breach gives vehicles nothing (3.21)")
    total = sum((p.value for p in parts), Fraction(0))
    why = f"{la} -> {lb}: +{mf_text(total)} MP"
    if parts:
        why += " = " + " + ".join(p.text() for p in parts)
    why += " on top of the ASL COT in MP (not in the seed)"
    if notes:
        why += "; " + "; ".join(notes)
    return VehicleEntry(u.kind, la, lb, True, total, tuple(parts), bog is not None, bog, tuple(notes), None, why)


def temporary_breach(
    unit: UnitLike,
    *,
    in_entrenchment: bool = False,
    in_pillbox: bool = False,
    in_wire_location: bool = False,
    gully_bottom: bool = False,
    chart: TerrainChart,
) -> BreachAttempt:
    """Creating a Temporary Breach in one barbed-wire hexside during the MMC's MPh (3.21)."""
    u = _unit(unit)
    problems = []
    if u.kind not in MMC:
        problems.append(f"only an Infantry MMC may create a breach, not a {u.kind}")
    if u.status != "good_order":
        problems.append("the MMC must be Good Order and unpinned" if u.status == "pinned"
                        else f"the MMC must be Good Order, not {u.status}")
    if u.straying:
        problems.append("the MMC must be non-Straying")
    if in_entrenchment:
        problems.append("not from an entrenchment")
    if in_pillbox:
        problems.append("not from a pillbox")
    if in_wire_location:
        problems.append("not from a Wire Location")
    if gully_bottom:
        problems.append("at the ground level where the wire lies, not at a gully bottom")
    if problems:
        return BreachAttempt(False, None, False, False, "3.21", "no Temporary Breach: " + "; ".join(problems) + " (3.21)")
    e = chart.entry("barbed_wire.breach_create_mf")
    why = (f"Temporary Breach: {mf_text(e.value)} more MF ({e.rule}); the MMC faces the hexside and is marked TI; "
           f"a Concealment-loss activity (A12.141); it lasts while the MMC stays TI, Good Order and unpinned (3.21)")
    return BreachAttempt(True, e.value, True, True, "3.21", why)
