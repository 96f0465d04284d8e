"""KGP narrow streets: which hex of a narrow-street hexside counts for Smoke, Residual FP and mines,
the minefields that attack a unit bypassing along it, mines set up revealed (5.11, 5.13, 5.143), and
vehicles on a narrow street: VBM at half cost with its VCA changes (5.11), the 180-degree turn of a
motorcycle or a Very Small vehicle, and the TCA-change dr (5.12).

* :func:`street_hexes`, :func:`bypass_minefields`, :func:`mines_must_be_revealed`;
* :func:`vehicle_bypass` (``hxref kgp mf --unit vehicle --bypass``), :func:`turn_around`
  (``hxref kgp turn``), :func:`tca_change` (``hxref kgp turret``).

Readings (games/kgp/readings.md; tests: tests/kgp/test_village_terrain.py and games/kgp/cases/village_terrain.yaml):

* normal VBM (ASL D2.3, not in the seed) is a chart stand-in of 2 MP; along a narrow street the
  vehicle pays half of it (5.11) and 1 MP more for each VCA change (D2.33), which is not halved;
* the 5.12 drm list's "1" for a "*" barrel is read as -1 (the seed loses minus signs); the stray
  "3" that heads the list is the final-dr limit;
* a turret change that keeps the TCA within the VCA needs no dr: 5.12 asks one only to point the
  MA outside the VCA.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Mapping

from fractions import Fraction

from ...base.errors import InvalidInput
from ...geometry.hex import Hex, HexSide
from .terrain import (LocationLike, Part, TerrainChart, UnitLike, _frac, _hex, _label, _side, _sides_of,
                      _street, _unit, mf_text)


@dataclass(frozen=True)
class StreetHexes:
    """The hexes of a narrow-street hexside whose Smoke, Residual FP or mines count (5.11, 5.13, 5.143)."""

    hexside: str
    hexes: tuple[str, ...]
    crest: bool
    paved: bool
    rule: str
    why: str


@dataclass(frozen=True)
class MinefieldAttacks:
    """The minefields that attack a unit bypassing along a narrow street (5.143)."""

    hexside: str
    attacks: tuple[tuple[str, str, int], ...]      # (hex, type, FP)
    rule: str
    why: str


@dataclass(frozen=True)
class MineReveal:
    """Whether mines in a hex must be set up revealed (5.143)."""

    hex: str
    required: bool
    rule: str
    why: str



def _order(hexmap, hexes: Iterable[Hex]) -> list[Hex]:
    return sorted(hexes, key=hexmap.grid.labels.to_offset)


def street_hexes(hexmap, hexside: str | HexSide) -> StreetHexes:
    """The hexes of a narrow-street hexside whose Smoke (5.11), Smoke or Residual FP (5.13) and
    mines (5.143) affect units bypassing along it: both, or only the lower when it is a crest line.
    A unit bypassing along a crest-line street is in the lower hex (5.11)."""
    s = _side(hexmap, hexside)
    sl = hexmap.grid.side_label(s)
    paved = _street(hexmap, s)
    if paved is None:
        raise InvalidInput(f"{sl} is not a narrow street (5.1)")
    x, y = _order(hexmap, s.hexes)
    ex, ey = hexmap.elevation(x), hexmap.elevation(y)
    if ex != ey:
        low = x if ex < ey else y
        return StreetHexes(sl, (_label(hexmap, low),), True, paved, "5.11; 5.13; 5.143",
                           f"{sl} is also a crest-line hexside: only the lower hex {_label(hexmap, low)} counts "
                           f"(5.11, 5.13, 5.143)")
    return StreetHexes(sl, (_label(hexmap, x), _label(hexmap, y)), False, paved, "5.11; 5.13; 5.143",
                       f"{sl}: both hexes count (5.11, 5.13, 5.143)")


def bypass_minefields(hexmap, hexside: str | HexSide,
                      mines: Mapping[str, Collection[tuple[str, int]]]) -> MinefieldAttacks:
    """The minefields that attack a unit bypassing along a narrow street (5.143).

    ``mines``: hex label -> [(type, FP)], type ``A-P`` or ``A-T``.  Mines in
    either hex attack (both types if there are both); of one type, only the
    higher FP; on a crest line only the lower hex's mines.
    """
    sh = street_hexes(hexmap, hexside)
    want = {hexmap.label(hexmap.parse(h)) for h in sh.hexes}
    best: dict[str, tuple[str, str, int]] = {}
    for raw, fields in mines.items():
        lab = hexmap.label(hexmap.parse(raw))
        if lab not in want:
            continue
        for kind, fp in fields:
            if kind not in ("A-P", "A-T"):
                raise InvalidInput(f"minefield type {kind!r} in {lab}: use A-P or A-T")
            if kind not in best or int(fp) > best[kind][2]:
                best[kind] = (lab, kind, int(fp))
    order = {lab: i for i, lab in enumerate(sh.hexes)}
    attacks = tuple(sorted(best.values(), key=lambda t: (order[t[0]], t[1])))
    if attacks:
        body = ", ".join(f"{fp} FP {kind} in {lab}" for lab, kind, fp in attacks)
        why = f"bypass along {sh.hexside}: attacked by {body} (5.143)"
    else:
        why = f"bypass along {sh.hexside}: no minefield attacks (5.143)"
    if sh.crest:
        why += "; a crest line: only the lower hex's mines"
    return MinefieldAttacks(sh.hexside, attacks, "5.143", why)


def mines_must_be_revealed(hexmap, hex: LocationLike) -> MineReveal:
    """Must mines in ``hex`` be set up revealed (type and FP shown)?  Yes when the hex has a paved
    narrow-street hexside, unless all its narrow-street hexsides are crest lines down to a lower level (5.143)."""
    h = _hex(hexmap, hex)
    lab = _label(hexmap, h)
    streets = [(s, _street(hexmap, s)) for _, s in _sides_of(hexmap, h) if _street(hexmap, s) is not None]
    paved = [s for s, p in streets if p]
    if not paved:
        why = (f"{lab} has no paved narrow-street hexside: its mines may be set up hidden (HIP) (5.143)" if streets
               else f"{lab} has no narrow-street hexside (5.143)")
        return MineReveal(lab, False, "5.143", why)
    if all(hexmap.elevation(s.other(h)) < hexmap.elevation(h) for s, _ in streets):
        return MineReveal(lab, False, "5.143", f"{lab}: every narrow-street hexside is a crest line down to a lower "
                                               f"level: the mines need not be revealed (5.143)")
    return MineReveal(lab, True, "5.143", f"{lab} has the paved narrow street {hexmap.grid.side_label(paved[0])}: its "
                                          f"mines are set up revealed and cannot be cleared per B28.53 (5.143)")


# --------------------------------------------------------------------------
# vehicles on a narrow street (5.11, 5.12)


@dataclass(frozen=True)
class StreetMove:
    """The MP of a vehicle entering a hex bypassing along a narrow street (5.11)."""

    unit: str
    start: str
    end: str
    hexside: str
    total: Fraction
    parts: tuple[Part, ...]
    rule: str = "5.11"
    why: str = ""


@dataclass(frozen=True)
class TurnAround:
    """A vehicle turning its VCA 180 degrees on a narrow street (5.12)."""

    unit: str
    hexside: str
    legal: bool
    mp: Fraction | None
    rule: str = "5.12"
    why: str = ""


@dataclass(frozen=True)
class TcaChange:
    """A vehicle's TCA change on a narrow street (5.12): whether a dr is needed, its drm and limit."""

    hexside: str
    dr_needed: bool
    drm: int
    parts: tuple[Part, ...]
    target: int
    highest_dr: int | None
    tries: int
    failed_mp: int
    dr: int | None
    passed: bool | None
    stand_in: bool
    rule: str = "5.12"
    why: str = ""


