"""The game travels: what a mail carries so that each player's own copy of an open game stays in
step with the others', and how ``hxref inbox`` applies what arrives (SECURITY.md, "The protocol").

**The unit that travels is the signed file.**  Resolution is deterministic and nothing local
enters the chain, so a copy that is given the same signed files closes the same blocks and ends
byte-identical.  A mail to a party therefore carries every signed file of the game that the party
may lack (:func:`files_for`): the files of the blocks appended after the newest head that party
has *acknowledged* -- the newest ``head:`` named by any file it signed (:func:`acknowledged`: its
signature proves it held that head) -- and every file now pending, but never the party's own files
(it signed them on its own copy).  That is the "bundle" of a git bundle, made of the files
themselves: no new format, and each file is checked by its signature on arrival.

**The game file travels** only where the recipient has no copy: at the start (the recipient has
signed nothing in the game yet), and in the "one host holds the file" flow (``hxref outbox
--attach-game``).  An arriving game file (:func:`receive_game`) is accepted only

- as a new game, when no copy of that game is here, its full ``audit`` passes and the
  recipient's key (``hxref inbox --key``) is one of its participants' keys; or
- as a fast-forward, like ``git pull --ff-only``: the same identity, the local log a prefix of
  the incoming one hash by hash, the incoming one audits clean, and it extends the head this
  machine last saw there (:mod:`hxref.gamefile.heads`).  Files pending in the local copy and not in the
  incoming one are kept (submitted again on top of it).

Anything else -- another history (a fork) or an older one (a rollback) -- is refused with both
heads and the first event where the two logs differ (:func:`describe_divergence`).

**Applying signed files** (:func:`apply_files`): each file whose sha256 the copy already holds
(in a block of the log or pending) is skipped, not rejected (a duplicate, or a stale copy of a
file already resolved); the others are submitted, and after each one an open game resolves
whatever the first awaited decision allows without a key (``Engine.resolve(None)``).  A file
refused only because what it builds on is not there yet (its decision is not awaited yet, its
head is not yet in the history, the answer a roll names is not in) is tried again after each
success, so files may arrive in any order within a message.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import orders
from . import trust as protocol
from ..base.canon import sha256_hex
from ..base.errors import HxrefError, InvalidInput

if TYPE_CHECKING:
    from .engine import Engine


#: the modes whose game file travels: each player keeps his own copy (in a game with hidden armies,
#: the public file; each side's own file never travels)
TRAVELLING = ("open", "fog")


@dataclass
class Attachment:
    """A signed file a mail carries: its stored text exactly as signed, and its detached signature."""

    name: str
    text: str
    sig: str | None = None
    decision: str = ""
    side: str = ""
    kind: str = ""

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8")) + (len(self.sig.encode("utf-8")) if self.sig else 0)


def file_name(side: str, decision: str, kind: str) -> str:
    """The name hxref's own commands give a file: ``union-t1.i2.orders.yaml`` for an answer,
    ``union-t1.bid-commit.yaml`` for the other kinds; the kind is named once when the decision is
    named like it (``union-join.yaml``, ``union-proof.yaml``)."""
    return f"{side}-{decision}.yaml" if kind in ("answer", decision) else f"{side}-{decision}-{kind}.yaml"


def _head_of(text: str) -> tuple[str, int] | None:
    try:
        return protocol.parse_head(orders.parse(text, "kept file", fast=True).data.get("head"))
    except Exception:  # noqa: BLE001 - a kept file parses; one that does not names no head
        return None


def acknowledged(engine, party: str) -> int:
    """The newest event of this copy's history that a file signed by ``party`` names as its head
    (0 when ``party`` has signed nothing here): ``party`` held the game up to that event."""
    log = engine.gf.log
    best = 0

    def see(text: str) -> None:
        nonlocal best
        head = _head_of(text)
        if head and best < head[1] <= len(log) and log[head[1] - 1]["hash"].startswith(head[0]):
            best = head[1]

    for _, f in engine.pending_files():
        if f["party"] == party:
            see(f["file"])
    for i in range(len(log) - 1, -1, -1):
        if i < best:            # a file in the block at event i names a head before it
            break
        ev = log[i]
        if ev["kind"] == "submission" and ev["data"].get("side") == party:
            see(ev["data"]["file"])
    return best


def files_for(engine, party: str) -> tuple[int, list[Attachment]]:
    """The head ``party`` acknowledged, and every signed file of the game ``party`` may lack: those
    of the blocks after that head in log order, then those pending, without ``party``'s own."""
    ack = acknowledged(engine, party)
    out: list[Attachment] = []
    for ev in engine.gf.log[ack:]:
        d = ev["data"]
        if ev["kind"] == "submission" and d.get("side") != party:
            out.append(Attachment(file_name(d["side"], d["decision"], d["kind"]), d["file"], d.get("sig"),
                                  d["decision"], d["side"], d["kind"]))
    for dec, f in engine.pending_files():
        if f["party"] != party:
            out.append(Attachment(file_name(f["party"], dec, f["kind"]), f["file"], f.get("sig"), dec,
                                  f["party"], f["kind"]))
    names: dict[str, int] = {}
    for a in out:                    # two files of one party, kind and decision (a claim and a roll ...)
        n = names[a.name] = names.get(a.name, 0) + 1
        if n > 1:
            a.name = a.name[:-5] + f"-{n}.yaml"
    return ack, out


