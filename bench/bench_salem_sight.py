#!/usr/bin/env python
"""Salem Church line of sight in umpired play: the old sight computation against the new one, on
the same reports of the shipped demo's end position.  Not a test: it prints, it never asserts.

    python bench/bench_salem_sight.py [--rounds 7] [--cache DIR]

The game: the shipped Salem Church demo (``hxref demo --system salem-church``), played once into
--cache (default /tmp/hxref-bench-salem) and reused when its game.yaml is there.

Compared, in one process, interleaved round by round (old, new, old, new, ...), medians:

* **old**: which enemy units a side sees, as hxref computed it before: every hex of the map tested
  from every observer (``views.visible_hexes``: 336 hexes x 7-10 observers, a line of sight each),
  for every report;
* **new, first report**: ``views.seen_units`` today -- only the hexes enemy units are in, each line
  of sight worked out once per map -- with its per-map memo emptied before each run: what one
  ``hxref report`` process pays;
* **new, next report**: the same with the memo kept (``outbox``, or ``--format html`` which builds
  the view again for the map, in the same process).

Each is timed three ways for the union, the confederate and the public report: the sight alone
(the units seen), the side's view (``system.view``), and the whole in-process report build
(``hxref.report.turn.build``, which also reads the game's header, scenario and story).  The
answers are checked equal before anything is timed.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from hxref.referee.engine import Engine
from hxref.report import turn
from hxref.systems.salem_church import views as vw
from hxref.systems.salem_church.board import hexmap

READERS: tuple[str | None, ...] = ("union", "confederate", None)
TARGET = 0.03        # seconds: a side's report build, the aim for the sight fix


def demo_game(cache: Path) -> Path:
    """The shipped demo's end position, played once into ``cache``."""
    game = cache / "game.yaml"
    if game.is_file():
        return game
    if cache.exists():
        shutil.rmtree(cache)
    cli = Path(sys.executable).parent / "hxref"
    cmd = [str(cli)] if cli.exists() else [sys.executable, "-m", "hxref.cli"]
    print(f"playing the shipped Salem Church demo into {cache} (about a minute, once) ...", flush=True)
    subprocess.run(cmd + ["demo", "--system", "salem-church", "--keep", str(cache), "--format", "text"],
                   check=True, stdout=subprocess.DEVNULL)
    return game


def old_seen_units(state: Any, hm: Any, side: str, *, contact: bool = True) -> set[str]:
    """The old computation: the enemy units on the map in a hex :func:`views.visible_hexes` holds."""
    vis = vw.visible_hexes(state, hm, side, contact=contact)
    return {uid for uid, u in state.get("units", {}).items()
            if u.get("side") == vw._other(side) and vw._on_map(u) and str(u["hex"]) in vis}


NEW_SEEN_UNITS = vw.seen_units


@contextmanager
def computing(how: str, hm: Any) -> Iterator[None]:
    """Views and reports built with the ``how`` sight: "old", "new-first" (memo emptied), "new-next"."""
    if how == "new-first":
        vw._SIGHT.pop(id(hm), None)
    vw.seen_units = old_seen_units if how == "old" else NEW_SEEN_UNITS
    try:
        yield
    finally:
        vw.seen_units = NEW_SEEN_UNITS


def sight(state: Any, hm: Any, reader: str | None) -> set[str]:
    if reader is None:
        return vw.seen_units(state, hm, "union") | vw.seen_units(state, hm, "confederate")
    return vw.seen_units(state, hm, reader)


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/hxref-bench-salem"))
    args = ap.parse_args()
    eng = Engine.load(demo_game(args.cache))
    state, mode = eng.h["state"], eng.h["meta"]["mode"]
    hm = hexmap(eng.system.charts, state)
    print(f"game: {args.cache / 'game.yaml'}: {len(eng.gf.log)} events, mode {mode}, turn {state.get('turn')}, "
          f"{len(hm.hexes())} hexes; observers union {len(vw.observers(state, 'union'))}, "
          f"confederate {len(vw.observers(state, 'confederate'))}")
    for reader in READERS:           # the same answers, before anything is timed
        answers = {}
        for how in ("old", "new-first", "new-next"):
            with computing(how, hm):
                answers[how] = (sight(state, hm, reader), eng.system.view(state, reader, mode))
        assert answers["old"] == answers["new-first"] == answers["new-next"], reader
    print("answers: the units seen and the whole view are equal, old and new, for every reader")

    hows = ("old", "new-first", "new-next")
    what: dict[str, Callable[[str | None], Callable[[], Any]]] = {
        "sight": lambda r: lambda: sight(state, hm, r),
        "view": lambda r: lambda: eng.system.view(state, r, mode),
        "report build": lambda r: lambda: turn.build(eng, r),
    }
    times: dict[tuple, list[float]] = {}
    for _ in range(args.rounds):
        for reader in READERS:
            for part, make in what.items():
                for how in hows:
                    with computing(how, hm):
                        times.setdefault((reader, part, how), []).append(timed(make(reader)))
    med = {k: statistics.median(v) for k, v in times.items()}

    print(f"\nseconds, median of {args.rounds} interleaved rounds (in-process; old = every hex from every observer, "
          "new = enemy-held hexes only, memoised per map)")
    print(f"{'reader':<12} {'what':<13} {'old':>8} {'new 1st':>8} {'new next':>9} {'old/new 1st':>12} {'old/new next':>13}")
    for reader in READERS:
        for part in what:
            o, f, n = (med[(reader, part, h)] for h in hows)
            print(f"{reader or 'public':<12} {part:<13} {o:8.4f} {f:8.4f} {n:9.4f} {o / f:11.1f}x {o / n:12.1f}x")
    sides = [med[(s, "report build", "new-first")] for s in ("union", "confederate")]
    views = [med[(s, "view", "new-first")] for s in ("union", "confederate")]
    print(f"\nper side report (new, first report in a process): view {max(views):.4f} s, "
          f"whole report build {max(sides):.4f} s (target {TARGET} s for the report build)")
    rest = max(med[(s, "report build", "new-first")] - med[(s, "view", "new-first")] for s in ("union", "confederate"))
    print(f"of the report build, {rest:.4f} s is outside the view (header, scenario check, story): not sight")
    return 0


if __name__ == "__main__":
    sys.exit(main())
