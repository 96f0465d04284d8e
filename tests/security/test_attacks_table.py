"""Attacks on who sits at the table, whose randomness the dice take, and what a key signs.

Each attacker holds only his own key(s), the other player's public key and the files the protocol
hands him; the victim runs the real command line on his own machine (his own HXREF_HOME, so his
own kept heads and his key's record of the games it joined).  Every attack was reproduced against
the hxref before these checks (the red-team report's rematch, forged template, phantom side,
hostile policy and solo-with-keys attacks); here each is refused with one line and changes nothing.
"""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner

from hxref.referee import orders
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.gamefile.game import GameFile
from hxref.referee.inputs import check_created

from tests.security.attacker import _replay, sha

NOW = "2026-11-29T12:00:00Z"
BIDDING = ["--system", "heartland", "--scenario", "bidding-demo"]


class Machine:
    """One player's computer: his folder, his HXREF_HOME, his keys (private and the others' public)."""

    def __init__(self, root: Path, name: str, keydir: Path, own: list[str]):
        self.folder = root / name
        self.home = root / f"{name}-home"
        self.folder.mkdir()
        for f in keydir.iterdir():
            if f.suffix == ".pub" or f.name in own:
                shutil.copy(f, self.folder / f.name)
                if f.suffix != ".pub":
                    (self.folder / f.name).chmod(0o600)

    def run(self, *args: str, code: int | None = 0):
        cwd = os.getcwd()
        os.chdir(self.folder)
        try:
            res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False,
                                     env={"HXREF_HOME": str(self.home), "HXREF_NOW": NOW})
        finally:
            os.chdir(cwd)
        assert code is None or res.exit_code == code, f"hxref {' '.join(map(str, args))} -> {res.exit_code}\n{res.output}"
        return res

    def fails(self, *args: str, code: str) -> str:
        """A refusal: exit 2, one line on stderr, with ``code``."""
        res = self.run(*args, code=2)
        err = res.stderr.strip()
        assert err.startswith("hxref: error: ") and "\n" not in err and f"[{code}]" in err, res.output
        assert "Traceback" not in res.output
        return err

    def give(self, other: "Machine", *names: str) -> None:
        """Mail files to ``other`` (he keeps them in his own folder)."""
        for n in names:
            shutil.copy(self.folder / n, other.folder / n)

    def __truediv__(self, name: str) -> Path:
        return self.folder / name


@pytest.fixture
def table(tmp_path, keydir):
    """Alice (the attacker: union, and the game's creator) and Bob (the victim: confederate)."""
    return Machine(tmp_path, "alice", keydir, ["alice"]), Machine(tmp_path, "bob", keydir, ["bob"])


