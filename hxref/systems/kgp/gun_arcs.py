"""I.3, the CG-I Initial Scenario: a US Gun's Covered Arc is fixed when it is first revealed.

Every US Gun sets up with its CA recorded (a hexspine, :data:`.setup_rules.HEXSPINES`, in the
set-up ``placements``).  When the Gun is first revealed, a turn's ``guns: [{id}]`` asks for the
dr that fixes it (the campaign file's ``ca_dr``: 1-2 as recorded, 3-4 one hexspine clockwise,
5-6 one counter-clockwise), rolled by hxref and told to both.  EXC: an AT Gun attacked before
its CA is fixed: ``{id, secret: true}`` and the US fixes it by a secret dr, shown to the US
alone; the CA is then fixed even if the Gun stays hidden, and a later reveal tells it without
a new dr.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Problem
from .setup_rules import HEXSPINES, plan
from .state_types import KgpState
from ...kit.events import Event, event

if TYPE_CHECKING:
    from ...kit.charts import Charts

RULE = "I.3"


def gun_problems(charts: Charts, state: KgpState, items: list) -> list[Problem]:
    if not items:
        return []
    rules = plan(charts, state["cg"]).sides["us"].guns
    if not rules or "ca_dr" not in rules or not state["scenario"].get("initial"):
        return [Problem("no Covered Arc dr in this scenario: I.3 is the CG-I Initial Scenario's", RULE, ["guns"])]
    guns = {x.get("id"): x for x in (state.get("placements") or {}).get("us", []) if x.get("kind") == "gun"}
    seen: set = set()
    for i, g in enumerate(items):
        x = guns.get(g["id"])
        if x is None:
            return [Problem(f"the US set up no Gun {g['id']!r} (a Gun placement with that id)", RULE,
                            ["guns", i, "id"])]
        if g["id"] in seen:
            return [Problem(f"{g['id']} is named twice", RULE, ["guns", i, "id"])]
        seen.add(g["id"])
        fixed = x.get("ca_fixed")
        if fixed and (g.get("secret") or fixed.get("revealed")):
            return [Problem(f"the CA of {g['id']} is already fixed", RULE, ["guns", i, "id"])]
        if g.get("secret") and rules["secret_for"] not in str(x.get("unit", "")):
            return [Problem(f"only an {rules['secret_for']} attacked before its CA is fixed takes the secret dr "
                            f"({g['id']} is {x.get('unit') or 'a Gun of no unit named'})", RULE,
                            ["guns", i, "secret"])]
    return []


def arc(recorded: str, dr: int, table: dict) -> tuple[str, str]:
    """The CA a dr fixes from the recorded one, and how (the campaign file's ``ca_dr``)."""
    i = HEXSPINES.index(recorded)
    if dr in table["clockwise"]:
        return HEXSPINES[(i + 1) % 6], "one hexspine clockwise"
    if dr in table["counter_clockwise"]:
        return HEXSPINES[(i - 1) % 6], "one hexspine counter-clockwise"
    return recorded, "as recorded"


def fix_arcs(charts: Charts, state: KgpState, items: list, dice, events: list[Event]) -> None:
    """Roll each named Gun's CA dr (or tell the CA a secret dr fixed before)."""
    if not items:
        return
    table = (plan(charts, state["cg"]).sides["us"].guns or {})["ca_dr"]
    guns = {x.get("id"): x for x in state["placements"]["us"] if x.get("kind") == "gun"}
    when = f"{state['date']} turn {state['turn']}"
    for g in items:
        x = guns[g["id"]]
        fixed = x.get("ca_fixed")
        if fixed:                                   # fixed by the secret dr: now revealed, no new dr
            fixed["revealed"] = when
            events.append(event("gun.ca",
                                f"US Gun {g['id']} in {x['hex']} revealed: its CA, fixed by the US's secret dr, "
                                f"is {fixed['ca']}", RULE, side="us"))
            continue
        secret = bool(g.get("secret"))
        dr = dice.d6(f"I.3 CA of US Gun {g['id']}", by="us", **({"visible_to": ["us"]} if secret else {}))
        ca, how = arc(x["ca"], dr, table)
        x["ca_fixed"] = {"ca": ca, "dr": dr, "when": when, **({} if secret else {"revealed": when})}
        text = f"US Gun {g['id']} in {x['hex']}: CA dr {dr}: {how}, CA {ca}"
        if secret:
            events.append(event("gun.ca",
                                text + " (secret dr: attacked before revealed; fixed even if it stays hidden)", RULE,
                                side="us", visible_to=["us"]))
            events.append(event("secret.dr.public", "US make a secret dr (I.3 Gun CA)", RULE))
        else:
            events.append(event("gun.ca", text + " (revealed)", RULE, side="us"))
