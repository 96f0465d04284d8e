"""Tamper suite (issue 10, item 1): every tampered input is refused with a clear error.

Targets: a signed order file (an `answer`), a commitment, a reveal -- each checked in-process exactly as
`hxref check`/`hxref submit` do (UTF-8 decoding, then `Engine.check`) -- and a saved game of about 200
events, checked with `audit` (and `Engine.load`).

Every byte of each order file is flipped twice (XOR 0x01, and XOR a seeded random non-zero mask); 2,000
seeded positions of the game file are flipped.  A flip counts as *rejected* when it raises an
`HxrefError` (one line, with an error code) or makes `audit` fail.  A flip that is accepted but leaves
exactly the same content -- the same signed body, the same signature bytes and the same parsed data for
an order file; the same parsed header and log for a game file (a flip in a comment, a `\\n` turned into a
`\\r`, which every reader takes as a line end, or the unused low bits of the last base64 character of the
signature) -- changes nothing anyone could act on: it is counted separately as a *no-op*, and
`tried == rejected + no-op` must hold with zero accepted changes.  Any other exception is a crash and
fails the test.
"""
from __future__ import annotations

import copy
import importlib.util
import itertools
import random
from pathlib import Path

import pytest

from hxref import commit as commit_mod
from hxref import signing, yamlio
from hxref.engine import Engine, audit
from hxref.errors import HxrefError
from hxref.game import GameFile, event_hash

SEED = 20261129
ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_core_for_tests", ROOT / "bench" / "bench_core.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


bench = _bench()


def clear(exc: HxrefError) -> str:
    """The one line the command line would print; checked for shape."""
    line = exc.render()
    assert "\n" not in line and "Traceback" not in line, line
    assert line.rstrip().endswith("]") and "[E" in line, line
    return line


def step(eng: Engine, keys: dict, rng: random.Random) -> None:
    """One decision of the benchmark's game, answered and resolved in memory."""
    dec = eng.awaiting[0]
    if dec.kind == "bid":
        commits, reveals = bid_files(eng, keys, dec.id, bench.pick_bids(rng, {}, ".r" in dec.id))
        for t in commits + reveals:
            eng.submit(t, "f.yaml")
    else:
        eng.submit(answer_file(eng, keys, rng), "f.yaml")
    eng.resolve()


def bid_files(eng, keys, dec_id, bids):
    commits, reveals = [], []
    for side, bid in bids.items():
        choice, salt, key = {"bid": bid}, commit_mod.new_salt(), keys[side]
        commits.append(bench.signed(eng, side, key, {"decision": dec_id, "kind": "commit",
                                                     "link": eng.next_link(side, key),
                                                     "commitment": commit_mod.commitment(choice, salt)},
                                    f"commitment of {side} for {dec_id}"))
        reveals.append(bench.signed(eng, side, key, {"decision": dec_id, "kind": "reveal",
                                                     "link": eng.next_link(side, key, 2),
                                                     "choice": choice, "salt": salt},
                                    f"reveal of {side} for {dec_id}"))
    return commits, reveals


