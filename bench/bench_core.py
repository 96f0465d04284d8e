#!/usr/bin/env python
"""Core benchmarks of hxref (design sections 3, 5 and 10).  Not a test: it prints, it never asserts.

    python bench/bench_core.py [--events 2000] [--profile] [--keep DIR]

1. audit: generates a heartland game of about --events log events (two keys,
   an open game on a long scenario, commit/reveal bids and level declarations
   turn after turn, written in-process with the library as `hxref commit` and
   `hxref answer` would), then times `hxref.audit.audit` in-process and
   `hxref audit GAME` as a subprocess against the floor: reading the file,
   parsing it (header with the package's YAML reader, log lines with
   json.loads) and verifying every stored signature with `cryptography`
   directly.  Target: audit < 2x the floor.
2. start-up: `hxref --version` against `python -c "import click"`.
   Target: < 3x.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hxref import commit as commit_mod
from hxref import orders, signing, yamlio
from hxref.audit import audit
from hxref.engine import Engine
from hxref.game import LOG_MARKER, event_hash

SIDES = ("union", "confederate")
MAXIMUM = {"union": 4, "confederate": 5}


def best_of(n: int, fn):
    """(best seconds, last result) of ``n`` calls of ``fn``."""
    best, result = float("inf"), None
    for _ in range(n):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def scenario_text(turns: int) -> str:
    calendar = "\n".join(f"  - {{turn: {t}, year: {1862 + (t + 2) // 12}, month: {(t + 2) % 12 + 1}}}"
                         for t in range(1, turns + 1))
    return ("name: bench-long\ntitle: \"benchmark: a long run of bidding turns\"\nsides: [union, confederate]\n"
            f"maximum: {{union: {MAXIMUM['union']}, confederate: {MAXIMUM['confederate']}}}\n"
            "wep: {union: 100000, confederate: 100000}\nleaders: {union: 8, confederate: 6}\n"
            f"impulse_level_limit: null\ncalendar:\n{calendar}\n")


def pick_bids(rng: random.Random, counts: dict, rebid: bool) -> dict:
    """Bids that make every outcome happen: ties (re-bids are tied more often, so that
    third ties occur), wins, full bids, monopolies, low bids against a pass, both passing."""
    what = rng.choices(["tie", "win", "full", "monopoly", "low", "pass"],
                       weights=[8 if rebid else 4, 4, 2, 2, 1, 1])[0]
    counts[what] = counts.get(what, 0) + 1
    a, b = rng.sample(SIDES, 2)
    if what == "tie":
        n = rng.randint(1, MAXIMUM["union"])
        return {"union": n, "confederate": n}
    if what == "pass":
        return {"union": 0, "confederate": 0}
    if what == "low":
        return {a: 0, b: rng.randint(1, -(-MAXIMUM[b] // 2))}
    if what == "monopoly":
        return {a: 0, b: rng.randint(-(-MAXIMUM[b] // 2) + 1, MAXIMUM[b])}
    if what == "full":
        return {a: MAXIMUM[a], b: rng.randint(1, min(MAXIMUM[a] - 1, MAXIMUM[b]))}
    x, y = rng.sample(range(1, MAXIMUM["union"]), 2)
    return {a: x, b: y}


def signed(eng: Engine, side: str, key, fields: dict, comment: str) -> str:
    """What cli._sign_and_write writes: the envelope and the fields, rendered and signed."""
    head = eng.envelope(side, fields.pop("decision"), fields.pop("kind"))
    return signing.sign_text(orders.render({**head, **fields}, comment), key)


def own_link(eng: Engine, side: str, key, dec) -> dict:
    """The side's bound link where the decision takes it in the side's own file (cli._own_link)."""
    if side in eng.dice_parties(dec) and eng.links_in_answers(dec):
        return {"link": eng.next_link(side, key, dec)}
    return {}


def generate(folder: Path, target: int, seed: int = 1) -> tuple[Path, dict]:
    """A game of at least ``target`` events, written with the library (no subprocesses)."""
    rng = random.Random(seed)
    keys = {s: signing.generate_key(folder / s, comment=f"bench {s}") for s in SIDES}
    scen = folder / "long.yaml"
    # about 17 events a turn: the calendar ends near the target, so the state (which keeps
    # the calendar and every past turn) is as large as a real game of that length
    scen.write_text(scenario_text(max(10, round(target / 17))))
    path = folder / "game.yaml"
    eng = Engine.create(path, system="heartland", scenario=str(scen), mode="open",
                        sides={s: k.public for s, k in keys.items()}, game_id="bench-long")
    for s in SIDES:
        eng.submit(signed(eng, s, keys[s], {"decision": "join", "kind": "join", "tip": eng.tip_for(keys[s])},
                          f"join of {s}"), f"{s}-join.yaml")
    counts: dict = {"bids": {}, "level": 0, "outcomes": {}}
    while len(eng.gf.log) < target and not eng.finished:
        dec = eng.awaiting[0]
        if dec.kind == "bid":
            reveals = []
            for side, bid in pick_bids(rng, counts["bids"], ".r" in dec.id).items():
                # as `hxref commit`: both files are written at once, before either is submitted
                choice, salt, key = {"bid": bid}, commit_mod.new_salt(), keys[side]
                commit_text = signed(eng, side, key, {"decision": dec.id, "kind": "commit",
                                                      "commitment": commit_mod.commitment(choice, salt, (eng.identity, dec.id, side))},
                                     f"commitment of {side} for {dec.id}")
                reveals.append(signed(eng, side, key, {"decision": dec.id, "kind": "reveal",
                                                       **own_link(eng, side, key, dec),
                                                       "choice": choice, "salt": salt},
                                      f"reveal of {side} for {dec.id}"))
                eng.submit(commit_text, f"{side}-{dec.id}-commit.yaml")
            for text in reveals:
                eng.submit(text, "reveal.yaml")
        else:
            side = dec.sides[0]
            level = rng.randint(1, eng.state["current"]["remaining"][side])
            eng.submit(signed(eng, side, keys[side], {"decision": dec.id, "kind": "answer",
                                                      **own_link(eng, side, keys[side], dec),
                                                      "choice": {"level": level}},
                              f"answer of {side} for {dec.id}"), f"{side}-{dec.id}.yaml")
            counts["level"] += 1
        eng.resolve()
    eng.save()
    for ev in eng.gf.log:
        if ev["kind"] == "rules" and ev["data"].get("type") in ("initiative", "no.activity", "bid.tied"):
            o = ev["data"].get("outcome") or ev["data"]["type"]
            counts["outcomes"][o] = counts["outcomes"].get(o, 0) + 1
    counts["turn"], counts["over"] = eng.state["turn"], eng.finished
    return path, counts


def extract_signatures(path: Path) -> list[tuple[bytes, bytes, bytes]]:
    """(public key, signature, SSHSIG signed data) of every stored submission; not timed."""
    out = []
    for ev in _parse(path)[1]:
        if ev["kind"] != "submission":
            continue
        body, armored = signing.split_signed_text(ev["data"]["file"])
        lines = armored.strip().split("\n")
        r = signing._Reader(signing._b64decode("".join(lines[1:-1])))
        r.raw(6), r.uint32()
        key_blob, ns, _reserved, alg = r.string(), r.string(), r.string(), r.string()
        s = signing._Reader(r.string())
        s.string()
        out.append((signing.PublicKey.from_blob(key_blob).raw, s.string(),
                    signing._signed_data(ns, alg.decode(), body.encode("utf-8"))))
    return out


def _parse(path: Path) -> tuple[dict, list[dict]]:
    text = Path(path).read_text(encoding="utf-8")
    head, _, log_text = text.partition("\n" + LOG_MARKER + "\n")
    return yamlio.fast_load(head), [json.loads(line[2:]) for line in log_text.splitlines() if line]


def floor(path: Path, sigs: list) -> int:
    """Read + parse the game file, verify every signature with cryptography directly."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    _parse(path)
    keys: dict = {}
    for raw, sig, data in sigs:
        if raw not in keys:
            keys[raw] = Ed25519PublicKey.from_public_bytes(raw)
        keys[raw].verify(sig, data)  # raises InvalidSignature
    return len(sigs)


