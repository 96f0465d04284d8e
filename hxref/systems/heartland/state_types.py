"""The Heartland game state as typed records: what :meth:`.system.Heartland.setup` builds from a
scenario file (games/heartland/scenarios/) and what the rules modules add to it in play.

A scenario is one of two games, each its own state type: without a map (bidding-demo) the
bidding game, :class:`BiddingState`, the initiative segment with a leader count per side; with a
map the full game, :class:`FullGameState`, armies of leader and unit records, marked ``full``.
Both hold the initiative segment's keys (:class:`InitiativeState`).  :func:`is_full` tells them
apart, and the rules modules of the full game take a :class:`FullGameState` only.

Only types live here: the state stays plain data (dicts and lists, as the game file holds them).
A key a game's every state holds is required; a key that some scenarios or some moments lack is
``NotRequired`` (the rules read it with ``.get``).  The layout is described in :mod:`.model`
(leaders, units, logistics), :mod:`.naval` (``naval``), :mod:`.rail` (trains, rail keys),
:mod:`.engineers` (pontoons), :mod:`.hidden_open` (plots, pending searches) and
:mod:`.initiative` (``current``, the turn record).

Free-form values, typed ``Any`` on purpose: a side's standing orders and the assault records of an
impulse hold order-file data as the player wrote it; ``landings``, ``entrenchments`` and
``north_of_ohio`` are read in more than one spelling a scenario may use (see
:func:`.reorg_step.landing_hexes`); ``charts`` is chart data.  ``pontoons`` is the list
:mod:`.engineers` writes (:mod:`.naval_movement` also reads an older mapping spelling).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from ...kit.events import Event


# --- leaders, units, logistics (3.1, 3.2, 7.2; layout in model.py) --------------------------

class Ratings(TypedDict):
    """A leader's printed AR, BR and MR on one face of the counter (3.21)."""

    ar: int
    br: int
    mr: int


class LeaderRatings(TypedDict):
    active: Ratings
    inactive: Ratings


class Leader(TypedDict):
    """One leader counter (3.2): setup fills ``superior``, ``pool``, ``brevet``, ``hq``,
    ``active`` and ``ap`` when the scenario leaves them out."""

    side: str
    name: str
    stars: int                      # intrinsic rank (3.22)
    brevet: NotRequired[int]        # brevet stars on top (14.51); setup writes 0
    hq: bool                        # holds an Army HQ (3.31)
    active: bool                    # front side up (8.1)
    ratings: LeaderRatings
    ml: int                         # leader ML 0-9 (3.51)
    ap: int                         # administration points left this turn (3.24)
    artillery: NotRequired[int]     # artillery strength in his box (3.1)
    asp: NotRequired[int]           # ammo supply points (3.1, 10.12)
    hex: str | None                 # null in the Leader Pool or embarked
    superior: str | None            # the leader whose force he is part of; null = his own force
    pool: bool                      # in the Leader Pool (3.15)
    wound: NotRequired[int]         # wound level (10.67)
    killed: NotRequired[bool]       # 10.67
    captured: NotRequired[bool]     # 10.52
    removed: NotRequired[bool]
    cause: NotRequired[str]         # why he left the map (sickness 8.13, ...)
    no_vp: NotRequired[bool]        # 8.13: lost to sickness gives the enemy no VP
    sick: NotRequired[bool]
    cold_ml: NotRequired[int]       # 5.26: ML lost to the Cold
    blizzard_turn: NotRequired[int]     # 5.29: the turn he last lost ML moving in a Blizzard
    cavalry_corps: NotRequired[bool]    # heads a cavalry corps (3.12)
    screen: NotRequired[bool]           # the corps screens (8.62a)
    hidden: NotRequired[bool]           # 8.62a
    own_use: NotRequired[int]
    cos: NotRequired[str]
    cos_of: NotRequired[str]            # chief of staff of (3.33)
    acting_for: NotRequired[str]        # a Chief of Staff holding his fallen commander's army (3.32b)
    cos_brevet: NotRequired[int]        # the brevet stars he was given to hold it (3.32b)
    forced_march: NotRequired[int]
    embarked_on: NotRequired[str | None]    # the gunboat carrying him (8.92)


