"""The one module that owns YAML.

* Files people write (order files, scenarios, charts, maps) are read with
  ruamel.yaml's round-trip loader, so every value keeps its line and column
  and every error names them.  Order files are read under strict limits:
  no anchors or aliases (so no alias bombs), no tags, one document, bounded
  size, depth, node count and string length, no duplicate keys.
* An order file must read the same under a second YAML reader (PyYAML,
  YAML 1.1) as under ruamel (YAML 1.2): ``on``, ``0777`` or ``1e3`` mean
  different things to the two, and a file that two readers could read
  differently is refused.  The second reader is also the fast one that
  ``hxref audit`` uses to re-read every stored order file.
* Files hxref writes for itself (the game file's header) are dumped and
  loaded with PyYAML's C emitter and loader: fast, and read back exactly.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import io
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InvalidInput, os_reason


@dataclass(frozen=True)
class Limits:
    """Limits for a file a person sent (design section 8)."""

    max_bytes: int = 256 * 1024
    max_depth: int = 24
    max_nodes: int = 20_000
    max_string: int = 16 * 1024


ORDER_LIMITS = Limits()
DATA_LIMITS = Limits(max_bytes=16 * 1024 * 1024, max_depth=64, max_nodes=5_000_000, max_string=1024 * 1024)


def read_text(path: str | Path, limits: Limits = ORDER_LIMITS, *, follow: bool = True) -> str:
    """Read a text file, refusing it before reading when it is too large or not a regular file.

    A FIFO or a device would block ``open`` or ``read`` (or never end), so only a regular file is
    read: checked before opening, and again on what was opened (without blocking), as the name may
    have been swapped in between.  With ``follow=False`` a symbolic link is not read either (the
    name is opened without following it, so a link put in its place meanwhile is refused too).
    """
    p = Path(path)
    try:
        _regular(os.stat(p) if follow else os.lstat(p), path)
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | (0 if follow else getattr(os, "O_NOFOLLOW", 0)))
        with os.fdopen(fd, "rb") as fh:
            size = _regular(os.fstat(fh.fileno()), path).st_size
            if size > limits.max_bytes:
                raise InvalidInput(
                    f"file is {size:,} bytes; at most {limits.max_bytes:,} are accepted",
                    code="E103",
                    file=str(path),
                )
            raw = fh.read(limits.max_bytes + 1)
    except OSError as exc:
        raise InvalidInput(f"cannot read the file: {os_reason(exc)}", code="E100", file=str(path)) from None
    if len(raw) > limits.max_bytes:
        raise InvalidInput(f"file is larger than {limits.max_bytes:,} bytes", code="E103", file=str(path))
    return decode(raw, str(path))


def _regular(st: os.stat_result, path) -> os.stat_result:
    if not stat.S_ISREG(st.st_mode):
        raise InvalidInput("not a regular file (a pipe, device or folder is never read)", code="E100",
                           file=str(path))
    return st


def decode(raw: bytes, source: str) -> str:
    """UTF-8 text (a leading byte-order mark is dropped)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InvalidInput("file is not UTF-8 text", code="E100", file=source, line=line) from None


def _rt():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.allow_duplicate_keys = False
    y.preserve_quotes = True          # a rewritten order file keeps '0609' and 'off' quoted
    return y


def _mark_error(exc: Exception, source: str, code: str = "E101", text: str | None = None) -> InvalidInput:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or str(exc).splitlines()[0]
    line = mark.line + 1 if mark is not None else None
    col = mark.column + 1 if mark is not None else None
    hint = None
    if text is not None and code == "E101":
        try:
            hint = syntax_hint(text, str(problem), str(getattr(exc, "context", None) or ""),
                               mark, getattr(exc, "context_mark", None))
        except Exception:  # noqa: BLE001 - a hint is a courtesy: never let it hide the error
            hint = None
    return InvalidInput(f"YAML error: {problem}", code=code, file=source, line=line, col=col, hint=hint)


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _key_column(line: str) -> int:
    """Where the first key (or item) of a line begins, past its indentation and ``- `` marks."""
    m = re.match(r"( *(?:- +)*)", line)
    return len(m.group(1)) if m else 0


