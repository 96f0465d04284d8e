"""Attacks on signed time and on the order of a block, run the way the attacker runs them: with his
own key, the other side's public key and the files he holds (his own signed files, and those the
victim sent him).  Each is refused (exit 2, one line, a stable code, the game file unchanged) or
harmless, and the honest game still plays and audits.

* a file signed at the end of the calendar (``9999-12-31``): the last reveal of a bid, or the dice
  link of an impulse, would freeze the game for ever (deadline arithmetic past year 9999);
* a backdated answer (signed in 2020, or before the history it names): the victim's next
  deadline would be already past, and a claim against him accepted at once;
* an undo vote in flight while the other side commits: two honest copies must write the same
  block, and both audit clean;
* an honest claim against a missing commitment, then the claimant's reveal: the block must be one
  the audit accepts.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hxref.crypto import commit as commit_mod
from hxref.referee import orders
from hxref.referee import trust as protocol
from hxref.referee.audit import audit as run_audit
from hxref.referee.engine import Engine
from hxref.gamefile.game import GameFile

from tests.conftest import NOW
from tests.security import attacker
from tests.security.attacker import sha
from tests.security.test_attacks import DEC, KEYS, POLICY, answer, head_of, refused, roll, start

END_OF_TIME = "9999-12-31T23:00:00Z"
LATER = "2026-11-29T14:00:00Z"          # past a 1-hour deadline that opened at NOW


def _held(path) -> dict:
    """The fields of a signed file the attacker holds (his own, written by hxref)."""
    return orders.parse(Path(path).read_text(encoding="utf-8"), str(path)).data


def _resigned(g: str, side: str, src, out: str, **envelope) -> Path:
    """``src`` (a file of ``side``'s that hxref wrote) signed again by its author with another
    envelope (a time of his choosing)."""
    d = _held(src)
    fields = {k: v for k, v in d.items() if k not in ("hxref", "game", "identity", "at", "side")}
    envelope.setdefault("head", d["head"])
    return attacker.signed_file(g, side, KEYS[side], out, fields, **envelope)


def _bid_to_last_reveal(cli, g: str, union: int = 3, confederate: int = 2) -> None:
    """Both commit; union reveals: confederate, the last revealer, knows the outcome."""
    for side, value in (("union", union), ("confederate", confederate)):
        cli("commit", g, "--side", side, "--key", KEYS[side], "--choice", f"bid: {value}")
    cli("submit", g, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", g, "union-t1.bid-reveal.yaml")


# --- the end of the calendar ---------------------------------------------------------------------

def test_reveal_signed_at_year_9999_is_refused_and_the_bid_still_resolves(cli, monkeypatch):
    """Bob, the last revealer, who loses the bid, re-signs his reveal `at: 9999-12-31T23:00:00Z` so
    that the bid can never resolve: Alice's copy refuses it (E313), unchanged; his honest reveal
    then resolves the bid, and the game audits."""
    g = start(cli, scenario="bidding-demo", policy=POLICY, bids=None)
    _bid_to_last_reveal(cli, g)
    stall = _resigned(g, "confederate", "confederate-t1.bid-reveal.yaml", "stall.yaml", at=END_OF_TIME)
    before = sha(g)
    err = refused(cli, "submit", g, str(stall), code="E313")
    assert "stall.yaml" in err and END_OF_TIME in err and "ahead of this machine's clock" in err
    assert sha(g) == before
    cli("submit", g, "confederate-t1.bid-reveal.yaml")
    cli("resolve", g)
    assert "t1.bid" in GameFile.load(g).header["resolved"]
    assert run_audit(g).ok


def test_year_9999_on_the_attackers_own_clock_cannot_crash_resolve(cli, monkeypatch):
    """On his own machine Bob sets his clock to the end of the calendar, so his own copy takes the
    reveal: resolve still works there (the next deadlines stay at the calendar's end, no overflow),
    and every copy with a true clock refuses that history: the audit says which file."""
    g = start(cli, scenario="bidding-demo", policy=POLICY, bids=None)
    _bid_to_last_reveal(cli, g)
    monkeypatch.setenv("HXREF_NOW", END_OF_TIME)
    stall = _resigned(g, "confederate", "confederate-t1.bid-reveal.yaml", "stall.yaml", at=END_OF_TIME)
    cli("submit", g, str(stall))
    cli("resolve", g)
    deadlines = [d["deadline"] for d in GameFile.load(g).header["awaiting"]]
    assert deadlines and all(d == "9999-12-31T23:59:59Z" for d in deadlines)
    cli("status", g)
    monkeypatch.setenv("HXREF_NOW", NOW)
    res = run_audit(g)
    assert not res.ok and "ahead of this machine's clock" in " ".join(res.problems)


def test_roll_signed_at_year_9999_is_refused_and_the_impulse_still_resolves(cli, monkeypatch):
    """Alice, the roller of the Confederate impulse, knows its dice before she sends her link: she
    sends it in a roll signed at year 9999, which would freeze the impulse with nothing owed.
    Refused (E313), the game unchanged; her honest roll resolves it."""
    g = start(cli)
    answer(cli, g)
    honest = roll(cli, g)
    stall = _resigned(g, "union", honest, "stall.yaml", at=END_OF_TIME)
    before = sha(g)
    refused(cli, "submit", g, str(stall), code="E313")
    assert sha(g) == before
    cli("submit", g, str(honest))
    cli("resolve", g)
    assert DEC in GameFile.load(g).header["resolved"]
    assert run_audit(g).ok


@pytest.mark.parametrize("at", ["10000-01-01T00:00:00Z", "2026-11-29T12:00:00+00:00", "2026-11-29T12:00:00",
                                "2026-11-29T12:00:00.5Z", "2026-02-30T12:00:00Z", "2026-11-29 12:00:00Z"])
def test_a_signed_time_is_utc_to_the_second(cli, at):
    """Only one form of signed time is read (UTC, to the second, `Z`): any other is refused before
    the game is looked at (E112, naming the file and the line of `at`)."""
    g = start(cli, scenario="bidding-demo", bids=None)
    cli("commit", g, "--side", "confederate", "--key", "bob", "--choice", "bid: 2")
    odd = _resigned(g, "confederate", "confederate-t1.bid-commit.yaml", "odd.yaml", at=at)
    before = sha(g)
    err = refused(cli, "submit", g, str(odd), code="E112")
    assert "odd.yaml" in err and "`at`" in err
    assert sha(g) == before


# --- backdating ------------------------------------------------------------------------------------

def test_backdated_answer_cannot_make_the_victims_deadline_already_past(cli, monkeypatch):
    """Alice's own answer closes a decision; she signs it `at: 2020-01-01` so that the decision it
    opens for Bob is due in 2020, and her claim, signed at the true time, would take his turn at
    once.  Refused (E313); signed at the true time it opens Bob's decision from then, and her claim
    is early."""
    monkeypatch.setenv("HXREF_NOW", LATER)
    g = start(cli, policy=POLICY)
    path = answer(cli, g, submit=False)
    backdated = _resigned(g, "confederate", path, "backdated.yaml", at="2020-01-01T00:00:00Z")
    before = sha(g)
    err = refused(cli, "submit", g, str(backdated), code="E313")
    assert "earlier than the game's time" in err and LATER in err
    # just before the latest signed time of the history it names (the bid's files, at LATER)
    subtle = _resigned(g, "confederate", path, "subtle.yaml", at="2026-11-29T13:59:59Z")
    refused(cli, "submit", g, str(subtle), code="E313")
    assert sha(g) == before
    cli("submit", g, str(path))
    cli("submit", g, str(roll(cli, g)))
    cli("resolve", g)
    eng = Engine.load(g)
    for d in eng.h["awaiting"]:
        assert d["opened"]["at"] >= LATER and d["deadline"] >= protocol.plus_hours(LATER, 1)
    nxt = eng.awaiting[0]
    assert "LATE" not in protocol.time_left(nxt.deadline, LATER)
    assert run_audit(g).ok


def test_deadline_runs_from_the_games_latest_signed_time(cli, monkeypatch):
    """A decision is due from the latest signed time of the history where it opens, not from an
    earlier file of its block: union's commitment signed at NOW, confederate's and both reveals an
    hour later; the impulse opened by the bid is due an hour after the latest of them."""
    g = start(cli, policy=POLICY, bids=None)
    cli("commit", g, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T13:00:00Z")
    cli("commit", g, "--side", "confederate", "--key", "bob", "--choice", "bid: 3")
    cli("submit", g, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", g, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    cli("resolve", g)
    d = GameFile.load(g).header["awaiting"][0]
    assert d["opened"]["at"] == "2026-11-29T13:00:00Z" and d["deadline"] == "2026-11-29T14:00:00Z"


# --- an undo vote in flight ------------------------------------------------------------------------

def _two_copies(cli) -> tuple[str, str]:
    """Alice's copy and Bob's copy of one open bidding game, both joined."""
    g = start(cli, scenario="bidding-demo", bids=None)
    for who in ("alices", "bobs"):
        Path(who).mkdir()
        shutil.copy(g, f"{who}/g.yaml")
    return "alices/g.yaml", "bobs/g.yaml"


def test_undo_vote_in_flight_does_not_fork_two_honest_copies(cli):
    """Alice commits, then signs an undo of her commitment (her vote; Bob's is needed too), keeps it
    and mails it; Bob, before reading that mail, commits.  Alice's copy kept the vote, Bob's refuses
    it (final).  The vote is moot once both commitments are in: both copies then hold the same
    files, write the same block, reach the same head, and both audit clean."""
    a, b = _two_copies(cli)
    cli("commit", a, "--side", "union", "--key", "alice", "--choice", "bid: 3", "--dir", "alices")
    cli("submit", a, "alices/union-t1.bid-commit.yaml")
    cli("submit", b, "alices/union-t1.bid-commit.yaml")
    cli("undo", a, "--side", "union", "--key", "alice", "--dir", "alices")
    vote = next(Path("alices").glob("union-undo-*.yaml"))
    cli("submit", a, str(vote))
    assert [f["kind"] for f in Engine.load(a).pending("t1.bid")["files"]] == ["commit", "undo"]
    cli("commit", b, "--side", "confederate", "--key", "bob", "--choice", "bid: 2", "--dir", "bobs")
    cli("submit", b, "bobs/confederate-t1.bid-commit.yaml")
    refused(cli, "submit", b, str(vote), code="E304")
    cli("submit", a, "bobs/confederate-t1.bid-commit.yaml")
    assert Path(a).read_bytes() == Path(b).read_bytes()       # the moot vote is forgotten
    for g in (a, b):
        assert run_audit(g).ok
    for g in (a, b):
        cli("submit", g, "alices/union-t1.bid-reveal.yaml", "bobs/confederate-t1.bid-reveal.yaml")
        cli("resolve", g)
    assert head_of(a) == head_of(b)
    assert Path(a).read_bytes() == Path(b).read_bytes()
    for g in (a, b):
        assert run_audit(g).ok
    assert not [e for e in GameFile.load(a).log if e["kind"] == "submission" and e["data"]["kind"] == "undo"]


def test_undo_vote_not_agreed_enters_no_resolution_block(cli, monkeypatch):
    """Alice commits and proposes to withdraw her commitment; before Bob consents, a claim closes the
    decision (Bob missed it, policy forfeit).  The vote, not agreed, is left out of the block: a copy
    that never received it writes the same block, and both audit clean."""
    g = start(cli, scenario="bidding-demo", policy=("--deadline-hours", "1", "--nmr", "forfeit"), bids=None)
    shutil.copy(g, "other.yaml")
    cli("commit", g, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", g, "union-t1.bid-commit.yaml")
    cli("undo", g, "--side", "union", "--key", "alice")
    cli("submit", g, *map(str, Path(".").glob("union-undo-*.yaml")))
    assert "undo" in Engine.load(g).pending("t1.bid")
    monkeypatch.setenv("HXREF_NOW", LATER)
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate")
    cli("submit", g, "union-t1.bid-claim-confederate.yaml")
    cli("submit", "other.yaml", "union-t1.bid-commit.yaml", "union-t1.bid-claim-confederate.yaml")
    assert "confederate forfeits" in cli("status", g).output
    assert Path(g).read_bytes() == Path("other.yaml").read_bytes()
    for game in (g, "other.yaml"):
        assert run_audit(game).ok


def test_a_resolution_block_holding_an_unagreed_vote_is_refused_by_the_audit(cli):
    """A forger writes a block holding an undo vote nobody agreed to (as the old `_close` did): the
    replay refuses it."""
    g = start(cli, scenario="bidding-demo", bids=None)
    cli("commit", g, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", g, "union-t1.bid-commit.yaml")
    cli("undo", g, "--side", "union", "--key", "alice")
    vote = next(Path(".").glob("union-undo-*.yaml"))
    cli("submit", g, str(vote))
    eng = Engine.load(g)
    eng._closing = True
    pend = eng.pending("t1.bid")
    for f in pend["files"]:
        eng._apply("submission", f["party"], {"decision": "t1.bid", "side": f["party"], "kind": f["kind"],
                                              "file": f["file"], "sha256": f["sha256"], "at": f["at"]})
    eng._closing = False
    with pytest.raises(Exception, match="was not agreed"):
        eng._apply("resolve", None, {"decision": "t1.bid"})


# --- a claim, then the claimant's reveal -----------------------------------------------------------

def test_claim_against_a_missing_commitment_then_reveal_audits(cli, monkeypatch):
    """Alice commits; Bob is late; Alice claims against his missing commitment (stand-fast), then
    reveals, then resolves: every step is taken live, and the block is one the audit accepts (the
    claim before the reveal it makes possible).  A second copy that receives the same files in
    another order writes the same block; there union's claim waits for union's own commitment."""
    g = start(cli, scenario="bidding-demo", policy=POLICY, bids=None)
    shutil.copy(g, "other.yaml")
    cli("commit", g, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", g, "union-t1.bid-commit.yaml")
    monkeypatch.setenv("HXREF_NOW", LATER)
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate")
    cli("submit", g, "union-t1.bid-claim-confederate.yaml")
    cli("submit", g, "union-t1.bid-reveal.yaml")
    cli("resolve", g)
    res = run_audit(g)
    assert res.ok, res.problems
    kinds = [e["data"]["kind"] for e in GameFile.load(g).log if e["kind"] == "submission"
             and e["data"]["decision"] == "t1.bid"]
    assert kinds[:3] == ["commit", "claim", "reveal"]
    # on the other copy the claim arrives first: union has not sent its own commitment there yet, so
    # its claim waits (a claimant late itself claims nothing); then the same block
    err = refused(cli, "submit", "other.yaml", "union-t1.bid-claim-confederate.yaml", code="E312")
    assert "send it before claiming" in err
    cli("submit", "other.yaml", "union-t1.bid-commit.yaml", "union-t1.bid-claim-confederate.yaml",
        "union-t1.bid-reveal.yaml")
    cli("resolve", "other.yaml")
    assert head_of("other.yaml") == head_of(g)
    assert json.loads(cli("status", g, "--json").output)["phase"] in ("playing", "over")


# --- no signed time or policy makes a command raise ------------------------------------------------

_EXTREMES = ["0001-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2000-02-29T00:00:00Z", "9999-12-31T23:00:00Z",
             "9999-12-31T23:59:59Z"]
_TIMES = st.one_of(st.sampled_from(_EXTREMES),
                   st.datetimes(min_value=_dt.datetime(1, 1, 1), max_value=_dt.datetime(9999, 12, 31, 23, 59, 59))
                   .map(lambda t: t.replace(microsecond=0).isoformat() + "Z"))
#: a file's time, as seconds from the clock: mostly within the tolerance, or within a few days
_OFFSETS = st.one_of(st.integers(0, 3600), st.integers(0, 3600), st.integers(-5 * 86400, 5 * 86400))
_HOURS = st.one_of(st.integers(1, 10**400), st.floats(min_value=1e-9, max_value=1e308), st.sampled_from([1, 168]))


def _near(clock: str, seconds: int) -> str:
    try:
        return protocol.format_time(protocol.parse_time(clock) + _dt.timedelta(seconds=seconds))
    except OverflowError:       # past the calendar's ends: the clock itself
        return clock


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(clock=st.one_of(st.sampled_from(_EXTREMES + [NOW]), _TIMES),
       deadline=_HOURS, grace=st.one_of(st.none(), st.just(0), _HOURS), nmr=st.sampled_from(["stand-fast", "forfeit"]),
       times=st.lists(st.one_of(_OFFSETS, _OFFSETS, _OFFSETS, _TIMES), min_size=7, max_size=7), bids=st.tuples(st.integers(0, 4), st.integers(0, 4)))
def test_no_signed_time_or_policy_makes_the_engine_raise(keydir, clock, deadline, grace, nmr, times, bids):
    """Through the real engine, with the clock anywhere in the calendar, any deadline policy `new`
    accepts, and every file (joins, commitments, reveals, claims) signed at any time, extreme or near
    the clock: each file is accepted or refused with a user error, resolve and the waiting texts
    never raise, and what was accepted live passes the audit's replay on the same clock."""
    from hxref.base.errors import HxrefError
    from hxref.crypto.signing import load_private_key, load_public_key, sign_text

    keys = {"union": load_private_key(str(keydir / "alice")), "confederate": load_private_key(str(keydir / "bob"))}
    ats = iter([_near(clock, t) if isinstance(t, int) else t for t in times])
    old = os.environ.get("HXREF_NOW")
    os.environ["HXREF_NOW"] = clock
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "g.yaml"
            try:
                eng = Engine.create(path, system="heartland", scenario="bidding-demo", mode="open",
                                    sides={s: load_public_key(str(keydir / f"{k}.pub"))
                                           for s, k in (("union", "alice"), ("confederate", "bob"))},
                                    policy={"deadline_hours": deadline, "grace_hours": grace, "nmr": nmr},
                                    created=clock)
            except HxrefError:
                return

            def send(side: str, fields: dict, at: str) -> None:
                env = eng.envelope(side, fields.pop("decision"), fields.pop("kind"))
                env["at"] = at
                try:
                    eng.submit(sign_text(orders.render({**env, **fields}), keys[side]), f"{side}.yaml")
                except HxrefError as exc:
                    event(f"{env['kind']} refused {exc.code}")

            for side in keys:
                send(side, eng.join_fields(keys[side]), next(ats))
            reveals = {}
            for side, bid_ in zip(keys, bids):
                dec = eng.decision("t1.bid")
                if dec is None:
                    break
                choice, salt = {"bid": bid_}, commit_mod.new_salt()
                send(side, {"decision": dec.id, "kind": "commit",
                            "commitment": commit_mod.commitment(choice, salt, (eng.identity, dec.id, side))}, next(ats))
                reveals[side] = {"decision": dec.id, "kind": "reveal", "choice": choice, "salt": salt,
                                 "link": eng.next_link(side, keys[side], dec)}
            send("union", {"decision": "t1.bid", "kind": "claim", "against": "confederate"}, next(ats))
            for side, fields in reveals.items():
                if eng.decision("t1.bid") is not None:
                    send(side, dict(fields), next(ats))
            try:
                eng.resolve()
            except HxrefError:
                pass
            eng.waiting_text()
            eng.waiting_for()
            event(f"decisions resolved: {len(eng.h['resolved'])}, phase {eng.h['phase']}")
            eng.save()
            res = run_audit(path)
            assert res.ok, res.problems
    finally:
        if old is None:
            os.environ.pop("HXREF_NOW", None)
        else:
            os.environ["HXREF_NOW"] = old


# --- every claim path, taken live, then audited ------------------------------------------------------

def _claim(cli, g: str, by: str, against: str, decision: str = "t1.bid") -> None:
    key = KEYS[by]
    cli("claim", g, "--side", by, "--key", key, "--against", against, "--decision", decision)
    cli("submit", g, f"{by}-{decision}-claim-{against}.yaml")


def _audits(g: str) -> None:
    res = run_audit(g)
    assert res.ok, res.problems
    assert any(e["kind"] == "submission" and e["data"]["kind"] == "claim" for e in GameFile.load(g).log)


@pytest.mark.parametrize("nmr", ["stand-fast", "forfeit"])
def test_claim_path_missing_commitment(cli, monkeypatch, nmr):
    """commit/reveal, a commitment missing: the claimant commits, claims, then reveals (stand-fast) or
    the claim ends the game (forfeit); either block audits."""
    g = start(cli, scenario="bidding-demo", policy=("--deadline-hours", "1", "--nmr", nmr), bids=None)
    cli("commit", g, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", g, "union-t1.bid-commit.yaml")
    monkeypatch.setenv("HXREF_NOW", LATER)
    _claim(cli, g, "union", "confederate")
    if nmr == "stand-fast":
        cli("submit", g, "union-t1.bid-reveal.yaml")
        cli("resolve", g)
    else:
        assert "confederate forfeits" in cli("status", g).output
    _audits(g)


def test_claim_path_withheld_reveal(cli, monkeypatch):
    """commit/reveal, a reveal withheld: the claimant's own reveal first, then his claim forfeits the
    other; the block (commitments, reveal, claim) audits."""
    g = start(cli, scenario="bidding-demo", policy=POLICY, bids=None)
    _bid_to_last_reveal(cli, g)
    monkeypatch.setenv("HXREF_NOW", LATER)
    _claim(cli, g, "union", "confederate")
    assert "withheld its reveal" in cli("status", g).output
    _audits(g)


def test_claim_path_missing_answer(cli, monkeypatch):
    """answer, an answer missing (the Confederate orders of an impulse): the other side's claim gives
    the default or forfeits; with the default, the claimant's dice link follows and the impulse
    resolves; the blocks audit."""
    g = start(cli, policy=POLICY)
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T16:00:00Z")
    _claim(cli, g, "union", "confederate", DEC)
    if json.loads(cli("status", g, "--json").output)["phase"] != "over":
        cli("submit", g, str(roll(cli, g)))
        cli("resolve", g)
    _audits(g)


def test_claim_path_withheld_link(cli, monkeypatch):
    """roll, a dice link withheld after the answer: the answering side claims; the other forfeits;
    the block (answer, claim) audits."""
    g = start(cli, policy=POLICY)
    answer(cli, g)
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T16:00:00Z")
    _claim(cli, g, "confederate", "union", DEC)
    assert f"withheld its link for {DEC}" in cli("status", g).output
    _audits(g)


def test_claim_path_umpired_missing_answer(cli, monkeypatch):
    """answer in an umpired game: the umpire claims against the late side; the block audits."""
    g = start(cli, mode="umpired", policy=POLICY)
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T16:00:00Z")
    _claim(cli, g, "umpire", "confederate", DEC)
    if json.loads(cli("status", g, "--json").output)["phase"] != "over":
        cli("resolve", g, "--key", "umpire")
    _audits(g)


def test_claim_path_join(cli, monkeypatch):
    """join: no claim is taken while the game waits for its joins (nothing has started to be late
    for); refused, the game unchanged, and the game audits."""
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--game-id", "j",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", *POLICY)
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("submit", "g.yaml", "union-join.yaml")
    monkeypatch.setenv("HXREF_NOW", LATER)
    claim = attacker.signed_file("g.yaml", "union", "alice", "claim.yaml",
                                 {"decision": "join", "kind": "claim", "against": "confederate"})
    before = sha("g.yaml")
    refused(cli, "submit", "g.yaml", str(claim), code="E304")
    assert sha("g.yaml") == before
    assert run_audit("g.yaml").ok
