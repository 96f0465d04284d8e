"""Shared by tests/security/test_replicas.py, tests/security/test_foresight.py and
bench/bench_mails.py: the shipped demo manifests (orders/<system>/<scenario>/demo.yaml), cut into
segments, and game copies driven through the real command line, in-process (click's CliRunner
on :data:`hxref.cli.main`).

A *segment* is what a manifest submits between two ``resolve`` steps: files for the same open
decision, which may arrive in any order, except that a file may need another before it (a
reveal needs every commitment, a dice link needs every answer, and the first decision needs
the join block).  :data:`PHASE` orders kinds so that any permutation, stably sorted by phase,
is an order the protocol accepts.
"""
from __future__ import annotations

import functools
import os
import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from click.testing import CliRunner

from hxref.referee import orders
from hxref.cli import main
from hxref.gamefile.game import LOG_MARKER
from tests import played

#: every registered system's shipped demo (the default demo of each system, its SystemInfo.demo)
DEMOS = {d.system: d.folder for d in played.default_demos()}
BIDDING = played.demo("heartland", "bidding-demo").folder
GAME = "game.yaml"
#: kinds that may be sent in any order among themselves, phase by phase
PHASE = {"join": 0, "commit": 1, "answer": 1, "claim": 1, "reveal": 2, "roll": 2, "undo": 3}

if "HXREF_HOME" not in os.environ:      # outside pytest (the bench): keep the heads record apart
    os.environ["HXREF_HOME"] = tempfile.mkdtemp(prefix="hxref-bench-home-")


@dataclass
class FileInfo:
    name: str
    path: Path
    kind: str
    decision: str
    side: str
    data: dict
    size: int


@dataclass
class Segment:
    """The submit steps before one resolve step (``resolve`` False for a trailing segment)."""

    steps: list[list[str]] = field(default_factory=list)
    resolve: bool = True

    @property
    def files(self) -> list[str]:
        return [f for s in self.steps for f in s]


def manifest(folder: Path) -> dict:
    """The folder's ``demo.yaml`` as plain data (its text parsed once a process: :func:`tests.played.read_manifest`)."""
    return played.read_manifest(Path(folder))


def file_info(folder: Path, name: str) -> FileInfo:
    """A signed file's kind, decision, side and fields (cached while the file is unchanged)."""
    return _file_info(Path(folder), name, (Path(folder) / name).stat().st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _file_info(folder: Path, name: str, mtime_ns: int) -> FileInfo:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    o = orders.parse(text, name, fast=True)
    return FileInfo(name, path, o.kind, o.decision, o.side, o.data, len(text.encode("utf-8")))


def segments(man: dict) -> list[Segment]:
    out, cur = [], Segment()
    for step in man["steps"]:
        if "submit" in step:
            cur.steps.append(list(step["submit"]))
        elif "resolve" in step:
            out.append(cur)
            cur = Segment()
    if cur.steps:
        cur.resolve = False
        out.append(cur)
    return out


def phase_order(folder: Path, files: list[str]) -> list[str]:
    """``files`` stably sorted by :data:`PHASE`: the given order wherever the protocol allows it."""
    return sorted(files, key=lambda f: PHASE[file_info(folder, f).kind])


def log_text(path: Path) -> str:
    """The part of a game file after its log marker line: the hash chain, as bytes on disk."""
    text = Path(path).read_text(encoding="utf-8")
    head, sep, log = text.partition("\n" + LOG_MARKER + "\n")
    assert sep, f"{path} has no log marker"
    return log


def random_day(rng: random.Random) -> str:
    """A random signed-looking UTC time between 2027 and 2031, for HXREF_NOW: after every shipped
    demo's signed times (a machine's clock is never far behind the files it receives: a file signed
    ahead of it is refused, E313)."""
    return (f"{rng.randint(2027, 2031)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z")


class Copy:
    """One copy of a game in its own folder, driven by hxref commands run in-process."""

    def __init__(self, work: Path, src: Path, man: dict | None = None):
        self.work = Path(work)
        self.src = Path(src)
        self.man = man or manifest(self.src)
        self.work.mkdir(parents=True, exist_ok=True)
        self.game = self.work / GAME
        self.runner = CliRunner()
        keys = self.work / "keys"
        keys.mkdir(exist_ok=True)
        for f in (self.src / "keys").iterdir():
            if f.name.endswith(".pub") or f"keys/{f.name}" == self.man.get("umpire_key"):
                shutil.copy(f, keys / f.name)
                if not f.name.endswith(".pub"):
                    (keys / f.name).chmod(0o600)
        self.calls = 0

    def hxref(self, *args: str, day: str, code: int = 0):
        self.calls += 1
        cwd = os.getcwd()
        os.chdir(self.work)
        try:
            res = self.runner.invoke(main, [str(a) for a in args], env={"HXREF_NOW": day}, catch_exceptions=False)
        finally:
            os.chdir(cwd)
        if code is not None:
            assert res.exit_code == code, f"hxref {' '.join(map(str, args))} -> {res.exit_code}\n{res.output}"
        return res

    def new(self, day: str, mode: str | None = None, keys: dict | None = None) -> None:
        m = self.man
        mode = mode or m["mode"]
        args = ["new", GAME, "--system", m["system"], "--scenario", m["scenario"], "--mode", mode,
                "--game-id", m["game_id"], "--created", m["created"]]
        if m.get("nonce") and mode == m["mode"] and keys is None:     # the shipped demo's game itself
            args += ["--nonce", m["nonce"], "--charts-from", str(self.src / m["charts_from"])]
        for s, k in (keys or m["keys"]).items():
            args += ["--side", f"{s}={k}"]
        if mode == "umpired" and m.get("umpire"):
            args += ["--umpire", m["umpire"]]
        self.hxref(*args, day=day)

    def submit(self, files: list[str], day: str, local: dict | None = None) -> None:
        """Submit ``files`` of the source folder; ``local`` maps a file to how this copy received it:
        ``rename`` (saved under another name in its own inbox) and/or ``crlf`` (line endings
        turned into CRLF by a mail program)."""
        paths = []
        for f in files:
            how = (local or {}).get(f, ())
            if not how:
                paths.append(str(self.src / f))
                continue
            data = (self.src / f).read_bytes()
            if "crlf" in how:
                data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            dst = self.work / "inbox" / (f"received-{self.calls}-{len(paths)}.txt" if "rename" in how else f)
            dst.parent.mkdir(exist_ok=True)
            dst.write_bytes(data)
            paths.append(str(dst))
        self.hxref("submit", GAME, *paths, day=day)

    def resolve(self, day: str) -> None:
        key = self.man.get("umpire_key")
        self.hxref("resolve", GAME, *(["--key", key] if key and self.man["mode"] == "umpired" else []), day=day)

    def audit(self, day: str):
        return self.hxref("audit", GAME, day=day)

    def head(self) -> str:
        from hxref.gamefile.game import GameFile

        return GameFile.load(self.game).head

    def log(self) -> str:
        return log_text(self.game)


# --- mails (property 10) -------------------------------------------------------------------------

@dataclass
class Mail:
    side: str
    files: list[FileInfo]

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)


