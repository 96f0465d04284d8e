"""What the core knows of Dice Duel without loading its rules."""
from __future__ import annotations

from pathlib import Path

from hxref.kit.protocol import SystemInfo

INFO = SystemInfo(
    name="dice-duel",
    title="Dice Duel",
    sides=("red", "blue"),
    data_folder="duel",
    summary="two champions, one hex: secret simultaneous stances, one d6 a blow, first to 3 hits",
    simultaneous=True,
    # D1: each side's champion is its own to know; the other side meets "the red champion"
    secret_kinds=("champions/{side}",),
    demo="duel",
    # a system shipped outside hxref: games/ (scenarios, cases, playthroughs) and orders/ (the demo)
    root=Path(__file__).resolve().parent,
)
