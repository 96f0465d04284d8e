"""Two club games by real mail, as the club plays them: an open Heartland game between two players,
and an umpired Salem Church game with an umpire and two players.

Every mail goes through an aiosmtpd SMTP server on 127.0.0.1 that delivers it into the Maildir of
its recipient (by address).  Each Maildir also holds the player's ordinary mail (a friend's
message, a key sent by hand, notes), which must stay there byte for byte, under the same file
name, after every exchange: ``hxref inbox`` is pointed at the whole Maildir.

(a) Open ``heartland-demo``: each player has his own HXREF_HOME, key, game copy and address book,
runs ``hxref inbox --maildir`` and ``hxref outbox --smtp``, and writes his files from the shipped
demo's choices (test_travel's players).  Played until a combat has been resolved; after every
exchange both copies hold the same log, and at the end the two game files are byte-identical.

(b) Umpired ``salem-church``: the umpire holds the only game file and runs ``hxref inbox --smtp``
(refusals mailed back), ``hxref resolve`` and ``hxref outbox --smtp``; each player has only his
key and his mail, reads the template attached to the umpire's mail and mails back the file
``hxref answer --template`` writes.  The Union's first orders carry a path that jumps a hex: the
umpire refuses them, the refusal arrives in the Union player's Maildir, he writes the file again
under the same name and it is accepted.  Played through turn 3 (both player turns, combats).

For every hxref mail the sizes of its text part, its HTML part and the whole mail are recorded
(printed as a table with ``pytest -s``); the targets are asserted in their own tests, so that the
games' own checks and the mails' size, width and map are reported apart: text + HTML under 60 KB,
the whole mail under 250 KB, no growth turn over turn beyond a small margin, the text part within
78 columns, and an inline PNG map in each report mail that decodes (its signature and IHDR chunk).
Select them with ``pytest tests/mail/test_club_games.py`` or ``-k club``.
"""
from __future__ import annotations

import contextlib
import json
import mailbox
import re
import shutil
import smtplib
import struct
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.referee import orders
from hxref.base import yamlio
from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.gamefile.game import LOG_MARKER

from .test_travel import NOW, Game, Player, PostOffice, make_key, parse, post_office

ROOT = Path(__file__).resolve().parents[2]
SALEM = ROOT / "orders" / "salem_church" / "salem-church"
TEXT_HTML_LIMIT = 60 * 1024
WHOLE_LIMIT = 250 * 1024
GROWTH = 1.15                  # the largest mail of the game's last third against the largest of its first


# --- the post office, ordinary mail, the mails' figures ---------------------------------------------

def ordinary_mail(maildir: Path, owner: str) -> dict[str, bytes]:
    """Put a player's own mail into his Maildir: a friend's message (read: in cur/, flagged seen),
    a key sent by hand, and notes as a text attachment; their paths and bytes."""
    box = mailbox.Maildir(str(maildir), create=False)
    friend = EmailMessage()
    friend["From"], friend["To"], friend["Subject"] = "Carol <carol@example.net>", owner, "Club night on Friday"
    friend["Message-ID"] = f"<friday.{owner}@example.net>"
    friend.set_content("Are you coming on Friday? Bring the Salem Church map.\n")
    key = EmailMessage()
    key["From"], key["To"], key["Subject"] = "Dave <dave@example.net>", owner, "my hxref key"
    key["Message-ID"] = f"<key.{owner}@example.net>"
    key.set_content("Here is my public key for the next game.\n")
    key.add_attachment(b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKeyKey dave\n",
                       maintype="application", subtype="octet-stream", filename="dave.pub")
    notes = EmailMessage()
    notes["From"], notes["To"], notes["Subject"] = "Erin <erin@example.net>", owner, "rules notes"
    notes["Message-ID"] = f"<notes.{owner}@example.net>"
    notes.set_content("My notes on the rules are attached.\n")
    notes.add_attachment("hxref is nice; remember rule 8.42 (ZOC).\n", subtype="plain", filename="notes.txt")
    box.add(friend)
    box.add(key)
    box.add(notes)
    msg = box.get_message(next(k for k in box.keys() if b"Club night" in box.get_bytes(k)))
    msg.set_subdir("cur")
    msg.add_flag("S")
    box[next(k for k in box.keys() if b"Club night" in box.get_bytes(k))] = msg
    return files_of(maildir)


def files_of(maildir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(maildir)): p.read_bytes() for p in sorted(maildir.rglob("*")) if p.is_file()}


