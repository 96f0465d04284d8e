"""Heartland's "this turn in brief": the lines a player reads first, from the events he may see.

Most important first: the game's end and its victory points, then each combat (where, who
attacked whom, the FERT results, the steps lost -- by unit name where the reader's own display
names them, by side where it does not --, the retreats and the leaders killed, wounded or
captured), then failed attack checks, attrition that cost steps, and the initiative and the
weather.  Built from the events' data alone, never from the state, so it tells a reader nothing
his report does not.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...kit.charts import Charts

#: the most lines a brief has
MOST = 8


def brief(events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], charts: Charts) -> list[str]:
    places = _places(view, charts)
    first: list[str] = []
    combats: list[str] = []
    later: list[str] = []
    losses = [e for e in events if e.get("type") == "combat.losses"]
    for e in events:
        t = e.get("type")
        if t == "victory":
            first.insert(0, str(e.get("text")))
        elif t == "game.end":
            first.append(str(e.get("text")))
        elif t == "combat":
            mine = [x for x in losses if x.get("target") == e.get("target") and x.get("decision") == e.get("decision")]
            combats.append(_combat(e, mine, places))
        elif t == "attack.check" and not e.get("passed"):
            later.append(str(e.get("text")))
        elif t == "reorganization.supply_recheck" and "step loss(es):" in str(e.get("text")):
            later.append("attrition: " + str(e.get("text")))
        elif t == "replacement":
            later.append(str(e.get("text")))
        elif t in ("initiative", "weather"):
            later.append(str(e.get("text")))
    return (first + combats + later)[:MOST]


def _places(view: Mapping[str, Any], charts: Charts) -> dict[str, str]:
    """Hex label -> the place named there on the view's map, the game's (``charts``); none when there
    is no map."""
    name = view.get("map")
    if not name:
        return {}
    hm = charts.map(str(name))
    return {hm.label(h): p for p, h in hm.places.items()}


def _combat(e: Mapping[str, Any], own: Sequence[Mapping[str, Any]], places: Mapping[str, str]) -> str:
    target = str(e.get("target"))
    where = f"{places[target]} ({target})" if target in places else target
    attackers = " and ".join(e.get("attackers") or []) or str(e.get("attacker"))
    defenders = " and ".join(e.get("defenders") or []) or "the defenders"
    res = e.get("results") or []
    told = {"-": "no effect"}          # a FERT result "-" is a fire without effect
    attack = [told.get(str(r["result"]), str(r["result"])) for r in res if r.get("side") == e.get("attacker")]
    back = [told.get(str(r["result"]), str(r["result"])) for r in res if r.get("side") != e.get("attacker")]
    fire = [f"fire {'+'.join(attack)}" if attack else "no fire", f"return fire {'+'.join(back)}" if back else ""]
    head = f"Assault on {where}: {attackers} vs {defenders}, " + ", ".join(x for x in fire if x)
    what: list[str] = []
    lost = dict(e.get("lost") or {})
    for mine in own:            # the reader's own display names the units that lost the steps (3.71)
        what += [f"{u} loses {n} step{'s' if n > 1 else ''}" for u, n in (mine.get("units") or {}).items()]
        lost.pop(str(mine.get("side")), None)
    what += [f"{s} loses {n} step{'s' if n > 1 else ''}" for s, n in sorted(lost.items())]
    for r in e.get("retreats") or []:
        if r.get("eliminated"):
            what.append(f"{r['side']} stack in {r['from']} eliminated (no retreat route)")
        elif r.get("to"):
            what.append(f"{r['side']} retreats from {r['from']} to {r['to']}")
    for k in e.get("killed") or []:
        what.append(f"{k['leader']} killed" + (f", {k['heir']} takes command" if k.get("heir") else
                                                ", his units unled"))
    what += [f"{x} wounded" for x in e.get("wounded") or []]
    what += [f"{x} captured" for x in e.get("captured") or []]
    return head + (" -- " + "; ".join(what) if what else " -- no losses") + "."
