"""The records a game system exchanges with the core, under the name the rules modules import.

They are declared once, with the protocol, in :mod:`hxref.kit.protocol`.
"""
from __future__ import annotations

from ..kit.protocol import (  # noqa: F401  (the protocol's records, for the rules modules)
    Decision,
    Field,
    GameSystem,
    MapMark,
    MapView,
    Problem,
    Result,
    Section,
    SystemInfo,
    Template,
)
