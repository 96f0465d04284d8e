"""A game with hidden armies (``--mode fog``) by real mail: two players, each on his own machine
(his folder with his key, his copy of the game and his own file ``g.SIDE.own.yaml``, his
``HXREF_HOME``, his address book and his Maildir, which holds his ordinary mail too), mailing only
through ``hxref outbox --smtp`` to the aiosmtpd server of :mod:`tests.mail.test_travel` and reading
with ``hxref inbox --maildir``.  The game is played to its end and the proof, both sides'
``hxref challenge`` travelling by mail; the proof passes and the two game files end byte-identical.

What each side holds is searched after every exchange (:func:`holdings`): its folder but its own
file, its Maildir and its ``HXREF_HOME``.  The search is a comparison, not a list of names: the
same game is played twice with the same public moves, the Confederate's hidden facts made
different in the second by a sealed administration that changes only its own display (ammunition
bought at the Reorganization Segment, paid in AP and WEP), and everything the Union holds after
each exchange is compared byte for byte between the two games, masking only what must differ (the
hashes and commitments every later head chains, the signatures).  They are equal until a file of
the Confederate's opens or claims the box that differs; and the Confederate's own file's sealed
answers are nowhere the Union holds until the proof.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from hxref.base.errors import HxrefError
from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path

from .test_club_games import demo_key, files_of, fixed_dice, ordinary_mail, still_there
from .test_travel import Game, Player, PostOffice, carried, carried_bytes, post_office

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "orders" / "heartland" / "heartland-demo" / "keys"
SIDES = ("union", "confederate")
MAX_ROUNDS = 400
IMPULSE = re.compile(r"^t\d+\.i\d+\.orders$")


# --- a player of a game with hidden armies ------------------------------------------------------------

@dataclass
class FogPlayer(Player):
    """A test_travel player whose copy is of a game with hidden armies: his own file beside it."""

    opened: set = field(default_factory=set)

    @property
    def own_file(self) -> Path:
        return store_path(self.game, self.side)

    def own(self) -> Engine:
        """His own copy: the game as his own file knows it."""
        old = os.environ.get("HXREF_HOME")
        os.environ["HXREF_HOME"] = str(self.folder / "home")
        try:
            return Engine.load(self.game, side=self.side)
        finally:
            if old is None:
                os.environ.pop("HXREF_HOME", None)
            else:
                os.environ["HXREF_HOME"] = old


class FogGame(Game):
    """Two players writing every file they owe, fog games' own kinds too: the openings the rules
    ask of a side (``hxref open``) and, at the end, its proof (``hxref challenge``).  ``vary`` may
    change a side's choice before it is signed (the second game of the search)."""

    def __init__(self, players, vary=None):
        super().__init__(players)
        self.vary = vary or (lambda side, decision, choice: choice)

    def beyond(self, eng) -> bool:
        return False                    # a fog game is played to its end, past the shipped turns

    def write_all(self, p: FogPlayer) -> list[tuple[str, str]]:
        out = []
        while True:
            eng = p.eng()
            if eng.finished:
                return out
            wrote = None
            for d in eng.awaiting:
                owed = eng.owed_by(p.side, d)
                pend = eng.pending(d.id)
                if owed == "join":
                    p.hxref("join", p.game, "--side", p.side, "--key", p.key)
                    wrote = (p.folder / f"{p.side}-join.yaml", d.id, "join")
                elif owed == "reveal" and d.id in p.kept and all(
                        "commitment" in pend["answers"].get(s, {}) for s in d.sides):
                    wrote = (p.folder / p.kept.pop(d.id), d.id, "reveal")
                elif owed in ("answer", "commit") and d.id not in p.sent:
                    wrote = self.choose(p, d)
                elif owed == "link" and eng.complete(d):
                    p.hxref("roll", p.game, "--side", p.side, "--key", p.key, "--decision", d.id)
                    wrote = (p.folder / f"{p.side}-{d.id}-roll.yaml", d.id, "roll")
                elif owed == "open" and d.id not in p.opened:
                    p.opened.add(d.id)
                    p.hxref("open", p.game, "--side", p.side, "--key", p.key, "--decision", d.id)
                    wrote = (p.folder / f"{p.side}-{d.id}-open.yaml", d.id, "open")
                elif owed == "proof":
                    p.hxref("challenge", p.game, "--side", p.side, "--key", p.key)
                    wrote = (p.folder / f"{p.side}-proof.yaml", d.id, "proof")
                if wrote is not None:
                    break
            if wrote is None:
                return out
            path, dec, kind = wrote
            p.hxref("submit", p.game, path)
            p.resolve_all()
            out.append((dec, kind))
            self.written.append((p.side, dec, kind))

    def choose(self, p, d):
        shipped = self.choices.get((d.id, p.side))
        if shipped is not None:
            self.choices[(d.id, p.side)] = self.vary(p.side, d, json.loads(json.dumps(shipped)))
        return super().choose(p, d)


# --- what a side holds, made comparable ------------------------------------------------------------

#: what differs between two games whose public moves are the same: every hash the log chains (heads,
#: roots, salts, commitments, digests), and the signatures
HEX = re.compile(rb"[0-9a-f]{12,}")
BASE64 = re.compile(rb"[A-Za-z0-9+/]{40,}={0,2}")
MAILDIR_NAME = re.compile(r"^(new|cur|tmp)/.*$")


