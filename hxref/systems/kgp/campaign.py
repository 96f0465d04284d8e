"""KGP campaign data and pure functions: the CG calendar, Idle/Attack chits, LVP and victory.

Rules 8.2 (CG Date, Idle Date, LVP, CG-LVP Total), 8.51-8.53 (the three CGs,
their Attack Chit limits, Initial Scenarios and Victory Conditions), 8.603
(Current and CG-LVP Totals, map-group totals) and 8.623 (Initiative, whose
text is lost; the chit-pair outcomes are data).  The data lives in
``games/kgp/campaigns/cg-*.yaml`` and ``games/kgp/charts/{initiative,rg}.yaml``;
every loader error names the file, the line and the key.  Nothing here rolls
dice or keeps state: the callers pass the state and the dr.

Readings chosen where the digest is ambiguous (README, "Rules interpretations"),
pinned by ``tests/kgp/test_campaign.py``:

* 8.603: an Idle Date adds nothing to the CG-LVP Total (8.603 is not one of
  the "*" steps repeated on Idle Dates, and no scenario ends).
* 8.51-8.53: the seed names only the US CG conditions (and only one side's
  Initial-Scenario conditions); the other side wins otherwise, at CG End (or
  at the end of the Initial Scenario).
* 8.2 LVP: a rubbled hex of an LVP building is one rubble Location (the
  Sanatorium: 10 Locations, 2 ground levels rubbled -> 8).
* 8.623: see ``games/kgp/charts/initiative.yaml`` (each pair says its source).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, total_ordering
from pathlib import Path
from typing import Any

from ...errors import InvalidInput
from ...yamlio import format_path, line_of_path

SIDES = ("us", "german")
SIDE_NAMES = {"us": "the US", "german": "the Germans"}
PERIODS = ("AM", "PM", "N")             # 8.2 CG Date: AM, PM, Night
CAMPAIGNS = ("cg-i", "cg-ii", "cg-iii")
CHITS = ("idle", "attack")              # 8.623
SOURCES = ("seed", "public", "reading")
RG_TYPES = ("infantry", "heavy_weapons", "vehicle", "gun", "oba", "bombardment", "air_support", "san",
            "preregistration")
MOMENTS = ("during_play", "scenario_end", "cg_end")
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
_DATE = re.compile(r"^([0-9]{1,2})(AM|PM|N)$")
_HEX = re.compile(r"^(St|Ch|Lg)?([A-Z]{1,2}[0-9]{1,2})$")
_RG_ID = re.compile(r"^([A-Z]+)([0-9]+)$")


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------
# the CG calendar (8.2 CG Date)


@total_ordering
@dataclass(frozen=True)
class CGDate:
    """A CG Date: a day of December 1944 and AM, PM or N (8.2)."""

    day: int
    period: str

    @classmethod
    def parse(cls, label: "str | CGDate") -> "CGDate":
        return parse_date(label)

    @property
    def label(self) -> str:
        return f"{self.day}{self.period}"

    @property
    def is_night(self) -> bool:
        return self.period == "N"

    def _key(self) -> tuple[int, int]:
        return (self.day, PERIODS.index(self.period))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CGDate):
            return NotImplemented
        return self._key() < other._key()

    def __str__(self) -> str:
        return self.label


def parse_date(label: "str | CGDate") -> CGDate:
    """``"20PM"`` -> CGDate(20, "PM"); refuses anything else, naming rule 8.2."""
    if isinstance(label, CGDate):
        return label
    m = _DATE.match(label) if isinstance(label, str) else None
    if not m or not 1 <= int(m.group(1)) <= 31:
        raise InvalidInput(f"{label!r} is not a CG Date", rule="8.2",
                           hint="write the day and AM, PM or N, e.g. 20PM (the seed's \"19M\" is 19PM)")
    return CGDate(int(m.group(1)), m.group(2))


def next_date(date: "str | CGDate") -> CGDate:
    """The CG Date after ``date``: AM -> PM -> N -> the next day's AM (8.2)."""
    d = parse_date(date)
    i = PERIODS.index(d.period)
    return CGDate(d.day, PERIODS[i + 1]) if i + 1 < len(PERIODS) else CGDate(d.day + 1, PERIODS[0])


