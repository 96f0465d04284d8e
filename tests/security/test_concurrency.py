"""Concurrency (no file lost, no game file torn, the same head whatever the arrival order): two to
eight processes submit to the same game at once.

For N = 2..8 the first N steps of a game (both joins, both commitments for
t1.bid, both reveals -- under protocol v2 the bid's dice links are in the reveals
--, ``hxref resolve``, and union's answer to the next decision, t1.i3.level,
written against the head that resolution makes) are run by N real processes that
start at the same instant: each is a Python process that imports ``hxref.cli``
first, sleeps until a common start time (the barrier), then runs ``hxref submit
GAME FILE`` (or ``hxref resolve GAME``) exactly as the ``hxref`` console script
does.  A block's files are logged in canonical order whatever order they arrive
in, so the head after the resolution, and the answer written against it, are the
same in every run.

A process whose submission is refused is run again in the next wave until its
file is stored.  Two refusals are allowed, nothing else:

* ``game is locked ... try again`` (E501): another process held the lock too long;
* the file is not acceptable *yet* (E301 its decision is not open yet, E304
  join/commit/reveal first): files sent out of order; for the resolver, E308
  nothing to resolve yet.  (E301 "already resolved" would be a replay and fails
  the test.)

For N = 2 and 8 (``HOLD_ROUNDS``, a test of its own) an extra process holds the
game's lock while the N processes submit, so that every one is refused with the
lock message after hxref's full wait for the lock (3 s), and the game file must
be left unchanged; then a submission goes through.  The holder lets go when the
test tells it (every submitter has given up), not after a fixed time: however
late a submitter starts, it cannot outwait the holder.

At the end the game must hold every file exactly once -- in a logged block, or
kept in the header's pending area for its open decision --, no temporary file may
be left, and ``audit`` must pass (which re-accepts the pending files).  Printed per N: submissions, stored, refused then
retried (locked / out of order).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hxref.referee.audit import audit
from hxref.gamefile.game import GameFile

NOW = "2026-11-29T12:00:00Z"    # as tests/conftest.py
GAME = "g.yaml"
NOT_YET = {"E301", "E304"}      # out-of-order refusals: the file becomes acceptable later
RESOLVE = "resolve"             # the step that runs `hxref resolve GAME` instead of a submit
HOLD_ROUNDS = {2, 8}            # N for which a lock holder forces a wave of "locked" refusals
LOCK_WAIT = 3.0                 # how long hxref waits for the lock (hxref.gamefile.game.locked)

DRIVER = r"""
import sys, time
from hxref.cli import main
import hxref.referee.engine, hxref.gamefile.game, hxref.base.yamlio, hxref.referee.orders, hxref.crypto.signing   # warm up before the barrier
start = float(sys.argv[1])
time.sleep(max(0.0, start - time.time()))
sys.argv = ["hxref"] + sys.argv[2:]
main()
"""

HOLDER = r"""
import sys
from hxref.gamefile.game import locked
with locked(sys.argv[1]):
    print("holding", flush=True)
    sys.stdin.read()            # until the test closes it: every submitter has given up
"""


def _env() -> dict:
    env = dict(os.environ)
    env["HXREF_NOW"] = NOW
    env.pop("HXREF_DEBUG", None)
    return env


def _make_files(cli) -> tuple[bytes, list[str]]:
    """A new game (returned as bytes) and its signed files, produced by playing a copy in order."""
    folder: Path = cli.folder
    cli("new", GAME, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "race-game", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    start = (folder / GAME).read_bytes()
    cli("join", GAME, "--side", "union", "--key", "alice")
    cli("join", GAME, "--side", "confederate", "--key", "bob")
    cli("submit", GAME, "union-join.yaml", "confederate-join.yaml")
    cli("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 2")
    cli("submit", GAME, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", GAME, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    cli("resolve", GAME)
    cli("answer", GAME, "--side", "union", "--key", "alice", "--choice", "level: 1")   # written at the new head
    files = ["union-join.yaml", "confederate-join.yaml", "union-t1.bid-commit.yaml",
             "confederate-t1.bid-commit.yaml", "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml",
             RESOLVE, "union-t1.i3.level.yaml"]
    for p in folder.glob(GAME + "*"):
        p.unlink()
    (folder / GAME).write_bytes(start)
    # this machine saw the game further on (hxref.gamefile.heads): taking it back to the start is a rollback
    # on purpose, recorded as `hxref audit --accept-head` does after a clean audit
    cli("audit", GAME, "--accept-head")
    return start, files


@pytest.fixture(scope="module")
def race(tmp_path_factory, keydir) -> tuple[Path, list[str]]:
    """The folder holding the game at its start and its signed files (:func:`_make_files`), made once
    for the module: every test copies them (:func:`_copy`) and races on its own copy."""
    from tests.conftest import Cli

    folder = tmp_path_factory.mktemp("race")
    for f in keydir.iterdir():
        shutil.copy(f, folder / f.name)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.setenv("HXREF_NOW", NOW)
        mp.setenv("HXREF_HOME", str(folder / "home"))
        _, files = _make_files(Cli(folder))
    return folder, files


def _copy(race: tuple[Path, list[str]], folder: Path, n: int) -> list[str]:
    """The game at its start and its first ``n`` steps' files in ``folder`` (a machine that never saw
    the game: the test's own home); the steps."""
    src, files = race
    for name in (GAME, *files[:n]):
        if name != RESOLVE:
            shutil.copy(src / name, folder / name)
    return files[:n]


