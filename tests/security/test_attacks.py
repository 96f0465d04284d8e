"""The review's attacks (shared/reviews/security.md: C1, C2, C3, H1, H2, H3, M1, M2), replayed
against trust protocol v2 the way the cheater runs them: with the game file, his own key and the
files he legitimately holds (the opponent's signed files he received).  The cheater's tools are
in tests/security/attacker.py.  Each test asserts that the attack is refused or detected, with its
message and error code, and that the game file is unchanged where a refusal must change nothing.

Impulses with dice are played on ``heartland-demo`` (open unless said): the sides bid 2 (union)
and 3 (confederate), so ``t1.i1.orders`` awaits the Confederate orders; as the lone answering
side, confederate's link is in its answer, and union's link comes after it in a roll file.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.referee import orders
from hxref.referee import trust as protocol
from hxref.base.canon import sha256_hex
from hxref.referee.audit import audit as run_audit
from hxref.referee.engine import Engine
from hxref.base.errors import HxrefError
from hxref.gamefile.game import GameFile
from hxref.cli import main
from hxref.crypto.signing import load_private_key

from tests.conftest import NOW, bid_round
from tests.security import attacker
from tests.security.attacker import sha

LATER = "2026-11-29T14:00:00Z"          # past a 1-hour deadline that opened at NOW
FAR = "2031-01-01T00:00:00Z"
DEC = "t1.i1.orders"
MOVES = [{"force": "calloway", "path": ["1910", "1810", "1710", "1610"]},
         {"force": "duvall", "path": ["1813", "1814", "1815", "1716", "1615", "1614"]},
         {"force": "strother", "path": ["1804", "1704", "1604", "1504"]}]
ORDERS = {"moves": MOVES, "standing": {"defence": {}}}
ORDERS_B = {"moves": MOVES[::-1], "standing": {"defence": {}}}     # the same moves, another order
KEYS = {"union": "alice", "confederate": "bob", "umpire": "umpire"}
POLICY = ("--deadline-hours", "1", "--nmr", "stand-fast")


def run(*args: str, env: dict | None = None):
    """Run hxref whatever its exit code: (exit code, stdout + stderr)."""
    res = CliRunner().invoke(main, list(args), catch_exceptions=False, env=env)
    return res.exit_code, res.output + (res.stderr if res.stderr_bytes else "")


def start(cli, folder: str = ".", *, mode: str = "open", scenario: str = "heartland-demo",
          label: str = "attack", policy: tuple = (), bids: tuple | None = (2, 3)) -> str:
    """A new game in ``folder``, every participant joined; with ``bids``, t1.bid played."""
    Path(folder).mkdir(exist_ok=True)
    g = str(Path(folder) / "g.yaml")
    cli("new", g, "--system", "heartland", "--scenario", scenario, "--mode", mode, "--game-id", label,
        "--side", "union=alice.pub", "--side", "confederate=bob.pub",
        *(("--umpire", "umpire.pub") if mode == "umpired" else ()), *policy)
    parties = ["union", "confederate"] + (["umpire"] if mode == "umpired" else [])
    for s in parties:
        cli("join", g, "--side", s, "--key", KEYS[s])
    cli("submit", g, *[str(Path(folder) / f"{s}-join.yaml") for s in parties])
    if bids:
        bid(cli, g, *bids)
        cli("resolve", g, *(("--key", "umpire") if mode == "umpired" else ()))
    return g


def bid(cli, g: str, union: int, confederate: int, decision: str = "t1.bid") -> None:
    f = Path(g).parent
    for side, value in (("union", union), ("confederate", confederate)):
        cli("commit", g, "--side", side, "--key", KEYS[side], "--choice", f"bid: {value}")
    cli("submit", g, *[str(f / f"{s}-{decision}-commit.yaml") for s in ("union", "confederate")])
    cli("submit", g, *[str(f / f"{s}-{decision}-reveal.yaml") for s in ("union", "confederate")])


def legal(g: str, choice: dict, side: str = "confederate") -> dict:
    """``choice`` less the moves the rules refuse in this game's weather (the weather dice differ
    from game to game: every game has a new identity)."""
    eng = Engine.load(g)
    dec = eng.decision(DEC)
    choice = json.loads(json.dumps(choice))
    while problems := eng.system.check(eng.state, dec, side, choice):
        where = problems[0].path
        assert len(where) > 1 and where[0] == "moves", problems[0].message
        choice["moves"].pop(where[1])
    assert choice["moves"]
    return choice


def answer(cli, g: str, choice: dict = ORDERS, side: str = "confederate", submit: bool = True,
           name: str | None = None) -> Path:
    path = Path(g).parent / f"{side}-{DEC}.yaml"
    cli("answer", g, "--side", side, "--key", KEYS[side], "--choice", json.dumps(legal(g, choice, side)))
    if name:
        path = path.rename(path.with_name(name))
    if submit:
        cli("submit", g, str(path))
    return path


def roll(cli, g: str, side: str = "union", name: str | None = None) -> Path:
    path = Path(g).parent / f"{side}-{DEC}-roll.yaml"
    cli("roll", g, "--side", side, "--key", KEYS[side], "--decision", DEC)
    return path.rename(path.with_name(name)) if name else path


def resolved_dice(cli, g: str, *extra: str) -> list:
    out = json.loads(cli("resolve", g, "--format", "json", *extra).output)
    return [(d["purpose"], d["faces"]) for r in out["resolved"] for d in r["dice"]]


def head_of(g: str) -> str:
    gf = GameFile.load(g)
    return protocol.format_head(gf.head, len(gf.log))


def refused(cli, *args: str, code: str) -> str:
    err = cli.fails(*args)
    assert f"[{code}]" in err, err
    return err


# --- C1: forging the opponent's answer with no key ------------------------------------------

def _forge_stand_fast(g: str, kind: str) -> None:
    """What the forger does: an unsigned event speaking for confederate, hash-chained, and the
    header's pending area as the old handler left it (answered, and owing no link)."""
    choice = {"moves": [MOVES[0]], "standing": {"defence": {}}}
    attacker.forge_event(g, kind, "confederate", {"decision": DEC, "side": "confederate", "choice": choice},
                         pending={DEC: {"files": [], "links": {},
                                        "answers": {"confederate": {"choice": choice, "nmr": True}}}})