#: ``key:value`` with no space after the colon (a plain key, outside quotes)
_NO_SPACE = re.compile(r"^\s*(?:- +)*([A-Za-z_][\w.-]*):(?=[^\s:/])")


def syntax_hint(text: str, problem: str, context: str, mark, context_mark=None) -> str | None:
    """A plain hint for a YAML syntax error, drawn from the line it was found on: indentation,
    tabs, an unclosed quote or bracket, a missing space after a colon."""
    lines = text.split("\n")
    n, here = _line_at(lines, mark)
    cn, there = _line_at(lines, context_mark)
    if "'\\t'" in problem or "\t" in here[:len(here) - len(here.lstrip(" \t"))]:
        return "YAML does not allow tabs: indent with spaces"
    if "quoted scalar" in context:
        where = f" on line {cn + 1}" if cn is not None else ""
        return f"a quote opened{where} is not closed: end the value with the same quote on that line"
    if "flow sequence" in context or "flow mapping" in context:
        return _unclosed_bracket_hint(context, cn)
    if "expected ':'" in problem or "simple key" in context:
        return _missing_colon_hint(here, n, there, cn)
    if "mapping values are not allowed" in problem:
        return _mapping_values_hint(lines, here, n, mark)
    if "expected <block end>" in problem or "expected key" in problem or "expected '-'" in problem:
        return _block_end_hint(problem, lines, here, n)
    if _NO_SPACE.match(here):
        return "put a space after the colon (`key: value`)"
    return None


def _line_at(lines: list[str], mark) -> tuple[int | None, str]:
    """The line index a parser's mark names and that line's text ("" when there is none)."""
    n = mark.line if mark is not None else None
    return n, lines[n] if n is not None and n < len(lines) else ""


def _above(lines: list[str], k: int | None) -> tuple[int, str] | None:
    """The nearest line above line index ``k`` with something on it (not a comment)."""
    while k is not None and k > 0:
        k -= 1
        if lines[k].strip() and not lines[k].lstrip().startswith("#"):
            return k, lines[k]
    return None


def _unclosed_bracket_hint(context: str, cn: int | None) -> str:
    """A flow sequence or mapping opened and not closed on its line (or an item without its comma)."""
    opening, closing = ("[", "]") if "sequence" in context else ("{", "}")
    where = f" on line {cn + 1}" if cn is not None else ""
    return (f"a `{opening}` opened{where} is not closed with `{closing}` on that line, "
            "or a comma is missing between its items")


def _missing_colon_hint(here: str, n: int | None, there: str, cn: int | None) -> str | None:
    """A line that should be ``key: value`` and is not: the colon lacks its space, or is missing."""
    line = there or here
    ln = cn if there else n
    if ln is None:          # the parser named no line: no hint to give
        return None
    if _NO_SPACE.match(line):
        return f"put a space after the colon on line {ln + 1} (`key: value`)"
    return (f"line {ln + 1} is not `key: value`: add the colon, or put a text that goes on over "
            "several lines in quotes")


def _mapping_values_hint(lines: list[str], here: str, n: int | None, mark) -> str:
    """The parser's "mapping values are not allowed here": a line indented under a key that has a
    value, or a value holding ``: `` unquoted."""
    prev = _above(lines, n)
    if prev is not None and _lead(here) > _key_column(prev[1]) and ":" in prev[1]:
        return (f"indentation: this line is indented deeper than the key above it (line {prev[0] + 1}); "
                "line it up with that key, or indent it under a key that ends with `:`")
    col = mark.column if mark is not None else len(here)
    if ": " in here[:col]:
        return "a value that holds `: ` must be quoted, e.g. 'a: b'"
    return "indentation: check how far this line is indented, and quote a value that holds `: `"


