"""A game file this machine wrote or checked whole is not read whole again (hxref.seen): its log
stays on the disk (hxref.stored.StoredLines) until a command asks for an event in its middle, a
save copies it into the new file, and the whole-game parts of a report are carried from one
report to the next (hxref.report.tallies).  Each must give exactly what reading everything gives."""
from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref import seen, stored
from hxref.audit import audit
from hxref.canon import canonical_json
from hxref.engine import Engine
from hxref.errors import HxrefError
from hxref.eventlog import events_of
from hxref.game import GameFile

from tests.conftest import bid_round
from tests.core.test_deadlines import claim, open_game


def reads_whole(monkeypatch) -> list[int]:
    """Count the whole reads of a log section from the disk."""
    calls: list[int] = []
    read = stored.StoredLines.read

    def counted(self):
        calls.append(self.length)
        return read(self)

    monkeypatch.setattr(stored.StoredLines, "read", counted)
    return calls


def test_a_file_this_machine_saved_is_loaded_without_reading_its_log(cli, game, monkeypatch):
    whole = reads_whole(monkeypatch)
    eng = Engine.load(game)
    assert eng.gf.log.checked and eng.gf.log._bytes is None
    assert eng.gf.log[0]["kind"] == "game.created" and eng.gf.log[-1]["hash"] == eng.gf.head
    status = cli("status", game, "--json").output
    assert whole == [] and '"events"' in status
    # a middle event is read from the disk when asked for, and is the same event
    middle = len(eng.gf.log) // 2
    assert eng.gf.log[middle] == GameFile.load(game).log[middle]


def test_a_copy_or_a_touched_file_is_checked_whole_again(cli, game, tmp_path):
    shutil.copy(game, "copy.yaml")
    assert not Engine.load("copy.yaml").gf.log.checked      # never seen here: read and checked
    assert Engine.load("copy.yaml").gf.log.checked          # ... and kept as checked
    os.utime("copy.yaml")                                   # its times set: its stat changed
    assert not Engine.load("copy.yaml").gf.log.checked


def test_a_file_another_account_may_write_is_always_read_whole(cli, game):
    Engine.load(game)
    os.chmod(game, 0o664)
    for _ in range(2):
        assert not Engine.load(game).gf.log.checked
    assert seen.checked(game, os.stat(game)) is None


def test_a_kept_record_that_does_not_match_the_header_is_not_used(cli, game):
    eng = Engine.load(game)
    st_ = os.stat(game)
    # a record for this very file, but with another head: the header is the judge
    seen.remember(game, st_, eng.gf.log_at, len(eng.gf.log), len(eng.gf.log), "0" * 64)
    assert not Engine.load(game).gf.log.checked
    seen.remember(game, st_, eng.gf.log_at + 1, len(eng.gf.log), len(eng.gf.log), eng.gf.head)
    assert not Engine.load(game).gf.log.checked


def test_saving_a_file_left_on_the_disk_writes_the_same_bytes(cli, game):
    # each file's signed time is checked against the game's time at the head it names, which the
    # log's submission events give: a command that checks a file reads the log section
    bid_round(cli, game, 2, 3)
    data = Path(game).read_bytes()
    assert GameFile.parse_bytes(data, Path(game)).dump_bytes() == data
    assert GameFile.load(game).dump_bytes() == data
    assert audit(game).ok


def test_a_file_shortened_under_a_command_is_damage_not_a_crash(cli, game):
    eng = Engine.load(game)
    assert eng.gf.log.checked
    with open(game, "r+b") as fh:       # cut in place, after the load (as a second account could)
        fh.truncate(os.path.getsize(game) - 200)
    cut = Path(game).read_bytes()
    for step in (eng.gf.log.dump, eng.save):
        with pytest.raises(HxrefError) as err:
            step()
        assert err.value.code == "E500" and "changed while hxref was reading" in str(err.value)
    assert Path(game).read_bytes() == cut and not list(Path().glob(".g.yaml.*.tmp"))


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), min_size=1, max_size=60),
       first=st.sampled_from([1, 2, 7, 64, 1 << 14]), window=st.sampled_from([3, 50, 1 << 20]),
       order=st.randoms(use_true_random=False), pre=st.binary(max_size=9))