def _wave(folder: Path, files: list[str]) -> dict[str, tuple[tuple[str, str], int]]:
    """One process per file (``hxref submit GAME FILE``, or ``hxref resolve GAME``), all started at
    the same instant: {file: ((stdout, stderr), exit status)}."""
    # the barrier leaves every process time to start
    start_at = time.time() + 0.6
    procs = {f: subprocess.Popen([sys.executable, "-c", DRIVER, str(start_at),
                                  *(("resolve", GAME) if f == RESOLVE else ("submit", GAME, f))],
                                 cwd=folder, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for f in files}
    return {f: (p.communicate(timeout=60), p.returncode) for f, p in procs.items()}


@pytest.mark.parametrize("n", sorted(HOLD_ROUNDS))
def test_a_held_lock_refuses_every_submitter_and_leaves_the_game_file(cli, race, n):
    """While another process holds the game's lock, each of N submitters started at once waits
    hxref's full time for it and is refused with the lock message; the game file is unchanged; once
    the lock is let go, a submission goes through."""
    folder: Path = cli.folder
    files = _copy(race, folder, n)
    before = (folder / GAME).read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, GAME], cwd=folder, env=_env(),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        t = time.time()
        results = _wave(folder, files)
        waited = time.time() - t
    finally:
        holder.communicate(timeout=30)      # closes its stdin: it lets the lock go and ends
    messages = set()
    for f, ((out, err), rc) in results.items():
        assert "Traceback" not in out + err, f"{f}: {out}{err}"
        assert rc == 2, f"{f}: exit {rc}: {out}{err}"
        msg = err.strip()
        assert msg.startswith("hxref: error: ") and "\n" not in msg, msg
        assert "game is locked" in msg and "try again" in msg, msg
        messages.add(re.sub(r"\s+", " ", msg))
    # every submitter waited the full 3 s and gave up: the game file is untouched
    assert waited >= LOCK_WAIT, waited
    assert (folder / GAME).read_bytes() == before
    assert "accepted: game race-game" in cli("submit", GAME, files[0]).output
    print(f"\nconcurrency N={n} against a held lock: {len(results)} refused after {waited:.1f} s, the game file "
          f"unchanged; lock message: {sorted(messages)[0]}")


@pytest.mark.parametrize("n", range(2, 9))
def test_concurrent_submissions(cli, race, n):
    folder: Path = cli.folder
    files = _copy(race, folder, n)
    pending = list(files)
    stored: dict[str, str] = {}
    locked_refusals = order_refusals = waves = 0
    lock_messages: set[str] = set()
    while pending:
        waves += 1
        assert waves <= 40, f"still pending after 40 waves: {pending}"
        results = _wave(folder, pending)
        still = []
        for f, ((out, err), rc) in results.items():
            assert "Traceback" not in out + err, f"{f}: {out}{err}"
            if rc == 0:
                # a submitter that finds the bids complete resolves them before it stores its own file
                # (hxref submit resolves the decision a file completes first), so its receipt may come
                # after a "resolved" line; the resolver then resolves whatever is ready
                lines = out.splitlines()
                receipt = next((x for x in lines if not x.startswith("resolved ")), "")
                assert (lines[0].startswith("resolved ") if f == RESOLVE
                        else receipt.startswith("accepted: game race-game")), out
                stored[f] = lines[0] if f == RESOLVE else receipt
                continue
            assert rc == 2, f"{f}: exit {rc}: {out}{err}"
            msg = err.strip()
            assert msg.startswith("hxref: error: ") and "\n" not in msg, msg
            if "game is locked" in msg:
                assert "try again" in msg, msg
                locked_refusals += 1
                lock_messages.add(re.sub(r"\s+", " ", msg))
            else:
                codes = set(re.findall(r"\bE\d{3}\b", msg))
                assert codes & (NOT_YET | ({"E308"} if f == RESOLVE else set())) and "already" not in msg, \
                    f"{f}: refused for another reason than the lock or the order: {msg}"
                order_refusals += 1
            still.append(f)
        pending = still

    gf = GameFile.load(folder / GAME)
    logged = [ev["data"]["sha256"] for ev in gf.log if ev["kind"] == "submission"]
    kept = [f["sha256"] for p in gf.header.get("pending", {}).values() for f in p["files"]]
    want = {hashlib.sha256((folder / f).read_bytes()).hexdigest() for f in files if f != RESOLVE}
    got = logged + kept
    assert sorted(got) == sorted(want), "a submission is missing or stored twice"
    assert len(stored) == n
    # the bids are resolved once, by the resolver or by the submitter that found them complete
    bids_resolved = sum(ev["kind"] == "resolve" and ev["data"]["decision"] == "t1.bid" for ev in gf.log)
    assert bids_resolved == 1 if RESOLVE in files else bids_resolved <= 1
    assert not list(folder.glob(f".{GAME}.*")), "a temporary file was left behind"
    res = audit(folder / GAME)
    assert res.ok, res.problems
    print(f"\nconcurrency N={n}: concurrent commands {n} ({len(want)} submissions"
          + (" and a resolve" if RESOLVE in files else "") + f"), stored {len(want)} ({len(logged)} in the log, "
          f"{len(kept)} pending), refused then retried: "
          f"locked {locked_refusals}, out of order {order_refusals}; waves {waves}; lost 0; "
          f"audit OK ({res.events} events)"
          + (f"; lock message: {sorted(lock_messages)[0]}" if lock_messages else ""))
