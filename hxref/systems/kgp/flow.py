"""KGP campaign flow: checking each decision's answers and resolving them (see :mod:`.system`).

Readings (pinned by ``tests/kgp/test_flow.py`` and ``tests/kgp/test_play.py``):

* two reports agree when every shared fact is equal (LVP, CVP, hexes, buildings, the
  bridge, the Refit facts); a side's own losses and notes are its own;
* a Refit step that needs a fact the reports deny is skipped, and the reason logged;
* the CPP a side reports for 8.616 is added before its purchases are paid for;
* an Idle Date's roster row keeps the CG-LVP Total (reading of 8.603);
* the scenario turn's keeper is the side that moves first; turn 1 follows the set-up;
* a turn report's rolls are made in order; once one ends the scenario at once (a Game End
  dr), the rest are not made (the rest of that turn is not played), and the log says so;
* a CG scenario ends only on a Game End dr hxref rolls (CG Game End): ``end: true`` is refused
  before Turn 6 and without a ``game_end`` request; with one it ends nothing the dr does not;
* a Refit Phase's checklist rows carry the new CG Date (8.612), the date they prepare;
* a report is checked against what the victory determination will read (hexes of the map
  group, buildings, the bridge) when it is sent, not when both are in;
* a sealed item's id is unique for its side over the whole CG; the Objective Hexes sealed
  with a purchase are logged for their side alone (they tell which RGs were bought).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...base.errors import InvalidInput
from ..base import Decision, Problem
from .areas import determine, determine_from_state, strategic_hexes, strategic_problems
from .campaign import load_campaign
from .chits import chit_outcome, load_initiative_chart
from .lvp import counted, lost_lvp
from .lvp import report_problems as lvp_problems
from .fortifications import buy, fpp_problems
from .gun_arcs import fix_arcs, gun_problems
from .purchase import ob_objective_problems, pay, purchase_problems
from .quotas import (declare_fanaticism, fanaticism_problems, oba_problems, pf_problems, remove_oba, say_oba,
                     track_pf)
from .rg_chart import load_rg_chart
from .refit_rolls import check_problems, make_rolls, refit_chart, roll_checks, roll_problems
from .retained import roll_escapes, roll_shifts, shift_problems, unit_problems
from .rolls import GAME_END_FROM_TURN, GAME_END_RULE
from .scenario_rolls import make_roll, request_problems
from .sealing import OBJECTIVE_RULE, OBJECTIVE_TERRAIN, objective_problems, opens, seal_id_problems, seal_problems
from .setup_rules import place, placement_problems, release, release_problems
from .sides import SIDE_ADJECTIVES, SIDES, other
from .state_types import KgpState, RefitRow, RollRecord, SceneReport
from .victory import Victory, victory
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

#: the Refit steps whose drs a side asks for in its sealed Refit orders (refit_rolls.py, fortifications.py)
ROLLED_STEPS = {
    "8.614": "the sides' drs for their malfunctioned weapons, asked for in the sealed Refit orders (`rolls`), "
             "rolled by hxref on the stand-in table (its text is lost)",
    "8.618": "the German drs, asked for in the sealed Refit orders (`rolls`), rolled by hxref on the stand-in table "
             "(its text is lost)",
    "8.620": "the German strength dr of each RG bought, asked for with the purchase (`rolls`), rolled by hxref on "
             "the stand-in table; US RGs are always at Full Strength (8.2)",
}

#: the facts both reports of a scenario must agree on (8.603; 8.6 the Refit facts)
SHARED_FACTS = ("lvp", "cvp", "hexes", "buildings", "bridge_destroyed_by", "facts", "strategic", "blazes",
                "lvp_buildings")


# --- checks ---------------------------------------------------------------------------------------

def check(charts: Charts, state: KgpState, decision: Decision, side: str, choice: dict) -> list[Problem]:
    """The rules' problems of a choice whose shape fits the decision's schema (checked first, in
    :mod:`hxref.referee.orders`)."""
    found = _secret_dr_problems(choice.get("secret_drs", []))
    if found:
        return found
    if decision.kind == "setup":
        return _setup_problems(charts, state, side, choice)
    if decision.kind == "turn":
        return _turn_problems(charts, state, side, choice)
    if decision.kind == "report":
        return _report_problems(charts, state, choice) or _area_problems(charts, state, side, choice)
    if decision.kind == "refit":
        return _refit_problems(charts, state, side, choice)
    return []


def _secret_dr_problems(items: list) -> list[Problem]:
    return [Problem("a secret dr names its purpose", "9", ["secret_drs", i, "purpose"])
            for i, x in enumerate(items) if not x["purpose"]][:1]


def _secret_drs(state: KgpState, side: str, items: list, dice, events: list[Event]) -> None:
    """9 (S7, S18): a secret dr is rolled with the verifiable dice and shown only to its owner."""
    for x in items:
        dr = dice.d6(f"secret dr: {x['purpose']}", by=side, visible_to=[side])
        state["secret_rolls"][side].append({"date": state["date"], "turn": state["turn"], "purpose": x["purpose"],
                                            "dr": dr})
        _say(events, "secret.dr", f"{SIDE_ADJECTIVES[side]}'s secret dr for {x['purpose']}: {dr}", "9", side,
             visible_to=[side])
        _say(events, "secret.dr.public", f"{SIDE_ADJECTIVES[side]} make a secret dr ({x['purpose']})", "9")


def _setup_problems(charts: Charts, state: KgpState, side: str, choice: dict) -> list[Problem]:
    """8.5: the Initial Scenario begins at Refit step 8.618, so its set-up orders buy RGs with the
    initial CPP (8.619), sealed like a Refit Phase's; "CG Max"-marked RGs are refused (8.2)."""
    seals = choice.get("seal", [])
    found = ob_objective_problems(charts, state, side, seals)
    if found:
        return found
    bought = list(choice.get("purchase", []))
    return (purchase_problems(charts, state, side, bought, {x["id"] for x in seals}, state["cpp"][side], initial=True)
            or roll_problems(charts, side, list(choice.get("rolls", [])), bought, state, initial=True)
            or fpp_problems(charts, state, side, list(choice.get("fpp", [])), initial=True)
            or fanaticism_problems(charts, state, side, bool(choice.get("fanaticism")))
            or oba_problems(charts, state, side, bought, [])
            or seal_problems(seals) or seal_id_problems(state, side, seals)
            or placement_problems(charts, state, side, choice))      # 8.51-8.53, SSR CG6, CG7, CG20