def _block_end_hint(problem: str, lines: list[str], here: str, n: int | None) -> str:
    """A block that ends where the parser did not expect it: a stray closing bracket, a list item or
    a key out of line with its fellows."""
    found = problem.rsplit("found", 1)[-1].strip()
    if found in ("']'", "'}'"):
        return f"a closing {found} without its opening bracket"
    if found == "'-'":
        return ("indentation: this `-` item is not lined up with the items above it; the items "
                "of one list start in the same column")
    prev = _above(lines, n)
    if prev is not None and _lead(here) < _key_column(prev[1]):
        return ("indentation: this line is indented less than the line above it, but not lined up "
                "with the keys it belongs with")
    return "indentation: line this line up with the keys (or `-` items) it belongs with"


class _OrderRules:
    """What an order file may not use, checked on each parser event as it is read: an alias, an
    anchor, a tag, a second document; more values, longer text or deeper nesting than
    :class:`Limits` allows.  The composer asks the parser for the events in the file's order and
    builds nothing before it has them, so an alias bomb is refused without being expanded, and
    the first thing refused is the first in the file, whatever comes after it (a syntax error
    included)."""

    def __init__(self, source: str, limits: Limits) -> None:
        self.source = source
        self.limits = limits
        self.depth = self.nodes = self.docs = 0

    def see(self, event: Any) -> None:
        from ruamel.yaml import events as ev

        source, limits = self.source, self.limits
        line = event.start_mark.line + 1 if event.start_mark else None
        if isinstance(event, ev.AliasEvent):
            raise InvalidInput("aliases (*name) are not allowed in order files", code="E102", file=source, line=line)
        if isinstance(event, ev.DocumentStartEvent):
            self.docs += 1
            if self.docs > 1:
                raise InvalidInput("only one YAML document is allowed in a file", code="E102", file=source, line=line)
        if isinstance(event, (ev.ScalarEvent, ev.MappingStartEvent, ev.SequenceStartEvent)):
            self.nodes += 1
            if getattr(event, "anchor", None):
                raise InvalidInput("anchors (&name) are not allowed in order files", code="E102", file=source, line=line)
            tag = getattr(event, "tag", None)
            if tag is not None and not (isinstance(event, ev.ScalarEvent) and tag == "!"):
                raise InvalidInput(f"YAML tags ({tag}) are not allowed in order files", code="E102", file=source, line=line)
            if self.nodes > limits.max_nodes:
                raise InvalidInput(f"more than {limits.max_nodes:,} values in the file", code="E103", file=source, line=line)
            if isinstance(event, ev.ScalarEvent) and len(event.value) > limits.max_string:
                raise InvalidInput(f"a value is longer than {limits.max_string:,} characters", code="E103", file=source, line=line)
        if isinstance(event, (ev.MappingStartEvent, ev.SequenceStartEvent)):
            self.depth += 1
            if self.depth > limits.max_depth:
                raise InvalidInput(f"nested deeper than {limits.max_depth} levels", code="E103", file=source, line=line)
        elif isinstance(event, (ev.MappingEndEvent, ev.SequenceEndEvent)):
            self.depth -= 1


def _strict_rt(source: str, limits: Limits) -> Any:
    """The round-trip loader whose parser hands each event to :class:`_OrderRules` before the
    composer uses it: one pass over the file checks it and builds its values."""
    from ruamel.yaml.parser import RoundTripParser

    rules = _OrderRules(source, limits)

    class StrictParser(RoundTripParser):
        def get_event(self) -> Any:
            event = super().get_event()
            rules.see(event)
            return event

    y = _rt()
    y.Parser = StrictParser
    return y


def load_rt(text: str, source: str, limits: Limits = ORDER_LIMITS, *, strict: bool = True) -> Any:
    """Load with ruamel's round-trip loader (values keep line numbers).

    ``strict`` applies the order-file rules of :class:`_OrderRules`.
    """
    from ruamel.yaml.error import YAMLError

    if len(text.encode("utf-8")) > limits.max_bytes:
        raise InvalidInput(f"file is larger than {limits.max_bytes:,} bytes", code="E103", file=source)
    try:
        return (_strict_rt(source, limits) if strict else _rt()).load(text)
    except YAMLError as exc:
        code = "E104" if type(exc).__name__ == "DuplicateKeyError" else "E101"
        raise _mark_error(exc, source, code, text) from None
    except RecursionError:
        raise InvalidInput("nested too deeply", code="E103", file=source) from None
    except TypeError:               # a key that is itself a list or mapping holding one (? [a, {b: 1}])
        raise InvalidInput("a key must be a plain value, not a list or mapping", code="E101",
                           file=source) from None
    except ValueError as exc:      # e.g. an integer of thousands of digits (Python refuses to convert it)
        raise InvalidInput(f"a value cannot be read: {str(exc).splitlines()[0][:120]}", code="E103",
                           file=source) from None


