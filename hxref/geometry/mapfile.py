"""Map files: loading and checking ``games/<system>/maps/*.yaml``.

A map file is either a **hex map** or a **table** (miniatures, in inches).
``load_map(path)`` returns a :class:`HexMap` or a :class:`TableMap` and raises
:class:`~hxref.base.errors.InvalidInput` for the first problem; ``check_map(path)``
returns every problem, each with its file and line.  The commented example
is ``games/heartland/maps/sample.yaml``.

Hex map
-------
::

    map: heartland-sample          # id
    title: Heartland sample map
    system: heartland
    kind: hex
    stand_in: true                 # optional; say so when the map is not the published one
    note: An original sample map.  # optional
    grid:
      labels: four-digit           # four-digit (2114) | asl (J14, AA15; board prefix below)
      board: St                    # asl only: the board prefix printed in front (StJ14)
      parity: even                 # the printed columns that sit half a hex lower: even | odd
      columns: [1, 12]             # first and last printed column (asl: letters allowed, ["A", "LL"])
      rows: [1, 10]                # first and last printed row
      terrain: clear               # terrain of every hex not listed under hexes
      elevation: 0                 # ground level of every hex not given one
    terrain: ../terrain.yaml       # the terrain types: a file (relative to this one) or inline
    hexes:                         # label -> terrain, or a mapping
      "0305": woods
      "0306": {terrain: rough, elevation: 1, features: [town]}
    hexsides:                      # "a/b" (or "a-b") -> features, or a mapping
      "0305/0306": [minor_river]
      "0607/0608": {features: [major_river, bridge]}
      "StG9-F8": {features: [slope], drawn_in: StG9}   # directed features name the hex they are drawn in
    lines:                         # roads, railroads: chains of adjacent hexes
      - {type: road, name: Pike, hexes: ["0101", "0102", "0203"]}
    places:                        # named hexes
      Murfreesboro: "0306"

Quote the labels: YAML reads ``0305`` as the number 305 (four-digit maps
accept that, zero-padded, but quoting is clearer).

Terrain types (a ``terrain.yaml`` or the inline ``terrain:`` mapping) have four
groups -- ``hex`` (one per hex), ``features`` (in a hex, on top of its
terrain), ``hexside`` and ``lines`` -- and each type may give::

    colour: "#6a9a4a"    # for the pictures (required)
    symbol: w            # one character for the terminal picture
    label: Woods         # display name
    move: 2              # MP to enter (hex), extra MP (feature, hexside), MP per hex along (line);
                         # a number, null (prohibited), or per unit class {default: 1, cavalry: 3}
    move_out: 0.5        # hexside only: when crossing out of the hex it is drawn in
    move_in: 0           # hexside only: when crossing into the hex it is drawn in
    line_move: 0         # hexside only: when the step follows a road or rail across it
    replaces: [river]    # hexside only: a bridge or ford cancels these features on its hexside
    height: 1            # LOS obstacle height in levels (hex, feature, hexside)
    rules: {...}         # anything else the rules module reads; not checked here

The data step cost (:meth:`HexMap.step_cost`): along a line, the line's
rate; otherwise the terrain entered plus its features; plus every hexside
feature crossed, after ``replaces`` (``line_move`` along a line when given,
``move_out``/``move_in`` by direction).  Rules modules may wrap or replace it.
The map model (:class:`HexMap`, :class:`TableMap`, :class:`TerrainType`) lives
in :mod:`hxref.geometry.mapmodel`.

Table
-----
::

    kind: table
    table: {width: 48, height: 36}                      # inches; x east, y north
    terrain:
      areas: {woods: {colour: "#6a9a4a"}, town: {...}, marsh: {...}}
      rivers: {river: {colour: "#3a78c8"}}
      roads: {road: {colour: "#8a5a2a"}}
      crossings: {bridge: {colour: "#5a3a1a"}, ford: {colour: "#9ac0e0"}}
    areas:
      - {terrain: woods, name: Hazel Grove, polygon: [[10, 10], [20, 10], [20, 20], [10, 20]]}
      - {terrain: town, rect: [-20, 10, -10, 20]}      # x0, y0, x1, y1
    rivers:
      - {terrain: river, width: 1, points: [[0, 30.5], [48, 30.5]],
         crossings: [{terrain: bridge, at: [24, 30.5], width: 2}]}
    roads:
      - {terrain: road, width: 1, points: [[24, 0], [24, 36]]}
    places: {Salem Church: [24, 20]}
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, TypeGuard

from ..base.errors import InvalidInput
from .hex import AslLabels, FourDigit, Hex, HexGrid, HexSide, column_number, label_format
from .mapmodel import HexInfo, HexMap, MapLine, SideInfo, TableMap, TerrainType, did_you_mean
from .table import Area, Crossing, Table, Watercourse, polygon_from
from ..base.yamlio import DATA_LIMITS, line_of, load_rt, read_text, remembered_yaml

HEX_GROUPS = ("hex", "features", "hexside", "lines")
TABLE_GROUPS = ("areas", "rivers", "roads", "crossings")
_TYPE_KEYS = {"colour", "symbol", "label", "move", "move_out", "move_in", "line_move", "replaces", "height", "rules", "note"}
_COLOUR = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_NUMBER = (int, float)


_did_you_mean = did_you_mean


def _number(value: Any) -> TypeGuard[int | float]:
    """A YAML number (not a boolean, which Python counts as one)."""
    return isinstance(value, _NUMBER) and not isinstance(value, bool)


# --------------------------------------------------------------------------
# reading


class _Problems:
    """Collects problems; each knows its file and line."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[InvalidInput] = []

    def add(self, message: str, node: Any = None, key: Any = None, code: str = "E112", hint: str | None = None, file: str | None = None) -> None:
        line = line_of(node, key) if node is not None else None
        self.items.append(InvalidInput(message, code=code, file=file or self.file, line=line, hint=hint))

    def extend(self, errs: Iterable[InvalidInput]) -> None:
        self.items.extend(errs)