class Unit(TypedDict):
    """One combat unit (2.0): in a leader's box (``leader``) or unled on the map (``hex``)."""

    side: str
    name: str
    arm: str                        # infantry | cavalry | engineer | detachment
    size: str                       # division | brigade | regiment
    cf: list[int]                   # full and reduced side
    ml: list[int]                   # full and reduced side; 0 is best (3.52)
    steps: int                      # 2 full, 1 reduced, 0 eliminated
    leader: str | None
    hex: NotRequired[str | None]    # only for unled units
    hidden: NotRequired[bool]
    screening: NotRequired[bool]
    at_work: NotRequired[bool]      # an engineer laying or lifting a pontoon (8.81a)
    blizzard_ml: NotRequired[int]       # 5.29: ML levels lost moving in a Blizzard
    blizzard_turn: NotRequired[int]
    embarked_on: NotRequired[str | None]


class Logistics(TypedDict):
    """A wagon or a depot (7.2)."""

    side: str
    kind: str                       # wagon | depot
    capacity: int                   # forces it can supply (7.21)
    cf: int
    ml: int
    hex: str | None
    leader: str | None              # a wagon moving with a field command (7.21)
    blizzard_ml: NotRequired[int]
    blizzard_turn: NotRequired[int]
    embarked_on: NotRequired[str | None]


# --- rail, engineers, navy ----------------------------------------------------------------

class Train(TypedDict):
    """A train on the map (8.72; rail.py)."""

    side: str
    hex: str
    extra: NotRequired[bool]
    run: NotRequired[dict[str, Any]]    # this impulse's run: {impulse, route, legs}


class OffMap(TypedDict):
    """A force gone off the map by rail (8.74)."""

    force: str
    side: str
    edge: str
    left_turn: int


class Pontoon(TypedDict):
    """A Pontoon Bridge marker (8.81; engineers.py)."""

    id: str
    side: str
    hex: str | None
    hexside: str | None
    status: str                     # unbridged | laying | bridged | lifting
    laid_turn: int | None
    engineer: NotRequired[str]      # the engineer at work on it (8.81a)
    work: NotRequired[str]          # the impulse the work was ordered in (``turn.impulse``)
    unannounced: NotRequired[bool]  # laid under dense fog, off the enemy's map until announced (3.72(4))


class ChiefEngineer(TypedDict, total=False):
    hex: str | None
    removed: bool


class Gunboat(TypedDict):
    """A Union gunboat (8.9, 10.81; naval.py)."""

    side: str
    name: str
    naval: list[int]
    support: list[int]
    steps: int
    hexside: str | None
    box: str | None
    cargo: NotRequired[dict[str, Any]]      # {units: [...], leaders: [...], wagon: ...} (8.92)


class Battery(TypedDict):
    """A Confederate coastal battery (10.82)."""

    side: str
    name: str
    naval: list[int]
    steps: int
    hex: str
    hexside: str


class NavalImpulse(TypedDict, total=False):
    """The navy's records of this impulse (cleared at each new impulse)."""

    missions: dict[str, str]
    moved: list[str]
    stopped: list[str]
    must_attack: dict[str, list[str]]
    landed: list[str]


class Naval(TypedDict, total=False):
    """``state["naval"]``: every key optional (naval.py)."""

    gunboats: dict[str, Gunboat]
    batteries: dict[str, Battery]
    headwaters: list[str]
    notice: dict[str, int]
    current: NavalImpulse


# --- the turn record (initiative.py, impulse.py) ------------------------------------------