def _narrow(hexmap, hexside: str | HexSide, rule: str) -> tuple[HexSide, str]:
    s = _side(hexmap, hexside)
    sl = hexmap.grid.side_label(s)
    if _street(hexmap, s) is None:
        raise InvalidInput(f"{sl} is not a narrow street (5.1): {rule} is a narrow-street rule", rule=rule)
    return s, sl


def vehicle_bypass(hexmap, unit: UnitLike, start: LocationLike, end: LocationLike, hexside: str | HexSide,
                   vca_changes: int = 0, *, chart: TerrainChart) -> StreetMove:
    """5.11: a vehicle entering ``end`` bypassing along the narrow street ``hexside`` pays half the MP of
    normal bypass, and 1 MP for each VCA change (D2.33), which is not halved."""
    u = _unit(unit)
    if not u.vehicle:
        raise InvalidInput(f"a {u.kind} is no vehicle: VBM is for vehicles (5.11)")
    if vca_changes < 0:
        raise InvalidInput("--vca-changes: a number of VCA changes is 0 or more")
    s, sl = _narrow(hexmap, hexside, "5.11")
    a, b = _hex(hexmap, start), _hex(hexmap, end)
    if b not in s.hexes:
        raise InvalidInput(f"{sl} is not a hexside of {_label(hexmap, b)}: a vehicle bypasses along a hexside of "
                           f"the hex it enters (5.11)")
    base, half = chart.entry("vehicle_street.bypass_mp"), chart.entry("vehicle_street.bypass_factor")
    parts = [Part(base.value * half.value, f"VBM along the narrow street {sl}: {mf_text(half.value)} of the normal "
                  f"{mf_text(base.value)} MP", base.rule, base.stand_in or half.stand_in)]
    if vca_changes:
        e = chart.entry("vehicle_street.vca_change_mp")
        parts.append(Part(e.value * vca_changes, f"{vca_changes} VCA change{'s' if vca_changes > 1 else ''} (D2.33), "
                          "not halved", e.rule, e.stand_in))
    total = sum((p.value for p in parts), Fraction(0))
    la, lb = _label(hexmap, a), _label(hexmap, b)
    why = f"{la} -> {lb}: {mf_text(total)} MP = " + " + ".join(p.text() for p in parts)
    return StreetMove(u.kind, la, lb, sl, total, tuple(parts), "5.11", why)


