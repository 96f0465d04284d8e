"""The KGP Campaign Games as data: the three CG files and their loader (8.51-8.53).

A CG (``games/kgp/campaigns/cg-*.yaml``) gives its CG Dates (8.2), Attack
Chit limits, Entry Areas (SSR CG6), CG Victory Conditions and its Initial
Scenario (8.5: OB, set-up, its own Victory Conditions); every loader error
names the file, the line and the key.  Victory conditions are data: each has
a ``test`` of :data:`TESTS`, evaluated in :mod:`.victory`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...base.errors import InvalidInput
from .cg_calendar import CGDate, date_range, parse_date
from .chart_reader import SOURCES, Reader, kind
from .rg_chart import CAMPAIGNS, RgChart, _load_rg
from .sides import SIDES

if TYPE_CHECKING:
    from ...kit.charts import Charts

WHEN = ("immediate", "scenario_end", "cg_end", "initial_end")
TESTS = {   # victory test -> the keys it needs besides id/side/when/test/rule/text
    "cg_lvp_at_least": {"value"},
    "current_lvp_at_least": {"value"},
    "cvp_at_least": {"value"},
    "cvp_margin_at_least": {"value"},
    "lvp_hexes_at_least": {"value"},
    "control_buildings": {"buildings"},
    "control_hexes": {"hexes"},
    "all_lvp_locations": set(),
    "bridge_destroyed_by": {"by"},
}
_HEX = re.compile(r"^(St|Ch|Lg)?([A-Z]{1,2}[0-9]{1,2})$")


@dataclass(frozen=True)
class EntryArea:
    """SSR CG6: an arrow hex and the 4 hexes each side of it, with its Holding Box."""

    centre: str
    name: str | None
    sides: tuple[str, ...]
    colour: str
    eligible_from: CGDate                   # the arrow's CG Date (SSR CG6c)
    vehicles: bool = True                   # False: the Railroad-Bridge Entry Area
    stand_in: bool = False
    note: str = ""


@dataclass(frozen=True)
class Building:
    id: str
    hex: str | None
    name: str
    also: tuple[str, ...] = ()
    stand_in: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n in (self.id, self.hex, *self.also) if n)


@dataclass(frozen=True)
class Condition:
    """One victory condition as data (8.51-8.53)."""

    id: str
    side: str
    when: str                               # immediate | scenario_end | cg_end | initial_end
    test: str                               # a key of TESTS
    rule: str
    text: str
    value: int | None = None
    weights: Mapping[str, int] = field(default_factory=dict)
    hexes: tuple[str, ...] = ()
    buildings: tuple[Building, ...] = ()
    by: str | None = None
    hex: str | None = None


@dataclass(frozen=True)
class VictoryRules:
    rule: str
    conditions: tuple[Condition, ...]
    otherwise: str                          # the side that wins when no condition is met
    otherwise_source: str


@dataclass(frozen=True)
class ObItem:
    """One line of an Initial OB: an RG, a unit or a fortification."""

    kind: str                               # rg | unit | fortification
    ref: str
    name: str
    count: int
    stand_in: bool = False
    note: str = ""

    @property
    def rg(self) -> str | None:
        return self.ref if self.kind == "rg" else None


@dataclass(frozen=True)
class InitialSide:
    elr: int
    san: int
    cpp: int
    fpp: int
    fpp_stand_in: bool
    setup: str
    ob: tuple[ObItem, ...]


@dataclass(frozen=True)
class InitialScenario:
    date: CGDate
    sets_up_first: str
    moves_first: str
    mist: str
    victory: VictoryRules
    sides: Mapping[str, InitialSide]
    ssr: tuple[tuple[str, str, bool], ...]  # (id, text, applies to the whole CG)


@dataclass(frozen=True)
class Campaign:
    """One KGP CG as loaded from ``games/kgp/campaigns/<id>.yaml``."""

    id: str
    title: str
    rule: str
    map_group: str
    map_sections: int
    lvp_total: int
    year: int
    month: int
    dates: tuple[CGDate, ...]
    attack_chits: Mapping[str, int]
    quotas: Mapping[str, Any]
    entry_areas: tuple[EntryArea, ...]
    victory: VictoryRules
    initial: InitialScenario
    path: str
    hq_hex: str | None = None               # 8.2 Isolated: the Lg "HQ hex" (map data; lost)
    cpp_replenishment: Mapping[str, int] = field(default_factory=dict)   # 8.616: most CPP a side gets a date
    weather: Mapping[str, str] = field(default_factory=dict)             # CG3: the historical weather a CG Date

    def date(self, label: "str | CGDate") -> CGDate:
        """``label`` as one of this CG's dates; refused otherwise (8.5x)."""
        d = parse_date(label)
        if d not in self.dates:
            raise InvalidInput(f"{d.label} is not a CG Date of {self.id.upper()} ({self.dates[0]}-{self.dates[-1]})",
                               rule=self.rule)
        return d

    def next_date(self, label: "str | CGDate") -> CGDate | None:
        """The CG Date after ``label``, or None after the last one (8.2 CG End)."""
        d = self.date(label)
        i = self.dates.index(d)
        return self.dates[i + 1] if i + 1 < len(self.dates) else None

    def is_last(self, label: "str | CGDate") -> bool:
        return self.date(label) == self.dates[-1]

    def hex(self, label: str) -> str:
        """A hex with this map group's prefix: ``"NN6"`` -> ``"ChNN6"`` (0.3)."""
        m = _HEX.match(label) if isinstance(label, str) else None
        if not m or (m.group(1) and m.group(1) != self.map_group):
            raise InvalidInput(f"{label!r} is not a hex of the {self.map_group} map group", rule="0.3")
        return self.map_group + m.group(2)

    def eligible(self, area: EntryArea, side: str, date: "str | CGDate", *, controls_centre: bool = True) -> bool:
        """SSR CG6c: the area bears the side's symbol and its date has come; Germans must control the centre."""
        ok = side in area.sides and self.date(date) >= area.eligible_from
        return ok and (controls_centre or side == "us")