def _turn_problems(charts: Charts, state: KgpState, side: str, choice: dict) -> list[Problem]:
    t = state["turn"]
    if choice.get("end"):
        # CG Game End: a CG scenario has no fixed length; it ends only on a Game End dr, made from
        # Turn 6 and rolled by hxref, so `end` may only go with the Game End dr that may end it
        if t < GAME_END_FROM_TURN:
            return [Problem(f"a CG scenario has no fixed length: it cannot end on Turn {t}, before the Game End "
                            f"dr is made (from Turn {GAME_END_FROM_TURN})", GAME_END_RULE, ["end"])]
        if not any(r["roll"] == "game_end" for r in choice.get("rolls", [])):
            return [Problem("a CG scenario ends only on a Game End dr: ask for it ({roll: game_end}) and hxref "
                            "rolls it; `end` alone does not end the scenario", GAME_END_RULE, ["end"])]
    found = pf_problems(state, choice.get("pf")) or release_problems(charts, state, choice.get("release", [])) \
        or gun_problems(charts, state, choice.get("guns", []))
    if found:
        return found
    rolls = choice.get("rolls", [])
    for i, r in enumerate(rolls):
        # once per Player Turn / RPh: the requests before this one in these orders count as made
        found = request_problems(charts, r["roll"], t, r.get("side", side), state, r, earlier=rolls[:i],
                                 default_side=side)
        if found:
            return [Problem(p.message, p.rule, ["rolls", i, *p.path]) for p in found]
    for i, r in enumerate(choice.get("reveal", [])):
        item = next((x for x in state["sealed"].get(r["side"], []) if x["id"] == r["id"]), None)
        if item is None:
            return [Problem(f"{SIDE_ADJECTIVES.get(r['side'], r['side'])} sealed nothing called {r['id']!r}", "9",
                            ["reveal", i, "id"])]
        if item.get("opened"):
            return [Problem(f"{r['id']} is already open", "9", ["reveal", i, "id"])]
        if not opens(item, r["value"], str(r["salt"])):
            return [Problem(f"{r['id']}: the value and salt do not open the commitment sealed for it", "9",
                            ["reveal", i])]
        if item["kind"] == "objective_hex":       # 8.2 Objective Hex: its validity, once its hex is known
            found = objective_problems(charts, state, item, r["value"], r.get("meets"))
            if found:
                return [Problem(p.message, p.rule, ["reveal", i, *p.path]) for p in found]
        elif r.get("meets"):
            return [Problem(f"{r['id']} is a {item['kind']}, not an Objective Hex: it meets no terrain condition",
                            "9", ["reveal", i, "meets"])]
    return []


