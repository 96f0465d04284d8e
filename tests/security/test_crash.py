"""Crash safety (a killed command leaves a complete game file, never a torn one): SIGKILL `hxref submit` and `hxref resolve` at random moments.

Each trial copies a known starting game into place, starts the real command in a
subprocess, kills it with SIGKILL after a delay drawn from a seeded RNG over the
command's measured duration, and then checks that

* the game file is byte-for-byte one of the complete versions the command can
  leave (the old one, the new one, or for a two-file submit the one in between),
* that version passes ``audit``,
* ``GAME.bak``, if there, is also a complete known version,
* a leftover ``.GAME.<pid>.tmp`` (the kill landed in the middle of a write) never
  replaced the game file,
* the version left still loads on this machine: its record of the last head seen
  (:mod:`hxref.gamefile.heads`, written after the game file) is that version's head or an
  earlier one, never a head the file does not reach.

Only trials where the process was still running when the signal arrived count as
kills.  The figure printed: kills tried and files lost (must be 0).

``HXREF_CRASH_KILLS`` sets the number of kills (default 200, split evenly between
submit and resolve, and for each command between ten shards, each with its own
seeded RNG, that pytest-xdist runs side by side); ``HXREF_CRASH_SEED`` the RNG
seed.
"""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hxref.gamefile import heads
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError
from hxref.gamefile.game import GameFile

NOW = "2026-11-29T12:00:00Z"    # as tests/conftest.py

KILLS = int(os.environ.get("HXREF_CRASH_KILLS", "200"))
SEED = int(os.environ.get("HXREF_CRASH_SEED", "20261129"))
GAME = "g.yaml"
#: each command's kills are made by this many shards (tests), each drawing its moments from its own RNG
SHARDS = 10


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "hxref.cli", *args]