def _duplicate_keys(text: str, file: str) -> list[InvalidInput]:
    """Every duplicate key in the file, found on the composed node tree (the loader stops at the first)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    out: list[InvalidInput] = []
    try:
        root = YAML(typ="rt").compose(text)
    except Exception:  # a syntax error is reported by the loader
        return out

    def walk(node: Any, path: list[str]) -> None:
        if isinstance(node, MappingNode):
            seen: dict[Any, int] = {}
            for k, v in node.value:
                key = getattr(k, "value", None)
                line = k.start_mark.line + 1
                if key in seen:
                    what = {"hexes": "hex", "hexsides": "hexside", "places": "place"}.get(path[-1] if path else "", "key")
                    out.append(InvalidInput(f"{what} {key!r} is given twice (first at line {seen[key]})", code="E104", file=file, line=line))
                else:
                    seen[key] = line
                walk(v, path + [str(key)])
        elif isinstance(node, SequenceNode):
            for v in node.value:
                walk(v, path)

    walk(root, [])
    return out


def _disk_text(path: Path) -> str:
    return read_text(path, DATA_LIMITS)


@dataclass(frozen=True)
class Reader:
    """How a map's files are read: ``text`` gives the text of a file (the map, the terrain file
    it names) by its path, from the disk or from the copy a game pinned; with ``remember`` the
    YAML reader's answer may come from the memo kept between commands
    (:func:`hxref.base.yamlio.remembered_yaml`), else every file is parsed with its line numbers."""

    text: Callable[[Path], str] = _disk_text
    remember: bool = False


def _read(path: str | Path, lenient: bool, reader: Reader) -> tuple[Any, list[InvalidInput]]:
    """The YAML data of a map or terrain file; lenient mode reports duplicate keys and goes on."""
    text = reader.text(Path(path))
    dups = _duplicate_keys(text, str(path)) if lenient else []
    if not dups:
        if reader.remember:
            # plain data, without line numbers, so a map with a problem is read again to name its line
            data, _ = remembered_yaml(text, lambda: load_rt(text, str(path), DATA_LIMITS, strict=False))
            return data, []
        return load_rt(text, str(path), DATA_LIMITS, strict=False), []
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.allow_duplicate_keys = True
    return y.load(text), dups


def _cost_ok(value: Any) -> bool:
    if value is None or (isinstance(value, _NUMBER) and not isinstance(value, bool) and value >= 0):
        return True
    if isinstance(value, dict):
        return all(isinstance(k, str) and _cost_ok(v) and not isinstance(v, dict) for k, v in value.items())
    return False


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def _types(node: Any, groups: tuple[str, ...], probs: _Problems, file: str) -> dict[str, dict[str, TerrainType]]:
    """Terrain declarations, grouped."""
    out: dict[str, dict[str, TerrainType]] = {g: {} for g in groups}
    if not isinstance(node, dict):
        probs.add(f"terrain must be a mapping with the groups {', '.join(groups)}", file=file)
        return out
    for g in node:
        if g in ("stand_in", "note", "system"):
            continue
        if g not in groups:
            probs.add(f"unknown terrain group {g!r}; the groups are {', '.join(groups)}", node, g, "E110", _did_you_mean(g, groups), file=file)
            continue
        decls = node[g] or {}
        if not isinstance(decls, dict):
            probs.add(f"terrain.{g} must map names to declarations", node, g, file=file)
            continue
        for name, d in decls.items():
            name = str(name)
            if d is None:
                d = {}
            if not isinstance(d, dict):
                probs.add(f"terrain type {name!r} must be a mapping (colour, move, ...)", decls, name, file=file)
                continue
            out[g][name] = _terrain_type(g, name, d, decls, groups, probs, file)
    if "hexside" in out:
        for name, tt in out["hexside"].items():
            for r in tt.replaces:
                if r not in out["hexside"]:
                    probs.add(f"{name}.replaces names {r!r}, which is no hexside feature", file=file, hint=_did_you_mean(r, out["hexside"]))
    return out


def _terrain_type(g: str, name: str, d: dict, decls: dict, groups: tuple[str, ...], probs: _Problems, file: str) -> TerrainType:
    """One declaration of terrain group ``g``; a bad value is reported and replaced by its default."""
    for k in d:
        if k not in _TYPE_KEYS:
            probs.add(f"unknown key {k!r} in terrain type {name!r}", d, k, "E110", _did_you_mean(k, _TYPE_KEYS), file=file)
    colour = d.get("colour")
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        probs.add(f"terrain type {name!r} needs a colour like \"#6a9a4a\"", d, "colour" if "colour" in d else None, "E111" if colour is None else "E112", file=file)
        colour = "#888888"
    _check_costs(g, name, d, decls, groups, probs, file)
    height = d.get("height", 0)
    if not _number(height):
        probs.add(f"{name}.height must be a number of levels", d, "height", file=file)
        height = 0
    replaces = d.get("replaces", []) or []
    if not isinstance(replaces, list):
        probs.add(f"{name}.replaces must be a list of hexside features", d, "replaces", file=file)
        replaces = []
    symbol = str(d.get("symbol", name[:1]))
    if len(symbol) != 1:
        probs.add(f"{name}.symbol must be one character", d, "symbol", file=file)
        symbol = symbol[:1] or "?"
    return TerrainType(
        name=name,
        group=g,
        colour=colour,
        symbol=symbol,
        label=str(d.get("label", name.replace("_", " "))),
        move=_plain(d.get("move")),
        move_out=_plain(d.get("move_out")),
        move_in=_plain(d.get("move_in")),
        line_move=_plain(d.get("line_move")),
        replaces=tuple(str(r) for r in replaces),
        height=float(height),
        rules=_plain(d.get("rules", {})) or {},
        given=tuple(k for k in ("move_out", "move_in", "line_move") if k in d),
    )


def _check_costs(g: str, name: str, d: dict, decls: dict, groups: tuple[str, ...], probs: _Problems, file: str) -> None:
    """The movement costs of a declaration: numbers, null or per unit class; the hexside-only keys."""
    for k in ("move", "move_out", "move_in", "line_move"):
        if k in d and not _cost_ok(d[k]):
            probs.add(f"{name}.{k} must be a number >= 0, null (prohibited) or a mapping of unit class to number", d, k, file=file)
    if g == "hex" and "hex" in groups and "move" not in d:
        probs.add(f"hex terrain {name!r} needs a move cost (null if it cannot be entered)", d if d else decls, "move" if d else name, "E111", file=file)
    if g != "hexside" and any(k in d for k in ("move_out", "move_in", "line_move", "replaces")):
        probs.add(f"move_out, move_in, line_move and replaces are for hexside features only ({name!r})", d, None, file=file)


def _terrain(root: Any, base: Path, groups: tuple[str, ...], probs: _Problems, lenient: bool, reader: Reader) -> tuple[dict[str, dict[str, TerrainType]], bool]:
    node = root.get("terrain")
    if node is None:
        probs.add("the map declares no terrain: add 'terrain:' (a file name or the declarations)", root, None, "E111")
        return {g: {} for g in groups}, False
    if isinstance(node, str):
        tpath = (base / node).resolve()
        try:
            data, dups = _read(tpath, lenient, reader)
        except InvalidInput as exc:
            exc.at(file=str(tpath))
            probs.add(f"cannot use terrain file {node!r}: {exc.message}", root, "terrain", exc.code)
            return {g: {} for g in groups}, False
        probs.extend(dups)
        return _types(data, groups, probs, str(tpath)), True
    return _types(node, groups, probs, probs.file), True


def _meta(root: Any) -> dict[str, Any]:
    return {
        "id": str(root.get("map", "")),
        "title": str(root.get("title", root.get("map", ""))),
        "system": str(root.get("system", "")),
        "stand_in": bool(root.get("stand_in", False)),
        "note": str(root.get("note", "") or ""),
    }


_HEX_KEYS = {"map", "title", "system", "kind", "stand_in", "note", "grid", "terrain", "hexes", "hexsides", "lines", "places"}
_GRID_KEYS = {"labels", "board", "parity", "columns", "rows", "terrain", "elevation"}
_TABLE_KEYS = {"map", "title", "system", "kind", "stand_in", "note", "table", "terrain", "areas", "rivers", "roads", "places"}


def _unknown_keys(node: dict, allowed: set[str], where: str, probs: _Problems) -> None:
    for k in node:
        if k not in allowed:
            probs.add(f"unknown key {k!r} in {where}", node, k, "E110", _did_you_mean(k, allowed))


def _grid(root: Any, probs: _Problems) -> HexGrid | None:
    g = root.get("grid")
    if not isinstance(g, dict):
        probs.add("a hex map needs a grid: mapping (labels, parity, columns, rows)", root, "grid" if "grid" in root else None, "E111")
        return None
    _unknown_keys(g, _GRID_KEYS, "grid", probs)
    labels, parity, board = g.get("labels"), g.get("parity", "even"), g.get("board", "")
    try:
        fmt = label_format(str(labels), str(parity), str(board or ""))
    except ValueError as exc:
        key = "labels" if labels not in ("four-digit", "asl") else ("parity" if parity not in ("even", "odd") else "board")
        probs.add(str(exc), g, key)
        return None
    ranges = []
    for key in ("columns", "rows"):
        v = g.get(key)
        pair = v if isinstance(v, list) and len(v) == 2 else None
        ok = pair is not None
        nums: list[int] = []
        if pair is not None:
            for x in pair:
                if key == "columns" and isinstance(fmt, AslLabels) and isinstance(x, str):
                    try:
                        nums.append(column_number(x))
                    except ValueError:
                        ok = False
                elif isinstance(x, int) and not isinstance(x, bool) and x >= 0:
                    nums.append(int(x))
                else:
                    ok = False
        if not ok or nums[0] > nums[1]:
            probs.add(f"grid.{key} must be [first, last] printed {key[:-1]} numbers" + (" or letters" if key == "columns" else ""), g, key if key in g else None, "E112" if key in g else "E111")
            return None
        ranges.append((nums[0], nums[1]))
    return HexGrid(fmt, ranges[0], ranges[1])


def _label(grid: HexGrid, raw: Any, node: Any, key: Any, probs: _Problems, what: str) -> Hex | None:
    try:
        if isinstance(raw, int) and not isinstance(raw, bool) and isinstance(grid.labels, FourDigit):
            return grid.parse(raw)  # type: ignore[arg-type]  # four-digit labels also read YAML's integers (0305)
        return grid.parse(str(raw))
    except InvalidInput as exc:
        probs.add(f"{what}: {exc.message}", node, key)
        return None


def _known(name: Any, group: dict[str, TerrainType], what: str, node: Any, key: Any, probs: _Problems) -> bool:
    if str(name) in group:
        return True
    probs.add(f"unknown {what} {str(name)!r}", node, key, hint=_did_you_mean(name, group))
    return False


def _hex_map(root: Any, path: Path, probs: _Problems, lenient: bool, reader: Reader) -> HexMap | None:
    _unknown_keys(root, _HEX_KEYS, "a hex map", probs)
    grid = _grid(root, probs)
    types, _ = _terrain(root, path.parent, HEX_GROUPS, probs, lenient, reader)
    if grid is None:
        return None
    default, default_elev = _grid_defaults(root["grid"], types, probs)
    cells = _hex_cells(root, grid, types, default, default_elev, probs)
    sides = _hex_sides(root, grid, types, probs)
    lines = _hex_lines(root, grid, types, probs)
    places = _places(root, probs, lambda raw, node, key: _label(grid, raw, node, key, probs, f"place {key}"))
    meta = _meta(root)
    return HexMap(
        path=str(path), grid=grid, types=types, default_terrain=default, default_elevation=float(default_elev),
        cells=cells, sides=sides, lines=lines, places=places, **meta,
    )


def _grid_defaults(g: dict, types: dict[str, dict[str, TerrainType]], probs: _Problems) -> tuple[str, Any]:
    """The terrain and elevation of every hex the map does not list (``grid.terrain``, ``grid.elevation``)."""
    default = str(g.get("terrain", "clear"))
    if types["hex"]:
        _known(default, types["hex"], "terrain type", g, "terrain" if "terrain" in g else None, probs)
    default_elev = g.get("elevation", 0)
    if not _number(default_elev):
        probs.add("grid.elevation must be a number", g, "elevation")
        default_elev = 0
    return default, default_elev


def _section(root: Any, key: str, kind: type, message: str, probs: _Problems) -> Any:
    """``root[key]`` when it is a ``kind`` (absent: empty); otherwise a problem, and empty."""
    node = root.get(key) or kind()
    if not isinstance(node, kind):
        probs.add(message, root, key)
        return kind()
    return node


_HEX_SPEC_KEYS = ("terrain", "elevation", "features")


def _hex_cells(root: Any, grid: HexGrid, types: dict[str, dict[str, TerrainType]], default: str,
               default_elev: Any, probs: _Problems) -> dict[Hex, HexInfo]:
    """The ``hexes:`` section: label -> terrain name, or a mapping (terrain, elevation, features)."""
    cells: dict[Hex, HexInfo] = {}
    first_line: dict[Hex, int | None] = {}
    hexes = _section(root, "hexes", dict, "hexes must map hex labels to terrain", probs)
    for raw, v in hexes.items():
        h = _label(grid, raw, hexes, raw, probs, "hexes")
        if h is None:
            continue
        if h in cells:
            probs.add(f"hex {grid.label(h)} is given twice (first at line {first_line[h]})", hexes, raw, "E104")
            continue
        info = _hex_cell(hexes, raw, v, types, default, default_elev, probs)
        if info is not None:
            cells[h] = info
            first_line[h] = line_of(hexes, raw)
    return cells


def _hex_cell(hexes: dict, raw: Any, v: Any, types: dict[str, dict[str, TerrainType]], default: str,
              default_elev: Any, probs: _Problems) -> HexInfo | None:
    """One entry of ``hexes:``; None when it is neither a terrain name nor a mapping."""
    spec = {"terrain": v} if isinstance(v, str) else v
    if not isinstance(spec, dict):
        probs.add(f"hex {raw}: give a terrain name or a mapping (terrain, elevation, features)", hexes, raw)
        return None
    for k in spec:
        if k not in _HEX_SPEC_KEYS:
            probs.add(f"unknown key {k!r} for hex {raw}", spec, k, "E110", _did_you_mean(k, _HEX_SPEC_KEYS))
    terrain = str(spec.get("terrain", default))
    node, key = (hexes, raw) if isinstance(v, str) else (spec, "terrain")
    if types["hex"] and not _known(terrain, types["hex"], "terrain type", node, key, probs):
        terrain = default
    elev = spec.get("elevation", default_elev)
    if not _number(elev):
        probs.add(f"hex {raw}: elevation must be a number", spec, "elevation")
        elev = default_elev
    feats = spec.get("features", []) or []
    if isinstance(feats, str):
        feats = [feats]
    good = tuple(str(f) for f in feats if _known(f, types["features"], "hex feature", spec, "features", probs))
    return HexInfo(terrain, float(elev), good)


def _hex_sides(root: Any, grid: HexGrid, types: dict[str, dict[str, TerrainType]], probs: _Problems) -> dict[HexSide, SideInfo]:
    """The ``hexsides:`` section: "a/b" -> features, or a mapping (features, drawn_in)."""
    sides: dict[HexSide, SideInfo] = {}
    side_line: dict[HexSide, int | None] = {}
    hexsides = _section(root, "hexsides", dict, "hexsides must map hexsides (\"0305/0306\") to features", probs)
    for raw, v in hexsides.items():
        try:
            side = grid.parse_hexside(str(raw))
        except InvalidInput as exc:
            probs.add(f"hexsides: {exc.message}", hexsides, raw)
            continue
        if side in sides:
            probs.add(f"hexside {grid.side_label(side)} is given twice (first at line {side_line[side]})", hexsides, raw, "E104")
            continue
        info = _hex_side(hexsides, raw, v, side, grid, types, probs)
        if info is not None:
            sides[side] = info
            side_line[side] = line_of(hexsides, raw)
    return sides


def _hex_side(hexsides: dict, raw: Any, v: Any, side: HexSide, grid: HexGrid,
              types: dict[str, dict[str, TerrainType]], probs: _Problems) -> SideInfo | None:
    """One entry of ``hexsides:``; None when it is neither a list of features nor a mapping."""
    short = isinstance(v, (list, str))
    spec = {"features": v} if short else v
    if not isinstance(spec, dict):
        probs.add(f"hexside {raw}: give a list of features or a mapping (features, drawn_in)", hexsides, raw)
        return None
    feats = spec.get("features", [])
    feats = [feats] if isinstance(feats, str) else (feats or [])
    node = hexsides if short else spec
    key = raw if short else "features"
    good = tuple(str(f) for f in feats if _known(f, types["hexside"], "hexside feature", node, key, probs))
    drawn = _drawn_in(v, raw, side, grid, probs)
    directed = [f for f in good if types["hexside"][f].directed]
    if directed and drawn is None:
        probs.add(f"hexside {raw}: {directed[0]} costs depend on direction; say which hex it is drawn in (drawn_in: ...)", node, key, "E111")
    return SideInfo(good, drawn)


def _drawn_in(v: Any, raw: Any, side: HexSide, grid: HexGrid, probs: _Problems) -> Hex | None:
    """The hex a hexside's directed features are drawn in (``drawn_in:``), one of its two hexes."""
    if not (isinstance(v, dict) and "drawn_in" in v):
        return None
    drawn = _label(grid, v["drawn_in"], v, "drawn_in", probs, f"hexside {raw} drawn_in")
    if drawn is not None and drawn not in side.hexes:
        probs.add(f"hexside {raw}: drawn_in {v['drawn_in']} is not one of its two hexes", v, "drawn_in")
        return None
    return drawn