def test_stored_lines_give_each_line_or_none(tmp_path_factory, lines, first, window, order, pre):
    path = tmp_path_factory.mktemp("stored") / "log"
    section = b"".join(line + b"\n" for line in lines)
    path.write_bytes(pre + section)
    fd = os.open(path, os.O_RDONLY)
    try:
        old = stored.FIRST, stored.WINDOW
        stored.FIRST, stored.WINDOW = first, window
        s = stored.StoredLines(fd, len(pre), len(section), lambda: ValueError("changed"))
        wanted = list(range(len(lines)))
        order.shuffle(wanted)
        for i in wanted:
            got = s.line(i, len(lines))
            assert got is None or got == lines[i]
        assert s.read() == section
        out = tmp_path_factory.mktemp("copy") / "out"
        with open(out, "wb") as fh:
            fh.write(b"head\n")
            fh.flush()
            s.write_to(fh.fileno())
        assert out.read_bytes() == b"head\n" + section
    finally:
        stored.FIRST, stored.WINDOW = old
        os.close(fd)


def test_events_after_a_point_are_those_the_whole_log_gives(cli, game):
    bid_round(cli, game, 2, 2)
    full = GameFile.load(game).log
    n = len(full)
    rng = random.Random(7)
    wants = {"die": lambda ev: True, "rules": lambda ev: b'"initiative"' in canonical_json(ev)}
    for after in sorted({0, 1, n - 1, n, n + 3, *(rng.randrange(n) for _ in range(6))}):
        for kind, needles in (("die", ()), ("rules", (b'"initiative"',))):
            want = wants[kind]
            everything = [ev["seq"] for ev in events_of(full, [kind], needles) if ev["seq"] > after and want(ev)]
            lazy = Engine.load(game).gf.log
            assert lazy.checked
            assert [ev["seq"] for ev in events_of(lazy, [kind], needles, after=after) if want(ev)] == everything


def test_a_report_with_kept_tallies_says_what_one_without_says(cli, monkeypatch, tmp_path):
    game = open_game(cli, monkeypatch, "--deadline-hours", "24", "--nmr", "stand-fast")

    def reports() -> dict:
        return {side: cli("report", game, "--format", "text", "--since", "start", "--width", "300",
                          *(["--side", side] if side else [])).output for side in ("union", "confederate", None)}

    before = reports()          # tallies kept up to here
    claim(cli, monkeypatch, "2026-11-30T12:00:01Z")
    cli("roll", game, "--side", "confederate", "--key", "bob")
    cli("submit", game, "confederate-t1.union-roll.yaml")
    cli("resolve", game)
    kept = reports()            # counted from the kept tallies on
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "elsewhere"))
    fresh = reports()           # counted from the start
    assert kept == fresh and kept != before
    for text in kept.values():
        assert "claim signed by confederate" in text
    # a kept tally that is not of this history (its event's hash differs) is counted anew
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "home3"))
    reports()
    for f in (tmp_path / "home3" / "tallies").iterdir():
        f.write_text(json.dumps({"seq": 3, "hash": "0" * 64, "faces": {"6": [99] * 6}, "claims": []}))
    assert reports() == fresh
    for f in (tmp_path / "home3" / "tallies").iterdir():
        f.write_text("{not json")
    assert reports() == fresh


def test_the_dice_line_from_kept_tallies_is_the_one_counted_from_the_start(cli, game, monkeypatch, tmp_path):
    def reports() -> list[str]:
        return [cli("report", game, "--format", "text", "--width", "300", *(["--side", side] if side else [])).output
                for side in ("union", "confederate", None)]

    reports()                   # tallies kept up to the joins
    bid_round(cli, game, 2, 3)
    counted = reports()         # counted from the kept tallies on
    assert any("Dice this game:" in text for text in counted)
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "fresh"))
    assert reports() == counted


def test_hxref_seen_off_reads_every_file_whole(cli, game, monkeypatch):
    Engine.load(game)
    assert Engine.load(game).gf.log.checked
    monkeypatch.setenv("HXREF_SEEN", "off")                # a game on a network file system
    assert not Engine.load(game).gf.log.checked
    cli("status", game)
    assert not Engine.load(game).gf.log.checked
