"""The data files pinned in the game being played, as every reader of a data file sees them.

While the engine calls a game's system (:func:`hxref.kit.data.pinned`), this context holds the
game's pinned files (its charts, terrain types and map, :mod:`hxref.kit.data`) and the data
folder they belong to.  The chart reader and the map reader (:mod:`hxref.geometry.mapfile`) ask it before
they read a file from the disk, so a game is played, replayed and drawn with the files it was
begun with.  It imports nothing of hxref's, so any reader may ask it.
"""
from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .data import Source

#: (system, {path inside the data folder: Source}, the data folder, resolved) of the game being
#: played, or None: no game, every file is read from the disk
ACTIVE: ContextVar[tuple[str, Mapping[str, Source], Path] | None] = ContextVar("hxref_pinned_files", default=None)


def held(system: str, rel: str) -> Source | None:
    """The game's pinned copy of ``system``'s file ``rel`` (``charts/crt.yaml``), or None."""
    active = ACTIVE.get()
    if active is None or active[0] != system:
        return None
    return active[1].get(rel)


def pinned_file(path: str | Path) -> Source | None:
    """The pinned copy of the file at ``path``, when a game is being played and ``path`` is one of
    the files it pinned in its system's data folder (its map, the terrain file the map names);
    else None, and the file is read from the disk.  The map reader asks it, so a game's map is
    the map it was begun with."""
    active = ACTIVE.get()
    if active is None or not active[1]:
        return None
    try:
        rel = Path(path).resolve().relative_to(active[2]).as_posix()
    except ValueError:
        return None
    return active[1].get(rel)
