"""The files of a system's data folder (``games/<folder>/``): which of them a game pins in its
first event, how they are read (from the game's pinned copy or the disk), and the checks a pinned
text must pass.  Writing and reading back the pins is the referee's
(:mod:`hxref.referee.pinning`); comparing them with the published files is the joining player's
check (:mod:`hxref.referee.published`).

Numbers from a game's charts are data (design: a chart is updated by replacing its file,
nothing in the code changes).  But a game begun with one chart must go on, and audit, with that
chart: so :meth:`hxref.referee.engine.Engine.create` pins the text of every chart in ``game.created``
(:func:`hxref.referee.pinning.pin`), keyed by its path inside the data folder with a sha256 each, and the game's
identity, the hash of that event, covers them.  The engine gives them to the rules as a value,
:class:`hxref.kit.charts.Charts` (:mod:`hxref.referee.rules`), which answers every read of a
chart or map from them; with no game (a unit test calling the rules directly) or a game made
before charts were pinned, charts are read from the disk.

What is pinned: the files the rules read during play, every YAML file of the folders the system
names in :attr:`SystemInfo.pinned_folders <hxref.kit.protocol.SystemInfo>` (``charts/*.yaml``, and
for instance a campaign re-read at every stage, ``campaigns/*.yaml``), ``terrain.yaml`` (the terrain
types: the terrain effects chart of the maps) and the map the scenario names, ``maps/<map>.yaml``
(read through :func:`game_map`, which gives the map reader the pinned texts of the map and of
the terrain file it names).  The
scenario is in ``game.created`` already (read once, by the system's
:meth:`~hxref.kit.protocol.GameSystem.load_scenario`).

A club's own map: a scenario file of one's own may name, as its ``map:``, a map file of the club's
(``map: my-table.yaml``), a plain file name beside the scenario file, never a path nor a link.
``hxref new`` reads it once (:func:`hxref.referee.pinning.club_map_file`) and pins it as ``club-maps/<name>.yaml``; from
then on it is read from the game only, never from anyone's disk (:func:`game_map` refuses a club
map the game does not pin), and the joining player is told it is a club's own map, with its
sha256 (:func:`hxref.referee.published.unpublished`).

Caches are keyed by content (:class:`Source` compares by its sha256), never by name: two games
with different charts in one process each see their own.

A pinned text comes from a game file, which anyone may have crafted: before anything reads it,
it must be one YAML mapping within the data limits, without aliases, anchors, tags or duplicate
keys (:func:`problem`), so a chart cannot blow up when read, nor read differently in two readers.
Whether a game's charts are the ones this hxref publishes is the joining player's question
(:func:`hxref.referee.published.unpublished`, asked by ``hxref join`` before he signs).
"""
from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeGuard

from ..base.canon import sha256_hex
from ..base.errors import InvalidInput

#: the files at the top of a data folder pinned in a new game: the terrain types, which are the
#: terrain effects chart (movement costs, combat effects) of the system's maps
PINNED_TOP = ("terrain.yaml",)
#: the folder of the maps: a new game pins the one its scenario names (``map:``)
MAPS = "maps"
#: where a game pins a club's own map (no such folder is ever read from the disk)
CLUB_MAPS = "club-maps"
#: a pinned file's key: a path inside the data folder (checked, as it comes from a game file), a file
#: of a pinned folder, of the maps or the club's maps, or the terrain types; lower case only, so no
#: two keys name one file on a file system that ignores case
_KEY = re.compile(r"(?:(?P<folder>[a-z0-9_][a-z0-9_-]*)/[a-z0-9_][a-z0-9_.-]*|terrain)\.yaml")
#: a club's own map as its scenario names it: a file name beside the scenario, never a path
_CLUB_MAP = re.compile(r"([a-z0-9_][a-z0-9_.-]*)\.ya?ml")


def pinned_folders(system: str) -> tuple[str, ...]:
    """The folders of ``system``'s data folder whose every YAML file a new game pins, as its
    :class:`~hxref.kit.protocol.SystemInfo` names them (never the maps: a game pins only its own)."""
    from .registry import info

    return tuple(f for f in info(system).pinned_folders if f not in (MAPS, CLUB_MAPS))


def is_key(system: str, rel: Any) -> bool:
    """Whether ``rel`` may be the key of one of ``system``'s pinned files (see :data:`_KEY`)."""
    found = _KEY.fullmatch(rel) if isinstance(rel, str) else None
    return found is not None and found.group("folder") in (None, MAPS, CLUB_MAPS, *pinned_folders(system))


