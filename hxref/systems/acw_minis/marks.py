"""ACW miniatures' turn on the table (:meth:`AcwMinis.map_marks`): each shot of the events the reader
may see (A4), shooter and target by unit id (a shot event names them as their bases do), labelled
with the hits it scored; the picture draws an arrow for each and the field of fire of this turn's
shooters only."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...kit.protocol import MapMark


def marks(events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[MapMark]:
    """The shots of ``events``, in order."""
    units = view.get("units") or {}
    by_name = {str(u.get("name") or uid): uid for uid, u in units.items()}
    out: list[MapMark] = []
    for ev in events:
        if ev.get("type") != "shot":
            continue
        shooter, target = by_name.get(str(ev.get("shooter"))), by_name.get(str(ev.get("target")))
        hits = ev.get("hits")
        if shooter and target and isinstance(hits, int):
            out.append(MapMark("shot", (shooter, target), ev.get("side"), f"{hits} hit{'' if hits == 1 else 's'}"))
    return out
