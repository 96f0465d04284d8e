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
* a Refit Phase's checklist rows carry the new CG Date (8.612), the date they prepare;
* a report is checked against what the victory determination will read (hexes of the map
  group, buildings, the bridge) when it is sent, not when both are in;
* a sealed item's id is unique for its side over the whole CG; the Objective Hexes sealed
  with a purchase are logged for their side alone (they tell which RGs were bought).
"""
from __future__ import annotations

from ...errors import InvalidInput
from ..base import Decision, Problem
from .campaign import load_campaign
from .chits import chit_outcome
from .rg_chart import load_rg_chart
from .scenario_rolls import make_roll, request_problems
from .sealing import opens, seal_id_problems, seal_problems
from .sides import SIDE_ADJECTIVES, SIDES, other
from .victory import victory

#: the facts both reports of a scenario must agree on (8.603; 8.6 the Refit facts)
SHARED_FACTS = ("lvp", "cvp", "hexes", "buildings", "bridge_destroyed_by", "facts")


def refit_chart() -> dict:
    """The refit chart's data (the game's pinned chart, or the disk's); read-only."""
    from ...kit import data

    return data.chart("kgp", "refit")


# --- checks ---------------------------------------------------------------------------------------

def check(state: dict, decision: Decision, side: str, choice: dict) -> list[Problem]:
    """The rules' problems of a choice whose shape fits the decision's schema (checked first, in
    :mod:`hxref.orders`)."""
    found = _secret_dr_problems(choice.get("secret_drs", []))
    if found:
        return found
    if decision.kind == "setup":
        return seal_problems(choice.get("seal", []))
    if decision.kind == "turn":
        return _turn_problems(state, side, choice)
    if decision.kind == "report":
        return _report_problems(state, choice)
    if decision.kind == "refit":
        return _refit_problems(state, side, choice)
    return []


def _secret_dr_problems(items: list) -> list[Problem]:
    return [Problem("a secret dr names its purpose", "9", ["secret_drs", i, "purpose"])
            for i, x in enumerate(items) if not x["purpose"]][:1]


def _secret_drs(state: dict, side: str, items: list, dice, events: list) -> None:
    """9 (S7, S18): a secret dr is rolled with the verifiable dice and shown only to its owner."""
    for x in items:
        dr = dice.d6(f"secret dr: {x['purpose']}", by=side, visible_to=[side])
        state["secret_rolls"][side].append({"date": state["date"], "turn": state["turn"], "purpose": x["purpose"],
                                            "dr": dr})
        _say(events, "secret.dr", f"{SIDE_ADJECTIVES[side]}'s secret dr for {x['purpose']}: {dr}", "9", side,
             visible_to=[side])
        _say(events, "secret.dr.public", f"{SIDE_ADJECTIVES[side]} make a secret dr ({x['purpose']})", "9")


def _turn_problems(state: dict, side: str, choice: dict) -> list[Problem]:
    t = state["turn"]
    for i, r in enumerate(choice.get("rolls", [])):
        found = request_problems(r["roll"], t, r.get("side", side), state, r)
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
    return []


def _report_problems(state: dict, choice: dict) -> list[Problem]:
    cg = load_campaign(state["cg"])
    if sum(choice["lvp"].values()) > cg.lvp_total:
        return [Problem(f"the Current LVP Totals add up to {sum(choice['lvp'].values())}, more than the "
                        f"{cg.lvp_total} LVP of the {cg.map_group} map group", "8.603", ["lvp"])]
    # what the victory determination reads must be readable now, not fail when both reports are in
    try:
        _victory(state, {k: choice.get(k) for k in SHARED_FACTS}, "scenario_end")
    except InvalidInput as exc:
        where = [x for x in (exc.where.path or "").split(".") if x] or ["hexes"]
        return [Problem(exc.message, exc.rule or "8.603", where)]
    return []