def answer_file(eng, keys, rng):
    dec = eng.awaiting[0]
    side = dec.sides[0]
    level = rng.randint(1, eng.state["current"]["remaining"][side])
    return bench.signed(eng, side, keys[side], {"decision": dec.id, "kind": "answer",
                                                "link": eng.next_link(side, keys[side]),
                                                "choice": {"level": level}}, f"answer of {side} for {dec.id}")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A finished ~200-event game on disk, and three live order files with the engines that await them."""
    d = tmp_path_factory.mktemp("tamper")
    saved, _ = bench.generate(d / "saved" if (d / "saved").mkdir() is None else d, 215, seed=SEED)
    live_dir = d / "live"
    live_dir.mkdir()
    live, _ = bench.generate(live_dir, 30, seed=SEED + 1)
    keys = {s: signing.load_private_key(live_dir / s) for s in bench.SIDES}
    carol = signing.generate_key(d / "carol", "carol")
    rng = random.Random(SEED)
    eng = Engine.load(live)
    while eng.awaiting[0].kind != "bid":
        step(eng, keys, rng)
    commit_eng = copy.deepcopy(eng)
    commits, reveals = bid_files(eng, keys, eng.awaiting[0].id, {"union": 2, "confederate": 1})
    reveal_eng = copy.deepcopy(eng)
    for t in commits:
        reveal_eng.submit(t, "c.yaml")
    ans_eng = copy.deepcopy(reveal_eng)
    for t in reveals:
        ans_eng.submit(t, "r.yaml")
    ans_eng.resolve()
    for _ in range(60):
        if ans_eng.awaiting and ans_eng.awaiting[0].kind != "bid":
            break
        step(ans_eng, keys, rng)
    assert ans_eng.awaiting and ans_eng.awaiting[0].kind != "bid", "no answer decision reached"
    answer = answer_file(ans_eng, keys, rng)
    targets = {"order file (answer)": (ans_eng, answer), "commitment": (commit_eng, commits[0]),
               "reveal": (reveal_eng, reveals[0])}
    for name, (e, text) in targets.items():
        e.check(text, "x.yaml")          # the untouched file is accepted
    return {"dir": d, "saved": saved, "keys": keys, "carol": carol, "targets": targets,
            "other_commit": commits[1]}


def check_bytes(eng: Engine, raw: bytes):
    """What `hxref check` does with a file's bytes: decode, parse, check. Returns the order or raises."""
    text = yamlio.decode(raw, "tampered.yaml")
    return eng.check(text, "tampered.yaml")


def same_order(a, b) -> bool:
    if a.body != b.body or a.data != b.data:
        return False
    sig = lambda o: signing._b64decode("".join(o.armored.strip().split("\n")[1:-1]))  # noqa: E731
    return sig(a) == sig(b)


@pytest.mark.parametrize("name", ["order file (answer)", "commitment", "reveal"])
def test_every_byte_flip_of_an_order_file_is_refused(world, name):
    eng, text = world["targets"][name]
    raw = text.encode("utf-8")
    original = eng.check(text, "x.yaml")
    rng = random.Random(f"{SEED}-{name}")
    tried = rejected = noop = 0
    codes: dict[str, int] = {}
    accepted = []
    for pos in range(len(raw)):
        for mask in (0x01, rng.randrange(1, 256)):
            b = bytearray(raw)
            b[pos] ^= mask
            tried += 1
            try:
                order = check_bytes(eng, bytes(b))
            except HxrefError as exc:
                rejected += 1
                clear(exc)
                codes[exc.code] = codes.get(exc.code, 0) + 1
                continue
            if same_order(order, original):
                noop += 1
            else:
                accepted.append((pos, mask, bytes(b[max(0, pos - 20):pos + 20])))
    print(f"\ntamper: {name} ({len(raw):,} bytes) {tried:,} flips tried, {rejected:,} rejected, "
          f"{noop:,} no-op (same signed body, signature and data), {len(accepted)} accepted changes; "
          f"codes {dict(sorted(codes.items()))}")
    assert not accepted, accepted[:5]
    assert tried == rejected + noop


