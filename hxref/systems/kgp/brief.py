"""KGP's "this turn in brief": the lines a player reads first, from the events he may see.

The fighting is played at the table (ASL), so a KGP turn's brief tells what hxref decided: the
campaign's victory, the scenario's end and the CG roster's LVP, the losses the sides reported,
what each roll decided (game end, reinforcements, the RG chart, refit rolls), the initiative of
a new CG date, and the side's own purchases.  The refit sequence's step-by-step record and the
sealed commitments stay in the details.  Only the events given are read, so a side's sealed
choices appear in its own brief alone.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: the most lines a brief has
MOST = 8
#: event types in the order a brief tells them, most important first
ORDER = ("victory", "scenario.end", "roster", "lvp.building", "report.lost", "roll", "initiative", "scenario.start",
         "refit.purchase", "opened", "objective.valid")
#: rolls the rules did not make: nothing was decided
SKIPPED = ("roll.not_made",)


def _rank(kind: str) -> int | None:
    if kind in SKIPPED:
        return None
    for i, prefix in enumerate(ORDER):
        if kind == prefix or kind.startswith(prefix + "."):
            return i
    return None


def brief(events: Sequence[Mapping[str, Any]]) -> list[str]:
    told = []
    for n, e in enumerate(events):
        rank = _rank(str(e.get("type") or ""))
        if rank is not None and e.get("text"):
            told.append((rank, n, str(e["text"]).splitlines()[0]))
    return [text for _, _, text in sorted(told)][:MOST]