class Weather(TypedDict):
    """This turn's weather (5.2)."""

    result: str
    roll: NotRequired[list[int] | None]     # None: Clear without a roll (June-August)
    stand_in: NotRequired[bool]
    effects_applied: NotRequired[bool]
    rolled: NotRequired[str]        # 5.24: what was rolled when the turn is played as Mud
    rain: NotRequired[float]        # 5.24: the rain of the run of rainy turns


class CalendarEntry(TypedDict):
    turn: int
    year: int
    month: int


class ScheduledImpulse(TypedDict):
    """An impulse the bids set (5.1)."""

    side: str
    level: int
    rule: str
    fixed: NotRequired[bool]


class ImpulseRecord(TypedDict):
    """An impulse played this turn (5.15, 4.25)."""

    n: int
    side: str
    level: int
    fixed: bool
    rule: str
    pay: NotRequired[int]
    assaults: NotRequired[list[dict[str, Any]]]


class ActiveImpulse(TypedDict):
    """The impulse being played: its orders, then the defender's answers (impulse.py)."""

    n: int
    side: str
    level: int | None                   # None until the phasing side declares it (5.15)
    fixed: bool
    rule: str
    stage: str                          # orders | defence
    assaults: list[dict[str, Any]]      # the assaults ordered, as the order file gave them
    involuntary: list[Any]
    deactivate: NotRequired[list[str]]          # leaders deactivated voluntarily at the impulse's end (8.12a)
    supply: NotRequired[dict[str, Any]]
    mp: NotRequired[dict[str, dict[str, Any]]]     # force -> {rolled, spent} (8.22)
    mp_from_reactivation: NotRequired[dict[str, float]]
    mr_lent: NotRequired[dict[str, Any]]
    detached_from: NotRequired[dict[str, str]]  # leader detached this impulse -> the OC he left (8.25b)
    combat: NotRequired[dict[str, Any]]
    forced_march: NotRequired[list[str]]        # forces that force-marched (8.3)
    rail: NotRequired[dict[str, Any]]


class ForceSupply(TypedDict):
    """A force's supply found at the Supply Recheck (7.31a)."""

    state: str
    line: bool
    in_communication: bool


class Reorganization(TypedDict, total=False):
    supply: dict[str, dict[str, ForceSupply]]       # side -> force -> its supply


class Turn(TypedDict):
    """``state["current"]``: this turn's record (initiative.py)."""

    bid_round: int
    bids: list[dict[str, int]]
    outcome: str | None
    initiative: str | None
    fee: int
    weather: Weather | None
    impulses: list[ImpulseRecord]
    remaining: dict[str, int]
    declare: str | None
    queue: NotRequired[list[ScheduledImpulse]]      # the impulses the bids set, still to play
    schedule: NotRequired[list[ScheduledImpulse]]
    active_impulse: NotRequired[ActiveImpulse]
    reorganization: NotRequired[Reorganization]
    wdo: NotRequired[dict[str, int]]                # WDOs used this turn per side (3.34)
    wdo_used: NotRequired[Any]                      # an older game file's spelling of ``wdo``
    recon: NotRequired[dict[str, int]]              # recon attempts per leader or unit (8.61b)
    reconned: NotRequired[list[str]]


class PastTurn(TypedDict, total=False):
    """A finished turn in ``state["history"]``."""

    turn: int
    month: str
    bids: list[dict[str, int]]
    outcome: str | None
    initiative: str | None
    fee: int
    weather: Weather | None
    impulses: list[ImpulseRecord]


class VictoryRules(TypedDict, total=False):
    """The scenario's VP schedule (3.16; stand-in)."""

    stand_in: bool
    places: dict[str, int]
    initial_control: dict[str, str]
    per_step: int
    per_leader: int
    decisive_margin: int


class GameResult(TypedDict):
    points: dict[str, int]
    winner: str | None
    level: str
    margin: int


class PendingSearch(TypedDict):
    """A successful enemy search of a side's hidden forces, answered in its next orders (8.61c)."""

    id: str
    impulse: int
    center: str                     # the hex searched around
    range: int
    by: str


