"""What the turn's weather does: rules 5.21-5.29 (and 3.53 item 4, 3.55).

The Weather Table roll itself is :meth:`.initiative.WeatherChart.roll` (5.2);
the record it leaves is ``state["current"]["weather"] = {result, roll,
stand_in}`` and past turns keep theirs in ``state["history"][i]["weather"]``.
This module reads those records and

* turns a rolled Rain (or Light Rain) into **Mud** when the rain of the
  consecutive rainy turns reaches two Rain turns (5.22, 5.24):
  :func:`resolve_mud` / :func:`apply_mud`;
* works out the leader ML changes due at the **start of the turn**
  (5.21 Clear after Mud or Blizzard: +1; 5.26 Cold: -1, not cumulative,
  restored on the next non-Cold turn) and the end of Blizzard unit-ML
  losses (5.21 "cancels the lingering effects"): :func:`turn_start` /
  :func:`apply_turn_start`;
* charges the **Blizzard** ML loss of a force that moves (5.29):
  :func:`blizzard_loss` / :func:`apply_blizzard_loss`;
* answers the DRM look-ups other modules need: :func:`fert_drm` (5.23,
  5.24, 5.29: Rain and Mud -1, Blizzard -4) and :func:`march_drm` (the
  Forced March Table and the Attrition Table: Rain +1, Mud +3, Snow +2,
  Blizzard +4).

Functions named ``apply_...`` change the state; the others leave it alone.

State keys this module adds (all optional; absent means "none")::

    state["current"]["weather"]["rolled"]      the Weather Table result when
                                               5.24 turned it into Mud
                                               ("Rain" or "Light Rain")
    state["current"]["weather"]["rain"]        the rain count that made it Mud
    state["current"]["weather"]["effects_applied"]  true once turn_start's
                                               changes are applied (so a
                                               second call changes nothing)
    leaders[id]["cold_ml"]     1 while the leader has lost 1 ML to Cold (5.26);
                               removed when it is restored
    leaders[id]["blizzard_turn"], units[id]["blizzard_turn"],
    logistics[id]["blizzard_turn"]
                               the turn number in which the counter last lost
                               ML for moving in a Blizzard (5.29), so that it
                               loses it once a turn
    units[id]["blizzard_ml"], logistics[id]["blizzard_ml"]
                               levels of ML the unit has lost to Blizzards
                               (worse: unit ML 0 -> 1); cleared by the next
                               Clear turn (5.21).  :func:`unit_ml` reads it.

Readings chosen where the rules are ambiguous (pinned by
``tests/heartland/test_weather_effects.py``):

* 5.24 Mud: a turn whose Weather Table result is Rain or Light Rain is
  played as **Mud** when the rain of the unbroken run of rainy turns ending
  with it reaches 2, a Rain turn counting 1 and a Light Rain turn 0.5 (5.22).
  So the *second* Rain turn itself is Mud (Rain, Rain -> Rain, Mud), as are
  Light Rain x 4, Rain + Light Rain + Light Rain, and any further rainy turn
  of the same run (Rain, Mud, Mud ...).  A turn of any other weather ends
  the run and is never turned into Mud.  A Mud turn counts as the rain it
  was rolled as (``rolled``); a Mud result with no ``rolled`` (the Weather
  Table gave Mud directly) counts as one Rain turn.
* A turn whose weather was not rolled (both sides passed, so nobody won the
  initiative to roll it, 5.2) has no weather effects and breaks a run of
  rainy turns.
* 5.21 "follows Mud or Blizzard" looks at the previous turn only; the +1 goes
  to every leader not captured or killed (map, boxes and the Leader Pool:
  "全ての指揮官"), at most ML 9 (3.51).
* 5.26 Cold: each leader loses 1 ML the first Cold turn of a run and is
  marked ``cold_ml``; later Cold turns change nothing; the first non-Cold
  turn gives the 1 back to every marked leader.  A leader already at ML 0
  loses nothing and so has nothing restored.  Cold applies to the same
  leaders as 5.21.
* 5.29 Blizzard: every leader (the OC and his SLs: 3.55 exempts bad weather
  from the OC-only rule) and every living unit and wagon of a force that
  moves loses 1 ML level, **once per Blizzard turn** however often it moves
  (the rule's condition is "moves in a Blizzard turn").  A leader's loss is a
  change of his ML (0 at worst); it is not given back, but 5.21 gives +1 when
  Clear follows.  A unit's loss is a modifier ``blizzard_ml`` on its printed
  ML (3.53 fixes printed unit ML), at most up to ML 6, lasting through
  later turns until the next **Clear** turn cancels it (5.21).  Which moves
  count is the caller's to say; hxref counts movement in the Movement
  Sequence and reaction movement, not retreats or advances after combat.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, cast

from .state_types import FullGameState, Turn, Unit
from . import model
from .names import surname, unit_label

ML_MIN, ML_MAX = 0, 9            # 3.51: leader ML 0-9, higher is better
UNIT_ML_MAX = 6                  # 3.52: unit ML 0-6, 0 is best

CLEAR, LIGHT_RAIN, RAIN, MUD, THAW, COLD = "Clear", "Light Rain", "Rain", "Mud", "Thaw", "Cold"
LIGHT_SNOW, SNOW, BLIZZARD = "Light Snow", "Snow", "Blizzard"

#: 5.22-5.24: how much of a Rain turn each rainy weather counts for Mud.
RAIN_COUNT = {RAIN: 1.0, LIGHT_RAIN: 0.5}
MUD_AFTER = 2.0                  # 5.24: two consecutive Rain turns

#: 5.23, 5.24, 5.29: the DRM on every FERT roll (+ is good for the firer).
FERT_DRM = {RAIN: -1, MUD: -1, BLIZZARD: -4}
#: 5.23, 5.24, 5.28, 5.29: the DRM on Forced March Table and Attrition Table rolls (+ is bad).
MARCH_DRM = {RAIN: 1, MUD: 3, SNOW: 2, BLIZZARD: 4}
_RULE_OF = {CLEAR: "5.21", LIGHT_RAIN: "5.22", RAIN: "5.23", MUD: "5.24", THAW: "5.25", COLD: "5.26",
            LIGHT_SNOW: "5.27", SNOW: "5.28", BLIZZARD: "5.29"}


class Cause(str, enum.Enum):
    """Why a leader's ML changes at the start of a turn."""

    CLEAR_AFTER = "clear_after"     #: 5.21: Clear follows Mud or Blizzard: +1
    COLD = "cold"                   #: 5.26: the first Cold turn: -1 (at most 1)
    COLD_ENDS = "cold_ends"         #: 5.26: the first non-Cold turn after Cold: the 1 comes back