def to_plain(node: Any) -> Any:
    """ruamel's or PyYAML's values as plain dicts, lists and scalars."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (int, bool)) else k: to_plain(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, (_dt.date, _dt.datetime)):
        return node.isoformat()
    if isinstance(node, str):
        return str(node)
    return str(node)


def line_of(node: Any, key: Any = None) -> int | None:
    """1-based line of ``node`` (a ruamel mapping or sequence), or of one of its keys/items."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        if key is None:
            return lc.line + 1
        if isinstance(node, dict):
            return lc.key(key)[0] + 1
        return lc.item(key)[0] + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return lc.line + 1 if getattr(lc, "line", None) is not None else None


def line_of_path(root: Any, path: list) -> int | None:
    """Line of the deepest node along ``path`` that exists."""
    node, best = root, line_of(root)
    for step in path:
        ln = line_of(node, step)
        if ln:
            best = ln
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return best


def fast_load(text: str) -> Any:
    """Second, fast reader (PyYAML, C loader where available)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)


def _first_difference(a: Any, b: Any, path: list) -> list | None:
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in a:
            if k not in b:
                return path + [k]
            d = _first_difference(a[k], b[k], path + [k])
            if d is not None:
                return d
        return None if len(a) == len(b) else path
    if isinstance(a, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_difference(x, y, path + [i])
            if d is not None:
                return d
        return None
    return None if a == b else path


def check_two_readers(text: str, root: Any, source: str) -> Any:
    """Refuse a file that PyYAML reads differently from ruamel; return the plain data."""
    plain = to_plain(root)
    try:
        other = to_plain(fast_load(text))
    except Exception as exc:  # the second reader refusing is the same finding
        mark = getattr(exc, "problem_mark", None)
        raise InvalidInput(
            "the file is read differently by two YAML readers; quote unusual values",
            code="E105",
            file=source,
            line=mark.line + 1 if mark is not None else None,
        ) from None
    diff = _first_difference(plain, other, [])
    if diff is not None:
        raise InvalidInput(
            "this value is read differently by two YAML readers (YAML 1.1 and 1.2); put it in quotes",
            code="E105",
            file=source,
            line=line_of_path(root, diff),
            path=format_path(diff),
        )
    return plain


def format_path(path: list) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top)"


def load_data(path: str | Path) -> Any:
    """Load a shipped or user-made data file (scenario, chart, map) with line numbers."""
    text = read_text(path, DATA_LIMITS)
    return load_rt(text, str(path), DATA_LIMITS, strict=False)


def load_data_fast(path: str | Path) -> Any:
    """Load a chart shipped with hxref (already checked): the fast reader, no line numbers."""
    return to_plain(fast_load(read_text(path, DATA_LIMITS)))


def _plain_dumper() -> type:
    import yaml

    base: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)     # the C dumper where libyaml is built in

    class PlainDumper(base):
        """No anchors or aliases: a shared list is written out again, so people read plain YAML."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    def str_representer(dumper: Any, data: str) -> Any:
        # PyYAML quotes what YAML 1.1 would read as another type; quote what YAML 1.2 would too
        # ('0609', '1e3', '0o17'), so both readers of an order file read the same string
        style = "'" if _YAML12_NOT_STR.match(data) else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)

    PlainDumper.add_representer(str, str_representer)
    return PlainDumper


