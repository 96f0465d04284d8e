"""The game file's header as text: read (JSON as hxref writes it, or YAML as earlier versions did;
damage refused with one line) and written as JSON a key a line.

The header is a snapshot of the game (:mod:`hxref.gamefile.game`), read and written by every command that
changes the game.  JSON with the keys of its first two levels one a line (:func:`json_lines`) is
readable, and written by the C encoder.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..base.errors import HxrefError, InvalidInput

#: the game file format this hxref writes (``hxref:`` in the header)
FORMAT = 2


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
    from ..base import yamlio

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


def json_lines(value: Any, depth: int = 2, indent: str = "") -> str:
    """JSON with the keys of the first ``depth`` levels one a line, the rest compact: readable, and
    written by the C encoder (``json.dumps`` with ``indent`` takes the slow pure-Python one)."""
    if not isinstance(value, dict) or not value or depth == 0:
        return dumps(value)
    inner = indent + " "
    parts = []
    for k, v in value.items():
        parts.append(f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {json_lines(v, depth - 1, inner)}")
    return "{\n" + ",\n".join(parts) + "\n" + indent + "}"