def _report_problems(charts: Charts, state: KgpState, choice: dict) -> list[Problem]:
    cg = load_campaign(charts, state["cg"])
    found = check_problems(choice.get("checks", []), choice.get("facts"))
    if found:
        return found
    if sum(choice["lvp"].values()) > cg.lvp_total:
        return [Problem(f"the Current LVP Totals add up to {sum(choice['lvp'].values())}, more than the "
                        f"{cg.lvp_total} LVP of the {cg.map_group} map group", "8.603", ["lvp"])]
    # 8.2 LVP: a building's LVP is its value times its existing Locations, rubble included
    found = lvp_problems(charts, cg.map_group, cg.lvp_total, choice)
    if found:
        return found
    # what the victory determination reads must be readable now, not fail when both reports are in
    try:
        _victory(charts, state, _shared(choice), "scenario_end")
    except InvalidInput as exc:
        where = [x for x in (exc.where.path or "").split(".") if x] or ["hexes"]
        return [Problem(exc.message, exc.rule or "8.603", where)]
    return []


def _area_problems(charts: Charts, state: KgpState, side: str, choice: dict) -> list[Problem]:
    """8.2 Strategic Location and 8.605-8.606: the Strategic Locations a report claims, and the
    side's own units and their Escapes, judged on the areas that report sets."""
    cg = load_campaign(charts, state["cg"])
    items, blazes = list(choice.get("strategic") or []), list(choice.get("blazes") or [])
    found = strategic_problems(charts, state, cg, items, blazes)
    if found or not choice.get("units"):
        return found
    areas = determine(charts, cg, state["date"], strategic_hexes(items), blazes)
    return unit_problems(areas, side, list(choice["units"]))


def _refit_problems(charts: Charts, state: KgpState, side: str, choice: dict) -> list[Problem]:
    cg = load_campaign(charts, state["cg"])
    if choice.get("shift"):
        areas = determine_from_state(charts, cg, state, state["date"])
        found = shift_problems(state, areas, side, list(choice["shift"]))
        if found:
            return found
    chit = choice["chit"]
    if chit == "attack" and state["chits"][side] >= state["chit_limits"][side]:
        return [Problem(f"{SIDE_ADJECTIVES[side]} have used all {state['chit_limits'][side]} Attack chits "
                        f"{cg.id.upper()} allows: choose idle", f"{cg.rule} Attack Chit limits", ["chit"])]
    rep = choice.get("cpp_replenishment", 0) or 0
    most = cg.cpp_replenishment.get(side)
    if most is not None and rep > most:
        return [Problem(f"a Refit Phase gives the {SIDE_ADJECTIVES[side]} side at most {most} CPP (stand-in bound: "
                        f"its Initial CPP; games/kgp/campaigns/{cg.id}.yaml); {rep} reported", "8.616",
                        ["cpp_replenishment"])]
    sealed_ids = {x["id"] for x in choice.get("seal", [])}
    found = purchase_problems(charts, state, side, list(choice.get("purchase", [])), sealed_ids,
                              state["cpp"][side] + rep, initial=False) \
        or roll_problems(charts, side, list(choice.get("rolls", [])), list(choice.get("purchase", [])), state) \
        or fpp_problems(charts, state, side, list(choice.get("fpp", [])), initial=False) \
        or fanaticism_problems(charts, state, side, bool(choice.get("fanaticism"))) \
        or oba_problems(charts, state, side, list(choice.get("purchase", [])), list(choice.get("oba_removed", [])))
    if found:
        return found
    return seal_problems(choice.get("seal", [])) or seal_id_problems(state, side, choice.get("seal", []))