def hash_chain(path: Path) -> int:
    log = _parse(path)[1]
    return sum(event_hash(ev) == ev["hash"] for ev in log)


def launcher() -> tuple[list[str], str]:
    script = Path(sys.executable).parent / "hxref"
    if script.exists():
        return [str(script)], f"the console script {script}"
    return [sys.executable, "-m", "hxref.cli"], f"{sys.executable} -m hxref.cli"


def run_times(cmd: list[str], n: int) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t0)
    return times


def main() -> int:
    # this machine's record of game heads (hxref.heads) stays the user's own
    os.environ["HXREF_HOME"] = tempfile.mkdtemp(prefix="hxref-bench-home-")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=2000, help="log events to generate (default 2000)")
    ap.add_argument("--profile", action="store_true", help="cProfile the in-process audit (top 15)")
    ap.add_argument("--keep", default=None, help="generate the game in this folder and keep it")
    args = ap.parse_args()
    launch, launch_desc = launcher()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"== audit of a generated game (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
        t0 = time.perf_counter()
        path, counts = generate(folder, args.events)
        gen = time.perf_counter() - t0
        log = _parse(path)[1]
        print(f"generated {path} in {gen:.2f} s: {len(log)} events, {path.stat().st_size / 1024:.0f} KiB, "
              f"up to turn {counts['turn']}{' (game over)' if counts['over'] else ''}")
        print(f"  bid patterns {counts['bids']}, level answers {counts['level']}")
        print(f"  outcomes {counts['outcomes']}")

        t_audit, res = best_of(3, lambda: audit(path))
        print(f"audit result: {'OK' if res.ok else 'FAILED ' + '; '.join(res.problems)} "
              f"({res.signatures} signatures, {res.commitments} commitments, {res.dice} dice)")
        cli_times = run_times([*launch, "audit", str(path)], 3)
        sigs = extract_signatures(path)
        t_floor, verified = best_of(3, lambda: floor(path, sigs))
        t_chain, _ = best_of(3, lambda: hash_chain(path))

        rows = [("audit, in-process (hxref.audit.audit)", t_audit),
                ("audit, CLI subprocess (hxref audit GAME)", min(cli_times)),
                ("floor: read + parse + Ed25519 verify", t_floor),
                ("info: read + parse + re-hash the chain", t_chain)]
        print(f"\n{'best of 3':<44}{'seconds':>9}{'x floor':>9}")
        for name, t in rows:
            print(f"{name:<44}{t:>9.3f}{t / t_floor:>8.1f}x")
        print(f"signatures verified by the floor: {verified}; target: audit < 2.0x floor -> "
              f"in-process {t_audit / t_floor:.1f}x ({'met' if t_audit < 2 * t_floor else 'MISSED'}), "
              f"CLI {min(cli_times) / t_floor:.1f}x ({'met' if min(cli_times) < 2 * t_floor else 'MISSED'})")

        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(audit, path)
            for key in ("tottime", "cumulative"):
                print(f"\n== profile of one in-process audit, top 15 by {key}")
                pstats.Stats(prof, stream=sys.stdout).strip_dirs().sort_stats(key).print_stats(15)

    print(f"\n== start-up (10 runs each; hxref run as {launch_desc})")
    version = run_times([*launch, "--version"], 10)
    click_t = run_times([sys.executable, "-c", "import click"], 10)
    print(f"{'':<34}{'median':>9}{'best':>9}")
    for name, ts in (("hxref --version", version), ('python -c "import click"', click_t)):
        print(f"{name:<34}{statistics.median(ts):>9.3f}{min(ts):>9.3f}")
    ratio = statistics.median(version) / statistics.median(click_t)
    print(f"ratio (medians): {ratio:.2f}x; target < 3x -> {'met' if ratio < 3 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
