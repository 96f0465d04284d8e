"""Tamper suite (a signature and the hash chain cover every byte that matters): every tampered input is refused with a clear error.

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

Under protocol v2 the log holds *blocks* (a decision's files as ``submission`` events in canonical order,
then its ``resolve`` and what the rules produced), and the files of an open decision wait in the header's
``pending`` area, outside the hash chain.  So the pending area is tampered with too: sampled byte flips,
each pending file removed, files added (forged, replayed, duplicated, for another decision, or a genuine
file not received yet).  There an accepted change must be a game that really received the files it names:
the one that has not received a removed file yet ("not received yet"), or the one that received an added
genuine file (what `hxref submit` of that file gives).
"""
from __future__ import annotations

import copy
import importlib.util
import itertools
import random
from pathlib import Path

import pytest

from hxref.crypto import commit as commit_mod
from hxref.referee import orders
from hxref.referee import trust as protocol
from hxref.crypto import signing
from hxref.base import yamlio
from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError
from hxref.base.canon import sha256_hex
from hxref.gamefile.game import GameFile, event_hash

SEED = 20261129
ROOT = Path(__file__).resolve().parents[2]
#: each long sweep over a saved game is cut into this many shards (every ``SHARDS``-th case of the
#: same seeded list), so that pytest-xdist spreads it over the cores; together they try every case
SHARDS = 7


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


def signed(eng: Engine, side: str, key, fields: dict, comment: str) -> str:
    """What the command line writes (cli._sign_and_write): the v2 envelope, the fields, signed."""
    fields = dict(fields)
    env = eng.envelope(side, fields.pop("decision"), fields.pop("kind"))
    return signing.sign_text(orders.render({**env, **fields}, comment), key)


def own_link(eng: Engine, side: str, key, dec) -> dict:
    """The side's bound dice link, when it goes in its own answer or reveal (cli._own_link)."""
    if side in eng.dice_parties(dec) and eng.links_in_answers(dec):
        return {"link": eng.next_link(side, key, dec)}
    return {}


def roll_files(eng: Engine, keys: dict, dec) -> list[str]:
    """The roll files still owed for ``dec`` once its answers are in (as `hxref roll`)."""
    answers = protocol.answers_hash(dec.id, eng.pending(dec.id)["files"])
    return [signed(eng, w, keys[w], {"decision": dec.id, "kind": "roll", "link": eng.next_link(w, keys[w], dec),
                                     "answers": answers}, f"dice link of {w} for {dec.id}")
            for w in eng.missing_links(dec)]


def step(eng: Engine, keys: dict, rng: random.Random) -> None:
    """One decision of the benchmark's game, answered and resolved in memory."""
    dec = eng.awaiting[0]
    if dec.kind == "bid":
        commits, reveals = bid_files(eng, keys, dec.id, bench.pick_bids(rng, {}, ".r" in dec.id))
        for t in commits + reveals:
            eng.submit(t, "f.yaml")
    else:
        eng.submit(answer_file(eng, keys, rng), "f.yaml")
    for t in roll_files(eng, keys, dec):
        eng.submit(t, "roll.yaml")
    eng.resolve()


def bid_files(eng, keys, dec_id, bids):
    """Both files of each side, written at once before either is submitted (as `hxref commit`)."""
    commits, reveals = [], []
    dec = eng.decision(dec_id)
    for side, bid in bids.items():
        choice, salt, key = {"bid": bid}, commit_mod.new_salt(), keys[side]
        commits.append(signed(eng, side, key, {"decision": dec_id, "kind": "commit",
                                               "commitment": commit_mod.commitment(choice, salt, (eng.identity, dec_id, side))},
                              f"commitment of {side} for {dec_id}"))
        reveals.append(signed(eng, side, key, {"decision": dec_id, "kind": "reveal", **own_link(eng, side, key, dec),
                                               "choice": choice, "salt": salt},
                              f"reveal of {side} for {dec_id}"))
    return commits, reveals


def answer_file(eng, keys, rng):
    dec = eng.awaiting[0]
    side = dec.sides[0]
    level = rng.randint(1, eng.state["current"]["remaining"][side])
    return signed(eng, side, keys[side], {"decision": dec.id, "kind": "answer", **own_link(eng, side, keys[side], dec),
                                          "choice": {"level": level}}, f"answer of {side} for {dec.id}")