@dataclass(frozen=True)
class Source:
    """The text of one data file: read from the disk or pinned in a game.

    Equal (and hashed) by system, path, file and content hash, never by the text itself, so a
    cache of what is built from it is a cache by content."""

    system: str
    path: str                       # inside the data folder: "charts/crt.yaml"
    file: str                       # for messages: the file on disk it is (or was) read from
    sha256: str
    pinned: bool = False
    text: str = field(default="", compare=False, repr=False)

    def data(self) -> Any:
        """The plain data (dicts, lists, scalars), read once per content; shared, so read-only."""
        return _plain(self)

    def rt(self) -> Any:
        """The data with line numbers (ruamel), for readers whose errors name file:line."""
        from ..base.yamlio import DATA_LIMITS, load_rt

        bad = problem(self.text)
        if bad is not None:
            raise InvalidInput(f"this chart {bad[0]}", code=bad[1], file=self.file)
        return load_rt(self.text, self.file, DATA_LIMITS, strict=False)

    @property
    def stand_in(self) -> bool:
        """Whether the chart says its numbers are stand-ins (``stand_in: true``)."""
        d = self.data()
        return bool(d.get("stand_in")) if isinstance(d, dict) else False


@lru_cache(maxsize=256)     # by content; bounded, as a batch may read many games' crafted charts
def _plain(src: Source) -> Any:
    from ..base.yamlio import fast_load, to_plain

    bad = problem(src.text)         # a file on the disk too: an alias bomb is refused before it expands
    if bad is not None:
        raise InvalidInput(f"this chart {bad[0]}", code=bad[1], file=src.file)
    try:
        return to_plain(fast_load(src.text))
    except Exception as exc:  # noqa: BLE001 - a syntax error names the file and line
        mark = getattr(exc, "problem_mark", None)
        raise InvalidInput(f"cannot read the chart: {getattr(exc, 'problem', None) or exc}", code="E101",
                           file=src.file, line=mark.line + 1 if mark is not None else None) from None


#: the digests of texts :func:`problem` found sound in this process (bounded: cleared when full)
_SOUND: set[str] = set()


def problem(text: str) -> tuple[str, str] | None:
    """Why ``text`` cannot be a pinned chart, with the error code, or None: it must be one YAML
    mapping within :data:`~hxref.base.yamlio.DATA_LIMITS`, without aliases or anchors (an alias bomb
    would expand when read), tags, or duplicate keys (two readers would read it differently).
    Walks the C parser's events, so nothing is composed before it is checked."""
    import yaml

    from ..base.yamlio import DATA_LIMITS as lim

    if len(text.encode("utf-8")) > lim.max_bytes:
        return f"is larger than {lim.max_bytes:,} bytes", "E103"
    digest = sha256_hex(text.encode("utf-8"))
    if digest in _SOUND:
        return None
    try:
        found, nodes = _walk_events(text, lim)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return (f"is not valid YAML ({getattr(exc, 'problem', None) or 'unreadable'}"
                + (f", line {mark.line + 1})" if mark is not None else ")")), "E101"
    if found is not None:
        return found
    if nodes == 0:
        return "is empty", "E101"
    if len(_SOUND) > 4096:
        _SOUND.clear()
    _SOUND.add(digest)
    return None


def _walk_events(text: str, lim: Any) -> tuple[tuple[str, str] | None, int]:
    """Walk the C parser's events of ``text`` up to the first problem: one document, no alias, and each
    node sound (:func:`_node_problem`).  Returns the problem (or None) and the nodes counted."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    nodes = docs = 0
    stack: list[list | None] = []        # per open collection: [keys seen, next node is a key] or None
    for ev in yaml.parse(text, Loader=loader):
        if isinstance(ev, yaml.DocumentStartEvent):
            docs += 1
            if docs > 1:
                return ("holds more than one YAML document", "E102"), nodes
        if not isinstance(ev, (yaml.NodeEvent, yaml.CollectionEndEvent)):
            continue
        if isinstance(ev, yaml.AliasEvent):
            return (f"uses an alias (*{ev.anchor})", "E102"), nodes
        if isinstance(ev, yaml.CollectionEndEvent):
            stack.pop()
            continue
        nodes += 1
        found = _node_problem(ev, nodes, stack, lim)
        if found is not None:
            return found, nodes
    return None, nodes


#: YAML 1.1's plain scalars for infinity and not-a-number
_NOT_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)")


def _node_problem(ev: Any, nodes: int, stack: list[list | None], lim: Any) -> tuple[str, str] | None:
    """One node of a pinned chart: no anchor or tag, within the limits (values, length, depth), inside
    the one top mapping, and no key twice in its mapping; opens its collection on ``stack``."""
    import yaml

    if ev.anchor:
        return f"uses an anchor (&{ev.anchor})", "E102"
    if ev.tag is not None and not (isinstance(ev, yaml.ScalarEvent) and ev.tag == "!"):
        return f"uses a YAML tag ({ev.tag})", "E102"
    if nodes > lim.max_nodes:
        return f"holds more than {lim.max_nodes:,} values", "E103"
    if not stack and not isinstance(ev, yaml.MappingStartEvent):
        return "is not a mapping", "E101"
    top = stack[-1] if stack else None
    if top is not None:
        if top[1] and isinstance(ev, yaml.ScalarEvent):
            if ev.value in top[0]:
                return f"has the key {ev.value[:40]!r} twice", "E104"
            top[0].add(ev.value)
        top[1] = not top[1]
    if isinstance(ev, yaml.ScalarEvent):
        if len(ev.value) > lim.max_string:
            return f"holds a value longer than {lim.max_string:,} characters", "E103"
        if not ev.style and _NOT_FINITE.fullmatch(ev.value):     # plain, not quoted
            # no chart or map measures anything in .nan or .inf; geometry and dice tables cannot use them
            return f"holds a number that is not finite ({ev.value}, line {ev.start_mark.line + 1})", "E112"
    else:
        stack.append([set(), True] if isinstance(ev, yaml.MappingStartEvent) else None)
        if len(stack) > lim.max_depth:
            return f"is nested deeper than {lim.max_depth} levels", "E103"
    return None


def canonical_text(text: str) -> str:
    """The pinned form of a data file's text: line endings normalised to ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