def _hex_lines(root: Any, grid: HexGrid, types: dict[str, dict[str, TerrainType]], probs: _Problems) -> list[MapLine]:
    """The ``lines:`` section: roads, railroads, each a chain of adjacent hexes."""
    lines: list[MapLine] = []
    seq = _section(root, "lines", list, "lines must be a list of {type, hexes}", probs)
    for i, item in enumerate(seq):
        if not isinstance(item, dict):
            probs.add("each line is a mapping {type: road, hexes: [...]}", seq, i)
            continue
        t = item.get("type")
        if t is None:
            probs.add("line needs a type (road, rail ...)", seq, i, "E111")
            continue
        if not _known(t, types["lines"], "line type", item, "type", probs):
            continue
        chain = _line_chain(item, t, grid, probs)
        if chain is not None:
            lines.append(MapLine(str(t), tuple(chain), str(item.get("name", ""))))
    return lines


def _line_chain(item: dict, t: Any, grid: HexGrid, probs: _Problems) -> list[Hex] | None:
    """A line's hexes, each adjacent to the one before; None (and a problem) when they are not."""
    raw_hexes = item.get("hexes")
    if isinstance(raw_hexes, str):
        raw_hexes = raw_hexes.split()
    if not isinstance(raw_hexes, list) or len(raw_hexes) < 2:
        probs.add(f"{t} needs hexes: a list of at least two adjacent hexes", item, "hexes" if "hexes" in item else None)
        return None
    chain: list[Hex] = []
    ok = True
    for j, lab in enumerate(raw_hexes):
        where: tuple[Any, Any] = (raw_hexes, j) if hasattr(raw_hexes, "lc") else (item, "hexes")
        node, key = where
        h = _label(grid, lab, node, key, probs, f"{t} {item.get('name', '')}".strip())
        if h is None:
            ok = False
            continue
        if chain and ok and h.distance(chain[-1]) != 1:
            probs.add(f"{t} {item.get('name', '')} jumps from {grid.label(chain[-1])} to {grid.label(h)}: they are not adjacent".replace("  ", " "), node, key)
            ok = False
        chain.append(h)
    return chain if ok else None


