"""KGP narrow streets: which hex of a narrow-street hexside counts for Smoke, Residual FP and mines,
the minefields that attack a unit bypassing along it, and mines set up revealed (5.11, 5.13, 5.143).

* :func:`street_hexes`, :func:`bypass_minefields`, :func:`mines_must_be_revealed`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Mapping

from ...errors import InvalidInput
from ...geometry.hex import Hex, HexSide
from .terrain import LocationLike, _hex, _label, _side, _sides_of, _street


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
