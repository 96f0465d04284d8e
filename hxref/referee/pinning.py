"""What a new game pins of its system's data folder, and the pinned texts read back from a game.

:func:`pin` is what ``hxref new`` writes into ``game.created``: the text and sha256 of every file
the rules read during play (:mod:`hxref.kit.data` says which), and a club's own map beside a
scenario file of one's own (:func:`club_map_file`).  :func:`prepare` reads them back from a game
file, which anyone may have crafted, as :class:`~hxref.kit.data.Source` values the rules are
given (:mod:`hxref.referee.rules`); E500 when they are damaged.  :func:`changed` and
:func:`with_today` compare them with the files on this disk (``hxref audit``, ``--rerun``).
"""
from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..base.canon import sha256_hex
from ..base.errors import InvalidInput
from ..base.yamlio import DATA_LIMITS, read_text
from ..kit.data import (CLUB_MAPS, MAPS, PINNED_TOP, Source, canonical_text, club_key, club_map, folder, from_disk,
                        game_map, is_key, is_map_key, pinned_folders, problem, terrain_ref, today)


def prepare(system: str, charts: Any) -> dict[str, Source]:
    """A game's pinned charts (``game.created``'s ``charts``) as sources; E500 when the game file
    holds them damaged (a key that is no chart path, a text that does not match its sha256, a map
    naming a terrain file the game does not pin)."""
    if charts is None:
        return {}
    if not isinstance(charts, dict):
        raise InvalidInput("game.created: the pinned charts are not a mapping (edited game file)", code="E500")
    if len(charts) > MAX_PINNED:
        raise InvalidInput(f"game.created: {len(charts)} pinned charts, at most {MAX_PINNED} (a crafted game file)",
                           code="E500")
    base = folder(system)
    out = {}
    for rel, entry in charts.items():
        if not is_key(system, rel) or not isinstance(entry, dict) \
                or set(entry) != {"sha256", "text"} or not isinstance(entry["text"], str):
            raise InvalidInput(f"game.created: the pinned chart {str(rel)[:60]!r} is damaged (edited game file)",
                               code="E500")
        digest = sha256_hex(entry["text"].encode("utf-8"))
        if digest != entry["sha256"]:
            raise InvalidInput(f"game.created: the pinned chart {rel} does not match its sha256 (edited game file)",
                               code="E500")
        bad = problem(entry["text"])
        if bad is not None:
            raise InvalidInput(f"game.created: the pinned chart {rel} {bad[0]} (a crafted or edited game file)",
                               code="E500")
        out[rel] = Source(system, rel, str(base / rel), digest, True, entry["text"])
    for rel, src in out.items():
        # a pinned map reads its terrain types from the game too: a map naming a file the game does
        # not pin (outside the data folder, another map, a scenario) would make each copy read its
        # own disk; only the terrain types may be left out, which the joining player is told
        ref = terrain_ref(src) if is_map_key(rel) else None
        if ref is not None and ref not in out and ref not in PINNED_TOP:
            raise InvalidInput(f"game.created: the pinned map {rel} names the terrain file {ref[:80]!r}, which the "
                               "game does not pin (a crafted game file)", code="E500")
    return out


#: a club's map takes the system's terrain types by this name only (pinned with it), or its own inline
SYSTEM_TERRAIN_REF = "../terrain.yaml"


def club_map_file(system: str, name: str, scenario_file: str | Path) -> Source:
    """A club's own map as ``hxref new`` pins it: ``name``, the scenario's ``map:``, is a file name
    beside the scenario file, a regular file and no symbolic link, one sound YAML mapping
    (:func:`problem`) whose terrain types are inline or the system's own (``terrain:
    ../terrain.yaml``).  E503 (naming the scenario or the map file) when it is not: a scenario
    someone sent must not make ``hxref new`` pin some other file of its user's disk into a game
    that he then sends to his opponent."""
    where = Path(scenario_file)
    rel = club_key(name) if len(name) <= 200 else None
    if rel is None:
        raise InvalidInput(f"the scenario's map {name[:80]!r} is not the name of a map file beside the scenario: "
                           "write a file name, e.g. map: my-table.yaml (lower-case letters, digits, '_', '.', '-'; "
                           "no folder, no path)", code="E503", file=str(where))
    path = where.parent / name
    try:
        st = os.lstat(path)
    except OSError:
        raise InvalidInput(f"the scenario's map file {name} is missing: a club's map lies beside its scenario",
                           code="E503", file=str(path)) from None
    if stat.S_ISLNK(st.st_mode):
        raise InvalidInput("the club's map is a symbolic link: a game pins only a map file of its own beside the "
                           "scenario (copy the map there)", code="E503", file=str(path))
    text = canonical_text(read_text(path, DATA_LIMITS, follow=False))
    bad = problem(text)
    if bad is not None:
        raise InvalidInput(f"this map {bad[0]}: it cannot be pinned in a game", code=bad[1], file=str(path))
    src = Source(system, rel, str(path), sha256_hex(text.encode("utf-8")), False, text)
    ref = src.data().get("terrain")
    if not isinstance(ref, dict) and ref != SYSTEM_TERRAIN_REF:
        raise InvalidInput(f"a club's map declares its terrain types inline (terrain: {{...}}) or takes the "
                           f"system's (terrain: {SYSTEM_TERRAIN_REF}), not {str(ref)[:60]!r}", code="E503",
                           file=str(path))
    return src


