"""The header's lists that only grow are written again from their text as read, with only their
new items serialised (hxref.header): the bytes must be those of serialising the header whole,
whatever happened to the lists in between."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.audit import audit
from hxref.game import GameFile, header_body
from hxref.header import json_lines, kept_lines

from tests.conftest import bid_round

GROWS = frozenset({("resolved",), ("state", "history")})
items = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=8)


def saved(gf: GameFile) -> str:
    """The header text a save writes (the file's header, below its comment lines)."""
    return header_body(b"".join(p for p in gf._dump_parts()[:1]).decode("utf-8")).rpartition("\n--- #")[0]


def reload(text: str) -> GameFile:
    """A game file whose header is ``text``, as :meth:`GameFile.load` keeps it."""
    data = f"# c\n{text}\n--- # log: one event per line (canonical JSON, hash-chained); never edit by hand\n"
    gf = GameFile.parse_bytes(data.encode("utf-8"), Path("g.yaml"))
    gf.append_only = GROWS
    return gf


@settings(max_examples=120, deadline=None)
@given(history=st.lists(items, max_size=6), more=st.lists(items, max_size=4), resolved=st.lists(st.text(max_size=6)),
       how=st.sampled_from(["append", "same", "rebuilt", "shortened", "replaced"]))
def test_a_header_written_from_kept_text_is_the_header_written_whole(history, more, resolved, how):
    header = {"hxref": 2, "meta": {"system": "x"}, "resolved": resolved,
              "state": {"history": history, "turn": 1}, "head": {"seq": 0, "hash": "0" * 64}}
    gf = reload(json_lines(header))
    gf.saved = saved(gf)                                    # the kept texts are taken at load
    h = gf.header["state"]["history"]
    if how == "append":
        h.extend(more)
        gf.header["resolved"].append("t9")
    elif how == "rebuilt":                                  # equal items, other objects: written whole
        gf.header["state"]["history"] = json.loads(json.dumps(h)) + more
    elif how == "shortened" and h:                          # an undo: shorter, then grown again
        del h[-1]
        h.extend(more)
    elif how == "replaced" and h:                           # (a broken promise is still written right)
        h[0] = {"changed": True}
    assert saved(gf) == json_lines(gf.header)
    h.append({"later": 1})                                  # a second save in the same process
    assert saved(gf) == json_lines(gf.header)


def test_a_list_named_twice_or_written_otherwise_is_not_reused():
    text = json_lines({"hxref": 2, "state": {"history": [1, 2]}, "resolved": ["a"]})
    twice = text.replace('  "history": [1, 2]', '  "history": [7],\n  "history": [1, 2]')
    assert ("state", "history") not in kept_lines(twice, json.loads(twice))
    assert kept_lines(text, json.loads(text))[("state", "history")][0] == "[1, 2]"
    squeezed = json.dumps(json.loads(text))                 # one line: nothing found, written whole
    assert kept_lines(squeezed, json.loads(squeezed)) == {}


def test_a_long_game_s_header_is_the_one_a_whole_serialisation_gives(cli, game):
    bid_round(cli, game, 2, 3)      # each save after the first writes the lists from their kept text
    gf = GameFile.load(game)
    assert gf.header["resolved"] and gf.header["state"]["history"] is not None
    text = Path(game).read_text(encoding="utf-8")
    assert header_body(text).startswith(json_lines(gf.header) + "\n--- # log")
    assert audit(game).ok
