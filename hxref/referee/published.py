"""What a game is played with, against what this hxref publishes: the joining player's check.

A game's first event, ``game.created``, holds everything the rules read besides the orders and
the dice: the scenario (read once, when the game is made) and the pinned data files (charts,
terrain types, the scenario's map: :mod:`hxref.referee.pinning`).  Whoever makes the game writes that
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
import re
from collections.abc import Mapping
from typing import Any

from ..base.canon import canonical_json, sha256_hex
from ..kit.data import CLUB_MAPS, MAPS, club_key, club_map, folder
from ..kit.registry import info
from .pinning import pin, prepare
from .scenario_memo import remembered


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
    if not club_map(name) or not isinstance(charts, Mapping):
        return None
    key = club_key(name)
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
    out = unpublished(system, created.get("charts"), created.get("scenario"))
    if "scenario" in created:
        out += scenario_differences(system, name, created["scenario"])
    return out


def diff_text(eng: Any) -> str:
    """The game's pinned files and scenario against the published ones, as a unified diff: what
    the joining player reads before he accepts them (``hxref join --show-charts``)."""
    from ..base.yamlio import dump_fast

    created = _created(eng)
    system = eng.meta["system"]
    out = charts_diff(system, created.get("charts"), created.get("scenario"))
    meta = created.get("meta")
    if not isinstance(meta, dict):
        meta = {}
    name = str(meta.get("scenario", ""))
    if "scenario" in created and scenario_differences(system, name, created["scenario"]):
        mine = None if own_file(name) else published_scenario(system, name)
        before = dump_fast(mine).splitlines(keepends=True) if mine is not None else []
        after = dump_fast(created["scenario"]).splitlines(keepends=True)
        out += "".join(difflib.unified_diff(before, after, f"published/scenarios/{name}" if before else "/dev/null",
                                            f"game/scenario/{name}"))
    return out


# --- the pinned charts against the published ones ------------------------------------------------

def unpublished(system: str, charts: Any, scenario: Any = None) -> list[str]:
    """How a game's pinned charts (``game.created``'s ``charts``, raw) differ from the ones this
    hxref publishes (its ``games/<folder>/``) for the game's ``scenario``: one line per file, none
    when they are the same.  The joining player's check before he signs (``hxref join``).

    Remembered between commands (:mod:`hxref.referee.scenario_memo`), keyed by the sha256 of each
    pinned text as the game holds it (computed here, not the digest the game claims), the map the
    scenario names and the data folder's files: reading and checking every chart of the system
    again costs ``hxref status`` more than all the rest it does."""
    texts = {rel: v.get("text") for rel, v in charts.items()} if isinstance(charts, Mapping) \
        and all(isinstance(v, Mapping) for v in charts.values()) else None
    if texts is None or not all(isinstance(t, str) for t in texts.values()):
        return _unpublished(system, charts, scenario)          # damaged: checked afresh, not kept
    digests = {str(rel): sha256_hex(t.encode("utf-8")) for rel, t in texts.items()}
    the_map = scenario.get("map") if isinstance(scenario, Mapping) else None
    return remembered(system, "", {"charts": digests, "map": the_map if isinstance(the_map, str) else None},
                      folder(system), lambda: _unpublished(system, charts, scenario), what="pinned charts")


def _unpublished(system: str, charts: Any, scenario: Any = None) -> list[str]:
    here = pin(system, scenario)
    if charts is None:
        return [f"the game pins no charts: each copy would read its own {folder(system)}"]
    game = prepare(system, charts)
    out = []
    the_map = scenario.get("map") if isinstance(scenario, Mapping) else None
    for rel in sorted(set(here) | set(game)):
        if rel not in game:
            out.append(f"{rel} is not pinned (each copy would read its own file)")
        elif rel.startswith(CLUB_MAPS + "/") and club_map(the_map) and rel == club_key(the_map):
            out.append(f"the map is a club's own, the creator's file {the_map} (sha256 {game[rel].sha256[:16]}), "
                       f"not one of the published maps in {folder(system) / MAPS}")
        elif rel not in here:
            out.append(f"{rel} is not one of the published charts in {folder(system)}")
        elif game[rel].sha256 != here[rel]["sha256"]:
            out.append(f"{rel} differs from {folder(system) / rel} (the game's sha256 {game[rel].sha256[:16]}, "
                       f"yours {here[rel]['sha256'][:16]})")
    return out


def charts_diff(system: str, charts: Any, scenario: Any = None) -> str:
    """The game's pinned charts against the published ones, as a unified diff (``hxref join
    --show-charts``): what the player reads before he accepts them."""
    here = pin(system, scenario)
    game = {rel: src.text for rel, src in prepare(system, charts).items()}
    out: list[str] = []
    for rel in sorted(set(here) | set(game)):
        mine, theirs = here.get(rel, {}).get("text", ""), game.get(rel, "")
        if mine != theirs:
            out.extend(difflib.unified_diff(mine.splitlines(keepends=True), theirs.splitlines(keepends=True),
                                            f"published/{rel}" if rel in here else "/dev/null",
                                            f"game/{rel}" if rel in game else "/dev/null"))
    return "".join(out)


#: a published scenario's name: a file name in the system's scenarios folder, never a path
_SCENARIO_NAME = re.compile(r"[a-z0-9_][a-z0-9_.-]*")


def own_file(name: str) -> bool:
    """Whether the scenario name is a file of one's own (``my-scenario.yaml``), not a published name."""
    return name.endswith((".yaml", ".yml"))


