"""The data a game is played with, given to its rules as a value: its charts, terrain types and
map, as the game pinned them in its first event.

A system's rules read a chart only through the :class:`Charts` they were bound to
(:meth:`hxref.kit.protocol.GameSystem.bind`), the way they roll only the dice they are given: the
engine binds the game's pinned files, so a game is played, replayed and drawn with the files it
was begun with; a system not bound to a game (a unit test, a tool, a new game being made) reads
today's files of its data folder, ``games/<folder>/``.  Nothing is looked up from a context: a
function of the rules that reads a chart takes the charts as an argument, and the type checker
sees every such call.

The files and their checks (what may be pinned, the club's own maps, the limits on a pinned text)
are :mod:`hxref.kit.data`'s.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.errors import InvalidInput
from . import data
from .data import Source


@dataclass(frozen=True, eq=False)
class Charts:
    """The data files of one game of the system ``system``: ``pinned`` holds the game's pinned
    copies by their path inside the data folder (``charts/crt.yaml``, ``maps/x.yaml``); a file it
    does not hold is read from the data folder as it is today (none for a club's own map, which is
    only ever the game's)."""

    system: str
    pinned: Mapping[str, Source] = field(default_factory=dict)

    @classmethod
    def today(cls, system: str) -> Charts:
        """The system's files as they are on the disk now: no game's."""
        return cls(system)

    def source(self, rel: str) -> Source:
        """The file ``rel`` of the data folder (``charts/crt.yaml``, ``campaigns/cg-ii.yaml``)."""
        hit = self.pinned.get(rel)
        if hit is not None:
            return hit
        return data.today(self.system, rel)

    def chart_source(self, name: str, path: str | Path | None = None) -> Source:
        """The chart ``charts/<name>.yaml``, or, with ``path``, another file of that shape (a
        test's, a user's), always read from the disk."""
        rel = f"charts/{name}.yaml"
        if path is not None and Path(path).resolve() != (data.folder(self.system) / rel).resolve():
            return data.file(self.system, path)
        return self.source(rel)

    def chart(self, name: str) -> Any:
        """The plain data of the chart ``charts/<name>.yaml`` (with its ``stand_in`` flag as the
        file gives it).  Shared: read-only."""
        return self.chart_source(name).data()

    def file(self, path: str | Path) -> Source:
        """Another file of a chart's or campaign's shape, a test's or a user's: from the disk."""
        return data.file(self.system, path)

    def map(self, name: Any) -> Any:
        """The scenario's map ``name`` (a :class:`~hxref.geometry.mapmodel.HexMap` or
        :class:`~hxref.geometry.mapmodel.TableMap`), with the terrain types it names, read as
        every other file: the game's copies first.  Parsed once per content."""
        return data.game_map(self.system, name, self.pinned)

    def map_path(self, name: Any) -> Path:
        """Where the scenario's map ``name`` lies in the data folder (a :class:`MapView`'s
        ``map_path``), without reading it: :meth:`map_at` reads it, the game's copy first."""
        return data.map_file(self.system, name)

    def map_at(self, path: str | Path) -> Any:
        """The map file at ``path``: one of the data folder's maps (``maps/x.yaml``, the game's
        copy first), else a file of the user's, read from the disk (``hxref map show FILE``)."""
        from ..geometry.mapfile import load_map

        try:
            rel = Path(path).resolve().relative_to(data.folder(self.system).resolve()).as_posix()
        except ValueError:
            rel = ""
        if data.is_map_key(rel):
            if rel.startswith(data.CLUB_MAPS + "/") and rel not in self.pinned:
                raise InvalidInput(f"the club's map {rel} is read only from the game that pinned it", code="E500")
            return data.game_map_at(self.system, rel, self.pinned)
        return load_map(path)