# --- comparing two histories ---------------------------------------------------------------------

def first_difference(a: Sequence[Mapping[str, Any]], b: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the first event where two logs differ, or None when one is a prefix of the other."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x.get("hash") != y.get("hash"):
            return i
    return None


def _event(log: Sequence[Mapping[str, Any]], i: int) -> str:
    ev = log[i]
    what = ev.get("kind", "?")
    data = ev.get("data")
    d = data if isinstance(data, dict) else {}
    if d.get("decision"):
        what += f" of {d['decision']}"
    if d.get("side"):
        what += f" by {d['side']}"
    return f"{what} {str(ev.get('hash'))[:16]}"


def _head(log: Sequence[Mapping[str, Any]]) -> str:
    return f"{log[-1]['hash'][:16]}@{len(log)}" if log else "no events"


def describe_divergence(local: Sequence[Mapping[str, Any]], incoming: Sequence[Mapping[str, Any]]) -> str | None:
    """Why ``incoming`` does not extend ``local`` (None when it does): both heads, and the first
    event where they differ."""
    i = first_difference(local, incoming)
    heads = f"the incoming head is {_head(incoming)}, this copy's head is {_head(local)}"
    if i is not None:
        return (f"another history (a fork): {heads}; they part at event {i + 1}: this copy has "
                f"{_event(local, i)}, the incoming file {_event(incoming, i)}")
    if len(incoming) < len(local):
        return (f"an older history (a rollback): {heads}; the incoming file ends at event {len(incoming)}, "
                f"this copy goes on with event {len(incoming) + 1}, {_event(local, len(incoming))}")
    return None


# --- an arriving game file -----------------------------------------------------------------------

@dataclass
class Received:
    """What became of a game file that arrived: ``new``, ``fast-forward`` or ``same``."""

    path: Path
    action: str
    engine: Engine
    head: str
    note: str = ""
    kept: list[str] = field(default_factory=list)     # local pending files put back on top


def _safe_name(name: str) -> str:
    import re

    base = re.sub(r"[^A-Za-z0-9._-]", "-", Path(name.replace("\\", "/")).name).lstrip(".") or "game.yaml"
    return base if base.endswith((".yaml", ".yml")) else base + ".yaml"


def _participant_of(engine, key) -> str | None:
    from ..crypto.signing import PublicKey

    fp = key.fingerprint()
    for name, p in engine.participants.items():
        if "key" in p:
            try:
                if PublicKey.from_line(p["key"]).fingerprint() == fp:
                    return name
            except HxrefError:
                continue
    return None


def receive_game(text: str, name: str, games, key, engine_for) -> Received:
    """Apply an arriving game file (see the module docstring); ``games`` is the inbox's
    :class:`hxref.mail.Games`, ``engine_for(path)`` gives the locked local engine of a path.
    Nothing is written here: the caller saves the returned engine with the rest of its message."""
    from .audit import prove
    from .engine import Engine
    from ..gamefile.game import GameFile

    try:
        incoming = GameFile.parse(text.replace("\r\n", "\n"), Path(name))
    except HxrefError as exc:
        raise InvalidInput(f"the game file that arrived cannot be read: {exc.message}", code="E500",
                           file=name) from None
    # believed only as its log gives it: the same proof as any game file this machine did not write
    incoming.header = prove(incoming)
    probe = Engine(incoming)
    gid = str(probe.meta["game"])
    identity = probe.identity
    if probe.mode not in TRAVELLING:
        raise InvalidInput(f"a game file of a {probe.mode} game arrived: only open games (and the public file of a "
                           "game with hidden armies) travel (an umpired game file holds the umpire's secrets; its "
                           "host keeps it)", code="E504", file=name)
    local_path = None
    for p in games.paths.get(gid, []):
        if engine_for(p).identity == identity:
            local_path = p
            break
    if local_path is None and games.paths.get(gid):
        other = games.paths[gid][0]
        raise InvalidInput(f"the game file that arrived is game {gid!r} with identity {identity[:16]}, but "
                           f"{other} holds another game of that label (identity {engine_for(other).identity[:16]}): "
                           "a rematch, or a game rewritten from its start", code="E506", file=name)
    if local_path is None:
        dest = games.new_path(name)
        if key is None:
            raise InvalidInput(f"a new game arrived ({gid}): give your key (`--key YOUR_KEY`) to accept it; "
                               "hxref checks that it is in the game", code="E504", file=name)
        side = _participant_of(probe, key)
        if side is None:
            raise InvalidInput(f"a new game arrived ({gid}), but your key {key.fingerprint()} is none of its "
                               "participants' keys: not your game, or made with another key", code="E302", file=name)
        incoming.path = dest
        eng = Engine.proved(incoming, vouched=True)     # proved above; its head checked against dest's
        games.add(gid, dest)
        return Received(dest, "new", eng, eng.head_text(), f"a new game for {side}, saved as {dest}")
    local = engine_for(local_path)
    why = describe_divergence(local.gf.log, incoming.log)
    if why:
        raise InvalidInput(f"the game file that arrived does not extend this copy ({local_path}): {why}; "
                           "nothing was changed", code="E506", file=name,
                           hint="compare with the other player's copy; submit only his signed files")
    if len(incoming.log) == len(local.gf.log):
        kept = _merge_pending(local, probe)
        return Received(local_path, "same", local, local.head_text(),
                        "the game file that arrived holds this copy's head", kept)
    incoming.path = local_path
    eng = Engine.proved(incoming, vouched=True)         # proved above; its head checked against this copy's
    kept = _merge_pending(eng, local)
    return Received(local_path, "fast-forward", eng, eng.head_text(),
                    f"fast-forward from {_head(local.gf.log)} to {_head(incoming.log)}", kept)


def _merge_pending(into, other) -> list[str]:
    """Submit to ``into`` the pending files of ``other`` that it lacks (those it refuses are dropped:
    stale ones, whose decision closed without them)."""
    have = known_files(into)
    out = []
    for dec, f in other.pending_files():
        if f["sha256"] in have:
            continue
        try:
            into.submit(f["file"], file_name(f["party"], dec, f["kind"]), f.get("sig"))
            out.append(file_name(f["party"], dec, f["kind"]))
        except HxrefError:
            continue
    return out


# --- arriving signed files -----------------------------------------------------------------------

def known_files(engine) -> set[str]:
    """The sha256 of every file this copy holds: in the log's blocks, and pending."""
    out = {ev["data"]["sha256"] for ev in engine.gf.log if ev["kind"] == "submission"}
    out |= {f["sha256"] for _, f in engine.pending_files()}
    return out


def stored_sha(text: str, name: str, sig: str | None) -> str | None:
    from .inputs import stored_text

    try:
        order = orders.parse(text, name, fast=True)
    except HxrefError:
        return None
    if sig is not None:
        order.armored = sig
    return sha256_hex(stored_text(order, sig is not None).encode("utf-8"))


def auto_resolve(engine) -> list:
    """Close, in an open game (or one with hidden armies, on its public copy: what a decision makes
    public needs no side's own file), every decision that needs no key now (none: an empty list)."""
    if engine.mode not in TRAVELLING or engine.finished:
        return []
    try:
        return engine.resolve(None)
    except HxrefError as exc:
        if exc.code == "E308":
            return []
        raise


@dataclass
class Applied:
    receipts: list = field(default_factory=list)        # hxref.referee.engine.Receipt, in the order accepted
    skipped: list[str] = field(default_factory=list)    # names of files already held
    resolved: list = field(default_factory=list)        # (game path, hxref.referee.engine.Resolution, head text)
    refused: list = field(default_factory=list)         # (name, HxrefError) of the files that stay refused


def apply_files(engines: dict, items: list[tuple[Path, str, str, str | None]], *, resolve: bool = True) -> Applied:
    """Submit ``items`` ((game path, name, text, detached signature)) to the engines in memory;
    skip the files already held; resolve open games as files come in; retry the refused files
    after each success until nothing more goes in."""
    out = Applied()
    todo = list(items)
    while todo:
        later, errors = [], {}
        progress = False
        for item in todo:
            path, name, text, sig = item
            eng = engines[path]
            sha = stored_sha(text, name, sig)
            if sha is not None and sha in known_files(eng):
                out.skipped.append(name)
                continue
            try:
                out.receipts.append(eng.submit(text, name, sig))
            except HxrefError as exc:
                errors[id(item)] = exc
                later.append(item)
                continue
            progress = True
            if resolve:
                for r in auto_resolve(eng):
                    out.resolved.append((path, r, eng.head_text()))
        if not later or not progress:
            out.refused = [(item[1], errors[id(item)]) for item in later]
            break
        todo = later
    return out
