"""ACW miniatures' "this turn in brief": the lines a player reads first, from the turn's events.

Most important first: the game's result, the units eliminated, then the shots grouped by their
target (the hits each took, and from whom, most hits first), then how many units moved.  Every
unit by its name.  Nothing on a miniatures table is secret (digest E), but the brief still reads
only the events it is given.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: the most lines a brief has
MOST = 8


def brief(events: Sequence[Mapping[str, Any]]) -> list[str]:
    first: list[str] = []
    gone: list[str] = []
    hits: dict[str, list[tuple[str, int]]] = {}
    moved: dict[str, int] = {}
    for e in events:
        t = e.get("type")
        if t == "victory":
            first.append(str(e.get("text")))
        elif t == "eliminate" and e.get("eliminated"):
            gone.append(f"Eliminated: {', '.join(e['eliminated'])}.")
        elif t == "shot" and e.get("target"):
            hits.setdefault(str(e["target"]), []).append((str(e.get("shooter")), int(e.get("hits") or 0)))
        elif t == "move":
            moved[str(e.get("side"))] = moved.get(str(e.get("side")), 0) + 1
    shots = []
    for target, by in sorted(hits.items(), key=lambda kv: -sum(n for _, n in kv[1])):
        total = sum(n for _, n in by)
        shots.append(f"{target} takes {total} hit{'' if total == 1 else 's'}: "
                     + ", ".join(f"{who} {n}" for who, n in by) + ".")
    moves = [f"{side} moved {n} unit{'' if n == 1 else 's'}." for side, n in moved.items()]
    return (first + gone + shots + moves)[:MOST]