def _places(root: Any, probs: _Problems, parse: Callable[[Any, Any, Any], Any]) -> dict[str, Any]:
    places: dict[str, Any] = {}
    node = root.get("places") or {}
    if not isinstance(node, dict):
        probs.add("places must map names to locations", root, "places")
        return places
    for name, raw in node.items():
        where = parse(raw, node, name)
        if where is not None:
            places[str(name)] = where
    return places


def _xy(raw: Any) -> tuple[float, float] | None:
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, _NUMBER) and not isinstance(v, bool) for v in raw):
        return (float(raw[0]), float(raw[1]))
    return None


def _points(raw: Any, n_min: int) -> list[tuple[float, float]] | None:
    if not isinstance(raw, list) or len(raw) < n_min:
        return None
    pts = [_xy(p) for p in raw]
    good = [p for p in pts if p is not None]
    return good if len(good) == len(pts) else None


def _table_map(root: Any, path: Path, probs: _Problems, lenient: bool, reader: Reader) -> TableMap | None:
    _unknown_keys(root, _TABLE_KEYS, "a table map", probs)
    types, _ = _terrain(root, path.parent, TABLE_GROUPS, probs, lenient, reader)
    table = _table_size(root, probs)
    if table is None:
        return None
    _table_areas(root, table, types, probs)
    for group, target in (("rivers", table.rivers), ("roads", table.roads)):
        for i, item in enumerate(root.get(group) or []):
            wc = _watercourse(root, group, i, item, table, types, probs)
            if wc is not None:
                target.append(wc)

    def place(raw: Any, node: Any, key: Any) -> tuple[float, float] | None:
        p = _xy(raw)
        if p is None:
            probs.add(f"place {key}: give [x, y] in inches", node, key)
        return p

    places = _places(root, probs, place)
    return TableMap(path=str(path), table=table, types=types, places=places, **_meta(root))


