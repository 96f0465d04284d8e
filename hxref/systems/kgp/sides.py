"""The two sides of a KGP Campaign Game and how the rules' sentences name them (8.1).

``SIDE_NAMES`` names a side in the victory and chit sentences ("the US win"),
``SIDE_ADJECTIVES`` in the referee's log ("US idle, German attack").
"""
from __future__ import annotations

SIDES = ("us", "german")
SIDE_NAMES = {"us": "the US", "german": "the Germans"}
SIDE_ADJECTIVES = {"us": "US", "german": "German"}


def other(side: str) -> str:
    """The opposing side."""
    return SIDES[1 - SIDES.index(side)]
