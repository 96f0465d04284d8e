"""Views by allow-list: what one audience may see of a game's state.

A system's :meth:`~hxref.kit.protocol.GameSystem.view` names what each audience may see; every
other field of the state is the umpire's alone, so a field a later rule adds to the state stays
hidden until someone decides who may see it (a new secret never leaks by default).  An
:class:`AllowList` names the fields in three kinds:

* ``public``: every audience sees them whole (the calendar, the map, the victory record);
* ``own``: per-side records, ``{side: ...}``, of which an audience sees its own part only (a
  side's WEP, its purchases, its sealed orders);
* ``built``: fields the system's own rule builds for the audience (the enemy's army as its top
  counters, the turn record with the other side's plans left out), each a function of the state
  and the audience, which may return :data:`OMIT` to leave the field out.

Every value in a view is a copy: a view never shares a mutable part with the state.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: a field built for one audience: (the state, the audience's side or None for the public) -> value
Builder = Callable[[Mapping[str, Any], str | None], Any]
#: what a builder returns for a field the audience does not see at all (it is left out of the view)
OMIT: Any = object()


def own_part(record: Any, side: str | None) -> dict:
    """The audience's own part of a per-side record ``{side: ...}`` (nothing for the public)."""
    if not isinstance(record, Mapping):
        return {}
    return {s: copy.deepcopy(x) for s, x in record.items() if s == side}


def sides_own(records: Any, side: str | None, key: str = "side") -> dict:
    """The records (``{id: {side: ..., ...}}``) that belong to ``side``: its leaders, its units."""
    if not isinstance(records, Mapping):
        return {}
    return {k: copy.deepcopy(r) for k, r in records.items() if isinstance(r, Mapping) and r.get(key) == side}


def picked(record: Mapping[str, Any], keys: Iterable[str]) -> dict:
    """The fields ``keys`` of ``record`` that it has, copied."""
    return {k: copy.deepcopy(record[k]) for k in keys if k in record}


@dataclass(frozen=True)
class AllowList:
    """The fields of a state an audience may see (see the module's docstring)."""

    public: tuple[str, ...]
    own: tuple[str, ...] = ()
    built: Mapping[str, Builder] = field(default_factory=dict)

    def view(self, state: Mapping[str, Any], side: str | None) -> dict:
        """The view of ``state`` for ``side`` (None: the public): the allowed fields only."""
        out = picked(state, self.public)
        for key in self.own:
            if key in state:
                out[key] = own_part(state[key], side)
        for key, build in self.built.items():
            if key in state:
                value = build(state, side)
                if value is not OMIT:
                    out[key] = value
        return out

    def names(self) -> set[str]:
        """Every field the list allows, in any kind."""
        return set(self.public) | set(self.own) | set(self.built)

    def unnamed(self, state: Mapping[str, Any]) -> set[str]:
        """The fields of ``state`` no audience but the umpire sees (for a system's own tests)."""
        return set(state) - self.names()