def _table_size(root: Any, probs: _Problems) -> Table | None:
    """The empty table of ``table: {width, height}`` (inches); None (and a problem) without one."""
    t = root.get("table")
    w = t.get("width") if isinstance(t, dict) else None
    h = t.get("height") if isinstance(t, dict) else None
    size = [v for v in (w, h) if _number(v) and v > 0]
    if len(size) != 2:
        probs.add("a table map needs table: {width: W, height: H} in inches", root, "table" if "table" in root else None, "E111")
        return None
    return Table(float(size[0]), float(size[1]))


def _on_table(table: Table, pts: list[tuple[float, float]], node: Any, key: Any, what: str, probs: _Problems) -> None:
    """A problem for the first point off the table, if any."""
    for x, y in pts:
        if not (-1e-9 <= x <= table.width + 1e-9 and -1e-9 <= y <= table.height + 1e-9):
            probs.add(f"{what}: point ({x:g}, {y:g}) is off the {table.width:g} x {table.height:g} inch table", node, key)
            return


def _table_areas(root: Any, table: Table, types: dict[str, dict[str, TerrainType]], probs: _Problems) -> None:
    """The ``areas:`` section (woods, towns ...: a polygon or a rect each), added to ``table``."""
    for i, item in enumerate(root.get("areas") or []):
        if not isinstance(item, dict):
            probs.add("each area is a mapping {terrain, polygon or rect}", root["areas"], i)
            continue
        if not _known(item.get("terrain"), types["areas"], "area terrain", item, "terrain", probs):
            continue
        name = str(item.get("name", ""))
        what = f"area {name or item.get('terrain')}"
        outline = _area_outline(item, what, probs)
        if outline is None:
            continue
        pts, key = outline
        poly = polygon_from(pts)
        if not poly.is_valid or poly.area <= 0:
            probs.add(f"{what}: the polygon crosses itself or has no area", item, key)
            continue
        _on_table(table, pts, item, key, what, probs)
        table.areas.append(Area(str(item["terrain"]), poly, name))


