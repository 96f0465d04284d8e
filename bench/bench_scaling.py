#!/usr/bin/env python
"""How hxref's commands scale with the length of a game.  Not a test: it prints, it never asserts.

    python bench/bench_scaling.py [--sizes 100,1000,5000,20000] [--rounds 5] [--cache DIR]

The games: open heartland games with two Ed25519 keys, written by bench_core's generator
(commit/reveal bids and level answers turn after turn, every file signed and checked), of about
each --sizes events; each is then played on to the next level answer, which is signed and left in
``next.yaml``, not submitted.  They are built once into --cache (default /tmp/hxref-bench-scaling,
one folder per size) and reused when there (the 20,000-event game takes several minutes to build).

Timed, as whole processes of the installed ``hxref`` (CPU = user + sys of the process and the
children it waited for, from ``os.wait4``; and wall), in interleaved rounds (every command of every
size once per round), medians:

* submit+resolve: ``hxref submit GAME next.yaml`` then ``hxref resolve GAME``, on a fresh copy of
  the game each round (the two processes summed), which an untimed ``hxref status`` opens first:
  the machine that keeps a game has proved its file (or written it), and believes it as it is;
* first sight: ``hxref submit GAME next.yaml`` alone, on a fresh copy no command has opened: it
  proves the file by the audit's replay of its whole log (``Engine.load``), as for a game file
  that just arrived;
* status: ``hxref status GAME``;
* report: ``hxref report GAME --side union --format text``;
* audit: ``hxref audit GAME`` (every hash, signature and commitment, and a replay), also per event.

The last line gives, for each command, the largest size's figure over the smallest's (CPU; for the
audit, CPU per event): 1.00x would be a command that does not grow with the game at all.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_core import SIDES, generate, launcher, own_link, pick_bids, signed

from hxref.crypto import commit as commit_mod
from hxref.crypto import signing
from hxref.referee.engine import Engine
from hxref.gamefile.game import GameFile

COMMANDS = ("submit+resolve", "status", "report", "audit", "first sight")


# --- the games ---------------------------------------------------------------------------------

def play_bid(eng: Engine, keys: dict, rng: random.Random, dec) -> None:
    """One sealed bid, as bench_core.generate plays it: both commitments, then both reveals."""
    reveals = []
    for side, bid in pick_bids(rng, {}, ".r" in dec.id).items():
        choice, salt, key = {"bid": bid}, commit_mod.new_salt(), keys[side]
        commitment = commit_mod.commitment(choice, salt, (eng.identity, dec.id, side))
        text = signed(eng, side, key, {"decision": dec.id, "kind": "commit", "commitment": commitment},
                      f"commitment of {side} for {dec.id}")
        reveals.append(signed(eng, side, key, {"decision": dec.id, "kind": "reveal", **own_link(eng, side, key, dec),
                                               "choice": choice, "salt": salt}, f"reveal of {side} for {dec.id}"))
        eng.submit(text, f"{side}-{dec.id}-commit.yaml")
    for text in reveals:
        eng.submit(text, "reveal.yaml")


def build(folder: Path, size: int) -> Path:
    """A game of about ``size`` events in ``folder``, stopped at a level answer, its signed answer in
    ``next.yaml``; reused when ``folder`` holds one."""
    game, answer = folder / "game.yaml", folder / "next.yaml"
    if game.is_file() and answer.is_file():
        gf = GameFile.load(game)
        if gf.dump_bytes() != game.read_bytes():       # kept from an earlier hxref: today's format, once
            gf.save()
        return game
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    t0 = time.perf_counter()
    print(f"building a game of about {size} events in {folder} ...", flush=True)
    generate(folder, size)
    keys = {s: signing.load_private_key(folder / s) for s in SIDES}
    eng = Engine.load(game)
    rng = random.Random(size)
    while not eng.finished and eng.awaiting[0].kind == "bid":
        play_bid(eng, keys, rng, eng.awaiting[0])
        eng.resolve()
    if eng.finished:
        raise SystemExit(f"the game of {size} events ended before a level answer: pick another size")
    eng.save()
    dec = eng.awaiting[0]
    side = dec.sides[0]
    level = rng.randint(1, eng.state["current"]["remaining"][side])
    answer.write_text(signed(eng, side, keys[side], {"decision": dec.id, "kind": "answer",
                                                    **own_link(eng, side, keys[side], dec),
                                                    "choice": {"level": level}}, f"answer of {side} for {dec.id}"))
    print(f"  {len(eng.gf.log)} events, {dec.id} awaited, built in {time.perf_counter() - t0:.0f} s", flush=True)
    return game


# --- timing whole processes ---------------------------------------------------------------------

def run(cmd: list[str]) -> tuple[float, float]:
    """(CPU s, wall s) of one process: user + sys of it and its waited-for children.  (Not its peak
    RSS: Linux carries the forking bench's own high-water mark across the exec.)"""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.stderr is not None
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stderr.close()
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}: {err.decode(errors='replace')[-400:]}")
    return ru.ru_utime + ru.ru_stime, wall