def _refit_problems(state: dict, side: str, choice: dict) -> list[Problem]:
    cg = load_campaign(state["cg"])
    chit = choice["chit"]
    if chit == "attack" and state["chits"][side] >= state["chit_limits"][side]:
        return [Problem(f"{SIDE_ADJECTIVES[side]} have used all {state['chit_limits'][side]} Attack chits "
                        f"{cg.id.upper()} allows: choose idle", f"{cg.rule} Attack Chit limits", ["chit"])]
    rep = choice.get("cpp_replenishment", 0) or 0
    cpp = state["cpp"][side] + rep
    chart = load_rg_chart()
    cost = 0
    bought = list(choice.get("purchase", []))
    sealed_ids = {x["id"] for x in choice.get("seal", [])}
    for i, rg_id in enumerate(bought):
        try:
            rg = chart.get(side, str(rg_id))
        except Exception as exc:
            return [Problem(str(exc), "8.619", ["purchase", i])]
        limit = rg.cg_max.get(cg.id)
        if limit is None:
            return [Problem(f"RG {rg_id} is not available in {cg.id.upper()}", "8.619", ["purchase", i])]
        done = sum(1 for x in state["purchases"][side] if x["rg"] == rg_id) + bought[:i].count(rg_id)
        if done >= limit:
            return [Problem(f"RG {rg_id} may be bought {limit} time(s) in {cg.id.upper()} (CG-Max)", "8.619",
                            ["purchase", i])]
        if rg.objective_hex and f"objective-{rg_id}-{done + 1}" not in sealed_ids:
            return [Problem(f"RG {rg_id} needs a secret Objective Hex: seal `objective-{rg_id}-{done + 1}` "
                            "(kind objective_hex) in the same orders", "8.2 Objective Hex", ["seal"])]
        cost += rg.cpp
    if cost > cpp:
        return [Problem(f"the RGs cost {cost} CPP; {SIDE_ADJECTIVES[side]} have {cpp}", "8.619", ["purchase"])]
    return seal_problems(choice.get("seal", [])) or seal_id_problems(state, side, choice.get("seal", []))


# --- resolution -----------------------------------------------------------------------------------

def resolve(state: dict, decision: Decision, answers: dict, dice, events: list[dict]) -> None:
    {"setup": _setup, "turn": _turn, "report": _report, "refit": _refit}[decision.kind](
        state, answers, dice, events)


def _say(events: list, kind: str, text: str, rule: str, side: str | None = None, **extra) -> None:
    events.append({"type": kind, "rule": rule, "text": text, **({"side": side} if side else {}), **extra})


def _store_seals(state: dict, side: str, items: list, events: list, secret: bool = False) -> None:
    for s in items:
        state["sealed"][side].append({"id": s["id"], "kind": s["kind"], "commitment": s["commitment"],
                                      "date": state["date"]})
    if items:
        _say(events, "sealed", f"{SIDE_ADJECTIVES[side]} seal {len(items)} secret item(s): "
                               + ", ".join(f"{s['kind']} {s['commitment'][:12]}..." for s in items), "9", side,
             **({"visible_to": [side]} if secret else {}))


def _setup(state: dict, answers: dict, dice, events: list) -> None:
    for side in SIDES:
        _store_seals(state, side, answers[side].get("seal", []), events)
        _secret_drs(state, side, answers[side].get("secret_drs", []), dice, events)
    sc = state["scenario"]
    _say(events, "scenario.start", f"{state['date']}: the Initial Scenario begins: "
                                   f"{SIDE_ADJECTIVES[sc['sets_up_first']]} set up first, "
                                   f"{SIDE_ADJECTIVES[sc['moves_first']]} move first", "8.5")
    state["stage"], state["turn"] = "play", 1