def test_sampled_byte_flips_of_a_saved_game_are_refused(world, tmp_path):
    src = world["saved"]
    raw = src.read_bytes()
    orig = GameFile.parse(raw.decode(), src)
    n_events = len(orig.log)
    assert 180 <= n_events <= 260, n_events
    assert audit(src, workers=1).ok
    rng = random.Random(SEED)
    positions = sorted(rng.sample(range(len(raw)), min(2000, len(raw))))
    path = tmp_path / "g.yaml"
    tried = rejected = noop = 0
    how: dict[str, int] = {}
    accepted = []
    for k, pos in enumerate(positions):
        b = bytearray(raw)
        mask = 0x01 if k % 2 else rng.randrange(1, 256)     # half keep ASCII text ASCII
        b[pos] ^= mask
        path.write_bytes(bytes(b))
        tried += 1
        try:
            res = audit(path, workers=1)
        except HxrefError as exc:
            clear(exc)
            rejected += 1
            how[exc.code] = how.get(exc.code, 0) + 1
            continue
        if not res.ok:
            assert res.problems and all("\n" not in p and "Traceback" not in p for p in res.problems)
            rejected += 1
            how["audit"] = how.get("audit", 0) + 1
            continue
        gf = GameFile.load(path)
        if gf.header == orig.header and gf.log == orig.log:
            noop += 1
        else:
            diff = [k for k in set(gf.header) | set(orig.header) if gf.header.get(k) != orig.header.get(k)]
            accepted.append((pos, hex(mask), bytes(raw[max(0, pos - 30):pos + 30]), diff, gf.log == orig.log))
    print(f"\ntamper: saved game ({n_events} events, {len(raw):,} bytes) {tried:,} flips tried, "
          f"{rejected:,} rejected, {noop:,} no-op (same parsed header and log), {len(accepted)} accepted "
          f"changes; by {dict(sorted(how.items()))}")
    assert not accepted, accepted[:5]
    assert tried == rejected + noop


def rewrite(src: Path, dst: Path, log: list[dict], rehash: bool) -> None:
    gf = GameFile.load(src)
    if rehash:
        prev = "0" * 64
        for i, ev in enumerate(log, 1):
            ev["seq"], ev["prev"] = i, prev
            ev["hash"] = event_hash(ev)
            prev = ev["hash"]
        gf.header["head"] = {"seq": len(log), "hash": prev}
    gf.log = log
    gf.path = dst
    dst.write_text(gf.dumps())


def simultaneous(a: dict, b: dict) -> bool:
    if a["kind"] != "submission" or b["kind"] != "submission":
        return False
    da, db = a["data"], b["data"]
    return da["decision"] == db["decision"] and da["kind"] == db["kind"] and da["side"] != db["side"]


def test_swapped_and_dropped_events_are_refused(world, tmp_path):
    src = world["saved"]
    log = GameFile.load(src).log
    n = len(log)
    rng = random.Random(SEED)
    pairs = [(i, i + 1) for i in range(n - 1)]                       # every adjacent swap
    pairs += rng.sample([p for p in itertools.combinations(range(n), 2) if p[1] - p[0] > 1], 150)
    path = tmp_path / "g.yaml"
    tried = rejected = identical = commuting = 0
    accepted = []
    cases = [("swap", p) for p in pairs] + [("drop", (i,)) for i in range(n)]
    for (what, idx), rehash in itertools.product(cases, (False, True)):
        new = copy.deepcopy(log)
        if what == "swap":
            i, j = idx
            if new[i]["kind"] == new[j]["kind"] and new[i]["data"] == new[j]["data"] and new[i]["by"] == new[j]["by"]:
                identical += 1        # the two events carry the same content: the swap changes nothing
                continue
            new[i], new[j] = new[j], new[i]
        else:
            del new[idx[0]]
        rewrite(src, path, new, rehash)
        tried += 1
        try:
            res = audit(path, workers=1)
        except HxrefError as exc:
            clear(exc)
            rejected += 1
            continue
        if not res.ok:
            rejected += 1
        elif what == "swap" and rehash and simultaneous(log[idx[0]], log[idx[1]]):
            # two sides' files for the same step of the same decision (both joins, both commitments,
            # both reveals), whose order the referee does not use: the swapped log replays to exactly the
            # stored header, so nothing changes; counted apart
            commuting += 1
        else:
            accepted.append((what, idx, rehash))
    print(f"\ntamper: saved game log, {len(pairs)} swaps and {n} drops, each with the chain kept and "
          f"re-hashed: {tried:,} tried, {rejected:,} rejected, {commuting} rehashed swaps of two sides' "
          f"simultaneous files accepted as equivalent (same replayed game), {len(accepted)} accepted changes "
          f"({identical} swaps of identical events skipped)")
    assert not accepted, accepted[:10]
    assert tried == rejected + commuting


