"""The KGP RG charts: the Reinforcement Groups each side may buy (8.619, 8.6191-8.6197; stand-in data).

The data lives in ``games/kgp/charts/rg.yaml`` (a stand-in: the printed RG
charts are lost); every loader error names the file, the line and the key.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from typing import TYPE_CHECKING

from ...base.errors import InvalidInput
from .chart_reader import Reader
from .sides import SIDE_NAMES, SIDES

if TYPE_CHECKING:
    from ...kit.charts import Charts

CAMPAIGNS = ("cg-i", "cg-ii", "cg-iii")
RG_TYPES = ("infantry", "heavy_weapons", "vehicle", "gun", "oba", "bombardment", "air_support", "san",
            "preregistration")
_RG_ID = re.compile(r"^([A-Z]+)([0-9]+)$")


@dataclass(frozen=True)
class Rg:
    """One RG of a side's RG chart (8.6191-8.6197; stand-in values)."""

    side: str
    id: str
    name: str
    type: str
    cpp: int                                  # 8.6194 CPP cost
    units: tuple[str, ...]                    # Full Strength contents (8.6193)
    depleted: tuple[str, ...]                 # German Depleted contents (8.6193)
    cg_max: Mapping[str, int]                 # CG -> how many a CG (a CG not listed: not available)
    initial: bool                             # False: the lost CG-Max mark, not for the Initial Scenario (8.2)
    entry_codes: tuple[str, ...]              # US Entry Codes (8.6197)

    @property
    def objective_hex(self) -> bool:
        """8.2 Objective Hex: every RG whose ID begins with I or HW gets one."""
        return self.id.startswith(("I", "HW"))


@dataclass(frozen=True)
class RgChart:
    rgs: Mapping[str, tuple[Rg, ...]]
    stand_in: bool
    note: str
    path: str

    def get(self, side: str, rg_id: str) -> Rg:
        for rg in self.rgs.get(side, ()):
            if rg.id == rg_id:
                return rg
        raise InvalidInput(f"no RG {rg_id!r} for {SIDE_NAMES.get(side, side)} in the RG chart (charts/rg.yaml)", rule="8.6191")

    def available(self, side: str, cg: str, *, initial: bool = False) -> tuple[Rg, ...]:
        """The RGs ``side`` may buy in ``cg`` (for its Initial Scenario if ``initial``)."""
        return tuple(rg for rg in self.rgs[side] if cg in rg.cg_max and (rg.initial or not initial))


def load_rg_chart(charts: Charts, path: str | Path | None = None) -> RgChart:
    """The RG charts (the chart ``rg`` of ``charts``, stand-in), or another file of that shape."""
    return _load_rg(charts.chart_source("rg", path))



@cache
def _load_rg(src) -> RgChart:
    """Once per chart content."""
    path = src.file
    r = Reader(src.rt(), path)
    root = r.mapping(r.root, [], ("rule", "id_prefixes", *SIDES), ("stand_in", "note"))
    prefixes = root["id_prefixes"]
    if not isinstance(prefixes, dict) or not prefixes:
        raise r.error("expected a mapping of ID letters to RG types", ["id_prefixes"])
    for k, v in prefixes.items():
        r.str(v, ["id_prefixes", k], RG_TYPES)
    rgs: dict[str, tuple[Rg, ...]] = {}
    for side in SIDES:
        out, seen = [], set()
        for i, node in enumerate(r.seq(root[side], [side])):
            p = [side, i]
            optional = ("depleted", "initial", "note") + (("entry_codes",) if side == "us" else ())
            r.mapping(node, p, ("id", "name", "type", "cpp", "units", "cg_max"), optional)
            rid = r.str(node["id"], p + ["id"])
            m = _RG_ID.match(rid)
            if not m or m.group(1) not in prefixes:
                raise r.error(f"RG ID {rid!r} does not begin with a known kind ({', '.join(prefixes)})",
                              p + ["id"], rule="8.6191")
            if rid in seen:
                raise r.error(f"RG ID {rid!r} is given twice", p + ["id"], rule="8.6191")
            seen.add(rid)
            kind = r.str(node["type"], p + ["type"], RG_TYPES)
            if kind != prefixes[m.group(1)]:
                raise r.error(f"an RG whose ID begins with {m.group(1)} is of type {prefixes[m.group(1)]}, not {kind}",
                              p + ["type"], rule="8.6191")
            cg_max = r.mapping(node["cg_max"], p + ["cg_max"], (), CAMPAIGNS)
            if not cg_max:
                raise r.error("an RG must be available in at least one CG", p + ["cg_max"])
            out.append(Rg(
                side=side, id=rid, name=r.str(node["name"], p + ["name"]), type=kind,
                cpp=r.int(node["cpp"], p + ["cpp"], 1),
                units=tuple(r.str(u, p + ["units", j]) for j, u in enumerate(r.seq(node["units"], p + ["units"]))),
                depleted=tuple(r.str(u, p + ["depleted", j])
                               for j, u in enumerate(r.seq(node.get("depleted", []), p + ["depleted"], empty=True))),
                cg_max={k: r.int(v, p + ["cg_max", k], 1) for k, v in cg_max.items()},
                initial=r.bool(node.get("initial", True), p + ["initial"]),
                entry_codes=tuple(r.str(c, p + ["entry_codes", j]) for j, c in
                                  enumerate(r.seq(node.get("entry_codes", []), p + ["entry_codes"], empty=True))),
            ))
            if side == "us" and not out[-1].entry_codes:
                raise r.error("a US RG needs its Entry Codes", p + ["entry_codes"], code="E111", rule="8.6197")
        rgs[side] = tuple(out)
    return RgChart(rgs, bool(root.get("stand_in", False)), str(root.get("note", "")), path)