def _area_outline(item: dict, what: str, probs: _Problems) -> tuple[list[tuple[float, float]], str] | None:
    """An area's corners and the key that gave them (``rect`` or ``polygon``); None when they are bad."""
    if "rect" in item:
        r = item["rect"]
        if not (isinstance(r, list) and len(r) == 4 and all(isinstance(v, _NUMBER) for v in r) and r[0] < r[2] and r[1] < r[3]):
            probs.add(f"{what}: rect must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1", item, "rect")
            return None
        return [(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])], "rect"
    pts = _points(item.get("polygon"), 3)
    if pts is None:
        probs.add(f"{what}: polygon must be a list of at least three [x, y] points", item, "polygon" if "polygon" in item else None)
        return None
    return pts, "polygon"


def _watercourse(root: Any, group: str, i: int, item: Any, table: Table, types: dict[str, dict[str, TerrainType]],
                 probs: _Problems) -> Watercourse | None:
    """Entry ``i`` of ``rivers:`` or ``roads:`` (``group``); None when it cannot be read."""
    if not isinstance(item, dict):
        probs.add(f"each of {group} is a mapping {{terrain, width, points}}", root[group], i)
        return None
    if not _known(item.get("terrain"), types[group], group[:-1] + " terrain", item, "terrain", probs):
        return None
    what = f"{group[:-1]} {item.get('name') or item.get('terrain')}"
    pts = _points(item.get("points"), 2)
    if pts is None:
        probs.add(f"{what}: points must be a list of at least two [x, y] points", item, "points" if "points" in item else None)
        return None
    _on_table(table, pts, item, "points", what, probs)
    width = item.get("width", 1.0)
    if not isinstance(width, _NUMBER) or width <= 0:
        probs.add(f"{what}: width must be a positive number of inches", item, "width")
        width = 1.0
    crossings = _crossings(item, group, what, types, probs)
    wc = Watercourse(str(item["terrain"]), tuple(pts), float(width), tuple(crossings), str(item.get("name", "")))
    for j, c in enumerate(crossings):
        if wc.line.distance(_pt(c.at)) > float(width) / 2 + 1e-9:
            probs.add(f"{what}: the {c.terrain} at ({c.at[0]:g}, {c.at[1]:g}) is not on the river", item["crossings"], j)
    return wc


