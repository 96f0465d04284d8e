"""What a game is played with, against what this hxref publishes: the joining player's check.

A game's first event, ``game.created``, holds everything the rules read besides the orders and
the dice: the scenario (read once, when the game is made) and the pinned data files (charts,
terrain types, the scenario's map: :mod:`hxref.kit.data`).  Whoever makes the game writes that
event, and every join signature covers it; so a creator who doctored his copy of ``games/`` (a
kinder chart, a bridge where the map has a ford, two more brigades in his order of battle) would
have his victim sign for it.  Before a player signs his join, ``hxref join`` compares the game's
files with his own hxref's (:func:`differences`) and refuses unless he has read them
(:func:`diff_text`, ``--show-charts``) and accepts them (``--accept-charts``).  The same lines
appear in ``status``, the report header and the receipt of a join, so no one plays unaware.

A scenario file of a club's own (``hxref new --scenario my-scenario.yaml``) is no published
scenario: it is named as such, to be read and accepted like a changed chart.
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from ..base.canon import sha256_hex
from . import data

def _created(eng: Any) -> Mapping:
    log = eng.gf.log
    if not log or log[0].get("kind") != "game.created" or not isinstance(log[0].get("data"), dict):
        return {}
    return log[0]["data"]


def chosen_options(eng: Any) -> list[str]:
    """The optional rules the game ``eng`` is played with (its scenario's own and those its maker
    switched on with ``hxref new --option``), as pinned in ``game.created``: what a joiner agrees to."""
    return options_of(_created(eng))


def options_of(created: Mapping) -> list[str]:
    """:func:`chosen_options` from ``game.created``'s data."""
    scenario = created.get("scenario")
    options = scenario.get("options") if isinstance(scenario, dict) else None
    if not isinstance(options, dict):
        return []
    return sorted(str(name) for name, on in options.items() if on)


def club_map_of(created: Mapping) -> tuple[str, str] | None:
    """The club's own map the game is played on, as ``game.created``'s data holds it: its file
    name and the sha256 of the pinned text; None for a published map (or a damaged event)."""
    scenario, charts = created.get("scenario"), created.get("charts")
    name = scenario.get("map") if isinstance(scenario, Mapping) else None
    if not data.club_map(name) or not isinstance(charts, Mapping):
        return None
    key = data.club_key(name)
    entry = charts.get(key) if key is not None else None
    text = entry.get("text") if isinstance(entry, Mapping) else None
    return (name, sha256_hex(text.encode("utf-8"))) if isinstance(text, str) else None


def differences(eng: Any) -> list[str]:
    """Every way the game ``eng`` is played with other data than this hxref publishes: one line
    per file or scenario; none for an honest game made with the same hxref."""
    created = _created(eng)
    meta = created.get("meta")
    if not isinstance(meta, dict):
        meta = {}
    system, name = eng.meta["system"], str(meta.get("scenario", ""))
    out = data.unpublished(system, created.get("charts"), created.get("scenario"))
    if "scenario" in created:
        out += data.scenario_differences(system, name, created["scenario"])
    return out


def diff_text(eng: Any) -> str:
    """The game's pinned files and scenario against the published ones, as a unified diff: what
    the joining player reads before he accepts them (``hxref join --show-charts``)."""
    from ..base.yamlio import dump_fast

    created = _created(eng)
    system = eng.meta["system"]
    out = data.differences(system, created.get("charts"), created.get("scenario"))
    meta = created.get("meta")
    if not isinstance(meta, dict):
        meta = {}
    name = str(meta.get("scenario", ""))
    if "scenario" in created and data.scenario_differences(system, name, created["scenario"]):
        mine = None if data.own_file(name) else data.published_scenario(system, name)
        before = dump_fast(mine).splitlines(keepends=True) if mine is not None else []
        after = dump_fast(created["scenario"]).splitlines(keepends=True)
        out += "".join(difflib.unified_diff(before, after, f"published/scenarios/{name}" if before else "/dev/null",
                                            f"game/scenario/{name}"))
    return out