# --------------------------------------------------------------------------
# look-ups


def weather_rule(weather: str) -> str:
    """The rule number that describes ``weather``."""
    return _RULE_OF.get(weather, "5.2")


def fert_drm(weather: str) -> int:
    """5.23, 5.24, 5.29: the weather DRM on every FERT roll (Rain, Mud -1; Blizzard -4; else 0)."""
    return FERT_DRM.get(weather, 0)


def march_drm(weather: str) -> int:
    """5.23, 5.24, 5.28, 5.29: the weather DRM on the Forced March Table (8.31a item 3) and the
    Attrition Table (Rain +1, Mud +3, Snow +2, Blizzard +4; else 0)."""
    return MARCH_DRM.get(weather, 0)


def attrition_drm(weather: str) -> int:
    """The same weather DRMs on the Attrition Table (5.23-5.29)."""
    return march_drm(weather)


def rain_count(record) -> float:
    """How much of a Rain turn a weather record (or name) counts for Mud (5.22, 5.24)."""
    if record is None:
        return 0.0
    if isinstance(record, str):
        return 1.0 if record == MUD else RAIN_COUNT.get(record, 0.0)
    rolled = record.get("rolled")
    if rolled is not None:
        return RAIN_COUNT.get(rolled, 1.0 if rolled == MUD else 0.0)
    return rain_count(record.get("result"))


def result_of(record) -> str | None:
    """The weather a record stands for (``{result: ...}`` or a bare name); None when not rolled."""
    if record is None:
        return None
    if isinstance(record, str):
        return record
    return record.get("result")


def current_weather(state: FullGameState) -> str:
    """This turn's weather: ``state["current"]["weather"]`` (or ``state["weather"]``); Clear if none."""
    w = (state.get("current") or cast(Turn, {})).get("weather") or state.get("weather")
    return result_of(w) or CLEAR


def past_weather(state: FullGameState) -> list:
    """The weather records of the turns already played, oldest first (``state["history"]``)."""
    return [h.get("weather") for h in state.get("history", [])]


def previous_weather(state: FullGameState) -> str | None:
    """Last turn's weather (None on the first turn or when it was not rolled)."""
    past = past_weather(state)
    return result_of(past[-1]) if past else None


# --------------------------------------------------------------------------
# 5.24 Mud