@pytest.mark.parametrize("kind", ["nmr", "answer"])
def test_c1_forged_unsigned_answer_fails_audit(cli, kind):
    """C1: union appends an unsigned `nmr` or `answer` event for confederate (correct hash, no key);
    the audit fails naming the unsigned input, for every player and for the victim checking as himself."""
    g = start(cli)
    head = head_of(g)
    seq = len(GameFile.load(g).log) + 1
    _forge_stand_fast(g, kind)
    code, out = run("audit", g)
    assert code == 1 and "audit FAILED" in out, out
    assert f"event {seq} ({kind}): an unsigned input that speaks for a participant" in out, out
    code, out = run("audit", g, "--as", "confederate", "--key", "bob", "--since", head)
    assert code == 1 and "unsigned input" in out, out


def test_c1_engine_refuses_unsigned_inputs(cli):
    """C1: the cheater feeds an unsigned `answer` (or `undo`) event through hxref's own engine: its
    handler refuses it in an open game (E200), and nothing is saved."""
    g = start(cli)
    before = sha(g)
    for kind, data in (("answer", {"decision": DEC, "side": "confederate", "choice": ORDERS}),
                       ("undo", {"event": 15, "kind": "resolve", "decision": "t1.bid"})):
        eng = Engine.load(g)
        with pytest.raises(HxrefError) as exc:
            eng._apply(kind, "confederate" if kind == "answer" else None, data)
        assert exc.value.code == "E200" and "unsigned" in exc.value.message
    assert sha(g) == before


def test_c1_live_commands_refuse_forged_file(cli):
    """C1: after forging confederate's stand-fast, union rolls, submits his link and resolves the
    forged orders; every command on that file should refuse it as unsigned input."""
    g = start(cli)
    _forge_stand_fast(g, "nmr")
    before = sha(g)
    outputs = []
    for args in (("roll", g, "--side", "union", "--key", "alice", "--decision", DEC),
                 ("submit", g, f"union-{DEC}-roll.yaml"), ("resolve", g)):
        code, out = run(*args)
        outputs.append(out)
        if code != 0:
            break
    assert code == 2 and "unsigned" in outputs[-1], outputs
    assert sha(g) == before


