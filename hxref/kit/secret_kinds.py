"""Declared secrets: where in a state one side's secrets lie, as data a test can evaluate.

A system names its secrets in :attr:`SystemInfo.secret_kinds <hxref.kit.protocol.SystemInfo>`,
one string per kind; :meth:`GameSystem.secrets <hxref.kit.protocol.GameSystem.secrets>` turns
them into the text values that no other side's report, in any format, may show in an umpired
game (the conformance suite searches every rendered report for them).  A kind is either

- a **path** into the state, segments separated by ``/``:

  ``{side}``     the key named after the side whose secrets these are (``wep/{side}``);
  ``name``       that key of a mapping (or that index of a list);
  ``*``          every value of a mapping, every item of a list;
  ``&``          every key of a mapping: the keys themselves are the secret (unit ids); last only;

  and a segment may end with filters kept on each value it selects: ``[side={side}]`` (the
  field equals the side), ``[leader]`` (the field is set), ``[!opened]`` (it is not).  Every
  text leaf under what the path reaches is a secret value: ``units/*[side={side}]/name``,
  ``units/&[side={side}]``, ``sealed/{side}/*[!opened]/id``;

- or a **rules function** ``"module:function"`` (``".views:unseen"`` is relative to the system's
  package), called as ``function(state, side)`` and returning the side's secret text values, for
  a secret the rules decide (a unit is the enemy's to know only while out of its line of sight).

Numbers are never searched: out of context a WEP of 5 is a turn number or a die too.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from importlib import import_module
from typing import Any

_SEGMENT = re.compile(r"^(?P<key>[^\[\]]+)(?P<filters>(\[[^\[\]]+\])*)$")
_FILTER = re.compile(r"\[(?P<neg>!?)(?P<field>[^=\]!]+)(=(?P<value>[^\]]*))?\]")


class SecretKindError(ValueError):
    """A declared secret kind that cannot be read."""


def values(state: Mapping[str, Any], side: str, kinds: Iterable[str], package: str | None = None) -> set[str]:
    """The text values of ``side``'s secrets in ``state`` along every kind of ``kinds``."""
    out: set[str] = set()
    for kind in kinds:
        if ":" in kind:
            out |= _by_function(kind, state, side, package)
        else:
            for node in _walk([state], _segments(kind), side):
                out |= set(_texts(node))
    return {v for v in out if v.strip()}


def _by_function(kind: str, state, side: str, package: str | None) -> set[str]:
    module, _, name = kind.partition(":")
    try:
        fn = getattr(import_module(module, package), name)
    except (ImportError, AttributeError, TypeError) as exc:
        raise SecretKindError(f"secret kind {kind!r}: no such rules function ({exc})") from None
    return {str(v) for v in fn(state, side)}


def _segments(kind: str) -> list[tuple[str, list[tuple[bool, str, str | None]]]]:
    out = []
    parts = kind.split("/")
    for i, part in enumerate(parts):
        m = _SEGMENT.match(part)
        if not m:
            raise SecretKindError(f"secret kind {kind!r}: cannot read the segment {part!r}")
        key = m["key"]
        if key == "&" and i != len(parts) - 1:
            raise SecretKindError(f"secret kind {kind!r}: `&` (the keys) ends a path")
        filters = [(f["neg"] == "!", f["field"], f["value"]) for f in _FILTER.finditer(m["filters"])]
        out.append((key, filters))
    return out


def _kept(value: Any, filters, side: str) -> bool:
    for neg, name, want in filters:
        got = value.get(name) if isinstance(value, Mapping) else None
        hit = bool(got) if want is None else str(got) == want.replace("{side}", side)
        if hit == neg:
            return False
    return True


def _walk(nodes: list, segments, side: str) -> list:
    for key, filters in segments:
        nxt: list = []
        for node in nodes:
            if key == "&":
                if isinstance(node, Mapping):
                    nxt += [k for k, v in node.items() if _kept(v, filters, side)]
                continue
            if key == "*":
                items = list(node.values()) if isinstance(node, Mapping) else list(node) if isinstance(node, list) else []
            else:
                name = side if key == "{side}" else key
                if isinstance(node, Mapping) and name in node:
                    items = [node[name]]
                elif isinstance(node, list) and name.isdigit() and int(name) < len(node):
                    items = [node[int(name)]]
                else:
                    items = []
            nxt += [x for x in items if _kept(x, filters, side)]
        nodes = nxt
    return nodes


def _texts(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, Mapping):
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, (list, tuple)):
        return [t for v in node for t in _texts(v)]
    return []