@dataclass(frozen=True)
class MudCheck:
    """Whether this turn's rolled weather is played as Mud (5.24)."""

    rolled: str
    result: str
    rain: float                  # the rain of the run of rainy turns ending with this one
    run: tuple[str, ...]         # that run, oldest first, as rolled
    rule: str = "5.24"
    why: str = ""

    @property
    def mud(self) -> bool:
        return self.result == MUD and self.rolled != MUD


def resolve_mud(rolled: str, past: Iterable = ()) -> MudCheck:
    """5.22/5.24: ``rolled`` (this turn's Weather Table result) after the turns ``past`` (oldest
    first, records or names): Mud when the run of rainy turns ending now has rain >= 2.

    >>> resolve_mud("Rain", ["Clear", "Rain"]).result
    'Mud'
    >>> resolve_mud("Rain", ["Light Rain"]).result
    'Rain'
    """
    if rolled not in RAIN_COUNT:
        why = f"{rolled}: not a rainy turn, never Mud (5.24)"
        if rolled == MUD:
            why = "Mud as rolled (counts as a Rain turn for later Mud, 5.24)"
        return MudCheck(rolled, rolled, rain_count(rolled), (rolled,) if rolled == MUD else (), "5.24", why)
    run: list[str] = [rolled]
    total = RAIN_COUNT[rolled]
    for rec in reversed(list(past)):
        r = rain_count(rec)
        if r <= 0:
            break
        total += r
        run.insert(0, cast(str, (rec.get("rolled") or rec.get("result")) if isinstance(rec, dict) else rec))
    text = " + ".join(f"{x} ({RAIN_COUNT.get(x, 1.0):g})" for x in run)
    if total >= MUD_AFTER:
        return MudCheck(rolled, MUD, total, tuple(run), "5.24",
                        f"{rolled} after {len(run) - 1} rainy turn(s): {text} = {total:g} Rain turns, "
                        f"at least {MUD_AFTER:g}: Mud (5.22, 5.24)")
    return MudCheck(rolled, rolled, total, tuple(run), "5.24",
                    f"{text} = {total:g} Rain turns, under {MUD_AFTER:g}: no Mud yet (5.22, 5.24)")


def apply_mud(state: FullGameState, check: MudCheck | None = None) -> MudCheck:
    """Write 5.24 into this turn's weather record: ``result: Mud`` and ``rolled``/``rain`` when it is Mud.

    Idempotent: a record already turned into Mud is left alone."""
    rec = state["current"]["weather"]
    if rec is None:
        raise ValueError("this turn's weather has not been rolled (5.2)")
    if rec.get("rolled") is not None:
        return resolve_mud(rec["rolled"], past_weather(state))
    check = check or resolve_mud(rec["result"], past_weather(state))
    if check.mud:
        rec["rolled"] = check.rolled
        rec["result"] = MUD
        rec["rain"] = check.rain
    return check


# --------------------------------------------------------------------------
# the start of the turn: 5.21, 5.26 (leaders) and 5.21 (units' Blizzard losses)


@dataclass(frozen=True)
class MLChange:
    """One leader's ML change."""

    leader: str
    before: int
    after: int
    cause: Cause
    cold_ml: int | None          # the leader's cold_ml marker afterwards (None: removed / not set)
    rule: str
    why: str


@dataclass(frozen=True)
class UnitRecovery:
    """A unit or wagon whose Blizzard ML loss the Clear turn cancels (5.21, 5.29)."""

    kind: str                    # "units" | "logistics"
    id: str
    levels: int
    rule: str = "5.21, 5.29"


@dataclass
class TurnStart:
    """The weather effects due at the start of a turn (5.21, 5.26)."""

    turn: int | None
    weather: str
    previous: str | None
    changes: list[MLChange] = field(default_factory=list)
    recoveries: list[UnitRecovery] = field(default_factory=list)
    already_applied: bool = False
    rule: str = "5.21, 5.26"
    why: str = ""


def affected_leaders(state: FullGameState) -> list[str]:
    """The leaders weather changes (5.21, 5.26: "every leader"): all but the captured, killed and removed."""
    return [lid for lid, ld in state["leaders"].items()
            if not (ld.get("captured") or ld.get("killed") or ld.get("removed"))]


def _clamp(ml: int) -> int:
    return max(ML_MIN, min(ML_MAX, ml))


