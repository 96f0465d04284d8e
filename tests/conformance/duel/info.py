"""What the core knows of Hex Duel without loading its rules."""
from __future__ import annotations

from pathlib import Path

from hxref.kit.protocol import SystemInfo

INFO = SystemInfo(
    name="hex-duel",
    title="Hex Duel",
    sides=("red", "blue"),
    data_folder="duel",
    summary="three counters a side on a small hex map: moves, zones of control, a results table, hidden units",
    has_map=True,
    # H8: a side's counters are named for it alone; the other side meets "the red foot (4)"
    secret_kinds=("units/*[side={side}]/name",),
    demo="skirmish",
    # a system shipped outside hxref: games/ (scenario, map, terrain, charts, cases, playthroughs)
    # and orders/ (the demo)
    root=Path(__file__).resolve().parent,
    pinned_folders=("charts",),
)
