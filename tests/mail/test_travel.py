"""The game travels by e-mail (open games): each player keeps his own copy in his own folder, with
his own key and Maildir, and mails only through ``hxref outbox --smtp`` to a local aiosmtpd
server on 127.0.0.1, which delivers each message into the recipient's Maildir; each reads with
``hxref inbox --maildir``.  What a mail carries is :mod:`hxref.referee.bundle`'s: the signed files the
recipient may lack, or the game file (at the start, and in the "one host holds the file" flow).

The end-to-end test plays a whole open game on Heartland's ``heartland-demo`` scenario with the
shipped (umpired) demo's choices: for each decision the choice of the shipped file of the same
decision and side; when the rules refuse it (the dice differ), it drops the entries the rules name,
then falls back to the decision's example answer.  It prints the mails per side per impulse and
the bytes per mail, for the files it carries and for the whole game file instead.  The game is one
test in :data:`PARTS` parts, each a few turns (:data:`UNTIL`), each carrying on where the one before
it stopped (:func:`tests.played.chained`, in the test run's shared folder: the players in the same
folders, with the same homes, copies and Maildirs); the mails' map pictures are drawn once each
(:func:`tests.mail.pictures_drawn_once`).
"""
from __future__ import annotations

import contextlib
import json
import mailbox
import os
import pickle
import re
import shutil
import socket
import statistics
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.referee import orders
from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from tests.played import chained

from . import pictures_drawn_once

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "orders" / "heartland" / "heartland-demo"
NOW = "2026-11-29T12:00:00Z"
SIDES = ("union", "confederate")
ADDRESS = {"union": "alice@example.org", "confederate": "bob@example.org"}


# --- the post office: SMTP on the loopback, one Maildir per recipient ----------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostOffice:
    """An aiosmtpd handler that files every message into ``root/<local part>/Maildir``."""

    def __init__(self, root: Path):
        self.root = root
        self.sent: list[tuple[str, list[str], bytes]] = []     # (from, to, raw)

    def maildir(self, user: str) -> Path:
        path = self.root / user / "Maildir"
        path.parent.mkdir(parents=True, exist_ok=True)
        mailbox.Maildir(str(path), create=True)
        return path

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        self.sent.append((envelope.mail_from, list(envelope.rcpt_tos), raw))
        for rcpt in envelope.rcpt_tos:
            mailbox.Maildir(str(self.maildir(rcpt.split("@")[0])), create=True).add(raw)
        return "250 Message accepted for delivery"


@contextlib.contextmanager
def post_office(root: Path) -> Iterator[PostOffice]:
    """An SMTP server on 127.0.0.1 delivering into ``root/mail/<local part>/Maildir``, for one game
    (or one part of it: the next part's office, on another port, delivers into the same Maildirs)."""
    pytest.importorskip("aiosmtpd", reason="the SMTP tests need aiosmtpd (pip install -e .[test])")
    from aiosmtpd.controller import Controller

    office = PostOffice(root / "mail")
    office.port = free_port()
    c = Controller(office, hostname="127.0.0.1", port=office.port)
    c.start()
    try:
        yield office
    finally:
        c.stop()


@pytest.fixture
def post(tmp_path):
    with post_office(tmp_path) as office:
        yield office


# --- a player: his folder, key, Maildir and heads record -----------------------------------------

def make_key(path: Path, comment: str) -> Path:
    if shutil.which("ssh-keygen"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)], check=True)
    else:
        CliRunner().invoke(main, ["keygen", str(path)], catch_exceptions=False)
    return path


