"""Property 6, identical replicas: two copies of a game that receive the same signed files hold the
same log, byte for byte, whatever the arrival order of the files of an open decision, however
they are grouped into `hxref submit` calls, and whatever the local day (HXREF_NOW) of each call.

For each of the four systems' shipped demos, copies are made with `hxref new` and the manifest's
values (its --nonce, so that they are the shipped game), each in its own folder.  Between two
`resolve` steps of the manifest, each copy gets the segment's files in its own random order (a
permutation, stably sorted so that reveals follow the commitments and dice links the answers: the
only orders the protocol accepts), cut into its own random `hxref submit` calls (merging the
manifest's consecutive submit steps, or splitting them), each at its own random day; and each file
may reach a copy under another name, or with CRLF line endings (a mail program).  Each copy
resolves after every `resolve` step (umpired demos with the umpire's key) and must hold the same
head as a reference copy (every segment in one call, as sent, on one day) after every submission
segment and every resolve, and at the end the same log (the part of the game file after the log
marker) byte for byte -- and the whole game file too, header snapshot included --, with `hxref
audit` OK: so any two copies are identical replicas.

Run in-process (click's CliRunner): the reference and five copies per system, each copy a test of
its own, the reference played once for the run.  Salem Church, the slowest demo (about 9 s for one
straight replay), is cut to its first SALEM_SEGMENTS segments.

Also here: the steady-state mail count of the open ACW demo (property 10), from the shipped files'
order.
"""
from __future__ import annotations

import fcntl
import itertools
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hxref.cli import main
from hxref.gamefile.game import GameFile
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


def _plan(system: str, data) -> tuple[list, list[str], list[tuple]]:
    """One copy's play, drawn whole before anything is played: each segment's submit calls
    (:func:`_schedule`), the days of its `hxref new`, of each resolve and of its audit."""
    src = DEMOS[system]
    segs = segments(manifest(src))[: LIMITS.get(system)]
    rng = data.draw(st.randoms(use_true_random=False))
    days = [random_day(rng) for _ in range(1 + len(segs) + 1)]
    return segs, days, [_schedule(data, src, seg.files) for seg in segs]


def _play(system: str, work: Path, plan) -> tuple[Copy, list[str]]:
    """A copy of ``system``'s demo in ``work`` played by ``plan``, and its heads: after `hxref new`,
    after the submissions of every segment and after every resolve."""
    src = DEMOS[system]
    segs, days, schedules = plan
    day = iter(days)
    copy = Copy(work, src, manifest(src))
    copy.new(next(day))
    heads = [copy.head()]
    for seg, (calls, local) in zip(segs, schedules):
        for files, when in calls:
            copy.submit(files, when, local)
        heads.append(copy.head())
        if seg.resolve:
            copy.resolve(next(day))
            heads.append(copy.head())
    assert "audit OK" in copy.audit(next(day)).output
    return copy, heads


def _reference(system: str) -> dict:
    """The reference copy of ``system``'s demo, played once for the test run (under a lock, in the
    run's shared folder): every segment's files in one `hxref submit` call, in manifest order as the
    protocol accepts it, as sent, all on one day.  Its heads, its log and its whole game file."""
    from tests.conftest import PLAYED

    src = DEMOS[system]
    segs = segments(manifest(src))[: LIMITS.get(system)]
    root = Path(os.environ[PLAYED]) / "replicas" / system
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / "reference.json"
        if not done.is_file():
            day = "2027-01-01T00:00:00Z"
            plan = (segs, [day] * (len(segs) + 2), [([(phase_order(src, seg.files), day)], {}) for seg in segs])
            copy, heads = _play(system, root / "copy", plan)
            done.write_text(json.dumps({"heads": heads, "log": copy.log(), "game": copy.game.read_bytes().decode("utf-8")}))
        return json.loads(done.read_text())


#: the copies of each system's demo, one test each so that pytest-xdist spreads them; each is
#: compared with the reference copy (:func:`_reference`), and so with every other copy
COPIES = 5


