"""Salem Church movement: TEC step costs, ZOC, move checks, the wagon train, Union
initiative and night (digest rules/salem-church.md 16.0, 17.1, 17.2, 18.0, C, D2, D3, E, G).
The entry of reinforcements and returning units (13.x) is :mod:`.entry`, retreat paths
(CRT key, E) :mod:`.retreat`; both check their hexes with the helpers here.

Pure functions, no dice import: a die face, or a ``roll(purpose) -> face`` callable, is
passed in.  Hexes are the map's four-digit labels (``"2114"``); the map is a
:class:`hxref.geometry.mapmodel.HexMap`, the game's (:meth:`hxref.kit.charts.Charts.map`), whose terrain
types (``games/salem_church/terrain.yaml``, the TEC) give every movement number.

State layout this module reads (it never writes it)::

    state["turn"]                 the game turn, 1-14
    state["initiative"]           "full" | "low": the Union's state after the 17.1 roll
                                  (ignored before turn 7: Full Initiative throughout, derived)
    state["initiative_checks"]    optional: leader id -> {"passed": bool, ...} (or an
                                  :class:`InitiativeCheck`) already made in this Union
                                  movement phase (17.2, one roll per leader, G7); the caller
                                  stores :attr:`MoveCheck.initiative` here and clears it
                                  each phase
    state["units"][uid]           the scenario's unit record (side, formation, type
                                  infantry|artillery|leader|wagon_train, steps, mp, morale,
                                  leader_modifier, ...) plus
        hex                       its hex label, or None when off the map
        disrupted                 bool
        returning                 optional bool: an eliminated unit brought back by a
                                  replacement, entering by 13.2/13.3 "returning units"
        delayed                   optional bool: a reinforcement that could not enter on its
                                  turn and may enter later (stand-in; the standard rules are
                                  missing, digest E)

Functions:

* :func:`step_cost` -- the TEC as a ``(Hex, Hex) -> MP | Prohibited`` callable for
  :mod:`hxref.geometry.paths`; :func:`hex_cost` (entering from off the map);
  :func:`stop_on_entry` (heavy woods);
* :func:`zoc_hexes` -- a side's ZOC (D2/E stand-in: the 6 adjacent hexes; TEC: none into
  or out of heavy woods);
* :func:`.path_walk.check_path` -- one unit's move, hex by hex: a :class:`MoveCheck` with the MP
  spent, where it stopped and why, or the :class:`~hxref.systems.base.Problem`\\ s;
* :func:`.entry.entry_problems` -- reinforcements and returning units (13.2, 13.3);
* :func:`wagon_capture` -- 16.0 capture; the train's own rules are in :func:`.path_walk.check_path`;
* :func:`union_initiative` (17.1), :func:`initiative_check` (17.2), :func:`is_night` (18.0);
* :func:`movement_allowance` -- MP and the disrupted stand-in;
* :func:`.retreat.check_retreat`, :func:`.retreat.retreat_status` -- retreat paths for
  :func:`hxref.systems.salem_church.combat.settle` (CRT key; E "unsafe path"; 16.0).

A path is the list of hexes entered, the start hex not included.  A unit off the map
(``hex`` None) enters: the first hex of its path is the entry hex (which hex is allowed is
:func:`.entry.entry_problems`' business).  The wagon train's path may end with :data:`EXIT`
(``"off"``) to leave the map.

What is checked before the dice (a :class:`Problem` each, with its rule): every step
adjacent and on the map, the TEC (heavy woods infantry only), the MP allowance, no
entering an enemy-occupied hex, nothing after a hex where the unit must stop (enemy ZOC,
heavy woods), stacking at the end, 18.0, 16.0, 17.2 without a leader.  What depends on a
die (the 17.2 initiative check) is rolled with ``roll``; a failed check is not a problem:
the unit stops in the hex before the enemy ZOC, and :attr:`MoveCheck.stopped` says so.
Without ``roll`` the check is listed in :attr:`MoveCheck.pending` and assumed passed.

Readings where the text is silent or ambiguous (digest E, G) -- games/salem_church/readings.md:

* ZOC (D2 "locking", E): the 6 adjacent hexes of every infantry or artillery unit on the
  map (leaders and the train have CF 0 and exert none; disrupted units do); a unit
  entering an enemy ZOC stops; a unit starting in one may leave it (18.0 lets a unit next
  to the enemy leave its hex), straight into another enemy ZOC hex too, where it stops
  again; TEC: no ZOC into or out of heavy woods (read from terrain ``rules.zoc``);
* no unit enters a hex holding an enemy unit of any type, except that a Confederate
  combat unit may enter the wagon train's hex, capturing it (16.0), and may go on;
* stacking, a stand-in (D3: the limit is in the missing standard rules):
  ``STACK_LIMIT`` = 2 infantry/artillery units of a side per hex at the end of a move
  (15.0's "brigades" shows two may stack); leaders do not count; passing through a full
  hex is allowed; the train never stacks (16.0);
* TEC: the costs are the terrain file's (clear 1, light woods 1, hill and the defensive
  position +0, road 1 along a road line, replacing the hex's terrain); heavy woods is
  infantry only even along a road and stops on entry (its 1 MP is the terrain file's
  stand-in);
* 13.x: an entering unit pays MP from the entry hex, which costs its terrain; every unit
  due on a turn must enter that turn (no delay rule; a ``delayed`` unit may enter
  later); the 13.3 "one hex for all units of a turn" binds the scheduled arrivals, not
  returning units (G3); returning units use their side's/formation's entry hexes;
* 16.0: the train may enter only hexes on a road and only along a road; it may not enter
  (or pass) a hex holding any other unit, nor any hex adjacent to a Confederate unit of
  any type (it may leave such a hex); it leaves the map from 0107/0903 ("victory") or
  1204/1302 ("escape") paying ``WAGON_EXIT_MP`` there, which ends its move; no other unit
  leaves the map (stand-in); no Union unit enters or passes its hex, retreating included;
  capture: a Confederate *combat* unit entering its hex (a leader may not enter it);
* 17.1: no roll before turn 7; a state of "low" before turn 7 is ignored;
* 17.2: one check per leader per Union movement phase, rolled when his stack first
  enters an enemy ZOC (G7); the stack is the units in the leader's hex at the start of
  their move (``leader=``; a leader checks for himself); the -1 "adjacent to or in an
  EZOC" is judged at the hex the stack starts its move from -- at the moment of entry the
  stack is always next to the EZOC hex it enters, so only the start hex gives the -1 a
  meaning (B6 has both cases); a unit off the map gets no -1; a failed check stops the
  stack before the EZOC hex;
* 18.0: no hex entered (entry hexes included) may be adjacent to an enemy unit of any
  type; a unit that starts adjacent may stay or leave but not move to another adjacent
  hex (the literal reading, G9);
* disrupted units (stand-in, D3: the disruption rule is missing): ``DISRUPTED_MOVEMENT``
  = "normal" (full MP); the reading "no_ezoc" forbids entering an enemy ZOC; routed units
  are not handled here (their movement is in the missing standard rules);
* retreat (CRT key, E): 1-3 hexes, each adjacent to the last, never back to a hex
  already left; no enemy-occupied or forbidden terrain; heavy woods only as the last hex
  (it stops); unsafe when a hex entered is in an enemy ZOC or adjacent to an enemy unit.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, overload

from ...geometry.hex import Hex
from ...geometry.paths import Prohibited
from ...kit.zoc import zoc
from ..base import Problem
from .counters import COMBAT_ARMS, NIGHT_TURNS
from .narration import Line, line
from .state_types import InitiativeRecord

Roll = Callable[[str], int]
StepCost = Callable[[Hex, Hex], "float | Prohibited"]

EXIT = "off"                        #: the last "hex" of a wagon-train path that leaves the map (16.0)
WAGON = "wagon_train"
LEADER = "leader"
ROAD = "road"                       # the line type of terrain.yaml

#: 16.0 the train's exits: 0107/0903 count for victory (14.1), 1204/1302 only avoid capture
WAGON_EXITS = {"0107": "victory", "0903": "victory", "1204": "escape", "1302": "escape"}
WAGON_EXIT_MP = 1                   # 16.0 leaving the map costs 1 MP spent in one of those hexes
INITIATIVE_FROM_TURN = 7            # 17.1 a roll at the start of each Union movement phase from turn 7
INITIATIVE_FULL = (1, 2)            # 17.1 1-2 Full Initiative, 3-6 Low
INITIATIVE_NEAR_EZOC_DRM = -1       # 17.2 -1 if adjacent to or in an enemy ZOC
#: stand-in (D3: stacking limits are in the missing standard rules): infantry/artillery units of
#: one side in a hex at the end of a move; leaders do not count; the train never stacks (16.0)
STACK_LIMIT = 2
ZOC_ARMS = COMBAT_ARMS              # stand-in (E): leaders and the train (CF 0) exert no ZOC
#: stand-in readings for a disrupted unit's movement (D3: the disruption rule is missing)
DISRUPTED_MOVE_READINGS = ("normal", "no_ezoc")
DISRUPTED_MOVEMENT = "normal"
DIE_FACES = range(1, 7)


@dataclass(frozen=True)
class Refused(Prohibited):
    """A prohibited step (:class:`~hxref.geometry.paths.Prohibited`) with the rule that prohibits it."""

    rule: str = "TEC"


# --------------------------------------------------------------------------
# small helpers


def _other(side: str) -> str:
    return "confederate" if side == "union" else "union"


@overload
def _lab(x: None) -> None: ...
@overload
def _lab(x: str | int) -> str: ...
def _lab(x: Any) -> str | None:
    """A hex label as the four-digit string (YAML may have read ``0305`` as 305)."""
    if x is None:
        return None
    return f"{x:04d}" if isinstance(x, int) and not isinstance(x, bool) else str(x)


def _parse(hexmap, x: Any) -> Hex | None:
    try:
        return hexmap.parse(_lab(x))
    except Exception:
        return None


def _name(hexmap, h: Hex) -> str:
    try:
        return hexmap.label(h)
    except ValueError:
        return repr(h)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _types_in(hexmap, h: Hex) -> list:
    """The terrain type and the feature types of hex ``h``."""
    return [hexmap.terrain(h)] + [hexmap.types["features"][f] for f in hexmap.features(h)]


def _on_road(hexmap, h: Hex) -> bool:
    return any(ROAD in hexmap.lines_between(h, n) for n in h.neighbours() if n in hexmap.grid)


def _check_die(die: Any, what: str) -> int:
    if isinstance(die, bool) or die not in DIE_FACES:
        raise ValueError(f"the {what} die is one face of 1d6 (1-6), not {die!r}")
    return die


def _check_reading(disrupted: str) -> None:
    if disrupted not in DISRUPTED_MOVE_READINGS:
        raise ValueError(f"disrupted movement reading {disrupted!r}; use one of {', '.join(DISRUPTED_MOVE_READINGS)}")


# --------------------------------------------------------------------------
# the TEC


def _terrain_refusal(hexmap, unit_type: str, h: Hex) -> Refused | None:
    """TEC: a hex type that only some unit types may enter (heavy woods: infantry only)."""
    for tt in _types_in(hexmap, h):
        allowed = (tt.rules or {}).get("units")
        if allowed is not None and unit_type not in allowed:
            rule = (tt.rules or {}).get("rule", "TEC")
            return Refused(f"{tt.label} {hexmap.label(h)}: {' and '.join(allowed)} only, not {unit_type} ({rule})")
    return None


def hex_cost(hexmap, unit_type: str, h: Hex) -> float | Refused:
    """MP to enter ``h`` from off the map (13.x entry): its terrain plus its features (TEC)."""
    if h not in hexmap.grid:
        return Refused(f"{_name(hexmap, h)} is off the map")
    refusal = _terrain_refusal(hexmap, unit_type, h)
    if refusal is not None:
        return refusal
    total: float = 0
    for tt in _types_in(hexmap, h):
        c = tt.cost(unit_type)
        if c is None:
            return Refused(f"{tt.label} in {hexmap.label(h)} cannot be entered by {unit_type} (TEC)")
        total += c
    return total


def step_cost(hexmap, unit_type: str, *, roads_only: bool | None = None) -> StepCost:
    """The TEC as a step cost for ``unit_type`` (infantry, artillery, leader, wagon_train).

    Along a road line the road's rate (1 MP) replaces the hex's terrain (TEC Road, 4.3
    stand-in); otherwise the terrain entered plus its features (clear 1, light woods 1,
    hill +0, ...); every number from the map's terrain types.  Heavy woods: infantry only,
    road or not (TEC).  ``roads_only`` (default: for the wagon train, 16.0) refuses every
    step that does not follow a road.  Refusals are :class:`Refused` with their rule.
    """
    if roads_only is None:
        roads_only = unit_type == WAGON
    base = hexmap.step_cost(unit_type)

    def cost(a: Hex, b: Hex) -> float | Prohibited:
        if b not in hexmap.grid:
            return Refused(f"{_name(hexmap, b)} is off the map")
        refusal = _terrain_refusal(hexmap, unit_type, b)
        if refusal is not None:
            return refusal
        if roads_only and ROAD not in hexmap.lines_between(a, b):
            return Refused(f"{_name(hexmap, a)} to {hexmap.label(b)} does not follow a road: "
                           "the wagon train moves only along roads (16.0)", "16.0")
        c = base(a, b)
        if isinstance(c, Prohibited):
            return Refused(f"{c.reason} (TEC)")
        return c

    return cost


def stop_on_entry(hexmap, h: Hex) -> str | None:
    """Why a unit entering ``h`` must stop there (TEC heavy woods, ``rules.stop_on_entry``), or None."""
    for tt in _types_in(hexmap, h):
        rules = tt.rules or {}
        if rules.get("stop_on_entry"):
            return f"{tt.label} {hexmap.label(h)}: a unit must stop on entering ({rules.get('rule', 'TEC')})"
    return None


def _zoc_passes(hexmap, h: Hex, key: str) -> bool:
    for tt in _types_in(hexmap, h):
        z = (tt.rules or {}).get("zoc") or {}
        if z.get(key) is False:
            return False
    return True


# --------------------------------------------------------------------------
# ZOC


def exerts_zoc(unit: Mapping) -> bool:
    """E stand-in: an infantry or artillery unit on the map with steps left."""
    return unit.get("hex") is not None and unit.get("type") in ZOC_ARMS and (unit.get("steps") or 0) > 0


def zoc_hexes(state: Mapping, hexmap, side: str) -> dict[str, set[str]]:
    """Every hex in ``side``'s ZOC -> the ids of the units exerting it.

    D2/E stand-in: the 6 hexes adjacent to each ZOC-exerting unit (:func:`exerts_zoc`);
    TEC: no ZOC extends out of, nor into, heavy woods (terrain ``rules.zoc``).
    """
    def source(u: Mapping) -> Hex | None:
        return _parse(hexmap, u["hex"]) if u.get("side") == side and exerts_zoc(u) else None

    def blocks(a: Hex, b: Hex) -> bool:
        return not _zoc_passes(hexmap, a, "extends_out_of") or not _zoc_passes(hexmap, b, "extends_into")

    found = zoc(state["units"], source, on_map=hexmap.grid.__contains__, blocks=blocks)
    return {hexmap.label(h): uids for h, uids in found.items()}


def _near(hexmap, label: str | None, hexes: Mapping | set) -> bool:
    """``label`` is in ``hexes`` or adjacent to one of them."""
    h = _parse(hexmap, label)
    if h is None:
        return False
    return hexmap.label(h) in hexes or any(n in hexmap.grid and hexmap.label(n) in hexes for n in h.neighbours())


def _occupants(state: Mapping, hexmap, exclude: Iterable[str] = ()) -> dict[str, list[str]]:
    skip = set(exclude)
    out: dict[str, list[str]] = {}
    for uid, u in state["units"].items():
        if uid in skip or u.get("hex") is None:
            continue
        h = _parse(hexmap, u["hex"])
        if h is not None:
            out.setdefault(hexmap.label(h), []).append(uid)
    return out


def _adjacent_to(hexmap, labels: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for lb in labels:
        h = _parse(hexmap, lb)
        if h is None:
            continue
        out.update(hexmap.label(n) for n in h.neighbours() if n in hexmap.grid)
    return out


def _wagon(state: Mapping) -> str | None:
    """16.0: the Union wagon train's id: the one the scenario names (``wagon_unit``), else the
    Union unit of its type."""
    named = state.get("wagon_unit")
    if named and (state["units"].get(named) or {}).get("type") == WAGON:
        return str(named)
    for uid, u in state["units"].items():
        if u.get("type") == WAGON and u.get("side") == "union":
            return uid
    return None


@dataclass(frozen=True)
class Surroundings:
    """What the other units on the map say about the hexes a unit moves or retreats into: who is in
    each hex (the unit itself left out), the enemy's ZOC (D2, E), the hexes next to an enemy unit
    (16.0, 18.0, E) and the wagon train and its hex (16.0).  Read from one state: a caller that
    tries several paths of one unit while the state stands still reads them once."""

    occ: dict[str, list[str]]
    ezoc: dict[str, set[str]]
    next_to_enemy: set[str]
    train: str | None
    train_hex: str | None


def surroundings(state: Mapping, hexmap, uid: str, side: str) -> Surroundings:
    """The :class:`Surroundings` of ``uid``, a unit of ``side``, in ``state``."""
    units = state["units"]
    enemy = _other(side)
    occ = _occupants(state, hexmap, exclude=[uid])
    ezoc = zoc_hexes(state, hexmap, enemy)
    enemy_hexes = [lb for lb, us in occ.items() if any(units[u]["side"] == enemy for u in us)]
    next_to_enemy = _adjacent_to(hexmap, enemy_hexes)
    train = _wagon(state)
    return Surroundings(occ, ezoc, next_to_enemy, train, _lab(units[train].get("hex")) if train else None)


# --------------------------------------------------------------------------
# 18.0 night, 17.1 initiative, the movement allowance


def is_night(turn: int | None) -> bool:
    """18.0: turn 6 is a night turn."""
    return turn in NIGHT_TURNS


@dataclass(frozen=True)
class InitiativeRoll:
    """17.1: the Union's initiative for a turn."""

    turn: int
    die: int | None
    state: str | None               # "full" | "low"
    why: str
    rule: str = "17.1"
    problems: list[Problem] = field(default_factory=list)


