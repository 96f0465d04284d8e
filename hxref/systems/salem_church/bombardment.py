"""Salem Church: artillery bombardment (砲撃), a labelled stand-in (17.3, TEC; digest D3, E).

The scenario refers to bombardment -- 17.3: "initiative has no effect on bombardment"; the
TEC: light woods block artillery LOS unless the artillery is on a hill -- and the artillery
counters carry a range, but the procedure is in the missing standard rules (digest D3, E:
"none available; make it data").  The numbers are ``games/salem_church/charts/bombardment.yaml``
(``stand_in: true``); the procedure here is hxref's reading (games/salem_church/readings.md):

* in its combat phase, before its attacks, the phasing side's artillery units may each
  bombard **once** a player turn (``bombard: [{unit, target}]``), and a battery that bombards
  does not also attack in that phase (its fire is its combat);
* the target is a hex holding an enemy combat unit (the wagon train is never attacked, 16.0;
  a lone leader is not a target, as in combat) at a distance from the chart's ``min_range``
  to the counter's ``range``, in the battery's line of sight **for fire**, as the fog of war
  computes it (:func:`.views.line_of_sight` with ``purpose="fire"``: hills, heavy woods, and
  light woods for artillery not on a hill);
* one 1d6 on the chart's ``results``: ``none``, ``disrupt`` (every enemy combat unit in the
  hex disrupted) or ``step`` (one step lost from them, the owner's ``losses`` order first);
* no bombardment at night (18.0 skips both combat phases, G9); no 17.3 check (initiative has
  no effect on bombardment).

:func:`problem` is the check before the dice (orders and resolution alike); :func:`resolve` rolls
the die and returns the :class:`Bombardment`, explained; the turn applies it (:mod:`.turn`).
Pure functions of the state, the map, the chart and the die.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, AbstractSet, Any, Mapping

from ...base.errors import IllegalOrder, InvalidInput
from . import counters as ct
from .counters import Ids, Roll, _same, die_purpose, sees

if TYPE_CHECKING:
    from ...kit.charts import Charts

RESULTS = ("none", "disrupt", "step")


@dataclass(frozen=True)
class BombardmentChart:
    """The stand-in chart: the rule label, the shortest range and the result of each face."""

    rule: str
    stand_in: bool
    min_range: int
    results: Mapping[int, str]
    note: str = ""

    @classmethod
    def load(cls, charts: Charts, path: str | Path | None = None) -> "BombardmentChart":
        """The chart ``charts/bombardment.yaml`` of ``charts`` (a game's pinned copy, or today's
        file), or with ``path`` another file of its shape."""
        return _build(charts.chart_source("bombardment", path))

    @classmethod
    def from_data(cls, data: Any, where: str = "charts/bombardment.yaml") -> "BombardmentChart":
        if not isinstance(data, Mapping):
            raise InvalidInput(f"{where}: the bombardment chart is a mapping", file=where)
        results = data.get("results")
        if not isinstance(results, Mapping) or sorted(int(k) for k in results) != [1, 2, 3, 4, 5, 6]:
            raise InvalidInput(f"{where}: `results` gives one result for each face 1-6", file=where)
        bad = sorted(str(v) for v in results.values() if v not in RESULTS)
        if bad:
            raise InvalidInput(f"{where}: unknown results {', '.join(bad)}; use {', '.join(RESULTS)}", file=where)
        lo = data.get("min_range", 1)
        if isinstance(lo, bool) or not isinstance(lo, int) or lo < 1:
            raise InvalidInput(f"{where}: `min_range` is a whole number of hexes, 1 or more", file=where)
        return cls(str(data.get("rule") or "bombardment"), bool(data.get("stand_in", False)), lo,
                   {int(k): str(v) for k, v in results.items()}, str(data.get("note") or "").strip())


@cache
def _build(src) -> BombardmentChart:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    return BombardmentChart.from_data(src.data(), src.file)


def _on_map(u: Mapping) -> bool:
    return u.get("hex") is not None and int(u.get("steps", 0)) > 0


def targets_in(state: Mapping, label: str, side: str) -> list[str]:
    """The enemy combat units (of ``side``'s enemy) in the hex ``label``: what a bombardment hits."""
    return sorted(uid for uid, u in state["units"].items() if _on_map(u) and u["hex"] == label
                  and u["side"] != side and u["type"] in ct.COMBAT_ARMS)


@dataclass(frozen=True)
class Refusal:
    """Why a bombardment may not be fired, by which rule, at which key of the order."""

    message: str
    rule: str
    key: str = "target"


def problem(state: Mapping, hexmap, side: str, order: Mapping, *, fired: AbstractSet[str] = frozenset(),
            attacking: AbstractSet[str] = frozenset(), chart: BombardmentChart) -> Refusal | None:
    """Why ``side``'s bombardment ``order`` ({unit, target}) may not be fired now, or None: the
    side's artillery on the map, once a turn (``fired``) and not also attacking (``attacking``);
    not at night (18.0); the target a hex of the map within range and in the line of sight for
    fire (TEC), holding an enemy combat unit (16.0: never the wagon train)."""
    from . import movement as mv
    from .views import line_of_sight

    rule = chart.rule
    uid, target = str(order.get("unit")), str(order.get("target"))
    u = state["units"].get(uid)
    if u is None or u.get("side") != side:
        return Refusal(f"`{uid}` is not one of your units", rule, "unit")
    if u.get("type") != "artillery":
        return Refusal(f"{uid} is not artillery: only artillery bombards ({rule}, stand-in)", rule, "unit")
    if not _on_map(u):
        return Refusal(f"{uid} is not on the map", rule, "unit")
    if uid in fired:
        return Refusal(f"{uid} bombards once a player turn ({rule}, stand-in)", rule, "unit")
    if uid in attacking:
        return Refusal(f"{uid} bombards and attacks in one combat phase: one or the other ({rule}, stand-in)",
                       rule, "unit")
    if mv.is_night(int(state["turn"])):
        return Refusal(f"turn {state['turn']} is a night turn: no combat, no bombardment", "18.0")
    try:
        o, t = hexmap.parse(str(u["hex"])), hexmap.parse(target)
    except InvalidInput:
        return Refusal(f"bombardment target `{target}` is not a hex of this map", rule)
    if t not in hexmap.grid:
        return Refusal(f"bombardment target `{target}` is not a hex of this map", rule)
    from ...geometry.hex import distance

    reach, d = int(u.get("range") or 0), distance(o, t)
    if not chart.min_range <= d <= reach:
        return Refusal(f"{target} is {d} hex(es) from {uid} in {u['hex']}: out of its range "
                       f"{chart.min_range}-{reach} ({rule}, stand-in)", rule)
    sight = line_of_sight(hexmap, o, t, unit_type="artillery", purpose="fire")
    if not sight.visible:
        return Refusal(f"{uid} in {u['hex']} has no line of sight to {target}: {sight.why} ({sight.rule})",
                       sight.rule)
    if not targets_in(state, target, side):
        wagon = any(_on_map(x) and x["hex"] == target and x["type"] == "wagon_train" for x in state["units"].values())
        if wagon:
            return Refusal(f"{target} holds the Union wagon train: it is never attacked", "16.0")
        return Refusal(f"{target} holds no enemy combat unit to bombard", rule)
    return None


@dataclass(frozen=True)
class Bombardment:
    """One bombardment, fired: the battery, the two hexes, the range, the sight, the die and the
    chart's result, and the units it hits."""

    unit: str
    side: str
    origin: str
    target: str
    distance: int
    range: int
    sight: str
    die: int
    result: str
    hits: tuple[str, ...]
    rule: str
    stand_in: bool
    low_initiative: bool = False      #: a Union bombardment at Low Initiative: 17.3 does not touch it

    @property
    def units(self) -> frozenset[str]:
        return frozenset((self.unit, *self.hits))

    def told(self, ids: Ids = _same) -> str:
        what = {"none": "no effect", "disrupt": "the units in the hex are disrupted",
                "step": "the units in the hex lose a step"}[self.result]
        # the fog of war: a reader who does not see the battery is not told where it fires from,
        # nor how far
        seen = sees(ids, self.unit)
        where = f"{ids(self.unit)} in {self.origin}" if seen else ids(self.unit)
        reach = f"{self.distance} hex(es), range {self.range}; line of sight: {self.sight}; " if seen else ""
        return (f"{where} bombards {self.target} ({', '.join(map(ids, self.hits))}): {reach}die {self.die}: "
                f"{self.result} -- {what} ({self.rule}{', stand-in' if self.stand_in else ''})"
                + ("; Low Initiative: no MC, initiative has no effect on bombardment (17.3)"
                   if self.low_initiative else ""))

    def explanation(self, ids: Ids = _same) -> dict:
        seen = sees(ids, self.unit)
        return {"rule": self.rule, "unit": ids(self.unit), "side": self.side, "from": self.origin if seen else None,
                "target": self.target, "distance": self.distance if seen else None, "range": self.range,
                "sight": self.sight if seen else None,
                "die": self.die, "result": self.result, "hits": [ids(u) for u in self.hits],
                "stand_in": self.stand_in, "low_initiative": self.low_initiative, "why": self.told(ids)}


def resolve(state: Mapping, hexmap, side: str, order: Mapping, roll: Roll, *, fired: AbstractSet[str] = frozenset(),
            attacking: AbstractSet[str] = frozenset(), chart: BombardmentChart,
            low_initiative: bool = False) -> Bombardment:
    """Fire one bombardment: :func:`problem` (raised as :class:`IllegalOrder`), then 1d6 on the
    chart (purpose ``bombardment``); a Union battery at Low Initiative (``low_initiative``) fires
    all the same, with no MC (17.3).  Changes nothing: the turn applies the result."""
    from .views import line_of_sight
    from ...geometry.hex import distance

    bad = problem(state, hexmap, side, order, fired=fired, attacking=attacking, chart=chart)
    if bad is not None:
        raise IllegalOrder(bad.message, rule=bad.rule, path=bad.key)
    uid, target = str(order["unit"]), str(order["target"])
    u = state["units"][uid]
    o, t = hexmap.parse(str(u["hex"])), hexmap.parse(target)
    die = roll(die_purpose(roll, "bombardment", uid, f"at {target}"))
    if isinstance(die, bool) or die not in chart.results:
        raise ValueError(f"a bombardment die is one face of 1d6 (1-6), not {die!r}")
    sight = line_of_sight(hexmap, o, t, unit_type="artillery", purpose="fire")
    return Bombardment(uid, side, str(u["hex"]), target, distance(o, t), int(u.get("range") or 0), sight.why,
                       die, chart.results[die], tuple(targets_in(state, target, side)), chart.rule,
                       chart.stand_in, low_initiative and side == "union")
