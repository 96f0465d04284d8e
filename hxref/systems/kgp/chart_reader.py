"""Reading KGP data files (the campaign files and the charts): every error names the file, the line and the key.

:class:`Reader` checks the shape of a loaded YAML tree node by node and raises
:class:`~hxref.base.errors.InvalidInput` with the file, the line and the data path.
``SOURCES`` is where a datum comes from: the seed, a public source, or a reading.
"""
from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any

from ...base.errors import InvalidInput
from ...base.yamlio import format_path, line_of_path
from .cg_calendar import CGDate, parse_date
from .sides import SIDES

SOURCES = ("seed", "public", "reading")


class Reader:
    def __init__(self, root: Any, file: str) -> None:
        self.root, self.file = root, file

    def error(self, message: str, path: list, *, code: str = "E112", rule: str | None = None,
              hint: str | None = None) -> InvalidInput:
        return InvalidInput(message, code=code, file=self.file, line=line_of_path(self.root, path),
                            path=format_path(path), rule=rule, hint=hint)

    def mapping(self, node: Any, path: list, required: Iterable[str] = (), optional: Iterable[str] = ()) -> Any:
        if not isinstance(node, dict):
            raise self.error(f"expected a mapping, found {kind(node)}", path)
        allowed = set(required) | set(optional)
        for key in node:
            if key not in allowed:
                raise self.error(f"unknown key {key!r}", path + [key], code="E110",
                                 hint=f"expected one of: {', '.join(sorted(allowed))}")
        for key in required:
            if key not in node:
                raise self.error(f"missing key {key!r}", path + [key], code="E111")
        return node

    def seq(self, node: Any, path: list, *, empty: bool = False) -> list:
        if not isinstance(node, list):
            raise self.error(f"expected a list, found {kind(node)}", path)
        if not node and not empty:
            raise self.error("the list is empty", path)
        return node

    def int(self, node: Any, path: list, minimum: int = 0) -> int:
        if isinstance(node, bool) or not isinstance(node, int):
            raise self.error(f"expected a whole number, found {kind(node)} {node!r}", path)
        if node < minimum:
            raise self.error(f"{node} is below the minimum {minimum}", path)
        return int(node)

    def str(self, node: Any, path: list, choices: Iterable[str] | None = None) -> str:
        if not isinstance(node, str) or not node:
            raise self.error(f"expected text, found {kind(node)} {node!r}", path)
        if choices is not None and node not in choices:
            raise self.error(f"{node!r} is not one of {', '.join(choices)}", path)
        return str(node)

    # builtins.: in this class `str` and `int` name the readers above
    def opt_str(self, node: Any, path: list) -> builtins.str | None:
        return None if node is None else self.str(node, path)

    def bool(self, node: Any, path: list) -> bool:
        if not isinstance(node, bool):
            raise self.error(f"expected true or false, found {node!r}", path)
        return node

    def date(self, node: Any, path: list) -> CGDate:
        try:
            return parse_date(node)
        except InvalidInput as exc:
            raise self.error(exc.message, path, rule="8.2", hint=exc.hint) from None

    def sides(self, node: Any, path: list) -> dict[builtins.str, builtins.int]:
        self.mapping(node, path, SIDES)
        return {s: self.int(node[s], path + [s]) for s in SIDES}


def kind(node: Any) -> str:
    if node is None:
        return "nothing"
    if isinstance(node, bool):
        return "true/false"
    for t, name in ((dict, "a mapping"), (list, "a list"), (str, "text"), (int, "a number"), (float, "a number")):
        if isinstance(node, t):
            return name
    return type(node).__name__