def still_there(maildir: Path, ordinary: dict[str, bytes], when: str) -> None:
    now = files_of(maildir)
    for name, data in ordinary.items():
        assert now.get(name) == data, f"{when}: {maildir}/{name} was moved, renamed or changed"


def png_ok(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG read from its IHDR chunk, or None when it is no PNG."""
    if len(data) < 33 or data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    length, kind = struct.unpack(">I4s", data[8:16])
    if kind != b"IHDR" or length != 13:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return (width, height) if width and height else None


#: the blocks of a text mail that tell the turn just played (their heading's start)
STORY = ("This turn in brief", "Turn summary", "Last resolution", "Dice", "Bids this turn", "Impulses this turn")


def frame_of(text: str) -> str:
    """A text mail without the story of its turn: without the blocks that tell the turn (a paragraph
    whose heading starts with one of :data:`STORY`: its brief, its combats, its events, its dice) and
    without any listed item (a line starting "- ", with its indented continuations).  What is left
    is the move, the headings, the tables of the sides and units and the footer with its hashes."""
    kept = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        if block.startswith(STORY):
            continue
        in_item = False
        for line in block.splitlines():
            in_item = line.startswith("- ") or (in_item and line.startswith("  "))
            if not in_item:
                kept.append(line)
    return "\n".join(kept)


def stale_in(text: str) -> list[str]:
    """The decisions of turns before the last one (``t1.union`` in a turn-3 mail) that the story
    blocks of a text mail name: a story that kept the game's past would name them."""
    text = text.replace("\r\n", "\n")
    turn = re.search(r"^Turn (\d+)\b", text, re.M)
    if turn is None:
        return []
    story = [b for b in text.split("\n\n") if b.startswith(STORY)]
    return [d for b in story for d in re.findall(r"\bt(\d+)\.[a-z][\w.-]*", b) if int(d) < int(turn.group(1)) - 1]


@dataclass
class Ledger:
    """Every hxref mail of a game: who got it when, and its figures."""

    game: str
    rows: list[dict] = field(default_factory=list)

    def add(self, when: str, raw: bytes) -> None:
        msg = parse(raw)
        plain = msg.get_body(("plain",))
        html = msg.get_body(("html",))
        text = plain.get_content() if plain is not None else ""
        pngs = [part.get_payload(decode=True) for part in msg.walk() if part.get_content_type() == "image/png"]
        self.rows.append({
            "when": when, "to": str(msg.get("X-Hxref-Audience", "?")),
            "kind": "refusal" if msg.get("X-Hxref-Refused") else "report",
            "text": len(text.encode("utf-8")), "html": len(html.get_content().encode("utf-8")) if html else 0,
            "whole": len(raw), "cols": max((len(line) for line in text.splitlines()), default=0),
            "frame": len(frame_of(text).encode("utf-8")), "stale": stale_in(text),
            "pngs": [png_ok(p) for p in pngs]})

    def reports(self) -> list[dict]:
        return [r for r in self.rows if r["kind"] == "report"]

    def table(self) -> str:
        lines = [f"== {self.game}: {len(self.rows)} hxref mails", f"  {'when':<22} {'to':<12} {'kind':<8} "
                 f"{'text KB':>8} {'HTML KB':>8} {'t+h KB':>8} {'whole KB':>9} {'cols':>5}  png"]
        for r in self.rows:
            png = ", ".join(f"{p[0]}x{p[1]}" if p else "BAD" for p in r["pngs"]) or "-"
            lines.append(f"  {r['when']:<22} {r['to']:<12} {r['kind']:<8} {r['text'] / 1024:8.1f} "
                         f"{r['html'] / 1024:8.1f} {(r['text'] + r['html']) / 1024:8.1f} {r['whole'] / 1024:9.1f} "
                         f"{r['cols']:5d}  {png}")
        return "\n".join(lines)


def record(ledger: Ledger, when: str, sent: list) -> None:
    for _, _, raw in sent:
        if b"X-Hxref-Game" in raw.split(b"\n\n", 1)[0].replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]:
            ledger.add(when, raw)


SEED = "club 2"             # with the demo keys, a seed whose open game fights in its first turn
MAX_ROUNDS = 30


@contextlib.contextmanager
def fixed_dice():
    """The joins' nonces (and every other fresh random value hxref draws) from a counter, so that with
    the shipped demo keys the dice, and so the game played, are the same on every run."""
    import hashlib

    from hxref.base import canon
    from hxref.referee import engine

    count = iter(range(10**9))

    def random_hex(nbytes: int) -> str:
        return hashlib.sha256(f"{SEED} {next(count)}".encode()).hexdigest()[:2 * nbytes]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(canon, "random_hex", random_hex)
        mp.setattr(engine, "random_hex", random_hex)
        yield