def load_campaign(charts: Charts, name: str | Path, *, rg_chart: RgChart | None = None) -> Campaign:
    """A CG by name (``"cg-ii"``: the file of ``charts``, a game's pinned copy or today's) or by
    path; Initial-OB RGs are checked against ``rg_chart`` (default: the chart ``rg`` of ``charts``)."""
    s = str(name)
    if s in CAMPAIGNS:
        src = charts.source(f"campaigns/{s}.yaml")
    elif s.endswith((".yaml", ".yml")) or "/" in s or "\\" in s:
        src = charts.file(s)
    else:
        raise InvalidInput(f"unknown KGP campaign {s!r}", code="E503", hint=f"one of {', '.join(CAMPAIGNS)}")
    return _load_campaign(src, charts.chart_source("rg", rg_chart.path if rg_chart else None))


def campaigns(charts: Charts) -> dict[str, Campaign]:
    """The three CGs of ``charts``."""
    return {name: load_campaign(charts, name) for name in CAMPAIGNS}


@cache
def _load_campaign(src, chart_src) -> Campaign:
    """Once per content of the campaign file and of the RG chart."""
    chart = _load_rg(chart_src)
    path = src.file
    r = Reader(src.rt(), path)
    top = ("cg", "title", "rule", "map_group", "map_sections", "lvp_total", "year", "month", "dates", "date_count",
           "attack_chits", "entry_areas", "victory", "initial")
    root = r.mapping(r.root, [], top, ("quotas", "hq_hex", "stand_in", "note", "cpp_replenishment", "weather",
                                          "setup"))   # setup: read by setup_rules.py
    cg = r.str(root["cg"], ["cg"], CAMPAIGNS)
    rule = r.str(root["rule"], ["rule"])
    group = r.str(root["map_group"], ["map_group"], ("St", "Ch", "Lg"))
    lvp_total = r.int(root["lvp_total"], ["lvp_total"], 1)
    dates = tuple(r.date(d, ["dates", i]) for i, d in enumerate(r.seq(root["dates"], ["dates"])))
    expected = date_range(dates[0], dates[-1])
    if dates != expected:
        i = next((k for k, (a, b) in enumerate(zip(dates, expected)) if a != b), min(len(dates), len(expected)))
        want = f"{expected[i]} comes after {dates[i - 1]}" if 0 < i < len(expected) else "the dates run forward"
        raise r.error(f"the CG Dates follow the calendar AM, PM, N: {want}", ["dates", min(i, len(dates) - 1)],
                      rule="8.2")
    count = r.int(root["date_count"], ["date_count"], 1)
    if count != len(dates):
        raise r.error(f"{len(dates)} dates are listed but date_count is {count}", ["date_count"], rule=rule)
    # a partial Campaign: enough for the hex and date checks of the sections below
    probe = Campaign(cg, "", rule, group, 1, lvp_total, 1944, 12, dates, {}, {}, (), None, None, path)  # type: ignore
    quotas = dict(r.mapping(root.get("quotas", {}), ["quotas"], (), ("fanaticism", "snipers", "self_rally",
                                                                      "oba_modules")))
    for k, v in quotas.items():
        if k == "fanaticism":
            r.mapping(v, ["quotas", k], (), SIDES)
            quotas[k] = {s: r.int(n, ["quotas", k, s]) for s, n in v.items()}
        else:
            quotas[k] = r.int(v, ["quotas", k])
    hq = r.mapping(root.get("hq_hex", {"hex": None}), ["hq_hex"], ("hex",), ("stand_in", "note"))
    rep = r.mapping(root.get("cpp_replenishment", {"max": {}}), ["cpp_replenishment"], ("max",),
                    ("stand_in", "note"))
    rep_max = {s: r.int(n, ["cpp_replenishment", "max", s], 0)
               for s, n in r.mapping(rep["max"], ["cpp_replenishment", "max"], (), SIDES).items()}
    return Campaign(
        id=cg, title=r.str(root["title"], ["title"]), rule=rule, map_group=group,
        map_sections=r.int(root["map_sections"], ["map_sections"], 1), lvp_total=lvp_total,
        year=r.int(root["year"], ["year"], 1900), month=r.int(root["month"], ["month"], 1), dates=dates,
        attack_chits=r.sides(root["attack_chits"], ["attack_chits"]),
        quotas=quotas,
        entry_areas=_entry_areas(r, root["entry_areas"], probe),
        victory=_victory(r, root["victory"], ["victory"], probe, initial=False),
        initial=_initial(r, root["initial"], probe, chart),
        path=path,
        hq_hex=None if hq["hex"] is None else _hex(r, hq["hex"], ["hq_hex", "hex"], probe),
        cpp_replenishment=rep_max,
        weather=_weather(r, root.get("weather"), probe),
    )