def union_initiative(turn: int, die: int | None = None) -> InitiativeRoll:
    """17.1: Full Initiative on turns 1-6 (no roll); from turn 7 a die at the start of each
    Union movement phase: 1-2 Full, 3-6 Low."""
    if turn < INITIATIVE_FROM_TURN:
        probs = [] if die is None else [Problem(f"no initiative roll before turn {INITIATIVE_FROM_TURN} (turn {turn})",
                                                "17.1", ["die"])]
        return InitiativeRoll(turn, None, "full", f"turn {turn}: no roll before turn {INITIATIVE_FROM_TURN}: "
                              "Full Initiative (17.1)", problems=probs)
    if die is None:
        return InitiativeRoll(turn, None, None, "no die", problems=[
            Problem(f"turn {turn}: the Union initiative needs a die (17.1)", "17.1", ["die"])])
    if isinstance(die, bool) or die not in DIE_FACES:
        return InitiativeRoll(turn, None, None, "bad die", problems=[
            Problem(f"the initiative die is one face of 1d6 (1-6), not {die!r}", "17.1", ["die"])])
    state = "full" if die in INITIATIVE_FULL else "low"
    return InitiativeRoll(turn, die, state, f"turn {turn}: initiative die {die}: "
                          f"{'1-2 Full' if state == 'full' else '3-6 Low'} Initiative (17.1)")