def is_night(date: "str | CGDate") -> bool:
    """A Night CG Date (CG4, CG5, Game End +1; 3.2 wire costs doubled)."""
    return parse_date(date).is_night


def date_range(first: "str | CGDate", last: "str | CGDate") -> tuple[CGDate, ...]:
    """Every CG Date from ``first`` to ``last``, both included."""
    d, end = parse_date(first), parse_date(last)
    out = []
    while d <= end:
        out.append(d)
        d = next_date(d)
    return tuple(out)


# --------------------------------------------------------------------------
# reading data files: every error names the file, the line and the key


class _Reader:
    def __init__(self, root: Any, file: str) -> None:
        self.root, self.file = root, file

    def error(self, message: str, path: list, *, code: str = "E112", rule: str | None = None,
              hint: str | None = None) -> InvalidInput:
        return InvalidInput(message, code=code, file=self.file, line=line_of_path(self.root, path),
                            path=format_path(path), rule=rule, hint=hint)

    def mapping(self, node: Any, path: list, required: Iterable[str] = (), optional: Iterable[str] = ()) -> Any:
        if not isinstance(node, dict):
            raise self.error(f"expected a mapping, found {_kind(node)}", path)
        allowed = set(required) | set(optional)
        for key in node:
            if key not in allowed:
                raise self.error(f"unknown key {key!r}", path + [key], code="E110",
                                 hint=f"expected one of: {', '.join(sorted(allowed))}")
        for key in required:
            if key not in node:
                raise self.error(f"missing key {key!r}", path + [key], code="E111")
        return node

    def seq(self, node: Any, path: list, *, empty: bool = False) -> list:
        if not isinstance(node, list):
            raise self.error(f"expected a list, found {_kind(node)}", path)
        if not node and not empty:
            raise self.error("the list is empty", path)
        return node

    def int(self, node: Any, path: list, minimum: int = 0) -> int:
        if isinstance(node, bool) or not isinstance(node, int):
            raise self.error(f"expected a whole number, found {_kind(node)} {node!r}", path)
        if node < minimum:
            raise self.error(f"{node} is below the minimum {minimum}", path)
        return int(node)

    def str(self, node: Any, path: list, choices: Iterable[str] | None = None) -> str:
        if not isinstance(node, str) or not node:
            raise self.error(f"expected text, found {_kind(node)} {node!r}", path)
        if choices is not None and node not in choices:
            raise self.error(f"{node!r} is not one of {', '.join(choices)}", path)
        return str(node)

    def opt_str(self, node: Any, path: list) -> str | None:
        return None if node is None else self.str(node, path)

    def bool(self, node: Any, path: list) -> bool:
        if not isinstance(node, bool):
            raise self.error(f"expected true or false, found {node!r}", path)
        return node

    def date(self, node: Any, path: list) -> CGDate:
        try:
            return parse_date(node)
        except InvalidInput as exc:
            raise self.error(exc.message, path, rule="8.2", hint=exc.hint) from None

    def sides(self, node: Any, path: list) -> dict[str, int]:
        self.mapping(node, path, SIDES)
        return {s: self.int(node[s], path + [s]) for s in SIDES}


def _kind(node: Any) -> str:
    if node is None:
        return "nothing"
    if isinstance(node, bool):
        return "true/false"
    for t, name in ((dict, "a mapping"), (list, "a list"), (str, "text"), (int, "a number"), (float, "a number")):
        if isinstance(node, t):
            return name
    return type(node).__name__


