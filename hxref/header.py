"""The game file's header as text: read (JSON as hxref writes it, or YAML as earlier versions did;
damage refused with one line), written as JSON a key a line, and the text of its lists that only
grow written again as it was read.

The header is a snapshot of the game (:mod:`hxref.game`), read and written by every command that
changes the game.  JSON with the keys of its first two levels one a line (:func:`json_lines`) is
readable, and written by the C encoder.  Some of its lists only ever grow: the decisions resolved,
and the lists a game system declares append-only (``SystemInfo.append_only``: Heartland's past
turns and calendar), which is most of a long game's header.  A command adds items at their end at most, and
never changes one, so their text as read (one line each: :func:`kept_lines`) is written again with
only the new items serialised (:func:`json_lines` with ``reuse``): the same bytes as serialising
them whole, at the cost of the items added (``tests/core/test_header.py``).

The text of a list is reused only when its line is found where :func:`json_lines` writes it, once
at its level, and the list still starts with the very items (the same objects) read with it; a
header written otherwise (by hand, or as YAML by an earlier hxref), or a list rebuilt, is
serialised whole.  That no item was changed in place is the caller's promise (the system's
declaration; ``hxref audit`` checks the header against the replay of the log, so a broken promise
is found there).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from operator import is_
from pathlib import Path
from typing import Any

from .errors import HxrefError, InvalidInput

#: the game file format this hxref writes (``hxref:`` in the header)
FORMAT = 2
#: a line of a header at depth 1 (one space) or 2 (two): its key and the text of its value
_LINE = re.compile(r'( {1,2})"([A-Za-z0-9_.-]+)": (.*)')

Path_ = tuple[str, ...]


def damaged(path: Path | str, message: str, line: int | None = None) -> HxrefError:
    return InvalidInput(
        message,
        code="E500",
        file=str(path),
        line=line,
        hint="restore GAME.bak or a copy you trust, then run `hxref audit`",
    )


def header_body(head_text: str) -> str:
    """The header's text below the comment lines above it: JSON when it starts with ``{``."""
    body = head_text.lstrip("\ufeff").lstrip()
    while body.startswith("#"):
        body = body.partition("\n")[2].lstrip()
    return body


def parse_header(head_text: str, path: Path) -> dict:
    """The header of a game file: JSON (as hxref writes it) or YAML (as earlier versions did).
    Damage, and files of another format, are refused with one line."""
    from . import yamlio

    body = header_body(head_text)
    try:
        if body.startswith("{"):
            header = json.loads(body)
        else:
            header = yamlio.fast_load(head_text)
    except RecursionError:
        raise damaged(path, "the header is nested too deeply") from None
    except ValueError as exc:
        line = head_text[:len(head_text) - len(body)].count("\n") + getattr(exc, "lineno", 0) or None
        raise damaged(path, "the header is not valid JSON", line) from None
    except Exception as exc:  # any YAML problem in our own header means damage
        mark = getattr(exc, "problem_mark", None)
        raise damaged(path, "the header is not valid YAML", mark.line + 1 if mark else None) from None
    if isinstance(header, dict) and header.get("hxref") == 1:
        raise InvalidInput("this game file was made by hxref 0.1, whose protocol this hxref no longer "
                           "trusts; replay its order files into a new game, or use hxref 0.1",
                           code="E505", file=str(path))
    if not isinstance(header, dict) or header.get("hxref") != FORMAT:
        raise damaged(path, f"unknown game file format (expected `hxref: {FORMAT}`)")
    return header


def dumps(value: Any) -> str:
    """One value as :func:`json_lines` writes it below its line levels: compact, UTF-8 as is."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def json_lines(value: Any, depth: int = 2, indent: str = "", path: Path_ = (),
               reuse: Callable[[Path_, Any], str | None] | None = None) -> str:
    """JSON with the keys of the first ``depth`` levels one a line, the rest compact: readable, and
    written by the C encoder (``json.dumps`` with ``indent`` takes the slow pure-Python one).
    ``reuse(path, value)`` may give the text of a value at ``path`` (keys from the top)."""
    if not isinstance(value, dict) or not value or depth == 0:
        return dumps(value)
    inner = indent + " "
    parts = []
    for k, v in value.items():
        here = (*path, str(k))
        text = reuse(here, v) if reuse is not None else None
        if text is None:
            text = json_lines(v, depth - 1, inner, here, reuse)
        parts.append(f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n" + indent + "}"


def kept_lines(body: str, header: Mapping[str, Any]) -> dict[Path_, tuple[str, tuple]]:
    """The text and the items of every list at depth 1 or 2 of a header written by :func:`json_lines`
    (``body``: its JSON text; ``header``: what it reads as, just parsed), by path."""
    found: dict[Path_, tuple[str, tuple] | None] = {}
    parent: str | None = None
    for line in body.split("\n"):
        m = _LINE.fullmatch(line)
        if m is None:
            if line == " }" or line == " },":
                parent = None
            continue
        spaces, key, text = m.groups()
        if len(spaces) == 1:
            parent = key if text == "{" else None
            path: Path_ = (key,)
        elif parent is None:
            continue
        else:
            path = (parent, key)
        if text.endswith(","):
            text = text[:-1]
        value = header.get(path[0]) if len(path) == 1 else (header.get(path[0]) or {}).get(path[1])
        # a key twice at its level: which line is the value is not certain, so neither is reused
        found[path] = None if path in found else ((text, tuple(value)) if isinstance(value, list)
                                                  and text.startswith("[") and text.endswith("]") else None)
    return {p: kept for p, kept in found.items() if kept is not None}


def grown(kept: tuple[str, tuple], value: Any) -> str | None:
    """The text of the append-only list ``value`` from the text and the items it was ``kept``
    with, or None unless ``value`` starts with those very items (the same objects: a list rebuilt,
    shortened by an undo or grown again is serialised whole)."""
    text, items = kept
    n = len(items)
    if not isinstance(value, list) or len(value) < n or not all(map(is_, value, items)):
        return None
    if len(value) == n:
        return text
    return text[:-1] + (", " if n else "") + ", ".join(map(dumps, value[n:])) + "]"