def initiative_state(state: Mapping) -> str:
    """The Union's initiative now: "full" before turn 7 (17.1, derived), else ``state["initiative"]``."""
    turn = state.get("turn")
    if turn is not None and turn < INITIATIVE_FROM_TURN:
        return "full"
    return state.get("initiative") or "full"


def initiative_told(state: Mapping) -> str:
    """The Union's initiative as a move's reasons cite it: "Full Initiative (turn 8's roll, 17.1)"."""
    rolled = state.get("initiative_turn")
    source = f"turn {rolled}'s roll" if rolled else f"no roll before turn {INITIATIVE_FROM_TURN}"
    return f"{initiative_state(state).capitalize()} Initiative ({source}, 17.1)"


@dataclass(frozen=True)
class InitiativeCheck:
    """17.2: a leader's initiative check: fails if the die (-1 near an EZOC) is greater than his morale."""

    leader: str
    morale: int
    die: int
    near_ezoc: bool
    rule: str = "17.2"

    @property
    def modifier(self) -> int:
        return INITIATIVE_NEAR_EZOC_DRM if self.near_ezoc else 0

    @property
    def modified(self) -> int:
        return self.die + self.modifier

    @property
    def passed(self) -> bool:
        return self.modified <= self.morale

    @property
    def why(self) -> str:
        mod = f" {self.modifier:+d} (adjacent to or in an enemy ZOC) = {self.modified}" if self.modifier else ""
        return (f"initiative check {self.leader}: {self.die}{mod} against morale {self.morale}: "
                f"{'passes' if self.passed else 'fails'} (17.2)")

    def as_dict(self) -> InitiativeRecord:
        return {"leader": self.leader, "morale": self.morale, "die": self.die, "near_ezoc": self.near_ezoc,
                "modified": self.modified, "passed": self.passed, "rule": self.rule}


