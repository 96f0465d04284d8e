"""KGP scenario-time rolls: Game End, reinforcement, Reserve release and Sniper selection.

Rules CG Game End (SSR number lost, probably CG18), SSR CG5 (Night Defender
reinforcements), SSR CG16 (Snipers), SSR I.2 (8.51, Medium Tank Platoon II),
SSR III.5 and III.6 (8.53), and the digest's section 9 "Public die rolls":
every one of these rolls is made openly, with the verifiable dice, and logged.

Pure functions: nothing here rolls.  The caller rolls with :class:`hxref.crypto.dice.Dice`
(``dice.roll(REQUESTS[name].purpose, count=REQUESTS[name].count, by=side)``)
and passes the face(s); each function returns a frozen dataclass with the
result, the rule and a ``why``.  A roll the rules forbid now raises
:class:`~hxref.base.errors.IllegalOrder` naming the rule; a die face that is not one
raises :class:`~hxref.base.errors.InvalidInput`.  :data:`REQUESTS` describes each
roll (dice, who, when, rule) and :func:`check_request` checks a player's
request against it, returning :class:`~hxref.systems.base.Problem` s, so a game
system can refuse a roll before any die is spent.

The circled Game End numbers are map data: ``games/kgp/charts/game_end.yaml``
(Turn 7 = 3 from the seed, the rest stand-ins).

Readings chosen where the digest is unclear (games/kgp/readings.md),
pinned by ``tests/kgp/test_rolls.py``:

* CG Game End: the example's "Turn 7 ... an original dr <= 3" makes Turn 7's
  circled number 3 on every map group's chart (the example names none).  The
  Night +1 drm is added to the dr before comparing.  Turns after the last one
  in the chart keep its last number.  Refused: before Turn 6, at any moment
  other than the end of a Player Turn, by the non-phasing player, twice in a
  Player Turn.
* SSR I.2: "2 less than (<) the current game turn ... on Turn 3, a dr of 1"
  reads dr <= turn - 2 (the example wins over a literal dr < turn - 2, which no
  dr 1 on Turn 3 could meet; the campaign file reads it the same way).  On a
  success the platoon MUST enter at StHH0; if it never enters it is Retained in
  the Targnon Holding Box (the caller's bookkeeping).
* SSR CG5 ("standard") and III.5: dr < turn.  The dr is made in the reinforcing
  side's own RPh (the seed says "in the RPh").  A dr that cannot succeed (Turn
  1; Turns 1-2 for I.2) is not refused, since the seed names no first turn: it
  simply fails, and the ``why`` says so.  One dr per RPh (III.5: per RG; CG5:
  one for all the Scenario Defender's reinforcements, as its text names no RG
  where III.5 says "per RG").  When
  CG5's restriction is lifted by an attack, the reinforcements enter with no dr.
* SSR III.6: the threshold is printed ("修整後 DR が現在のターン数以下": the
  modified DR <= the turn; only the symbol in "( )" is lost), so no stand-in
  data is needed.  "+1 DRM for each Reserve Cloaking counter already released"
  counts every one released in the scenario, by III.6 or by SSR CG7b (the seed
  does not limit the cause); the caller counts them.  Refused before Turn 3,
  outside the German's own RPh, by the US, and when no Reserve Cloaking counter
  is left.  Which counter is released is the German's choice, not the roll's.
* SSR CG16: with 2 Sniper counters the extra dr gives 1-3 the first counter and
  4-6 the second (the plainest "equal probability"); "first" and "second" are
  the owner's numbering, fixed when he places them.  With 1 counter (Ch) no dr
  is made.  The dr is the Sniper owner's (the seed says only "an extra dr").
* Scope: I.2 belongs to the CG-I Initial Scenario (19AM), III.5 and III.6 to the
  CG-III Initial Scenario (19PM), CG5 to Night scenarios; ``check_request``
  refuses a roll outside its scope when told the CG, the scenario or the period.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...base.errors import IllegalOrder, InvalidInput
from ..base import Problem
from .chart_reader import Reader
from .sides import SIDE_NAMES, SIDES

if TYPE_CHECKING:
    from ...kit.charts import Charts

# --- the numbers the seed prints -----------------------------------------------------------------

GAME_END_RULE = "CG Game End"
GAME_END_FROM_TURN = 6          # CG Game End: "From Turn 6"
NIGHT_DRM = 1                   # CG Game End: "+1 drm" in every CG Night scenario
RESERVE_RELEASE_FROM_TURN = 3   # III.6: "From Turn 3"
RESERVE_RELEASE_DRM = 1         # III.6: +1 DRM per Reserve Cloaking counter already released
I2_ENTRY_HEX = "StHH0"          # I.2: "enter from off-map at HH0"
I2_HOLDING_BOX = "Targnon"      # I.2: Retained in the Targnon Entry Area Holding Box (seed "Targon")
SNIPERS = {"St": 2, "Ch": 1, "Lg": 2}    # CG16: 2 Sniper counters a side; EXC the Ch map group, 1
SNIPER_FIRST = (1, 2, 3)        # CG16 reading: dr 1-3 the first counter, 4-6 the second ("equal probability")
DIE_FACES = range(1, 7)

#: ASL phases of a Player Turn, and "end": the end of the Player Turn (after the CCPh).
PHASES = ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh", "end")

#: reinforcement(rule_variant=...) -> its REQUESTS entry.
REINFORCEMENT_VARIANTS = {"standard": "reinforcement", "cg1_i2": "reinforcement_i2",
                          "cg3_iii5": "reinforcement_iii5"}
_MARGIN = {"standard": 1, "cg1_i2": 2, "cg3_iii5": 1}     # enters when dr <= turn - margin


# --------------------------------------------------------------------------
# the roll requests (section 9 "Public die rolls")


@dataclass(frozen=True)
class RollRequest:
    """One scenario-time roll: its dice, who makes it, when, and the rule.

    ``phase`` is one of :data:`PHASES` (None: whenever the event happens);
    ``first_turn`` is the first turn the rules allow it; ``side`` a fixed side
    (None: either); ``phasing_only``: only the phasing player; ``cg`` and
    ``initial_only``: the CG and its Initial Scenario it belongs to.
    """

    name: str
    label: str
    dice: str                       # "dr" (one die) | "DR" (two dice)
    who: str
    when: str
    rule: str
    text: str
    phase: str | None = None
    first_turn: int = 1
    side: str | None = None
    phasing_only: bool = False
    night_only: bool = False
    cg: str | None = None
    initial_only: bool = False
    per: str = ""
    public: bool = True             # section 9: made openly and logged
    reading: str = ""               # what of this entry is a reading, not the seed's text

    @property
    def count(self) -> int:
        return 1 if self.dice == "dr" else 2

    @property
    def purpose(self) -> str:
        """The ``purpose`` to log the roll under (:meth:`hxref.crypto.dice.Dice.roll`)."""
        return f"{self.label} ({self.rule})"

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["count"], out["purpose"] = self.count, self.purpose
        return out


REQUESTS: Mapping[str, RollRequest] = {q.name: q for q in (
    RollRequest(
        "game_end", "Game End dr", "dr", "the phasing player", "at the end of each Player Turn, from Turn 6",
        GAME_END_RULE,
        "dr (+1 in a Night CG scenario) <= the circled number in the current turn box of the CG Turn Record "
        "Chart: the scenario ends at once",
        phase="end", first_turn=GAME_END_FROM_TURN, phasing_only=True, per="Player Turn"),
    RollRequest(
        "reinforcement", "reinforcement dr", "dr", "the Scenario Defender", "in his RPh of a Night CG scenario",
        "CG5",
        "dr < the current turn: the Night Scenario Defender's reinforcements may enter from their Eligible Entry "
        "Area; the restriction is also lifted when a Scenario-Defender unit is attacked by a Known enemy unit "
        "other than OBA or a Sniper (then no dr)",
        phase="RPh", phasing_only=True, night_only=True, per="RPh",
        reading="the dr is made in the reinforcing side's own RPh, one for all its reinforcements (not per RG)"),
    RollRequest(
        "reinforcement_i2", "Medium Tank Platoon II reinforcement dr", "dr", "the US", "in the US RPh",
        "I.2",
        "dr <= turn - 2 (\"2 less than\"; Turn 3, a dr of 1): the US OB Medium Tank Platoon II must enter from "
        f"off-map at {I2_ENTRY_HEX}; if it never enters it is Retained in the {I2_HOLDING_BOX} Entry Area "
        "Holding Box",
        phase="RPh", side="us", phasing_only=True, cg="cg-i", initial_only=True, per="RPh",
        reading="dr <= turn - 2 from the seed's example; made in the US player's own RPh"),
    RollRequest(
        "reinforcement_iii5", "RG reinforcement dr", "dr", "the US, per RG", "in the US RPh, per RG",
        "III.5",
        "dr < the current turn (Turn 2, a dr of 1): that US I, V or G RG may begin entering per SSR CG6a",
        phase="RPh", side="us", phasing_only=True, cg="cg-iii", initial_only=True, per="RPh and RG",
        reading="made in the US player's own RPh"),
    RollRequest(
        "reserve_release", "Reserve Release DR", "DR", "the German", "in the German RPh, from Turn 3",
        "III.6",
        "DR +1 per Reserve Cloaking counter already released <= the current turn: one Reserve Cloaking "
        "counter of the German's choice is released at once (SSR CG7b)",
        phase="RPh", first_turn=RESERVE_RELEASE_FROM_TURN, side="german", phasing_only=True, cg="cg-iii",
        initial_only=True, per="RPh",
        reading="'already released' counts every Reserve Cloaking counter released so far, by any cause"),
    RollRequest(
        "sniper_selection", "Sniper selection dr", "dr", "the Sniper's owner",
        "at once, when a Sniper attack occurs and the side has 2 Sniper counters",
        "CG16",
        "dr 1-3: the first Sniper counter attacks; 4-6: the second (equal probability); with 1 counter "
        "(the Ch map group) no dr",
        per="Sniper attack",
        reading="the 1-3 / 4-6 split; the Sniper's owner rolls"),
)}


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_request(name: str, *, turn: int | None = None, phase: str | None = None, side: str | None = None,
                  phasing: str | None = None, night: bool | None = None, cg: str | None = None,
                  initial: bool | None = None, already_rolled: bool = False, entered: bool = False,
                  lifted: bool = False, counters: int | None = None,
                  reserves_left: int | None = None) -> list[Problem]:
    """Why a player may not make the roll ``name`` now; ``[]`` when he may.

    Only what is given is checked: ``turn``; ``phase`` (one of :data:`PHASES`);
    ``side`` asking and the ``phasing`` side; ``night`` (a Night CG scenario);
    ``cg`` ("cg-i" ...) and ``initial`` (the Initial Scenario); ``already_rolled``
    (this roll was made this Player Turn / RPh / for this RG); for the
    reinforcement drs ``entered`` (already entered) and ``lifted`` (SSR CG5
    restriction lifted); for the Sniper selection ``counters``; for the Reserve
    Release DR ``reserves_left`` (Reserve Cloaking counters not yet released).
    """
    q = REQUESTS.get(name)
    if q is None:
        return [Problem(f"there is no roll {name!r}; the KGP scenario rolls are {', '.join(REQUESTS)}", "9",
                        ["roll"])]
    return (_when_problems(q, turn, phase) + _who_problems(q, side, phasing)
            + _scenario_problems(q, night, cg, initial)
            + _done_problems(name, q, already_rolled, entered, lifted)
            + _count_problems(name, q, reserves_left, counters))


def _when_problems(q: RollRequest, turn: int | None, phase: str | None) -> list[Problem]:
    """The turn (from the request's first turn: CG Game End from Turn 6, III.6 from Turn 3) and the phase
    its rule names (the RPh for CG5, I.2, III.5, III.6)."""
    r, out = q.rule, []
    if turn is not None:
        if not _is_int(turn) or turn < 1:
            out.append(Problem(f"the turn is a whole number from 1, not {turn!r}", r, ["turn"]))
        elif turn < q.first_turn:
            out.append(Problem(f"no {q.label} before Turn {q.first_turn} (this is Turn {turn})", r, ["turn"]))
    if phase is not None:
        if phase not in PHASES:
            out.append(Problem(f"{phase!r} is not a phase; one of {', '.join(PHASES)}", r, ["phase"]))
        elif q.phase and phase != q.phase:
            where = "the end of the Player Turn" if phase == "end" else f"the {phase}"
            out.append(Problem(f"the {q.label} is made {q.when}, not at {where}", r, ["phase"]))
    return out


def _who_problems(q: RollRequest, side: str | None, phasing: str | None) -> list[Problem]:
    """The side the rule names (I.2, III.5 the US; III.6 the German) and, for a RPh roll, the phasing player."""
    r = q.rule
    if side is None:
        return []
    if side not in SIDES:
        return [Problem(f"{side!r} is not a side; one of {', '.join(SIDES)}", r, ["side"])]
    if q.side and side != q.side:
        return [Problem(f"the {q.label} is made by {SIDE_NAMES[q.side]}, not {SIDE_NAMES[side]}", r, ["side"])]
    if q.phasing_only and phasing is not None and side != phasing:
        return [Problem(f"the {q.label} is made by the phasing player ({SIDE_NAMES.get(phasing, phasing)})"
                        f", {q.when}", r, ["side"])]
    return []


def _scenario_problems(q: RollRequest, night: bool | None, cg: str | None, initial: bool | None) -> list[Problem]:
    """The scenario the SSR belongs to: a Night CG scenario (CG5), its CG (I.2 CG-I, III.5/III.6 CG-III),
    the Initial Scenario."""
    r, out = q.rule, []
    if q.night_only and night is False:
        out.append(Problem(f"the {q.label} of SSR {r} is made only in a Night CG scenario", r, ["night"]))
    if q.cg and cg is not None and cg != q.cg:
        out.append(Problem(f"SSR {r} belongs to {q.cg.upper()}, not {str(cg).upper()}", r, ["cg"]))
    if q.initial_only and initial is False:
        out.append(Problem(f"SSR {r} applies only in the {q.cg.upper() if q.cg else 'CG'} Initial Scenario", r,
                           ["initial"]))
    return out


def _done_problems(name: str, q: RollRequest, already_rolled: bool, entered: bool, lifted: bool) -> list[Problem]:
    """One roll per Player Turn / RPh / RG; no reinforcement dr once they may enter, or once SSR CG5's
    restriction is lifted."""
    r, out = q.rule, []
    if already_rolled:
        out.append(Problem(f"one {q.label} per {q.per}", r, ["already_rolled"]))
    if name in REINFORCEMENT_VARIANTS.values():
        if entered:
            out.append(Problem("these reinforcements may already enter: no further dr", r, ["entered"]))
        if lifted:
            msg = ("the SSR CG5 restriction is lifted (an attack by a Known enemy unit): the reinforcements enter "
                   "with no dr") if name == "reinforcement" else \
                  "only the SSR CG5 Night Defender restriction is lifted by an attack"
            out.append(Problem(msg, r, ["lifted"]))
    return out


def _count_problems(name: str, q: RollRequest, reserves_left: int | None, counters: int | None) -> list[Problem]:
    """III.6: a Reserve Cloaking counter left to release; CG16: a selection dr only with 2 Sniper counters."""
    r, out = q.rule, []
    if name == "reserve_release" and reserves_left is not None and reserves_left <= 0:
        out.append(Problem("no Reserve Cloaking counter is left to release", r, ["reserves_left"]))
    if name == "sniper_selection" and counters is not None:
        if counters == 1:
            out.append(Problem("with 1 Sniper counter (the Ch map group) no selection dr is made: it attacks", r,
                               ["counters"]))
        elif counters != 2:
            out.append(Problem(f"a side has 1 or 2 Sniper counters (2; the Ch map group 1), not {counters!r}", r,
                               ["counters"]))
    return out


def _refuse(problems: list[Problem]) -> None:
    if problems:
        p = problems[0]
        raise IllegalOrder(p.message, rule=p.rule, path=".".join(str(x) for x in p.path) or None)


def _face(x: Any, what: str, rule: str) -> int:
    if not _is_int(x) or x not in DIE_FACES:
        raise InvalidInput(f"the {what} is one die face, 1-6, not {x!r}", rule=rule, path="dr")
    return int(x)


def _turn(turn: Any, rule: str) -> int:
    if not _is_int(turn) or turn < 1:
        raise InvalidInput(f"the turn is a whole number from 1, not {turn!r}", rule=rule, path="turn")
    return int(turn)


# --------------------------------------------------------------------------
# the Game End chart (games/kgp/charts/game_end.yaml)


@dataclass(frozen=True)
class Circled:
    """The circled number in one turn box of a CG Turn Record Chart."""

    turn: int
    value: int
    stand_in: bool
    source: str                     # seed | map | public | stand-in | reading
    note: str = ""


@dataclass(frozen=True)
class GameEndChart:
    rule: str
    turns: Mapping[int, Circled]
    map_groups: Mapping[str, Mapping[int, Circled]]
    stand_in: bool
    note: str
    path: str

    def circled(self, turn: int, *, map_group: str | None = None) -> Circled:
        """The circled number of ``turn`` (on ``map_group``'s chart if it has its own)."""
        turn = _turn(turn, self.rule)
        if turn < GAME_END_FROM_TURN:
            raise IllegalOrder(f"no Game End dr before Turn {GAME_END_FROM_TURN}: Turn {turn} has no circled "
                               "number", rule=self.rule, path="turn")
        if map_group is not None and map_group not in SNIPERS:
            raise InvalidInput(f"{map_group!r} is not a KGP map group (St, Ch or Lg)", rule="8.2 Map Group",
                               path="map_group")
        table = {**self.turns, **self.map_groups.get(map_group or "", {})}
        if turn in table:
            return table[turn]
        last = table[max(table)]
        return Circled(turn, last.value, True, "reading",
                       f"after the last turn on the chart (Turn {last.turn}) its number {last.value} is kept")


_SOURCES = ("seed", "map", "public", "stand-in")


def load_game_end_chart(charts: Charts, path: str | Path | None = None) -> GameEndChart:
    """The circled Game End numbers (the chart ``game_end`` of ``charts``), or another file of that shape."""
    return _load_game_end(charts.chart_source("game_end", path))


@cache
def _load_game_end(src) -> GameEndChart:
    """Once per chart content (the game's pinned chart, or the disk's)."""
    path = src.file
    r = Reader(src.rt(), path)
    root = r.mapping(r.root, [], ("rule", "turns"), ("stand_in", "note", "map_groups"))
    rule = r.str(root["rule"], ["rule"])

    def table(node: Any, p: list) -> dict[int, Circled]:
        if not isinstance(node, dict) or not node:
            raise r.error("expected a mapping of turn numbers to circled numbers", p)
        out = {}
        for turn, e in node.items():
            tp = p + [turn]
            if not _is_int(turn):
                raise r.error(f"a turn is a whole number, not {turn!r}", tp)
            if turn < GAME_END_FROM_TURN:
                raise r.error(f"the Game End dr begins on Turn {GAME_END_FROM_TURN}: Turn {turn} has no circled "
                              "number", tp, rule=rule)
            r.mapping(e, tp, ("circled",), ("stand_in", "source", "note"))
            value = r.int(e["circled"], tp + ["circled"], 1)
            if value > 6:
                raise r.error(f"a circled number is compared with a dr, so it is 1-6, not {value}",
                              tp + ["circled"], rule=rule)
            stand_in = r.bool(e.get("stand_in", False), tp + ["stand_in"])
            source = r.str(e.get("source", "stand-in" if stand_in else "map"), tp + ["source"], _SOURCES)
            out[turn] = Circled(turn, value, stand_in, source, str(e.get("note", "") or ""))
        return dict(sorted(out.items()))

    turns = table(root["turns"], ["turns"])
    groups = r.mapping(root.get("map_groups") or {}, ["map_groups"], (), tuple(SNIPERS))
    return GameEndChart(rule, turns, {g: table(t, ["map_groups", g]) for g, t in groups.items()},
                        r.bool(root.get("stand_in", False), ["stand_in"]), str(root.get("note", "") or ""), path)


# --------------------------------------------------------------------------
# CG Game End


@dataclass(frozen=True)
class GameEnd:
    """A Game End dr (CG Game End): the scenario ends at once when the modified dr <= the circled number."""

    turn: int
    dr: int
    night: bool
    drm: int
    modified: int
    circled: int
    ends: bool
    stand_in: bool                  # the circled number is a stand-in
    source: str
    rule: str
    why: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def game_end(chart: GameEndChart, turn: int, dr: int, *, night: bool, circled: int | None = None,
             map_group: str | None = None) -> GameEnd:
    """The Game End dr ``dr`` at the end of a Player Turn of ``turn`` (from Turn 6).

    ``circled``: the number in the current turn box, read off the map; when
    None it comes from the chart (``map_group``'s own numbers if it has some).
    """
    turn = _turn(turn, GAME_END_RULE)
    _refuse(check_request("game_end", turn=turn))
    face = _face(dr, "Game End dr", GAME_END_RULE)
    if circled is None:
        c = chart.circled(turn, map_group=map_group)
        value, stand_in, source = c.value, c.stand_in, c.source
    else:
        if not _is_int(circled) or circled not in DIE_FACES:
            raise InvalidInput(f"a circled number is 1-6, not {circled!r}", rule=GAME_END_RULE, path="circled")
        value, stand_in, source = int(circled), False, "given"
    night = bool(night)
    drm = NIGHT_DRM if night else 0
    modified = face + drm
    ends = modified <= value
    roll = f"Game End dr {face}" + (f" +{drm} (Night) = {modified}" if drm else "")
    box = f"circled {value}" + (" (stand-in, games/kgp/charts/game_end.yaml)" if stand_in else "")
    verdict = "the scenario ends at once" if ends else "the scenario continues"
    why = (f"Turn {turn} ({'Night' if night else 'day'}): {roll} {'<=' if ends else '>'} {box}: {verdict} "
           f"({GAME_END_RULE})")
    return GameEnd(turn, face, night, drm, modified, value, ends, stand_in, source, GAME_END_RULE, why)


# --------------------------------------------------------------------------
# reinforcement drs: SSR CG5, I.2, III.5


@dataclass(frozen=True)
class Reinforcement:
    """A reinforcement dr (SSR CG5, I.2 or III.5): whether the reinforcements enter."""

    turn: int
    dr: int | None                  # None: the CG5 restriction was lifted, no dr
    variant: str
    max_dr: int                     # the highest dr that enters (0: none can)
    enters: bool
    mandatory: bool                 # I.2: it MUST enter now
    lifted: bool
    rg: str | None
    entry: str | None               # I.2: the entry hex
    rule: str
    why: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def reinforcement(turn: int, dr: int | None, *, rule_variant: str = "standard", lifted: bool = False,
                  rg: str | None = None) -> Reinforcement:
    """A reinforcement dr in the RPh of ``turn``.

    ``rule_variant``: ``"standard"`` (SSR CG5, Night Defender: dr < turn),
    ``"cg3_iii5"`` (SSR III.5, per RG: dr < turn) or ``"cg1_i2"`` (SSR I.2,
    Medium Tank Platoon II: dr <= turn - 2).  ``lifted``: the CG5 restriction
    was lifted by an attack (no dr).  ``rg``: the RG's ID, for the ``why``.
    """
    if rule_variant not in REINFORCEMENT_VARIANTS:
        raise InvalidInput(f"{rule_variant!r} is not a reinforcement rule; one of "
                           f"{', '.join(REINFORCEMENT_VARIANTS)}", path="rule_variant")
    q = REQUESTS[REINFORCEMENT_VARIANTS[rule_variant]]
    turn = _turn(turn, q.rule)
    max_dr = turn - _MARGIN[rule_variant]
    who = f"RG {rg}" if rg else ("Medium Tank Platoon II" if rule_variant == "cg1_i2" else "the reinforcements")
    head = f"{who}, Turn {turn}"
    cite = {"cg1_i2": "I.2, 8.51", "cg3_iii5": "III.5, 8.53"}.get(rule_variant, "CG5")
    if lifted:
        if rule_variant != "standard" or dr is not None:      # only CG5 is lifted, and then with no dr
            _refuse(check_request(q.name, lifted=True))
        return Reinforcement(turn, None, rule_variant, max_dr, True, False, True, rg, None, q.rule,
                             f"{head}: the restriction is lifted (a Scenario-Defender unit was attacked by a Known "
                             f"enemy unit other than OBA or a Sniper): they may enter, no dr ({cite})")
    if dr is None:
        raise InvalidInput(f"the {q.label} needs a dr (1-6)", rule=q.rule, path="dr")
    face = _face(dr, q.label, q.rule)
    enters = face <= max_dr
    if rule_variant == "cg1_i2":
        test = f"dr {face} {'<=' if enters else '>'} {turn} - 2 = {max_dr}"
    else:
        test = f"dr {face} {'<' if enters else '>='} {turn}"
    if max_dr < 1:
        test += f" (no dr can enter on Turn {turn})"
    mandatory = enters and rule_variant == "cg1_i2"
    entry = I2_ENTRY_HEX if rule_variant == "cg1_i2" else None
    if rule_variant == "cg1_i2":
        result = (f"it must enter from off-map at {I2_ENTRY_HEX}" if enters else
                  f"it stays off-map (Retained in the {I2_HOLDING_BOX} Holding Box if it never enters)")
    elif rule_variant == "cg3_iii5":
        result = "it may begin entering per SSR CG6a" if enters else "it stays off-map"
    else:
        result = ("they may enter from their Eligible Entry Area" if enters else
                  "they stay off-map in their Eligible Entry Area")
    return Reinforcement(turn, face, rule_variant, max(max_dr, 0), enters, mandatory, False, rg, entry, q.rule,
                         f"{head}: {test}: {result} ({cite})")


# --------------------------------------------------------------------------
# SSR III.6 Reserve Release DR


@dataclass(frozen=True)
class ReserveRelease:
    """A Reserve Release DR (SSR III.6): one Reserve Cloaking counter is released if modified DR <= turn."""

    turn: int
    dice: tuple[int, int]
    dr: int                         # the DR: both dice
    released_before: int
    drm: int
    modified: int
    releases: bool
    rule: str
    why: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def reserve_release(turn: int, dice: tuple[int, int], *, released: int = 0,
                    reserves_left: int | None = None) -> ReserveRelease:
    """The German's Reserve Release DR ``dice`` (two faces) in his RPh of ``turn`` (from Turn 3).

    ``released``: Reserve Cloaking counters already released this scenario
    (+1 DRM each); ``reserves_left``: those not yet released, if known (0: no DR).
    """
    rule = "III.6"
    turn = _turn(turn, rule)
    if not _is_int(released) or released < 0:
        raise InvalidInput(f"the Reserve Cloaking counters already released are a whole number, 0 or more, "
                           f"not {released!r}", rule=rule, path="released")
    _refuse(check_request("reserve_release", turn=turn, reserves_left=reserves_left))
    if not isinstance(dice, (tuple, list)) or len(dice) != 2:
        raise InvalidInput(f"the Reserve Release DR is two die faces, e.g. [3, 5], not {dice!r}", rule=rule,
                           path="dice")
    faces = (_face(dice[0], "Reserve Release DR", rule), _face(dice[1], "Reserve Release DR", rule))
    dr = sum(faces)
    drm = RESERVE_RELEASE_DRM * released
    modified = dr + drm
    releases = modified <= turn
    mod = (f" +{drm} ({released} Reserve Cloaking counter{'s' if released != 1 else ''} already released) = "
           f"{modified}") if drm else ""
    result = ("one Reserve Cloaking counter of the German's choice is released at once (SSR CG7b)" if releases
              else "no Reserve Cloaking counter is released")
    why = (f"Turn {turn}: Reserve Release DR {dr} ({faces[0]}+{faces[1]}){mod} {'<=' if releases else '>'} {turn}: "
           f"{result} ({rule})")
    return ReserveRelease(turn, faces, dr, released, drm, modified, releases, rule, why)


# --------------------------------------------------------------------------
# SSR CG16 Sniper selection


@dataclass(frozen=True)
class SniperSelection:
    """Which of a side's Sniper counters makes a Sniper attack (SSR CG16)."""

    dr: int | None                  # None: one counter, no dr
    counters: int
    counter: int                    # 1 = the first, 2 = the second
    rule: str
    why: str
    source: str = "reading"         # the 1-3 / 4-6 split

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def sniper_counters(map_group: str) -> int:
    """SSR CG16: the Sniper counters a side uses per CG scenario on ``map_group`` (Ch 1, else 2)."""
    if map_group not in SNIPERS:
        raise InvalidInput(f"{map_group!r} is not a KGP map group (St, Ch or Lg)", rule="CG16", path="map_group")
    return SNIPERS[map_group]


def sniper_selection(dr: int | None, counters: int = 2) -> SniperSelection:
    """The extra dr when a Sniper attack occurs: 1-3 the first counter attacks, 4-6 the second."""
    rule = "CG16"
    if not _is_int(counters) or counters not in (1, 2):
        raise IllegalOrder(f"a side uses 2 Sniper counters (1 on the Ch map group), not {counters!r}", rule=rule,
                           path="counters")
    if counters == 1:
        if dr is not None:
            _refuse(check_request("sniper_selection", counters=1))
        return SniperSelection(None, 1, 1, rule, "one Sniper counter (the Ch map group): it attacks; no selection "
                                                 f"dr ({rule})", "seed")
    if dr is None:
        raise InvalidInput("two Sniper counters: the selection needs a dr (1-6)", rule=rule, path="dr")
    face = _face(dr, "Sniper selection dr", rule)
    counter = 1 if face in SNIPER_FIRST else 2
    why = (f"Sniper selection dr {face} (1-3 the first counter, 4-6 the second, equal chances): the "
           f"{'first' if counter == 1 else 'second'} Sniper counter attacks ({rule})")
    return SniperSelection(face, 2, counter, rule, why)


__all__ = [
    "GAME_END_FROM_TURN", "NIGHT_DRM", "PHASES", "REINFORCEMENT_VARIANTS", "REQUESTS", "RESERVE_RELEASE_FROM_TURN",
    "Circled", "GameEnd", "GameEndChart", "Reinforcement", "ReserveRelease", "RollRequest", "SniperSelection",
    "check_request", "game_end", "load_game_end_chart", "reinforcement", "reserve_release", "sniper_counters",
    "sniper_selection",
]
