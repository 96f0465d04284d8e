"""The scenario-time rolls asked for in a turn report (``dD.tT``), checked and rolled
(:mod:`.rolls` holds the rules; this module ties them to the campaign state and the dice).

A request is ``{roll: NAME, side}`` with NAME one of :data:`.rolls.REQUESTS` (``game_end``,
``reinforcement``, ``reinforcement_i2``, ``reinforcement_iii5``, ``reserve_release``,
``sniper_selection``); ``side`` is who rolls (default: the turn report's sender); ``rg`` names
the RG of a III.5 dr, which is made per RG, and no other roll names one.  In a turn
report the sides' Player Turns are both done, so the phase is the one the rule names, and
the phasing player is the side rolling (reading: the turn report covers both Player Turns).

Once per Player Turn / RPh (CG Game End, III.6, I.2, III.5 per RG, CG5): a roll counts as made
when it is in the rolls already logged for this turn *or* earlier in the orders being checked,
so two requests in one turn's orders cannot both be rolled.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...base.errors import InvalidInput
from ..base import Problem
from . import rolls as rl
from .campaign import load_campaign
from .rg_chart import load_rg_chart
from .state_types import KgpState

if TYPE_CHECKING:
    from ...kit.charts import Charts

NAMES = tuple(rl.REQUESTS)


@dataclass(frozen=True)
class Made:
    faces: list[int]
    why: str
    rule: str
    ends_scenario: bool = False
    releases: bool = False              # III.6: a Reserve Cloaking counter is released
    enters: bool = False                # CG5, I.2, III.5: the reinforcements may enter


#: the rolls made once per Player Turn or RPh (III.5: once per RPh for each RG)
PER_TURN = ("Player Turn", "RPh", "RPh and RG")
#: III.5: "each other I, V or G type RG" rolls for its entry
III5_TYPES = ("I", "V", "G")


def _count(state: KgpState, name: str, side: str, **match: object) -> int:
    return sum(1 for r in state.get("rolls", []) if r["date"] == state["date"] and r["roll"] == name
               and r["side"] == side and all(r.get(k) == v for k, v in match.items()))


def _same(name: str, side: str, rg: object, earlier: list[dict], default_side: str) -> bool:
    """Does a request of ``earlier`` (the orders being checked) ask for this roll by this side (III.5:
    for this RG)?"""
    return any(r.get("roll") == name and r.get("side", default_side) == side
               and (name != "reinforcement_iii5" or r.get("rg") == rg) for r in earlier)


def _rg_problems(charts: Charts, name: str, rg: object) -> list[Problem]:
    """III.5 names the RG its dr is for (an I, V or G RG of the US chart); no other roll names one."""
    q = rl.REQUESTS[name]
    if name != "reinforcement_iii5":
        if rg is None:
            return []
        return [Problem(f"the {q.label} names no RG: only the III.5 reinforcement dr is made per RG"
                        + (" (SSR CG5's dr is for all the Scenario Defender's reinforcements)"
                           if name == "reinforcement" else ""), q.rule, ["rg"])]
    if rg is None:
        return [Problem("the III.5 reinforcement dr is made per RG: name it (`rg: I3`)", q.rule, ["rg"])]
    try:
        load_rg_chart(charts).get("us", str(rg))
    except InvalidInput as exc:
        return [Problem(exc.message, q.rule, ["rg"])]
    if not str(rg).startswith(III5_TYPES) or str(rg).startswith("HW"):
        return [Problem(f"III.5: only the US I, V or G type RGs enter on a dr, not {rg}", q.rule, ["rg"])]
    return []


def request_problems(charts: Charts, name: str, turn: int, side: str, state: KgpState, request: dict | None = None,
                     earlier: list[dict] | None = None, default_side: str | None = None) -> list[Problem]:
    """Why ``side`` may not make the roll ``name`` now.  ``earlier``: the requests before this one in
    the orders being checked (``default_side``: whose orders, the side a request without one names):
    a roll made once per Player Turn or RPh counts them as made."""
    sc = state["scenario"]
    q = rl.REQUESTS.get(name)
    if q is None:
        return [Problem(f"there is no roll {name!r}; the KGP scenario rolls are {', '.join(NAMES)}", "9", ["roll"])]
    rg = (request or {}).get("rg")
    found = _rg_problems(charts, name, rg)
    if found:
        return found
    cg = load_campaign(charts, state["cg"])
    per_turn: dict[str, object] = {"turn": turn} if q.per in PER_TURN else {}
    if name == "reinforcement_iii5":            # III.5: one dr a RPh for each RG
        per_turn["rg"] = rg
    already = q.per in PER_TURN and (_count(state, name, side, **per_turn) > 0
                                     or _same(name, side, rg, earlier or [], default_side or side))
    # once they may enter, no further dr for them (rl.check_request `entered`)
    match = {"rg": rg} if name == "reinforcement_iii5" else {}
    entered = name.startswith("reinforcement") and _count(state, name, side, enters=True, **match) > 0
    # CG5: the Night reinforcement dr is the Scenario Defender's, in his own RPh
    phasing = sc["defender"] if name == "reinforcement" else side
    problems = rl.check_request(name, turn=turn, phase=q.phase or None, side=side, phasing=phasing,
                                night=sc["night"], cg=cg.id, initial=sc["initial"], already_rolled=already,
                                entered=entered,
                                counters=rl.sniper_counters(cg.map_group) if name == "sniper_selection" else None)
    if already and name == "reinforcement_iii5":
        return [Problem(p.message + f" (RG {rg})" if p.path == ["already_rolled"] else p.message, p.rule, p.path)
                for p in problems]
    return problems


def make_roll(charts: Charts, request: dict, state: KgpState, side: str, dice) -> Made:
    name = request["roll"]
    q = rl.REQUESTS[name]
    t, sc = state["turn"], state["scenario"]
    cg = load_campaign(charts, state["cg"])
    if name == "game_end":
        dr = dice.d6(q.purpose, by=side)
        r = rl.game_end(rl.load_game_end_chart(charts), t, dr, night=sc["night"], map_group=cg.map_group)
        return Made([dr], r.why, r.rule, r.ends)
    if name.startswith("reinforcement"):
        variant = {"reinforcement": "standard", "reinforcement_i2": "cg1_i2", "reinforcement_iii5": "cg3_iii5"}[name]
        dr = dice.d6(q.purpose, by=side)
        rf = rl.reinforcement(t, dr, rule_variant=variant, rg=request.get("rg"))
        return Made([dr], rf.why, rf.rule, enters=rf.enters)
    if name == "reserve_release":
        faces = dice.roll(q.purpose, count=2, by=side)
        released = sum(1 for x in state.get("rolls", []) if x["roll"] == name and x["date"] == state["date"]
                       and x.get("releases"))
        rr = rl.reserve_release(t, (faces[0], faces[1]), released=released)
        return Made(list(faces), rr.why, rr.rule, releases=rr.releases)
    dr = dice.d6(q.purpose, by=side)
    sn = rl.sniper_selection(dr, counters=rl.sniper_counters(cg.map_group))
    return Made([dr], sn.why, sn.rule)