def published_scenario(system: str, name: str) -> Any:
    """This hxref's scenario ``name`` as a new game would hold it, or None when it has none."""
    from ..base.errors import HxrefError
    from ..kit.registry import get

    try:
        sysobj = get(system)
        return sysobj.load_scenario(name) if name in sysobj.scenarios() else None
    except HxrefError:
        return None


def scenario_differences(system: str, name: str, scenario: Any) -> list[str]:
    """How the game's scenario differs from this hxref's scenario of that name: one line, or none
    (remembered between commands for exactly these inputs: :mod:`hxref.referee.scenario_memo`)."""
    return remembered(system, name, scenario, folder(system),
                      lambda: _scenario_differences(system, name, scenario))


def _scenario_differences(system: str, name: str, scenario: Any) -> list[str]:
    where = folder(system) / "scenarios"
    if own_file(name):
        return [f"the scenario is the creator's own file {name}, not one of the published ones in {where}"]
    # only a published name: a path ("../x", "/home/...") would compare with some other file
    mine = published_scenario(system, name) if _SCENARIO_NAME.fullmatch(name) else None
    if mine is None:
        return [f"the scenario {name[:80]!r} is not one of the published ones in {where}"]
    if not _same(_with_options(system, mine, scenario), scenario):
        return [f"the scenario {name} differs from the published one in {where}"]
    return []


def _with_options(system: str, mine: dict, scenario: Any) -> dict:
    """The published scenario with the optional rules the game's players switched on (``hxref new
    --option``: each is one of the system's optional rules, set true in the scenario's ``options``,
    as a new game made with them would hold it); a game with any other option differs."""
    given = scenario.get("options") if isinstance(scenario, dict) else None
    if not isinstance(given, dict):
        return mine
    own = mine.get("options") or {}
    chosen = [n for n, v in given.items() if v is True and n in info(system).optional_rules and n not in own]
    return dict(mine, options={**own, **{n: True for n in chosen}}) if chosen else mine


def _same(a: Any, b: Any) -> bool:
    """Equal as the log holds them: 3 and 3.0 and true are three values (Python's == says one)."""
    try:
        return canonical_json(a) == canonical_json(b)
    except (TypeError, ValueError):
        return False
