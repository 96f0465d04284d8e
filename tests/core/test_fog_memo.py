"""The knowledge a copy of a game with hidden armies kept (:mod:`hxref.referee.fog_memo`): a command on
the file this machine last wrote takes it instead of replaying the log; a changed file, a stale record,
or a record of another side or game is replayed, and the replay gives what was kept."""
from __future__ import annotations

import json
import shutil

import pytest

from hxref.referee import fog_memo, proof
from hxref.referee.engine import Engine
from tests.core.fog_table import GAME, Table


def choose(side: str, d: dict) -> dict:
    return {"bid": 2} if d["kind"] == "bid" else {"level": 1}


@pytest.fixture
def table(tmp_path, monkeypatch) -> Table:
    t = Table(tmp_path, monkeypatch)
    t.start()
    for _ in range(3):
        t.step(choose)
    return t


@pytest.fixture
def replays(monkeypatch) -> list:
    """The copies replayed from the log: (known sides, the head the replay starts from) for each."""
    done: list = []
    real = proof.replay_known

    def counted(engine, gf, known, since=None):
        done.append((sorted(known), since[0] if since else 0))
        return real(engine, gf, known, since)

    monkeypatch.setattr(proof, "replay_known", counted)
    return done


def knows(eng: Engine) -> tuple:
    k = eng.knowledge
    return k.boxes, k.journal, [(at, boxes) for at, boxes in k.history]


def fresh(path, side: str | None) -> tuple:
    """What the copy knows when replayed from the log, not kept."""
    eng = Engine.load(path, side=side)
    known = dict(eng.knowledge.known)
    eng._knowledge = proof.replay_known(Engine, eng.gf, known).knowledge
    return knows(eng)


def test_the_file_last_written_is_not_replayed_and_the_kept_knowledge_is_the_replays(table, replays):
    p = table["union"]
    p("status", GAME, "--side", "union")        # the side's copy replays once at a file it did not write
    p("status", GAME)
    replays.clear()
    for side in (None, "union"):
        eng = Engine.load(p.folder / GAME, side=side)
        kept = knows(eng)
        assert replays == [], f"the copy of {side or 'the public'} replayed its log"
        assert kept == fresh(p.folder / GAME, side)
        replays.clear()
    # kept 0600, under the home, never beside the game
    record = fog_memo._record(p.folder / GAME, "union")
    assert record.parent.parent == p.home and record.stat().st_mode & 0o777 == 0o600
    assert not list(p.folder.glob("*fog*"))


def test_a_file_grown_since_is_replayed_from_the_kept_head_and_gives_the_same(table, replays):
    p = table["union"]
    p("status", GAME, "--side", "union")
    record = fog_memo._record(p.folder / GAME, "union")
    old = record.read_bytes()
    kept_at = json.loads(old)["seq"]
    table.step(choose)
    p("status", GAME, "--side", "union")
    replays.clear()
    record.write_bytes(old)             # the record of an earlier head: the blocks since are replayed
    got = knows(Engine.load(p.folder / GAME, side="union"))
    assert replays == [(["union"], kept_at)] and kept_at < json.loads(record.read_bytes())["seq"]
    assert got == fresh(p.folder / GAME, "union")
    # a file with other bytes than this machine wrote (another hand's) is proved and replayed whole
    replays.clear()
    text = (p.folder / GAME).read_bytes()
    (p.folder / GAME).write_bytes(text.replace(b"# hxref game file.", b"# hxref game file. ", 1))
    got = knows(Engine.load(p.folder / GAME, side="union"))
    assert replays == [(["union"], 0)] and got == fresh(p.folder / GAME, "union")


def test_a_record_of_another_side_history_or_secrets_is_not_taken(table, replays):
    p = table["union"]
    p("status", GAME, "--side", "union")
    p("status", GAME)
    mine = fog_memo._record(p.folder / GAME, "union")
    public = fog_memo._record(p.folder / GAME, None)
    # the union's record put where the public copy's is kept
    shutil.copy(mine, public)
    replays.clear()
    got = knows(Engine.load(p.folder / GAME))
    assert replays == [([], 0)] and got == fresh(p.folder / GAME, None)
    # a record of another history: its head is not in this log
    data = json.loads(public.read_text())
    public.write_text(json.dumps({**data, "file": "0" * 64, "head": "0" * 64}))
    replays.clear()
    got = knows(Engine.load(p.folder / GAME))
    assert replays == [([], 0)] and got == fresh(p.folder / GAME, None)
    # a record made with other sealed answers than the side's own file holds now
    data = json.loads(mine.read_text())
    mine.write_text(json.dumps({**data, "secrets": "0" * 64}))
    replays.clear()
    Engine.load(p.folder / GAME, side="union")
    assert replays == [(["union"], 0)]