def test_c1_forged_line_dressed_as_a_submission_is_still_refused(cli):
    """C1, against a quick reading of a loaded log (each event's kind read from the end of its
    line, not parsed): the forger writes his unsigned `nmr` line by hand so that a copy of a
    submission's ending sits last on it.  Every command proves a file this machine did not write,
    and the proof parses every line: it finds the line that is not a well-formed event."""
    g = start(cli)
    _forge_stand_fast(g, "nmr")
    text = Path(g).read_text()
    head, last = text.rstrip("\n").rsplit("\n", 1)
    seq = json.loads(last[2:])["seq"]
    fake_tail = f',"zz":{{"kind":"submission","prev":"{"0" * 64}","seq":{seq}}}}}'
    Path(g).write_text(head + "\n" + last[:-1] + fake_tail + "\n")
    assert json.loads(Path(g).read_text().rstrip("\n").rsplit("\n", 1)[1][2:])["kind"] == "nmr"
    before = sha(g)
    Path("any.yaml").write_text("decision: t1.i1.orders\n")
    for args in (("status", g), ("submit", g, "any.yaml"), ("resolve", g)):
        code, out = run(*args)
        assert code == 2 and "does not check out: event" in out and "[E500]" in out, (args, out)
    assert sha(g) == before


# --- C2: open mode, the dice are fixed only after the orders ---------------------------------

def test_c2a_roll_before_the_answer_refused(cli):
    """C2a: the roll that would let confederate see union's link before choosing his orders cannot
    be written (`hxref roll` E311), and a hand-made one signed by union is refused (E311)."""
    g = start(cli)
    before = sha(g)
    err = refused(cli, "roll", g, "--side", "union", "--key", "alice", "--decision", DEC, code="E311")
    assert "still waits for its answers" in err
    eng = Engine.load(g)
    dec = eng.decision(DEC)
    early = attacker.signed_file(g, "union", "alice", "early.yaml", {
        "decision": DEC, "kind": "roll", "link": eng.next_link("union", load_private_key("alice"), dec),
        "answers": protocol.answers_hash(DEC, [])})
    err = refused(cli, "submit", g, str(early), code="E311")
    assert "only after every choice it affects is fixed" in err and "waits for confederate" in err
    assert sha(g) == before


def test_c2b_extra_roll_by_the_answering_side_refused(cli):
    """C2b: confederate, whose link is in his own answer, sends a roll file too (before or after his
    answer) for a second dice stream: refused (E311)."""
    g = start(cli)
    eng = Engine.load(g)
    link = eng.next_link("confederate", load_private_key("bob"), eng.decision(DEC))
    fields = {"decision": DEC, "kind": "roll", "link": link, "answers": protocol.answers_hash(DEC, [])}
    first = attacker.signed_file(g, "confederate", "bob", "extra-first.yaml", fields)
    before = sha(g)
    err = refused(cli, "submit", g, str(first), code="E311")
    assert "in its own answer file; an extra roll file is refused" in err
    assert sha(g) == before
    answer(cli, g)
    eng = Engine.load(g)
    fields["answers"] = protocol.answers_hash(DEC, eng.pending(DEC)["files"])
    after = attacker.signed_file(g, "confederate", "bob", "extra-after.yaml", fields)
    before = sha(g)
    err = refused(cli, "submit", g, str(after), code="E311")
    assert "an extra roll file is refused" in err
    assert sha(g) == before


def test_c2c_second_roll_and_roll_for_other_answers_refused(cli, monkeypatch):
    """C2c: union's roll naming other answers than those kept is refused (E311), and once his link
    is in, a second roll file (another stream) is refused (E303)."""
    g = start(cli)
    answer(cli, g)
    eng = Engine.load(g)
    other = protocol.answers_hash(DEC, [{"party": "confederate", "kind": "answer", "sha256": "0" * 64}])
    wrong = attacker.signed_file(g, "union", "alice", "wrong.yaml", {
        "decision": DEC, "kind": "roll", "link": eng.next_link("union", load_private_key("alice"), eng.decision(DEC)),
        "answers": other})
    before = sha(g)
    err = refused(cli, "submit", g, str(wrong), code="E311")
    assert "answers other choices than those kept" in err
    assert sha(g) == before
    cli("submit", g, str(roll(cli, g, name="first-roll.yaml")))
    monkeypatch.setenv("HXREF_NOW", LATER)          # another signed time: another file
    second = attacker.signed_file(g, "union", "alice", "second.yaml", {
        "decision": DEC, "kind": "roll", "link": "ab" * 32, "answers": protocol.answers_hash(DEC, [])})
    before = sha(g)
    err = refused(cli, "submit", g, str(second), code="E303")
    assert "union has already given its dice link" in err
    assert sha(g) == before


