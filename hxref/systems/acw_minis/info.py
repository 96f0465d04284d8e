"""What the core knows of the ACW miniatures rules without loading them."""
from __future__ import annotations

from ...kit.protocol import SystemInfo

INFO = SystemInfo(
    name="acw-minis",
    title="ACW miniatures on a measured table",
    sides=("union", "confederate"),
    data_folder="acw_minis",
    summary="miniatures on a measured table: straight advances, pivots and one d6 a shot",
    optional_rules={"road_following": "C8: a move may follow one road in several straight segments",
                    "fire_arc_centre": "C6: the 45-degree field of fire is measured from the centre of the front "
                                       "edge, not from the front corners"},
    has_map=True,
    secret_kinds=(),            # nothing is secret in these rules: the game is open
    demo="mercers-mill",
)
