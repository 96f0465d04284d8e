"""Salem Church's "this turn in brief": the lines a player reads first, from the events he may see.

Most important first: the game's result, then each attack and counter-attack (the hex, who
attacked whom, A-D, die, CRT result and what came of it: steps lost, disruptions, retreats,
leaders killed), bombardments that hit, the victory hexes that changed hands, the wagon train
leaving the map, and the Union's initiative.  Each event's units are named as the reader sees
them (:mod:`.narration` wrote them so), so the brief tells him nothing his report does not.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .views import PUBLIC_CONTROL_HEXES

#: the most lines a brief has
MOST = 8


def brief(events: Sequence[Mapping[str, Any]]) -> list[str]:
    first: list[str] = []
    combats: list[str] = []
    later: list[str] = []
    for e in events:
        t = e.get("type")
        if t == "victory":
            first.append(str(e.get("text")))
        elif t == "combat":
            combats.append(_combat(e))
        elif t == "bombardment" and str(e.get("effects") or "no effect") != "no effect":
            ex = e.get("explain") or {}
            later.append(f"Bombardment of {ex.get('target')} by {ex.get('unit')}: {e.get('effects')}.")
        elif t == "control" and e.get("hex") in PUBLIC_CONTROL_HEXES and "was nobody's" not in str(e.get("text")):
            later.append(f"Victory hex {e.get('text')}")
        elif t in ("wagon.exit", "initiative", "night"):
            later.append(str(e.get("text")))
    return (first + combats + later)[:MOST]


def _combat(e: Mapping[str, Any]) -> str:
    ex = e.get("explain") or {}
    what = "Counter-attack" if e.get("counter") else "Attack"
    att, dfn = ex.get("attacker") or {}, ex.get("defender") or {}
    odds = (f"{att.get('total')}-{dfn.get('total')} = {int(ex.get('differential') or 0):+d}"
            if "differential" in ex else "")
    head = (f"{what} on {e.get('target')}: {e.get('attackers')} vs {e.get('defenders')}"
            + (f", {odds}" if odds else "")
            + (f", die {ex.get('die')}" if ex.get("die") is not None else "")
            + (f": {ex.get('cell') or ex.get('result')}" if ex.get("cell") or ex.get("result") else ""))
    return f"{head} -- {e.get('effects') or 'no effect'}."