def _turn(state: dict, answers: dict, dice, events: list) -> None:
    sc = state["scenario"]
    keeper = sc["moves_first"]
    choice = answers[keeper]
    for r in choice.get("reveal", []):
        item = next(x for x in state["sealed"][r["side"]] if x["id"] == r["id"])
        item["opened"] = {"value": r["value"], "turn": state["turn"], "date": state["date"]}
        state["opened"][r["side"]].append({"id": r["id"], "kind": item["kind"], "value": r["value"]})
        _say(events, "opened", f"{SIDE_ADJECTIVES[r['side']]} open {item['kind']} {r['id']}: {r['value']} (it matches "
                               f"the commitment sealed on {item['date']})", "9")
    _secret_drs(state, keeper, choice.get("secret_drs", []), dice, events)
    ended = False
    rolls = choice.get("rolls", [])
    for i, r in enumerate(rolls):
        side = r.get("side", keeper)
        res = make_roll(r, state, side, dice)
        state["rolls"].append({"date": state["date"], "turn": state["turn"], "roll": r["roll"], "side": side,
                               "faces": res.faces, "why": res.why, "releases": res.releases, "enters": res.enters,
                               **({"rg": r["rg"]} if r.get("rg") else {})})
        _say(events, f"roll.{r['roll']}", res.why, res.rule, side)
        if res.ends_scenario:
            ended = True
            if rolls[i + 1:]:        # the scenario ended at once: the rest of the turn is not played
                _say(events, "roll.not_made", "the scenario has ended: not made: " + ", ".join(
                    f"{x['roll']} ({SIDE_ADJECTIVES[x.get('side', keeper)]})" for x in rolls[i + 1:]), "CG Game End")
            break
    ended = ended or bool(choice.get("end"))
    if choice.get("bridge_destroyed_by"):
        state["bridge_destroyed_by"] = choice["bridge_destroyed_by"]
        if _victory_now(state, events, "during_play"):
            return
    if ended:
        state["stage"], state["report_round"] = "report", 1
        _say(events, "scenario.end", f"{state['date']}: the scenario ends after turn {state['turn']}", "CG Game End")
    else:
        state["turn"] += 1


def _shared(choice: dict) -> dict:
    return {k: choice.get(k) for k in SHARED_FACTS}


def _report(state: dict, answers: dict, dice, events: list) -> None:
    a, b = (_shared(answers[s]) for s in SIDES)
    differ = [k for k in SHARED_FACTS if a[k] != b[k]]
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
    # 8.603: the roster row, the CG-LVP Total and the scenario's winner
    for s in SIDES:
        state["cg_lvp"][s] += int(rep["lvp"][s])
    v = _victory(state, rep, "scenario_end")
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
    _refit_steps(state, rep.get("facts") or {}, events, first=True, dice=dice)


def _scenario_winner(rep: dict) -> str:
    """Reading: a non-initial CG scenario's winner is the side with the higher Current LVP Total
    (its own Victory Conditions are generated in the lost RePh text); a tie goes to the defender."""
    lvp = rep["lvp"]
    return "us" if lvp["us"] > lvp["german"] else "german" if lvp["german"] > lvp["us"] else "tie"


def _victory(state: dict, rep: dict, moment: str):
    hexes = rep.get("hexes") or {}
    return victory(load_campaign(state["cg"]), {
        "moment": moment, "date": state["scenario"]["date"], "cg_lvp": dict(state["cg_lvp"]),
        "current_lvp": dict(rep["lvp"]), "cvp": dict(rep["cvp"]), "buildings": dict(rep.get("buildings") or {}),
        "hexes": {s: list(hexes.get(s, [])) for s in SIDES}, "lvp_hexes": {s: list(hexes.get(s, [])) for s in SIDES},
        "bridge_destroyed_by": rep.get("bridge_destroyed_by") or state.get("bridge_destroyed_by")})


def _victory_now(state: dict, events: list, moment: str) -> bool:
    rep = state.get("last_report") or {"lvp": {s: 0 for s in SIDES}, "cvp": {s: 0 for s in SIDES}}
    v = _victory(state, rep, moment)
    if v.winner:
        _finish(state, v, events)
        return True
    return False


def _finish(state: dict, v, events: list) -> None:
    state["stage"] = "over"
    state["result"] = {"winner": v.winner, "why": v.why, "rule": v.rule,
                       "checks": [{"id": c.id, "side": c.side, "met": c.met, "checked": c.checked,
                                   "detail": c.detail, "rule": c.rule} for c in v.checks]}
    _say(events, "victory", v.why, v.rule)


