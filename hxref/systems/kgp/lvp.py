"""KGP Location Victory Points: Current LVP Totals, CG-LVP Totals and LVP hexes (8.2 LVP; 8.603; 8.52).

Readings chosen where the digest is ambiguous (README, "Rules interpretations"),
pinned by ``tests/kgp/test_campaign.py``:

* 8.603: an Idle Date adds nothing to the CG-LVP Total (8.603 is not one of
  the "*" steps repeated on Idle Dates, and no scenario ends).
* 8.2 LVP: a rubbled hex of an LVP building is one rubble Location (the
  Sanatorium: 10 Locations, 2 ground levels rubbled -> 8).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...errors import InvalidInput
from .campaign import Campaign


@dataclass(frozen=True)
class LvpSite:
    """An LVP building, bridge or other LVP terrain: ``value`` VP per playable Location (8.2 LVP).

    ``hexes`` gives, for each hex, its existing non-rooftop, non-cellar
    Locations.  A rubbled hex is one rubble Location that keeps the value
    (8.2 EXC); rubble that Falling Rubble puts in another hex is not part of
    the site and has no value.
    """

    id: str
    value: int
    hexes: Mapping[str, int]
    name: str = ""

    def locations(self, rubbled: Iterable[str] = ()) -> int:
        gone = set(rubbled)
        return sum(1 if h in gone else n for h, n in self.hexes.items())

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})" if self.name else self.id


@dataclass(frozen=True)
class LvpTotal:
    total: int
    lines: tuple[str, ...]
    rule: str = "8.2"

    @property
    def why(self) -> str:
        return "; ".join(self.lines) + f": {self.total} LVP [{self.rule}]"


def lv_total(sites: Iterable[LvpSite], *, controlled: Mapping[str, int] | None = None,
             rubbled: Iterable[str] = ()) -> LvpTotal:
    """A Current LVP Total (8.2): value x Locations of each site, or of its ``controlled`` Locations.

    ``controlled`` maps a site id to how many of its Locations the side
    controls; without it every Location of every site counts.
    """
    rubbled = set(rubbled)
    sites = list(sites)
    known = {s.id for s in sites}
    for sid in controlled or {}:
        if sid not in known:
            raise InvalidInput(f"no LVP site {sid!r}", path=f"controlled.{sid}", rule="8.2")
    total, lines = 0, []
    for s in sites:
        n = s.locations(rubbled)
        k = n if controlled is None else controlled.get(s.id, 0)
        if not 0 <= k <= n:
            raise InvalidInput(f"{s.label} has {n} Locations; {k} cannot be controlled", path=f"controlled.{s.id}",
                               rule="8.2")
        if controlled is not None and s.id not in controlled:
            continue
        hit = sorted(h for h in s.hexes if h in rubbled)
        held = f"{k} Locations" if k == n else f"{k} of {n} Locations"
        note = f" ({len(hit)} hexes rubbled: {', '.join(hit)})" if hit else ""
        lines.append(f"{s.label}: {held} x {s.value} = {k * s.value}{note}")
        total += k * s.value
    return LvpTotal(total, tuple(lines))


def cg_lv(currents: Iterable[int | None], *, start: int = 0) -> tuple[int, ...]:
    """The CG-LVP Total after each CG Date (8.603): ``start`` plus each Current LVP Total.

    ``None`` marks an Idle Date, which adds nothing (reading: 8.603 runs only
    after a scenario).  ``cg_lv([10, 15, 12]) == (10, 25, 37)``.
    """
    out, total = [], start
    for cur in currents:
        if cur is not None:
            if cur < 0:
                raise InvalidInput(f"a Current LVP Total cannot be {cur}", rule="8.603")
            total += cur
        out.append(total)
    return tuple(out)


def lvp_hexes(cg: Campaign, hexes: Iterable[str]) -> int:
    """LVP hexes controlled, each weighted as the CG's victory data says (CG-II: the NN6 bridge = 5; 8.52)."""
    weights: dict[str, int] = {}
    for c in cg.victory.conditions:
        if c.test == "lvp_hexes_at_least":
            weights.update(c.weights)
    return sum(weights.get(h, 1) for h in {cg.hex(h) for h in hexes})
