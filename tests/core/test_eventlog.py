"""The game file's log read lazily (hxref.eventlog): whatever is asked of it answers exactly what
the fully parsed log answers, for any events, including data made to look like an event's end."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.canon import canonical_json
from hxref.game import GameFile, new_header
from hxref.report import story

KINDS = ["game.created", "submission", "resolve", "rules", "die", "link", "answer"]

#: data that holds what an event's end looks like, or the needles the reports sieve with
_TRICKY = st.sampled_from([
    {"kind": "submission", "prev": "0" * 64, "seq": 3},
    {"nmr": True, "text": "claimed"},
    {"text": 'a "quoted" } line\nwith "kind":"submission","prev":"' + "0" * 64 + '","seq":1}'},
    {"withdrawn": "union"},
    {"faces": [3, 4], "sides": 6, "by": "union", "purpose": "CRT"},
])
_EVENTS = st.lists(st.tuples(st.sampled_from(KINDS), _TRICKY), max_size=40)


def _saved(tmp_path, events) -> GameFile:
    gf = GameFile(tmp_path / "g.yaml", new_header({"game": "g"}, {}))
    for kind, data in events:
        gf.append(kind, None, dict(data))
    gf.save()
    return GameFile.load(gf.path)


def _old_resolutions(log: list, since: int) -> list:
    """The report's resolutions as they were computed before the log was read lazily."""
    out = []
    for i, ev in enumerate(log):
        if ev["kind"] != "resolve" or ev["seq"] <= since:
            continue
        events = [ev]
        for later in log[i + 1:]:
            if later["kind"] not in ("die", "rules"):
                break
            events.append(later)
        out.append((ev["seq"], [e["seq"] for e in events]))
    return out


@settings(max_examples=60, deadline=None)
@given(events=_EVENTS, since=st.integers(0, 45))
def test_what_is_read_lazily_is_what_the_parsed_log_says(tmp_path_factory, events, since):
    tmp_path = tmp_path_factory.mktemp("log")
    lazy = _saved(tmp_path, events)
    full = list(GameFile.load(tmp_path / "g.yaml").log)
    assert lazy.log.kind_counts() == +Counter(ev["kind"] for ev in full)
    for kinds, needles in ((["rules"], (b'"nmr"', b'"withdrawn"')), (["die"], ()), (["submission", "link"], ())):
        sieved = lazy.log.select(kinds, needles)
        exact = [ev for ev in full if ev["kind"] in kinds]
        assert [ev["seq"] for ev in sieved] == [ev["seq"] for ev in exact
                                               if not needles or any(n in canonical_json(ev) for n in needles)]
    fresh = GameFile.load(tmp_path / "g.yaml").log
    got = [(r.seq, [e["seq"] for e in r.events]) for r in story.resolutions(fresh, since)]
    assert got == _old_resolutions(full, since)


def test_a_line_not_in_canonical_form_is_read_whole(tmp_path):
    """An event whose line does not end as hxref writes it (keys out of order, a nested copy of an
    event's end last) is parsed, and what it says is what counts."""
    gf = _saved(tmp_path, [("submission", {"x": 1}), ("rules", {"x": 2})])
    text = gf.path.read_text()
    crafted = ('- {"by":null,"data":{},"hash":"' + "1" * 64 + '","kind":"answer","prev":"' + "2" * 64
               + '","seq":3,"zz":{"kind":"submission","prev":"' + "0" * 64 + '","seq":3}}\n')
    gf.path.write_text(text + crafted)
    again = GameFile.load(gf.path)
    assert again.log.kind_counts() == Counter({"submission": 1, "rules": 1, "answer": 1})
    assert [ev["kind"] for ev in again.log.select(["answer"])] == ["answer"]


def test_an_event_changed_in_memory_counts_as_changed(tmp_path):
    gf = _saved(tmp_path, [("rules", {"x": 1}), ("die", {"x": 2}), ("rules", {"x": 3})])
    gf.log[1]["kind"] = "answer"                # parsed and changed: what it says now counts
    assert gf.log.kind_counts() == Counter({"rules": 2, "answer": 1})
    assert [ev["seq"] for ev in gf.log.select(["answer"])] == [2]
    gf.save()
    assert [ev["kind"] for ev in GameFile.load(gf.path).log] == ["rules", "answer", "rules"]


def test_a_list_log_behaves_like_a_list(tmp_path):
    gf = _saved(tmp_path, [("rules", {"x": 1}), ("die", {"x": 2})])
    log = gf.log
    assert log[-1]["kind"] == "die" and log[0:1] == [log[0]] and list(reversed(log))[0] is log[1]
    assert log + [{"kind": "end"}] == [log[0], log[1], {"kind": "end"}]
    assert log == list(log) and len(log.copy()) == 2