def manifest_sequence(folder: Path, man: dict | None = None) -> list[FileInfo]:
    """Every file a manifest submits, in its order: the order the exchange happened in."""
    man = man or manifest(folder)
    return [file_info(folder, f) for seg in segments(man) for f in seg.files]


def group_mails(seq: list[FileInfo]) -> list[Mail]:
    """Files grouped into mails as a player would: a side's consecutive files travel together (no
    file of anyone else comes between them, so it could write them all before sending; what it
    resolves in between, it resolves on its own copy, and so does the receiver)."""
    mails: list[Mail] = []
    for f in seq:
        if mails and mails[-1].side == f.side:
            mails[-1].files.append(f)
        else:
            mails.append(Mail(f.side, [f]))
    return mails


def impulses(seq: list[FileInfo]) -> dict[str, list[str]]:
    """Per side, the decisions it answers alone that roll dice with the other side's link (an
    impulse, a player turn): one answer of that side and a roll file of another."""
    by_dec: dict[str, list[FileInfo]] = {}
    for f in seq:
        by_dec.setdefault(f.decision, []).append(f)
    out: dict[str, list[str]] = {}
    for d, fs in by_dec.items():
        answers = [f for f in fs if f.kind == "answer"]
        rolls = [f for f in fs if f.kind == "roll"]
        if len(answers) == 1 and rolls and all(r.side != answers[0].side for r in rolls):
            out.setdefault(answers[0].side, []).append(d)
    return out


def mail_stats(mails: list[Mail], seq: list[FileInfo] | None = None) -> dict:
    """Per side S: its impulses (decisions it answers alone, rolled for by another side), and the
    mails S sends that carry a file of an impulse (its orders, or its dice link for the
    opponent's impulse), without the game's last mail (a lone link when the game is over):
    ``per_impulse[S]`` is their number per impulse of S -- 1.00 when every link rides with its
    sender's next orders.  ``lone_links[S]``: those mails that hold only links (the opponent moved
    twice running); ``other[S]``: mails with no impulse file (bids, reveals, reorganisation).
    Files per mail: median over those impulse mails; bytes: over every mail after the joins."""
    import statistics

    seq = seq or [f for m in mails for f in m.files]
    imp = impulses(seq)
    moves = {d for ds in imp.values() for d in ds}
    play = [m for m in mails if any(f.kind != "join" for f in m.files)]
    steady = play[:-1]
    sides = sorted({m.side for m in mails})
    out: dict = {"impulses": {s: len(imp.get(s, [])) for s in sides},
                 "mails": {s: sum(1 for m in play if m.side == s) for s in sides},
                 "per_impulse": {}, "per_impulse_all": {}, "lone_links": {}, "other": {},
                 "bytes_median": statistics.median(m.size for m in play) if play else 0,
                 "bytes_max": max((m.size for m in play), default=0)}
    moving = [m for m in steady if any(f.decision in moves for f in m.files)]
    out["files_per_mail"] = statistics.median(len(m.files) for m in moving) if moving else 0
    for s in sides:
        n = len(imp.get(s, []))
        mine = [m for m in moving if m.side == s]
        out["lone_links"][s] = sum(1 for m in mine if all(f.kind == "roll" for f in m.files))
        out["other"][s] = sum(1 for m in play if m.side == s and not any(f.decision in moves for f in m.files))
        if n:
            out["per_impulse"][s] = len(mine) / n
            out["per_impulse_all"][s] = out["mails"][s] / n
    return out
