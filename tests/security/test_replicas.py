"""Property 6, identical replicas: two copies of a game that receive the same signed files hold the
same log, byte for byte, whatever the arrival order of the files of an open decision, however
they are grouped into `hxref submit` calls, and whatever the local day (HXREF_NOW) of each call.

For each of the four systems' shipped demos, two copies are made with `hxref new` and the
manifest's values (its --nonce, so that they are the shipped game), each in its own folder.
Between two `resolve` steps of the manifest, each copy gets the segment's files in its own random
order (a permutation, stably sorted so that reveals follow the commitments and dice links the
answers: the only orders the protocol accepts), cut into its own random `hxref submit` calls
(merging the manifest's consecutive submit steps, or splitting them), each at its own random day;
and each file may reach a copy under another name, or with CRLF line endings (a mail program).
Both copies resolve after every `resolve` step (umpired demos with the umpire's key); the heads
must be equal after every submission segment and every resolve, and at the end the logs (the part
of the game file after the log marker) byte-identical -- and the whole game files too, header
snapshot included -- and `hxref audit` OK on both.

Run in-process (click's CliRunner), 3 examples per system.  Salem Church, the slowest demo
(about 9 s for one straight replay), is cut to its first SALEM_SEGMENTS segments.

Also here: the steady-state mail count of the open ACW demo (property 10), from the shipped files'
order.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security import replay
from tests.security.replay import BIDDING, DEMOS, Copy, file_info, manifest, phase_order, random_day, segments

SALEM_SEGMENTS = 12
LIMITS = {"salem-church": SALEM_SEGMENTS}


LOCAL = st.sampled_from([(), (), ("rename",), ("crlf",), ("rename", "crlf")])


def _schedule(data, folder: Path, files: list[str]) -> tuple[list[tuple[list[str], str]], dict]:
    """One copy's `hxref submit` calls for a segment: a random accepted order, cut at random, each
    call with a random day; and how each file reached this copy (its own name, or renamed in its
    inbox; line endings as sent, or CRLF from a mail program)."""
    perm = phase_order(folder, list(data.draw(st.permutations(files))))
    cuts = data.draw(st.lists(st.booleans(), min_size=max(len(perm) - 1, 0), max_size=max(len(perm) - 1, 0)))
    rng = data.draw(st.randoms(use_true_random=False))
    local = {f: data.draw(LOCAL) for f in perm}
    calls, cur = [], []
    for i, f in enumerate(perm):
        cur.append(f)
        if i == len(perm) - 1 or cuts[i]:
            calls.append((cur, random_day(rng)))
            cur = []
    return calls, local


def _replay_twice(system: str, data) -> None:
    src = DEMOS[system]
    man = manifest(src)
    segs = segments(man)[: LIMITS.get(system)]
    with tempfile.TemporaryDirectory(prefix="hxref-replicas-") as tmp:
        a, b = Copy(Path(tmp) / "a", src, man), Copy(Path(tmp) / "b", src, man)
        rng = data.draw(st.randoms(use_true_random=False))
        a.new(random_day(rng))
        b.new(random_day(rng))
        assert a.head() == b.head()
        for n, seg in enumerate(segs):
            for copy in (a, b):
                calls, local = _schedule(data, src, seg.files)
                for files, day in calls:
                    copy.submit(files, day, local)
            assert a.head() == b.head(), f"{system}: heads differ after the submissions of segment {n}"
            if seg.resolve:
                a.resolve(random_day(rng))
                b.resolve(random_day(rng))
                assert a.head() == b.head(), f"{system}: heads differ after resolve {n}"
        assert a.log() == b.log()
        assert a.head() == b.head()
        # stronger still: the whole game files (header snapshot and pending area too) are the same
        assert a.game.read_bytes() == b.game.read_bytes()
        for copy in (a, b):
            assert "audit OK" in copy.audit(random_day(rng)).output


@pytest.mark.parametrize("system", sorted(DEMOS))
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)
@given(data=st.data())
def test_identical_replicas(system, data):
    _replay_twice(system, data)


# --- explicit cases: the files of one decision, in different orders and on different days ---------

def _explicit(src: Path, calls_a, calls_b, resolve_days=("2027-01-02T03:04:05Z", "2031-12-30T23:59:59Z")):
    man = manifest(src)
    with tempfile.TemporaryDirectory(prefix="hxref-replicas-") as tmp:
        a, b = Copy(Path(tmp) / "a", src, man), Copy(Path(tmp) / "b", src, man)
        a.new("2026-01-01T00:00:00Z")
        b.new("2030-06-15T12:00:00Z")
        for copy, calls in ((a, calls_a), (b, calls_b)):
            for files, day in calls:
                copy.submit(files, day)
        assert a.head() == b.head()          # pending files are outside the chain
        a.resolve(resolve_days[0])
        b.resolve(resolve_days[1])
        assert a.head() == b.head()
        assert a.log() == b.log()
        for copy in (a, b):
            assert "audit OK" in copy.audit("2029-02-28T00:00:00Z").output
        return a, b


def test_one_decision_two_orders_two_days_umpired_bid():
    """Heartland demo (umpired): the joins and the t1.bid commitments and reveals arrive in opposite
    orders, in different groupings, on days years apart; the t1.bid block is the same."""
    src = DEMOS["heartland"]
    joins = ["union-join.yaml", "confederate-join.yaml", "umpire-join.yaml"]
    commits = ["union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml"]
    reveals = ["union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml"]
    assert {file_info(src, f).decision for f in commits + reveals} == {"t1.bid"}
    calls_a = [([f], f"2026-12-0{i + 1}T08:00:00Z") for i, f in enumerate(joins + commits + reveals)]
    calls_b = [(joins[::-1], "2031-03-03T03:03:03Z"), (commits[::-1], "2028-07-04T00:00:00Z"),
               ([reveals[1]], "2026-11-30T23:00:00Z"), ([reveals[0]], "2029-09-09T09:09:09Z")]
    _explicit(src, calls_a, calls_b)


def test_one_decision_two_orders_two_days_open_bid():
    """Bidding demo (open): the same, the reveals carrying both sides' dice links."""
    src = BIDDING
    joins = ["union-join.yaml", "confederate-join.yaml"]
    commits = ["union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml"]
    reveals = ["union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml"]
    calls_a = [(joins, "2026-12-01T00:00:00Z"), (commits, "2026-12-02T00:00:00Z"),
               (reveals, "2026-12-03T00:00:00Z")]
    calls_b = [(joins[::-1], "2030-01-01T00:00:00Z"), ([commits[1]], "2027-05-05T05:05:05Z"),
               ([commits[0]], "2031-01-01T00:00:00Z"), (reveals[::-1], "2026-02-02T02:02:02Z")]
    _explicit(src, calls_a, calls_b)


