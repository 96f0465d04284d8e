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

Each game is played once for the test run, by the first process that asks, and every test process
takes a copy of it (:func:`shared`): the heartland-demo game by mail takes about half a minute of a core.
"""
from __future__ import annotations

import functools
import json
import os
import pickle
import re
import shutil
import time
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path

from tests.played import chained

from . import pictures_drawn_once
from .test_club_games import demo_key, files_of, fixed_dice, ordinary_mail, still_there
from .test_travel import Game, Player, PostOffice, carried, carried_bytes, post_office

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "orders" / "heartland" / "heartland-demo" / "keys"
SIDES = ("union", "confederate")
MAX_ROUNDS = 400
IMPULSE = re.compile(r"^t\d+\.i\d+\.\w+$")


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
        self.vary = vary or as_shipped

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
            self.submitted(p, wrote, out)

    def choose(self, p, d):
        shipped = self.choices.get((d.id, p.side))
        if shipped is not None:
            self.choices[(d.id, p.side)] = self.vary(p, d, json.loads(json.dumps(shipped)))
        return super().choose(p, d)


def as_shipped(p: FogPlayer, d, choice: dict) -> dict:
    """A side's choice as the shipped game makes it (a game played once for the run is kept as a
    pickle: its players' ways of choosing are functions of the module)."""
    return choice


# --- what a side holds, made comparable ------------------------------------------------------------

#: what differs between two games whose public moves are the same: every hash the log chains (heads,
#: roots, salts, commitments, digests), and the signatures
HEX = re.compile(rb"[0-9a-f]{12,}")
#: a proof's leaves: hashes (32 bytes each) in base64, salted by the head they commit at
LEAVES = re.compile(rb"[A-Za-z0-9+/]{64,}={0,2}")
SIGNATURE = re.compile(rb"-----BEGIN SSH SIGNATURE-----.*?-----END SSH SIGNATURE-----", re.S)
MESSAGE_ID = re.compile(rb"^Message-ID: .*$", re.M | re.I)


def mask(data: bytes, root: Path) -> bytes:
    """``data`` with every hash (a proof's leaves too), signature and Message-ID masked, and the folder
    of the game's world named ROOT (the two games are played in two folders; HXREF_HOME's records name
    the paths)."""
    data = MESSAGE_ID.sub(b"Message-ID: <id>", SIGNATURE.sub(b"<signature>", data.replace(str(root).encode(), b"ROOT")))
    return LEAVES.sub(b"<leaves>", HEX.sub(b"<hex>", data))


@functools.lru_cache(maxsize=None)
def mail_text(raw: bytes) -> bytes:
    """A message as its reader sees it: its headers and every part decoded (each message parsed once
    for the process: every side's Maildir is searched after every exchange, all its messages again)."""
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
    """Everything ``p`` holds but his own file: his folder (his HXREF_HOME is in it) and his Maildir
    (each message decoded, in the order of their masked contents: the Maildir's names are the
    delivery's, and the hashes a message carries differ between two games with the same moves)."""
    own = p.own_file.name
    out = {str(f.relative_to(p.folder)): f.read_bytes() for f in sorted(p.folder.rglob("*"))
           if f.is_file() and not f.name.startswith(own)}
    mails = sorted((mail_text(raw) for name, raw in files_of(p.maildir).items() if name.startswith(("new/", "cur/"))),
                   key=lambda text: mask(text, p.folder.parent))
    out.update({f"Maildir/{i}": text for i, text in enumerate(mails)})
    return out


def secrets_of(p: FogPlayer) -> list[bytes]:
    """The distinctive values of ``p``'s own file: his fog seed and the salts of his sealed answers."""
    from hxref.base import yamlio

    data = yamlio.fast_load(p.own_file.read_text())
    return [data["seed"].encode()] + [entry["salt"].encode() for entry in data["sealed"].values()]