def timed(hx: list[str], command: str, game: Path, scratch: Path) -> tuple[float, float]:
    if command in ("submit+resolve", "first sight"):
        # a fresh copy at a path of its own: the machine's kept heads (HXREF_HOME) refuse a game
        # put back in place of a longer one.  A copy is a file this machine has not proved, so the
        # first command to open it replays its whole log (Engine.load): "first sight" times that
        # submit alone; for submit+resolve the copy is first opened by an untimed `hxref status`,
        # as the machine that keeps a game has always proved or written its file
        work = Path(tempfile.mkdtemp(prefix="copy-", dir=scratch))
        shutil.copytree(game.parent, work, ignore=shutil.ignore_patterns("*.lock"), dirs_exist_ok=True)
        if command == "submit+resolve":
            run(hx + ["status", str(work / "game.yaml")])
        a = run(hx + ["submit", str(work / "game.yaml"), str(work / "next.yaml")])
        b = run(hx + ["resolve", str(work / "game.yaml")]) if command == "submit+resolve" else (0.0, 0.0)
        shutil.rmtree(work)
        return a[0] + b[0], a[1] + b[1]
    args = {"status": ["status", str(game)], "report": ["report", str(game), "--side", "union", "--format", "text"],
            "audit": ["audit", str(game)]}[command]
    return run(hx + args)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,1000,5000,20000", help="game lengths in events, comma-separated")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/hxref-bench-scaling"))
    args = ap.parse_args()
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    except ValueError:
        ap.error(f"--sizes {args.sizes!r}: whole numbers separated by commas, such as 100,1000")
    if len(sizes) < 2 or sizes[0] < 20 or args.rounds < 1:
        ap.error("--sizes needs two sizes of 20 events or more, and --rounds 1 or more")
    games = {n: build(args.cache / f"n{n}", n) for n in sizes}
    events = {n: len(Engine.load(g).gf.log) for n, g in games.items()}
    hx, how = launcher()
    print(f"\nhxref: {how}; {args.rounds} interleaved rounds; CPU = user+sys (os.wait4, children included)")
    print("compared: the same commands on games of " + ", ".join(f"{events[n]:,} events ({games[n].stat().st_size / 1e6:.2f} MB)"
                                                           for n in sizes))
    samples: dict[tuple[int, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="hxref-scaling-") as tmp:
        os.environ["HXREF_HOME"] = str(Path(tmp) / "home")     # the commands' kept heads: this run's own
        for r in range(args.rounds):
            for n in sizes:
                for command in COMMANDS:
                    samples.setdefault((n, command), []).append(timed(hx, command, games[n], Path(tmp)))
            print(f"  round {r + 1}/{args.rounds} done", flush=True)

    def med(n: int, command: str, i: int) -> float:
        return statistics.median(s[i] for s in samples[(n, command)])

    print(f"\n{'events':>8} | " + " | ".join(f"{c:>22}" for c in COMMANDS) + " | audit CPU/event")
    print(f"{'':>8} | " + " | ".join(f"{'CPU s / wall s':>22}" for _ in COMMANDS) + " |")
    for n in sizes:
        cells = [f"{med(n, c, 0):7.3f} / {med(n, c, 1):7.3f}" for c in COMMANDS]
        print(f"{events[n]:>8,} | " + " | ".join(f"{x:>22}" for x in cells) + f" | {med(n, 'audit', 0) / events[n] * 1e6:7.1f} us")
    for a, b in zip(sizes, sizes[1:]):      # step by step: a step's CPU ratio above its events ratio grows faster than linear
        print(f"CPU {b} over {a} ({events[b] / events[a]:.1f}x the events): "
              + ", ".join(f"{c} {med(b, c, 0) / med(a, c, 0):.2f}x" for c in COMMANDS))
    lo, hi = sizes[0], sizes[-1]
    ratio = {c: med(hi, c, 0) / med(lo, c, 0) for c in COMMANDS}
    per_event = (med(hi, "audit", 0) / events[hi]) / (med(lo, "audit", 0) / events[lo])
    wall = {c: med(hi, c, 1) / med(lo, c, 1) for c in COMMANDS}
    print("wall ratios: " + ", ".join(f"{c} {wall[c]:.2f}x" for c in COMMANDS))
    print(f"first sight (a submit on a copy no command opened, proved by the replay of its log): "
          f"{ratio['first sight']:.2f}x")
    print(f"scaling: {hi} vs {lo} events: submit+resolve {ratio['submit+resolve']:.2f}x, status {ratio['status']:.2f}x, "
          f"report {ratio['report']:.2f}x, audit per event {per_event:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