def _weather(r: Reader, node: Any, cg: Campaign) -> dict[str, str]:
    """CG3: the historical weather of each CG Date (every date, none other)."""
    if node is None:
        return {}
    r.mapping(node, ["weather"], ("historical",), ("stand_in", "note"))
    table = r.mapping(node["historical"], ["weather", "historical"], (), [d.label for d in cg.dates])
    out = {_in_cg(r, k, ["weather", "historical", k], cg).label: r.str(v, ["weather", "historical", k])
           for k, v in table.items()}
    missing = [d.label for d in cg.dates if d.label not in out]
    if missing:
        raise r.error(f"no historical weather for {', '.join(missing)}", ["weather", "historical"], rule="CG3")
    return out


def _hex(r: Reader, node: Any, path: list, cg: Campaign) -> str:
    try:
        return cg.hex(r.str(node, path))
    except InvalidInput as exc:
        raise r.error(exc.message, path, rule=exc.rule) from None


def _in_cg(r: Reader, node: Any, path: list, cg: Campaign) -> CGDate:
    d = r.date(node, path)
    if d not in cg.dates:
        raise r.error(f"{d} is not a CG Date of this CG ({cg.dates[0]}-{cg.dates[-1]})", path, rule=cg.rule)
    return d


def _entry_areas(r: Reader, node: Any, cg: Campaign) -> tuple[EntryArea, ...]:
    out = []
    for i, ea in enumerate(r.seq(node, ["entry_areas"])):
        p = ["entry_areas", i]
        r.mapping(ea, p, ("centre", "sides", "colour", "eligible_from"), ("name", "vehicles", "stand_in", "note"))
        sides = tuple(r.str(s, p + ["sides", j], SIDES) for j, s in enumerate(r.seq(ea["sides"], p + ["sides"])))
        out.append(EntryArea(
            centre=_hex(r, ea["centre"], p + ["centre"], cg), name=r.opt_str(ea.get("name"), p + ["name"]),
            sides=sides, colour=r.str(ea["colour"], p + ["colour"]),
            eligible_from=_in_cg(r, ea["eligible_from"], p + ["eligible_from"], cg),
            vehicles=r.bool(ea.get("vehicles", True), p + ["vehicles"]),
            stand_in=r.bool(ea.get("stand_in", False), p + ["stand_in"]), note=str(ea.get("note", "") or ""),
        ))
    return tuple(out)


