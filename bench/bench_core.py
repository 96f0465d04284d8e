#!/usr/bin/env python
"""Core benchmarks of hxref (design sections 3, 5 and 10).  Not a test: it prints, it never asserts.

    python bench/bench_core.py [--events 2000] [--profile] [--keep DIR]

1. audit: generates a heartland game of about --events log events (two keys,
   an open game on a long scenario, commit/reveal bids and level declarations
   turn after turn, written in-process with the library as `hxref commit` and
   `hxref answer` would), then times `hxref.referee.audit.audit` in-process and
   `hxref audit GAME` as a subprocess against the floor: what any audit must
   do at least -- recompute every event's hash (and check the chain links)
   and verify every stored signature with `cryptography` directly, on events
   already parsed and signatures already extracted, nothing else.  The audit
   is run with 1 worker process, like the floor; the CLI, which has no worker
   option, uses its default (2 workers from 200 stored files) and is shown
   for information.  Target: audit < 2x the floor.
2. start-up: `hxref --version`, `hxref status GAME` and `hxref status --json GAME` against
   `python -c "import click"` (CPU of whole processes).
   Target: < 3x.

Every comparison is interleaved (one run of each in turn, the order rotating
each round), the same number of runs on every side, and the figure is the
median.
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

from hxref.referee import audit as audit_mod
from hxref.crypto import commit as commit_mod
from hxref.referee import orders
from hxref.crypto import signing
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.gamefile.game import LOG_MARKER, event_hash

SIDES = ("union", "confederate")
MAXIMUM = {"union": 4, "confederate": 5}


def interleaved(contenders: dict, rounds: int) -> tuple[dict[str, list[float]], dict]:
    """Each contender once per round, the order rotating each round: (seconds of every run, last results)."""
    names = list(contenders)
    times: dict[str, list[float]] = {k: [] for k in names}
    results: dict = {}
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            t0 = time.perf_counter()
            results[k] = contenders[k]()
            times[k].append(time.perf_counter() - t0)
    return times, results


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
        eng.submit(signed(eng, s, keys[s], eng.join_fields(keys[s]),
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
    for ev in read_log(path):
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


def floor(log: list[dict], sigs: list) -> tuple[int, int]:
    """The floor: re-hash every event (and check its link to the one before), verify every signature
    with cryptography directly.  The events are parsed and the signed data extracted beforehand."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    prev = log[0]["prev"] if log else ""
    hashed = 0
    for ev in log:
        if ev["prev"] != prev or event_hash(ev) != ev["hash"]:
            raise SystemExit(f"bench: the chain breaks at event {ev['seq']}")
        prev = ev["hash"]
        hashed += 1
    keys: dict = {}
    for raw, sig, data in sigs:
        if raw not in keys:
            keys[raw] = Ed25519PublicKey.from_public_bytes(raw)
        keys[raw].verify(sig, data)  # raises InvalidSignature
    return hashed, len(sigs)


def read_log(path: Path) -> list[dict]:
    """Read the file and parse the log lines only (the header is not needed to hash and verify)."""
    text = Path(path).read_text(encoding="utf-8")
    log_text = text.partition("\n" + LOG_MARKER + "\n")[2]
    return [json.loads(line[2:]) for line in log_text.splitlines() if line]


def launcher() -> tuple[list[str], str]:
    script = Path(sys.executable).parent / "hxref"
    if script.exists():
        return [str(script)], f"the console script {script}"
    return [sys.executable, "-m", "hxref.cli"], f"{sys.executable} -m hxref.cli"