def demo_key(key: Path, shipped: Path) -> None:
    """Give a participant the shipped demo key of his side (DEMO keys: for tests and demos only)."""
    key.write_bytes(shipped.read_bytes())
    key.chmod(0o600)
    key.with_suffix(".pub").write_bytes(shipped.with_suffix(".pub").read_bytes())


# --- (a) an open Heartland game --------------------------------------------------------------------

def has_combat(eng: Engine) -> bool:
    return any('"type": "combat"' in json.dumps(ev.get("data"), sort_keys=True) for ev in eng.gf.log)


@pytest.fixture(scope="module")
def open_game(tmp_path_factory):
    root = tmp_path_factory.mktemp("club-open")
    with post_office(root) as post, fixed_dice():
        return play_open(root, post)


def play_open(root: Path, post: PostOffice) -> dict:
    t0 = time.time()
    alice = Player("union", root / "alice", post)
    bob = Player("confederate", root / "bob", post)
    players = {"union": alice, "confederate": bob}
    for p in players.values():
        demo_key(p.key, ROOT / "orders" / "heartland" / "heartland-demo" / "keys" / p.side)
    for p in players.values():             # each writes his own book: both sides, and himself as sender
        (p.folder / "g.addresses.yaml").write_text("union: Alice <alice@example.org>\n"
                                                   "confederate: Bob <bob@example.org>\n"
                                                   f"from: {'alice' if p is alice else 'bob'}@example.org\n")
    ordinary = {p.side: ordinary_mail(p.maildir, f"{p.user}@example.org") for p in players.values()}
    shutil.copy(bob.key.with_suffix(".pub"), alice.folder / "bob.pub")      # bob mailed his key by hand
    alice.hxref("new", alice.game, "--system", "heartland", "--scenario", "heartland-demo", "--mode", "open",
                "--game-id", "club-open", "--side", f"union={alice.key}.pub",
                "--side", f"confederate={alice.folder}/bob.pub")
    game = Game(players)
    ledger = Ledger("open heartland-demo")
    smtp = f"127.0.0.1:{post.port}"

    def inbox(p: Player) -> str:
        res = p.hxref("inbox", p.game, "--maildir", p.maildir, "--key", p.key.with_suffix(".pub"), "--smtp", smtp)
        still_there(p.maildir, ordinary[p.side], f"after {p.side}'s inbox")
        return res.stdout

    def mail(p: Player, when: str) -> None:
        before = len(post.sent)
        p.hxref("outbox", p.game, "--smtp", smtp)
        sent = post.sent[before:]
        assert sent and all(p.user + "@" not in ",".join(rcpts) for _, rcpts, _ in sent), "a copy to the sender"
        record(ledger, when, sent)

    game.write_all(alice)
    mail(alice, "union, the new game")
    assert "a new game for confederate" in inbox(bob)
    order, turn, rounds, combat_at = ["confederate", "union"], 0, 0, None
    while rounds < MAX_ROUNDS:
        p = players[order[turn % 2]]
        other = players[order[(turn + 1) % 2]]
        turn += 1
        rounds += 1
        inbox(p)
        if other.game.exists():            # after the exchange, both copies hold the same log
            assert p.eng().gf.head == other.eng().gf.head, f"round {rounds}: the copies differ"
        if combat_at is not None and rounds > combat_at + 2:
            break
        eng = p.eng()
        if combat_at is None and has_combat(eng):
            combat_at = rounds
        if not game.write_all(p):
            continue
        eng = p.eng()
        mail(p, f"{p.side[:5]}, {eng.awaiting[0].id if eng.awaiting else 'end'} next")
    assert combat_at is not None, "no combat in the impulses played"
    for p in players.values():
        inbox(p)
    a, b = alice.game.read_bytes(), bob.game.read_bytes()
    assert a.partition(LOG_MARKER.encode())[2] == b.partition(LOG_MARKER.encode())[2]
    assert a == b, "the two open copies are not byte-identical"
    for p in players.values():
        assert p.hxref("audit", p.game).stdout.startswith("audit OK")
        assert not (p.maildir.parent / "rejected").exists() and not (p.maildir.parent / "done").exists()
    return {"ledger": ledger, "events": len(alice.eng().gf.log), "seconds": time.time() - t0, "rounds": rounds}


