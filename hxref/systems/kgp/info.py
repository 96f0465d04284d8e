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
    # 8.14/8.15: a side's purchases and its unopened sealed values are its own (its CPP and secret
    # drs too, but they are numbers, which no report search can tell from a turn or a die).  Its
    # fortifications (8.621) and Refit drs (8.614-8.620) are its own too (OWN_KEYS), but the demo has
    # none, and a declared kind must find something in it
    secret_kinds=("purchases/{side}/*/name", "sealed/{side}/*[!opened]/id"),
    # CG3: the random KG weather table instead of each CG Date's historical weather, by agreement
    optional_rules={"random_weather": "CG3: the random KG weather table (8.617) instead of the historical weather "
                                      "of each CG Date (both players agree)"},
    demo="cg-ii",
    # the campaign is read again at every stage (8.6): its file is pinned with the charts
    pinned_folders=("charts", "campaigns"),
    cli="hxref.systems.kgp.cli:kgp_group",
)
