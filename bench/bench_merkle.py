#!/usr/bin/env python
"""The salted Merkle commitment to a side's organisation boxes against one Ed25519 signature, the
cost every order file already pays.  Not a test: it prints, it never asserts.

    python bench/bench_merkle.py [--boxes 60] [--rounds 20]

The display: ``--boxes`` boxes (default 60), each a leader record with three unit records (about
600 bytes of canonical JSON).  Timed in one process, every row once per round, ``--rounds`` rounds
(default 20) interleaved with the order rotating each round; the medians are printed, each also as
a multiple of the signature:

* salts: :func:`merkle.salts` for every box (one HMAC each);
* commit: :func:`merkle.commit` of the whole display (every leaf and node hashed);
* open: one box's opening with its audit path; verify: :func:`merkle.verify` of it;
* read opening: :meth:`merkle.Opening.from_data` of it, as from a file;
* sign / check signature: ``signing.sign_text`` and ``signing.verify_text`` of a 2 KB text with a
  key made in a temporary folder.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from hxref.base.canon import canonical_json
from hxref.crypto import merkle, signing


def display(n: int) -> dict[str, dict]:
    """``n`` boxes, each a leader with three units."""
    return {f"box-{i:02d}": {
        "leader": {"id": f"L{i:02d}", "name": f"Brigadier General {i:02d}", "ml": 1 + i % 5, "ap": 3 + i % 4,
                   "ammunition": 2, "artillery": 1, "wounded": False, "brevet": False},
        "units": [{"id": f"U{i:02d}-{u}", "type": "infantry", "strength": 4 + (i + u) % 5,
                   "steps": 1 + u, "max_steps": 4, "morale": "B", "fatigue": 0, "attrition": [1, 3],
                   "hex": f"{10 + i % 20:02d}{10 + u:02d}", "disrupted": False}
                  for u in range(3)],
        "box": {"hq": f"HQ-{i % 6}", "detached": False}} for i in range(n)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()

    aod = display(args.boxes)
    names = list(aod)
    sizes = [len(canonical_json(v)) for v in aod.values()]
    secret = b"s" * 32
    label = "ab" * 32
    salts = merkle.salts(secret, label, names)
    tree = merkle.commit(aod, salts)
    name = names[len(names) // 3]
    opening = tree.open(name)
    data = opening.to_data()
    assert merkle.verify(tree.root, names, opening)

    with tempfile.TemporaryDirectory() as tmp:
        key = signing.generate_key(Path(tmp) / "id_bench")
        line = "orders: march the corps by the turnpike to the ford, then hold the ridge line\n"
        text = line * (2048 // len(line))
        signed = signing.sign_text(text, key)
        signing.verify_text(signed, source="bench.yaml")

        rows: dict[str, Callable[[], object]] = {
            "salts": lambda: merkle.salts(secret, label, names),
            "commit": lambda: merkle.commit(aod, salts),
            "open": lambda: tree.open(name),
            "verify": lambda: merkle.verify(tree.root, names, opening),
            "read opening": lambda: merkle.Opening.from_data(data, "bench.yaml"),
            "sign (2 KB)": lambda: signing.sign_text(text, key),
            "check signature (2 KB)": lambda: signing.verify_text(signed, source="bench.yaml"),
        }
        times: dict[str, list[float]] = {k: [] for k in rows}
        order = list(rows)
        for r in range(args.rounds):
            for k in order[r % len(order):] + order[:r % len(order)]:
                t0 = time.perf_counter()
                rows[k]()
                times[k].append(time.perf_counter() - t0)

    print(f"{args.boxes} boxes, {min(sizes)}-{max(sizes)} bytes of JSON each ({sum(sizes)} in all), "
          f"text signed {len(text)} bytes; audit path {len(opening.path)} hashes; "
          f"median of {args.rounds} rounds")
    floor = statistics.median(times["sign (2 KB)"])
    print(f"{'row':<24}{'median us':>12}{'best us':>10}{'x sign':>9}")
    for k in rows:
        med = statistics.median(times[k])
        print(f"{k:<24}{med * 1e6:>12.1f}{min(times[k]) * 1e6:>10.1f}{med / floor:>9.2f}")


if __name__ == "__main__":
    main()