def test_club_open_heartland_game_by_mail(open_game, capsys):
    with capsys.disabled():
        print(f"\n{open_game['ledger'].table()}\n  {open_game['events']} events, {open_game['rounds']} rounds, "
              f"{open_game['seconds']:.1f} s")
    assert open_game["ledger"].reports()


# --- (b) an umpired Salem Church game ----------------------------------------------------------------

ADDRESS = {"union": "alice@example.org", "confederate": "bob@example.org", "umpire": "referee@example.org"}


def shipped_salem() -> dict:
    out = {}
    for p in sorted(SALEM.glob("*-t*.yaml")):
        o = orders.parse(p.read_text(encoding="utf-8"), p.name, fast=True)
        out[(o.decision, o.side)] = o.data["choice"]
    return out


@dataclass
class Person:
    """A participant of the umpired game: his folder, key, HXREF_HOME and Maildir."""

    name: str
    folder: Path
    post: PostOffice
    runner: CliRunner = field(default_factory=CliRunner)
    seen: set = field(default_factory=set)

    def __post_init__(self):
        self.folder.mkdir(parents=True)
        self.key = make_key(self.folder / "key", self.name)
        self.address = ADDRESS[self.name]
        self.maildir = self.post.maildir(self.address.split("@")[0])

    def hxref(self, *args, code: int | None = 0):
        env = {"HXREF_NOW": NOW, "HXREF_HOME": str(self.folder / "home")}
        res = self.runner.invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
        if code is not None:
            assert res.exit_code == code, f"{self.name}: hxref {' '.join(map(str, args))} -> {res.exit_code}\n{res.output}"
        return res

    def new_mail(self) -> list:
        """The messages that arrived since he last looked (his mail client shows them; none is removed)."""
        box = mailbox.Maildir(str(self.maildir), factory=None, create=False)
        out = []
        for key in sorted(box.keys()):
            if key not in self.seen:
                self.seen.add(key)
                out.append(parse(box.get_bytes(key)))
        return out

    def send(self, files: list[Path], to: str) -> None:
        m = EmailMessage()
        m["From"], m["To"] = self.address, to
        m["Subject"] = f"{self.name}: {', '.join(p.name for p in files)}"
        m.set_content("My file is attached.\n")
        for p in files:
            m.add_attachment(p.read_bytes(), maintype="application", subtype="yaml", filename=p.name)
        with smtplib.SMTP("127.0.0.1", self.post.port) as s:
            s.send_message(m)


def jump(choice: dict) -> dict:
    """The choice with its longest path made to jump back to its first hex at the end: a slip a
    player makes reading the map."""
    bad = json.loads(json.dumps(choice))
    moves = [m for m in bad.get("moves") or [] if isinstance(m, dict) and len(m.get("path") or []) >= 3]
    assert moves, bad
    path = max(moves, key=lambda m: len(m["path"]))["path"]
    path.append(path[0])
    return bad


@pytest.fixture(scope="module")
def umpired_game(tmp_path_factory):
    root = tmp_path_factory.mktemp("club-umpired")
    with post_office(root) as post, fixed_dice():
        return play_umpired(root, post)