# --------------------------------------------------------------------------
# the RG chart (8.619; stand-in data)


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
        raise InvalidInput(f"no RG {rg_id!r} for {SIDE_NAMES.get(side, side)} in {self.path}", rule="8.6191")

    def available(self, side: str, cg: str, *, initial: bool = False) -> tuple[Rg, ...]:
        """The RGs ``side`` may buy in ``cg`` (for its Initial Scenario if ``initial``)."""
        return tuple(rg for rg in self.rgs[side] if cg in rg.cg_max and (rg.initial or not initial))


def load_rg_chart(path: str | Path | None = None) -> RgChart:
    """The RG charts (``games/kgp/charts/rg.yaml``, stand-in), or another file of that shape."""
    return _load_rg(_chart_source("rg", path))


def _chart_source(name: str, path: str | Path | None):
    """The chart: the game's pinned copy while a game is played, else the disk's (or ``path``)."""
    from ...kit import data

    return data.chart_source("kgp", name, path)


@cache
def _load_rg(src) -> RgChart:
    """Once per chart content."""
    path = src.file
    r = _Reader(src.rt(), path)
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


# --------------------------------------------------------------------------
# the campaign files (8.51-8.53)


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


def load_campaign(name: str | Path, *, rg_chart: RgChart | None = None) -> Campaign:
    """A CG by name (``"cg-ii"``) or by path; Initial-OB RGs are checked against ``rg_chart``."""
    from ...kit import data

    s = str(name)
    if s in CAMPAIGNS:      # re-read at every stage: the game's pinned file, else the disk's
        src = data.source("kgp", f"campaigns/{s}.yaml")
    elif s.endswith((".yaml", ".yml")) or "/" in s or "\\" in s:
        src = data.file("kgp", s)
    else:
        raise InvalidInput(f"unknown KGP campaign {s!r}", code="E503", hint=f"one of {', '.join(CAMPAIGNS)}")
    return _load_campaign(src, _chart_source("rg", rg_chart.path if rg_chart else None))


def campaigns() -> dict[str, Campaign]:
    return {name: load_campaign(name) for name in CAMPAIGNS}


@cache
def _load_campaign(src, chart_src) -> Campaign:
    """Once per content of the campaign file and of the RG chart."""
    chart = _load_rg(chart_src)
    path = src.file
    r = _Reader(src.rt(), path)
    top = ("cg", "title", "rule", "map_group", "map_sections", "lvp_total", "year", "month", "dates", "date_count",
           "attack_chits", "entry_areas", "victory", "initial")
    root = r.mapping(r.root, [], top, ("quotas", "hq_hex", "stand_in", "note"))
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
    )


def _hex(r: _Reader, node: Any, path: list, cg: Campaign) -> str:
    try:
        return cg.hex(r.str(node, path))
    except InvalidInput as exc:
        raise r.error(exc.message, path, rule=exc.rule) from None


def _in_cg(r: _Reader, node: Any, path: list, cg: Campaign) -> CGDate:
    d = r.date(node, path)
    if d not in cg.dates:
        raise r.error(f"{d} is not a CG Date of this CG ({cg.dates[0]}-{cg.dates[-1]})", path, rule=cg.rule)
    return d


def _entry_areas(r: _Reader, node: Any, cg: Campaign) -> tuple[EntryArea, ...]:
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


def _victory(r: _Reader, node: Any, path: list, cg: Campaign, *, initial: bool) -> VictoryRules:
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
            raise r.error(f"expected a mapping of hexes to weights, found {_kind(weights)}", p + ["weights"])
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


def _initial(r: _Reader, node: Any, cg: Campaign, chart: RgChart) -> InitialScenario:
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


# --------------------------------------------------------------------------
# Initiative (8.623): chit limits and the outcome of each chit pair


@dataclass(frozen=True)
class ChitRule:
    """One row of ``games/kgp/charts/initiative.yaml``."""

    us: str
    german: str
    period: str                             # day | night
    result: str                             # idle_date | scenario
    attacker: str | None                    # us | german | by_dr
    defender: str | None
    sets_up_first: str | None               # attacker | defender
    moves_first: str | None
    source: str                             # seed | public | reading
    rule: str
    text: str