def _refit_steps(state: dict, facts: dict, events: list, *, first: bool, dice) -> None:
    """Walk the Refit checklist up to the sealed choices (8.619-8.623): computed steps now,
    recorded steps noted, steps that do not apply skipped with the reason."""
    chart = refit_chart()
    rows: list[dict] = []          # dated when the phase is done: a RePh's steps go with the new CG Date
    for step in chart["steps"]:
        num = step["step"]
        if not first and not step.get("repeat"):
            continue
        if num in ("8.619", "8.621", "8.623"):
            continue                                   # the sealed refit decision
        if num in ("8.624", "8.625"):
            break
        if num == "8.603":
            status, why = "computed", "CG Roster and CG-LVP Totals written (above)"
        elif num == "8.612":
            cg = load_campaign(state["cg"])
            nxt = cg.next_date(state["date"])
            if nxt is None:
                state["refit"] += rows
                _finish(state, _victory(state, state.get("last_report") or _empty(), "cg_end"), events)
                return
            state["date"] = nxt.label
            status, why = "computed", f"the new CG Date is {nxt.label}" + (" (Night)" if nxt.is_night else "")
        elif num == "8.617":
            w = chart["weather"]
            dr = dice.d6(f"KG weather {state['date']} (8.617)", by=None)
            state["weather"] = w["results"][dr]
            status, why = "computed", f"dr {dr}: {state['weather']} (stand-in chart: the KG weather table is lost)"
        elif step.get("skip_unless") and not facts.get(step["skip_unless"]):
            status, why = "skipped", f"does not apply: the reports say no {step['skip_unless'].replace('_', ' ')}"
        elif num == "8.616":
            status, why = "recorded", "each side reports its CPP Replenishment with its sealed Refit orders"
        else:
            status, why = "recorded", ("at the table (its text is lost in the seed)" if num > "8.604"
                                       else "at the table (ASL rules)")
        rows.append({"date": state["date"], "step": num, "title": step["title"], "status": status, "why": why})
        _say(events, "refit.step", f"{num} {step['title']}: {status} -- {why}", num)
    for row in rows:                # 8.601-8.611 were walked before 8.612 set the new CG Date
        row["date"] = state["date"]
    state["refit"] += rows
    state["stage"] = "refit"


def _empty() -> dict:
    return {"lvp": {s: 0 for s in SIDES}, "cvp": {s: 0 for s in SIDES}}


def _refit(state: dict, answers: dict, dice, events: list) -> None:
    chart = load_rg_chart()
    for side in SIDES:
        a = answers[side]
        rep = int(a.get("cpp_replenishment", 0) or 0)
        state["cpp"][side] += rep
        for rg_id in a.get("purchase", []):
            rg = chart.get(side, rg_id)
            state["cpp"][side] -= rg.cpp
            state["purchases"][side].append({"rg": rg_id, "date": state["date"], "cpp": rg.cpp, "name": rg.name})
        _store_seals(state, side, a.get("seal", []), events, secret=True)   # the Objective Hexes of its RGs
        _say(events, "refit.purchase", f"{SIDE_ADJECTIVES[side]}: +{rep} CPP (8.616, as reported); bought "
                                       f"{', '.join(a.get('purchase', [])) or 'nothing'} (8.619); CPP left "
                                       f"{state['cpp'][side]}", "8.619", side, visible_to=[side])
    us, ge = answers["us"]["chit"], answers["german"]["chit"]
    for side, chit in (("us", us), ("german", ge)):
        if chit == "attack":
            state["chits"][side] += 1
    out = chit_outcome(us, ge, date=state["date"])
    if out.needs_dr:
        out = chit_outcome(us, ge, date=state["date"], dr=dice.d6(f"Scenario Attacker {state['date']} (8.623)"))
    _say(events, "initiative", f"{state['date']}: {out.why}", out.rule)     # out.why begins "US idle, German .."
    if out.idle_date:
        state["roster"].append({"date": state["date"], "scenario": False, "lvp": None, "cg_lvp": dict(state["cg_lvp"]),
                                "winner": None, "idle": True})
        _refit_steps(state, {}, events, first=False, dice=dice)       # the "*" steps again
        return
    state["scenario"] = {"date": state["date"], "initial": False, "attacker": out.attacker,
                         "defender": out.defender, "sets_up_first": out.sets_up_first or other(out.moves_first),
                         "moves_first": out.moves_first,
                         "night": load_campaign(state["cg"]).date(state["date"]).is_night}
    _say(events, "scenario.start", f"{state['date']}: a CG scenario: {SIDE_ADJECTIVES[out.attacker]} attack; "
                                   f"{SIDE_ADJECTIVES[state['scenario']['sets_up_first']]} set up first (8.624, 8.625)",
         "8.625")
    state["stage"], state["turn"] = "play", 1