@dataclass
class Player:
    side: str
    folder: Path
    post: PostOffice
    runner: CliRunner = field(default_factory=CliRunner)
    kept: dict = field(default_factory=dict)          # decision -> reveal file written with the commitment
    sent: set = field(default_factory=set)            # decisions answered (or committed)
    outbox_mails: list = field(default_factory=list)  # (decision kinds carried, bytes, game file bytes)

    def __post_init__(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        self.key = make_key(self.folder / "key", f"{self.side}-player")
        self.user = ADDRESS[self.side].split("@")[0]
        self.maildir = self.post.maildir(self.user)
        other = next(s for s in SIDES if s != self.side)
        (self.folder / "g.addresses.yaml").write_text(f"{other}: {ADDRESS[other]}\nfrom: {ADDRESS[self.side]}\n"
                                                      f"tz: {{{other}: {'Europe/Berlin' if other == 'union' else 'America/Chicago'}}}\n")

    @property
    def game(self) -> Path:
        return self.folder / "g.yaml"

    def hxref(self, *args, code: int | None = 0):
        env = {"HXREF_NOW": NOW, "HXREF_HOME": str(self.folder / "home")}
        res = self.runner.invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
        if code is not None:
            assert res.exit_code == code, f"{self.side}: hxref {' '.join(map(str, args))} -> {res.exit_code}\n{res.output}"
        return res

    def eng(self) -> Engine:
        old = os.environ.get("HXREF_HOME")
        os.environ["HXREF_HOME"] = str(self.folder / "home")
        try:
            return Engine.load(self.game)
        finally:
            if old is None:
                os.environ.pop("HXREF_HOME", None)
            else:
                os.environ["HXREF_HOME"] = old

    def inbox(self, code: int = 0):
        return self.hxref("inbox", self.game, "--maildir", self.maildir, "--key", self.key.with_suffix(".pub"),
                          code=code)

    def outbox(self, *extra):
        before = len(self.post.sent)
        self.hxref("outbox", self.game, "--smtp", f"127.0.0.1:{self.post.port}", *extra)
        return self.post.sent[before:]

    def resolve_all(self) -> None:
        while True:
            eng = self.eng()
            ready = eng.ready()
            if eng.finished or not ready or eng.missing_links(ready[0]):
                return
            self.hxref("resolve", self.game)


def shipped_choices() -> tuple[dict, int]:
    out, turns = {}, []
    man = yamlio.to_plain(yamlio.load_data(SHIPPED / "demo.yaml"))
    for p in sorted(SHIPPED.glob("*.yaml")):
        if p.name in ("demo.yaml", man.get("charts_from")):      # the manifest, the pinned data: no orders
            continue
        o = orders.parse(p.read_text(encoding="utf-8"), p.name, fast=True)
        if o.kind in ("answer", "reveal"):
            out[(o.decision, o.side)] = o.data["choice"]
        m = re.match(r"t(\d+)\.", o.decision)
        if m:
            turns.append(int(m.group(1)))
    return out, max(turns)


def _turn(decision: str) -> int | None:
    m = re.match(r"t(\d+)\.", decision)
    return int(m.group(1)) if m else None


class Game:
    """Two players, each writing every file he can before he mails."""

    def __init__(self, players: dict[str, Player]):
        self.players = players
        self.choices, self.last_turn = shipped_choices()
        self.fallbacks: list = []
        self.written: list = []                       # (side, decision, kind) in the order written

    def beyond(self, eng) -> bool:
        first = next((d for d in eng.awaiting if d.id != "join"), None)
        return first is not None and (_turn(first.id) or 0) > self.last_turn

    def write_all(self, p: Player) -> list[tuple[str, str]]:
        out = []
        while True:
            eng = p.eng()
            if eng.finished or self.beyond(eng):
                return out
            wrote = None
            for d in eng.awaiting:
                pend = eng.pending(d.id)
                mine = pend["answers"].get(p.side, {})
                if d.id == "join":
                    if eng.owed_by(p.side, d) == "join":
                        p.hxref("join", p.game, "--side", p.side, "--key", p.key)
                        wrote = (p.folder / f"{p.side}-join.yaml", d.id, "join")
                elif d.id in p.kept and "choice" not in mine and all(
                        "commitment" in pend["answers"].get(s, {}) for s in d.sides):
                    wrote = (p.folder / p.kept.pop(d.id), d.id, "reveal")
                elif eng.owes_link(p.side, d) and p.side not in d.sides and eng.complete(d):
                    p.hxref("roll", p.game, "--side", p.side, "--key", p.key, "--decision", d.id)
                    wrote = (p.folder / f"{p.side}-{d.id}-roll.yaml", d.id, "roll")
                elif p.side in d.sides and d.id not in p.sent:
                    wrote = self.choose(p, d)
                if wrote is not None:
                    break
            if wrote is None:
                return out
            self.submitted(p, wrote, out)

    def submitted(self, p: Player, wrote: tuple, out: list[tuple[str, str]]) -> None:
        """``p`` submits the file he wrote (``wrote``: its path, decision and kind) to his own copy and
        resolves what is ready; the file is counted in ``out`` and :attr:`written`."""
        path, dec, kind = wrote
        p.hxref("submit", p.game, path)
        p.resolve_all()
        out.append((dec, kind))
        self.written.append((p.side, dec, kind))

    def choose(self, p: Player, d):
        import copy

        p.sent.add(d.id)
        shipped = self.choices.get((d.id, p.side))
        empty = {k: ([] if isinstance(v, list) else v) for k, v in d.example.items()}

        def skeleton():         # the skeleton `hxref template` offers, "accepted as it stands"
            eng = p.eng()
            return eng.system.template(eng.system.view(eng.state, p.side, eng.mode), d, p.side).choice

        # each made only when the ones before it are refused (a template or a copy's state costs a load)
        tries = ([("shipped", lambda: shipped)] if shipped is not None else []) + [
            ("example", lambda: d.example), ("template skeleton", skeleton), ("empty example", lambda: empty),
            ("compelled attacks", lambda: self._compelled_attacks(p, empty))]
        res = None
        for what, make in tries:
            choice = copy.deepcopy(make())
            for _ in range(30):
                res = p.hxref("commit" if d.secret else "answer", p.game, "--side", p.side, "--key", p.key,
                              "--decision", d.id, "--choice", json.dumps(choice), code=None)
                if res.exit_code == 0:
                    if what != "shipped":
                        self.fallbacks.append((d.id, p.side, what))
                    if d.secret:
                        p.kept[d.id] = f"{p.side}-{d.id}-reveal.yaml"
                        return p.folder / f"{p.side}-{d.id}-commit.yaml", d.id, "commit"
                    return p.folder / f"{p.side}-{d.id}.yaml", d.id, "answer"
                m = re.search(r"\(at choice\.(\w+)\[(\d+)\]", res.output)
                if what != "shipped" or not m or not isinstance(choice.get(m[1]), list) \
                        or int(m[2]) >= len(choice[m[1]]):
                    break
                del choice[m[1]][int(m[2])]
        raise AssertionError(f"no answer accepted for {d.id} ({p.side}): {res.output if res else ''}")

    @staticmethod
    def _compelled_attacks(p, empty: dict) -> dict:
        """Orders in which every force of the side that stands in enemy ZOC checks to attack an
        adjacent enemy stack (8.41, 8.42: it must leave at once or attack), the rest standing: what
        a player whose own copy diverged from the shipped game's positions would send."""
        from hxref.geometry.hex import are_adjacent
        from hxref.systems.heartland import impulse_check, model

        eng = p.eng()
        state = eng.state
        if "moves" not in empty or not isinstance(state.get("units"), dict):
            return empty
        hm = eng.system.charts.map(state["map"])
        enemy = model.occupied_hexes(state, model.other_side(p.side))
        moves = []
        for f in impulse_check.forces_in_enemy_zoc(state, hm, p.side):
            here = model.force_hex(state, f)
            near = sorted(e for e in enemy if here and are_adjacent(hm.parse(here), hm.parse(e)))
            if near:
                moves.append({"force": f, "attack": near[0]})
        return dict(empty, moves=moves)


def parse(raw: bytes):
    return BytesParser(policy=policy.default).parsebytes(raw)


def carried_bytes(raw: bytes) -> int:
    """The bytes of the signed files (and signatures) a mail carries, as attached."""
    return sum(len(part.get_payload(decode=True)) for part in parse(raw).iter_attachments()
               if part.get("X-Hxref-Part") not in ("template", "map"))


def carried(raw: bytes) -> list[tuple[str, str, str]]:
    """(decision, side, kind) of every signed file a mail carries, and ("game", "", "") for a game file."""
    out = []
    for part in parse(raw).iter_attachments():
        name = part.get_filename() or ""
        if part.get("X-Hxref-Part") in ("template", "map") or name.endswith(".sig"):
            continue
        data = part.get_payload(decode=True).decode("utf-8")
        if data.startswith("# hxref game file."):
            out.append(("game", "", ""))
            continue
        o = orders.parse(data, name, fast=True)
        out.append((o.decision, o.side, o.kind))
    return out


IMPULSE = re.compile(r"^t\d+\.i\d+\.orders$")


#: the game is played in parts, each a test (:func:`tests.played.chained`): part k up to the
#: ``UNTIL[k]``-th time a player takes his turn, and the last part the turns left and the end (the
#: game takes about 30 turns; the first part also makes the keys and the game, and sends it)
UNTIL = (7, 15, 23)
PARTS = len(UNTIL) + 1


@dataclass
class Travel:
    """An open game by mail between two turns: the players (their folders hold their keys, homes,
    copies and mail), what was mailed and written so far, and whose turn it is."""

    game: Game
    log: list = field(default_factory=list)     # every mail: side, files carried, bytes, the game file's bytes then
    rounds: list = field(default_factory=list)  # (side, seconds) of every turn
    turn: int = 0                               # the turns taken
    idle: int = 0                               # the turns in a row in which nobody had anything to mail
    seconds: float = 0.0                        # the parts' time so far
    events: int = 0                             # the game's events at the end
    finished: bool = False                      # the game is over (else played past the shipped turns)
    over: bool = False                          # both players are idle: the game is played

    def post(self, post) -> None:
        for p in self.game.players.values():
            p.post = post

    def save(self, path: Path) -> None:
        post = self.game.players["union"].post
        self.post(None)
        path.write_bytes(pickle.dumps(self))
        self.post(post)

    def mail(self, p: Player) -> None:
        size_game = p.game.stat().st_size
        eng = p.eng()
        still = [d.id for d in eng.awaiting if eng.owed_by(p.side, d) not in (None, "reveal")
                 and not (eng.owed_by(p.side, d) == "link" and not eng.complete(d))]
        assert not still or self.game.beyond(eng), f"{p.side} mails while it still owes {still}"
        for _, rcpts, raw in p.outbox():
            self.log.append({"side": p.side, "files": carried(raw), "bytes": len(raw), "game": size_game,
                             "carried": carried_bytes(raw)})


def travel_begins(world: Path, post: PostOffice) -> Travel:
    """Alice makes the game, joins and mails: bob has signed nothing, so the game file travels."""
    alice = Player("union", world / "alice", post)
    bob = Player("confederate", world / "bob", post)
    shutil.copy(bob.key.with_suffix(".pub"), alice.folder / "bob.pub")      # exchanged beforehand
    alice.hxref("new", alice.game, "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open",
                "--game-id", "travel", "--side", f"union={alice.key}.pub", "--side", f"confederate={alice.folder}/bob.pub")
    t = Travel(Game({"union": alice, "confederate": bob}))
    t.game.write_all(alice)
    t.mail(alice)
    assert t.log[0]["files"] == [("game", "", "")]
    out = bob.inbox().stdout
    assert "a new game for confederate, saved as" in out and bob.game.exists()
    return t


def travel_turns(t: Travel, last: int | None) -> None:
    """Turn after turn up to the ``last``-th (None: until neither player has anything to mail): the
    player reads his mail, writes every file he can and mails them."""
    order = ["confederate", "union"]
    while t.idle < 2 and (last is None or t.turn < last):
        p = t.game.players[order[t.turn % 2]]
        t.turn += 1
        start = time.time()
        p.inbox()
        if t.game.write_all(p):
            t.mail(p)
            t.idle = 0
        else:
            t.idle += 1
        t.rounds.append((p.side, time.time() - start))
    t.over = t.idle >= 2


def travel_ends(t: Travel) -> None:
    """Both read their last mail: the two copies hold the same log, and each audits it."""
    from hxref.gamefile.game import LOG_MARKER

    players = t.game.players
    alice, bob = players["union"], players["confederate"]
    for p in players.values():
        p.inbox()
    ea, eb = alice.eng(), bob.eng()
    assert ea.finished or t.game.beyond(ea), ea.waiting_text()
    assert ea.gf.head == eb.gf.head and len(ea.gf.log) > 100
    assert alice.game.read_text().partition(LOG_MARKER)[2] == bob.game.read_text().partition(LOG_MARKER)[2]
    for p in players.values():
        assert p.hxref("audit", p.game).stdout.startswith("audit OK")
        assert not (p.maildir.parent / "rejected").exists()
    t.events, t.finished = len(ea.gf.log), ea.finished


def travel_part(k: int, out: Path) -> None:
    """Part ``k`` of the game (:data:`PARTS`), played in the chain's one world folder (the players'
    folders keep their paths, which their homes' records name), its state left in ``out``."""
    t0 = time.time()
    world = out.parent / "world"
    with post_office(world) as post, pictures_drawn_once():
        if k == 0:
            t = travel_begins(world, post)
        else:
            t = pickle.loads((out.parent / f"part-{k - 1}" / "travel.pickle").read_bytes())
            t.post(post)
        last = k == PARTS - 1
        travel_turns(t, None if last else UNTIL[k])
        if last:
            travel_ends(t)
        t.seconds += time.time() - t0
        t.save(out / "travel.pickle")


@pytest.mark.parametrize("part", range(PARTS), ids=[f"{k + 1}of{PARTS}" for k in range(PARTS)])
def test_a_whole_open_game_by_mail_each_player_with_his_own_copy(part, capsys):
    """One game in :data:`PARTS` parts, one after the other (a part asked first plays those before
    it): part k plays the turns up to the ``UNTIL[k]``-th, and the last the turns left, until neither
    player has anything to mail, and the end; the parts together play the whole game once.  The
    last prints the whole game's figures."""
    from tests.conftest import PLAYED

    out = chained(Path(os.environ[PLAYED]) / "travel", part, travel_part)
    t: Travel = pickle.loads((out / "travel.pickle").read_bytes())
    assert t.over or t.turn == UNTIL[part], (t.turn, t.over)
    if part < PARTS - 1:
        return
    assert t.over and t.events
    game, log, rounds = t.game, t.log, t.rounds
    # the figures: mails per side per impulse, and bytes per mail
    with capsys.disabled():
        print(f"\n== an open heartland-demo game by mail, {t.events} events, "
              f"{'over' if t.finished else 'past the shipped turns'}; {len(log)} mails; "
              f"{len(game.fallbacks)} example answers instead of the shipped choice")
        for side in SIDES:
            mine = [m for m in log if m["side"] == side]
            own = [m for m in mine if any(IMPULSE.match(d) and s == side and k == "answer" for d, s, k in m["files"])]
            n_own = sum(1 for s, d, k in game.written if s == side and k == "answer" and IMPULSE.match(d))
            rolls = [m for m in mine if any(IMPULSE.match(d) and s == side and k == "roll" for d, s, k in m["files"])]
            alone = [m for m in rolls if all(k == "roll" for d, s, k in m["files"] if s == side)]
            print(f"  {side}: {len(mine)} mails; its {n_own} impulses' orders went in {len(own)} mails "
                  f"({len(own) / max(1, n_own):.2f} per impulse); its dice links for the other's impulses went in "
                  f"{len(rolls)} mails: {len(rolls) - len(alone)} with its own next file, {len(alone)} alone "
                  "(nothing else was owed: the other side moved again, or the game ended)")
        later = log[1:]                 # after the first mail, which carries the new game file
        files = [m["carried"] for m in later]
        whole = [m["game"] for m in later]
        print(f"  signed files carried per mail: median {statistics.median(files):,.0f} B, max {max(files):,} B "
              f"({statistics.median(len(m['files']) for m in later):g} files per mail); the whole game file "
              f"instead: median {statistics.median(whole):,.0f} B, max {max(whole):,} B")
        print(f"  whole mails (both reports as text and HTML, templates, files): median "
              f"{statistics.median(m['bytes'] for m in later):,.0f} B, max {max(m['bytes'] for m in later):,} B; "
              f"the first mail (the new game file): {log[0]['bytes']:,} B")
        last = [secs for _, secs in rounds[-6:]]
        print(f"  one round (inbox + write + submit + resolve + outbox) at the end: {rounds[-3][1]:.2f} s "
              f"(last rounds: {', '.join(f'{secs:.2f}' for secs in last)} s); the {PARTS} parts {t.seconds:.1f} s")
    # the goal: a side's roll for the other's impulse travels with its own next orders -- every side
    # mails only once it owes nothing it can send (checked in mail()), so a dice link travels alone
    # only when the roller had nothing else to send (the other side moves again, or the game ends)
    assert max(m["carried"] for m in log[1:]) < min(m["game"] for m in log[1:])


# --- one host holds the file -----------------------------------------------------------------------

def test_one_host_holds_the_file(tmp_path, post):
    """Alice hosts: her mail attaches the game file every round (``--attach-game``); Bob's copy is only
    ever replaced by hers when it extends his (fast-forward), his own pending files kept on top."""
    alice = Player("union", tmp_path / "alice", post)
    bob = Player("confederate", tmp_path / "bob", post)
    shutil.copy(bob.key.with_suffix(".pub"), alice.folder / "bob.pub")
    alice.hxref("new", alice.game, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
                "--game-id", "hosted", "--side", f"union={alice.key}.pub", "--side", f"confederate={alice.folder}/bob.pub")
    alice.hxref("join", alice.game, "--side", "union", "--key", alice.key)
    alice.hxref("submit", alice.game, alice.folder / "union-join.yaml")
    sent = alice.outbox("--attach-game")
    assert carried(sent[0][2]) == [("game", "", "")]
    assert "saved as" in bob.inbox().stdout
    bob.hxref("join", bob.game, "--side", "confederate", "--key", bob.key)
    bob.hxref("submit", bob.game, bob.folder / "confederate-join.yaml")
    assert [k for _, _, k in carried(bob.outbox()[0][2])] == ["join"]
    alice.inbox()
    for who, bid in ((alice, 3), (bob, 1)):
        who.hxref("commit", who.game, "--side", who.side, "--key", who.key, "--choice", f"bid: {bid}")
    alice.hxref("submit", alice.game, alice.folder / "union-t1.bid-commit.yaml")
    bob.hxref("submit", bob.game, bob.folder / "confederate-t1.bid-commit.yaml")
    alice.outbox("--attach-game")
    out = bob.inbox().stdout              # the same head: alice's commitment comes in, bob's is kept
    assert "holds this copy's head" in out and "1 accepted" in out, out
    bob.outbox()
    alice.inbox()
    alice.hxref("submit", alice.game, alice.folder / "union-t1.bid-reveal.yaml")
    alice.outbox("--attach-game")
    bob.inbox()
    bob.hxref("submit", bob.game, bob.folder / "confederate-t1.bid-reveal.yaml")
    bob.outbox()
    out = alice.inbox().stdout
    assert "resolved t1.bid" in out, out
    alice.outbox("--attach-game")
    out = bob.inbox().stdout
    assert "fast-forward" in out or "holds this copy's head" in out, out
    assert alice.eng().gf.head == bob.eng().gf.head
    for p in (alice, bob):
        assert p.hxref("audit", p.game).stdout.startswith("audit OK")


# --- refusals: a fork, a rollback; skipping what is held already -----------------------------------

def _mail_game(path: Path, to: Path, name: str) -> None:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "mallory@example.org", "bob@example.org", "the game"
    m.set_content("here is the game\n")
    m.add_attachment(path.read_bytes(), maintype="application", subtype="yaml", filename="g.yaml")
    to.mkdir(parents=True, exist_ok=True)
    (to / f"{name}.eml").write_bytes(m.as_bytes())


def _bid(cli, game, union: int, confederate: int) -> None:
    folder = str(Path(game).parent)
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", f"bid: {union}", "--dir", folder)
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", f"bid: {confederate}", "--dir", folder)
    cli("submit", game, f"{folder}/union-t1.bid-commit.yaml", f"{folder}/confederate-t1.bid-commit.yaml")
    cli("submit", game, f"{folder}/union-t1.bid-reveal.yaml", f"{folder}/confederate-t1.bid-reveal.yaml")
    cli("resolve", game)


@pytest.fixture
def copies(cli, game):
    """Three copies of one joined game: mine (g.yaml), and two others made from it."""
    for d in ("x", "y", "before"):
        Path(d).mkdir()
        shutil.copy(game, f"{d}/g.yaml")
    return game


def test_a_forked_game_file_is_refused_with_both_heads_and_the_first_differing_event(cli, copies):
    _bid(cli, "g.yaml", 3, 1)
    _bid(cli, "y/g.yaml", 4, 2)                # the same game, other files: another history
    mine = Engine.load("g.yaml")
    theirs = Engine.load("y/g.yaml")
    before = Path("g.yaml").read_bytes()
    _mail_game(Path("y/g.yaml"), Path("incoming"), "fork")
    res = cli("inbox", "g.yaml", "--eml", "incoming", "--archive", "incoming", code=1)
    why = Path("incoming/rejected/fork.reason").read_text()
    assert "another history (a fork)" in why and "[E506]" in why
    assert mine.gf.head[:16] in why and theirs.gf.head[:16] in why
    first = next(i for i, (a, b) in enumerate(zip(mine.gf.log, theirs.gf.log)) if a["hash"] != b["hash"])
    assert f"they part at event {first + 1}" in why and mine.gf.log[first]["hash"][:16] in why
    assert "1 rejected" in res.stdout and Path("g.yaml").read_bytes() == before


def test_a_rolled_back_game_file_is_refused(cli, copies):
    _bid(cli, "g.yaml", 3, 1)
    before = Path("g.yaml").read_bytes()
    mine = Engine.load("g.yaml")
    _mail_game(Path("before/g.yaml"), Path("incoming"), "old")
    cli("inbox", "g.yaml", "--eml", "incoming", "--archive", "incoming", code=1)
    why = Path("incoming/rejected/old.reason").read_text()
    old = Engine.load("before/g.yaml")
    assert "an older history (a rollback)" in why and mine.gf.head[:16] in why and old.gf.head[:16] in why
    assert f"this copy goes on with event {len(old.gf.log) + 1}" in why
    assert Path("g.yaml").read_bytes() == before


def test_a_game_file_that_extends_the_copy_is_taken_as_a_fast_forward(cli, copies):
    _bid(cli, "x/g.yaml", 3, 1)
    _mail_game(Path("x/g.yaml"), Path("incoming"), "ff")
    out = cli("inbox", "g.yaml", "--eml", "incoming").stdout
    assert "fast-forward from" in out
    assert Engine.load("g.yaml").gf.head == Engine.load("x/g.yaml").gf.head
    assert cli("audit", "g.yaml").stdout.startswith("audit OK")


def test_stale_and_duplicate_files_are_skipped_not_rejected(cli, copies):
    _bid(cli, "g.yaml", 3, 1)
    before = Path("g.yaml").read_bytes()
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "alice@example.org", "bob@example.org", "again"
    m.set_content("my old files\n")
    for name in ("union-t1.bid-commit.yaml", "union-t1.bid-reveal.yaml", "union-join.yaml"):
        m.add_attachment(Path(name).read_bytes(), maintype="application", subtype="yaml", filename=name)
    Path("incoming").mkdir()
    Path("incoming/stale.eml").write_bytes(m.as_bytes())
    out = cli("inbox", "g.yaml", "--eml", "incoming").stdout
    assert "held already (skipped): union-t1.bid-commit.yaml, union-t1.bid-reveal.yaml, union-join.yaml" in out
    assert "1 accepted (0 order files, 3 held already), 0 rejected" in out
    assert Path("g.yaml").read_bytes() == before and not Path("incoming/rejected").exists()


# --- the inbox's manners --------------------------------------------------------------------------

def test_hxref_report_mails_are_left_alone_and_the_exit_status_counts(cli, game):
    Path("g.addresses.yaml").write_text("union: alice@example.org\nconfederate: bob@example.org\n"
                                        "umpire: referee@example.org\n")
    cli("outbox", "g.yaml", "--out", "reports", "--no-files", "--copy-to-me")
    assert len(list(Path("reports").glob("*.eml"))) == 3
    res = cli("inbox", "g.yaml", "--eml", "reports")
    assert "0 rejected; 3 left alone" in res.stdout
    assert len(list(Path("reports").glob("*.eml"))) == 3 and not Path("reports/rejected").exists()
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "bob@example.org", "referee@example.org", "question"
    m.set_content("When do we play?\n")
    Path("reports/q.eml").write_bytes(m.as_bytes())
    res = cli("inbox", "g.yaml", "--eml", "reports")          # a question is no refusal: exit 0
    assert "0 rejected; 4 left alone" in res.stdout and not Path("reports/rejected").exists()
    assert cli.runner.invoke(main, ["inbox", "g.yaml"]).exit_code == 2            # say where the mail is
    assert cli.runner.invoke(main, ["inbox", "nowhere.yaml", "--eml", "reports"]).exit_code == 2


def test_a_pasted_file_whose_lines_the_mail_client_rewrapped(cli, game):
    import textwrap

    cli("commit", "g.yaml", "--side", "union", "--key", "alice", "--choice", "bid: 2")
    text = Path("union-t1.bid-commit.yaml").read_text()
    # a signed file with a long comment line, hard-wrapped at 72 columns as a plain-text client does
    long = "# " + "these are my orders for the first turn, as we agreed on the phone yesterday " * 2
    from hxref.crypto.signing import load_private_key, sign_text, split_signed_text

    body = split_signed_text(text)[0]
    signed = sign_text(long.rstrip() + "\n" + body, load_private_key("alice"))
    wrapped = "\n".join(w for line in signed.split("\n") for w in (textwrap.wrap(line, 72) or [""]))
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "alice@example.org", "referee@example.org", "orders"
    m.set_content("My orders:\n\n" + wrapped + "\n")
    Path("incoming").mkdir()
    Path("incoming/w.eml").write_bytes(m.as_bytes())
    cli("inbox", "g.yaml", "--eml", "incoming", "--archive", "incoming", code=1)
    why = Path("incoming/rejected/w.reason").read_text()
    assert "the mail client rewrapped the long lines: attach the file instead of pasting it" in why, why


def test_the_mail_names_who_owes_what_and_attaches_the_template(cli, game):
    Path("g.addresses.yaml").write_text("union: alice@example.org\nconfederate: bob@example.org\n"
                                        "tz: {union: Europe/Berlin}\n")
    cli("outbox", "g.yaml", "--out", "out")
    by = {parse(p.read_bytes())["X-Hxref-Audience"]: parse(p.read_bytes()) for p in Path("out").glob("*.eml")}
    plain = by["union"].get_body(("plain",)).get_content()
    # first the reader's move, with its one deadline in his time, and his command on a line of its own
    assert plain.split("\n")[2] == "Your move: turn 1, bid operation levels for the first ..., due Sun 6 Dec 2026"
    assert plain.split("\n")[3].startswith("13:00 CET (then ")
    assert "  union (you): its sealed commitment:\n    hxref commit g.yaml --side union --key KEY --choice ..." in plain
    assert "also awaited: confederate: its sealed commitment" in plain
    names = [p.get_filename() for p in by["union"].iter_attachments()]
    assert "union-t1.bid-template.txt" in names