@dataclass(frozen=True)
class TieBreak:
    """Both sides chose Attack: one dr decides the Scenario Attacker (reading)."""

    rule: str
    source: str
    sides: Mapping[int, str]
    text: str

    def side_for(self, dr: int) -> str:
        if dr not in self.sides:
            raise ValueError(f"a dr is 1-6, not {dr!r}")
        return self.sides[dr]


@dataclass(frozen=True)
class InitiativeChart:
    rule: str
    outcomes: tuple[ChitRule, ...]
    tie_break: TieBreak
    limits_text: str
    limits_source: str
    path: str

    def rule_for(self, us: str, german: str, night: bool) -> ChitRule:
        period = "night" if night else "day"
        return next(o for o in self.outcomes if (o.us, o.german, o.period) == (us, german, period))


def load_initiative_chart(path: str | Path | None = None) -> InitiativeChart:
    """The chit-pair outcomes (``games/kgp/charts/initiative.yaml``), or another file of that shape."""
    return _load_initiative(_chart_source("initiative", path))


@cache
def _load_initiative(src) -> InitiativeChart:
    """Once per chart content."""
    path = src.file
    r = _Reader(src.rt(), path)
    root = r.mapping(r.root, [], ("rule", "chits", "limits", "tie_break", "outcomes"), ("stand_in", "note"))
    chits = [r.str(c, ["chits", i]) for i, c in enumerate(r.seq(root["chits"], ["chits"]))]
    if sorted(chits) != sorted(CHITS):
        raise r.error(f"the chits are {', '.join(CHITS)}", ["chits"], rule="8.623")
    lim = r.mapping(root["limits"], ["limits"], ("rule", "source", "text"))
    tb = r.mapping(root["tie_break"], ["tie_break"], ("rule", "source", "roll", "text", *SIDES))
    r.str(tb["roll"], ["tie_break", "roll"], ("dr",))
    faces: dict[int, str] = {}
    for side in SIDES:
        for j, f in enumerate(r.seq(tb[side], ["tie_break", side])):
            face = r.int(f, ["tie_break", side, j], 1)
            if face > 6 or face in faces:
                raise r.error(f"dr {face} is not a free face 1-6", ["tie_break", side, j])
            faces[face] = side
    if sorted(faces) != [1, 2, 3, 4, 5, 6]:
        raise r.error("the tie-break must give every face 1-6 to a side", ["tie_break"])
    rows, seen = [], set()
    for i, o in enumerate(r.seq(root["outcomes"], ["outcomes"])):
        p = ["outcomes", i]
        r.mapping(o, p, ("us", "german", "period", "result", "source", "rule", "text"),
                  ("attacker", "defender", "sets_up_first", "moves_first"))
        key = (r.str(o["us"], p + ["us"], CHITS), r.str(o["german"], p + ["german"], CHITS),
               r.str(o["period"], p + ["period"], ("day", "night")))
        if key in seen:
            raise r.error(f"the pair US {key[0]} / German {key[1]} by {key[2]} is given twice", p)
        seen.add(key)
        result = r.str(o["result"], p + ["result"], ("idle_date", "scenario"))
        roles = {}
        for k, choices in (("attacker", (*SIDES, "by_dr")), ("defender", (*SIDES, "by_dr")),
                           ("sets_up_first", ("attacker", "defender")), ("moves_first", ("attacker", "defender"))):
            if result == "scenario" and k not in o:
                raise r.error(f"missing key {k!r} (a scenario needs it)", p + [k], code="E111")
            roles[k] = r.str(o[k], p + [k], choices) if k in o else None
        rows.append(ChitRule(*key, result, roles["attacker"], roles["defender"], roles["sets_up_first"],
                             roles["moves_first"], r.str(o["source"], p + ["source"], SOURCES),
                             r.str(o["rule"], p + ["rule"]), r.str(o["text"], p + ["text"])))
    for us in CHITS:
        for de in CHITS:
            for period in ("day", "night"):
                if (us, de, period) not in seen:
                    raise r.error(f"no outcome for US {us} / German {de} by {period}", ["outcomes"], code="E111",
                                  rule="8.623")
    return InitiativeChart(
        rule=r.str(root["rule"], ["rule"]), outcomes=tuple(rows),
        tie_break=TieBreak(r.str(tb["rule"], ["tie_break", "rule"]),
                           r.str(tb["source"], ["tie_break", "source"], SOURCES), faces,
                           r.str(tb["text"], ["tie_break", "text"])),
        limits_text=r.str(lim["text"], ["limits", "text"]),
        limits_source=r.str(lim["source"], ["limits", "source"], SOURCES), path=path)