# --- resolution -----------------------------------------------------------------------------------

def resolve(charts: Charts, state: KgpState, decision: Decision, answers: dict, dice, events: list[Event]) -> None:
    {"setup": _setup, "turn": _turn, "report": _report, "refit": _refit}[decision.kind](
        charts, state, answers, dice, events)


def _say(events: list[Event], kind: str, text: str, rule: str, side: str | None = None, **extra) -> None:
    events.append(event(kind, text, rule, **({"side": side} if side else {}), **extra))


def _store_seals(state: KgpState, side: str, items: list, events: list[Event], secret: bool = False) -> None:
    for s in items:
        state["sealed"][side].append({"id": s["id"], "kind": s["kind"], "commitment": s["commitment"],
                                      "date": state["date"]})
    if items:
        _say(events, "sealed", f"{SIDE_ADJECTIVES[side]} seal {len(items)} secret item(s): "
                               + ", ".join(f"{s['kind']} {s['commitment'][:12]}..." for s in items), "9", side,
             **({"visible_to": [side]} if secret else {}))


def _setup(charts: Charts, state: KgpState, answers: dict, dice, events: list[Event]) -> None:
    for side in SIDES:
        bought = list(answers[side].get("purchase", []))
        # the Objective Hexes sealed with a purchase tell which RGs were bought: their side's alone
        _store_seals(state, side, answers[side].get("seal", []), events, secret=bool(bought))
        _secret_drs(state, side, answers[side].get("secret_drs", []), dice, events)
        if bought:
            cost = pay(charts, state, side, bought)
            _say(events, "initial.purchase", f"{SIDE_ADJECTIVES[side]} buy {', '.join(bought)} for the Initial "
                                             f"Scenario ({cost} CPP of the initial CPP); CPP left "
                                             f"{state['cpp'][side]}", "8.5", side, visible_to=[side])
        say_oba(charts, state, side, bought, [], events)                                         # CG15
        make_rolls(charts, state, side, list(answers[side].get("rolls", [])), dice, events)    # 8.618, 8.620 (8.5)
        buy(charts, state, side, list(answers[side].get("fpp", [])), events, dice)              # 8.621 (8.5), 7.2
        _san(charts, state, side)
    place(charts, state, answers, events)                             # 8.51-8.53, SSR CG7a, II.3, III.4
    if answers["german"].get("fanaticism"):
        declare_fanaticism(charts, state, events)                     # CG14, told to both
    sc = state["scenario"]
    _say(events, "scenario.start", f"{state['date']}: the Initial Scenario begins: "
                                   f"{SIDE_ADJECTIVES[sc['sets_up_first']]} set up first, "
                                   f"{SIDE_ADJECTIVES[sc['moves_first']]} move first", "8.5")
    state["stage"], state["turn"] = "play", 1