def generate(folder: Path, target: int, seed: int) -> Path:
    """A game of at least ``target`` events (or finished), written with the library as the command line
    would (bench/bench_core.py's long bidding scenario: commit/reveal bids and level declarations)."""
    rng = random.Random(seed)
    keys = {s: signing.generate_key(folder / s, comment=f"bench {s}") for s in bench.SIDES}
    scen = folder / "long.yaml"
    scen.write_text(bench.scenario_text(max(10, round(target / 17))))
    path = folder / "game.yaml"
    eng = Engine.create(path, system="heartland", scenario=str(scen), mode="open",
                        sides={s: k.public for s, k in keys.items()}, game_id="bench-long")
    for s in bench.SIDES:
        eng.submit(signed(eng, s, keys[s], eng.join_fields(keys[s]),
                          f"join of {s}"), f"{s}-join.yaml")
    while len(eng.gf.log) < target and not eng.finished:
        step(eng, keys, rng)
    eng.save()
    return path


def fork(eng: Engine) -> Engine:
    """A copy of ``eng`` to play on: its game and state copied, the rules bound to its charts shared
    (the charts are read-only)."""
    return copy.deepcopy(eng, {id(eng.system): eng.system})


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A finished ~200-event game on disk, three live order files with the engines that await them, and a
    saved game whose open decision keeps three files in the header's pending area."""
    d = tmp_path_factory.mktemp("tamper")
    (d / "saved").mkdir()
    saved = generate(d / "saved", 215, seed=SEED)
    live_dir = d / "live"
    live_dir.mkdir()
    live = generate(live_dir, 30, seed=SEED + 1)
    keys = {s: signing.load_private_key(live_dir / s) for s in bench.SIDES}
    carol = signing.generate_key(d / "carol", "carol")
    rng = random.Random(SEED)
    eng = Engine.load(live)
    while eng.awaiting[0].kind != "bid":
        step(eng, keys, rng)
    commit_eng = fork(eng)
    commits, reveals = bid_files(eng, keys, eng.awaiting[0].id, {"union": 2, "confederate": 1})
    reveal_eng = fork(eng)
    for t in commits:
        reveal_eng.submit(t, "c.yaml")
    ans_eng = fork(reveal_eng)
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
    # the pending game: both commitments and union's reveal are kept for the open bid, confederate's
    # reveal is not received yet
    pend_eng = fork(reveal_eng)
    pend_eng.submit(reveals[0], "r.yaml")
    pend_eng.gf.path = d / "pending.yaml"
    pend_eng.save()

    def receive(texts: list[str]) -> Engine | None:
        """The game before the bid's files, after receiving ``texts`` (None: it refuses one)."""
        e = fork(commit_eng)
        order = {"commit": 0, "reveal": 1}
        try:
            for t in sorted(texts, key=lambda t: order.get(orders.parse(t, "x", fast=True).kind, 2)):
                e.submit(t, "x.yaml")
        except HxrefError:
            return None
        return e

    return {"dir": d, "saved": saved, "keys": keys, "carol": carol, "targets": targets,
            "other_commit": commits[1], "pending": d / "pending.yaml", "receive": receive,
            "kept": commits + reveals[:1], "unsent": reveals[1]}


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


def sampled_flips(rng: random.Random, start: int, end: int, count: int) -> list[tuple[int, int]]:
    """``count`` seeded positions in ``[start, end)`` (in order), each with its mask: 0x01 for every
    other one (ASCII text stays ASCII), a random non-zero byte for the rest."""
    positions = sorted(rng.sample(range(start, end), min(count, end - start)))
    return [(pos, 0x01 if k % 2 else rng.randrange(1, 256)) for k, pos in enumerate(positions)]