def _crossings(item: dict, group: str, what: str, types: dict[str, dict[str, TerrainType]], probs: _Problems) -> list[Crossing]:
    """A river's bridges and fords (``crossings:``); roads have none."""
    crossings = []
    for j, c in enumerate(item.get("crossings") or []):
        if group != "rivers":
            probs.add(f"{what}: only rivers have crossings", item, "crossings")
            break
        if not isinstance(c, dict):
            probs.add(f"{what}: each crossing is a mapping {{terrain, at, width}}", item["crossings"], j)
            continue
        if not _known(c.get("terrain"), types["crossings"], "crossing", c, "terrain", probs):
            continue
        at, cw = _xy(c.get("at")), c.get("width", 2.0)
        if at is None or not isinstance(cw, _NUMBER) or cw <= 0:
            probs.add(f"{what}: a crossing needs at: [x, y] and a positive width", c, "at")
            continue
        crossings.append(Crossing(str(c["terrain"]), at, float(cw)))
    return crossings


def _pt(xy: tuple[float, float]):
    from shapely.geometry import Point

    return Point(xy)


def _load(path: str | Path, lenient: bool, reader: Reader) -> tuple[HexMap | TableMap | None, list[InvalidInput]]:
    p = Path(path)
    probs = _Problems(str(path))
    try:
        root, dups = _read(p, lenient, reader)
    except InvalidInput as exc:
        return None, [exc]
    probs.extend(dups)
    if not isinstance(root, dict):
        probs.add("a map file is a mapping (kind, grid or table, terrain, ...)", code="E112")
        return None, probs.items
    kind = root.get("kind")
    if kind == "hex":
        m: HexMap | TableMap | None = _hex_map(root, p, probs, lenient, reader)
    elif kind == "table":
        m = _table_map(root, p, probs, lenient, reader)
    else:
        probs.add(f"kind must be 'hex' or 'table', not {kind!r}" if kind is not None else "the map needs kind: hex or kind: table", root, "kind" if "kind" in root else None, "E112" if kind is not None else "E111")
        m = None
    return m, probs.items