def _turn(charts: Charts, state: KgpState, answers: dict, dice, events: list[Event]) -> None:
    sc = state["scenario"]
    keeper = sc["moves_first"]
    choice = answers[keeper]
    for r in choice.get("reveal", []):
        item = next(x for x in state["sealed"][r["side"]] if x["id"] == r["id"])
        item["opened"] = {"value": r["value"], "turn": state["turn"], "date": state["date"]}
        state["opened"][r["side"]].append({"id": r["id"], "kind": item["kind"], "value": r["value"]})
        _say(events, "opened", f"{SIDE_ADJECTIVES[r['side']]} open {item['kind']} {r['id']}: {r['value']} (it matches "
                               f"the commitment sealed on {item['date']})", "9")
        if item["kind"] == "objective_hex":
            meets = OBJECTIVE_TERRAIN.get(str(r.get("meets")), "a terrain condition")
            _say(events, "objective.valid", f"{r['value']} is a valid Objective Hex: no Strategic Location hxref "
                                            f"knows of when designated; it meets {meets} "
                                            "(the opener's word: check it on the map sheet); from now on a "
                                            "Strategic Location", OBJECTIVE_RULE)
    _secret_drs(state, keeper, choice.get("secret_drs", []), dice, events)
    track_pf(state, choice.get("pf"), events)
    release(charts, state, choice.get("release", []), events)          # SSR CG7b
    fix_arcs(charts, state, choice.get("guns", []), dice, events)      # I.3
    ended = False
    rolls = choice.get("rolls", [])
    for i, r in enumerate(rolls):
        side = r.get("side", keeper)
        res = make_roll(charts, r, state, side, dice)
        made: RollRecord = {"date": state["date"], "turn": state["turn"], "roll": r["roll"], "side": side,
                            "faces": res.faces, "why": res.why, "releases": res.releases, "enters": res.enters}
        if r.get("rg"):
            made["rg"] = r["rg"]
        state["rolls"].append(made)
        _say(events, f"roll.{r['roll']}", res.why, res.rule, side)
        if res.ends_scenario:
            ended = True
            if rolls[i + 1:]:        # the scenario ended at once: the rest of the turn is not played
                _say(events, "roll.not_made", "the scenario has ended: not made: " + ", ".join(
                    f"{x['roll']} ({SIDE_ADJECTIVES[x.get('side', keeper)]})" for x in rolls[i + 1:]), "CG Game End")
            break
    if choice.get("end") and not ended:     # CG Game End: only the dr ends it
        _say(events, "scenario.continues", f"the Game End dr did not end the scenario: turn {state['turn']} is "
                                           "not its last, play goes on", GAME_END_RULE)
    if choice.get("bridge_destroyed_by"):
        state["bridge_destroyed_by"] = choice["bridge_destroyed_by"]
        if _victory_now(charts, state, events, "during_play"):
            return
    if ended:
        state["stage"], state["report_round"] = "report", 1
        _say(events, "scenario.end", f"{state['date']}: the scenario ends after turn {state['turn']}", "CG Game End")
    else:
        state["turn"] += 1


def _shared(choice: dict) -> SceneReport:
    """The facts of SHARED_FACTS a report gives (None where it gives none)."""
    return {"lvp": choice["lvp"], "cvp": choice["cvp"], "hexes": choice.get("hexes"),
            "buildings": choice.get("buildings"), "bridge_destroyed_by": choice.get("bridge_destroyed_by"),
            "facts": choice.get("facts"), "lvp_buildings": choice.get("lvp_buildings")}


def _report(charts: Charts, state: KgpState, answers: dict, dice, events: list[Event]) -> None:
    a = _shared(answers[SIDES[0]])
    differ = [k for k in SHARED_FACTS if answers[SIDES[0]].get(k) != answers[SIDES[1]].get(k)]
    if differ:
        state["report_round"] += 1
        _say(events, "report.disagree", f"the two reports disagree on {', '.join(differ)}: both sides report again "
                                        "(the umpire or the players settle it at the table)", "8.603")
        return
    rep = a
    for s in SIDES:
        if answers[s].get("lost"):
            _say(events, "report.lost", f"{SIDE_ADJECTIVES[s]} report their losses: {', '.join(answers[s]['lost'])}",
                 "8.603", s)
    state["last_report"] = rep
    state["strategic"] = list(answers[SIDES[0]].get("strategic") or [])      # 8.605 reads them
    state["blazes"] = list(answers[SIDES[0]].get("blazes") or [])
    cg = load_campaign(charts, state["cg"])
    for item in counted(charts, cg.map_group, rep):                 # 8.2 LVP: counted from the building's Locations
        _say(events, "lvp.building", item.why, "8.2 LVP", item.side)
    # 8.603: the roster row, the CG-LVP Total and the scenario's winner
    for s in SIDES:
        state["cg_lvp"][s] += int(rep["lvp"][s])
    v = _victory(charts, state, rep, "scenario_end")
    winner = v.initial.winner if v.initial is not None else _scenario_winner(rep)
    state["roster"].append({"date": state["date"], "scenario": True, "lvp": dict(rep["lvp"]),
                            "cg_lvp": dict(state["cg_lvp"]), "winner": winner})
    _say(events, "roster", f"{state['date']} CG Roster: Current LVP US {rep['lvp']['us']}, German "
                           f"{rep['lvp']['german']}; CG-LVP US {state['cg_lvp']['us']}, German "
                           f"{state['cg_lvp']['german']}; winner {SIDE_ADJECTIVES.get(winner, winner)}"
                           + (f" ({v.initial.why})" if v.initial is not None else ""), "8.603")
    if v.cg_end or v.winner:
        _finish(state, v, events)
        return
    checks = {s: list(answers[s].get("checks", [])) for s in SIDES}
    units = {s: list(answers[s].get("units", []) or []) for s in SIDES}
    _refit_steps(charts, state, rep.get("facts") or {}, events, first=True, dice=dice, checks=checks, units=units)


