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

In some rounds an extra process holds the game's lock for longer than hxref
waits, so that every submitter of that wave is refused with the lock message and
the game file must be left unchanged.

At the end the game must hold every file exactly once -- in a logged block, or
kept in the header's pending area for its open decision --, no temporary file may
be left, and ``audit`` must pass (which re-accepts the pending files).  Printed per N: submissions, stored, refused then
retried (locked / out of order).
"""
from __future__ import annotations

import hashlib
import os
import re
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
HOLD_SECONDS = 4.5              # longer than hxref's 3 s wait for the lock

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
import sys, time
from hxref.gamefile.game import locked
start, hold = float(sys.argv[2]), float(sys.argv[3])
with locked(sys.argv[1]):
    print("holding", flush=True)
    time.sleep(max(0.0, start - time.time()) + hold)
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


@pytest.mark.parametrize("n", range(2, 9))
def test_concurrent_submissions(cli, n):
    folder: Path = cli.folder
    _, all_files = _make_files(cli)
    files = all_files[:n]
    pending = list(files)
    stored: dict[str, str] = {}
    locked_refusals = order_refusals = waves = 0
    lock_messages: set[str] = set()
    while pending:
        waves += 1
        assert waves <= 40, f"still pending after 40 waves: {pending}"
        hold = waves == 1 and n in HOLD_ROUNDS
        # the barrier leaves every process time to start (more with a lock holder to start first: a
        # submitter that reached the barrier late could outwait the holder)
        start_at = time.time() + (2.0 if hold else 0.6)
        holder = None
        if hold:
            holder = subprocess.Popen([sys.executable, "-c", HOLDER, GAME, str(start_at), str(HOLD_SECONDS)],
                                      cwd=folder, env=_env(), stdout=subprocess.PIPE, text=True)
            assert holder.stdout.readline().strip() == "holding"
        before = (folder / GAME).read_bytes()
        procs = {f: subprocess.Popen([sys.executable, "-c", DRIVER, str(start_at),
                                      *(("resolve", GAME) if f == RESOLVE else ("submit", GAME, f))],
                                     cwd=folder, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
                 for f in pending}
        results = {f: (p.communicate(timeout=60), p.returncode) for f, p in procs.items()}
        if holder is not None:
            holder.wait(timeout=30)
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
        if holder is not None:
            # every submitter waited the full 3 s and gave up: the game file is untouched
            assert len(still) == len(pending), {f: r for f, r in results.items() if f not in still}
            assert (folder / GAME).read_bytes() == before
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
