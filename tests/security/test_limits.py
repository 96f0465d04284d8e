"""Limits on order files (a crafted file must not exhaust memory or time): alias expansion, document size, nesting depth, number of
orders per file, string length.  Each over-limit file is refused by `hxref submit` and `hxref check` with
exit status 2, one line `hxref: error: FILE[:LINE]: ... [E10x]`, quickly, and the game file is unchanged.
Just under each limit the limit itself does not fire (the file is refused later, for what it is)."""
from __future__ import annotations

import re

import time
from pathlib import Path

import pytest

from hxref.base.yamlio import ORDER_LIMITS

from tests.conftest import envelope

#: a v2 envelope (tests/conftest.py's `envelope` gives the game's own identity and head, used below)
HEAD = (f"hxref: 2\ngame: test-game\nidentity: {'0' * 64}\nhead: {'0' * 64}@5\nat: '2026-11-29T12:00:00Z'\n"
        "decision: t1.bid\nside: union\nkind: answer\n")


def alias_bomb() -> str:
    text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for i in range(1, 12):   # 9**12 strings once expanded
        prev, cur = chr(96 + i), chr(97 + i)
        text += f"{cur}: &{cur} [{', '.join([f'*{prev}'] * 9)}]\n"
    return HEAD + "choice:\n  bomb: *l\n" + "".join("  " + line + "\n" for line in text.splitlines())


def nested(depth: int) -> str:
    return HEAD + "choice:\n  x: " + "[" * (depth - 2) + "1" + "]" * (depth - 2) + "\n"


def many_orders(n: int) -> str:
    """``n`` moves of five values each (a mapping and four scalars)."""
    return HEAD + "choice:\n  moves:\n" + "".join(f"    - {{unit: u{i}, to: '0609'}}\n" for i in range(n))


def long_string(n: int) -> str:
    return HEAD + f"choice:\n  note: '{'x' * n}'\n"


def big_document(n: int) -> str:
    body = HEAD + "choice: {}\n"
    line = "  # " + "p" * 95 + "\n"
    return body + line * (n // len(line) + 1)


# (name, text, error code, words in the message)
OVER = [
    ("alias expansion", alias_bomb(), "E102", "not allowed"),
    ("alias without anchor", HEAD + "choice: {bid: *x}\n", "E10", ""),
    ("two documents", HEAD + "---\n" + HEAD, "E102", "one YAML document"),
    ("document size", big_document(ORDER_LIMITS.max_bytes + 1), "E103", "bytes"),
    ("nesting depth", nested(ORDER_LIMITS.max_depth + 1), "E103", "nested deeper"),
    ("nesting depth 100,000", nested(100_000), "E103", ""),
    ("orders per file", many_orders(ORDER_LIMITS.max_nodes // 5 + 1), "E103", "values"),
    ("string length", long_string(ORDER_LIMITS.max_string + 1), "E103", "longer than"),
    ("key length", HEAD + "choice:\n  " + "k" * (ORDER_LIMITS.max_string + 1) + ": 1\n", "E10", ""),
]


@pytest.mark.parametrize("name,text,code,words", OVER, ids=[o[0] for o in OVER])
def test_over_the_limit_is_refused_in_one_line(cli, game, name, text, code, words):
    Path("big.yaml").write_text(text)
    before = Path(game).read_bytes()
    for command in ("submit", "check"):
        t0 = time.perf_counter()
        err = cli.fails(command, game, "big.yaml")
        took = time.perf_counter() - t0
        assert f"[{code}" in err and err.endswith("]"), err
        assert words in err, err
        assert "big.yaml" in err, err
        assert took < 5, f"{name}: {took:.1f} s"
    assert Path(game).read_bytes() == before
    print(f"\nlimits: {name} ({len(text.encode()):,} bytes) refused in {took * 1000:.0f} ms: {err}"[:260])


UNDER = [
    ("document size", big_document(ORDER_LIMITS.max_bytes - 4096)),
    ("nesting depth", nested(ORDER_LIMITS.max_depth)),
    ("orders per file", many_orders(ORDER_LIMITS.max_nodes // 5 - 10)),
    ("string length", long_string(ORDER_LIMITS.max_string)),
]


@pytest.mark.parametrize("name,text", UNDER, ids=[u[0] for u in UNDER])
def test_just_under_the_limit_is_not_refused_for_the_limit(cli, game, name, text):
    # with the game's own envelope (identity, head, time) and unsigned, so refused -- but for its
    # choice (an unsigned file's choice is checked first) or the missing signature, not for its size
    text = text.replace(HEAD, envelope(game, "union", "t1.bid", "answer"), 1)
    assert len(text.encode()) <= ORDER_LIMITS.max_bytes
    Path("edge.yaml").write_text(text)
    err = cli("check", game, "edge.yaml", code=2).stderr
    assert err.startswith("hxref: error: ") and "Traceback" not in err, err
    assert "[E103]" not in err and "[E102]" not in err, err
    assert "[E200]" in err or re.search(r"\[E11[012]\]|\[E400\]", err), err