def _cold_loss(lid: str, ml: int, cold) -> MLChange | None:
    """5.26: a Cold turn costs every leader 1 ML, not cumulative (a leader with a Cold marker or at
    the lowest ML loses nothing)."""
    if cold or ml <= ML_MIN:
        return None
    return MLChange(lid, ml, ml - 1, Cause.COLD, 1, "5.26",
                    f"{lid}: Cold, ML {ml} -> {ml - 1} (at most 1, not cumulative)")


def _ml_restored(lid: str, ml: int, cold, now: str, prev: str | None) -> MLChange | None:
    """5.26, 5.21: after the Cold each leader gets his 1 ML back; a Clear turn after Mud or Blizzard
    gives every leader +1 ML."""
    after = ml
    parts = []
    cause = None
    if cold:
        after = _clamp(after + int(cold))
        parts.append("the Cold is over: +1 back (5.26)")
        cause = Cause.COLD_ENDS
    clear_after = now == CLEAR and prev in (MUD, BLIZZARD)
    if clear_after:
        after = _clamp(after + 1)
        parts.append(f"Clear after {prev}: +1 (5.21)")
        cause = Cause.CLEAR_AFTER if cause is None else cause
    if cause is None:
        return None
    rule = "5.26" if cause is Cause.COLD_ENDS else "5.21"
    if cold and clear_after:
        rule = "5.21, 5.26"
    return MLChange(lid, ml, after, cause, None, rule, f"{lid}: ML {ml} -> {after}; " + "; ".join(parts))


def _blizzard_recoveries(state: FullGameState) -> list[UnitRecovery]:
    """5.21, 5.29: a Clear turn cancels the Blizzard ML losses of units and wagons."""
    return [UnitRecovery(kind, uid, int(u["blizzard_ml"]))
            for kind in ("units", "logistics") for uid, u in cast(dict, state).get(kind, {}).items()
            if u.get("blizzard_ml")]


def _turn_start_why(ts: TurnStart, now: str, prev: str | None) -> str:
    notes: list[str] = []
    if now == COLD:
        notes.append(f"Cold: {len(ts.changes)} leader(s) lose 1 ML, not cumulative (5.26)")
    else:
        if now == CLEAR and prev in (MUD, BLIZZARD):
            notes.append(f"Clear after {prev}: every leader +1 ML (5.21)")
        back = sum(1 for c in ts.changes if c.cause is Cause.COLD_ENDS)
        if back:
            notes.append(f"the Cold is over: {back} leader(s) get their 1 ML back (5.26)")
    if ts.recoveries:
        notes.append(f"Clear cancels the Blizzard ML losses of {len(ts.recoveries)} unit(s) (5.21, 5.29)")
    return "; ".join(notes) or f"{now}" + (f" after {prev}" if prev else "") + ": no ML changes"


def turn_start(state: FullGameState) -> TurnStart:
    """5.21 / 5.26 (H-20): the ML changes this turn's weather makes at its start, and the units
    whose Blizzard ML losses a Clear turn cancels.  Nothing is changed here."""
    now = current_weather(state)
    prev = previous_weather(state)
    rec = (state.get("current") or cast(Turn, {})).get("weather") or state.get("weather")
    ts = TurnStart(state.get("turn"), now, prev)
    if rec is None:
        ts.already_applied = True
        ts.why = "no weather was rolled this turn (nobody won the initiative, 5.2): no weather effects"
        return ts
    if isinstance(rec, dict) and rec.get("effects_applied"):
        ts.already_applied = True
        ts.why = f"{now}: the start-of-turn effects were already applied"
        return ts
    for lid in affected_leaders(state):
        ld = state["leaders"][lid]
        ml = int(ld.get("ml", 0))
        cold = ld.get("cold_ml")
        change = _cold_loss(lid, ml, cold) if now == COLD else _ml_restored(lid, ml, cold, now, prev)
        if change is not None:
            ts.changes.append(change)
    if now == CLEAR:
        ts.recoveries = _blizzard_recoveries(state)
    ts.why = _turn_start_why(ts, now, prev)
    return ts


def apply_turn_start(state: FullGameState, ts: TurnStart | None = None) -> TurnStart:
    """Apply :func:`turn_start` (computed now if not given) and mark the weather record applied."""
    ts = ts or turn_start(state)
    if ts.already_applied:
        return ts
    for c in ts.changes:
        ld = state["leaders"][c.leader]
        ld["ml"] = c.after
        if c.cold_ml:
            ld["cold_ml"] = c.cold_ml
        else:
            ld.pop("cold_ml", None)
    for r in ts.recoveries:
        cast(dict, state)[r.kind][r.id].pop("blizzard_ml", None)
    rec = (state.get("current") or cast(Turn, {})).get("weather")
    if isinstance(rec, dict):
        rec["effects_applied"] = True
    return ts