@dataclass(frozen=True)
class ChitOutcome:
    """What a revealed chit pair decides (8.623; SSR CG5 at night)."""

    us: str
    german: str
    night: bool
    idle_date: bool
    scenario: bool
    attacker: str | None
    defender: str | None
    sets_up_first: str | None
    moves_first: str | None
    needs_dr: bool                          # both Attack and no dr given yet
    dr: int | None
    source: str
    rule: str
    why: str


def chit_outcome(us: str, german: str, *, night: bool | None = None, date: "str | CGDate | None" = None,
                 dr: int | None = None, chart: InitiativeChart | None = None) -> ChitOutcome:
    """The outcome of the chits ``us`` and ``german`` on a day or Night CG Date (pass ``night`` or ``date``).

    When both chose Attack the tie-break ``dr`` decides the Scenario Attacker;
    without it the outcome says ``needs_dr``.
    """
    if night is None and date is None:
        raise ValueError("chit_outcome needs night= or date=")
    night = is_night(date) if date is not None else bool(night)
    for side, chit in (("us", us), ("german", german)):
        if chit not in CHITS:
            raise InvalidInput(f"{chit!r} is not a chit (idle or attack)", path=side, rule="8.623")
    ch = chart or load_initiative_chart()
    row = ch.rule_for(us, german, night)
    when = "night" if night else "day"
    head = f"US {us}, German {german} ({when}): "
    if row.result == "idle_date":
        return ChitOutcome(us, german, night, True, False, None, None, None, None, False, dr, row.source, row.rule,
                           head + row.text)
    attacker, why = row.attacker, head + row.text
    if attacker == "by_dr":
        if dr is None:
            return ChitOutcome(us, german, night, False, True, None, None, None, None, True, None, row.source,
                               row.rule, why + " A tie-break dr is needed.")
        attacker = ch.tie_break.side_for(dr)
        why += f" Tie-break dr {dr}: {SIDE_NAMES[attacker]} attack ({ch.tie_break.rule}, {ch.tie_break.source})."
    defender = other(attacker)
    role = {"attacker": attacker, "defender": defender}
    return ChitOutcome(us, german, night, False, True, attacker, defender, role[row.sets_up_first],
                       role[row.moves_first], False, dr, row.source, row.rule, why)


def chit_limit(cg: Campaign, side: str) -> int:
    """The CG's Attack Chit limit for ``side`` (8.51-8.53)."""
    return cg.attack_chits[side]


def attack_chits_left(cg: Campaign, side: str, used: int) -> int:
    return max(0, chit_limit(cg, side) - used)


# --------------------------------------------------------------------------
# LVP (8.2 LVP; 8.603)


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


# --------------------------------------------------------------------------
# victory (8.51-8.53, 8.603)


@dataclass(frozen=True)
class Check:
    """One victory condition at this moment: whether it is checked now, and met."""

    id: str
    side: str
    when: str
    rule: str
    text: str
    checked: bool
    met: bool
    detail: str