def initiative_check(leader_id: str, leader: Mapping, die: int, *, near_ezoc: bool) -> InitiativeCheck:
    """17.2: the check of ``leader`` (a unit record with ``morale``) with the face ``die``."""
    morale = leader.get("morale")
    if morale is None:
        raise ValueError(f"{leader_id} has no morale rating for the initiative check (17.2)")
    return InitiativeCheck(leader_id, int(morale), _check_die(die, "initiative check"), bool(near_ezoc))


@dataclass(frozen=True)
class Allowance:
    """A unit's MP for a move and whether it may enter an enemy ZOC."""

    mp: float
    may_enter_ezoc: bool
    why: str
    rule: str = "D3"


def movement_allowance(unit: Mapping, *, disrupted: str = DISRUPTED_MOVEMENT) -> Allowance:
    """The counter's MP; a disrupted unit per the stand-in reading ``disrupted`` (D3)."""
    _check_reading(disrupted)
    mp = unit.get("mp") or 0
    if not unit.get("disrupted"):
        return Allowance(mp, True, f"{_num(mp)} MP (counter value)")
    if disrupted == "normal":
        return Allowance(mp, True, f"disrupted, moves normally: {_num(mp)} MP (stand-in: the disruption rule "
                                   "is missing, D3)")
    return Allowance(mp, False, f"disrupted: {_num(mp)} MP, may not enter an enemy ZOC (stand-in reading "
                                "'no_ezoc': the disruption rule is missing, D3)")