def _scenario_winner(rep: SceneReport) -> str:
    """Reading: a non-initial CG scenario's winner is the side with the higher Current LVP Total
    (its own Victory Conditions are generated in the lost RePh text); a tie goes to the defender."""
    lvp = rep["lvp"]
    return "us" if lvp["us"] > lvp["german"] else "german" if lvp["german"] > lvp["us"] else "tie"


def _victory(charts: Charts, state: KgpState, rep: SceneReport, moment: str) -> Victory:
    hexes = rep.get("hexes") or {}
    cg = load_campaign(charts, state["cg"])
    return victory(cg, {
        "moment": moment, "date": state["scenario"]["date"], "cg_lvp": dict(state["cg_lvp"]),
        "current_lvp": dict(rep["lvp"]), "cvp": dict(rep["cvp"]), "buildings": dict(rep.get("buildings") or {}),
        "hexes": {s: list(hexes.get(s, [])) for s in SIDES}, "lvp_hexes": {s: list(hexes.get(s, [])) for s in SIDES},
        "bridge_destroyed_by": rep.get("bridge_destroyed_by") or state.get("bridge_destroyed_by"),
        # 8.2 EXC: rubble lowers the LVP existing on the map group as the buildings' Locations fall
        "lvp_existing": cg.lvp_total - lost_lvp(counted(charts, cg.map_group, rep))})


def _victory_now(charts: Charts, state: KgpState, events: list[Event], moment: str) -> bool:
    rep = state.get("last_report") or _empty()
    v = _victory(charts, state, rep, moment)
    if v.winner:
        _finish(state, v, events)
        return True
    return False


def _finish(state: KgpState, v: Victory, events: list[Event]) -> None:
    state["stage"] = "over"
    state["result"] = {"winner": v.winner, "why": v.why, "rule": v.rule,
                       "checks": [{"id": c.id, "side": c.side, "met": c.met, "checked": c.checked,
                                   "detail": c.detail, "rule": c.rule} for c in v.checks]}
    _say(events, "victory", v.why, v.rule)


def _refit_steps(charts: Charts, state: KgpState, facts: Mapping[str, bool], events: list[Event], *, first: bool, dice,
                 checks: Mapping[str, list] | None = None, units: Mapping[str, list] | None = None) -> None:
    """Walk the Refit checklist up to the sealed choices (8.619-8.623): computed steps now,
    recorded steps noted, steps that do not apply skipped with the reason."""
    chart = refit_chart(charts)
    rows: list[RefitRow] = []      # dated when the phase is done: a RePh's steps go with the new CG Date
    for step in chart["steps"]:
        num = step["step"]
        if not first and not step.get("repeat"):
            continue
        if num in ("8.619", "8.621", "8.623"):
            continue                                   # the sealed refit decision
        if num in ("8.624", "8.625"):
            break
        if num == "8.612":
            new_date = _new_cg_date(charts, state)
            if new_date is None:                       # the CG's last date is past: the campaign ends
                state["refit"] += rows
                _finish(state, _victory(charts, state, state.get("last_report") or _empty(), "cg_end"), events)
                return
            status, why = "computed", new_date
        else:
            status, why = _step_status(charts, state, step, chart, facts, checks, dice, events, units)
        rows.append({"date": state["date"], "step": num, "title": step["title"], "status": status, "why": why})
        _say(events, "refit.step", f"{num} {step['title']}: {status} -- {why}", num)
    for row in rows:                # 8.601-8.611 were walked before 8.612 set the new CG Date
        row["date"] = state["date"]
    state["refit"] += rows
    state["stage"] = "refit"


def _new_cg_date(charts: Charts, state: KgpState) -> str | None:
    """8.612: move to the next CG Date and adjust each side's SAN; the checklist line, or None when
    the campaign has no next date."""
    cg = load_campaign(charts, state["cg"])
    nxt = cg.next_date(state["date"])
    if nxt is None:
        return None
    state["date"] = nxt.label
    why = f"the new CG Date is {nxt.label}" + (" (Night)" if nxt.is_night else "")
    sans = {s: _san(charts, state, s) for s in SIDES}
    return why + "; SAN US {us}, German {german} (the Initial OB's SAN + 1 a SAN Increase RG bought)".format(**sans)