def test_c2d_bid_dice_do_not_depend_on_arrival_order(cli, game):
    """C2d: whoever holds the file submits the commits and reveals in the order he likes: two copies
    fed the same files in opposite orders roll the same dice and reach the same head."""
    shutil.copy(game, "h.yaml")
    for side in ("union", "confederate"):
        cli("commit", game, "--side", side, "--key", KEYS[side], "--choice", f"bid: {2 if side == 'union' else 4}")
    files = [f"{s}-t1.bid-{k}.yaml" for k in ("commit", "reveal") for s in ("union", "confederate")]
    for f in files:
        cli("submit", game, f)
    for f in (files[1], files[0], files[3], files[2]):
        cli("submit", "h.yaml", f)
    dice_g, dice_h = resolved_dice(cli, game), resolved_dice(cli, "h.yaml")
    assert dice_g and dice_g == dice_h
    assert head_of(game) == head_of("h.yaml")


def test_c2d_impulse_dice_do_not_depend_on_arrival_order(cli):
    """C2d: the holder tries the roll before the answer in one copy (refused, file unchanged), then
    answer and roll: the dice and the head equal those of a copy fed answer then roll."""
    g = start(cli)
    shutil.copy(g, "h.yaml")
    ans = answer(cli, g)
    r = roll(cli, g)
    cli("submit", g, str(r))
    before = sha("h.yaml")
    refused(cli, "submit", "h.yaml", str(r), code="E311")
    assert sha("h.yaml") == before
    cli("submit", "h.yaml", str(ans), str(r))
    dice_g, dice_h = resolved_dice(cli, g), resolved_dice(cli, "h.yaml")
    assert dice_g and dice_g == dice_h
    assert head_of(g) == head_of("h.yaml")


def test_c2e_phasing_side_cannot_know_the_dice_before_answering(cli):
    """C2e (the move-order grind): confederate, holding the file, bob's key and every union file,
    cannot compute the dice of his orders: union's link for t1.i1.orders is in nothing he holds,
    and a roll carrying it exists only after, and names the hash of, his final answer."""
    g = start(cli)
    eng = Engine.load(g)
    dec = eng.decision(DEC)
    union_link = eng.next_link("union", load_private_key("alice"), dec)     # the oracle, not the cheater
    held = [Path(g).read_text()] + [p.read_text() for p in Path(".").glob("union-*.yaml")]
    held += [p.read_text() for p in Path(".").glob("confederate-*.yaml")]
    assert not any(union_link in text for text in held)
    # the only link that fits is a preimage of union's last public link (one sha256 step back)
    assert eng.link_fits("union", dec, union_link)
    assert sha256_hex(bytes.fromhex(union_link)) == eng.participants["union"]["last"]
    assert not eng.link_fits("union", dec, eng.participants["union"]["last"])
    refused(cli, "roll", g, "--side", "union", "--key", "alice", "--decision", DEC, code="E311")
    # a roll union might have written early names no answers; it never fits the answer sent later
    early = attacker.signed_file(g, "union", "alice", "early.yaml", {
        "decision": DEC, "kind": "roll", "link": union_link, "answers": protocol.answers_hash(DEC, [])})
    ans = answer(cli, g, ORDERS_B)
    err = refused(cli, "submit", g, str(early), code="E311")
    assert "answers other choices" in err
    r = roll(cli, g)
    rd = orders.parse(r.read_text(), str(r)).data
    entry = {"party": "confederate", "kind": "answer", "sha256": sha256_hex(ans.read_bytes())}
    assert rd["answers"] == protocol.answers_hash(DEC, [entry]) and rd["link"] == union_link
    cli("submit", g, str(r))
    assert resolved_dice(cli, g)


def _predict(g: str, answer_text: str, union_link: str) -> list:
    """The cheater's in-memory resolution (security-scripts/cheat.py): never saved."""
    eng = Engine.load(g)
    eng.submit(answer_text, "candidate.yaml")
    eng.h["pending"][DEC]["links"]["union"] = union_link
    return [(r["purpose"], r["faces"]) for res in eng.resolve() for r in res.rolls]


