"""What a hillside wall or hedge gives the unit beside it: height, TEM and Wall Advantage (6.3).

6.3 says, of a hillside wall or hedge (6.1: a wall or hedge between two hexes of different
base level):

* it always stands at the **higher** of the two base levels on either side of it;
* for the TEM of a target **at or above** that level it counts as a normal wall or hedge;
* a unit at a **lower** level gets no benefit from that hexside, Wall Advantage (B9.32)
  included;
* a unit in **crest status** may claim Wall Advantage over it only if its hex is at the same
  elevation as the wall and it is in crest status on the side of the gully hex where the wall is.

What a normal wall or hedge gives (its TEM, B9.3; Wall Advantage, B9.32) and crest status itself
(B20.91) are ASL rules the seed does not carry: where the answer needs them, :func:`benefit`
raises :class:`.terrain.NotCovered` naming them, as the other calculators do, instead of
answering.  The crest-status side of the gully is the player's to state (``crest``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...base.errors import InvalidInput
from .sight import HILLSIDE_WALLS, hillside_check
from .terrain import NotCovered, mf_text


@dataclass(frozen=True)
class WallBenefit:
    """The answer for one unit beside one hillside wall or hedge."""

    hexside: str
    kind: str                       # hillside_wall or hillside_hedge
    height: Fraction                # the higher base level (6.3)
    unit_hex: str
    unit_level: Fraction            # base level plus building level
    benefit: bool                   # any benefit from the hexside (TEM as a normal wall)
    wall_advantage: bool | None     # None: not asked (no crest status), ASL B9.32 decides
    why: str
    rule: str = "6.3"


def benefit(hexmap, side_text: str, unit_hex: str, building_level: int = 0, *, crest: bool = False) -> WallBenefit:
    """6.3 for the unit in ``unit_hex`` (at ``building_level``) beside the hillside wall or hedge on
    ``side_text``; ``crest``: the unit is in crest status on the wall's side of the gully hex."""
    side = hexmap.grid.parse_hexside(side_text)
    label = hexmap.grid.side_label(side)
    kinds = [f for f in hexmap.side_features(side) if f in HILLSIDE_WALLS]
    if not kinds:
        raise InvalidInput(f"hexside {label}: no hillside wall or hedge here (6.1)", rule="6.1")
    hillside_check(hexmap, side)
    h = hexmap.parse(unit_hex)
    if h not in side.hexes:
        raise InvalidInput(f"{hexmap.label(h)} is not one of the two hexes of {label}: the unit is beside the wall",
                           rule="6.3")
    a, b = side.hexes
    height = Fraction(max(hexmap.elevation(a), hexmap.elevation(b))).limit_denominator(4)
    base = Fraction(hexmap.elevation(h)).limit_denominator(4)
    level = base + building_level
    what = kinds[0].replace("_", " ")
    if level < height:
        return WallBenefit(label, kinds[0], height, hexmap.label(h), level, False, False,
                           f"the unit at level {mf_text(level)} is lower than the {what} (level {mf_text(height)}): "
                           "no benefit from this hexside, Wall Advantage included")
    if crest:
        same = base == height
        why = (f"the unit's hex and the {what} are both at level {mf_text(height)}, and it is in crest status "
               "on the wall's side of the gully: it may claim Wall Advantage" if same else
               f"the unit's hex is at level {mf_text(base)}, the {what} at {mf_text(height)}: in crest status it "
               "may claim Wall Advantage only at the same elevation")
        return WallBenefit(label, kinds[0], height, hexmap.label(h), level, True, same,
                           why + f"; for its TEM the {what} counts as a normal wall/hedge (ASL B9.3, not in the seed)")
    raise NotCovered(f"{label}: the unit at level {mf_text(level)} is at or above the {what} (level "
                     f"{mf_text(height)}), which then counts as a normal wall/hedge (6.3): its TEM and Wall "
                     "Advantage are ASL B9.3 and B9.32, not in the seed", rule="6.3; B9.3")