@pytest.mark.parametrize("example", range(COPIES))
@pytest.mark.parametrize("system", sorted(DEMOS))
def test_identical_replicas(system, example):
    """Copy ``example`` of ``system``'s demo holds the reference copy's heads after every segment's
    submissions and every resolve, and at the end its log and its whole game file, byte for byte.

    Hypothesis is run for ``example + 1`` examples and every one draws its plan, but only the last is
    played (and, should it fail, the examples Hypothesis shrinks it to): the first copy is
    Hypothesis's simplest example, the others random.  Together with the reference the tests of a
    system play six copies, as three examples of two copies each did."""
    want = _reference(system)
    calls = itertools.count()

    @settings(max_examples=example + 1, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize=False)
    @given(data=st.data())
    def run(data):
        plan = _plan(system, data)
        if next(calls) < example:
            return                  # another test's copy: drawn, so that Hypothesis moves on
        with tempfile.TemporaryDirectory(prefix="hxref-replicas-") as tmp:
            copy, heads = _play(system, Path(tmp), plan)
            for n, (got, ref) in enumerate(zip(heads, want["heads"])):
                assert got == ref, f"{system}: the heads differ from the reference's at point {n} (0: new)"
            assert len(heads) == len(want["heads"])
            assert copy.log() == want["log"]
            # stronger still: the whole game files (header snapshot and pending area too) are the same
            assert copy.game.read_bytes().decode("utf-8") == want["game"]

    run()


# --- explicit cases: the files of one decision, in different orders and on different days ---------

def _explicit(src: Path, calls_a, calls_b, resolve_days=("2027-01-02T03:04:05Z", "2031-12-30T23:59:59Z")):
    man = manifest(src)
    with tempfile.TemporaryDirectory(prefix="hxref-replicas-") as tmp:
        a, b = Copy(Path(tmp) / "a", src, man), Copy(Path(tmp) / "b", src, man)
        a.new("2026-12-01T00:00:00Z")
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
               ([commits[0]], "2031-01-01T00:00:00Z"), (reveals[::-1], "2026-12-02T02:02:02Z")]
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


# --- claims, undo votes and reveals in every order ------------------------------------------------
#
# An open bidding game (deadline 1 h, stand-fast) is played on a source copy; what its files are
# depends on the scenario.  Two copies then receive each segment's files in their own random order,
# one `hxref submit` a file, on random days: a file refused because it came too early (a reveal
# before the commitments, a claim before the claimant's own file, a file naming a head the copy
# has not reached) is kept by its receiver and submitted again after the next file is taken.  Every
# file ends accepted or refused the same way on both copies (a vote made moot may be accepted then
# forgotten on one, refused on the other: what counts is that it is in neither block), both logs
# are byte-identical after every segment and both game files at the end, and both audit clean.

T0 = "2026-11-29T12:00:00Z"
T_LATE = "2026-11-29T14:00:00Z"          # past the 1-hour deadline of t1.bid
SCENARIOS = ("claim-then-reveal", "undo-in-flight", "withdrawal-agreed", "withheld-reveal")


