"""A turn report tells the story since its reader last read, not only the last resolution.

Played from the shipped Heartland demo (umpired): the umpire resolves the union's impulse 2 and the
Confederates' impulse 3 one after the other and mails once.  The union wrote its last file before
impulse 2 was resolved, so its report must tell both; the Confederates wrote theirs after it, so
theirs starts at impulse 3.  Every copy of the game computes the same start from the log."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import demo
from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.report import story, turn


def _play_until(work: Path, last_file: str) -> None:
    """Play the Heartland demo's steps in ``work`` up to the resolution after ``last_file`` is submitted."""
    src = demo.manifest_path("heartland", "heartland-demo")
    man = yamlio.to_plain(yamlio.load_data(src))
    demo._work_folder(src, str(work))
    shutil.copytree(src.parent / "keys", work / "keys")
    cwd = os.getcwd()
    os.chdir(work)
    try:
        os.environ["HXREF_NOW"] = man["created"]
        demo._hxref(main, demo._new_args(man))
        seen = False
        for step in man["steps"]:
            if "report" in step:
                continue
            demo._play_step(main, step, man["umpire_key"], "text")
            if last_file in step.get("submit", []):
                seen = True
            elif seen and "resolve" in step:
                return
    finally:
        os.environ.pop("HXREF_NOW", None)
        os.chdir(cwd)
    raise AssertionError(f"{last_file} is not in the demo")


