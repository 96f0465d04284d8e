"""The names a player knows his units and leaders by, for event texts and reports.

A unit is its counter's name with its commander's surname, "2nd Division (Whitcomb)"; an unled
unit says so, "2nd Division (unled)".  A leader is his surname, "Whitcomb".  The ids of the
scenario data (``u4``, ``whitcomb``) are for order files, never for what a report tells.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def surname(leaders: Mapping[str, Any], lid: str) -> str:
    """The leader's surname as his counter prints it (the last word of his name)."""
    ld = leaders.get(lid) or {}
    name = str(ld.get("name") or lid)
    return name.split()[-1] if name.split() else lid


def unit_label(state: Mapping[str, Any], uid: str) -> str:
    """The unit's counter name and whose it is: "2nd Division (Whitcomb)"."""
    u = (state.get("units") or {}).get(uid) or {}
    name = str(u.get("name") or uid)
    lid = u.get("leader")
    return f"{name} ({surname(state.get('leaders') or {}, lid) if lid else 'unled'})"


def force_name(leaders: Mapping[str, Any], force: str) -> str:
    """A force as its reader knows it: its leader's surname, or "unled units in 0515"."""
    if force.startswith("unled@"):
        return f"unled units in {force.split('@', 1)[1]}"
    return surname(leaders, force)