def mask(data: bytes) -> bytes:
    return BASE64.sub(b"<b64>", HEX.sub(b"<hex>", data))


def mail_text(raw: bytes) -> bytes:
    """A message as its reader sees it: its headers and every part decoded."""
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    out = [f"{k}: {v}".encode() for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        data = part.get_payload(decode=True) or b""
        out.append(f"--- {part.get_content_type()} {part.get_filename() or ''}".encode())
        out.append(data)
    return b"\n".join(out)


def holdings(p: FogPlayer) -> dict[str, bytes]:
    """Everything ``p`` holds but his own file: his folder (his HXREF_HOME is in it) and his Maildir,
    each file by its path (a Maildir's messages by their order of arrival), masked (:func:`mask`)."""
    own = p.own_file.name
    out = {}
    for f in sorted(p.folder.rglob("*")):
        if f.is_file() and not f.name.startswith(own):
            out[str(f.relative_to(p.folder))] = mask(f.read_bytes())
    box = files_of(p.maildir)
    mails = sorted((name for name in box if MAILDIR_NAME.match(name)), key=lambda n: n.split("/", 1)[1])
    for i, name in enumerate(mails):
        out[f"Maildir/{i}"] = mask(mail_text(box[name]))
    return out


# --- one game by mail ----------------------------------------------------------------------------

@dataclass
class Played:
    players: dict
    game: FogGame
    log: list = field(default_factory=list)         # every mail: side, files carried, bytes, game file bytes
    seen: list = field(default_factory=list)        # the Union's holdings after each exchange
    rounds: int = 0
    seconds: float = 0.0
    events: int = 0


def play(root: Path, post: PostOffice, scenario: str, vary=None, watch: str = "union") -> Played:
    """A fog game of ``scenario`` by mail, from ``hxref new`` to the proof."""
    t0 = time.time()
    players = {s: FogPlayer(s, root / s, post) for s in SIDES}
    alice, bob = players["union"], players["confederate"]
    for p in players.values():
        demo_key(p.key, KEYS / p.side)
    ordinary = {p.side: ordinary_mail(p.maildir, f"{p.user}@example.org") for p in players.values()}
    (alice.folder / "bob.pub").write_bytes(bob.key.with_suffix(".pub").read_bytes())    # mailed by hand
    alice.hxref("new", alice.game, "--system", "heartland", "--scenario", scenario, "--mode", "fog",
                "--game-id", "fog-mail", "--side", f"union={alice.key}.pub",
                "--side", f"confederate={alice.folder}/bob.pub")
    g = Played(players, FogGame(players, vary))

    def inbox(p: FogPlayer) -> None:
        p.inbox()
        still_there(p.maildir, ordinary[p.side], f"after {p.side}'s inbox")

    def mail(p: FogPlayer) -> None:
        size = p.game.stat().st_size
        before = len(post.sent)
        p.hxref("outbox", p.game, "--smtp", f"127.0.0.1:{post.port}")
        sent = post.sent[before:]
        assert sent, f"{p.side} mailed nothing"
        for _, rcpts, raw in sent:
            assert p.user + "@" not in ",".join(rcpts), "a copy to the sender"
            g.log.append({"side": p.side, "files": carried(raw), "bytes": len(raw), "game": size,
                          "carried": carried_bytes(raw), "names": attachment_names(raw)})
        g.seen.append(holdings(players[watch]))

    g.game.write_all(alice)
    mail(alice)
    order, turn, idle = ["confederate", "union"], 0, 0
    while idle < 2 and g.rounds < MAX_ROUNDS:
        p = players[order[turn % 2]]
        turn += 1
        g.rounds += 1
        inbox(p)
        if g.game.write_all(p):
            mail(p)
            idle = 0
        else:
            idle += 1
    for p in players.values():
        inbox(p)
    g.events = len(alice.eng().gf.log)
    g.seconds = time.time() - t0
    return g


def attachment_names(raw: bytes) -> list[str]:
    return [part.get_filename() or "" for part in BytesParser(policy=policy.default).parsebytes(raw).iter_attachments()]


@pytest.fixture(scope="module", params=["bidding-demo", "heartland-demo"])
def fog_game(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"fog-mail-{request.param}")
    with post_office(root) as post, fixed_dice():
        return play(root, post, request.param)


def test_a_fog_game_by_mail_to_its_end_and_its_proof(fog_game):
    g = fog_game
    alice, bob = g.players["union"], g.players["confederate"]
    assert alice.game.read_bytes() == bob.game.read_bytes(), "the two copies are not byte-identical"
    eng = alice.eng()
    assert eng.finished and eng.h.get("fog_lifted") is True and "forfeit" not in eng.h
    assert b"every file of the game is true" in alice.game.read_bytes()
    for p in g.players.values():
        assert p.hxref("audit", p.game).stdout.startswith("audit OK")
        assert not (p.maildir.parent / "rejected").exists()
    proofs = [(m["side"], f) for m in g.log for f in m["files"] if f[2] == "proof"]
    assert sorted(s for s, _ in proofs) == ["confederate", "union"], proofs
