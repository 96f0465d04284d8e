#!/usr/bin/env python
"""Many games at once (issue 9, scope 5): `hxref status DIR` and `hxref resolve DIR` on a folder of
games against the same work done one game per command.  Not a test: it prints, it never asserts.

    python bench/bench_batch.py [--games 200] [--sample N] [--repeat 3] [--keep DIR]

The folder: --games small solo games (half heartland bidding-demo with both sides' t1 bids in, half
ACW miniatures Mercer's Mill with the Union's t1 orders in), made in-process with the library, so
every game has a decision to resolve.

What is timed, all as subprocesses of the command a user types (interpreter start-up included):

* batch: `hxref status DIR` (best of --repeat), and `hxref resolve DIR` (best of --repeat, each
  run on a fresh copy of the folder; copying is not timed);
* singles, "1 game x N": `hxref status GAME` and `hxref resolve GAME` once per game, one after the
  other, as a shell loop would; the sum is the per-game overhead the batch commands save.
  --sample N times N games spread over both systems and scales the sum to all games (default:
  every game).

Each run works on a fresh copy of the folder at a new path, with the heads this machine has seen
(``$HXREF_HOME``, :mod:`hxref.heads`) kept in a temporary folder: a copy put back where a game
was already resolved would be refused as a rollback (E506), and the user's own record is never
touched.

Target (issue 9): batch under 0.3x the sum of the single runs, on 2 cores.  For reference it also
times the same work in-process: the library calls of the single-game commands in a loop, and
hxref.batch.dashboard / resolve_all.
"""
from __future__ import annotations

import argparse
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hxref import batch
from hxref.engine import Engine
from hxref.game import locked

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games in the folder (default 200)")
    ap.add_argument("--sample", type=int, default=None,
                    help="time the single-game commands on this many games and scale (default: all)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each batch command, best taken (default 3)")
    ap.add_argument("--keep", default=None, help="make the folder here and keep it")
    ap.add_argument("--module", action="store_true",
                    help="run `python -m hxref.cli` instead of the console script (hxref from the current folder)")
    args = ap.parse_args()
    launch = launcher(args.module)
    from hxref import batch_workers

    cores = batch_workers._cores()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HXREF_HOME"] = str(Path(tmp) / "home")       # inherited by every hxref subprocess
        template = Path(args.keep or tmp) / "games"
        work = Path(tmp) / "work"
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
                  f"{probe.stderr.strip()[:200]}); is cli.py wired to hxref.cli_batch? Nothing timed.")
            return 0

        # --- batch: one command for the whole folder
        t_bstatus = min(run([*launch, "status", str(template)]) for _ in range(args.repeat))
        t_bresolve = float("inf")
        for _ in range(args.repeat):
            folder = fresh(template, work)
            t = run([*launch, "resolve", str(folder)])
            t_bresolve = min(t_bresolve, t)
        rows = batch.dashboard(folder)
        assert not any(r.status == "ready" for r in rows), "resolve DIR left a ready game"
        assert all(r.events > 4 for r in rows), "resolve DIR did not resolve every game"

        # --- singles: one command per game
        chosen = pick(games, args.sample)
        scale = len(games) / len(chosen)
        t_sstatus = sum(run([*launch, "status", str(p)]) for p in chosen) * scale
        folder = fresh(template, work)
        t_sresolve = sum(run([*launch, "resolve", str(folder / p.relative_to(template))]) for p in chosen) * scale

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
    how = f"all {n}" if scale == 1 else f"{len(chosen)} of {n}, scaled x{scale:.1f}"
    print(f"\nsingles: each game's command run once ({how}); batch: best of {args.repeat}\n")
    print(f"{'':<50}{'seconds':>9}{'per game':>11}{'ratio':>9}")

    def line(name: str, t: float, ratio: float | None = None) -> None:
        print(f"{name:<50}{t:>9.2f}{t / n * 1000:>8.1f} ms" + (f"{ratio:>8.3f}x" if ratio is not None else ""))

    line("status: hxref status DIR (batch)", t_bstatus, t_bstatus / t_sstatus)
    line(f"status: hxref status GAME x {n} (singles)", t_sstatus)
    line("resolve: hxref resolve DIR (batch)", t_bresolve, t_bresolve / t_sresolve)
    line(f"resolve: hxref resolve GAME x {n} (singles)", t_sresolve)
    both_b, both_s = t_bstatus + t_bresolve, t_sstatus + t_sresolve
    line("status + resolve (batch)", both_b, both_b / both_s)
    line("status + resolve (singles)", both_s)
    print("info, in-process:")
    line("  Engine.load + waiting_for, game after game", t_istatus)
    line("  batch.dashboard(DIR) (headers only)", t_dash)
    line("  lock + load + resolve + save, game after game", t_iresolve)
    line(f"  batch.resolve_all(DIR) ({res.workers} worker processes)", t_all)
    for name, b, s in (("status", t_bstatus, t_sstatus), ("resolve", t_bresolve, t_sresolve),
                       ("status + resolve", both_b, both_s)):
        print(f"target: {name} batch < {TARGET}x the singles -> {b / s:.3f}x ({'met' if b < TARGET * s else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
