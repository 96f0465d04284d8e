"""Two players of a game with hidden armies, each on a machine of his own: his folder (the game file,
his key, his own file), his $HXREF_HOME, the files he mails to the other copied into the other's
folder.  Driven through the command line, in process.

A table can be dealt again (:meth:`Table.deal`): the shipped demo's keys and fixed nonces make the
game's dice, and so the whole game, the same at every run; and one can be taken up again from its
folder (:meth:`Table.resume`), to play a long game in parts."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

from click.testing import CliRunner

from hxref.cli import main
from hxref.crypto.signing import generate_key

NOW = "2026-11-29T12:00:00Z"
GAME = "g.yaml"
#: the shipped demo's keys (``SIDE`` and ``SIDE.pub``), for :meth:`Table.deal`
DEMO_KEYS = Path(__file__).resolve().parents[2] / "orders" / "heartland" / "heartland-demo" / "keys"


class Player:
    """One side's machine."""

    def __init__(self, root: Path, side: str, key: str, *, fixed: Path | None = None, new: bool = True):
        self.side, self.key = side, key
        self.folder = root / side
        self.home = root / f"{side}-home"
        self.runner = CliRunner()
        if not new:
            return
        self.folder.mkdir()
        self.home.mkdir()
        if fixed is None:
            generate_key(self.folder / key, key)
        else:
            for suffix in ("", ".pub"):
                shutil.copy(fixed / f"{side}{suffix}", self.folder / f"{key}{suffix}")
            (self.folder / key).chmod(0o600)

    def __call__(self, *args: str, code: int = 0):
        os.chdir(self.folder)
        os.environ["HXREF_HOME"] = str(self.home)
        res = self.runner.invoke(main, list(args), catch_exceptions=False)
        assert res.exit_code == code, f"[{self.side}] hxref {' '.join(args)} -> {res.exit_code}\n{res.output}"
        return res

    def fails(self, *args: str) -> str:
        err = self(*args, code=2).stderr.strip()
        assert err.startswith("hxref: error: ") and "\n" not in err and "Traceback" not in err, err
        return err

    def status(self) -> dict:
        return json.loads(self("status", GAME, "--json").stdout)

    def held(self) -> bytes:
        """Every byte this player holds: his folder and his home, but the knowledge his copies kept
        (``fog/``: what each derives from the public file and his own file, tests/core/test_fog_memo.py;
        a belief there equals the truth where the rules made it public, the set-up's WEP)."""
        return b"".join(p.read_bytes() for where in (self.folder, self.home) for p in sorted(where.rglob("*"))
                        if p.is_file() and p.parent != self.home / "fog")


