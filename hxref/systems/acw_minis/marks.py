"""ACW miniatures' turn on the table (:meth:`AcwMinis.map_marks`): each shot of the events the reader
may see (A4), shooter and target by unit id, labelled with the hits it scored; the picture draws
an arrow for each and the field of fire of this turn's shooters only."""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ...kit.protocol import MapMark

_SHOT = re.compile(r"^(\S+) shoots at (\S+):.*?(\d+) hits?$", re.S)


def marks(events: Sequence[Mapping[str, Any]], view: Mapping[str, Any], audience: str | None) -> list[MapMark]:
    """The shots of ``events``, in order."""
    units = view.get("units") or {}
    out: list[MapMark] = []
    for ev in events:
        if ev.get("type") != "shot":
            continue
        found = _SHOT.match(str(ev.get("text") or ""))
        if found and found.group(1) in units and found.group(2) in units:
            hits = int(found.group(3))
            out.append(MapMark("shot", (found.group(1), found.group(2)), ev.get("side"),
                               f"{hits} hit{'' if hits == 1 else 's'}"))
    return out