# --------------------------------------------------------------------------
# one unit's move


@dataclass
class MoveCheck:
    """The verdict on one unit's path: the MP spent, where it stopped and why, or the problems."""

    unit: str
    start: str | None                       # None: entering from off the map
    path: list[str]
    mp: float
    spent: float = 0
    hexes: list[str] = field(default_factory=list)    # the hexes entered, in order
    end: str | None = None                  # where the unit is after the move (None: left the map)
    stopped: str = "end of the ordered path"
    rule: str = "D3"
    exit: str | None = None                 # 16.0: "victory" (0107/0903) or "escape" (1204/1302)
    entered_ezoc: bool = False
    captures: str | None = None             # 16.0: the wagon train this Confederate unit captured
    initiative: InitiativeCheck | None = None   # 17.2: the check rolled during this move
    pending: list[str] = field(default_factory=list)   # rolls still to make (no ``roll`` given)
    problems: list[Problem] = field(default_factory=list)
    #: the problems and the stop, with the units they name as references (:mod:`.narration`)
    said: list[Line] = field(default_factory=list)
    stop_said: Line | None = None

    def problem_line(self, i: int = 0) -> Line:
        return self.said[i] if i < len(self.said) else line(self.problems[i].message)

    @property
    def stop_line(self) -> Line:
        return self.stop_said if self.stop_said is not None else line(self.stopped)

    @property
    def legal(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.legal

    @property
    def why(self) -> str:
        if self.problems:
            p = self.problems[0]
            tag = "" if f"({p.rule})" in p.message else f" ({p.rule})"
            return f"{self.unit}: illegal move: {p.message}{tag}"
        route = [self.start or "off the map"] + self.hexes + (["off the map"] if self.exit else [])
        out = f"{self.unit}: {' -> '.join(route)}: {_num(self.spent)} of {_num(self.mp)} MP; {self.stopped}"
        if self.initiative is not None:
            out += f"; {self.initiative.why}"
        if self.captures:
            out += f"; captures the {self.captures} (16.0)"
        if self.pending:
            out += f"; pending: {', '.join(self.pending)}"
        return out


def _check_passed(c: Any) -> bool:
    if isinstance(c, Mapping):
        return bool(c.get("passed"))
    return bool(getattr(c, "passed"))


# --------------------------------------------------------------------------
# 16.0 capture of the wagon train


@dataclass(frozen=True)
class WagonCapture:
    """16.0: whether the Union wagon train is captured, by whom and where."""

    captured: bool
    by: str | None
    hex: str | None
    why: str
    rule: str = "16.0"
    problems: list[Problem] = field(default_factory=list)


def wagon_capture(state: Mapping, hexmap=None, *, moves: Iterable[MoveCheck] = ()) -> WagonCapture:
    """16.0: the train is captured when a Confederate combat unit enters its hex.

    Looks at the state (a Confederate combat unit in the train's hex, after a move, a
    retreat or an advance) and at ``moves``, the :class:`MoveCheck`\\ s of the phase (a unit
    that entered the hex and went on).  ``hexmap`` only normalises the labels.
    """
    units = state["units"]
    train = _wagon(state)
    if train is None:
        return WagonCapture(False, None, None, "there is no wagon train in this game")
    where = units[train].get("hex")
    if where is None:
        return WagonCapture(False, None, None, "the wagon train is not on the map")
    lab = hexmap.label(hexmap.parse(_lab(where))) if hexmap is not None else _lab(where)
    for mc in moves:
        if mc.captures == train:
            return WagonCapture(True, mc.unit, lab, f"{mc.unit} entered the wagon train's hex {lab}: captured (16.0)")
    for uid, u in units.items():
        if (u.get("side") == "confederate" and u.get("type") in COMBAT_ARMS and u.get("hex") is not None
                and (hexmap.label(hexmap.parse(_lab(u["hex"]))) if hexmap is not None else _lab(u["hex"])) == lab):
            return WagonCapture(True, uid, lab, f"{uid} is in the wagon train's hex {lab}: captured (16.0)")
    return WagonCapture(False, None, lab, f"no Confederate combat unit has entered the wagon train's hex {lab}")