def turn_around(hexmap, unit: UnitLike, hexside: str | HexSide, printed_mp: int | str | Fraction,
                very_small: bool = False, *, chart: TerrainChart) -> TurnAround:
    """5.12: on a narrow street a motorcycle turns its VCA 180 degrees for 1/4 of its printed MP, a Very
    Small target vehicle for 1/2; no other vehicle may change its VCA there (D2.33 aside)."""
    u = _unit(unit)
    if not u.vehicle:
        raise InvalidInput(f"a {u.kind} has no VCA: --unit vehicle or motorcycle (5.12)")
    _, sl = _narrow(hexmap, hexside, "5.12")
    mp = _frac(printed_mp)
    if mp <= 0:
        raise InvalidInput(f"--printed-mp {printed_mp}: a vehicle's printed MP is more than 0")
    if u.kind == "motorcycle":
        e, who = chart.entry("vehicle_street.turn_motorcycle"), "a motorcycle"
    elif very_small:
        e, who = chart.entry("vehicle_street.turn_very_small"), "a Very Small target vehicle (D1.75)"
    else:
        return TurnAround(u.kind, sl, False, None, "5.12",
                          f"on the narrow street {sl} a vehicle other than a motorcycle or a Very Small target "
                          "vehicle cannot change its VCA (except per D2.33), nor in a maneuver attempt (D2.401) (5.12)")
    cost = mp * e.value
    return TurnAround(u.kind, sl, True, cost, e.rule, f"{who} turns its VCA 180 degrees on the narrow street {sl} for "
                      f"{mf_text(e.value)} of its printed {mf_text(mp)} MP: {mf_text(cost)} MP ({e.rule})")


BARRELS = ("normal", "L", "LL", "*")


def tca_change(hexmap, hexside: str | HexSide, ma_mm: int, *, outside_vca: bool = True, barrel: str = "normal",
               buttoned_up: bool = False, armor_leader: int = 0, dr: int | None = None,
               chart: TerrainChart) -> TcaChange:
    """5.12: a vehicle on a narrow street with an MA of 50mm or more that points its TCA outside its VCA
    first needs a final TCA-change dr of 3 or less: +2 LL, +1 L, -1 "*" barrel, +1 BU, the Armor
    Leader's modifier; at most two tries per phase, each failed try in the MPh costing 2 MP."""
    _, sl = _narrow(hexmap, hexside, "5.12")
    if barrel not in BARRELS:
        raise InvalidInput(f"--barrel {barrel}: use one of {', '.join(BARRELS)}")
    if dr is not None and not 1 <= dr <= 6:
        raise InvalidInput(f"--dr {dr}: a dr is 1 to 6")
    g = chart.entry
    target, tries, failed = g("vehicle_street.tca_target"), g("vehicle_street.tca_tries"), g("vehicle_street.tca_failed_mp")
    floor = g("vehicle_street.tca_min_mm")
    if ma_mm < floor.value or not outside_vca:
        why = (f"an MA under {mf_text(floor.value)}mm" if ma_mm < floor.value
               else "the TCA stays within the VCA")
        return TcaChange(sl, False, 0, (), int(target.value), None, int(tries.value), int(failed.value), None,
                         None, False, "5.12", f"{why}: no TCA-change dr on the narrow street {sl} (5.12)")
    parts: list[Part] = []
    for on, key, reason in ((barrel == "LL", "tca_drm_ll", "LL barrel"), (barrel == "L", "tca_drm_l", "L barrel"),
                            (barrel == "*", "tca_drm_star", '"*" barrel'), (buttoned_up, "tca_drm_bu", "BU")):
        if on:
            e = g(f"vehicle_street.{key}")
            parts.append(Part(e.value, reason, e.rule, e.stand_in))
    if armor_leader:
        parts.append(Part(Fraction(armor_leader), "Armor Leader", "5.12"))
    drm = int(sum((p.value for p in parts), Fraction(0)))
    highest = int(target.value) - drm
    highest_dr = max(0, min(6, highest))
    passed = None if dr is None else dr + drm <= target.value
    body = ", ".join(p.text(sign=True) for p in parts) or "no drm"
    why = (f"to point its MA outside its VCA on the narrow street {sl}: a TCA-change dr, final {mf_text(target.value)} "
           f"or less ({body}): a dr of {highest_dr} or less" if highest_dr else
           f"to point its MA outside its VCA on the narrow street {sl}: a final dr of {mf_text(target.value)} or less "
           f"is impossible with drm {drm:+d}")
    why += f"; at most {mf_text(tries.value)} tries per phase; each failed try in the MPh costs {mf_text(failed.value)} MP"
    if dr is not None:
        why += f"; dr {dr} {drm:+d} = {dr + drm}: {'passed' if passed else 'failed'}"
    why += " (5.12)"
    stand = any(p.stand_in for p in parts)
    return TcaChange(sl, True, drm, tuple(parts), int(target.value), highest_dr, int(tries.value), int(failed.value),
                     dr, passed, stand, "5.12", why)