#: plain scalars the YAML 1.2 core schema reads as numbers (PyYAML, YAML 1.1, would not quote them all)
_YAML12_NOT_STR = re.compile(
    r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")


def dump_fast(data: Any, width: int = 100) -> str:
    """YAML text for hxref's own files: block style, key order kept, no anchors."""
    import yaml

    return yaml.dump(data, Dumper=_plain_dumper(), sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=width)


def dump_rt(data: Any) -> str:
    """YAML text through ruamel (used where comments are kept or written, e.g. `hxref sign --game`,
    which writes an order file: so its lines are kept within :data:`COLUMNS`, see
    :func:`fold_long_lines`)."""
    y = _rt()
    y.width = COLUMNS - 8         # the emitter's width is a soft limit: leave room for one more item
    y.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    y.dump(data, buf)
    return fold_long_lines(buf.getvalue(), data=data)


# --- 72 columns: order files survive a mail client that hard-wraps what it sends -----------------

#: the widest line of a file hxref writes for people to mail (clients hard-wrap at 72)
COLUMNS = 72

#: ``INDENT [- ]... [KEY: ]VALUE`` on one line, KEY plain or single-quoted
_SCALAR_LINE = re.compile(r"^(?P<lead>(?P<indent> *)(?:- +)*)(?:(?P<key>[A-Za-z_][A-Za-z0-9_.-]*|'[^'\n]*'): +)?"
                          r"(?P<value>\S.*)$")


def wrap_comment(text: str, width: int = COLUMNS) -> list[str]:
    """``text`` as ``# `` comment lines of at most ``width`` characters, wrapped on word
    boundaries (a word longer than a line is cut); a wrapped line's continuation is indented
    two spaces more than the line itself.  An empty line becomes a bare ``#``."""
    import textwrap

    out: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if not line:
            out.append("#")
            continue
        lead = line[:len(line) - len(line.lstrip(" "))]
        out += textwrap.wrap(line.strip(), width=width, initial_indent="# " + lead,
                             subsequent_indent="# " + lead + "  ", break_long_words=True,
                             break_on_hyphens=False) or ["#"]
    return out


def _quoted_chunks(value: str, first: int, rest: int) -> list[str] | None:
    """``value`` as the pieces of a double-quoted scalar continued with ``\\`` line ends: the
    first piece at most ``first`` characters, the others at most ``rest``.  A piece breaks after
    a space where it can (a space before the ``\\`` is kept), never before one (a continuation
    line's leading spaces are not part of the value) and never inside an escape.  None when it
    cannot be done."""
    if not value.isprintable() or first < 8 or rest < 8:
        return None
    tokens = ["\\\\" if c == "\\" else '\\"' if c == '"' else c for c in value]
    chunks: list[str] = []
    i, limit = 0, first
    while i < len(tokens):
        size, j = 0, i
        while j < len(tokens) and size + len(tokens[j]) <= limit:
            size += len(tokens[j])
            j += 1
        if j < len(tokens):
            # the last break in reach after a space; else the last one not before a space
            cut = next((k for k in range(j, i, -1) if tokens[k - 1] == " " and tokens[k] != " "), None)
            if cut is None:
                cut = next((k for k in range(j, i, -1) if tokens[k] != " "), None)
            if cut is None:
                return None
            j = cut
        chunks.append("".join(tokens[i:j]))
        i, limit = j, rest
    return chunks or [""]


def fold_long_lines(text: str, width: int = COLUMNS, *, data: Any = None) -> str:
    """Rewrite each line of a YAML text longer than ``width`` that holds one scalar (``key:
    value`` or ``- value``) so that it fits: the value moves whole to the next line, indented
    (a hash or a head stays in one piece, to copy and compare)::

        identity:
          6c0e8f...

    and a value longer than a line becomes a double-quoted scalar continued with a trailing
    backslash on the next lines, which every YAML reader joins with nothing between::

        note: "a long text \\
          goes on here"

    Spaces at the end of a line (an emitter leaves one after ``key:``) are dropped too: a mail
    client may drop them, and the signature with them.  The value is unchanged for both readers
    (YAML 1.1 and 1.2); the result is checked with both, and a line that cannot be folded safely
    is left as it was.

    ``data``, when given, is what ``text`` was written from: the round-trip reader's reading of the
    result is compared with it rather than with a second reading of ``text`` (that reader is slow,
    and reading the data back is what matters); only when the two differ is ``text`` read too."""
    lines = [line.rstrip(" ") for line in text.split("\n")]    # a client may strip them, and break the signature
    if all(len(line) <= width for line in lines) and "\n".join(lines) == text:
        return text
    out: list[str] = []
    for n, line in enumerate(lines):
        folded = _fold_line(line, lines[n + 1] if n + 1 < len(lines) else "", width)
        out.extend(folded or [line])
    result = "\n".join(out)
    return result if _reads_the_same(text, result, data) else text


def _fold_line(line: str, after: str, width: int) -> list[str] | None:
    if len(line) <= width or line.lstrip().startswith("#"):
        return None
    m = _SCALAR_LINE.match(line)
    if m is None:
        return None
    lead, key, value = m["lead"], m["key"], m["value"]
    column = len(lead)              # where the key (or the item's value) begins
    # the next line must not continue this value (a plain or quoted scalar over several lines)
    nxt = after[:len(after) - len(after.lstrip(" "))] if after.strip() else None
    if nxt is not None and not after.lstrip().startswith("#") and (
            len(nxt) > column or (key is None and len(nxt) >= column)):
        return None
    try:
        data = fast_load(f"v: {value}\n")
    except Exception:  # noqa: BLE001 - not a one-line scalar: leave the line alone
        return None
    if not isinstance(data, dict) or not isinstance(data.get("v"), str):
        return None
    start = line[:m.start("value")]
    indent = " " * (column + 2)
    if key is not None and len(indent) + len(value) <= width:
        return [start.rstrip(), indent + value]      # the value whole on the next line: easy to copy
    chunks = _quoted_chunks(data["v"], width - len(start) - 2, width - len(indent) - 1)
    if chunks is None:
        return None
    pieces = [start + '"' + chunks[0]] + [indent + c for c in chunks[1:]]
    return [p + "\\" for p in pieces[:-1]] + [pieces[-1] + '"']


def _reads_the_same(before: str, after: str, data: Any = None) -> bool:
    """Both readers read ``after`` as they read ``before`` (comments aside), or the round-trip reader
    reads ``after`` as ``data`` (which ``before`` was written from).  The fast reader first: it reads
    both texts in less time than the round-trip reader takes for one."""
    try:
        if to_plain(fast_load(after)) != to_plain(fast_load(before)):
            return False
        y = _rt()
        read = to_plain(y.load(after))
        return (data is not None and read == to_plain(data)) or read == to_plain(y.load(before))
    except Exception:  # noqa: BLE001 - a text that does not read is not the same
        return False


def remembered_yaml(text: str, parse: Callable[[], Any]) -> tuple[Any, bool]:
    """The data of a map or terrain file's ``text`` as ``parse()`` (the round-trip YAML reader, a
    tenth of a second for a map) gives it, as plain data, or ``parse()``'s own answer the first
    time; and whether it came from the memo.  Kept under ``$HXREF_HOME/yaml/``, keyed by the
    text's sha256 and the versions of hxref and of the reader, and only when plain JSON holds it
    exactly (no dates, no keys that are numbers), so a remembered read is the same data.  A
    memo that cannot be read or written, or that is not this user's own
    (:func:`hxref.base.home.read_record`), is not used."""
    from importlib.metadata import PackageNotFoundError, version

    from .. import __version__
    from .canon import canonical_json, sha256_hex
    from .home import home, read_record, write_record

    try:
        reader = version("ruamel.yaml")
    except PackageNotFoundError:
        reader = "?"
    k = sha256_hex(b"hxref-yaml-memo/1\x00" + canonical_json([__version__, reader]) + b"\x00" + text.encode("utf-8"))
    path = home() / "yaml" / f"{k[:40]}.json"
    got = read_record(path)     # this user's own record only: another account's could change a map
    if isinstance(got, dict) and got.get("key") == k and "data" in got:
        return got["data"], True
    data = parse()
    plain = to_plain(data)
    with contextlib.suppress(TypeError, ValueError):
        if plain == data and json.loads(json.dumps(plain)) == plain:
            write_record(path, {"key": k, "data": plain})
    return data, False