def _env() -> dict:
    env = dict(os.environ)
    env["HXREF_NOW"] = NOW
    env.pop("HXREF_DEBUG", None)
    return env


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _prepare(cli) -> dict:
    """Build the starting files of both commands and every complete version they may leave."""
    folder: Path = cli.folder
    cli("new", GAME, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "crash-game", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", GAME, "--side", "union", "--key", "alice")
    cli("join", GAME, "--side", "confederate", "--key", "bob")
    cli("submit", GAME, "union-join.yaml", "confederate-join.yaml")
    cli("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 2")
    snap = {}

    def keep(name: str) -> None:
        shutil.copy(folder / GAME, folder / name)
        shutil.copy(folder / (GAME + ".bak"), folder / (name + ".bak"))
        snap[name] = (folder / name).read_bytes()

    keep("submit-old")
    cli("submit", GAME, "union-t1.bid-commit.yaml")
    keep("submit-mid")
    cli("submit", GAME, "confederate-t1.bid-commit.yaml")
    keep("submit-new")
    cli("submit", GAME, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    keep("resolve-old")
    cli("resolve", GAME)
    keep("resolve-new")
    return snap


def _scenarios(snap: dict) -> dict:
    before_submit = snap["submit-old"]
    return {
        "submit": {
            "start": "submit-old",
            "args": ("submit", GAME, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml"),
            "versions": {_digest(snap[k]): k for k in ("submit-old", "submit-mid", "submit-new")},
            "final": _digest(snap["submit-new"]),
            "old": _digest(before_submit),
        },
        "resolve": {
            "start": "resolve-old",
            "args": ("resolve", GAME),
            "versions": {_digest(snap[k]): k for k in ("resolve-old", "resolve-new")},
            "final": _digest(snap["resolve-new"]),
            "old": _digest(snap["resolve-old"]),
        },
    }


def _reset(folder: Path, start: str) -> None:
    for p in folder.glob(f".{GAME}.*"):
        p.unlink()
    shutil.copy(folder / (start + ".bak"), folder / (GAME + ".bak"))
    shutil.copy(folder / start, folder / GAME)
    # the heads this machine saw (hxref.gamefile.heads): the last one is the start version's, and the file
    # it wrote is this one, as when the command before saved it (else the command would refuse the game
    # put back as a rollback, E506, and, not vouched for, replay its log before it starts)
    gf = GameFile.load(folder / GAME)
    heads.remember(gf.log[0]["hash"], folder / GAME, len(gf.log), gf.head, gf.digest)


def _run_to_end(folder: Path, sc: dict) -> float:
    _reset(folder, sc["start"])
    t0 = time.perf_counter()
    res = subprocess.run(_cmd(*sc["args"]), cwd=folder, env=_env(), capture_output=True, text=True)
    took = time.perf_counter() - t0
    assert res.returncode == 0, res.stderr
    assert _digest((folder / GAME).read_bytes()) == sc["final"], "the command is not deterministic"
    return took


@pytest.fixture(scope="module")
def started(tmp_path_factory, keydir) -> tuple[Path, dict, dict]:
    """The folder of the starting games, every complete version the commands may leave, and each
    command's typical duration (the median of three runs): made once for all the shards."""
    from tests.conftest import Cli

    folder = tmp_path_factory.mktemp("crash")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        mp.setenv("HXREF_NOW", NOW)
        mp.setenv("HXREF_HOME", str(tmp_path_factory.mktemp("crash-home")))
        for f in keydir.iterdir():
            shutil.copy(f, folder / f.name)
        (folder / "alice").chmod(0o600)
        snap = _prepare(Cli(folder))
        # measure each command's duration (also checks that it ends in the version expected)
        durations = {name: sorted(_run_to_end(folder, sc) for _ in range(3))[1]
                     for name, sc in _scenarios(snap).items()}
    return folder, snap, durations


@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("name", ["submit", "resolve"])
def test_sigkill_submit_and_resolve(started, tmp_path, name, shard):
    folder = shutil.copytree(started[0], tmp_path / "game")
    snap, durations = started[1], started[2]
    scenarios = {name: _scenarios(snap)[name]}
    known = {_digest(b): k for k, b in snap.items()}
    known.update({_digest((folder / (k + ".bak")).read_bytes()): k + ".bak" for k in snap})

    audited: dict[str, bool] = {}

    def audit_ok(data: bytes) -> bool:
        d = _digest(data)
        if d not in audited:      # the same bytes audit the same: replay each version once
            probe = folder / "probe.yaml"
            probe.write_bytes(data)
            res = audit(probe)
            audited[d] = res.ok
            assert res.ok, res.problems
        return audited[d]

    rng = random.Random(f"{SEED}-{name}-{shard}")
    stats = {n: {"kills": 0, "finished": 0, "lost": 0, "mid_write": 0, "left": {}} for n in scenarios}
    lost_detail: list[str] = []
    t_start = time.perf_counter()
    while stats[name]["kills"] < KILLS // (2 * SHARDS):
        sc, st = scenarios[name], stats[name]
        _reset(folder, sc["start"])
        delay = rng.uniform(0.0, durations[name] * 1.1)
        proc = subprocess.Popen(_cmd(*sc["args"]), cwd=folder, env=_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)          # a zombie not yet reaped ignores it: no pid reuse
        _, err = proc.communicate()
        if proc.returncode != -signal.SIGKILL:
            assert proc.returncode == 0, err.decode()
            st["finished"] += 1                    # it ended before the signal: not a kill
        else:
            st["kills"] += 1
        data = (folder / GAME).read_bytes() if (folder / GAME).exists() else b""
        version = sc["versions"].get(_digest(data))
        ok = version is not None and audit_ok(data)
        if ok:
            try:
                Engine.load(folder / GAME)          # the heads record: the version left extends it
            except HxrefError as exc:
                ok = False
                lost_detail.append(f"{name} kill after {delay:.3f}s: the version left does not load: {exc}")
        bak = folder / (GAME + ".bak")
        if bak.exists() and _digest(bak.read_bytes()) not in known:
            ok = False
            lost_detail.append(f"{name} kill after {delay:.3f}s: GAME.bak is not a known complete version")
        if not ok:
            st["lost"] += 1
            lost_detail.append(f"{name} kill after {delay:.3f}s: game file is not a complete version "
                               f"({len(data)} bytes)")
        else:
            st["left"][version] = st["left"].get(version, 0) + 1
        if list(folder.glob(f".{GAME}.*.tmp")):
            st["mid_write"] += 1
    elapsed = time.perf_counter() - t_start

    total_kills = sum(s["kills"] for s in stats.values())
    total_lost = sum(s["lost"] for s in stats.values())
    print()
    for name, st in stats.items():
        print(f"crash {name}: typical run {durations[name] * 1000:.0f} ms; kills {st['kills']}, "
              f"ended before the kill {st['finished']}, killed mid-write (temporary file left) "
              f"{st['mid_write']}, files lost {st['lost']}; versions left: "
              + ", ".join(f"{k} {v}" for k, v in sorted(st["left"].items())))
    print(f"crash safety, {name} shard {shard + 1} of {SHARDS}: kills tried {total_kills}, files lost {total_lost} "
          f"(seed {SEED}, {elapsed:.1f} s)")
    assert total_lost == 0, "\n".join(lost_detail)
    # the random moments must cover the whole run: some kills left the old file, some the new
    for name, sc in scenarios.items():
        left = stats[name]["left"]
        if stats[name]["kills"] >= 20:
            assert left.get(sc["start"], 0) > 0, f"{name}: no kill left the old version"