@dataclass
class Snapshots:
    """What each side held after each exchange, masked, as digests of a shared store of contents."""

    root: Path
    taken: list = field(default_factory=list)       # [{side: [(path, digest)]}], the paths masked too
    blobs: dict = field(default_factory=dict)

    def take(self, held: dict[str, dict[str, bytes]]) -> None:
        """Keep what each side holds now (``held``: :func:`holdings` of each side)."""
        import hashlib

        now = {}
        for side, hers in held.items():
            mine = []
            for path, data in hers.items():
                masked = mask(data, self.root)
                digest = hashlib.sha256(masked).hexdigest()
                self.blobs.setdefault(digest, masked)
                mine.append((mask(path.encode(), self.root).decode(), digest))
            now[side] = sorted(mine)
        self.taken.append(now)


# --- one game by mail ----------------------------------------------------------------------------

@dataclass
class Played:
    scenario: str
    players: dict
    game: FogGame
    seen: Snapshots
    log: list = field(default_factory=list)         # every mail: side, files carried, bytes, the exchange ...
    rounds: int = 0
    times: list = field(default_factory=list)       # the seconds of each round that mailed (inbox to outbox)
    seconds: float = 0.0
    events: int = 0

    def moved(self, world: Path, to: Path) -> "Played":
        """This game with its world (the folder it was played in) copied to ``to``: the players'
        folders, keys and Maildirs there (what was recorded as it was played names ``world`` still)."""
        shutil.copytree(world, to)
        for p in self.players.values():
            for name in ("folder", "key", "maildir"):
                setattr(p, name, to / getattr(p, name).relative_to(world))
        post = next(iter(self.players.values())).post
        post.root = to / post.root.relative_to(world)
        return self


def play(root: Path, post: PostOffice, scenario: str, vary=None, mode: str = "fog") -> Played:
    """A fog game of ``scenario`` by mail, from ``hxref new`` to the proof (or an open one, for the
    figures beside it: bench/bench_mails.py).  After every exchange each side's holdings are
    searched for the distinctive values of the other's own file (until the other's proof has come)
    and kept (:class:`Snapshots`)."""
    t0 = time.time()
    players = {s: FogPlayer(s, root / s, post) for s in SIDES}
    alice, bob = players["union"], players["confederate"]
    for p in players.values():
        demo_key(p.key, KEYS / p.side)
    ordinary = {p.side: ordinary_mail(p.maildir, f"{p.user}@example.org") for p in players.values()}
    (alice.folder / "bob.pub").write_bytes(bob.key.with_suffix(".pub").read_bytes())    # mailed by hand
    alice.hxref("new", alice.game, "--system", "heartland", "--scenario", scenario, "--mode", mode,
                "--game-id", "fog-mail", "--side", f"union={alice.key}.pub",
                "--side", f"confederate={alice.folder}/bob.pub")
    g = Played(scenario, players, FogGame(players, vary), Snapshots(root))
    proved: set[str] = set()

    def inbox(p: FogPlayer) -> None:
        p.inbox()
        still_there(p.maildir, ordinary[p.side], f"after {p.side}'s inbox")

    def search(held: dict[str, dict[str, bytes]]) -> None:
        for side in players:
            other = players[next(s for s in SIDES if s != side)]
            if other.side in proved or not other.own_file.exists():
                continue
            for value in secrets_of(other):
                found = [path for path, data in held[side].items() if value in data]
                assert not found, f"after mail {len(g.log)}: {other.side}'s own {value[:16]!r}... is in {side}'s {found}"

    def mail(p: FogPlayer, start: float | None = None) -> None:
        size = p.game.stat().st_size
        before = len(post.sent)
        p.hxref("outbox", p.game, "--smtp", f"127.0.0.1:{post.port}")
        if start is not None:
            g.times.append(time.time() - start)
        sent = post.sent[before:]
        assert sent, f"{p.side} mailed nothing"
        for _, rcpts, raw in sent:
            assert p.user + "@" not in ",".join(rcpts), "a copy to the sender"
            files = carried(raw)
            g.log.append({"side": p.side, "files": files, "bytes": len(raw), "game": size, "raw": raw,
                          "carried": carried_bytes(raw), "exchange": len(g.seen.taken)})
            if any(k == "proof" for _, s, k in files if s == p.side):
                proved.add(p.side)
        held = {side: holdings(p) for side, p in players.items()}
        search(held)
        g.seen.take(held)

    g.game.write_all(alice)
    mail(alice)
    order, turn, idle = ["confederate", "union"], 0, 0
    while idle < 2 and g.rounds < MAX_ROUNDS:
        p = players[order[turn % 2]]
        turn += 1
        g.rounds += 1
        start = time.time()
        inbox(p)
        if g.game.write_all(p):
            mail(p, start)
            idle = 0
        else:
            idle += 1
    for p in players.values():
        inbox(p)
    g.events = len(alice.eng().gf.log)
    g.seconds = time.time() - t0
    return g


