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

from ..canon import canonical_json
from . import data

def _created(eng: Any) -> Mapping:
    log = eng.gf.log
    if not log or log[0].get("kind") != "game.created" or not isinstance(log[0].get("data"), dict):
        return {}
    return log[0]["data"]


def chosen_options(eng: Any) -> list[str]:
    """The optional rules the game ``eng`` is played with (its scenario's own and those its maker
    switched on with ``hxref new --option``), as pinned in ``game.created``: what a joiner agrees to."""
    scenario = _created(eng).get("scenario")
    options = scenario.get("options") if isinstance(scenario, dict) else None
    if not isinstance(options, dict):
        return []
    return sorted(str(name) for name, on in options.items() if on)


def differences(eng: Any) -> list[str]:
    """Every way the game ``eng`` is played with other data than this hxref publishes: one line
    per file or scenario; none for an honest game made with the same hxref."""
    _check_snapshot(eng)
    created = _created(eng)
    meta = created.get("meta")
    if not isinstance(meta, dict):
        meta = {}
    system, name = eng.meta["system"], str(meta.get("scenario", ""))
    out = data.unpublished(system, created.get("charts"), created.get("scenario"))
    if "scenario" in created:
        out += data.scenario_differences(system, name, created["scenario"])
    return out


def _check_snapshot(eng: Any) -> None:
    """E500 when a game still awaiting its joins is not what its log gives.  The header is a
    snapshot, which commands trust, and the game starts from the header's scenario, meta and
    participants when the last join comes in: so a creator could show the published scenario in
    ``game.created``, the one every join signs and the comparison reads, and play a doctored one
    written in the header.  The joining player's copy is his creator's file, so it is replayed
    before anything is compared (a few events: the game and its joins).  Whether the game awaits
    its joins is asked of the log and of the awaited decisions, never of the header's ``phase``,
    which the same creator writes."""
    log = eng.gf.log
    awaiting = eng.h.get("awaiting")
    joining = isinstance(awaiting, list) and any(isinstance(a, dict) and a.get("id") == "join" for a in awaiting)
    if not log or (not joining and any(ev.get("kind") == "game.started" for ev in log)):
        return
    from pathlib import Path

    from ..audit import audit
    from ..errors import HxrefError, InvalidInput

    if not Path(eng.gf.path).is_file():        # a game held in memory only (a replay's): no file to check
        return
    try:
        res = audit(eng.gf.path, known_head=False)
    except HxrefError:
        raise
    except Exception as exc:  # noqa: BLE001 - a crafted first event must not crash the joining player's hxref
        raise InvalidInput(f"the game file's first event is damaged ({exc!r:.120}): an edited or crafted game "
                           "file, not signed", code="E500", file=str(eng.gf.path)) from None
    problems = list(res.problems)
    # the audit compares mappings, which ignores their order; but the rules walk the scenario's
    # mappings in order (who is found first, who takes a loss), and an honest game holds them in
    # the log's canonical order, keys sorted
    for what, value in (("the first event", log[0].get("data")), ("the header's scenario", eng.h.get("scenario"))):
        if value is not None and not _in_order(value):
            problems.append(f"{what} holds its keys out of the canonical order")
    if problems:
        raise InvalidInput(f"the game file is not what its log gives ({problems[0][:200]}): an edited or "
                           "crafted game file, not signed", code="E500", file=str(eng.gf.path),
                           hint="ask its creator for the game file again, and run `hxref audit` on it")


def _in_order(value: Any) -> bool:
    """Whether every mapping in ``value`` holds its keys in canonical (sorted) order."""
    import json

    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False).encode("utf-8") == canonical_json(value)
    except (TypeError, ValueError):
        return False


def diff_text(eng: Any) -> str:
    """The game's pinned files and scenario against the published ones, as a unified diff: what
    the joining player reads before he accepts them (``hxref join --show-charts``)."""
    from ..yamlio import dump_fast

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