def check_map(path: str | Path) -> list[InvalidInput]:
    """Every problem in a map file (and its terrain file), each with file and line; [] if it is good."""
    _, problems = _load(path, True, Reader())
    return sorted(problems, key=lambda p: (p.where.file != str(path), p.where.file or "", p.where.line or 0))


def load_map(path: str | Path, text: Callable[[Path], str] = _disk_text) -> HexMap | TableMap:
    """Load a map file, its files' texts read by ``text`` (from the disk unless a game gives the
    copies it pinned: :meth:`hxref.kit.charts.Charts.map`); raises InvalidInput for the first
    problem (run :func:`check_map` to see all)."""
    m, problems = _load(path, False, Reader(text, remember=True))
    if problems:
        m, problems = _load(path, False, Reader(text))        # read afresh: the problem with its line
    if problems:
        raise problems[0]
    assert m is not None
    return m


def is_map_file(path: str | Path) -> bool:
    """A cheap look at a YAML file's top-level keys: True when it looks like a map, not a game file."""
    try:
        text = read_text(path, DATA_LIMITS)
    except InvalidInput:
        return False
    keys = set(re.findall(r"^([A-Za-z_]+):", text, flags=re.M))
    return "kind" in keys and ("grid" in keys or "table" in keys) and "meta" not in keys