#: (system, games folder, its package) -> its data folder, and (data folder, path) -> the file:
#: the rules ask for charts and maps often, and building paths costs more than reading a stamp
_FOLDERS: dict[tuple[str, Path, str | None], Path] = {}
_FILES: dict[tuple[Path, str], Path] = {}


def folder(system: str) -> Path:
    """``games/<folder>/`` of the system called ``system``."""
    from ..base import paths
    from .registry import REGISTRY, info

    key = (system, paths.games_dir(), REGISTRY.get(system))
    found = _FOLDERS.get(key)
    if found is None:
        if len(_FOLDERS) > 64:
            _FOLDERS.clear()
        found = _FOLDERS[key] = info(system).games_path()
    return found


def _path(system: str, rel: str) -> Path:
    """The file ``rel`` of ``system``'s data folder on the disk."""
    base = folder(system)
    found = _FILES.get((base, rel))
    if found is None:
        if len(_FILES) > 1024:
            _FILES.clear()
        found = _FILES[(base, rel)] = base / rel
    return found


# --- reading from the disk ----------------------------------------------------------------------

_DISK: dict[str, tuple[tuple, Source]] = {}
#: a file changed less than this before it was read may change again within the same time stamp
_RACY_NS = 2_000_000_000


def from_disk(system: str, rel: str, path: Path, what: str) -> Source:
    """The file's text, read again only when the file changed (size, time or inode), or when it
    had changed just before it was read (file times are coarse: a second write may keep them)."""
    from ..base.yamlio import DATA_LIMITS, read_text

    key = str(path)
    try:
        st = os.stat(path)
    except OSError:
        raise InvalidInput(f"there is no {what} {rel!r} for {system}: the file is missing", code="E503",
                           file=key) from None
    stamp = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    hit = _DISK.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    read_at = time.time_ns()
    text = canonical_text(read_text(path, DATA_LIMITS))
    src = Source(system, rel, key, sha256_hex(text.encode("utf-8")), False, text)
    if read_at - max(st.st_mtime_ns, st.st_ctime_ns) > _RACY_NS:
        _DISK[key] = (stamp, src)
    return src


def today(system: str, rel: str) -> Source:
    """The file as it is on the disk now, whatever game is being played."""
    return from_disk(system, rel, _path(system, rel), "data file")


# --- the pinned charts of the game being played ---------------------------------------------------


@lru_cache(maxsize=64)
def _resolved(path: Path) -> Path:
    """``path`` with its links resolved: once per folder, not at every resolution of a replay."""
    return path.resolve()


#: (system, map path) -> (the sha256 of the map file and of its terrain file, the map): a map is
#: parsed once per content, as charts are; bounded, as a batch may read many games' crafted maps
_MAPS: dict[tuple[str, str], tuple[tuple[str, str], Any]] = {}


def game_map(system: str, name: str, pinned: Mapping[str, Source]) -> Any:
    """The map ``maps/<name>.yaml`` of ``system`` (a :class:`~hxref.geometry.mapmodel.HexMap` or
    :class:`~hxref.geometry.mapmodel.TableMap`): the game's pinned copy in ``pinned`` (the game
    being played, :func:`pinned`, when not given), else the disk's, with the terrain types it names
    read the same way.  Parsed once per content."""
    return game_map_at(system, map_key(system, name), pinned)


