"""The shape of a Salem Church game state, as :meth:`.system.SalemChurch.setup` builds it and
the player turns (:mod:`.turn`) and the victory determination (:mod:`.victory`) update it.

State is plain data (a dict saved in the game file); these TypedDicts name its keys and their
types so the rules modules are checked against them.  A key is ``NotRequired`` only where the
rules really leave it out: the marks a unit gains in play (``delayed``, ``eliminated``,
``captured``, ``killed``, ``exited``), the ``returning`` entry a scenario may give a unit, and
``cancelled_targets``, first written by a cancelled attack (17.3) or the end of a turn.

The scenario's rule blocks (``rules``: reinforcements, victory, night, initiative, ...) are
scenario data read as charts, left free-form (``dict[str, Any]``), as are the order files'
standing orders beyond the keys listed here.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class UnitRecord(TypedDict):
    """One counter (brigade, artillery, leader or the wagon train): the scenario's values
    (digest D3 stand-ins) and where it is now.  ``hex`` is None off the map (not yet arrived,
    eliminated, captured, killed or exited); ``steps`` 0 when it is out of the game."""

    name: str
    side: str
    formation: str
    type: str                              # infantry | artillery | leader | wagon_train (counters.py)
    steps: int
    cf: int
    cf_reduced: int | None                 # two-step units only
    mp: int
    morale: int | None                     # the wagon train has none (16.0)
    leader_modifier: int | None            # leaders only (17.3)
    range: int | None                      # artillery only
    hex: str | None
    disrupted: bool
    full_steps: int
    delayed: NotRequired[bool]             # could not enter on its turn: may enter later (stand-in)
    eliminated: NotRequired[bool]          # lost its last step
    captured: NotRequired[bool]            # no retreat, or a leader left alone with the enemy; the train (16.0)
    killed: NotRequired[bool]              # a leader casualty (17.3)
    exited: NotRequired[str]               # the wagon train left the map: "victory" | "escape" (16.0)
    returning: NotRequired[bool]           # an eliminated unit brought back (13.2, 13.3 returning units)
    return_hex: NotRequired[str]           # where a returning unit enters


class WagonRecord(TypedDict):
    """The Union wagon train's fate (16.0, 14.1, 14.2)."""

    exited: str | None                     # "victory" | "escape" once it left the map
    captured: bool
    hex: str | None                        # where it left the map or was captured
    seen_by: NotRequired[list[str]]        # the sides that saw the hex it left from (umpired LOS play)


class InitiativeRecord(TypedDict):
    """A leader's initiative check this Union player turn (17.2): :meth:`.movement.InitiativeCheck.as_dict`."""

    leader: str
    morale: int
    die: int
    near_ezoc: bool
    modified: int
    passed: bool
    rule: str


class CounterAttackOrder(TypedDict):
    """A standing counter-attack (7.2 stand-in): units against an adjacent hex."""

    units: list[str]
    target: str
    first: NotRequired[str | None]


class StandingOrders(TypedDict, total=False):
    """A side's answers during the enemy's next player turn (digest F2); every key is optional in
    the orders file (``DEFAULT_STANDING`` in :mod:`.turn` fills the answers left out)."""

    choice: str                            # Ar/Dr: retreat | disrupt
    loss: str                              # Ax/Dx passed: loss | retreat
    hexes: int                             # retreat length, 1-3
    losses: list[str]                      # which unit loses a step first
    counter_attacks: list[CounterAttackOrder]


class CombatRecord(TypedDict):
    """One combat of this turn, as the reports show it (B1, 7.2, 17.3)."""

    turn: int
    side: str
    counter: bool
    attackers: list[str]
    target: str
    defenders: list[str]
    attack: int
    defence: int
    differential: int
    column: str | None
    die: int | None
    result: str | None                     # the CRT code, "cancelled" (17.3) or None
    effects: NotRequired[list[Any]]        # :meth:`.narration.Line.data`: text and unit references


class ScoreRecord(TypedDict):
    """Victory points (14.3): :meth:`.victory.Score.to_dict`."""

    points: dict[str, int]
    breakdown: dict[str, list[str]]
    stand_in: bool
    counted: str
    winner: str | None
    margin: int
    rule: str


class ConditionRecord(TypedDict):
    """One victory condition, met or not (14.1, 14.2): :meth:`.victory.Condition.to_dict`."""

    rule: str
    side: str | None                       # None: the marginal-victory condition (14.3)
    text: str
    met: bool
    why: str
    parts: list[ConditionRecord]


class VictoryRecord(TypedDict):
    """The victory determination after turn 14 (14.x): :meth:`.victory.Victory.to_dict`."""

    final: bool
    turn: int | None
    checked_at: str
    result: str
    winner: str | None
    level: str
    rule: str
    stand_in: bool
    conditions: list[ConditionRecord]
    score: ScoreRecord
    why: str


class SalemState(TypedDict):
    """A Salem Church game: the sequence (13.4), the counters, hex control and the wagon
    (14.x, 16.0), the initiative (17.x), the standing orders (digest F2) and this turn's combats."""

    scenario: str
    map: str
    turn: int
    phasing: str                           # union | confederate (13.4)
    stage: str                             # setup | play | over
    mode: str                              # the table mode: umpired | ...
    options: dict[str, object]             # optional rules chosen at ``hxref new`` (open_map)
    initiative: str | None                 # the Union's: full | low (17.1); None after a bad die
    initiative_turn: NotRequired[int]      # the turn of the roll ``initiative`` comes from (17.1)
    initiative_checks: dict[str, InitiativeRecord]
    units: dict[str, UnitRecord]
    control: dict[str, str]                # hex label -> the side holding it (14.x)
    wagon: WagonRecord
    initial_steps: dict[str, int]          # unit id -> its steps at the start (14.3)
    standing_orders: dict[str, StandingOrders]
    combats: list[CombatRecord]
    rules: dict[str, Any]                  # the scenario's rule blocks (RULE_KEYS): free-form scenario data
    wagon_unit: str
    victory_result: VictoryRecord | None
    cancelled_targets: NotRequired[list[str]]   # hexes of cancelled Union attacks this turn (17.3)