@pytest.mark.parametrize("shard", range(SHARDS))
def test_sampled_byte_flips_of_a_saved_game_are_refused(world, tmp_path, shard):
    src = world["saved"]
    raw = src.read_bytes()
    orig = GameFile.parse(raw.decode(), src)
    n_events = len(orig.log)
    assert 180 <= n_events <= 260, n_events
    assert audit(src, workers=1).ok
    flips = sampled_flips(random.Random(SEED), 0, len(raw), 2000)[shard::SHARDS]
    path = tmp_path / "g.yaml"
    tried = rejected = noop = 0
    how: dict[str, int] = {}
    accepted = []
    for pos, mask in flips:
        b = bytearray(raw)
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
    print(f"\ntamper: saved game ({n_events} events, {len(raw):,} bytes), shard {shard + 1} of {SHARDS}: "
          f"{tried:,} flips tried, "
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
    """Two sides' files of the same step of the same decision (both joins, both commitments, both
    reveals): the files of one block, whose order does not change what the block gives."""
    if a["kind"] != "submission" or b["kind"] != "submission":
        return False
    da, db = a["data"], b["data"]
    return da["decision"] == db["decision"] and da["kind"] == db["kind"] and da["side"] != db["side"]


def canonical_blocks(log: list[dict]) -> bool:
    """Every block's files in the canonical order (hxref.referee.trust.canonical)."""
    run: list[dict] = []
    for ev in log + [{"kind": "end"}]:
        if ev["kind"] == "submission":
            run.append({"kind": ev["data"]["kind"], "party": ev["data"]["side"], "sha256": ev["data"]["sha256"]})
            continue
        if run and protocol.canonical(run) != run:
            return False
        run = []
    return True


@pytest.mark.parametrize("shard", range(2 * SHARDS))
def test_swapped_and_dropped_events_are_refused(world, tmp_path, shard):
    src = world["saved"]
    log = GameFile.load(src).log
    n = len(log)
    rng = random.Random(SEED)
    pairs = [(i, i + 1) for i in range(n - 1)]                       # every adjacent swap
    pairs += rng.sample([p for p in itertools.combinations(range(n), 2) if p[1] - p[0] > 1], 150)
    path = tmp_path / "g.yaml"
    tried = rejected = identical = commuting = noncanonical = 0
    accepted = []
    assert canonical_blocks(log)
    cases = [("swap", p) for p in pairs] + [("drop", (i,)) for i in range(n)]
    for (what, idx), rehash in itertools.product(cases[shard::2 * SHARDS], (False, True)):
        new = [dict(ev) for ev in log]      # rewrite() changes an event's seq, prev and hash only
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
            # both reveals) inside one block, whose order the referee does not use: the swapped log
            # replays to exactly the stored header, so nothing changes; counted apart
            commuting += 1
            if canonical_blocks(log) and not canonical_blocks(new):
                noncanonical += 1
        else:
            accepted.append((what, idx, rehash))
    print(f"\ntamper: saved game log, {len(pairs)} swaps and {n} drops, each with the chain kept and "
          f"re-hashed, shard {shard + 1} of {2 * SHARDS}: {tried:,} tried, {rejected:,} rejected, {commuting} "
          f"rehashed swaps of two sides' simultaneous files accepted as equivalent (same replayed game; {noncanonical} of them leave a "
          f"block out of canonical order), {len(accepted)} accepted changes "
          f"({identical} swaps of identical events skipped)")
    assert not accepted, accepted[:10]
    assert tried == rejected + commuting


def test_a_block_out_of_canonical_order_is_refused(world, tmp_path):
    src = world["saved"]
    log = GameFile.load(src).log
    last = max(i for i in range(len(log) - 1) if simultaneous(log[i], log[i + 1]))
    new = copy.deepcopy(log)
    new[last], new[last + 1] = new[last + 1], new[last]
    assert not canonical_blocks(new)
    rewrite(src, tmp_path / "g.yaml", new, True)
    assert not audit(tmp_path / "g.yaml", workers=1).ok


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
        if name != "commitment":     # a commitment copied before its original: see the test below
            expect_refused(f"{name} for another side, its key", eng, resign(text, keys[other], side=other))
        expect_refused(f"{name} re-signed by carol", eng, resign(text, carol))
        expect_refused(f"{name} re-signed by the other side", eng, resign(text, keys[other]))
        expect_refused(f"{name} for another game", eng, resign(text, keys[side], game="other-game"))
    # (a commitment copied from the other side is let in: bound to its side, the copier cannot open
    # it; tests/core/test_bad_input.py shows it)
    print(f"\ntamper: replays and foreign signatures {tried:,} tried, {rejected:,} rejected; "
          f"codes {dict(sorted(codes.items()))}")
    assert not accepted, accepted
    assert tried == rejected


def test_a_key_added_to_the_header_is_found(world, tmp_path):
    # was a hole: audit compared only a fixed list of header keys; now every key must be the replay's
    raw = world["saved"].read_bytes()
    path = tmp_path / "g.yaml"
    path.write_bytes(raw.replace(b'{\n "hxref": ', b'{\n "extra": {"note": "mine"},\n "hxref": ', 1))
    assert set(GameFile.load(path).header) != set(GameFile.load(world["saved"]).header)
    assert not audit(path, workers=1).ok


# --- the header's pending area (outside the hash chain) ----------------------------------------------
def _entry(text: str) -> dict:
    order = orders.parse(text, "x.yaml", fast=True)
    return {"party": order.side, "kind": order.kind, "sha256": sha256_hex(order.text.encode("utf-8")),
            "file": order.text}


def _with(src: Path, edit) -> bytes:
    """The saved game with its header edited by ``edit(header)`` (the log untouched)."""
    gf = GameFile.load(src)
    edit(gf.header)
    return gf.dumps().encode("utf-8")


class PendingJudge:
    """Judges tampered copies of the saved game whose open decision keeps files in the header's pending
    area: each is refused, changes nothing, or is the very game that received the files it keeps (one
    that has not received a removed file yet, or that received an added genuine file)."""

    def __init__(self, world, tmp_path: Path):
        self.src = world["pending"]
        self.raw = self.src.read_bytes()
        self.orig = GameFile.load(self.src)
        first = audit(self.src, workers=1)
        assert first.ok and first.pending == 3, first.problems
        (self.dec_id,) = self.orig.header["pending"]
        self.files = self.orig.header["pending"][self.dec_id]["files"]
        self.kept = {f["sha256"] for f in self.files}
        self.receive = world["receive"]
        self.path = tmp_path / "g.yaml"
        self.counts = {"tried": 0, "rejected": 0, "no-op": 0, "not received yet": 0, "as if submitted": 0}
        self.how: dict[str, int] = {}
        self.accepted: list[str] = []

    def __call__(self, label, data: bytes) -> str:
        counts, how, orig = self.counts, self.how, self.orig
        self.path.write_bytes(data)
        counts["tried"] += 1
        try:
            res = audit(self.path, workers=1)
        except HxrefError as exc:
            clear(exc)
            how[exc.code] = how.get(exc.code, 0) + 1
            counts["rejected"] += 1
            return "rejected"
        if not res.ok:
            assert res.problems and all("\n" not in p and "Traceback" not in p for p in res.problems)
            how["audit"] = how.get("audit", 0) + 1
            counts["rejected"] += 1
            return "rejected"
        gf = GameFile.load(self.path)
        if gf.header == orig.header and gf.log == orig.log:
            counts["no-op"] += 1
            return "no-op"
        # accepted and different: it must be the very game that received the files it keeps
        files = [f for p in gf.header.get("pending", {}).values() for f in p["files"]]
        real = self.receive([f["file"] for f in files])
        if real is not None and gf.log == orig.log and gf.header == real.h:
            got = {f["sha256"] for f in files}
            what = "not received yet" if got < self.kept else "as if submitted"
            counts[what] += 1
            return what
        self.accepted.append(label)
        return "accepted"

    def verdict(self, what: str) -> None:
        """Print the counts of ``what`` was tried; no accepted change, and every try counted once."""
        counts = self.counts
        print(f"\ntamper: pending area of a saved game ({len(self.files)} files kept for {self.dec_id}), {what}: "
              f"{counts['tried']:,} tried, {counts['rejected']:,} rejected, "
              f"{counts['no-op']} no-op (same parsed header), {counts['not received yet']} not received yet "
              f"(the game before that file), {counts['as if submitted']} as if submitted (a genuine acceptable "
              f"file with what it says), {len(self.accepted)} accepted changes; by {dict(sorted(self.how.items()))}")
        assert not self.accepted, self.accepted[:5]
        assert counts["tried"] == counts["rejected"] + counts["no-op"] + counts["not received yet"] + \
            counts["as if submitted"]


@pytest.mark.parametrize("shard", range(SHARDS))
def test_byte_flips_in_the_pending_area_are_refused_or_not_received_yet(world, tmp_path, shard):
    judge = PendingJudge(world, tmp_path)
    raw = judge.raw
    start = raw.index(b'\n "pending": ') + 1
    end = raw.index(b"\n--- # log")
    flips = sampled_flips(random.Random(SEED), start, end, 1200)[shard::SHARDS]
    for pos, mask in flips:
        b = bytearray(raw)
        b[pos] ^= mask
        judge(f"flip {pos} ^{mask:#x}", bytes(b))
    judge.verdict(f"{len(flips):,} sampled byte flips of its {end - start:,} bytes (shard {shard + 1} of {SHARDS})")


def test_pending_files_removed_or_added_are_refused_or_not_received_yet(world, tmp_path):
    judge = PendingJudge(world, tmp_path)
    src, orig, dec_id, files = judge.src, judge.orig, judge.dec_id, judge.files
    receive, keys = world["receive"], world["keys"]
    # 1. each kept file removed: its entry alone, and with all it says (the game that has not received it)
    for i, f in enumerate(files):
        def drop(h, i=i):
            del h["pending"][dec_id]["files"][i]
        assert judge(f"remove entry {f['kind']} of {f['party']}", _with(src, drop)) == "rejected"
        others = [g["file"] for j, g in enumerate(files) if j != i]
        real = receive(others)
        if real is not None:
            assert judge(f"remove {f['kind']} of {f['party']} with what it says",
                         _with(src, lambda h, real=real: h.update(copy.deepcopy(real.h)))) == "not received yet"
    # the whole pending area removed: nothing of it is left anywhere in the header (commitments
    # become spent only when their decision closes), so it is the game before those files came
    assert judge("all files of the decision removed, alone",
                 _with(src, lambda h: h["pending"].clear())) == "not received yet"
    base = receive([])
    assert judge("all files removed with what they say",
                 _with(src, lambda h: h.update(copy.deepcopy(base.h)))) == "not received yet"
    # 2. files added
    unsent = world["unsent"]                    # confederate's reveal: genuine, acceptable, not received
    union_reveal = next(g["file"] for g in files if g["kind"] == "reveal")

    def add(text, decision=dec_id, entry=None):
        def edit(h):
            p = h["pending"].setdefault(decision, {"files": [], "answers": {}, "links": {}})
            p["files"] = protocol.canonical(p["files"] + [entry or _entry(text)])
        return edit

    assert judge("genuine file, entry alone", _with(src, add(unsent))) == "rejected"
    real = receive([g["file"] for g in files] + [unsent])
    assert real is not None
    assert judge("genuine file with what it says", _with(src, lambda h: h.update(copy.deepcopy(real.h)))) \
        == "as if submitted"
    assert judge("a kept file twice", _with(src, add(None, entry=copy.deepcopy(files[0])))) == "rejected"
    assert judge("under another decision", _with(src, add(unsent, decision=dec_id + ".r9"))) == "rejected"
    forged = [
        ("re-signed by carol", resign(unsent, world["carol"])),
        ("re-signed by the other side", resign(unsent, keys["union"])),
        ("for the other side", resign(unsent, keys["confederate"], side="union")),
    ]
    body, _ = signing.split_signed_text(unsent)
    edited = unsent.replace("side: confederate", "side: union")
    forged.append(("edited after signing", edited))
    forged.append(("unsigned", body))
    forged.append(("union's reveal again, re-signed", resign(union_reveal, keys["union"])))
    saved_files = [ev["data"]["file"] for ev in GameFile.load(world["saved"]).log if ev["kind"] == "submission"]
    forged += [(f"stored file #{i} of another game", t) for i, t in enumerate(saved_files[:20])]
    forged += [(f"stored file #{i} of this game", ev["data"]["file"])
               for i, ev in enumerate(orig.log) if ev["kind"] == "submission"]
    for label, text in forged:
        try:
            entry = _entry(text)
        except HxrefError:
            entry = {"party": "confederate", "kind": "reveal", "sha256": sha256_hex(text.encode()), "file": text}
        decision = orders.parse(text, "x", fast=True).decision if entry["file"] == text else dec_id
        for where in {decision, dec_id}:
            assert judge(f"added: {label} (under {where})", _with(src, add(text, where, entry))) == "rejected", label
        # the same with all it would say: the header of a game that took it
        def said(h, text=text):
            e = copy.deepcopy(GameFile.load(src))
            eng = Engine.__new__(Engine)
            eng.gf, eng.h = e, e.header
            eng.rules = Engine.load(src).rules
            try:
                eng._pend(orders.parse(text, "x", fast=True))
            except Exception:   # noqa: BLE001 - a file too damaged to say anything: entry alone
                return
            h.update(eng.h)
        assert judge(f"added with what it says: {label}", _with(src, said)) == "rejected", label
    judge.verdict("files removed, added, forged and replayed")