@dataclass(frozen=True)
class Verdict:
    """The Initial Scenario's result (8.5x Initial Scenario Victory Conditions)."""

    winner: str
    checks: tuple[Check, ...]
    rule: str
    why: str

    def check(self, cid: str) -> Check:
        return next(c for c in self.checks if c.id == cid)


@dataclass(frozen=True)
class Victory:
    """The CG Victory Conditions at one moment: the CG winner if decided, and why."""

    cg: str
    date: str
    moment: str
    cg_end: bool                            # the CG ends now (8.2 CG End)
    winner: str | None
    checks: tuple[Check, ...]
    initial: Verdict | None                 # at the end of the Initial Scenario only
    rule: str
    why: str

    def check(self, cid: str) -> Check:
        return next(c for c in self.checks if c.id == cid)


@dataclass(frozen=True)
class _State:
    moment: str
    date: CGDate
    cg_lvp: Mapping[str, int]
    current_lvp: Mapping[str, int]
    cvp: Mapping[str, int]
    lvp_existing: int
    buildings: Mapping[str, str]            # building id -> the side controlling all its hexes
    hexes: Mapping[str, frozenset[str]]
    lvp_hexes: Mapping[str, frozenset[str]]
    bridge_destroyed_by: str | None
    controls_all_lvp: str | None


def _bad(message: str, path: str, rule: str = "8.603") -> InvalidInput:
    return InvalidInput(message, path=path, rule=rule)