def test_c2e_withdrawal_after_a_roll_was_sent_leaks_no_dice(cli):
    """C2e: confederate gets union's roll file, asks union to consent to withdraw his answer before
    submitting it, meaning to re-choose his orders knowing union's link: once the answer is in, a
    roll may have been sent in reply, so the answer is final and no withdrawal is accepted."""
    g = start(cli)
    answer(cli, g, ORDERS, name="first.yaml")
    roll(cli, g, name="held-roll.yaml")             # held by confederate, never submitted
    for side in ("union", "confederate"):
        cli("undo", g, "--side", side, "--key", KEYS[side])
    before = sha(g)
    err = cli.fails("submit", g, *[str(p) for p in sorted(Path(".").glob("*-undo-*.yaml"))])
    assert "[E304]" in err and "it is final" in err, err
    assert sha(g) == before


# --- C3: the umpire cannot choose dice ---------------------------------------------------------

def test_c3_umpire_roll_refused(cli):
    """C3: the umpire sends his own `roll` file for t1.i1.orders (the old link-burning step): refused."""
    g = start(cli, mode="umpired")
    answer(cli, g)
    before = sha(g)
    code, out = run("roll", g, "--side", "umpire", "--key", "umpire", "--decision", DEC)
    if code == 0:
        code, out = run("submit", g, f"umpire-{DEC}-roll.yaml")
    assert code == 2 and "E311" in out, out
    assert sha(g) == before


def test_c3_umpire_link_is_bound(cli):
    """C3: whatever the umpire does (a roll file, then an undo of it), his link for a decision is the
    bound one: the dice equal those of `resolve --key umpire`, and a roll file cannot be undone."""
    g = start(cli, mode="umpired")
    answer(cli, g)
    shutil.copy(g, "h.yaml")
    code, out = run("roll", g, "--side", "umpire", "--key", "umpire", "--decision", DEC)
    if code == 0:
        code, out = run("submit", g, f"umpire-{DEC}-roll.yaml")
    if code == 0:           # accepted (see test_c3_umpire_roll_refused): it burns nothing
        before = sha(g)
        roll_sha = next(f["sha256"] for f in Engine.load(g).pending(DEC)["files"] if f["kind"] == "roll")
        refused(cli, "undo", g, "--side", "umpire", "--key", "umpire", code="E308")
        burn = attacker.signed_file(g, "umpire", "umpire", "burn.yaml",
                                    {"decision": DEC, "kind": "undo", "target": roll_sha})
        err = refused(cli, "submit", g, str(burn), code="E304")
        assert "no answer or commitment" in err
        assert sha(g) == before
        assert resolved_dice(cli, g) == resolved_dice(cli, "h.yaml", "--key", "umpire")
    else:
        assert "E311" in out, out


def _withdraw(cli, g: str) -> None:
    cli("undo", g, "--side", "confederate", "--key", "bob")
    cli("undo", g, "--side", "umpire", "--key", "umpire")
    cli("submit", g, *[str(p) for p in sorted(Path(g).parent.glob("*-undo-*.yaml"))])


def test_c3_undo_never_changes_the_dice(cli, monkeypatch):
    """C3: confederate answers, the answer is withdrawn by consent (confederate and umpire sign),
    he answers again with other orders: the dice are those the decision has without the undo, and
    the withdrawal is in both sides' reports."""
    g = start(cli, mode="umpired")
    shutil.copy(g, "h.yaml")
    answer(cli, g, ORDERS, name="first.yaml")
    _withdraw(cli, g)
    for side in ("union", "confederate"):
        assert "withdrawn" in cli("report", g, "--side", side, "--format", "text").output
    assert Engine.load(g).pending(DEC)["files"] == []
    answer(cli, g, ORDERS_B)
    # the same game without the undo is another history of it: played on another machine (on this
    # one, confederate's key signed for the history with the undo, and signs nothing in a fork of it)
    monkeypatch.setenv("HXREF_HOME", str(Path("another-machine").resolve()))
    Path("plain").mkdir()
    cli("answer", "h.yaml", "--side", "confederate", "--key", "bob", "--choice", json.dumps(legal(g, ORDERS_B)),
        "--dir", "plain")
    cli("submit", "h.yaml", f"plain/confederate-{DEC}.yaml")
    with_undo, without = resolved_dice(cli, g, "--key", "umpire"), resolved_dice(cli, "h.yaml", "--key", "umpire")
    assert with_undo and with_undo == without