def resign(text: str, key, **changes) -> str:
    body, _ = signing.split_signed_text(text)
    for k, v in changes.items():
        lines = [f"{k}: {v}" if line.startswith(f"{k}: ") else line for line in body.split("\n")]
        assert lines != body.split("\n"), k
        body = "\n".join(lines)
    return signing.sign_text(body, key)


def test_replays_and_foreign_signatures_are_refused(world, tmp_path):
    keys, carol = world["keys"], world["carol"]
    tried = rejected = 0
    codes: dict[str, int] = {}
    accepted = []

    def expect_refused(label, eng, text):
        nonlocal tried, rejected
        tried += 1
        try:
            eng.check(text, "replay.yaml")
        except HxrefError as exc:
            clear(exc)
            rejected += 1
            codes[exc.code] = codes.get(exc.code, 0) + 1
            return
        accepted.append(label)

    # 1. every submission stored in the saved game, replayed into the game at its end, into the live
    #    games (another game: same keys, another game id) and into a new game with the *same* id
    saved = Engine.load(world["saved"])
    files = [ev["data"]["file"] for ev in saved.gf.log if ev["kind"] == "submission"]
    live = {n: e for n, (e, _) in world["targets"].items()}
    for i, f in enumerate(files):
        expect_refused(f"saved #{i} into its own game", saved, f)
        for n, e in live.items():
            expect_refused(f"saved #{i} into another game ({n})", e, f)
    # 2. each live file into another decision (the other live engines await other decisions or states),
    #    for another side (side changed, re-signed by the sender), re-signed by a key not in the game,
    #    re-signed by the other side's key
    for name, (eng, text) in world["targets"].items():
        side = signing.split_signed_text(text)[0].split("side: ")[1].split("\n")[0]
        other = "confederate" if side == "union" else "union"
        for n2, (e2, _) in world["targets"].items():
            if n2 != name:
                expect_refused(f"{name} into the state of {n2}", e2, text)
        dec = eng.awaiting[0].id
        expect_refused(f"{name} for another decision", eng, resign(text, keys[side], decision=dec + ".r9"))
        expect_refused(f"{name} for another side", eng, resign(text, keys[side], side=other))
        expect_refused(f"{name} for another side, its key", eng, resign(text, keys[other], side=other))
        expect_refused(f"{name} re-signed by carol", eng, resign(text, carol))
        expect_refused(f"{name} re-signed by the other side", eng, resign(text, keys[other]))
        expect_refused(f"{name} for another game", eng, resign(text, keys[side], game="other-game"))
    # the other side's commitment submitted as one's own (copied commitment, re-signed)
    ceng, ctext = world["targets"]["commitment"]
    theirs = signing.split_signed_text(world["other_commit"])[0].split("commitment: ")[1].split("\n")[0]
    after_theirs = copy.deepcopy(ceng)
    after_theirs.submit(world["other_commit"], "theirs.yaml")
    expect_refused("copied commitment", after_theirs, resign(ctext, keys["union"], commitment=theirs))
    print(f"\ntamper: replays and foreign signatures {tried:,} tried, {rejected:,} rejected; "
          f"codes {dict(sorted(codes.items()))}")
    assert not accepted, accepted
    assert tried == rejected


def test_a_key_added_to_the_header_is_found(world, tmp_path):
    # was a hole: audit compared only a fixed list of header keys; now every key must be the replay's
    raw = world["saved"].read_bytes()
    pos = raw.index(b"\n# Check it") + 1
    b = bytearray(raw)
    b[pos] ^= 0x02                     # '#' -> '!': the comment line becomes a header key
    path = tmp_path / "g.yaml"
    path.write_bytes(bytes(b))
    assert set(GameFile.load(path).header) != set(GameFile.load(world["saved"]).header)
    assert not audit(path, workers=1).ok
