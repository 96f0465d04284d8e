#!/usr/bin/env python
"""Many games at once (issue 9, scope 5): `hxref status DIR` and `hxref resolve DIR` on a folder of
games against the same work done one game per command.  Not a test: it prints, it never asserts.

    python bench/bench_batch.py [--games 100] [--sample 8] [--rounds 3] [--keep DIR] [--standings 40]
    python bench/bench_batch.py --standings-only [--standings 40]

The folder: --games small solo games (half heartland bidding-demo with both sides' t1 bids in, half
ACW miniatures Mercer's Mill with the Union's t1 orders in), made in-process with the library, so
every game has a decision to resolve.

What is compared, all as subprocesses of the command a user types (interpreter start-up included),
each side doing the same work in one process:

* status: `hxref status DIR` on the whole folder against `hxref status DIR1` once per game, where
  DIR1 is a folder holding that one game -- the same dashboard code (it reads each game's header
  only), one game per command.  `hxref status GAME` parses the whole file, which is more work: it
  is shown for information, not compared;
* resolve: `hxref resolve DIR --workers 1` against `hxref resolve GAME` once per game (each loads
  the whole game, resolves and saves it).  The default `resolve DIR` (one worker per core) is
  shown for information.

Every row runs once per round, --rounds rounds, interleaved (the order rotating each round), each
run on a fresh copy of the folder when it writes (copying is not timed); the figure is the median
of the rounds.  The singles are timed on --sample games spread over both systems, and their sum is
scaled to all the games (0: every game).

Each run works on a fresh copy of the folder at a new path, with the heads this machine has seen
(``$HXREF_HOME``, :mod:`hxref.gamefile.heads`) kept in a temporary folder: a copy put back where a game
was already resolved would be refused as a rollback (E506), and the user's own record is never
touched.

Standings: `hxref standings DIR` on --standings finished solo games, which it audits one by one
(every log replayed), in worker processes by default and with --workers 1.

Target (issue 9): batch under 0.3x the sum of the single runs, on 2 cores.  For reference it also
times the same work in-process: the library calls of the single-game commands in a loop, and
hxref.batch.dashboard / resolve_all.
"""
from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hxref import batch
from hxref.referee.engine import Engine
from hxref.gamefile.game import locked

TARGET = 0.3
SYSTEMS = (("heartland", "bidding-demo"), ("acw-minis", "mercers-mill"))


def generate(folder: Path, n: int) -> dict:
    """``n`` solo games with their answers in, alternating heartland and ACW; returns counts."""
    folder.mkdir(parents=True, exist_ok=True)
    counts: dict = {}
    for i in range(n):
        system, scenario = SYSTEMS[i % 2]
        sub = folder / f"group-{i // 50 + 1}"
        sub.mkdir(exist_ok=True)
        sides = {"union": None, "confederate": None}
        eng = Engine.create(sub / f"{system}-{i:03d}.yaml", system=system, scenario=scenario, mode="solo",
                            sides=sides, game_id=f"bench-{i:03d}")
        if system == "heartland":
            eng.answer_solo("union", "t1.bid", {"bid": 1 + i % 4})
            eng.answer_solo("confederate", "t1.bid", {"bid": 1 + i % 5})
        else:
            eng.answer_solo("union", "t1.union", {"moves": [{"unit": "us-3", "advance": 2 + i % 5}], "shots": []})
        eng.save()
        counts[f"{system} {scenario}"] = counts.get(f"{system} {scenario}", 0) + 1
    return counts


