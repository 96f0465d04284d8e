"""The scenario-time rolls asked for in a turn report (``dD.tT``), checked and rolled
(:mod:`.rolls` holds the rules; this module ties them to the campaign state and the dice).

A request is ``{roll: NAME, side}`` with NAME one of :data:`.rolls.REQUESTS` (``game_end``,
``reinforcement``, ``reinforcement_i2``, ``reinforcement_iii5``, ``reserve_release``,
``sniper_selection``); ``side`` is who rolls (default: the turn report's sender).  In a turn
report the sides' Player Turns are both done, so the phase is the one the rule names, and
the phasing player is the side rolling (reading: the turn report covers both Player Turns).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..base import Problem
from . import rolls as rl
from .campaign import load_campaign
from .state_types import KgpState

NAMES = tuple(rl.REQUESTS)


@dataclass(frozen=True)
class Made:
    faces: list[int]
    why: str
    rule: str
    ends_scenario: bool = False
    releases: bool = False              # III.6: a Reserve Cloaking counter is released
    enters: bool = False                # CG5, I.2, III.5: the reinforcements may enter


def _count(state: KgpState, name: str, side: str, **match: object) -> int:
    return sum(1 for r in state.get("rolls", []) if r["date"] == state["date"] and r["roll"] == name
               and r["side"] == side and all(r.get(k) == v for k, v in match.items()))


def request_problems(name: str, turn: int, side: str, state: KgpState, request: dict | None = None) -> list[Problem]:
    sc = state["scenario"]
    q = rl.REQUESTS.get(name)
    if q is None:
        return [Problem(f"there is no roll {name!r}; the KGP scenario rolls are {', '.join(NAMES)}", "9", ["roll"])]
    cg = load_campaign(state["cg"])
    per_turn: dict[str, object] = {"turn": turn} if q.per in ("Player Turn", "RPh", "RPh and RG") else {}
    rg = (request or {}).get("rg")
    if name.startswith("reinforcement"):        # III.5 (and CG5 when given per RG): one dr a RPh for each RG
        per_turn["rg"] = rg
    already = _count(state, name, side, **per_turn) > 0 if q.per != "Sniper attack" else False
    # once they may enter, no further dr for them (rl.check_request `entered`)
    entered = name.startswith("reinforcement") and _count(state, name, side, rg=rg, enters=True) > 0
    # CG5: the Night reinforcement dr is the Scenario Defender's, in his own RPh
    phasing = sc["defender"] if name == "reinforcement" else side
    return rl.check_request(name, turn=turn, phase=q.phase or None, side=side, phasing=phasing, night=sc["night"],
                            cg=cg.id, initial=sc["initial"], already_rolled=already, entered=entered,
                            counters=rl.sniper_counters(cg.map_group) if name == "sniper_selection" else None)


def make_roll(request: dict, state: KgpState, side: str, dice) -> Made:
    name = request["roll"]
    q = rl.REQUESTS[name]
    t, sc = state["turn"], state["scenario"]
    cg = load_campaign(state["cg"])
    if name == "game_end":
        dr = dice.d6(q.purpose, by=side)
        r = rl.game_end(t, dr, night=sc["night"], map_group=cg.map_group)
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