def pin(system: str, scenario: Any = None, scenario_file: str | Path | None = None) -> dict[str, dict[str, str]]:
    """What a new game pins, as ``{path: {sha256, text}}``: every file of :func:`pinned_folders`,
    the files of :data:`PINNED_TOP`, and the map the scenario names (its ``map:``; a scenario
    played on no map, or no scenario, pins none).  A club's own map (``map: my-table.yaml``) is
    pinned only from ``scenario_file``, the scenario file ``hxref new`` was given, and checked as
    its game will read it (:func:`club_map_file`); without it (what this hxref publishes for a
    game's scenario: the joining player's check) a club's map is never looked for."""
    base = folder(system)
    paths = [(f"{sub}/{p.name}", p) for sub in pinned_folders(system) for p in sorted((base / sub).glob("*.yaml"))]
    paths += [(name, base / name) for name in PINNED_TOP if (base / name).is_file()]
    name = scenario.get("map") if isinstance(scenario, Mapping) else None
    # a name from a game file (the joining player's check): a plain file name, looked up only then
    if not club_map(name) and isinstance(name, str) and len(name) <= 200 \
            and is_key(system, f"{MAPS}/{name}.yaml") and (base / MAPS / f"{name}.yaml").is_file():
        paths.append((f"{MAPS}/{name}.yaml", base / MAPS / f"{name}.yaml"))
    elif scenario_file is not None and name is not None and not club_map(name):
        maps = ", ".join(sorted(p.stem for p in (base / MAPS).glob("*.yaml")))
        raise InvalidInput(f"the scenario's map {str(name)[:60]!r} is none of {system}'s maps ({maps}); a club's "
                           "own map is named as its file beside the scenario: map: my-table.yaml", code="E503",
                           file=str(scenario_file))
    out = {}
    for rel, p in paths:
        if is_key(system, rel):
            src = from_disk(system, rel, p, "chart")
            bad = problem(src.text)
            if bad is not None:       # it would be refused in every copy of the game
                raise InvalidInput(f"this chart {bad[0]}: it cannot be pinned in a game", code=bad[1],
                                   file=str(p))
            out[rel] = {"sha256": src.sha256, "text": src.text}
    if club_map(name) and scenario_file is not None:
        own = club_map_file(system, name, scenario_file)
        out[own.path] = {"sha256": own.sha256, "text": own.text}
        _check_club_map(system, name, out, own.file)
    return out


def _check_club_map(system: str, name: str, charts: Mapping[str, Any], file: str) -> None:
    """Read the club's map ``name`` as the game will (from ``charts``, with the terrain types they
    pin), so a map its rules cannot read is refused at ``hxref new``, naming the club's file."""
    try:
        game_map(system, name, prepare(system, charts))
    except InvalidInput as exc:
        exc.where.file = file
        raise


def changed(system: str, charts: Mapping[str, Source]) -> list[tuple[str, str]]:
    """The pinned files that differ from the disk today: ``(path, how)``."""
    out = []
    for rel, src in sorted(charts.items()):
        if rel.startswith(CLUB_MAPS + "/"):     # no hxref publishes a club's map: nothing to differ from
            continue
        try:
            now = today(system, rel)
        except InvalidInput:
            out.append((rel, "is no longer in " + str(folder(system))))
            continue
        if now.sha256 != src.sha256:
            out.append((rel, f"differs from the file today (pinned sha256 {src.sha256[:16]}, "
                             f"today {now.sha256[:16]})"))
    return out


def with_today(system: str, charts: Mapping[str, Source]) -> dict[str, Source]:
    """``charts`` with each file that still exists replaced by today's (``hxref audit --rerun``)."""
    out = dict(charts)
    for rel in charts:
        if rel.startswith(CLUB_MAPS + "/"):     # a club's map is only ever the game's
            continue
        try:
            out[rel] = today(system, rel)
        except InvalidInput:
            pass
    return out


#: at most this many files pinned in one game (a system ships about ten)
MAX_PINNED = 64
