"""Resolve the shipped Heartland demo impulse by impulse, as the command line does, and time it.

    python bench/bench_heartland.py

Each step is what `hxref submit` and `hxref resolve` do: load the game file,
check and store the order file, resolve, save.  Printed per impulse: the
total time and its parts, each measured directly around the functions that do
it, every part counting only its own time (a part called inside another --
a chart read by the rules -- is taken out of the outer one):

* game file: ``GameFile.load`` + ``Engine(...)`` and ``Engine.save``;
* order files: ``orders.parse`` (ruamel and PyYAML) and the signature checks
  (``signing.sshsig_verify``, ``signing.verify_text``);
* data files: ``maps.load_map`` and ``yamlio.load_data`` / ``load_data_fast``
  (map, terrain and charts); a process reads each once and keeps it, so the
  first step pays it -- on the command line every ``hxref resolve`` does;
* rules: the system's ``check``, ``resolve`` and ``decisions``;
* engine, rest: the remainder of the step (bookkeeping, hashing, the
  engine's own checks), total less the parts above.

The targets: under 0.1 s per impulse (it was 0.2 s before the game file was read
lazily), rules under half of the total.  In-process: interpreter start-up and imports (0.1-0.15 s a command)
are not included.  Each impulse is played once (the game moves on), so the
figures are single runs; the summary gives the mean and the median over the
impulses.  Not a test: it prints and exits 0.
"""
from __future__ import annotations

import contextlib
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hxref.base import yamlio  # noqa: E402
from hxref.referee.engine import Engine  # noqa: E402
from hxref.gamefile.game import GameFile  # noqa: E402
from hxref.crypto.signing import load_private_key  # noqa: E402

DEMO = ROOT / "orders" / "heartland" / "heartland-demo"


class Parts:
    """Exclusive time per part: a timed call inside another timed call counts for its own part only."""

    def __init__(self) -> None:
        self.parts: dict[str, float] = {}
        self._stack: list[list[float]] = []        # per open call: [start, time of nested timed calls]

    def wrap(self, part: str, fn):
        def timed(*a, **k):
            self._stack.append([time.perf_counter(), 0.0])
            try:
                return fn(*a, **k)
            finally:
                start, inner = self._stack.pop()
                spent = time.perf_counter() - start
                self.parts[part] = self.parts.get(part, 0.0) + spent - inner
                if self._stack:
                    self._stack[-1][1] += spent
        return timed

    def patch(self, owner, name: str, part: str) -> None:
        setattr(owner, name, self.wrap(part, getattr(owner, name)))


def main() -> None:
    man = yamlio.to_plain(yamlio.load_data(DEMO / "demo.yaml"))
    work = Path(tempfile.mkdtemp(prefix="hxref-bench-"))
    for f in DEMO.glob("*.yaml"):
        shutil.copy(f, work / f.name)
    os.environ["HXREF_NOW"] = man["created"]
    game = work / "game.yaml"
    # the game as `hxref demo` makes it (`hxref new` with the manifest's nonce, pinned charts and policy),
    # so the demo's signed files are for this game
    from hxref.cli import main as cli_main
    from hxref.cli.demo import _new_args

    shutil.copytree(DEMO / "keys", work / "keys")
    here = Path.cwd()
    os.chdir(work)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            cli_main.main(_new_args(man), prog_name="hxref", standalone_mode=False)
    finally:
        os.chdir(here)
    eng = Engine(GameFile.load(game))
    ump = load_private_key(DEMO / man["umpire_key"])

    timer = Parts()
    import hxref.geometry.mapfile
    import hxref.referee.orders
    import hxref.crypto.signing
    import hxref.base.yamlio

    # the parts, measured where they happen (module attributes: the engine looks them up per call)
    system = type(getattr(eng.system, "unpinned", eng.system))      # the rules behind the game's pinned charts
    for name in ("resolve", "decisions", "check"):
        timer.patch(system, name, "rules")
    timer.patch(hxref.referee.orders, "parse", "order files")
    timer.patch(hxref.crypto.signing, "sshsig_verify", "order files")
    timer.patch(hxref.crypto.signing, "verify_text", "order files")
    timer.patch(hxref.geometry.mapfile, "load_map", "data files")
    timer.patch(hxref.base.yamlio, "load_data", "data files")
    timer.patch(hxref.base.yamlio, "load_data_fast", "data files")
    load = timer.wrap("game file", lambda path: Engine(GameFile.load(path)))
    save = timer.wrap("game file", lambda e: e.save())

    impulses: list[tuple[str, dict[str, float], float]] = []
    pending: list[str] = []
    for step in man["steps"]:
        if "submit" in step:
            pending += step["submit"]
        if "resolve" not in step:
            continue
        timer.parts = {}
        t0 = time.perf_counter()
        decision = ""
        for name in pending + [None]:
            eng = load(game)
            if name is None:
                decision = eng.awaiting[0].id if eng.awaiting else ""
                eng.resolve(ump)
            else:
                eng.submit((work / name).read_text(), name)
            save(eng)
        total = time.perf_counter() - t0
        pending = []
        if ".i" in decision or decision.endswith(".reorg"):
            impulses.append((decision, dict(timer.parts), total))

    cols = ("game file", "order files", "data files", "rules", "engine, rest")
    print(f"== Heartland demo ({man['scenario']}): {len(impulses)} impulses and reorganization segments, each "
          f"loaded, submitted, resolved and saved as the CLI does, in one process")
    print("compared: each part timed directly around its functions, exclusive of nested parts; "
          "'engine, rest' = total less the parts; one run per impulse (the game moves on), "
          "mean and median over the impulses")
    print(f"{'decision':16} {'total s':>8} " + " ".join(f"{c:>12}" for c in cols) + f" {'rules %':>8}")
    tot = dict.fromkeys(("total",) + cols, 0.0)
    totals = []
    for dec, parts, total in impulses:
        parts = {k: parts.get(k, 0.0) for k in cols}
        parts["engine, rest"] = total - sum(parts.values())
        print(f"{dec:16} {total:8.3f} " + " ".join(f"{parts[k]:12.3f}" for k in cols)
              + f" {100 * parts['rules'] / total:7.0f}%")
        tot["total"] += total
        totals.append(total)
        for k in cols:
            tot[k] += parts[k]
    n = max(1, len(impulses))
    print(f"mean per step: {tot['total'] / n:.3f} s, median {statistics.median(totals or [0]):.3f} s "
          f"(target < 0.1 s per impulse); "
          + ", ".join(f"{k} {100 * tot[k] / tot['total']:.0f}%" for k in cols) + " (target: rules < 50%)")
    print(f"game file at the end: {game.stat().st_size:,} bytes, {len(GameFile.load(game).log)} events")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
