"""The shape of a choice, declared once and checked once (:func:`check`).

A decision's ``schema`` maps each key of its choice to a :class:`~hxref.kit.protocol.Field`.  A
field may nest: a ``"dict"`` field has ``fields`` (its own schema: key -> Field, the only keys it
may have) or ``values`` (a Field every value must match, for a mapping of ids to values); a
``"list"`` field has ``items`` (a Field every item must match).  A field may also give ``choices``,
a ``minimum`` and a ``maximum``, and the ``rule`` its shape comes from (inherited by the fields
inside it; at the top, the decision's rule).

:func:`check` walks a choice against a schema and returns every :class:`ShapeProblem` at once,
each with its data path inside the choice (``["moves", 2, "facnig"]``), its error code (E110
unknown key, E111 missing key, E112 wrong type or value) and a one-line message that names the
place: ``unknown key `facnig` in moves[2] (allowed: ...)``, ```moves[2].facing` must be a number``.  :mod:`hxref.referee.orders` turns
each into an error at its line of the order file, before the system's ``check`` is asked: a
system's rules see only well-formed choices.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .protocol import Field, Problem

#: what a value of each type is called in a message
_NAMES = {"int": "a whole number", "number": "a number", "str": "a text", "bool": "true or false",
          "list": "a list", "dict": "a mapping"}


@dataclass(frozen=True)
class ShapeProblem(Problem):
    """A choice that does not fit its schema: the rules' :class:`Problem` plus its error code."""

    code: str = "E112"


def _is(type_: str, value: Any) -> bool:
    if type_ == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_ == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    checks: dict[str, type | tuple[type, ...]] = {"str": str, "bool": bool, "list": list, "dict": dict}
    return isinstance(value, checks[type_]) if type_ in checks else True     # "any" and unknown: no check


def format_path(path: list) -> str:
    """``["moves", 2, "facing"]`` as ``moves[2].facing``."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top)"


def _in(path: list) -> str:
    return f" in {format_path(path)}" if path else ""


def check(schema: Mapping[str, Field], choice: Any, rule: str = "", path: list | None = None) -> list[ShapeProblem]:
    """Every way ``choice`` (a mapping) does not fit ``schema``, in the order of its keys."""
    return _mapping(schema, choice, rule, list(path or []))


def _mapping(schema: Mapping[str, Field], value: Any, rule: str, path: list) -> list[ShapeProblem]:
    found: list[ShapeProblem] = []
    for key in value:
        if key not in schema:
            shown = key if isinstance(key, str) and key.isprintable() else repr(key)
            found.append(ShapeProblem(f"unknown key `{shown}`{_in(path)} (allowed: {', '.join(sorted(schema)) or 'none'})",
                                      rule, [*path, key], code="E110"))
    for key, spec in schema.items():
        if key in value:
            found += _value(spec, value[key], spec.rule or rule, [*path, key])
        elif not spec.optional:
            found.append(ShapeProblem(f"missing key `{key}`{_in(path)}" + (f" ({spec.help})" if spec.help else ""),
                                      spec.rule or rule, list(path), code="E111"))
    return found


def _value(spec: Field, value: Any, rule: str, path: list) -> list[ShapeProblem]:
    if value is None and spec.nullable:
        return []
    why = _scalar(spec, value)
    if why:
        return [ShapeProblem(f"`{format_path(path)}` must be {why} (got {value!r})", rule, path)]
    return _inside(spec, value, rule, path)


def _scalar(spec: Field, value: Any) -> str:
    """What ``value`` should be, when its type, choices or range are wrong ("" when they are right)."""
    if not _is(spec.type, value):
        return _NAMES.get(spec.type, spec.type) + (f": {spec.help}" if spec.help else "")
    if spec.choices and value not in spec.choices:
        return f"one of {', '.join(map(str, spec.choices))}"
    if spec.type in ("int", "number"):
        if spec.minimum is not None and value < spec.minimum:
            return f"{spec.minimum} or more"
        if spec.maximum is not None and value > spec.maximum:
            return f"{spec.maximum} or less"
    return ""


def _inside(spec: Field, value: Any, rule: str, path: list) -> list[ShapeProblem]:
    """The problems of a list's items or of a mapping's keys and values."""
    found: list[ShapeProblem] = []
    if spec.type == "list" and spec.items is not None:
        for i, item in enumerate(value):
            found += _value(spec.items, item, spec.items.rule or rule, [*path, i])
    elif spec.type == "dict" and spec.fields is not None:
        found += _mapping(spec.fields, value, rule, path)
    elif spec.type == "dict" and spec.values is not None:
        for key, item in value.items():
            found += _value(spec.values, item, spec.values.rule or rule, [*path, key])
    return found


def known(schema: Mapping[str, Field], choice: Mapping) -> dict:
    """``choice`` without the keys its schema does not know, at every depth (a choice whose only
    problems are unknown keys is then well formed, and its rules can be checked too)."""
    out: dict = {}
    for key, value in choice.items():
        if key in schema:
            out[key] = _known_value(schema[key], value)
    return out


def _known_value(spec: Field, value: Any) -> Any:
    if spec.type == "dict" and isinstance(value, Mapping):
        if spec.fields is not None:
            return known(spec.fields, value)
        if spec.values is not None:
            return {k: _known_value(spec.values, v) for k, v in value.items()}
    if spec.type == "list" and isinstance(value, list) and spec.items is not None:
        return [_known_value(spec.items, v) for v in value]
    return value