def start_of_turn(state: FullGameState) -> tuple[MudCheck | None, TurnStart]:
    """Everything of this module due once the weather is rolled: 5.24 Mud, then 5.21 / 5.26."""
    mud = apply_mud(state) if (state.get("current") or cast(Turn, {})).get("weather") else None
    return mud, apply_turn_start(state)


# --------------------------------------------------------------------------
# 5.29 Blizzard: moving costs 1 ML


def unit_ml(unit: Mapping[str, Any]) -> int:
    """A unit's ML now: the printed ML of the side showing plus its Blizzard losses (5.29), at most 6."""
    base = model.unit_ml(cast(Unit, unit)) if "steps" in unit and isinstance(unit.get("ml"), list) else int(unit.get("ml", 0))
    return min(UNIT_ML_MAX, base + int(unit.get("blizzard_ml", 0)))


@dataclass(frozen=True)
class BlizzardHit:
    kind: str                    # "leaders" | "units" | "logistics"
    id: str
    before: int
    after: int                   # leaders: the ML; units and wagons: their ML with the modifier


@dataclass
class BlizzardLoss:
    """5.29: the ML levels lost by the leaders and units of a force that moves in a Blizzard."""

    force: str
    weather: str
    turn: int | None
    hits: list[BlizzardHit] = field(default_factory=list)
    spared: list[str] = field(default_factory=list)   # already charged this turn
    rule: str = "5.29"
    why: str = ""


def _moving_members(state: FullGameState, force_id: str) -> tuple[list[str], list[str], list[str]]:
    """Leaders, living units and logistics that move with ``force_id`` (a force or a wagon moving alone)."""
    if force_id in state.get("logistics", {}):
        return [], [], [force_id]
    if model.is_unled(force_id):
        units = model.units_of(state, force_id)
        h = model.force_hex(state, force_id)
        side = model.force_side(state, force_id)
        wagons = [sid for sid, s in state.get("logistics", {}).items()
                  if s.get("hex") == h and not s.get("leader") and s["side"] == side]
        return [], units, wagons
    return (model.force_leaders(state, force_id), model.force_units(state, force_id),
            model.force_logistics(state, force_id))


def blizzard_loss(state: FullGameState, force_id: str, *, weather: str | None = None) -> BlizzardLoss:
    """5.29 (H-20): every leader, unit and wagon of ``force_id`` that moves in a Blizzard turn loses
    1 ML level, once a turn.  ``force_id`` may be a wagon's id when it moves alone.  Nothing when the
    weather is not Blizzard."""
    weather = weather or current_weather(state)
    turn = state.get("turn")
    out = BlizzardLoss(force_id, weather, turn)
    if weather != BLIZZARD:
        out.why = f"{weather}: moving costs no ML (only Blizzard does, 5.29)"
        return out
    leaders, units, wagons = _moving_members(state, force_id)
    for kind, ids in (("leaders", leaders), ("units", units), ("logistics", wagons)):
        for x in ids:
            rec = cast(dict, state)[kind][x]
            if turn is not None and rec.get("blizzard_turn") == turn:
                out.spared.append(x)
                continue
            if kind == "leaders":
                ml = int(rec.get("ml", 0))
                out.hits.append(BlizzardHit(kind, x, ml, _clamp(ml - 1)))
            else:
                ml = unit_ml(rec)
                out.hits.append(BlizzardHit(kind, x, ml, min(UNIT_ML_MAX, ml + 1)))
    parts = [f"{surname(state['leaders'], h.id) if h.kind == 'leaders' else unit_label(state, h.id)} "
             f"{h.before}->{h.after}" for h in out.hits]
    out.why = ("moving in a Blizzard: 1 ML level lost by " + (", ".join(parts) or "nobody")
               + (f"; {', '.join(out.spared)} already lost it this turn" if out.spared else "") + " (5.29)")
    return out


def apply_blizzard_loss(state: FullGameState, loss: BlizzardLoss) -> None:
    """Apply a :func:`blizzard_loss`: leaders' ML falls; units and wagons get ``blizzard_ml`` + 1."""
    for h in loss.hits:
        rec = cast(dict, state)[h.kind][h.id]
        if h.kind == "leaders":
            rec["ml"] = h.after
        elif h.after > h.before:
            rec["blizzard_ml"] = int(rec.get("blizzard_ml", 0)) + 1
        if loss.turn is not None:
            rec["blizzard_turn"] = loss.turn