@pytest.fixture(scope="module")
def two_resolutions(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("story")
    _play_until(work, "confederate-t1.i3.orders.yaml")
    return work / "game.yaml"


def _report(game: Path, *args: str) -> dict:
    res = CliRunner().invoke(main, ["report", str(game), "--format", "json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def _resolve_seq(game: Path, decision: str) -> int:
    return next(ev["seq"] for ev in Engine.load(str(game)).gf.log
                if ev["kind"] == "resolve" and ev["data"]["decision"] == decision)


def test_a_side_that_wrote_before_two_resolutions_is_told_both(two_resolutions):
    facts = _report(two_resolutions, "--side", "union")
    assert [r["decision"] for r in facts["resolutions"]] == ["t1.i2.orders", "t1.i3.orders"]
    # the start is the head the union's impulse-2 orders were written against: the end of impulse 1
    assert facts["since"] < _resolve_seq(two_resolutions, "t1.i2.orders")
    assert facts["since"] > _resolve_seq(two_resolutions, "t1.i1.orders")
    texts = [ev.get("text") for r in facts["resolutions"] for ev in r["events"]]
    assert any(" moves " in (t or "") for t in texts), "the union is told how its forces moved"


def test_a_side_that_wrote_after_the_first_is_told_only_the_second(two_resolutions):
    facts = _report(two_resolutions, "--side", "confederate")
    assert [r["decision"] for r in facts["resolutions"]] == ["t1.i3.orders"]


def test_the_text_report_tells_each_resolution_in_order(two_resolutions):
    res = CliRunner().invoke(main, ["report", str(two_resolutions), "--side", "union", "--format", "text"])
    assert res.exit_code == 0, res.output
    first = res.output.index("resolution 1 of 2: t1.i2.orders")
    second = res.output.index("resolution 2 of 2: t1.i3.orders")
    assert first < second
    dice = res.output[res.output.index("Dice (verifiable"):]
    assert "decision" in dice.splitlines()[1], "with several resolutions, each die names its decision"


def test_the_union_is_told_only_what_it_may_see(two_resolutions):
    """Umpired: the story of the Confederates' impulse holds only events the union may see."""
    eng = Engine.load(str(two_resolutions))
    rep = turn.build(eng, "union")
    i3 = _resolve_seq(two_resolutions, "t1.i3.orders")
    hidden = [ev["data"] for ev in eng.gf.log if ev["seq"] > i3 and ev["kind"] in ("rules", "die")
              and not turn.shown(ev["data"], "union", "umpired")]
    assert hidden, "the Confederate impulse has events the union may not see"
    told = [ev for r in rep.facts["resolutions"] for ev in r["events"]]
    for data in hidden:
        assert data not in told


def test_since_start_tells_the_whole_game(two_resolutions):
    facts = _report(two_resolutions, "--side", "union", "--since", "start")
    decisions = [r["decision"] for r in facts["resolutions"]]
    every = [ev["data"]["decision"] for ev in Engine.load(str(two_resolutions)).gf.log if ev["kind"] == "resolve"]
    assert decisions == every and len(decisions) > 2


def test_since_a_head_or_an_event_number(two_resolutions):
    log = Engine.load(str(two_resolutions)).gf.log
    i2 = _resolve_seq(two_resolutions, "t1.i2.orders")
    after_i2 = log[i2 - 1]      # the resolve event of impulse 2 itself: what follows is impulse 3
    for when in (str(i2), after_i2["hash"][:12], f"{after_i2['hash']}@{i2}"):
        facts = _report(two_resolutions, "--side", "union", "--since", when)
        assert [r["decision"] for r in facts["resolutions"]] == ["t1.i3.orders"], when


@pytest.mark.parametrize("when, why", [
    ("yesterday", "give `start`"), ("99999", "the log has only"),
    ("0123456789abcdef", "no event of this log has that head"),
])
def test_a_bad_since_is_one_line_and_exit_2(two_resolutions, when, why):
    before = two_resolutions.read_bytes()
    res = CliRunner().invoke(main, ["report", str(two_resolutions), "--since", when])
    assert res.exit_code == 2
    assert why in res.output and res.output.count("\n") == 1 and "Traceback" not in res.output
    assert two_resolutions.read_bytes() == before


def test_every_copy_starts_at_the_same_event(two_resolutions, tmp_path):
    """The start is read from the log: a copy of the game elsewhere, without the players' files
    beside it, tells the same story."""
    copy = tmp_path / "copy.yaml"
    copy.write_bytes(two_resolutions.read_bytes())
    for side in ("union", "confederate", None):
        a = story.default_since(Engine.load(str(two_resolutions)), side)
        b = story.default_since(Engine.load(str(copy)), side)
        assert a == b


def test_the_outbox_mails_the_side_the_whole_story(two_resolutions):
    from hxref.mail.outbox import _report_for

    eng = Engine.load(str(two_resolutions))
    rep = _report_for(eng, "union", None)
    assert [r["decision"] for r in rep.facts["resolutions"]] == ["t1.i2.orders", "t1.i3.orders"]


def test_the_dice_section_sums_up_the_dice_the_reader_may_see(two_resolutions):
    eng = Engine.load(str(two_resolutions))
    text = turn.render(turn.build(eng, "confederate"), "md")
    seen = [ev["data"] for ev in eng.gf.log if ev["kind"] == "die"
            and turn.shown(ev["data"], "confederate", "umpired")]
    every = [ev for ev in eng.gf.log if ev["kind"] == "die"]
    assert len(seen) < len(every), "the union rolled dice the Confederates may not see"
    assert f"Dice this game: {sum(len(d['faces']) for d in seen)} d6" in text


def test_since_a_hash_prefix_of_digits_only_is_a_head_not_an_event_number():
    """A head's first twelve hex digits may all be decimal digits (about once in 280 games): such a
    prefix, past the log's end as a number, names that head; a short number stays an event number."""
    from hxref.base.errors import InvalidInput
    from hxref.report.story import parse_since

    log = [{"seq": 1, "hash": "585669882490" + "a" * 52}, {"seq": 2, "hash": "b" * 64}]
    assert parse_since("585669882490", log, "g.yaml") == 1
    assert parse_since("2", log, "g.yaml") == 2
    with pytest.raises(InvalidInput, match="only 2 events"):
        parse_since("99999999", log, "g.yaml")