def play_umpired(root: Path, post: PostOffice) -> dict:
    t0 = time.time()
    ump = Person("umpire", root / "umpire", post)
    players = {s: Person(s, root / s, post) for s in ("union", "confederate")}
    for who in (ump, *players.values()):
        demo_key(who.key, SALEM / "keys" / who.name)
    ordinary = {who.name: ordinary_mail(who.maildir, who.address) for who in (ump, *players.values())}
    for s, p in players.items():                   # each mailed his public key to the umpire by hand
        shutil.copy(p.key.with_suffix(".pub"), ump.folder / f"{s}.pub")
    (ump.folder / "g.addresses.yaml").write_text(
        f"union: {ADDRESS['union']}\nconfederate: {ADDRESS['confederate']}\nfrom: {ADDRESS['umpire']}\n")
    game = ump.folder / "g.yaml"
    ump.hxref("new", game, "--system", "salem-church", "--scenario", "salem-church", "--mode", "umpired",
              "--game-id", "club-salem", "--side", f"union={ump.folder}/union.pub",
              "--side", f"confederate={ump.folder}/confederate.pub", "--umpire", f"{ump.key}.pub")
    ump.hxref("join", game, "--side", "umpire", "--key", ump.key, "--dir", ump.folder)
    ump.hxref("submit", game, ump.folder / "umpire-join.yaml")
    ledger = Ledger("umpired salem-church")
    smtp = f"127.0.0.1:{post.port}"
    shipped = shipped_salem()
    refusals: list[dict] = []
    slipped = False
    written: dict[tuple[str, str], dict] = {}     # (decision, side) -> the choice last sent

    def check_all(when: str) -> None:
        for who in (ump, *players.values()):
            still_there(who.maildir, ordinary[who.name], when)

    def umpire_round(n: int) -> None:
        before = len(post.sent)
        ump.hxref("inbox", game, "--maildir", ump.maildir, "--smtp", smtp, code=None)
        record(ledger, f"round {n} refusals", post.sent[before:])
        while True:
            eng = Engine.load(game)
            ready = eng.ready()
            if eng.finished or not ready or [w for w in eng.missing_links(ready[0]) if w != "umpire"]:
                break
            ump.hxref("resolve", game, "--key", ump.key)
        eng = Engine.load(game)
        now = (eng.gf.head, json.dumps(eng.gf.header.get("pending"), sort_keys=True))
        if now == mailed[-1]:
            return                              # nothing new since his last mail: he mails nobody
        mailed.append(now)
        before = len(post.sent)
        ump.hxref("outbox", game, "--smtp", smtp, "--key", ump.key)
        record(ledger, f"round {n} {eng.awaiting[0].id if eng.awaiting else 'end'}", post.sent[before:])
        check_all(f"round {n}, after the umpire")

    def write(p: Person, tpl: Path, data: dict, choice: dict | None) -> Path:
        kind, dec = data["kind"], data["decision"]
        out = p.folder / "out"
        out.mkdir(exist_ok=True)
        name = out / (f"{p.name}-join.yaml" if kind == "join" else f"{p.name}-{dec}.yaml")
        if name.exists():
            name.unlink()                       # he moves his old file away, and writes it again
        if kind == "join":
            p.hxref("join", "--template", tpl, "--key", p.key, "--dir", out)
        else:
            p.hxref("answer", "--template", tpl, "--key", p.key, "--choice", json.dumps(choice), "--dir", out)
        assert name.exists(), sorted(q.name for q in out.iterdir())
        return name

    def player_round(p: Person, n: int) -> None:
        nonlocal slipped
        for msg in p.new_mail():
            if msg.get("X-Hxref-Refused"):                  # a refusal: correct and send again
                assert str(msg["Auto-Submitted"]) == "auto-replied" and p.address in str(msg["To"])
                text = msg.get_content()
                name = str(msg["X-Hxref-Refused"])
                refusals.append({"side": p.name, "file": name, "text": text, "round": n})
                dec = re.match(rf"{p.name}-(.+)\.yaml$", name)[1]
                choice = written[(dec, p.name)]
                m = re.search(r"\(at choice\.(\w+)\[(\d+)\]", text.replace("\n  ", " "))
                if (dec, p.name) in slips:
                    choice = slips.pop((dec, p.name))        # his intended orders, this time as meant
                elif m:
                    del choice[m[1]][int(m[2])]
                else:
                    raise AssertionError(f"a refusal the player cannot act on:\n{text}")
                written[(dec, p.name)] = choice
                tpl = p.folder / "templates" / f"{dec}.yaml"
                p.send([write(p, tpl, yamlio.fast_load(tpl.read_text()), choice)], ADDRESS["umpire"])
                continue
            if not msg.get("X-Hxref-Game"):
                continue                                    # his ordinary mail
            for part in msg.iter_attachments():
                if part.get("X-Hxref-Part") != "template":
                    continue
                text = part.get_payload(decode=True).decode("utf-8")
                data = yamlio.fast_load(text)
                tpl = p.folder / "templates" / f"{data['decision']}.yaml"
                tpl.parent.mkdir(exist_ok=True)
                tpl.write_text(text)
                choice = None
                if data["kind"] != "join":
                    key = (data["decision"], p.name)
                    choice = json.loads(json.dumps(shipped.get(key, data.get("choice") or {})))
                    if p.name == "union" and not slipped and choice.get("moves"):
                        slipped = True
                        slips[key] = choice
                        choice = jump(choice)
                    written[key] = choice
                p.send([write(p, tpl, data, choice)], ADDRESS["umpire"])
        check_all(f"round {n}, after {p.name}")

    slips: dict = {}
    ump.hxref("outbox", game, "--smtp", smtp, "--key", ump.key)
    first = Engine.load(game)
    mailed = [(first.gf.head, json.dumps(first.gf.header.get("pending"), sort_keys=True))]
    n = 0
    while n < 40:
        n += 1
        for p in players.values():
            player_round(p, n)
        umpire_round(n)
        eng = Engine.load(game)
        done = [ev["data"]["decision"] for ev in eng.gf.log if ev["kind"] == "resolve"]
        if "t3.confederate" in done:
            break
    eng = Engine.load(game)
    assert "t3.confederate" in done, eng.waiting_text()
    assert '"type": "combat"' in json.dumps([ev["data"] for ev in eng.gf.log]), "no combat in three turns"
    assert ump.hxref("audit", game).stdout.startswith("audit OK")
    return {"ledger": ledger, "refusals": refusals, "rounds": n, "events": len(eng.gf.log),
            "seconds": time.time() - t0}