def _victory(r: Reader, node: Any, path: list, cg: Campaign, *, initial: bool) -> VictoryRules:
    r.mapping(node, path, ("rule", "conditions", "otherwise", "otherwise_source"))
    conds, seen = [], set()
    for i, c in enumerate(r.seq(node["conditions"], path + ["conditions"])):
        p = path + ["conditions", i]
        base = ("id", "side", "when", "test", "rule", "text")
        r.mapping(c, p, base, ("value", "weights", "hexes", "buildings", "by", "hex"))
        test = r.str(c["test"], p + ["test"], tuple(TESTS))
        for key in TESTS[test]:
            if key not in c:
                raise r.error(f"missing key {key!r} (test {test} needs it)", p + [key], code="E111")
        cid = r.str(c["id"], p + ["id"])
        if cid in seen:
            raise r.error(f"condition id {cid!r} is given twice", p + ["id"])
        seen.add(cid)
        when = r.str(c["when"], p + ["when"], ("initial_end",) if initial else ("immediate", "scenario_end", "cg_end"))
        buildings = []
        for j, b in enumerate(r.seq(c.get("buildings", []), p + ["buildings"], empty=True)):
            bp = p + ["buildings", j]
            r.mapping(b, bp, ("id", "hex", "name"), ("also", "stand_in"))
            buildings.append(Building(
                id=r.str(b["id"], bp + ["id"]),
                hex=None if b["hex"] is None else _hex(r, b["hex"], bp + ["hex"], cg),
                name=r.str(b["name"], bp + ["name"]),
                also=tuple(_hex(r, h, bp + ["also", k], cg) for k, h in
                           enumerate(r.seq(b.get("also", []), bp + ["also"], empty=True))),
                stand_in=r.bool(b.get("stand_in", False), bp + ["stand_in"]),
            ))
        weights = c.get("weights", {})
        if not isinstance(weights, dict):
            raise r.error(f"expected a mapping of hexes to weights, found {kind(weights)}", p + ["weights"])
        conds.append(Condition(
            id=cid, side=r.str(c["side"], p + ["side"], SIDES), when=when, test=test,
            rule=r.str(c["rule"], p + ["rule"]), text=r.str(c["text"], p + ["text"]),
            value=r.int(c["value"], p + ["value"]) if "value" in c else None,
            weights={_hex(r, k, p + ["weights", k], cg): r.int(v, p + ["weights", k], 1) for k, v in weights.items()},
            hexes=tuple(_hex(r, h, p + ["hexes", j], cg) for j, h in
                        enumerate(r.seq(c.get("hexes", []), p + ["hexes"], empty=True))),
            buildings=tuple(buildings),
            by=r.str(c["by"], p + ["by"], SIDES) if "by" in c else None,
            hex=_hex(r, c["hex"], p + ["hex"], cg) if c.get("hex") is not None else None,
        ))
    return VictoryRules(r.str(node["rule"], path + ["rule"]), tuple(conds),
                        r.str(node["otherwise"], path + ["otherwise"], SIDES),
                        r.str(node["otherwise_source"], path + ["otherwise_source"], SOURCES))