def run(cmd: list[str]):
    """A function that runs ``cmd`` as a subprocess, output discarded."""
    return lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def main() -> int:
    # this machine's record of game heads (hxref.gamefile.heads) stays the user's own
    os.environ["HXREF_HOME"] = tempfile.mkdtemp(prefix="hxref-bench-home-")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=2000, help="log events to generate (default 2000)")
    ap.add_argument("--profile", action="store_true", help="cProfile the in-process audit (top 15)")
    ap.add_argument("--keep", default=None, help="generate the game in this folder and keep it")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the audit comparison (default 5)")
    args = ap.parse_args()
    launch, launch_desc = launcher()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"== audit of a generated game (python {sys.version.split()[0]}, {os.cpu_count()} cpus)")
        t0 = time.perf_counter()
        path, counts = generate(folder, args.events)
        gen = time.perf_counter() - t0
        log = read_log(path)
        print(f"generated {path} in {gen:.2f} s: {len(log)} events, {path.stat().st_size / 1024:.0f} KiB, "
              f"up to turn {counts['turn']}{' (game over)' if counts['over'] else ''}")
        print(f"  bid patterns {counts['bids']}, level answers {counts['level']}")
        print(f"  outcomes {counts['outcomes']}")

        sigs = extract_signatures(path)
        log = read_log(path)
        contenders = {
            "audit, in-process, 1 worker": lambda: audit(path, workers=1),
            "floor: re-hash + verify, 1 process": lambda: floor(log, sigs),
            "info: read + parse the log lines": lambda: read_log(path),
            "info: audit CLI, default workers": run([*launch, "audit", str(path)]),
        }
        times, results = interleaved(contenders, args.rounds)
        res = results["audit, in-process, 1 worker"]
        print(f"audit result: {'OK' if res.ok else 'FAILED ' + '; '.join(res.problems)} "
              f"({res.signatures} signatures, {res.commitments} commitments, {res.dice} dice)")
        hashed, verified = results["floor: re-hash + verify, 1 process"]
        med = {k: statistics.median(v) for k, v in times.items()}
        t_audit, t_floor = med["audit, in-process, 1 worker"], med["floor: re-hash + verify, 1 process"]
        t_cli = med["info: audit CLI, default workers"]
        print(f"\ncompared: {args.rounds} interleaved rounds (one run of each per round, rotating order), "
              f"median wall seconds; the audit and the floor each in one process (the audit with workers=1)")
        print(f"{'row':<44}{'median s':>9}{'min s':>9}{'x floor':>9}")
        for name, ts in times.items():
            print(f"{name:<44}{med[name]:>9.3f}{min(ts):>9.3f}{med[name] / t_floor:>8.1f}x")
        print(f"the floor re-hashed {hashed} events and verified {verified} signatures (the audit counted "
              f"{res.signatures}); the CLI row also pays start-up and imports, with the CLI's default workers "
              f"(2 processes from {audit_mod.PARALLEL_FILES} stored files), so it is not compared with the 1-process floor")
        print(f"target: audit < 2.0x floor -> in-process, 1 worker: {t_audit / t_floor:.1f}x "
              f"({'met' if t_audit < 2 * t_floor else 'MISSED'}); CLI (info) {t_cli / t_floor:.1f}x")

        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(audit, path)
            for key in ("tottime", "cumulative"):
                print(f"\n== profile of one in-process audit, top 15 by {key}")
                pstats.Stats(prof, stream=sys.stdout).strip_dirs().sort_stats(key).print_stats(15)

        startup(launch, launch_desc, path)
    return 0


def cpu_of(cmd: list[str]) -> tuple[float, float]:
    """(CPU s, wall s) of one subprocess: user + sys from os.wait4, output discarded."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, time.perf_counter() - t0


def startup(launch: list[str], launch_desc: str, game: Path, runs: int = 11) -> None:
    """Start-up: each command against `python -c "import click"`, the floor of any click command."""
    print(f"\n== start-up (hxref run as {launch_desc}; the game: the generated one)")
    rows = {'python -c "import click"': [sys.executable, "-c", "import click"],
            "hxref --version": [*launch, "--version"],
            "hxref status GAME": [*launch, "status", str(game)],
            "hxref status --json GAME": [*launch, "status", "--json", str(game)]}
    cpu_of(rows["hxref status GAME"])      # the first status remembers the published-data comparison
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    for r in range(runs):
        names = list(rows)
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(cpu_of(rows[name]))
    print(f"compared: {runs} interleaved runs of each as subprocesses (rotating order), medians of CPU "
          "(user + sys, os.wait4) and of wall seconds")
    med = {name: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v)) for name, v in samples.items()}
    floor_cpu = med['python -c "import click"'][0]
    print(f"{'':<30}{'CPU s':>8}{'wall s':>8}{'x click (CPU)':>15}")
    for name, (c, w) in med.items():
        print(f"{name:<30}{c:>8.3f}{w:>8.3f}{c / floor_cpu:>14.2f}x")
    for name, target in (("hxref --version", 3), ("hxref status GAME", 2), ("hxref status --json GAME", 2)):
        ratio = med[name][0] / floor_cpu
        print(f"target: {name} < {target}x import click -> {ratio:.2f}x ({'met' if ratio < target else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
