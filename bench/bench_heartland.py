"""Resolve the shipped Heartland demo impulse by impulse, as the command line does, and time it.

    python bench/bench_heartland.py

Each step is what `hxref submit` and `hxref resolve` do: load the game file,
check and store the order file, resolve, save.  Printed per impulse: the
total time and its parts -- game file load and save (YAML header + JSON log),
submission checks (YAML order file, signature), and the rules (the system's
resolve and decisions) -- with the targets of the issue: under 0.2 s per
impulse, rules under half of the total.  The parts are disjoint: map and chart
files read inside the rules count as data YAML, not rules.  Not a test: it
prints and exits 0.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hxref import yamlio  # noqa: E402
from hxref.engine import Engine  # noqa: E402
from hxref.game import GameFile  # noqa: E402
from hxref.signing import load_private_key, load_public_key  # noqa: E402

DEMO = ROOT / "orders" / "heartland" / "heartland-demo"


class Clock:
    def __init__(self):
        self.parts: dict[str, float] = {}

    def add(self, name: str, seconds: float) -> None:
        self.parts[name] = self.parts.get(name, 0.0) + seconds


def main() -> None:
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    work = Path(tempfile.mkdtemp(prefix="hxref-bench-"))
    for f in DEMO.glob("*.yaml"):
        shutil.copy(f, work / f.name)
    os.environ["HXREF_NOW"] = man["created"]
    game = work / "game.yaml"
    eng = Engine.create(game, system="heartland", scenario=man["scenario"], mode="umpired",
                        sides={s: load_public_key(DEMO / k) for s, k in man["keys"].items()},
                        umpire=load_public_key(DEMO / man["umpire"]), game_id=man["game_id"], created=man["created"])
    eng.save()
    ump = load_private_key(DEMO / man["umpire_key"])

    # wrap the system's rules, and the reading of data files (map, terrain, charts), so their
    # times are counted apart; data files read inside the rules count as data, not rules
    rules_time = [0.0]
    data_time = [0.0]
    system = eng.system
    for name in ("resolve", "decisions", "check"):
        orig = getattr(type(system), name)

        def timed(self, *a, _orig=orig, **k):
            t, d = time.perf_counter(), data_time[0]
            try:
                return _orig(self, *a, **k)
            finally:
                rules_time[0] += time.perf_counter() - t - (data_time[0] - d)
        setattr(type(system), name, timed)
    import hxref.maps
    import hxref.yamlio

    for mod, name in ((hxref.yamlio, "load_data"), (hxref.yamlio, "load_data_fast"), (hxref.maps, "load_data")):
        orig = getattr(mod, name)

        def timed_data(*a, _orig=orig, **k):
            t = time.perf_counter()
            try:
                return _orig(*a, **k)
            finally:
                data_time[0] += time.perf_counter() - t
        setattr(mod, name, timed_data)

    impulses: list[tuple[str, Clock, float]] = []
    pending: list[str] = []
    for step in man["steps"]:
        if "submit" in step:
            pending += step["submit"]
        if "resolve" not in step:
            continue
        clock = Clock()
        rules_time[0] = 0.0
        data_time[0] = 0.0
        t0 = time.perf_counter()
        decision = ""
        for name in pending + [None]:
            t = time.perf_counter()
            gf = GameFile.load(game)
            eng = Engine(gf)
            clock.add("load", time.perf_counter() - t)
            t = time.perf_counter()
            if name is None:
                decision = eng.awaiting[0].id if eng.awaiting else ""
                eng.resolve(ump)
            else:
                eng.submit((work / name).read_text(), name)
            clock.add("resolve" if name is None else "submit", time.perf_counter() - t)
            t = time.perf_counter()
            eng.save()
            clock.add("save", time.perf_counter() - t)
        total = time.perf_counter() - t0
        clock.add("rules", rules_time[0])
        clock.add("data", data_time[0])
        pending = []
        if ".i" in decision or decision.endswith(".reorg"):
            impulses.append((decision, clock, total))

    print(f"== Heartland demo ({man['scenario']}): {len(impulses)} impulses and reorganization segments, each "
          f"loaded, submitted, resolved and saved as the CLI does")
    print("   game file = the game file's YAML load and save; order files = reading and checking the signed "
          "order files (less the rules' checks);\n   data YAML = reading map, terrain and charts (once per "
          "process: the first step pays it); rules = the system's checks, resolution and decisions")
    cols = ("game file", "order files", "data YAML", "rules", "other")
    print(f"{'decision':16} {'total s':>8} " + " ".join(f"{c:>11}" for c in cols) + f" {'rules %':>8}")
    tot = dict.fromkeys(("total",) + cols, 0.0)
    for dec, c, total in impulses:
        parts = {"game file": c.parts.get("load", 0) + c.parts.get("save", 0), "data YAML": c.parts.get("data", 0),
                 "rules": c.parts.get("rules", 0)}
        parts["order files"] = max(0.0, c.parts.get("submit", 0) + c.parts.get("resolve", 0)
                                   - parts["rules"] - parts["data YAML"] - c.parts.get("resolve", 0))
        parts["other"] = max(0.0, total - sum(parts.values()))
        print(f"{dec:16} {total:8.3f} " + " ".join(f"{parts[k]:11.3f}" for k in cols)
              + f" {100 * parts['rules'] / total:7.0f}%")
        tot["total"] += total
        for k in cols:
            tot[k] += parts[k]
    n = max(1, len(impulses))
    print(f"mean per step: {tot['total'] / n:.3f} s (target < 0.2 s per impulse); "
          + ", ".join(f"{k} {100 * tot[k] / tot['total']:.0f}%" for k in cols) + " (target: rules < 50%)")
    print(f"game file at the end: {game.stat().st_size:,} bytes, {len(GameFile.load(game).log)} events")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
