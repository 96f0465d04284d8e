"""The rules a game is played with: its system bound to the charts its first event pins.

A game names its system in ``game.created`` and pins there the text of every chart, terrain file
and map it plays with (:func:`hxref.referee.pinning.pin`).  :class:`GameRules` gives the engine the
system bound to those texts (:meth:`hxref.kit.protocol.GameSystem.bind`): a typed
:class:`~hxref.kit.protocol.GameSystem` whose rules read only the :class:`~hxref.kit.charts.Charts`
they are given, as they roll only the dice they are given.  The rules are imported when first
used, so a command that only reads a game's metadata (``hxref status``) never loads them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..kit import registry
from . import pinning
from ..kit.charts import Charts
from ..kit.data import Source
from ..kit.protocol import GameSystem


class GameRules:
    """The system called ``name``, bound to the charts ``pinned()`` returns (``game.created``'s
    ``charts``; None for a game made before charts were pinned: today's files)."""

    def __init__(self, name: str, pinned: Callable[[], Any]) -> None:
        registry.info(name)         # an unknown system is refused here, its rules loaded when used
        self.name = name
        self._pinned = pinned
        self._prepared: tuple[Any, dict[str, Source]] = (None, {})
        self._bound: tuple[dict[str, Source], GameSystem[Any]] | None = None
        #: True (``hxref audit --rerun``): each pinned file that still exists is read as it is today
        self.today = False

    @property
    def title(self) -> str:
        """The system's title, from its info: the rules are not imported for it."""
        return registry.info(self.name).title

    def sources(self) -> dict[str, Source]:
        """The game's pinned files, checked and prepared once per ``game.created``."""
        raw = self._pinned()
        got, prepared = self._prepared
        if got is not raw:
            prepared = pinning.prepare(self.name, raw)
            self._prepared = (raw, prepared)
        return pinning.with_today(self.name, prepared) if self.today else prepared

    @property
    def system(self) -> GameSystem[Any]:
        """The system's rules bound to the game's charts."""
        sources = self.sources()
        if self._bound is None or self._bound[0] is not sources:
            rules = registry.get(self.name).bind(Charts(self.name, dict(sources)))
            self._bound = (sources, rules)
        return self._bound[1]
