"""The Refit Phase's dice, rolled through hxref (8.604, 8.614, 8.618, 8.620).

* 8.604 (the seed's text): each Encircled unit takes a 1TC (failure: eliminated at once); each
  infantry unit in an A-P minefield hex takes an NTC (failure: Casualty Reduction); a leader's
  DRM applies.  A side lists its own units' checks in its scenario report (``checks``: unit,
  kind, morale, drm); they are rolled when the Refit Phase reaches 8.604.
* 8.614 Equipment Repair, 8.618 German Ammunition Shortage, 8.620 RG Strength: a side asks for
  them in its sealed Refit orders (``rolls``: step and what); their bodies are lost, so their
  tables are the stand-ins of ``games/kgp/charts/refit.yaml``.  8.2 Full Strength: US RGs are
  always received at Full Strength, so no 8.620 dr is made for them; 8.618 is the German's.

A TC passes when DR + n (the n of an nTC) + DRMs <= morale (ASL).  A Refit roll of a sealed
order is shown to its owner alone (8.11: each side's forces are kept from the other).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Problem
from .sides import SIDE_ADJECTIVES
from .state_types import KgpState
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

CHECK_RULE = "8.604"
ROLL_STEPS = ("8.614", "8.618", "8.620")


def refit_chart(charts: Charts) -> dict:
    """The refit chart's data (the chart ``refit`` of ``charts``); read-only."""
    return charts.chart("refit")


def check_problems(checks: list, facts: dict | None) -> list[Problem]:
    """8.604: the checks a report lists need the fact that makes 8.604 apply."""
    if checks and not (facts or {}).get("encircled_or_mined"):
        return [Problem("the report lists 8.604 checks but not the fact that Encircled units or units in "
                        "minefields remain (facts: {encircled_or_mined: true})", CHECK_RULE, ["checks"])]
    return []


def roll_checks(charts: Charts, state: KgpState, side: str, checks: list, dice, events: list[Event]) -> list[str]:
    """Roll ``side``'s 8.604 checks; the lines of the Refit checklist row."""
    chart = refit_chart(charts)["checks"]
    out = []
    for c in checks:
        k = chart["kinds"][c["kind"]]
        n = int(chart["tc_drm"][k["tc"]])
        drm = int(c.get("drm", 0) or 0)
        faces = dice.roll(f"{k['tc']} {c['unit']} (8.604 {c['kind']})", count=2, by=side)
        total = faces[0] + faces[1] + n + drm
        passed = total <= int(c["morale"])
        parts = f"DR {faces[0]}+{faces[1]}" + (f" +{n} ({k['tc']})" if n else " (NTC)") + \
                (f" {drm:+d} DRM" if drm else "")
        verdict = "passes: it stays" if passed else f"fails: {k['fail']}"
        why = f"{SIDE_ADJECTIVES[side]} {c['unit']}, {c['kind']}: {parts} = {total} " \
              f"{'<=' if passed else '>'} morale {c['morale']}: {verdict}"
        state.setdefault("refit_checks", []).append({"date": state["date"], "side": side, "unit": c["unit"], "kind": c["kind"],
                                      "faces": list(faces), "total": total, "morale": int(c["morale"]),
                                      "passed": passed, "result": "stays" if passed else k["fail"]})
        events.append(event("refit.check", why, CHECK_RULE, side=side))
        out.append(why)
    return out


def roll_problems(charts: Charts, side: str, rolls: list, bought_now: list[str], state: KgpState, *,
                  initial: bool = False) -> list[Problem]:
    """The Refit rolls ``side`` asks for: a step of :data:`ROLL_STEPS` that is the side's, and for
    8.620 an RG it receives now (bought now, or in the Initial OB at the Initial Scenario, 8.5)."""
    chart = refit_chart(charts)["rolls"]
    ob = _initial_ob_rgs(charts, state, side) if initial else []
    for i, r in enumerate(rolls):
        step = r["step"]
        if step not in ROLL_STEPS:
            return [Problem(f"no Refit roll for step {step!r}: the steps rolled through hxref are "
                            f"{', '.join(ROLL_STEPS)}", "8.6", ["rolls", i, "step"])]
        if initial and step == "8.614":
            return [Problem("the Initial Scenario starts at step 8.618: no 8.614 repair dr", "8.5",
                            ["rolls", i, "step"])]
        if chart[step]["side"] != "both" and chart[step]["side"] != side:
            rule = "8.2 Full Strength" if step == "8.620" else step
            why = "US RGs are always received at Full Strength" if step == "8.620" else \
                f"{chart[step]['title']} is the {SIDE_ADJECTIVES[chart[step]['side']]} side's"
            return [Problem(f"{why}: no {step} dr for the {SIDE_ADJECTIVES[side]} side", rule, ["rolls", i, "step"])]
        if step == "8.620":
            rg = r.get("rg")
            if rg not in bought_now and rg not in ob:
                return [Problem(f"the 8.620 strength dr is for an RG received now (bought in these orders"
                                f"{' or in the Initial OB' if initial else ''}); {rg!r} is not", "8.620",
                                ["rolls", i, "rg"])]
            if sum(1 for x in rolls[:i] if x["step"] == "8.620" and x.get("rg") == rg) >= \
                    bought_now.count(rg) + ob.count(rg):
                return [Problem(f"one 8.620 strength dr for each RG {rg} received", "8.620", ["rolls", i, "rg"])]
        elif not str(r.get("what") or "").strip():
            return [Problem(f"a {step} dr names what it is for (`what`: the weapon, the unit)", step,
                            ["rolls", i, "what"])]
    return []


def _initial_ob_rgs(charts: Charts, state: KgpState, side: str) -> list[str]:
    from .campaign import load_campaign

    ob = load_campaign(charts, state["cg"]).initial.sides[side].ob
    return [x.ref for x in ob if x.kind == "rg" for _ in range(x.count)]


def make_rolls(charts: Charts, state: KgpState, side: str, rolls: list, dice, events: list[Event]) -> None:
    """Roll ``side``'s Refit rolls in step order; each is its owner's alone."""
    chart = refit_chart(charts)["rolls"]
    for r in sorted(rolls, key=lambda x: x["step"]):
        c = chart[r["step"]]
        what = r.get("rg") or r.get("what")
        dr = dice.d6(f"{c['title']} dr: {what} ({r['step']})", by=side, visible_to=[side])
        result = c["results"][dr]
        state.setdefault("refit_rolls", {"us": [], "german": []})[side].append({"date": state["date"], "step": r["step"], "what": str(what), "dr": dr,
                                           "result": result})
        stand_in = " (stand-in table, games/kgp/charts/refit.yaml)" if c.get("stand_in") else ""
        events.append(event("refit.roll", f"{SIDE_ADJECTIVES[side]} {c['title']} dr for {what}: {dr}: {result}{stand_in}",
                            r["step"], side=side, visible_to=[side]))