def generate_finished(folder: Path, n: int) -> None:
    """``n`` solo heartland bidding-demo games played to their end (a tournament's finished games)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        eng = Engine.create(folder / f"finished-{i:03d}.yaml", system="heartland", scenario="bidding-demo",
                            mode="solo", sides={"union": None, "confederate": None}, game_id=f"done-{i:03d}")
        while not eng.finished:
            dec = eng.awaiting[0]
            for side in dec.sides:
                eng.answer_solo(side, dec.id, {"bid": 1 + (i + (side == "union")) % 4} if dec.kind == "bid"
                                else dict(dec.example))
            eng.resolve()
        eng.save()


def bench_standings(launch: list[str], n: int, rounds: int, tmp: Path) -> None:
    """`hxref standings DIR` on ``n`` finished games: every game audited (its whole log replayed),
    with the default workers and, where the command takes it, --workers 1."""
    folder = tmp / "finished"
    t0 = time.perf_counter()
    generate_finished(folder, n)
    events = sum(len(Engine.load(p).gf.log) for p in batch.find_games(folder))
    print(f"\n== standings: {n} finished solo heartland bidding-demo games ({events} events), made in "
          f"{time.perf_counter() - t0:.1f} s")
    helptext = subprocess.run([*launch, "standings", "--help"], capture_output=True, text=True).stdout
    rows = {"hxref standings DIR (the default workers)": [*launch, "standings", str(folder)]}
    if "--workers" in helptext:
        rows["hxref standings DIR --workers 1"] = [*launch, "standings", str(folder), "--workers", "1"]
    times: dict[str, list[float]] = {k: [] for k in rows}
    for _ in range(rounds):
        for k, cmd in rows.items():
            times[k].append(run(cmd))
    for k, v in times.items():
        t = statistics.median(v)
        print(f"{k:<56}{t:>9.2f}{t / n * 1000:>8.1f} ms per game")


def launcher(module: bool) -> list[str]:
    script = Path(sys.executable).parent / "hxref"
    if script.exists() and not module:
        return [str(script)]
    return [sys.executable, "-m", "hxref.cli"]


def run(cmd: list[str], check: bool = True) -> float:
    t0 = time.perf_counter()
    res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    t = time.perf_counter() - t0
    if check and res.returncode != 0:
        raise SystemExit(f"`{' '.join(cmd)}` failed (exit {res.returncode}): {res.stderr.strip()[:300]}")
    return t


_RUNS = itertools.count(1)


def fresh(template: Path, work: Path) -> Path:
    """A new copy of ``template`` under ``work``, at a path no run used before (the heads this machine
    saw are kept per path: the same games copied back over a resolved folder would be a rollback)."""
    if work.exists():
        shutil.rmtree(work)
    folder = work / f"run-{next(_RUNS)}"
    shutil.copytree(template, folder)
    return folder


def pick(games: list[Path], sample: int | None) -> list[Path]:
    if not sample or sample >= len(games):
        return games
    step = len(games) / sample
    return [games[int(i * step)] for i in range(sample)]


def in_process_singles(template: Path, work: Path) -> tuple[float, float]:
    """The library calls of `hxref status GAME` and `hxref resolve GAME`, one game after another."""
    games = batch.find_games(template)
    t0 = time.perf_counter()
    for p in games:
        eng = Engine.load(p)
        eng.waiting_for(), eng.ready(), eng.state.get("turn")
    t_status = time.perf_counter() - t0
    games = batch.find_games(fresh(template, work))
    t0 = time.perf_counter()
    for p in games:
        with locked(p):
            eng = Engine.load(p)
            eng.resolve()
            eng.save()
    return t_status, time.perf_counter() - t0


def single_folders(template: Path, chosen: list[Path], root: Path) -> list[Path]:
    """Each chosen game alone in a folder of its own, for `hxref status DIR1`."""
    out = []
    for i, p in enumerate(chosen):
        one = root / f"one-{i:03d}"
        one.mkdir(parents=True)
        shutil.copy(p, one / p.name)
        out.append(one)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games in the folder (default 100)")
    ap.add_argument("--sample", type=int, default=8,
                    help="time the single-game commands on this many games and scale (default 8; 0: all)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of every row, median taken (default 3)")
    ap.add_argument("--keep", default=None, help="make the folder here and keep it")
    ap.add_argument("--standings", type=int, default=40,
                    help="also time `hxref standings DIR` on this many finished games (default 40; 0: not)")
    ap.add_argument("--standings-only", action="store_true", help="time only `hxref standings DIR`")
    ap.add_argument("--module", action="store_true",
                    help="run `python -m hxref.cli` instead of the console script (hxref from the current folder)")
    args = ap.parse_args()
    launch = launcher(args.module)
    from hxref.batch import workers as batch_workers

    cores = batch_workers._cores()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HXREF_HOME"] = str(Path(tmp) / "home")       # inherited by every hxref subprocess
        template = Path(args.keep or tmp) / "games"
        work = Path(tmp) / "work"
        if args.standings_only:
            bench_standings(launch, args.standings, args.rounds, Path(tmp))
            return 0
        print(f"== {args.games} games at once (python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
              f"{cores} usable; hxref run as {' '.join(launch)})")
        t0 = time.perf_counter()
        counts = generate(template, args.games)
        games = batch.find_games(template)
        size = sum(p.stat().st_size for p in games)
        print(f"generated {len(games)} games in {time.perf_counter() - t0:.1f} s ({size / 1024 / 1024:.1f} MiB): "
              + ", ".join(f"{n} {k}" for k, n in counts.items()) + "; each has a decision ready to resolve")

        probe = subprocess.run([*launch, "status", str(template)], capture_output=True, text=True)
        if probe.returncode != 0:
            print(f"`hxref status DIR` does not work here yet (exit {probe.returncode}: "
                  f"{probe.stderr.strip()[:200]}); is cli.py wired to hxref.cli.batch? Nothing timed.")
            return 0

        chosen = pick(games, args.sample)
        scale = len(games) / len(chosen)
        ones = single_folders(template, chosen, Path(tmp) / "singles")

        def resolve_dir(*extra: str):
            def timed() -> float:
                folder = fresh(template, work)
                t = run([*launch, "resolve", str(folder), *extra])
                rows = batch.dashboard(folder)
                assert not any(r.status == "ready" for r in rows), "resolve DIR left a ready game"
                assert all(r.events > 4 for r in rows), "resolve DIR did not resolve every game"
                return t
            return timed

        def resolve_singles() -> float:
            folder = fresh(template, work)
            return sum(run([*launch, "resolve", str(folder / p.relative_to(template))]) for p in chosen) * scale

        rows = {
            "status: hxref status DIR (batch)": lambda: run([*launch, "status", str(template)]),
            f"status: hxref status DIR1 x {len(games)} (singles)": (
                lambda: sum(run([*launch, "status", str(d)]) for d in ones) * scale),
            "resolve: hxref resolve DIR --workers 1 (batch)": resolve_dir("--workers", "1"),
            f"resolve: hxref resolve GAME x {len(games)} (singles)": resolve_singles,
            f"info: hxref status GAME x {len(games)} (whole file)": (
                lambda: sum(run([*launch, "status", str(p)]) for p in chosen) * scale),
            f"info: hxref resolve DIR ({cores} workers, the default)": resolve_dir(),
        }
        names = list(rows)
        times: dict[str, list[float]] = {k: [] for k in names}
        for r in range(args.rounds):
            for k in names[r % len(names):] + names[:r % len(names)]:
                times[k].append(rows[k]())
        med = {k: statistics.median(v) for k, v in times.items()}

        # --- for reference: in-process
        t_istatus, t_iresolve = in_process_singles(template, work)
        t0 = time.perf_counter()
        batch.dashboard(template)
        t_dash = time.perf_counter() - t0
        folder = fresh(template, work)
        t0 = time.perf_counter()
        res = batch.resolve_all(folder)
        t_all = time.perf_counter() - t0

    n = len(games)
    how = f"all {n}" if scale == 1 else f"{len(chosen)} of {n}, the sum scaled x{scale:.1f}"
    print(f"\ncompared: the same work on both sides, one process each (resolve DIR with --workers 1); every row "
          f"run {args.rounds} times, interleaved in a rotating order, median wall seconds; singles: {how}\n")
    print(f"{'':<56}{'seconds':>9}{'per game':>11}{'ratio':>9}")

    def line(name: str, t: float, ratio: float | None = None) -> None:
        print(f"{name:<56}{t:>9.2f}{t / n * 1000:>8.1f} ms" + (f"{ratio:>8.3f}x" if ratio is not None else ""))

    b_status, s_status, b_resolve, s_resolve, i_status, i_resolve = (med[k] for k in names)
    line(names[0], b_status, b_status / s_status)
    line(names[1], s_status)
    line(names[2], b_resolve, b_resolve / s_resolve)
    line(names[3], s_resolve)
    both_b, both_s = b_status + b_resolve, s_status + s_resolve
    line("status + resolve (batch)", both_b, both_b / both_s)
    line("status + resolve (singles)", both_s)
    print("info, not compared (other work or other parallelism):")
    line("  " + names[4], i_status)
    line("  " + names[5], i_resolve, i_resolve / s_resolve)
    print("info, in-process:")
    line("  Engine.load + waiting_for, game after game", t_istatus)
    line("  batch.dashboard(DIR) (headers only)", t_dash)
    line("  lock + load + resolve + save, game after game", t_iresolve)
    line(f"  batch.resolve_all(DIR) ({res.workers} worker processes)", t_all)
    for name, b, s in (("status", b_status, s_status), ("resolve", b_resolve, s_resolve),
                       ("status + resolve", both_b, both_s)):
        print(f"target: {name} batch < {TARGET}x the singles -> {b / s:.3f}x ({'met' if b < TARGET * s else 'MISSED'})")
    if args.standings:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["HXREF_HOME"] = str(Path(tmp) / "home")
            bench_standings(launch, args.standings, args.rounds, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
