"""What the core knows of Musket & Sabre: Salem Church without loading its rules."""
from __future__ import annotations

from ...kit.protocol import SystemInfo

INFO = SystemInfo(
    name="salem-church",
    title="Musket & Sabre: Salem Church",
    sides=("union", "confederate"),
    data_folder="salem_church",
    summary="tactical hex-and-counter, 3 May 1863; line-of-sight fog in umpired games",
    optional_rules={"open_map": "F: no line-of-sight fog in umpired games (every unit shown to both sides)"},
    has_map=True,
    # F: in umpired play a side's units the enemy does not see (line of sight, the rules decide),
    # and where they went
    secret_kinds=(".views:unseen_by_enemy", ".views:unseen_positions"),
    demo="salem-church",
)