def _step_status(charts: Charts, state: KgpState, step: dict, chart: dict, facts: Mapping[str, bool],
                 checks: Mapping[str, list] | None, dice, events: list[Event],
                 units: Mapping[str, list] | None = None) -> tuple[str, str]:
    """One Refit checklist step other than 8.612: computed now (8.603, 8.617, 8.604's checks),
    skipped when the reports say its condition is absent, or recorded at the table."""
    num = step["step"]
    if num == "8.603":
        return "computed", "CG Roster and CG-LVP Totals written (above)"
    if num == "8.617":
        return "computed", _weather(charts, state, chart, dice)
    if num == "8.605":
        a = determine_from_state(charts, load_campaign(charts, state["cg"]), state, state["date"])
        return "computed", "; ".join(f"{SIDE_ADJECTIVES[s]}: {a.summary(s)}" for s in SIDES) + \
            f"; No Man's Land {len(a.no_mans_land)} hexes; every other hex Uncontrolled Territory (8.2)"
    if num == "8.606":
        a = determine_from_state(charts, load_campaign(charts, state["cg"]), state, state["date"])
        lines = [x for s in SIDES for x in roll_escapes(charts, state, a, s, (units or {}).get(s, []), dice, events)]
        return "computed", ("; ".join(lines) if lines else "no unit must Escape") + \
            "; the Retained units are each side's own (8.15)"
    if num == "8.613":
        return "recorded", "each side's Shifts come with its sealed Refit orders (`shift`); hxref rolls them " \
                           "(stand-in table, games/kgp/charts/areas.yaml)"
    if step.get("skip_unless") and not facts.get(step["skip_unless"]):
        return "skipped", f"does not apply: the reports say no {step['skip_unless'].replace('_', ' ')}"
    if num == "8.604" and any((checks or {}).values()):
        lines = [x for s in SIDES for x in roll_checks(charts, state, s, (checks or {}).get(s, []), dice, events)]
        return "computed", f"{len(lines)} check(s) rolled (1TC Encirclement, NTC A-P minefield): " \
                           + "; ".join(lines)
    return "recorded", _recorded_why(charts, state, num)


def _recorded_why(charts: Charts, state: KgpState, num: str) -> str:
    """A step played at the table: 8.616's bound, the dice hxref rolls with the sealed orders, or
    the step whose text is lost."""
    if num == "8.616":
        cg = load_campaign(charts, state["cg"])
        return ("each side reports its CPP Replenishment with its sealed Refit orders, at most "
                + ", ".join(f"{SIDE_ADJECTIVES[s]} {cg.cpp_replenishment[s]}" for s in SIDES
                            if s in cg.cpp_replenishment)
                + " (stand-in bound: the Initial CPP)")
    if num in ROLLED_STEPS:
        return ROLLED_STEPS[num]
    return "at the table (its text is lost in the seed)" if num > "8.604" else "at the table (ASL rules)"


def _weather(charts: Charts, state: KgpState, chart: dict, dice) -> str:
    """8.617 / CG3: the CG Date's historical weather; the random table only when both players agreed
    (the optional rule ``random_weather``, chosen when the game was made)."""
    if state.get("random_weather"):
        w = chart["weather"]
        dr = dice.d6(f"KG weather {state['date']} (8.617)", by=None)
        state["weather"] = w["results"][dr]
        return f"dr {dr}: {state['weather']} (the random table, optional rule CG3 agreed by both; stand-in chart: " \
               "the KG weather table is lost)"
    state["weather"] = load_campaign(charts, state["cg"]).weather.get(state["date"])
    return f"the historical weather of {state['date']}: {state['weather']} (CG3; stand-in: the historical table " \
           "is lost)"


