"""KGP Initiative: the Idle/Attack chits, their limits and the outcome of each chit pair (8.623; SSR CG5).

8.623's text is lost; the chit-pair outcomes are data
(``games/kgp/charts/initiative.yaml``), each pair with its source (seed,
public or reading) and a tie-break dr when both choose Attack.  Nothing here
rolls dice: the caller passes the dr.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ...base.errors import InvalidInput
from .cg_calendar import CGDate, is_night
from .chart_reader import SOURCES, Reader
from .sides import SIDE_NAMES, SIDES, other

if TYPE_CHECKING:
    from ...kit.charts import Charts

CHITS = ("idle", "attack")              # 8.623


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


def load_initiative_chart(charts: Charts, path: str | Path | None = None) -> InitiativeChart:
    """The chit-pair outcomes (the chart ``initiative`` of ``charts``), or another file of that shape."""
    return _load_initiative(charts.chart_source("initiative", path))


@cache
def _load_initiative(src) -> InitiativeChart:
    """Once per chart content."""
    path = src.file
    r = Reader(src.rt(), path)
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

    def roles(self) -> tuple[str, str, str | None, str]:
        """A scenario's attacker, defender, side setting up first and side moving first (8.623)."""
        if self.attacker is None or self.defender is None or self.moves_first is None:
            raise ValueError(f"no scenario roles: {self.why}")
        return self.attacker, self.defender, self.sets_up_first, self.moves_first


def chit_outcome(chart: InitiativeChart, us: str, german: str, *, night: bool | None = None,
                 date: "str | CGDate | None" = None, dr: int | None = None) -> ChitOutcome:
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
    row = chart.rule_for(us, german, night)
    when = "night" if night else "day"
    head = f"US {us}, German {german} ({when}): "
    if row.result == "idle_date":
        return ChitOutcome(us, german, night, True, False, None, None, None, None, False, dr, row.source, row.rule,
                           head + row.text)
    attacker, why = row.attacker, head + row.text
    if attacker is None or row.sets_up_first is None or row.moves_first is None:
        raise ValueError(f"initiative chart: US {us} / German {german} by {when} is a scenario without its roles")
    if attacker == "by_dr":
        if dr is None:
            return ChitOutcome(us, german, night, False, True, None, None, None, None, True, None, row.source,
                               row.rule, why + " A tie-break dr is needed.")
        attacker = chart.tie_break.side_for(dr)
        why += f" Tie-break dr {dr}: {SIDE_NAMES[attacker]} attack ({chart.tie_break.rule}, {chart.tie_break.source})."
    defender = other(attacker)
    role = {"attacker": attacker, "defender": defender}
    return ChitOutcome(us, german, night, False, True, attacker, defender, role[row.sets_up_first],
                       role[row.moves_first], False, dr, row.source, row.rule, why)