def _state(cg: Campaign, st: Mapping[str, Any]) -> _State:
    known = {"moment", "date", "cg_lvp", "current_lvp", "cvp", "lvp_existing", "buildings", "hexes", "lvp_hexes",
             "bridge_destroyed_by", "controls_all_lvp_locations"}
    for k in st:
        if k not in known:
            raise InvalidInput(f"unknown state key {k!r}", code="E110", path=str(k))
    moment = st.get("moment") or "scenario_end"
    if moment not in MOMENTS:
        raise InvalidInput(f"moment {moment!r} is not one of {', '.join(MOMENTS)}", path="moment")
    if st.get("date") is None:
        raise InvalidInput("the state needs the CG Date", code="E111", path="date")
    try:
        date = cg.date(st["date"])
    except InvalidInput as exc:
        raise exc.at(path="date")

    def per_side(key: str) -> dict[str, int]:
        raw = st.get(key) or {}
        out = {}
        for s in SIDES:
            v = raw.get(s, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise _bad(f"{key}.{s} must be a whole number, 0 or more, not {v!r}", f"{key}.{s}")
            out[s] = v
        return out

    def side_or_none(key: str) -> str | None:
        v = st.get(key)
        if v is not None and v not in SIDES:
            raise _bad(f"{key} must be us, german or nothing, not {v!r}", key)
        return v

    def hexsets(key: str) -> dict[str, frozenset[str]]:
        raw = st.get(key) or {}
        out = {}
        for s in SIDES:
            try:
                out[s] = frozenset(cg.hex(h) for h in raw.get(s, ()))
            except InvalidInput as exc:
                raise exc.at(path=f"{key}.{s}")
        return out

    existing = st.get("lvp_existing", cg.lvp_total)
    if isinstance(existing, bool) or not isinstance(existing, int) or not 0 <= existing <= cg.lvp_total:
        raise _bad(f"lvp_existing must be 0-{cg.lvp_total} (the {cg.map_group} map group's LVP)", "lvp_existing")
    current = per_side("current_lvp")
    for s in SIDES:
        if current[s] > existing:
            raise _bad(f"{SIDE_NAMES[s]} cannot control {current[s]} LVP: the {cg.map_group} map group has "
                       f"{existing} (of {cg.lvp_total})", f"current_lvp.{s}")
    if sum(current.values()) > existing:
        raise _bad(f"the two Current LVP Totals add up to {sum(current.values())}, more than the {existing} LVP "
                   f"on the map group", "current_lvp")
    names: dict[str, str] = {}
    for c in cg.victory.conditions:
        for b in c.buildings:
            for n in b.names:
                names[n] = b.id
    buildings = {}
    for k, side in (st.get("buildings") or {}).items():
        bid = names.get(k)
        if bid is None:
            try:
                bid = names.get(cg.hex(k))
            except InvalidInput:
                bid = None
        if bid is None:
            raise InvalidInput(f"{k!r} is not a building of the {cg.id.upper()} Victory Conditions",
                               path=f"buildings.{k}", rule=cg.victory.rule)
        if side not in (*SIDES, None):
            raise _bad(f"buildings.{k} must be us, german or nothing, not {side!r}", f"buildings.{k}", cg.rule)
        if side:
            buildings[bid] = side
    return _State(moment, date, per_side("cg_lvp"), current, per_side("cvp"), existing, buildings, hexsets("hexes"),
                  hexsets("lvp_hexes"), side_or_none("bridge_destroyed_by"), side_or_none("controls_all_lvp_locations"))


def _evaluate(cg: Campaign, c: Condition, st: _State) -> tuple[bool, str]:
    side, who = c.side, _cap(SIDE_NAMES[c.side])
    if c.test in ("cg_lvp_at_least", "current_lvp_at_least", "cvp_at_least"):
        what, n = {"cg_lvp_at_least": ("CG-LVP Total", st.cg_lvp[side]),
                   "current_lvp_at_least": ("Current LVP Total", st.current_lvp[side]),
                   "cvp_at_least": ("CVP", st.cvp[side])}[c.test]
        met = n >= c.value
        return met, f"{who}: {what} {n} {'>=' if met else '<'} {c.value}"
    if c.test == "cvp_margin_at_least":
        margin = st.cvp[side] - st.cvp[other(side)]
        met = margin >= c.value
        return met, (f"{who}: CVP {st.cvp[side]} - {st.cvp[other(side)]} = {margin} "
                     f"{'>=' if met else '<'} {c.value}")
    if c.test == "lvp_hexes_at_least":
        held = st.lvp_hexes[side]
        n = sum(c.weights.get(h, 1) for h in held)
        extra = "; ".join(f"{h} counts {w}" for h, w in c.weights.items() if h in held)
        met = n >= c.value
        return met, f"{who}: {n} LVP hexes{f' ({extra})' if extra else ''} {'>=' if met else '<'} {c.value}"
    if c.test == "control_buildings":
        missing = [b.hex or b.name for b in c.buildings if st.buildings.get(b.id) != side]
        if missing:
            return False, f"{who} do not control all hexes of {', '.join(missing)}"
        return True, f"{who} control all hexes of {', '.join(b.hex or b.name for b in c.buildings)}"
    if c.test == "control_hexes":
        missing = [h for h in c.hexes if h not in st.hexes[side]]
        if missing:
            return False, f"{who} do not control {', '.join(missing)}"
        return True, f"{who} control {', '.join(c.hexes)}"
    if c.test == "all_lvp_locations":
        if st.controls_all_lvp is not None:
            met = st.controls_all_lvp == side
            return met, f"reported: {SIDE_NAMES[st.controls_all_lvp]} control all existing LVP Locations"
        met = st.lvp_existing > 0 and st.current_lvp[side] >= st.lvp_existing
        return met, (f"{who}: Current LVP Total {st.current_lvp[side]} of the {st.lvp_existing} LVP existing "
                     f"({'all' if met else 'not all'} LVP Locations)")
    if c.test == "bridge_destroyed_by":
        by = st.bridge_destroyed_by
        met = by == c.by
        place = c.hex or "the bridge"
        return met, (f"{place} destroyed by {SIDE_NAMES[by]}" if by else f"{place} stands")
    raise AssertionError(c.test)


def _checks(cg: Campaign, conds: Iterable[Condition], st: _State, due: set[str]) -> tuple[Check, ...]:
    out = []
    for c in conds:
        met, detail = _evaluate(cg, c, st)
        checked = c.when in due
        if not checked:
            detail = {"cg_end": "checked only at CG End", "scenario_end": "checked at the end of a CG scenario",
                      "initial_end": "checked at the end of the Initial Scenario"}.get(c.when, "") + f" ({detail})"
        out.append(Check(c.id, c.side, c.when, c.rule, c.text, checked, met and checked, detail))
    return tuple(out)


def victory(cg: Campaign, state: Mapping[str, Any]) -> Victory:
    """Who wins, and why, at one moment of ``cg`` (8.51-8.53; 8.2 CG End).

    ``state`` (a mapping; sides are ``us`` and ``german``):

    * ``moment``: ``during_play`` (only immediate conditions: the CG-II bridge),
      ``scenario_end`` (the CG Scenario End, 8.603; at the last CG Date it is
      also CG End) or ``cg_end`` (8.2 CG End for another reason);
    * ``date``: the CG Date of the scenario (its first date = the Initial Scenario);
    * ``cg_lvp``, ``current_lvp``, ``cvp``: per side (CVP = what the side has gained);
    * ``lvp_existing``: LVP still existing on the map group (default its total);
    * ``buildings``: building id or hex -> the side controlling all its hexes;
    * ``hexes``, ``lvp_hexes``: per side, hexes controlled (hex prefix optional);
    * ``bridge_destroyed_by``: the side that destroyed the CG-II bridge, if any;
    * ``controls_all_lvp_locations``: optional, the side reported to hold them all.

    Every condition is listed, checked now or not, met or not.  When no
    condition is met at CG End, the CG's ``otherwise`` side wins (reading).
    """
    st = _state(cg, state)
    cg_end = st.moment == "cg_end" or (st.moment == "scenario_end" and st.date == cg.dates[-1])
    due = {"immediate"}
    if st.moment != "during_play":
        due.add("scenario_end")
    if cg_end:
        due.add("cg_end")
    checks = _checks(cg, cg.victory.conditions, st, due)
    met = [c for c in checks if c.met]
    sides = {c.side for c in met}
    rule = cg.victory.rule
    if len(sides) == 1:
        c = met[0]
        winner, over = c.side, True
        why = f"{_cap(SIDE_NAMES[c.side])} win {cg.id.upper()} [{c.rule}]: {c.text} ({c.detail})"
    elif len(sides) > 1:
        winner, over = None, True
        why = "both sides meet a CG Victory Condition at once: " + "; ".join(f"{c.id}: {c.detail}" for c in met)
    elif cg_end:
        winner, over = cg.victory.otherwise, True
        reason = "the last CG Date's scenario has ended" if st.date == cg.dates[-1] else "CG End"
        why = (f"CG End ({reason}) and no CG Victory Condition is met: {SIDE_NAMES[winner]} win otherwise "
               f"[{rule}; {cg.victory.otherwise_source}]")
    else:
        winner, over = None, False
        why = f"no CG Victory Condition is met at {st.date} ({st.moment.replace('_', ' ')}); the CG goes on [{rule}]"
    initial = None
    if st.date == cg.initial.date and st.moment != "during_play":
        ic = _checks(cg, cg.initial.victory.conditions, st, {"initial_end"})
        imet = [c for c in ic if c.met]
        ir = cg.initial.victory.rule
        if imet:
            iw = imet[0].side
            iwhy = f"{_cap(SIDE_NAMES[iw])} win the Initial Scenario [{imet[0].rule}]: {imet[0].detail}"
        else:
            iw = cg.initial.victory.otherwise
            iwhy = (f"no Initial-Scenario Victory Condition is met: {SIDE_NAMES[iw]} win otherwise "
                    f"[{ir}; {cg.initial.victory.otherwise_source}]")
        initial = Verdict(iw, ic, ir, iwhy)
    return Victory(cg.id, st.date.label, st.moment, over, winner, checks, initial, rule, why)
