"""The game file's log (hxref.gamefile.eventlog): its lines kept as read, each event parsed when first asked
for, answers exactly what the fully parsed log answers, and a save writes the same bytes back."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.gamefile.game import GameFile, new_header
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
    data = (tmp_path / "g.yaml").read_bytes()
    full = list(GameFile.load(tmp_path / "g.yaml").log)
    assert [ev["seq"] for ev in lazy.log[-3:]] == [ev["seq"] for ev in full[-3:]]
    assert lazy.dump_bytes() == data                    # the lines read, written back byte for byte
    fresh = GameFile.load(tmp_path / "g.yaml").log
    got = [(r.seq, [e["seq"] for e in r.events]) for r in story.resolutions(fresh, since)]
    assert got == _old_resolutions(full, since)


def test_a_line_that_is_not_an_event_is_damage_named_by_its_line(tmp_path):
    gf = _saved(tmp_path, [("submission", {"x": 1}), ("rules", {"x": 2})])
    text = gf.path.read_text()
    gf.path.write_text(text + "- {not json\n")
    again = GameFile.load(gf.path)
    line = text.count("\n") + 1
    try:
        again.log[2]
    except Exception as exc:                            # noqa: BLE001 - the damage error itself
        assert getattr(exc, "code", None) == "E500" and exc.where.line == line, exc  # type: ignore[attr-defined]
    else:
        raise AssertionError("a line that is not JSON was read as an event")


def test_an_event_changed_in_memory_is_written_as_changed(tmp_path):
    gf = _saved(tmp_path, [("rules", {"x": 1}), ("die", {"x": 2}), ("rules", {"x": 3})])
    gf.log[1]["kind"] = "answer"                # parsed and changed: what it says now is written
    gf.save()
    assert [ev["kind"] for ev in GameFile.load(gf.path).log] == ["rules", "answer", "rules"]


def test_a_list_log_behaves_like_a_list(tmp_path):
    gf = _saved(tmp_path, [("rules", {"x": 1}), ("die", {"x": 2})])
    log = gf.log
    assert log[-1]["kind"] == "die" and log[0:1] == [log[0]] and list(reversed(log))[0] is log[1]
    assert log + [{"kind": "end"}] == [log[0], log[1], {"kind": "end"}]
    assert log == list(log) and len(log.copy()) == 2