def test_club_umpired_salem_game_by_mail(umpired_game, capsys):
    with capsys.disabled():
        print(f"\n{umpired_game['ledger'].table()}\n  {umpired_game['events']} events, "
              f"{umpired_game['rounds']} rounds, {umpired_game['seconds']:.1f} s; refusals: "
              + "; ".join(f"{r['side']} {r['file']} (round {r['round']})" for r in umpired_game["refusals"]))
    slip = umpired_game["refusals"][0]
    text = " ".join(slip["text"].split())
    assert slip["side"] == "union" and slip["file"] == "union-t1.union.yaml", text
    assert "is not adjacent to" in text and "[E400]" in text and ".path[" in text, text
    assert "same file name is fine" in text
    print(slip["text"].replace("\r\n", "\n"))


# --- the mails' targets ---------------------------------------------------------------------------------

@pytest.fixture(params=["open", "umpired"])
def club_ledger(request) -> Ledger:
    return request.getfixturevalue(f"{request.param}_game")["ledger"]


def test_club_mails_are_small(club_ledger):
    over = [r for r in club_ledger.reports() if r["text"] + r["html"] >= TEXT_HTML_LIMIT or r["whole"] >= WHOLE_LIMIT]
    assert not over, "mails over 60 KB (text + HTML) or 250 KB (whole):\n" + "\n".join(
        f"  {r['when']} to {r['to']}: text+HTML {(r['text'] + r['html']) / 1024:.1f} KB, whole "
        f"{r['whole'] / 1024:.1f} KB" for r in over)


def test_club_mails_do_not_grow(club_ledger):
    """Nothing in a mail is proportional to the game's length.  A turn with combats tells more than a
    quiet one (that is the turn's content, bounded by the 60 KB test), so the whole size is not
    compared; what is compared is the mail without the story of its turn (:func:`frame_of`: the
    move, the tables of the sides and units, the footer with the receipts and hashes): the largest
    of the game's last third is no larger than the largest of its first, within 15% and 1 KB (the
    enemy units a side comes to see are rows more, bounded by the scenario's units).  And the story
    itself tells only the last turn: it names no decision of a turn before (:func:`stale_in`)."""
    for side in sorted({r["to"] for r in club_ledger.reports()}):
        mine = [r["frame"] for r in club_ledger.reports() if r["to"] == side][1:]   # after the join
        third = max(1, len(mine) // 3)
        assert max(mine[-third:]) <= GROWTH * max(mine[:third]) + 1024, (side, mine)
    stale = [(r["when"], r["to"], r["stale"]) for r in club_ledger.reports() if r["stale"]]
    assert not stale, f"stories naming the decisions of turns before the last: {stale[:4]}"


def test_club_mails_fit_78_columns(club_ledger):
    wide = [(r["when"], r["to"], r["kind"], r["cols"]) for r in club_ledger.rows if r["cols"] > 78]
    assert not wide, f"text parts wider than 78 columns: {wide[:6]} ({len(wide)} mails)"


def test_club_mails_carry_a_map_that_decodes(club_ledger):
    """Every report mail a player gets carries his map as a PNG that decodes -- except the mails of
    the new game's setup (the open game's join), sent before any unit stands on the map: a map with
    nothing on it tells nothing, and the report draws none (:func:`hxref.report.turnmap.side_map`)."""
    reports = [r for r in club_ledger.reports() if r["to"] != "umpire" and "the new game" not in r["when"]]
    bad = [(r["when"], r["to"]) for r in reports if not r["pngs"] or not all(r["pngs"])]
    assert not bad, f"report mails without a decodable PNG map: {bad[:6]} ({len(bad)} of {len(reports)})"