def test_c3_withdrawal_reported_after_the_resolution(cli):
    """C3: the umpire withdraws an answer with its author's consent, resolves, then sends the reports:
    each side's report still says an answer was withdrawn this turn."""
    g = start(cli, mode="umpired")
    answer(cli, g, ORDERS, name="first.yaml")
    _withdraw(cli, g)
    answer(cli, g, ORDERS_B)
    cli("resolve", g, "--key", "umpire")
    for side in ("union", "confederate"):
        assert "withdrawn" in cli("report", g, "--side", side, "--format", "text").output


# --- H1: the last revealer withholds ----------------------------------------------------------

def test_h1_withheld_reveal_forfeits_never_substitutes(cli, monkeypatch):
    """H1: confederate sees union's reveal and withholds his own; union's claim before the deadline is
    refused (E312), after it confederate forfeits the game, and no other bid is ever put in his place."""
    g = start(cli, scenario="bidding-demo", policy=POLICY, bids=None)
    for side, value in (("union", 3), ("confederate", 2)):
        cli("commit", g, "--side", side, "--key", KEYS[side], "--choice", f"bid: {value}")
    cli("submit", g, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", g, "union-t1.bid-reveal.yaml")
    Path("early").mkdir()
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate", "--dir", "early")
    before = sha(g)
    err = refused(cli, "submit", g, "early/union-t1.bid-claim-confederate.yaml", code="E312")
    assert "is early" in err and "2026-11-29T13:00:00Z" in err
    assert sha(g) == before
    monkeypatch.setenv("HXREF_NOW", LATER)
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate")
    cli("submit", g, "union-t1.bid-claim-confederate.yaml")
    out = cli("status", g).output
    assert "the game is over: confederate forfeits (withheld its reveal for t1.bid)" in out
    facts = json.loads(cli("status", g, "--json").output)
    assert facts["phase"] == "over" and facts["awaiting"] == []
    log = GameFile.load(g).log
    assert not [e for e in log if e["kind"] == "rules" and e["data"].get("type") == "bids.revealed"]
    assert not [e for e in log if e["kind"] == "die"]
    assert run_audit(g).ok


# --- H2: a reused label --------------------------------------------------------------------------

def test_h2_reused_label_is_another_game(cli):
    """H2: the creator reuses the label `club-final`; bob's signed file of game A is refused in game B
    (E300, identity), and each participant's dice chain differs between the two games."""
    a = start(cli, "a", scenario="bidding-demo", label="club-final", bids=None)
    b = start(cli, "b", scenario="bidding-demo", label="club-final", bids=None)
    ea, eb = Engine.load(a), Engine.load(b)
    assert ea.meta["game"] == eb.meta["game"] and ea.identity != eb.identity
    for side in ("union", "confederate"):
        assert ea.participants[side]["tip"] != eb.participants[side]["tip"]
    cli("commit", a, "--side", "confederate", "--key", "bob", "--choice", "bid: 2")
    before = sha(b)
    for f in ("a/confederate-t1.bid-commit.yaml", "a/confederate-join.yaml"):
        err = refused(cli, "submit", b, f, code="E300")
        assert "this file is for another game" in err and "labelled 'club-final'" in err
    assert sha(b) == before


# --- H3: rollback and key substitution ----------------------------------------------------------

def test_h3_rollback_detected(cli, game):
    """H3: confederate drops the last block (the bid and its resolution) and rebuilds a consistent
    chain; union's check against the head he kept names the rollback, and this machine's heads
    record refuses the file (E506)."""
    bid_round(cli, game, 2, 4)
    kept = head_of(game)
    attacker.truncate_last_block(game, game)
    assert run_audit(game, known_head=False).ok          # a consistent history: only a kept head tells
    code, out = run("audit", game, "--as", "union", "--key", "alice", "--since", kept)
    assert code == 1 and "audit FAILED" in out and "(a rollback)" in out, out
    before = sha(game)
    for args in (("status", game), ("submit", game, "union-t1.bid-commit.yaml")):
        err = refused(cli, *args, code="E506")
        assert "does not extend the head this machine last saw" in err and kept[:16] in err
    assert sha(game) == before


def test_h3_key_substitution_detected(cli, game):
    """H3: union swaps confederate's key for carol's in game.created, re-signs every file and re-chains
    the game; bob's audit as himself fails on his key and his kept head, and bob's files do not fit."""
    bid_round(cli, game, 2, 4)
    kept = head_of(game)
    attacker.swap_key(game, "swapped.yaml", "confederate", "carol", {"union": "alice"})
    assert run_audit("swapped.yaml", known_head=False).ok
    shutil.copy("swapped.yaml", game)
    code, out = run("audit", game, "--as", "confederate", "--key", "bob", "--since", kept)
    assert code == 1 and "confederate's key in this game is" in out and "not your key" in out, out
    assert "(a fork)" in out, out
    before = sha(game)
    for f in ("confederate-join.yaml", "confederate-t1.bid-commit.yaml"):
        # this machine refuses the rewritten file itself (E506); past that, the file's identity (E300)
        err = cli.fails("submit", game, f)
        assert "[E506]" in err or ("[E300]" in err and "this file is for another game" in err), err
    assert sha(game) == before


def test_h3_key_substitution_refused_by_heads_record(cli, game):
    """H3: after the key swap is written over the game file, this machine (which kept the real head for
    that path) refuses the file with E506, as it does a rollback."""
    bid_round(cli, game, 2, 4)
    attacker.swap_key(game, "swapped.yaml", "confederate", "carol", {"union": "alice"})
    shutil.copy("swapped.yaml", game)
    refused(cli, "status", game, code="E506")


# --- M1: a link staller ------------------------------------------------------------------------

def test_m1_link_staller_is_named_and_forfeits(cli, monkeypatch):
    """M1: union, owing only his dice link after confederate's orders, stalls: status names him and
    the command, resolve says whose link it needs, and confederate's claim after the deadline
    forfeits him (a claim before it is refused, E312)."""
    monkeypatch.setenv("COLUMNS", "250")
    g = start(cli, policy=POLICY)
    answer(cli, g)
    out = cli("status", g).output
    assert f"hxref roll {g} --side union --key KEY --decision {DEC}" in out and "awaits union (link)" in out
    w = json.loads(cli("status", g, "--json").output)["awaiting"][0]
    assert w["decision"] == DEC and w["owed"] == {"confederate": "done", "union": "link"}
    assert w["commands"]["union"].startswith("hxref roll GAME --side union")
    before = sha(g)
    err = refused(cli, "resolve", g, code="E308")
    assert "needs the dice link of union" in err and "hxref roll" in err
    Path("early").mkdir()
    cli("claim", g, "--side", "confederate", "--key", "bob", "--against", "union", "--dir", "early")
    refused(cli, "submit", g, f"early/confederate-{DEC}-claim-union.yaml", code="E312")
    assert sha(g) == before
    monkeypatch.setenv("HXREF_NOW", LATER)
    cli("claim", g, "--side", "confederate", "--key", "bob", "--against", "union")
    cli("submit", g, f"confederate-{DEC}-claim-union.yaml")
    assert f"union forfeits (withheld its link for {DEC})" in cli("status", g).output
    assert json.loads(cli("status", g, "--json").output)["phase"] == "over"
    assert run_audit(g).ok


# --- M2: no local clock decides -----------------------------------------------------------------

def test_m2_local_clock_applies_no_nmr(cli, monkeypatch):
    """M2: with the holder's clock years late (HXREF_NOW), resolve applies no NMR and status does not
    end the game; a claim signed before the deadline is refused whatever the clock; only a claim
    signed after it applies the default."""
    g = start(cli, scenario="bidding-demo", policy=POLICY, bids=None)
    cli("commit", g, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", g, "union-t1.bid-commit.yaml")
    monkeypatch.setenv("HXREF_NOW", FAR)
    before = sha(g)
    err = refused(cli, "resolve", g, code="E308")
    assert "nothing to resolve yet" in err
    facts = json.loads(cli("status", g, "--json").output)
    assert facts["phase"] == "playing" and facts["awaiting"][0]["owed"]["confederate"] == "commit"
    assert "LATE" in cli("status", g).output        # shown to people, decides nothing
    early = attacker.signed_file(g, "union", "alice", "early.yaml",
                                 {"decision": "t1.bid", "kind": "claim", "against": "confederate"}, at=NOW)
    err = refused(cli, "submit", g, str(early), code="E312")
    assert f"a claim signed at {NOW} is early" in err
    assert sha(g) == before
    monkeypatch.setenv("HXREF_NOW", LATER)
    cli("claim", g, "--side", "union", "--key", "alice", "--against", "confederate")
    cli("submit", g, "union-t1.bid-claim-confederate.yaml")
    w = json.loads(cli("status", g, "--json").output)
    assert w["phase"] == "playing" and w["awaiting"][0]["owed"]["confederate"] == "missed (claimed)"
    assert run_audit(g).ok
