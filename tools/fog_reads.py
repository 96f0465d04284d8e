"""Which Heartland rules tell a side something that depends on the enemy's hidden army: the table of
what :mod:`tests.heartland.fog_probe` finds in random games.

    python tools/fog_reads.py                                   # every scenario with a map, seeds 1-3
    python tools/fog_reads.py --scenario river-line --decisions 40 --seed 7

The shipped demo game (orders/heartland/heartland-demo) is replayed and probed too (``--no-demo``:
not).  For each decision of each game, each side's hidden facts (steps, ML, AP, ASP, artillery, WEP,
replacement steps, a unit's box) are changed one at a time where the other side's umpired view does
not show the change; the decision is resolved again with the same answers and dice, and what the
other side is told is compared.  The table groups what differed by decision kind and rule: the rule
of the first event that differed, ``die <purpose>`` for a die, ``view <path>`` for the view alone,
``check(<side>)`` when that side's answer is refused on the changed state.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# the heads and keys this run writes stay apart from the user's own (hxref.base.home)
os.environ.setdefault("HXREF_HOME", tempfile.mkdtemp(prefix="hxref-fog-home-"))

from tests.heartland import fog_probe  # noqa: E402


def table(tally: fog_probe.Tally) -> list[str]:
    """The findings grouped by decision kind, rule and category: how many, of which facts, one example."""
    groups: dict[tuple[str, str, str], list[fog_probe.Finding]] = defaultdict(list)
    for f in tally.findings:
        groups[(f.decision, f.category, f.rule)].append(f)
    out = [f"{'decision':<16} {'category':<16} {'rule':<40} {'n':>5}  facts (side: kind n)",
           "-" * 116]
    for (decision, cat, rule), found in sorted(groups.items()):
        facts = Counter(f"{f.side[0]}:{f.fact}" for f in found)
        out.append(f"{decision:<16} {cat:<16} {rule[:40]:<40} {len(found):>5}  "
                   + ", ".join(f"{k} {n}" for k, n in sorted(facts.items())))
        out.append(f"{'':<16}   e.g. {found[0].example[:300]}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", action="append", help="a scenario with a map (default: every one)")
    ap.add_argument("--decisions", type=int, default=60, help="decisions played per game (default 60)")
    ap.add_argument("--seed", type=int, action="append", help="a seed of the random players (default 1, 2, 3)")
    ap.add_argument("--no-demo", action="store_true", help="leave out the shipped demo game (replayed by default)")
    args = ap.parse_args(argv)
    scenarios = args.scenario or fog_probe.scenarios_with_map()
    seeds = args.seed or [1, 2, 3]
    total = fog_probe.Tally()
    start = time.perf_counter()
    for scenario in scenarios:
        for seed in seeds:
            t = time.perf_counter()
            tally = fog_probe.play(scenario, seed, args.decisions)
            print(f"{scenario} seed {seed}: {tally.decisions} decisions, {tally.made} perturbations, "
                  f"{len(tally.findings)} findings ({time.perf_counter() - t:.1f} s)", file=sys.stderr)
            total.add(tally)
    if not args.no_demo:
        t = time.perf_counter()
        with tempfile.TemporaryDirectory() as work:
            tally = fog_probe.replay_demo(Path(work))
        print(f"the shipped demo: {tally.decisions} decisions, {tally.made} perturbations, "
              f"{len(tally.findings)} findings ({time.perf_counter() - t:.1f} s)", file=sys.stderr)
        total.add(tally)
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(total.kinds.items()))
    print(f"scenarios {', '.join(scenarios)}; seeds {', '.join(map(str, seeds))}; up to {args.decisions} "
          f"decisions a game" + ("" if args.no_demo else "; and the shipped demo game")
          + f"; {time.perf_counter() - start:.0f} s")
    print(f"decisions probed: {total.decisions} ({kinds})")
    print(f"perturbations made: {total.made}; changed the other side's umpired view (dropped): {total.visible}; "
          f"kept: {total.kept}; of those refused by check: {total.refused}")
    for stuck in total.stuck:
        print(f"a game ended early: {stuck}")
    print("dropped, by fact: " + ", ".join(f"{k} {n}" for k, n in sorted(total.shown.items())))
    print()
    print("\n".join(table(total)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