# --- property 10 on the shipped ACW demo ---------------------------------------------------------

def test_acw_demo_one_mail_per_side_per_impulse():
    """The open ACW demo, mails grouped as a player would (a side's consecutive files travel together:
    its dice link for the opponent's player turn and its own next orders): in steady state each
    player turn costs the phasing side exactly one mail, holding the link and the orders."""
    src = DEMOS["acw-minis"]
    seq = replay.manifest_sequence(src)
    mails = replay.group_mails(seq)
    stats = replay.mail_stats(mails)
    play = [m for m in mails if any(f.kind != "join" for f in m.files)]
    # steady state: after the joins and the first orders (nothing to roll for yet), before the last
    # lone link (the game is over)
    steady = play[1:-1]
    assert [f.kind for f in play[0].files] == ["answer"] and [f.kind for f in play[-1].files] == ["roll"]
    assert steady
    for m in steady:
        kinds = sorted(f.kind for f in m.files)
        assert kinds == ["answer", "roll"], (m.side, [f.name for f in m.files])
        roll, ans = sorted(m.files, key=lambda f: f.kind != "roll")
        assert ans.side == roll.side == m.side and ans.decision != roll.decision
    assert stats["per_impulse"] == {"confederate": 1.0, "union": 1.0}, stats
    assert stats["lone_links"] == {"confederate": 0, "union": 0}, stats
    assert stats["other"] == {"confederate": 0, "union": 0}, stats
    assert stats["files_per_mail"] == 2


def test_one_mail_is_one_submit():
    """Property 10 on the receiving side: the confederate's mail (his link for t1.union and his orders
    for t1.confederate) is taken by one `hxref submit GAME FILE FILE`, as the copy that wrote it did."""
    src = DEMOS["acw-minis"]
    man = manifest(src)
    with tempfile.TemporaryDirectory(prefix="hxref-replicas-") as tmp:
        c = Copy(Path(tmp), src, man)
        c.new(man["created"])
        c.submit(["union-join.yaml", "confederate-join.yaml"], man["created"])
        c.submit(["union-t1.union.yaml"], man["created"])
        res = c.hxref("submit", "game.yaml", str(src / "confederate-t1.union-roll.yaml"),
                      str(src / "confederate-t1.confederate.yaml"), day=man["created"], code=None)
        assert res.exit_code == 0, res.output