def shared(scenario: str, tmp_path_factory, vary=None) -> Played:
    """The game of :func:`play`, played once for the test run: the first process of the run (an
    xdist worker, or the only one) that asks plays it under a lock in the run's shared folder
    (:func:`tests.played.chained`, a game of one part) and keeps its world (the players' folders and
    Maildirs) and its record; every process, that one too, takes a copy of the world of its own."""
    from tests.conftest import PLAYED

    name = f"fog-mail-{scenario}{'-' + vary.__name__ if vary else ''}"

    def play_into(k: int, out: Path) -> None:
        root = out / "world"
        with post_office(root) as post, fixed_dice(), pictures_drawn_once():
            g = play(root, post, scenario, vary)
        (out / "played.pickle").write_bytes(pickle.dumps(g))

    out = chained(Path(os.environ[PLAYED]) / name, 0, play_into)
    g: Played = pickle.loads((out / "played.pickle").read_bytes())
    return g.moved(out / "world", tmp_path_factory.mktemp(name) / "world")


@pytest.fixture(scope="module", params=["bidding-demo", "heartland-demo"])
def scenario(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def fog_game(scenario, tmp_path_factory):
    return shared(scenario, tmp_path_factory)


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
        assert not any(p.own_file.name in str(m["files"]) or p.own_file.name.encode() in m["raw"]
                       for m in g.log), "a side's own file was mailed"
    proofs = sorted(s for m in g.log for _, s, k in m["files"] if k == "proof")
    assert proofs == ["confederate", "union"], proofs


def test_one_mail_per_side_per_impulse(fog_game):
    """Each side's files for an impulse (its orders, its dice link for the other's, the boxes the
    rules open) go out in one mail."""
    mails: dict[tuple[str, str], set[int]] = {}
    seen: set = set()
    for i, m in enumerate(fog_game.log):
        for f in m["files"]:
            dec, side, _ = f
            if IMPULSE.match(dec) and side == m["side"] and f not in seen:
                mails.setdefault((dec, side), set()).add(i)
            seen.add(f)
    assert mails, "no impulse was played"
    more = {k: sorted(v) for k, v in mails.items() if len(v) > 1}
    assert not more, f"impulses whose files a side mailed in more than one mail: {more}"


# --- the search: the same public moves, the other side's hidden facts different -------------------

def bid_less(p: FogPlayer, d, choice: dict) -> dict:
    """The Union bids 1 at turn 2 where the shipped game bids 3: a sealed bid, its WEP its own."""
    return {"bid": 1} if (p.side, d.id) == ("union", "t2.bid") else choice


def ammunition(p: FogPlayer, d, choice: dict) -> dict:
    """At the first Reorganization Segment the Confederacy buys one ammunition point for the first of
    its leaders on the map who has an AP to pay with: paid in AP and WEP on its own display (4.32)."""
    if (p.side, d.id) != ("confederate", "t1.reorg"):
        return choice
    state = p.own().state
    leader = next(lid for lid, ld in sorted(state["leaders"].items())
                  if ld["side"] == "confederate" and ld.get("hex") and ld.get("ap", 0) >= 1)
    admin = dict(choice.get("administration") or {}, ammo=[{"leader": leader, "asp": 1}])
    return dict(choice, administration=admin)


#: per scenario: the side whose sealed answer differs in the second game, its decision, the change
VARIED = {"bidding-demo": ("union", "t2.bid", bid_less), "heartland-demo": ("confederate", "t1.reorg", ammunition)}


def order_files(raw: bytes) -> dict[str, dict]:
    """The signed files a mail carries, by name, as parsed."""
    from hxref.referee import orders

    out = {}
    for part in BytesParser(policy=policy.default).parsebytes(raw).iter_attachments():
        name = part.get_filename() or ""
        data = part.get_payload(decode=True).decode("utf-8")
        if name.endswith(".yaml") and not data.startswith("# hxref game file."):
            out[name] = orders.parse(data, name, fast=True).data
    return out


def telling(kind: str) -> set[str]:
    """The keys of a file of ``kind`` that tell its signer's hidden facts, as the rules reveal them."""
    return {"claims", "openings", "shown"} | ({"choice", "salt"} if kind == "reveal" else set()) | \
        ({"seed", "sealed_answers"} if kind == "proof" else set())


@pytest.fixture(scope="module")
def varied_game(scenario, tmp_path_factory):
    return shared(scenario, tmp_path_factory, VARIED[scenario][2])


# (the varied game asked for first: a worker that comes here while another plays the shipped game
# plays the varied one meanwhile, instead of waiting for it)
def test_what_a_side_holds_tells_nothing_the_rules_have_not_revealed(varied_game, fog_game):
    """Everything the watching side holds after each exchange is the same in both games (masked:
    :func:`mask`) until a file of the other side tells what differs, by the keys that tell hidden
    facts (:func:`telling`); the varied answer was held by the watcher for at least one exchange
    before that."""
    base, varied = fog_game, varied_game
    side, decision, _ = VARIED[base.scenario]
    watcher = next(s for s in SIDES if s != side)
    assert not [f for f in varied.game.fallbacks if f[:2] == (decision, side)], "the varied answer was refused"
    sent = next(m["exchange"] for m in varied.log if m["side"] == side
                and any(f[0] == decision and f[1] == side for f in m["files"]))
    n = min(len(base.seen.taken), len(varied.seen.taken))
    first = next((i for i in range(n) if base.seen.taken[i][watcher] != varied.seen.taken[i][watcher]), None)
    assert first is not None, "the two games' difference was never told, not even by the proof"
    assert first > sent, f"{watcher}'s holdings differ from exchange {first}, when {side}'s varied answer came"
    for i in range(first):      # both games' mails were the same until then (their order files, masked)
        assert [mask(mail_text(m["raw"]), base.seen.root) for m in base.log if m["exchange"] == i] == \
               [mask(mail_text(m["raw"]), varied.seen.root) for m in varied.log if m["exchange"] == i]
    told = []
    for a, b in zip([m for m in base.log if m["exchange"] == first], [m for m in varied.log if m["exchange"] == first]):
        if mask(mail_text(a["raw"]), base.seen.root) == mask(mail_text(b["raw"]), varied.seen.root):
            continue                # (both sides' proofs travel in one exchange: the watcher's is the same)
        assert a["side"] == b["side"] == side, f"exchange {first}: a mail of {a['side']} differs"
        fa, fb = order_files(a["raw"]), order_files(b["raw"])
        for name in sorted(fa.keys() & fb.keys()):     # (the files after the telling one follow its results)
            keys = {k for k in fa[name].keys() | fb[name].keys()
                    if mask(json.dumps(fa[name].get(k), sort_keys=True).encode(), base.seen.root)
                    != mask(json.dumps(fb[name].get(k), sort_keys=True).encode(), varied.seen.root)}
            keys -= {"signature", "head", "root", "sealed", "commitment", "link"}
            assert keys <= telling(fa[name]["kind"]), f"{name}: {sorted(keys)} differ"
            told += [(name, k) for k in keys]
    assert told, (f"exchange {first}: {watcher}'s holdings differ, and no file of {side}'s tells why: "
                  + differences(base.seen, varied.seen, first, watcher))


def differences(a: Snapshots, b: Snapshots, i: int, side: str) -> str:
    """Where ``side``'s holdings after exchange ``i`` differ between two games: each path held in one
    only, and the first differing bytes (masked) of each path held in both."""
    held_a, held_b = dict(a.taken[i][side]), dict(b.taken[i][side])
    out = [f"{path} only in {'the first' if path in held_a else 'the second'}"
           for path in sorted(held_a.keys() ^ held_b.keys())]
    for path in sorted(held_a.keys() & held_b.keys()):
        x, y = a.blobs[held_a[path]], b.blobs[held_b[path]]
        if x != y:
            at = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
            out.append(f"{path} at byte {at}: {x[max(0, at - 80):at + 80]!r} / {y[max(0, at - 80):at + 80]!r}")
    return "; ".join(out)