def _initial(r: Reader, node: Any, cg: Campaign, chart: RgChart) -> InitialScenario:
    p = ["initial"]
    r.mapping(node, p, ("date", "sets_up_first", "moves_first", "mist", "victory", "sides"), ("ssr",))
    date = _in_cg(r, node["date"], p + ["date"], cg)
    if date != cg.dates[0]:
        raise r.error(f"the Initial Scenario is the first CG Date, {cg.dates[0]}", p + ["date"], rule="8.5")
    first = r.str(node["sets_up_first"], p + ["sets_up_first"], SIDES)
    moves = r.str(node["moves_first"], p + ["moves_first"], SIDES)
    r.mapping(node["sides"], p + ["sides"], SIDES)
    sides = {}
    for side, s in node["sides"].items():
        sp = p + ["sides", side]
        r.mapping(s, sp, ("elr", "san", "cpp", "fpp", "setup", "ob"))
        fpp = r.mapping(s["fpp"], sp + ["fpp"], ("amount",), ("stand_in", "note"))
        ob = []
        for i, item in enumerate(r.seq(s["ob"], sp + ["ob"])):
            ip = sp + ["ob", i]
            r.mapping(item, ip, ("name", "count"), ("rg", "unit", "fortification", "stand_in", "note"))
            kinds = [k for k in ("rg", "unit", "fortification") if k in item]
            if len(kinds) != 1:
                raise r.error("an OB line names exactly one of rg, unit or fortification", ip, code="E111")
            ref = r.str(item[kinds[0]], ip + [kinds[0]])
            if kinds[0] == "rg":
                try:
                    chart.get(side, ref)
                except InvalidInput as exc:
                    raise r.error(exc.message, ip + ["rg"], rule="8.6191") from None
            ob.append(ObItem(kinds[0], ref, r.str(item["name"], ip + ["name"]), r.int(item["count"], ip + ["count"], 1),
                             r.bool(item.get("stand_in", False), ip + ["stand_in"]), str(item.get("note", "") or "")))
        sides[side] = InitialSide(
            elr=r.int(s["elr"], sp + ["elr"]), san=r.int(s["san"], sp + ["san"]), cpp=r.int(s["cpp"], sp + ["cpp"]),
            fpp=r.int(fpp["amount"], sp + ["fpp", "amount"]),
            fpp_stand_in=r.bool(fpp.get("stand_in", False), sp + ["fpp", "stand_in"]),
            setup=r.str(s["setup"], sp + ["setup"]), ob=tuple(ob))
    ssr = []
    for i, x in enumerate(r.seq(node.get("ssr", []), p + ["ssr"], empty=True)):
        r.mapping(x, p + ["ssr", i], ("id", "text"), ("whole_cg",))
        ssr.append((r.str(x["id"], p + ["ssr", i, "id"]), r.str(x["text"], p + ["ssr", i, "text"]),
                    r.bool(x.get("whole_cg", False), p + ["ssr", i, "whole_cg"])))
    return InitialScenario(date, first, moves, r.str(node["mist"], p + ["mist"]),
                           _victory(r, node["victory"], p + ["victory"], cg, initial=True), sides, tuple(ssr))