#: a hidden force's record in an open game (8.62a; hidden_open.py): where it left the map, then
#: each impulse's plot entry ({impulse, commitment, mp, weather, screens, blocked}), each
#: checkpoint ({impulse, own, screens, blocked}) and the searches it must answer
Plot = TypedDict("Plot", {"side": str, "from": str, "hidden_at": int, "entries": list[dict[str, Any]],
                           "checks": list[dict[str, Any]], "searches": list[dict[str, Any]]})


# --- the whole state: the bidding game or the full game ---------------------------------------

class InitiativeState(TypedDict):
    """The Initiative Determination Segment's keys (5.0-5.2), which every scenario's state holds."""

    scenario: str
    turn: int
    calendar: list[CalendarEntry]
    maximum: dict[str, int]
    wep: dict[str, int]
    impulse_level_limit: int | None
    weather_stand_in: bool
    phase: str                      # bid | impulse | reorg | over
    current: NotRequired[Turn]      # setup writes it; the rules also read states without it
    history: list[PastTurn]


class BiddingState(InitiativeState):
    """A scenario without a map (bidding-demo): the initiative segment only, a leader count per
    side paying each impulse's leader pay (4.25)."""

    leaders: dict[str, int]


class FullGameExtras(TypedDict, total=False):
    """The full game's keys a state may lack: those setup copies from the scenario when it names
    them, the VP record setup starts with a VP schedule, and those a rule writes when it first
    applies."""

    # copied from the scenario
    replacements: dict[str, int]
    income: dict[str, Any]
    control: dict[str, str]
    foraging: bool
    north_of_ohio: Any                  # hexes, or true (13.22)
    landings: Any                       # ids to {hex, ...}, or a list of hexes (8.92)
    prices: dict[str, int]
    off_map_rail: dict[str, Any]
    victory: VictoryRules
    naval: Naval
    trains: dict[str, Train]
    pontoons: list[Pontoon]
    rail_cuts: list[str]
    entrenchments: dict[str, Any]       # hex -> level, or hex -> {side, level}
    reinforcements: dict[str, list[dict[str, Any]]]     # side -> entries (6.1, .reinforcements)
    # the VP record (3.16), with a VP schedule
    initial_steps: dict[str, int]
    control_vp: dict[str, str]
    # written in play
    year: int
    month: int
    weather: Weather | None
    standing: dict[str, dict[str, Any]]     # a side's standing orders (order data)
    result: GameResult
    aods_compared: bool                 # a game with hidden armies: the proof compared both AODs (3.71)
    hq_pool: dict[str, list[str]]
    chief_engineer: ChiefEngineer
    pending_searches: dict[str, list[PendingSearch]]
    plots: dict[str, Plot]
    off_map: list[OffMap]
    rail_open: dict[str, list[str]]
    rail_last: dict[str, str]
    rail_opened: dict[str, int]
    devastated: list[str]
    burned_bridges: list[str]
    charts: dict[str, Any]              # chart data
    announcements: list[Event]          # dense fog's news held for the Reorganization Segment (3.72(4))


class FullGameState(InitiativeState, FullGameExtras):
    """A scenario with a map: the armies on it.  Setup writes ``full`` (true), the map, the options
    and the armies; the keys of :class:`FullGameExtras` appear when the scenario names them or a
    rule first writes them."""

    leaders: dict[str, Leader]
    full: bool                      # always true: the mark of the full game (:func:`is_full`)
    map: str
    fert_offset: int | None
    options: dict[str, Any]         # the optional rules the scenario switches on (1.12)
    mode: str                       # umpired | open (8.62a)
    units: dict[str, Unit]
    logistics: dict[str, Logistics]
    sources: dict[str, list[str]]


#: what :meth:`.system.Heartland.setup` returns: the full game when the scenario has a map
HeartlandState = BiddingState | FullGameState


def is_full(state: HeartlandState) -> TypeIs[FullGameState]:
    """The full game (armies on a map), not the bidding game: setup marks it ``full``."""
    return bool(state.get("full"))
