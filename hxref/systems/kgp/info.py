"""What the core knows of ASL Kampfgruppe Peiper without loading its rules."""
from __future__ import annotations

from ...kit.protocol import SystemInfo

INFO = SystemInfo(
    name="kgp",
    title="ASL Kampfgruppe Peiper: the campaign referee",
    sides=("us", "german"),
    data_folder="kgp",
    summary="the campaign game between scenarios: sealed purchases, chits and refits",
    simultaneous=True,
    demo="cg-ii",
    cli="hxref.cli_kgp:kgp_group",
)
