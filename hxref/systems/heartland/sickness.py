"""Deactivation and sickness (optional): rule 8.13, with the wound rules of 10.67.

When a leader is deactivated by an IMC result under 1 MP (8.11), roll 1d6:
1-5 he is simply deactivated; 6 he is sick and rolls again: 1-5 is a wound
level of that many turns (the effects of a combat wound, 10.67), 6 removes him
for the rest of the scenario.  A leader already wounded or sick dies of
complications when the new level brings the total to 6 or more, or on a
severity 6 (8.13b).  Removal and death by sickness give the opponent no VP.

State keys (besides :mod:`.model`'s)::

    options.sickness: true             the optional rule is in play (1.12)
    leaders[id]["wound"]: 3            wound level (10.67); healed 1 a turn by .reorganization
    leaders[id]["sick"]: true          the wound level came (at least partly) from sickness
    leaders[id]["removed"]: true       out for the scenario (8.13a, severity 6)
    leaders[id]["killed"]: true        died of complications (8.13b)
    leaders[id]["no_vp"]: true         8.13: the opponent scores no VP for him
    leaders[id]["cause"]: "sickness"

Readings chosen (pinned by ``tests/heartland/test_sickness.py``):

* Only a deactivation by the IMC triggers the check (not attrition or forced
  march, 8.11), and only when ``options.sickness`` is on (the caller may force
  it with ``optional=True``).
* "Already wounded or sick" is a wound level above 0 now, from combat or
  sickness; a severity 6 then is death rather than removal (both no VP).
* A new sickness level adds to an existing wound (10.67 markers add up, as
  :mod:`.combat_effects` does).
* A removed or dead leader leaves the map at once; his box, SLs, artillery
  and ASP pass as for a leader killed in combat (10.67, :mod:`.combat_effects`):
  to his superior, else his most senior SL, else his units stand unled.
* Recovery (1 level a turn, even in the pool) is done by
  :mod:`.reorganization`'s end of turn, which also clears ``sick`` when the
  wound reaches 0 (8.13a).  :mod:`.victory` scores no VP for a leader with
  ``no_vp``.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

from .state_types import FullGameState
from ..base import Problem
from . import forces as fc
from . import model

DEATH_TOTAL = 6        # 8.13b


class Outcome(enum.Enum):
    """What the sickness check did to the leader."""

    DEACTIVATED = "deactivated"     #: 1-5: simply deactivated (8.13)
    SICK = "sick"                   #: 6 then 1-5: a wound level for that many turns (8.13a)
    REMOVED = "removed"             #: 6 then 6: gravely ill, out for the scenario, no VP (8.13a)
    DIED = "died"                   #: complications: total >= 6, or 6 when already wounded/sick (8.13b)


@dataclass
class Sickness:
    leader: str
    roll: int | None = None
    severity: int | None = None
    wound_before: int = 0
    wound_after: int = 0
    outcome: Outcome | None = None
    heir: str | None = None
    problems: list[Problem] = field(default_factory=list)
    rule: str = "8.13"
    why: str = ""

    @property
    def leaves_map(self) -> bool:
        return self.outcome in (Outcome.REMOVED, Outcome.DIED)


def _heir(state: FullGameState, lid: str) -> str | None:
    ld = state["leaders"][lid]
    if ld.get("superior"):
        return ld["superior"]
    subs = [x for x, o in state["leaders"].items() if o.get("superior") == lid
            and not o.get("captured") and not o.get("killed") and not o.get("removed")]
    return fc.senior_of(state, subs)[0]


def sickness_check(state: FullGameState, lid: str, dice, *, cause: str = "imc", optional: bool | None = None) -> Sickness:
    """8.13: the sickness check of ``lid``, deactivated by ``cause`` ("imc": an IMC result < 1 MP)."""
    s = Sickness(lid)
    p = s.problems
    if lid not in state.get("leaders", {}):
        p.append(Problem(f"no leader {lid!r}", "8.13", ["leader"]))
        s.why = "not rolled: " + p[0].message
        return s
    ld = state["leaders"][lid]
    on = state.get("options", {}).get("sickness", False) if optional is None else optional
    if not on:
        p.append(Problem("sickness (8.13) is an optional rule not in play", "8.13", ["options", "sickness"]))
    if cause != "imc":
        p.append(Problem(f"only a deactivation by an IMC result under 1 MP calls for a sickness check, "
                         f"not {cause}", "8.13", ["cause"]))
    if ld.get("killed") or ld.get("removed") or ld.get("captured"):
        p.append(Problem(f"{lid} is no longer in the game", "8.13", ["leader"]))
    if p:
        s.why = "not rolled: " + "; ".join(x.message for x in p)
        return s
    s.wound_before = s.wound_after = int(ld.get("wound", 0) or 0)
    s.roll = dice.d6(f"sickness {lid}", by=ld["side"])
    if s.roll <= 5:
        s.outcome = Outcome.DEACTIVATED
        s.why = f"{lid} rolls {s.roll}: simply deactivated (8.13)"
        return s
    s.severity = dice.d6(f"sickness severity {lid}", by=ld["side"])
    already = s.wound_before > 0
    if s.severity == 6:
        if already:
            s.outcome, s.rule = Outcome.DIED, "8.13b"
            s.why = (f"{lid} rolls 6: sick; severity 6 while already wounded (level {s.wound_before}): "
                     "he dies of complications (no VP, 8.13b)")
        else:
            s.outcome, s.rule = Outcome.REMOVED, "8.13a"
            s.why = f"{lid} rolls 6: sick; severity 6: gravely ill, removed for the scenario (no VP, 8.13a)"
    else:
        total = s.wound_before + s.severity
        if already and total >= DEATH_TOTAL:
            s.outcome, s.rule, s.wound_after = Outcome.DIED, "8.13b", total
            s.why = (f"{lid} rolls 6: sick; severity {s.severity} on wound {s.wound_before} = {total} >= "
                     f"{DEATH_TOTAL}: he dies of complications (no VP, 8.13b)")
        else:
            s.outcome, s.rule, s.wound_after = Outcome.SICK, "8.13a", total
            s.why = (f"{lid} rolls 6: sick; severity {s.severity}: wound level {total}"
                     + (f" ({s.wound_before} + {s.severity})" if already else "")
                     + f", every rating -{total}, recovering 1 a turn (8.13a, 10.67)")
    if s.leaves_map:
        s.heir = _heir(state, lid)
        s.why += "; " + (f"{s.heir} takes his command" if s.heir else "his units stand unled")
    return s


def apply_sickness(state: FullGameState, s: Sickness) -> None:
    """Apply a sickness check: deactivation (8.11, if not done yet), the wound, or removal."""
    if s.problems:
        raise ValueError("cannot apply an illegal sickness check: " + s.why)
    from .imc import apply_deactivation, deactivation

    ld = state["leaders"][s.leader]
    if ld.get("active"):
        apply_deactivation(state, deactivation(state, s.leader, cause="IMC result under 1 MP"))
    if s.outcome is Outcome.SICK:
        ld["wound"] = s.wound_after
        ld["sick"] = True
    elif s.leaves_map:
        from .combat_effects import Kill, apply_effect

        flag: Literal["killed", "removed"] = "killed" if s.outcome is Outcome.DIED else "removed"
        apply_effect(Kill(s.leader, s.heir, "", s.rule, s.why), state)   # box, SLs, artillery pass on
        if flag == "removed":
            ld.pop("killed", None)
        ld[flag] = True
        ld["no_vp"] = True
        ld["cause"] = "sickness"
        ld["wound"] = s.wound_after


current_rating = model.current_rating     # a rating now, less the wound level (10.67, H-11)