def _san(charts: Charts, state: KgpState, side: str) -> int:
    """8.612 SAN Adjustment: the side's SAN for the coming CG Date: its Initial-OB SAN, +1 for each
    SAN Increase RG it has bought (8.2 RG; the stand-in chart's S1 "SAN +1 for the CG")."""
    chart = load_rg_chart(charts)
    cg = load_campaign(charts, state["cg"])
    base = cg.initial.sides[side].san
    n = sum(1 for p in state["purchases"][side] if chart.get(side, p["rg"]).type == "san")
    state.setdefault("san", {s: cg.initial.sides[s].san for s in SIDES})[side] = base + n
    return base + n


def _empty() -> SceneReport:
    """No scenario reported yet: no LVP, no CVP, no other fact."""
    return {"lvp": {s: 0 for s in SIDES}, "cvp": {s: 0 for s in SIDES}, "hexes": None, "buildings": None,
            "bridge_destroyed_by": None, "facts": None, "lvp_buildings": None}


def _refit(charts: Charts, state: KgpState, answers: dict, dice, events: list[Event]) -> None:
    for side in SIDES:
        a = answers[side]
        rep = int(a.get("cpp_replenishment", 0) or 0)
        state["cpp"][side] += rep
        remove_oba(state, side, list(a.get("oba_removed", [])))                            # CG15, CG22
        if a.get("shift"):                                                                  # 8.613
            areas = determine_from_state(charts, load_campaign(charts, state["cg"]), state, state["date"])
            roll_shifts(charts, state, areas, side, list(a["shift"]), dice, events)
        rolls = list(a.get("rolls", []))
        make_rolls(charts, state, side, [r for r in rolls if r["step"] < "8.619"], dice, events)     # 8.614, 8.618
        pay(charts, state, side, list(a.get("purchase", [])))
        say_oba(charts, state, side, list(a.get("purchase", [])), list(a.get("oba_removed", [])), events)   # CG15
        make_rolls(charts, state, side, [r for r in rolls if r["step"] > "8.619"], dice, events)     # 8.620
        buy(charts, state, side, list(a.get("fpp", [])), events, dice)                              # 8.621, 7.2
        _san(charts, state, side)
        _store_seals(state, side, a.get("seal", []), events, secret=True)   # the Objective Hexes of its RGs
        _say(events, "refit.purchase", f"{SIDE_ADJECTIVES[side]}: +{rep} CPP (8.616, as reported); bought "
                                       f"{', '.join(a.get('purchase', [])) or 'nothing'} (8.619); CPP left "
                                       f"{state['cpp'][side]}", "8.619", side, visible_to=[side])
    us, ge = answers["us"]["chit"], answers["german"]["chit"]
    for side, chit in (("us", us), ("german", ge)):
        if chit == "attack":
            state["chits"][side] += 1
    initiative = load_initiative_chart(charts)
    out = chit_outcome(initiative, us, ge, date=state["date"])
    if out.needs_dr:
        dr = dice.d6(f"Scenario Attacker {state['date']} (8.623)")
        out = chit_outcome(initiative, us, ge, date=state["date"], dr=dr)
    _say(events, "initiative", f"{state['date']}: {out.why}", out.rule)     # out.why begins "US idle, German .."
    if out.idle_date:
        if answers["german"].get("fanaticism"):
            _say(events, "fanaticism.unused", f"{state['date']} is an Idle Date: no scenario, so the German "
                                              "Fanaticism declaration is not used", "CG14")
        state["roster"].append({"date": state["date"], "scenario": False, "lvp": None, "cg_lvp": dict(state["cg_lvp"]),
                                "winner": None, "idle": True})
        _refit_steps(charts, state, {}, events, first=False, dice=dice)       # the "*" steps again
        return
    attacker, defender, sets_up_first, moves_first = out.roles()
    state["scenario"] = {"date": state["date"], "initial": False, "attacker": attacker,
                         "defender": defender, "sets_up_first": sets_up_first or other(moves_first),
                         "moves_first": moves_first,
                         "night": load_campaign(charts, state["cg"]).date(state["date"]).is_night}
    _say(events, "scenario.start", f"{state['date']}: a CG scenario: {SIDE_ADJECTIVES[attacker]} attack; "
                                   f"{SIDE_ADJECTIVES[state['scenario']['sets_up_first']]} set up first (8.624, 8.625)",
         "8.625")
    if answers["german"].get("fanaticism"):
        declare_fanaticism(charts, state, events)                     # CG14, told to both
    state["stage"], state["turn"] = "play", 1