def open_game(alice: Machine, bob: Machine, name: str = "g1.yaml", label: str = "club-1") -> None:
    """An honest open game made by Alice, sent to Bob, joined by both (each on his own machine)."""
    alice.run("new", name, *BIDDING, "--mode", "open", "--game-id", label,
              "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    alice.give(bob, name)
    alice.run("join", name, "--side", "union", "--key", "alice")
    bob.run("join", name, "--side", "confederate", "--key", "bob")
    bob.give(alice, "confederate-join.yaml")
    alice.run("submit", name, "union-join.yaml", "confederate-join.yaml")
    alice.give(bob, name)


def first_event(path: Path) -> dict:
    return GameFile.load(path).log[0]


@contextmanager
def attackers_hxref():
    """The attacker's own copy of hxref, without the check of the first event (what he writes by
    hand needs no hxref at all)."""
    with mock.patch("hxref.referee.engine.check_created", lambda data: None):
        yield


def crafted(src: Path, out: Path, edit) -> Path:
    """A consistent game file whose first event is ``src``'s, edited by ``edit`` (hash-chained: the
    chain has no key), as the creator of a game can make it."""
    ev = dict(first_event(src))
    data = ev["data"] = dict(ev["data"])
    edit(data)
    with attackers_hxref():
        _replay(data["meta"]["system"], out, [ev])
    return out


# --- the rematch with the same identity ---------------------------------------------------------

def test_a_rematch_with_an_old_identity_gets_no_second_join_and_no_link_of_the_old_chain(table):
    alice, bob = table
    open_game(alice, bob)
    # game 1 is played on: both bid (Bob's link 1 is public once his reveal is in), Bob answers next
    alice.run("commit", "g1.yaml", "--side", "union", "--key", "alice", "--choice", "bid: 2")
    bob.run("commit", "g1.yaml", "--side", "confederate", "--key", "bob", "--choice", "bid: 3")
    bob.give(alice, "confederate-t1.bid-commit.yaml", "confederate-t1.bid-reveal.yaml")
    alice.run("submit", "g1.yaml", "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml",
              "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    alice.run("resolve", "g1.yaml")
    alice.give(bob, "g1.yaml")
    bob.run("answer", "g1.yaml", "--side", "confederate", "--key", "bob", "--choice", "level: 1")
    old_tip = orders.parse((bob / "confederate-join.yaml").read_text(), "join").data["tip"]
    created = first_event(alice / "g1.yaml")

    # Alice cannot make game 1 again with `hxref new`: its nonce serves only a shipped demo
    meta = created["data"]["meta"]
    err = alice.fails("new", "g2.yaml", *BIDDING, "--mode", "open", "--game-id", meta["game"], "--created",
                      meta["created"], "--nonce", created["data"]["nonce"], "--charts-from", "g1.yaml",
                      "--side", "union=alice.pub", "--side", "confederate=bob.pub", code="E504")
    assert "--nonce" in err and not (alice / "g2.yaml").exists()

    # so she writes it by hand: game 1's first event, the same identity
    crafted(alice / "g1.yaml", alice / "g2.yaml", lambda data: None)
    assert first_event(alice / "g2.yaml")["hash"] == created["hash"]
    alice.give(bob, "g2.yaml")
    (bob / "confederate-join.yaml").rename(bob / "g1-join.yaml")
    err = bob.fails("join", "g2.yaml", "--side", "confederate", "--key", "bob", code="E206")
    assert "joined a game with this identity" in err and not (bob / "confederate-join.yaml").exists()

    # she splices the old joins of game 1 into it: Bob's old chain, whose first link is public...
    alice.run("submit", "g2.yaml", "union-join.yaml", "confederate-join.yaml")
    alice.give(bob, "g2.yaml")
    # ...but Bob's hxref gives no link in this history: he signed for game 1 beyond it
    (bob / "g2").mkdir()
    err = bob.fails("commit", "g2.yaml", "--side", "confederate", "--key", "bob", "--choice", "bid: 1",
                    "--dir", "g2", code="E206")
    assert "history does not hold" in err and not list((bob / "g2").iterdir())
    # and his audit as confederate says so
    res = bob.run("audit", "g2.yaml", "--as", "confederate", "--key", "bob", code=1)
    assert "does not hold" in res.output

    # a player whose machine kept no record (a new computer) joins with a fresh nonce: a new chain
    fresh = Machine(alice.folder.parent, "bob-new-pc", alice.folder.parent / "bob", ["bob"])
    crafted(alice / "g1.yaml", fresh / "g3.yaml", lambda data: None)
    fresh.run("join", "g3.yaml", "--side", "confederate", "--key", "bob")
    assert orders.parse((fresh / "confederate-join.yaml").read_text(), "join").data["tip"] != old_tip


# --- forged templates -----------------------------------------------------------------------------

def forged_template(path: Path, game: Path, side: str, kind: str, decision: str, index: int | None) -> Path:
    """A "template from the umpire" naming ``game``'s identity and head, and a dice-link index."""
    eng = Engine.load(game)
    text = orders.render(eng.envelope(side, decision, kind),
                         "hxref template, from the umpire's mail." +
                         (f"\n\ndice link: index {index} of your chain" if index is not None else ""))
    path.write_text(text)
    return path


def test_a_forged_template_with_another_games_identity_and_link_4096_signs_nothing(table):
    """Mallory (Alice's key), Bob's opponent in the open game X, mails him a "template of the umpired
    game Y" that names X's identity and link 4096 of his chain: its link would give away every
    link of Bob's chain in X, so every die of X before Mallory chooses."""
    alice, bob = table
    open_game(alice, bob, "x.yaml", "club-x")
    forged_template(bob / "t.txt", bob / "x.yaml", "confederate", "commit", "t1.bid", 4096)
    forged_template(bob / "a.yaml", bob / "x.yaml", "confederate", "answer", "t1.bid", 4096)
    before = sorted(p.name for p in bob.folder.iterdir())
    err = bob.fails("commit", "--template", "t.txt", "--key", "bob", "--choice", "bid: 2", code="E206")
    assert "open game" in err and "a template is only for an umpired game" in err
    bob.fails("answer", "--template", "a.yaml", "--key", "bob", "--choice", "bid: 2", code="E206")
    # filled in and signed as it is: the same refusal
    bob.fails("sign", "a.yaml", "--key", "bob", code="E206")
    assert sorted(p.name for p in bob.folder.iterdir()) == before and "SSH SIGNATURE" not in (bob / "a.yaml").read_text()


def test_a_template_for_a_game_never_joined_signs_nothing(table):
    alice, bob = table
    alice.run("new", "y.yaml", *BIDDING, "--mode", "umpired", "--game-id", "club-y", "--side", "union=alice.pub",
              "--side", "confederate=bob.pub", "--umpire", "carol.pub")
    forged_template(bob / "t.txt", alice / "y.yaml", "confederate", "commit", "t1.bid", 1)
    err = bob.fails("commit", "--template", "t.txt", "--key", "bob", "--choice", "bid: 2", code="E206")
    assert "never joined" in err and not list(bob.folder.glob("confederate-t1.bid-*"))


def test_an_umpired_game_template_gives_the_next_link_and_no_later_one(tmp_path, keydir):
    """In an umpired game Bob joined from the umpire's template, the umpire (Carol) forges a template
    asking for link 4096 (every link of Bob's chain, so every die he will roll): refused; the honest
    template, for link 1, is signed."""
    carol = Machine(tmp_path, "carol", keydir, ["carol"])
    bob = Machine(tmp_path, "bob", keydir, ["bob"])
    carol.run("new", "y.yaml", *BIDDING, "--mode", "umpired", "--game-id", "club-y", "--side",
              "union=alice.pub", "--side", "confederate=bob.pub", "--umpire", "carol.pub")
    forged_template(bob / "join-template.yaml", carol / "y.yaml", "confederate", "join", "join", None)
    bob.run("join", "--template", "join-template.yaml", "--key", "bob")
    assert orders.parse((bob / "confederate-join.yaml").read_text(), "join").data["mode"] == "umpired"
    forged_template(bob / "t.txt", carol / "y.yaml", "confederate", "commit", "t1.bid", 4096)
    err = bob.fails("commit", "--template", "t.txt", "--key", "bob", "--choice", "bid: 2", code="E206")
    assert "link 4096" in err and "up to 0 only" in err and not list(bob.folder.glob("confederate-t1.bid-*"))
    # a filled-in file to sign as it is, with a link in it: only a link of Bob's own chain is signed
    text = (bob / "t.txt").read_text().replace("kind: commit", "kind: answer") + f"link: {'ab' * 32}\n"
    (bob / "filled.yaml").write_text(text)
    assert "no link of your chain" in bob.fails("sign", "filled.yaml", "--key", "bob", code="E206")
    forged_template(bob / "t.txt", carol / "y.yaml", "confederate", "commit", "t1.bid", 1)
    bob.run("commit", "--template", "t.txt", "--key", "bob", "--choice", "bid: 2")
    assert "link" in orders.parse((bob / "confederate-t1.bid-reveal.yaml").read_text(), "r").data


def test_a_join_forged_from_an_umpired_template_is_refused_by_an_open_game(table):
    """Mallory makes an open game with Bob's key and mails him a "join template" of an umpired game
    that names it: the join Bob signs says it is for an umpired game, so the open game refuses it
    (and Mallory cannot play it alone and claim his forfeit)."""
    alice, bob = table
    alice.run("new", "x.yaml", *BIDDING, "--mode", "open", "--game-id", "club-y",
              "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    forged_template(bob / "join-template.yaml", alice / "x.yaml", "confederate", "join", "join", None)
    bob.run("join", "--template", "join-template.yaml", "--key", "bob")
    bob.give(alice, "confederate-join.yaml")
    alice.run("join", "x.yaml", "--side", "union", "--key", "alice")
    before = sha(alice / "x.yaml")
    err = alice.fails("submit", "x.yaml", "confederate-join.yaml", code="E300")
    assert "signed for an umpired game" in err and sha(alice / "x.yaml") == before
    alice.run("submit", "x.yaml", "union-join.yaml")
    assert Engine.load(alice / "x.yaml").h["phase"] == "setup"        # the game never starts


# --- the first event: who sits at the table, the policy, solo games -----------------------------

def refused_everywhere(bob: Machine, game: str, what: str) -> None:
    """The crafted game is refused by every command Bob runs on it, naming what is wrong."""
    for args in (("status", game), ("join", game, "--side", "confederate", "--key", "bob"),
                 ("report", game)):
        assert what in bob.fails(*args, code="E500")
    res = bob.run("audit", game, code=1)
    assert "FAILED" in res.output and what in res.output
    assert not (bob / "confederate-join.yaml").exists()


def add_phantom(data: dict, keydir_pub: str) -> None:
    from hxref.crypto.signing import load_public_key

    key = load_public_key(keydir_pub)
    data["participants"] = dict(data["participants"], observer={"role": "side", "key": key.line(),
                                                                "fingerprint": key.fingerprint()})


def test_a_phantom_third_side_is_refused_on_load_join_inbox_and_audit(table, keydir):
    """Alice writes a third "side" (her second key) into game.created: a dice party whose link comes
    last, so she would see every die first, and could end the game by its forfeit."""
    alice, bob = table
    alice.run("new", "g.yaml", *BIDDING, "--mode", "open", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    crafted(alice / "g.yaml", bob / "phantom.yaml", lambda d: add_phantom(d, str(keydir / "carol.pub")))
    refused_everywhere(bob, "phantom.yaml", "observer is no side of the scenario")

    # with the scenario's sides edited to match: no side of the system
    def also_scenario(d: dict) -> None:
        add_phantom(d, str(keydir / "carol.pub"))
        d["scenario"] = dict(d["scenario"], sides=["union", "confederate", "observer"])
    crafted(alice / "g.yaml", bob / "phantom2.yaml", also_scenario)
    refused_everywhere(bob, "phantom2.yaml", "are not sides of heartland")

    # mailed to Bob, who takes new games from his inbox (`--key`: a game he is a participant of)
    mail_game(bob / "phantom.yaml", bob / "mail.eml", "p.yaml")
    res = bob.run("inbox", "p.yaml", "--eml", "mail.eml", "--key", "bob.pub", code=None)
    assert "0 accepted" in res.output and "observer is no side of the scenario" in res.output, res.output
    assert not (bob / "p.yaml").exists()


def mail_game(game: Path, eml: Path, name: str) -> None:
    """A mail with the game file attached, as the creator of an open game sends it."""
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "alice@example.org", "bob@example.org", "our game"
    msg.set_content("the game file; join it and send me your join file")
    msg.add_attachment(game.read_bytes(), maintype="application", subtype="x-yaml", filename=name)
    eml.write_bytes(bytes(msg))


def test_a_hostile_deadline_policy_is_refused_on_load_join_and_audit(table):
    """Alice's hand-made policy: a negative grace makes every decision due years before it opens,
    so her first honest claim would forfeit Bob; 1e300 hours overflows every deadline."""
    alice, bob = table
    alice.run("new", "g.yaml", *BIDDING, "--mode", "open", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    for name, policy, what in (
            ("negative.yaml", {"deadline_hours": 168, "grace_hours": -100000, "nmr": "forfeit"}, "--grace-hours"),
            ("huge.yaml", {"deadline_hours": 1e300, "nmr": "forfeit"}, "--deadline-hours"),
            ("bool.yaml", {"deadline_hours": True, "nmr": "forfeit"}, "--deadline-hours"),
            ("nmr.yaml", {"deadline_hours": 1, "nmr": "wait"}, "--nmr")):
        def edit(d: dict, policy=policy) -> None:
            d["meta"] = dict(d["meta"], policy=policy)
        crafted(alice / "g.yaml", bob / name, edit)
        refused_everywhere(bob, name, what)


@pytest.mark.parametrize("option, value", [
    ("--deadline-hours", "1e300"), ("--deadline-hours", "nan"), ("--deadline-hours", "inf"),
    ("--deadline-hours", "-1"), ("--deadline-hours", "0"), ("--deadline-hours", "8785"),
    ("--grace-hours", "-1"), ("--grace-hours", "nan"), ("--grace-hours", "1e300"),
    ("--forfeit-after", "0"), ("--forfeit-after", "1001")])
def test_new_refuses_a_policy_out_of_bounds_with_one_line(table, option, value):
    alice, _ = table
    err = alice.fails("new", "g.yaml", *BIDDING, "--mode", "open", "--side", "union=alice.pub",
                      "--side", "confederate=bob.pub", option, value, code="E504")
    assert option in err and not (alice / "g.yaml").exists()


def test_a_solo_game_carries_no_players_keys(table, keydir):
    """A "solo" game with Bob's key: one person plays both sides unsigned, and it would be booked
    against Bob's key."""
    alice, bob = table
    err = alice.fails("new", "s.yaml", *BIDDING, "--mode", "solo", "--side", "union=alice.pub",
                      "--side", "confederate=bob.pub", code="E504")
    assert "solo game takes no keys" in err and not (alice / "s.yaml").exists()
    alice.run("new", "s.yaml", *BIDDING, "--mode", "solo")
    from hxref.crypto.signing import load_public_key

    def with_keys(d: dict) -> None:
        d["participants"] = {name: {"role": "side", "key": load_public_key(str(keydir / f"{who}.pub")).line(),
                                    "fingerprint": load_public_key(str(keydir / f"{who}.pub")).fingerprint()}
                             for name, who in (("union", "alice"), ("confederate", "bob"))}
    crafted(alice / "s.yaml", bob / "s.yaml", with_keys)
    assert "has a key in a solo game" in bob.fails("status", "s.yaml", code="E500")
    res = bob.run("audit", "s.yaml", "--as", "confederate", "--key", "bob", code=1)
    assert "has a key in a solo game" in res.output


def test_no_number_of_the_first_event_is_nan_or_infinite(table):
    alice, _ = table
    alice.run("new", "g.yaml", *BIDDING, "--mode", "open", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    data = first_event(alice / "g.yaml")["data"]
    check_created(data)             # as made
    for bad in (float("nan"), float("inf")):
        with pytest.raises(Exception) as exc:
            check_created({**data, "scenario": {**data["scenario"], "turns": bad}})
        assert "not finite" in str(exc.value) and "E500" in str(exc.value.code)