class Table:
    """Two players and the mail between them."""

    def __init__(self, root: Path, monkeypatch, *, fixed: Path | None = None, new: bool = True):
        monkeypatch.setenv("HXREF_NOW", NOW)
        monkeypatch.chdir(root)
        self.players = {"union": Player(root, "union", "alice", fixed=fixed, new=new),
                        "confederate": Player(root, "confederate", "bob", fixed=fixed, new=new)}
        #: every file mailed: (side, name, bytes)
        self.mailed: list[tuple[str, str, int]] = []
        if not new:
            return
        for p in self.players.values():
            for q in self.players.values():
                if p is not q:
                    shutil.copy(p.folder / f"{p.key}.pub", q.folder / f"{p.key}.pub")

    @classmethod
    def deal(cls, root: Path, monkeypatch, keys: Path) -> "Table":
        """A table whose players hold the keys in ``keys`` (``SIDE`` and ``SIDE.pub``) and whose game and
        join nonces are fixed: every run plays the same game, dice and all, for the same choices."""
        import hashlib

        from hxref.referee import engine

        drawn = iter(range(1 << 30))
        monkeypatch.setattr(engine, "random_hex", lambda n: hashlib.sha256(f"fog table {next(drawn)}".encode())
                            .hexdigest()[:2 * n])
        return cls(root, monkeypatch, fixed=keys)

    @classmethod
    def resume(cls, root: Path, monkeypatch) -> "Table":
        """The table whose players' folders are in ``root`` (a game played on in another part)."""
        return cls(root, monkeypatch, new=False)

    def __getitem__(self, side: str) -> Player:
        return self.players[side]

    def other(self, side: str) -> Player:
        return next(p for s, p in self.players.items() if s != side)

    def mail(self, side: str, name: str) -> None:
        """``side`` mails his file ``name``: both copies submit it."""
        shutil.copy(self[side].folder / name, self.other(side).folder / name)
        self.mailed.append((side, name, (self[side].folder / name).stat().st_size))
        for p in self.players.values():
            p("submit", GAME, name)

    def prove(self) -> None:
        """Both sides send their proofs (``hxref challenge``, mailed) and both copies resolve: the two
        copies are the same after."""
        for side, p in self.players.items():
            p("challenge", GAME, "--side", side, "--key", p.key)
            self.mail(side, f"{side}-proof.yaml")
        for p in self.players.values():
            p("resolve", GAME)
        self.same()

    def same(self) -> bytes:
        union, confederate = (p.folder / GAME for p in self.players.values())
        assert union.read_bytes() == confederate.read_bytes(), "the two copies differ"
        return union.read_bytes()

    def start(self, scenario: str = "bidding-demo", mode: str = "fog") -> None:
        """A new game of ``scenario`` (in ``mode``: an open game, to measure the same play against),
        both copies joined."""
        union = self["union"]
        union("new", GAME, "--system", "heartland", "--scenario", scenario, "--mode", mode, "--game-id", "fg",
              "--side", "union=alice.pub", "--side", "confederate=bob.pub")
        shutil.copy(union.folder / GAME, self["confederate"].folder / GAME)
        for side, p in self.players.items():
            p("join", GAME, "--side", side, "--key", p.key)
        for side in self.players:
            self.mail(side, f"{side}-join.yaml")
        self.same()

    def step(self, choose: Callable[[str, dict], dict[str, Any]], st: dict | None = None) -> dict | None:
        """Send what is owed for the first awaited decision (``choose(side, decision)`` gives a
        choice), mail it, and resolve when it is ready; the decision, or None at the end.  ``st``:
        the game's status now, when the caller has it."""
        st = st or self["union"].status()
        if not st["awaiting"]:
            return None
        d = st["awaiting"][0]
        for side, owed in sorted(d["owed"].items()):
            p = self[side]
            dec = d["decision"]
            if owed == "commit":
                p("commit", GAME, "--side", side, "--key", p.key, "--choice", json.dumps(choose(side, d)))
                self.mail(side, f"{side}-{dec}-commit.yaml")
            elif owed == "reveal":
                self.mail(side, f"{side}-{dec}-reveal.yaml")
            elif owed == "answer":
                p("answer", GAME, "--side", side, "--key", p.key, "--choice", json.dumps(choose(side, d)))
                self.mail(side, f"{side}-{dec}.yaml")
            elif owed == "open":
                p("open", GAME, "--side", side, "--key", p.key)
                self.mail(side, f"{side}-{dec}-open.yaml")
            elif owed == "proof":
                p("challenge", GAME, "--side", side, "--key", p.key)
                self.mail(side, f"{side}-proof.yaml")
            elif owed == "link":
                p("roll", GAME, "--side", side, "--key", p.key)
                self.mail(side, f"{side}-{dec}-roll.yaml")
        self.same()
        awaiting = self["union"].status()["awaiting"]
        if awaiting[:1] and awaiting[0]["ready"]:
            for p in self.players.values():
                p("resolve", GAME)
            self.same()
        return d


def to_third_tie(table: "Table") -> None:
    """Both sides bid 1 three times (5.12): the third tie's decision waits for both Number Tracks."""
    for dec in ("t1.bid", "t1.bid.r2", "t1.bid.r3"):
        for side, p in table.players.items():
            p("commit", GAME, "--side", side, "--key", p.key, "--choice", "bid: 1")
        for kind in ("commit", "reveal"):
            for side in table.players:
                table.mail(side, f"{side}-{dec}-{kind}.yaml")
        if dec != "t1.bid.r3":
            for p in table.players.values():
                p("resolve", GAME)