class _Folder:
    """hxref commands run in one folder, on a given day (HXREF_NOW)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.runner = CliRunner()

    def __call__(self, *args: str, day: str = T0, code: int | None = 0):
        cwd = os.getcwd()
        os.chdir(self.folder)
        try:
            res = self.runner.invoke(main, list(args), env={"HXREF_NOW": day}, catch_exceptions=False)
        finally:
            os.chdir(cwd)
        if code is not None:
            assert res.exit_code == code, f"hxref {' '.join(args)} -> {res.exit_code}\n{res.output}"
        return res


def _scenario(folder: Path, keydir: Path, name: str) -> list[tuple[list[Path], bool]]:
    """Play ``name`` on a source copy in ``folder`` (whose ``base.yaml`` is the joined game left as
    it was); return its segments: (files, whether `hxref resolve` follows)."""
    hx = _Folder(folder)
    alice, bob = str(keydir / "alice"), str(keydir / "bob")
    hx("new", "base.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
       "--game-id", "replicas", "--side", f"union={keydir / 'alice.pub'}", "--side", f"confederate={keydir / 'bob.pub'}",
       "--deadline-hours", "1", "--nmr", "stand-fast")
    hx("join", "base.yaml", "--side", "union", "--key", alice)
    hx("join", "base.yaml", "--side", "confederate", "--key", bob)
    hx("submit", "base.yaml", "union-join.yaml", "confederate-join.yaml")
    shutil.copy(folder / "base.yaml", folder / "src.yaml")
    f = folder.joinpath

    def commit(side: str, key: str, bid: int, where: str) -> tuple[Path, Path]:
        (folder / where).mkdir(exist_ok=True)
        hx("commit", "src.yaml", "--side", side, "--key", key, "--choice", f"bid: {bid}", "--dir", where)
        return f(where, f"{side}-t1.bid-commit.yaml"), f(where, f"{side}-t1.bid-reveal.yaml")

    def undo(side: str, key: str) -> Path:
        out = folder / f"undo-{side}"
        out.mkdir()
        hx("undo", "src.yaml", "--side", side, "--key", key, "--dir", str(out))
        return next(out.iterdir())

    if name == "claim-then-reveal":
        uc, ur = commit("union", alice, 3, "u")
        hx("submit", "src.yaml", str(uc))
        hx("claim", "src.yaml", "--side", "union", "--key", alice, "--against", "confederate", day=T_LATE)
        return [([uc, f("union-t1.bid-claim-confederate.yaml"), ur], True)]
    if name == "undo-in-flight":
        uc, ur = commit("union", alice, 3, "u")
        hx("submit", "src.yaml", str(uc))
        vote = undo("union", alice)
        cc, cr = commit("confederate", bob, 2, "c")
        return [([uc, vote, cc, ur, cr], True)]
    if name == "withdrawal-agreed":
        uc, _ = commit("union", alice, 3, "u1")
        hx("submit", "src.yaml", str(uc))
        votes = [undo("union", alice), undo("confederate", bob)]
        hx("submit", "src.yaml", *map(str, votes))
        uc2, ur2 = commit("union", alice, 2, "u2")
        cc, cr = commit("confederate", bob, 4, "c")
        return [([uc, *votes], False), ([uc2, cc, ur2, cr], True)]
    assert name == "withheld-reveal"
    uc, ur = commit("union", alice, 3, "u")
    cc, _ = commit("confederate", bob, 2, "c")
    hx("submit", "src.yaml", str(uc), str(cc), str(ur))
    hx("claim", "src.yaml", "--side", "union", "--key", alice, "--against", "confederate", day=T_LATE)
    return [([uc, cc], False), ([ur, f("union-t1.bid-claim-confederate.yaml")], False)]


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory, keydir) -> dict:
    out = {}
    for name in SCENARIOS:
        folder = tmp_path_factory.mktemp(name)
        out[name] = (folder, _scenario(folder, keydir, name))
    return out


def _deliver(hx: _Folder, game: Path, files: list[Path], days: list[str]) -> dict[str, str]:
    """Submit ``files`` one by one, in this order; a refused one is kept and sent again after the
    next file is taken.  Each file's fate: ``accepted``, or the code of its last refusal."""
    fate: dict[str, str] = {}
    waiting: list[Path] = []
    for n, path in enumerate(files):
        queue = [path]
        while queue:
            p = queue.pop(0)
            res = hx("submit", str(game), str(p), day=days[n], code=None)
            if res.exit_code == 0:
                fate[p.name] = "accepted"
                if p in waiting:
                    waiting.remove(p)
                queue = list(waiting)       # what waited may go now
            else:
                assert res.exit_code == 2 and "Traceback" not in res.output, res.output
                fate[p.name] = res.output.rsplit("[", 1)[-1].split("]")[0]
                if p not in waiting:
                    waiting.append(p)
    return fate


@pytest.mark.parametrize("name", SCENARIOS)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)
@given(data=st.data())
def test_claims_votes_and_reveals_in_any_order(scenarios, name, data):
    folder, segs = scenarios[name]
    with tempfile.TemporaryDirectory(prefix="hxref-replicas-") as tmp:
        games = []
        for who in ("a", "b"):
            (Path(tmp) / who).mkdir()
            shutil.copy(folder / "base.yaml", Path(tmp) / who / "g.yaml")
            games.append(Path(tmp) / who / "g.yaml")
        hx = _Folder(Path(tmp))
        rng = data.draw(st.randoms(use_true_random=False))
        for files, resolve in segs:
            fates = []
            for game in games:
                order = data.draw(st.permutations(files))
                fates.append(_deliver(hx, game, order, [random_day(rng) for _ in order]))
                if resolve:
                    hx("resolve", str(game), day=random_day(rng))
            moot = {p.name for p in files if p.parent.name.startswith("undo-")} if name == "undo-in-flight" else set()
            assert {k: v for k, v in fates[0].items() if k not in moot} == \
                {k: v for k, v in fates[1].items() if k not in moot}
            # the same log, and the same header as data (a pending area's mappings may list the
            # sides in the order their files arrived)
            assert replay.log_text(games[0]) == replay.log_text(games[1]), f"{name}: the logs differ"
            assert GameFile.load(games[0]).header == GameFile.load(games[1]).header, f"{name}: the headers differ"
        assert games[0].read_bytes() == games[1].read_bytes(), f"{name}: the copies differ"
        for game in games:
            assert "audit OK" in hx("audit", str(game), day=random_day(rng)).output
        log = GameFile.load(games[0]).log
        assert not [e for e in log if e["kind"] == "submission" and e["data"]["kind"] == "undo"
                    and name != "withdrawal-agreed"]
