"""What the core knows of The Army of the Heartland without loading its rules."""
from __future__ import annotations

from ...kit.protocol import SystemInfo

INFO = SystemInfo(
    name="heartland",
    title="The Army of the Heartland",
    sides=("union", "confederate"),
    data_folder="heartland",
    summary="operational ACW in the West: hidden forces, impulses, supply and rail",
    # the optional rules (1.12) the players may switch on with ``hxref new --option NAME``
    optional_rules={"dense_fog": "3.72 dense fog of war", "sickness": "8.13 illness",
                    "off_map_rail": "8.74 off-map rail movement",
                    "tactical_doctrine": "10.32a tactical doctrine"},
    has_map=True,
    simultaneous=True,
    # 3.71: in umpired play a side's units (ids, names) and led supplies are its own to know
    secret_kinds=("units/&[side={side}]", "units/*[side={side}]/name", "logistics/&[side={side}][leader]"),
    # the record of past turns only grows (system.py appends a turn at its end); the scenario's
    # calendar of turns is read, never changed
    append_only=("history", "calendar"),
    demo="heartland-demo",
    cli="hxref.systems.heartland.cli:heartland_group",
)