def game_map_at(system: str, rel: str, pinned: Mapping[str, Source]) -> Any:
    """The map at ``rel`` inside the data folder (``maps/x.yaml``, ``club-maps/y.yaml``), as
    :func:`game_map` reads it."""
    from ..geometry.mapfile import load_map

    if rel.startswith(CLUB_MAPS + "/") and rel not in pinned:
        raise InvalidInput(f"the scenario's map is the club's own file {rel.split('/', 1)[1]!r}, which this game does "
                           "not pin: a club's map is read only from the game that pinned it (a crafted game file)",
                           code="E500")
    src = pinned.get(rel) or today(system, rel)
    ref = terrain_ref(src)
    if ref is None:
        terrain = ""
    elif ref.startswith("/"):             # a terrain file outside the data folder: never pinned
        terrain = file(system, ref).sha256
    else:
        terrain = (pinned.get(ref) or today(system, ref)).sha256
    key = (src.sha256, terrain)
    hit = _MAPS.get((system, rel))
    if hit is not None and hit[0] == key:
        return hit[1]
    m = load_map(folder(system) / rel, text=_reader(system, pinned))
    if len(_MAPS) > 64:
        _MAPS.clear()
    _MAPS[(system, rel)] = (key, m)
    return m


def _reader(system: str, pinned: Mapping[str, Source]) -> Callable[[Path], str]:
    """The text of a file the map reader asks for: the game's pinned copy of a file of the data
    folder (its map, the terrain file the map names), else the file on the disk."""
    from ..base.yamlio import DATA_LIMITS, read_text

    root = _resolved(folder(system))

    def text(path: Path) -> str:
        try:
            rel = path.resolve().relative_to(root).as_posix()
        except ValueError:
            rel = ""
        held = pinned.get(rel)
        return held.text if held is not None else read_text(path, DATA_LIMITS)

    return text


def is_map_key(rel: str) -> bool:
    """Whether the pinned path ``rel`` is a map: a published one or a club's own."""
    return rel.startswith((MAPS + "/", CLUB_MAPS + "/"))


def club_map(name: Any) -> TypeGuard[str]:
    """Whether a scenario's ``map:`` names a club's own map file (``my-table.yaml``), not a published map."""
    return isinstance(name, str) and name.endswith((".yaml", ".yml"))


def map_key(system: str, name: Any) -> str:
    """The pinned path of the scenario's map ``name``: ``maps/<name>.yaml`` for a published map,
    ``club-maps/<stem>.yaml`` for a club's own file ``<stem>.yaml``; E500 for anything else, a
    crafted scenario's ``../../x`` or ``/etc/passwd.yaml``: no file is looked up for it."""
    rel = ""
    if club_map(name):
        found = _CLUB_MAP.fullmatch(name)
        rel = f"{CLUB_MAPS}/{found.group(1)}.yaml" if found else ""
    elif isinstance(name, str):
        rel = f"{MAPS}/{name}.yaml"
    if len(rel) > 220 or not is_key(system, rel):
        raise InvalidInput(f"the scenario's map {str(name)[:60]!r} is no map name of {system}: a crafted scenario",
                           code="E500")
    return rel


def map_file(system: str, name: Any) -> Path:
    """Where the map reader (:mod:`hxref.geometry.mapfile`) reads the scenario's map ``name``: inside the data
    folder, so that while a game is played it answers from the game's pinned copy."""
    return folder(system) / map_key(system, name)


@lru_cache(maxsize=64)
def terrain_ref(src: Source) -> str | None:
    """The terrain file the map ``src`` names (``terrain: ../terrain.yaml``): its path inside the
    data folder, or an absolute path when it lies outside; None when the terrain is inline."""
    import posixpath

    d = src.data()
    ref = d.get("terrain") if isinstance(d, dict) else None
    if not isinstance(ref, str):
        return None
    inside = posixpath.normpath(posixpath.join(posixpath.dirname(src.path), ref))
    if inside.startswith("../") or inside.startswith("/"):
        return str((Path(src.file).parent / ref).resolve())
    return inside


def file(system: str, path: str | Path) -> Source:
    """Another file of a chart's (or campaign's) shape, a test's or a user's: always from the disk."""
    return from_disk(system, str(path), Path(path), "data file")


def club_key(name: str) -> str | None:
    """The pinned path of the club's map ``name``, or None when it is no club map name."""
    found = _CLUB_MAP.fullmatch(name)
    return f"{CLUB_MAPS}/{found.group(1)}.yaml" if found else None
