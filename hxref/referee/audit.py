"""``hxref audit``: check every hash, replay the whole log from the scenario and compare, hash for
hash; re-accept the files still pending; and, with ``--as``, check a player's own key and the
last head he kept (SECURITY.md, "How a player checks a game").
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from collections.abc import Sequence
from typing import Any

from . import orders
from . import trust as protocol
from ..base.canon import sha256_hex
from .engine import Engine
from .rules import GameRules
from ..base.errors import HxrefError, InvalidInput
from ..gamefile.game import GENESIS, Event, GameFile, chain_problems, new_header
from .inputs import INPUT_KINDS, UMPIRE, inputs_for, stored_text


@dataclass
class AuditResult:
    ok: bool
    events: int = 0
    signatures: int = 0
    commitments: int = 0
    dice: int = 0
    pending: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    head: str = GENESIS
    charts_changed: list[dict] = field(default_factory=list)   # {chart, how}: pinned, but not the file today
    #: the game as the replay of its log built it (an Engine: its header and log), when the audit passes
    replayed: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "events": self.events, "signatures": self.signatures,
                "commitments_opened": self.commitments, "dice_rederived": self.dice,
                "pending_files": self.pending, "head": self.head, "problems": self.problems, "notes": self.notes,
                "charts_changed": self.charts_changed}


def _fresh(gf: GameFile) -> Engine:
    data = gf.log[0].get("data") if gf.log else None
    meta = data.get("meta") if isinstance(data, dict) else None
    if not isinstance(meta, dict) or not isinstance(meta.get("system"), str):
        raise InvalidInput("event 1 (game.created) names no game system: a damaged or crafted game file",
                           code="E500", file=str(gf.path))
    replay = Engine.__new__(Engine)
    replay.gf = GameFile(gf.path, new_header({"system": meta["system"]}, {}))
    replay.h = replay.gf.header
    replay.rules = GameRules(replay.h["meta"]["system"], replay.pinned_charts)
    replay.replaying = True
    return replay


def check(gf: GameFile, workers: int | None = None,
          chain: list[str] | None = None) -> tuple[AuditResult, Engine | None]:
    """Everything a game file must be, short of the head this machine kept for it: its hash chain
    (:func:`hxref.gamefile.game.chain_problems`, or ``chain``, what it gave already), the replay of its
    whole log from ``game.created`` (every signature, commitment, die and rules event), its
    pending files re-accepted, its header the replay's, and its pinned data readable.  The result,
    and the replayed game (None when the file does not check out)."""
    res = AuditResult(ok=False, events=len(gf.log), head=gf.head)
    res.problems = chain_problems(gf) if chain is None else list(chain)
    if res.problems:
        return res, None
    replay = _replay(gf, res, workers)
    _chart_notices(gf, res)
    return res, replay


def audit(path: str | Path, workers: int | None = None, known_head: bool = True) -> AuditResult:
    """Check every hash, then replay the whole log from the scenario and compare (:func:`check`).

    ``workers`` processes read and verify the stored order files first (default: 2 on a machine with
    more than one core when the log holds many files; 1 = all in this process).  With ``known_head``
    the log must also extend the head this machine last saw for the file (:mod:`hxref.gamefile.heads`).
    The audit never takes a file for proved: it checks everything, every time.
    """
    from ..gamefile import heads

    gf = GameFile.load(path)
    chain = chain_problems(gf)
    fork = None
    if known_head and not chain:
        try:
            heads.check_extends(gf.log[0]["hash"], gf.path, gf.log)
        except HxrefError as exc:
            fork = exc.message      # said after whatever the replay finds
    res, replayed = check(gf, workers, chain)
    if fork:
        res.problems.append(fork)
        res.ok = False
    if res.ok:
        res.replayed = replayed
    return res


def prove(gf: GameFile) -> dict:
    """The header the log of ``gf`` gives, after the audit's own check (:func:`check`, in this
    process): what every command starts from when the file is not one this machine wrote or
    proved.  E500 with the audit's first problem when the file does not check out."""
    res, replay = check(gf, workers=1)
    if not res.ok or replay is None:
        raise InvalidInput(f"the game file does not check out: {res.problems[0] if res.problems else 'no game'}; "
                           "run `hxref audit` on it", code="E500", file=str(gf.path),
                           hint="restore GAME.bak or a copy you trust; a game file is believed only as its "
                                "signed log gives it")
    return replay.h


def _pinned(gf: GameFile) -> tuple[str, dict[str, Any]]:
    """The system and the charts pinned in the game's ``game.created`` (E500 when damaged)."""
    from .pinning import prepare

    created = gf.log[0]["data"] if isinstance(gf.log[0].get("data"), dict) else {}
    meta = created.get("meta")
    system = meta.get("system") if isinstance(meta, dict) else None
    if not isinstance(system, str):
        raise InvalidInput("it names no game system", code="E500")
    return system, prepare(system, created.get("charts"))


def _chart_notices(gf: GameFile, res: AuditResult) -> None:
    """The replay used the charts the game pinned; say which of them the files of today differ from
    (the game's owner replaced them): a notice, not a failure."""
    from ..kit import data
    from .pinning import changed

    try:
        system, charts = _pinned(gf)
        found = changed(system, charts)
    except HxrefError as exc:
        # a damaged game.created: the replay said so when it read a chart; a crafted chart no rules
        # call has read yet (a game still awaiting its joins) is refused here
        if not res.problems:
            res.problems.append(f"event 1 (game.created): {exc.message}")
            res.ok = False
        return
    for rel, how in found:
        res.charts_changed.append({"chart": rel, "how": how})
        res.notes.append(f"NOTICE: the game was played with its pinned {rel}, which {how}; the replay used "
                         "the pinned one (`hxref audit --rerun` shows what today's would change)")
    for rel, src in sorted(charts.items()):
        if rel.startswith(data.CLUB_MAPS + "/"):
            res.notes.append(f"NOTICE: the game is played on a club's own map, pinned when it was made ({rel}, "
                             f"sha256 {src.sha256}); the replay used it")
    _scenario_notice(gf, system, res)


def _scenario_notice(gf: GameFile, system: str, res: AuditResult) -> None:
    """Say so when the game's scenario is not this hxref's published one of its name (a club's own
    file, a doctored order of battle the players accepted at their joins): a notice, as for charts,
    so a tournament director reading `audit OK` knows what was played."""
    from .published import scenario_differences

    created = gf.log[0]["data"]
    meta = created.get("meta")
    if "scenario" not in created or not isinstance(meta, dict):
        return
    for line in scenario_differences(system, str(meta.get("scenario", "")), created["scenario"]):
        res.notes.append(f"NOTICE: {line}; the replay used the game's own")


def _replay(gf: GameFile, res: AuditResult, workers: int | None) -> Engine | None:
    """Replay the log on a fresh game, event by event, and stop at the first problem: each block's
    files in canonical order, only input events applied (a link only the umpire's), each stored
    file re-accepted, each produced event equal to the log's, hash for hash; then the pending files
    and the header.  The replayed game, or None when its first event cannot start one."""
    try:
        replay = _fresh(gf)
    except HxrefError as exc:
        res.problems.append(str(exc))
        return None
    mode = (gf.log[0]["data"].get("meta") or {}).get("mode")
    inputs = inputs_for(mode)
    pre = _read_stored_files(gf.log, workers)
    block: list[dict] = []      # the files of the block being read, to check their canonical order
    pos = 0
    while pos < len(gf.log):
        ev = gf.log[pos]
        start = len(replay.gf.log)
        problem = (_block_order(ev, block) or _not_an_input(ev, inputs) or _replay_input(replay, ev, pre, res)
                   or _produced_problem(gf, replay.gf.log[start:], start, ev))
        if problem is not None:
            res.problems.append(problem)
            return None
        _block_collect(replay, ev, block)
        made = replay.gf.log[start:]
        res.dice += sum(1 for e in made if e["kind"] == "die")
        pos = start + len(made)
    _replay_pending(gf, replay, res)
    if res.problems:
        return None
    res.problems += _snapshot_problems(gf, replay)
    res.ok = not res.problems
    return replay


def _block_collect(replay: Engine, ev: Event, block: list[dict]) -> None:
    """Collect a block's files as the replay kept them (a claim with what it claims)."""
    if ev["kind"] == "submission":
        kept = replay.pending(ev["data"]["decision"])["files"]
        block.append(next((f for f in kept if f["sha256"] == ev["data"]["sha256"]),
                          {"party": ev["data"]["side"], "kind": ev["data"]["kind"], "sha256": ev["data"]["sha256"]}))


def _block_order(ev: Event, block: list[dict]) -> str | None:
    """At a block's ``resolve``, its files (:func:`_block_collect`) must be in canonical order."""
    if ev["kind"] == "resolve":
        if block != protocol.canonical(block):
            # two copies holding the same files must hold the same bytes
            return (f"event {ev['seq']} (resolve): the files of its block are not in the "
                    "canonical order (by kind, party and hash)")
        block.clear()
    return None


def _not_an_input(ev: Event, inputs: Any) -> str | None:
    """Only the game's input events are applied: an unsigned one that speaks for a participant, or
    one the event before should have produced, is refused; a link is the umpire's alone."""
    if ev["kind"] not in inputs:
        why = ("an unsigned input that speaks for a participant; a game with keys takes only signed files"
               if ev["kind"] in ("answer", "undo", "nmr") else "was not produced by the event before it")
        return f"event {ev['seq']} ({ev['kind']}): {why}"
    if ev["kind"] == "link" and ev["by"] != UMPIRE:
        return f"event {ev['seq']} (link): only the umpire's bound link is an input event"
    return None


def _replay_input(replay: Engine, ev: Event, pre: dict[int, tuple], res: AuditResult) -> str | None:
    """Apply one input event to the replay: a stored file must match its sha256 and be accepted again
    (its signature, head and rules), as when it was first submitted."""
    try:
        order = None
        if ev["kind"] == "submission":
            order, signer = _stored_order(ev, pre)
            if sha256_hex(stored_text(order, "sig" in ev["data"]).encode("utf-8")) != ev["data"].get("sha256"):
                raise InvalidInput("the stored file does not match its sha256", code="E500")
            replay._accept(order, "sig" in ev["data"], signer=signer)
            res.signatures += 1
            if order.kind == "reveal":
                res.commitments += 1
        # the stored input event hashes correctly (checked above); when the replay's chain has
        # reached the same head, re-appending it yields that very hash
        same = replay.gf.head == ev["prev"] and len(replay.gf.log) + 1 == ev["seq"]
        replay._apply(ev["kind"], ev["by"], ev["data"], order, ev["hash"] if same else None)
    except HxrefError as exc:
        return f"event {ev['seq']} ({ev['kind']}): replay refuses it: {exc.message}"
    except Exception as exc:  # a damaged log must not crash the audit
        return f"event {ev['seq']} ({ev['kind']}): replay failed: {exc!r}"
    return None


def _produced_problem(gf: GameFile, made: list, start: int, ev: Event) -> str | None:
    """The events the replay produced from one input must be the log's next ones, hash for hash."""
    stored = gf.log[start:start + len(made)]
    for a, b in zip(made, stored):
        if a["hash"] != b["hash"]:
            return (f"event {b['seq']} ({b['kind']}): replay gives a different result "
                    f"({a['kind']} {_short(a['data'])})")
    if len(stored) < len(made):
        return f"the log ends before the events produced by event {ev['seq']}"
    return None


def _snapshot_problems(gf: GameFile, replay: Engine) -> list[str]:
    """The header is a snapshot: every key of it, known or not, must be what the replay gives (an
    added key is an edit), and its head event number the log's length."""
    problems = []
    for key in sorted((set(replay.h) | set(gf.header)) - {"head"}):
        if replay.h.get(key) != gf.header.get(key):
            what = "is not made by the game" if key not in replay.h else "differs from the replayed game"
            problems.append(f"the header's {key} {what} (edited snapshot)")
    if gf.header.get("head", {}).get("seq") != len(gf.log):
        problems.append("the header's head event number is not the log's length (edited snapshot)")
    return problems


def _replay_pending(gf: GameFile, replay: Engine, res: AuditResult) -> None:
    """The files kept for open decisions are outside the chain: each must still be accepted by the
    replayed game, and together give the stored pending area."""
    stored = gf.header.get("pending") or {}
    if not isinstance(stored, dict):
        res.problems.append("the header's pending area is not a mapping (edited snapshot)")
        return
    awaited = [a["id"] for a in replay.h.get("awaiting", [])]
    for decision_id in sorted(stored, key=lambda d: awaited.index(d) if d in awaited else 10**6):
        entry = stored[decision_id]
        if not isinstance(entry, dict) or not isinstance(entry.get("files", []), list):
            res.problems.append(f"the header's pending area for {decision_id} is damaged (edited snapshot)")
            return
        files = entry.get("files") or []
        for f in protocol.canonical(files) if all(isinstance(x, dict) and {"kind", "party", "sha256"} <= set(x)
                                                  for x in files) else []:
            try:
                order = orders.parse(f["file"], f"pending file {f['sha256'][:16]}", fast=True)
                if "sig" in f:
                    order.armored = f["sig"]
                if sha256_hex(stored_text(order, "sig" in f).encode("utf-8")) != f["sha256"]:
                    raise InvalidInput("the kept file does not match its sha256", code="E500")
                replay._accept(order, "sig" in f)
                replay._pend(order, f.get("sig"))
                res.signatures += 1
                res.pending += 1
            except HxrefError as exc:
                res.problems.append(f"a pending file for {decision_id} ({f.get('kind')} of {f.get('party')}) is "
                                    f"refused: {exc.message}")
                return
            except Exception as exc:  # noqa: BLE001 - damaged content must not crash the audit
                res.problems.append(f"a pending file for {decision_id} cannot be read: {exc!r}")
                return


def _stored_order(ev: Event, pre: dict[int, tuple]) -> tuple[orders.Order, bytes | None]:
    if ev["seq"] in pre:
        order, signer, error = pre[ev["seq"]]
        if error is not None:
            raise InvalidInput(error, code="E201")
        return order, signer
    order = orders.parse(ev["data"]["file"], f"event {ev['seq']}", fast=True)
    if "sig" in ev["data"]:
        order.armored = ev["data"]["sig"]
    return order, None


def audit_as(path: str | Path, side: str, public_key, since: str | None = None) -> list[str]:
    """What a player checks for himself: that ``side``'s key in the game is his own, that the
    log extends the last head he kept (``HASH@SEQ``), and that his own files in the log are his.
    Returns the problems (none: all holds)."""
    gf = GameFile.load(path)
    problems = []
    created = gf.log[0]["data"] if gf.log and gf.log[0].get("kind") == "game.created" else {}
    p = (created.get("participants") or {}).get(side)
    if p is None:
        return [f"the game has no participant {side!r}"]
    if p.get("fingerprint") != public_key.fingerprint():
        problems.append(f"{side}'s key in this game is {p.get('fingerprint')}, not your key "
                        f"{public_key.fingerprint()}: the game was made (or rewritten) with another key")
    problems += _against_own_record(gf, side, public_key.fingerprint())
    if since:
        head = protocol.parse_head(since)
        if head is None:
            problems.append(f"--since {since!r} is not HEAD@SEQ (a head hash, an @ and its event number)")
        else:
            h, seq = head
            if seq > len(gf.log):
                problems.append(f"the log has only {len(gf.log)} events: it does not reach your head {h[:16]}@{seq} "
                                "(a rollback)")
            elif not gf.log[seq - 1]["hash"].startswith(h):
                problems.append(f"event {seq} is {gf.log[seq - 1]['hash'][:16]}, not your head {h[:16]}: "
                                "this history is not the one you saw (a fork)")
    return problems


def _against_own_record(gf: GameFile, side: str, fingerprint: str) -> list[str]:
    """What this machine's record of the key (:mod:`hxref.referee.key_record`) says against the game: the
    join of ``side`` in it is not the one the key signed for this identity (an earlier game's join
    spliced into a game re-made with its identity), or the last head the key signed against is not
    in its history (a fork)."""
    from . import key_record

    identity = gf.log[0]["hash"] if gf.log else ""
    entry = key_record.joined(fingerprint, identity)
    if entry is None:
        return []
    problems = []
    for ev in gf.log:
        data = ev.get("data") or {}
        if ev.get("kind") == "submission" and data.get("kind") == "join" and data.get("side") == side:
            nonce = orders.parse(data["file"], f"event {ev['seq']}", fast=True).data.get("nonce")
            if nonce != entry.get("nonce"):
                problems.append(f"{side}'s join in this game (event {ev['seq']}) is not the join your key signed "
                                "for it on this machine: another join of yours, spliced in")
    forked = key_record.history_problem(fingerprint, identity, gf.log)
    return problems + ([forked] if forked else [])


@dataclass
class RerunResult:
    """What the rules of today would make of a game's inputs (``hxref audit --rerun``)."""

    ok: bool
    decisions: int = 0
    differences: list[dict] = field(default_factory=list)    # {decision, event, before, after}
    refused: list[str] = field(default_factory=list)          # inputs the rules would now refuse
    state_differs: list[str] = field(default_factory=list)    # header keys that end differently
    charts: list[str] = field(default_factory=list)           # pinned charts replaced by today's files

    def to_dict(self) -> dict:
        return {"ok": self.ok, "decisions": self.decisions, "differences": self.differences,
                "refused": self.refused, "state_differs": self.state_differs, "charts": self.charts}


def rerun(path: str | Path) -> RerunResult:
    """Replay every input of the game (files, answers, links, resolutions) through the rules code
    and the charts of today (each chart the game pinned is read as its file is now), and list each
    resolution whose produced events (dice and rules' events) would now differ from the log, with
    the first differing line before and after.  Nothing is written."""
    checked = audit(path)
    gf = GameFile.load(path)
    res = RerunResult(ok=False)
    if any("hash" in p or "sequence" in p or "follow" in p for p in checked.problems):
        res.refused.append("the log's hash chain is broken: " + "; ".join(checked.problems))
        return res
    replay = _fresh(gf)
    replay.rules.today = True
    res.charts = [c["chart"] for c in checked.charts_changed]
    inputs = [i for i, ev in enumerate(gf.log) if ev["kind"] in INPUT_KINDS]
    for n, i in enumerate(inputs):
        ev = gf.log[i]
        stored = list(gf.log[i + 1:inputs[n + 1] if n + 1 < len(inputs) else len(gf.log)])
        start = len(replay.gf.log)
        try:
            _rerun_input(replay, ev)
        except HxrefError as exc:
            res.refused.append(f"event {ev['seq']} ({ev['kind']}): the rules of today refuse it: {exc.message}")
            break
        if ev["kind"] == "resolve":
            res.decisions += 1
            diff = _resolution_difference(ev, stored, replay.gf.log[start + 1:])
            if diff is not None:
                res.differences.append(diff)
    if not res.refused:
        res.state_differs += [key for key in ("state", "awaiting", "phase") if replay.h.get(key) != gf.header.get(key)]
    res.ok = not (res.differences or res.refused or res.state_differs)
    return res


def _rerun_input(replay: Engine, ev: Event) -> None:
    """Apply one input event with today's rules: a stored file is accepted again first (no signer
    given: its signature is checked anew)."""
    order = None
    if ev["kind"] == "submission":
        order = orders.parse(ev["data"]["file"], f"event {ev['seq']}", fast=True)
        if "sig" in ev["data"]:
            order.armored = ev["data"]["sig"]
        replay._accept(order, "sig" in ev["data"])
    replay._apply(ev["kind"], ev["by"], ev["data"], order)


def _resolution_difference(ev: Event, stored: list, made: list) -> dict | None:
    """Where a resolution's events of today first differ from the log's: the event, and the line
    before and after (None: they are the same)."""
    before = [(e["kind"], e["by"], e["data"]) for e in stored]
    after = [(e["kind"], e["by"], e["data"]) for e in made]
    if before == after:
        return None
    k = next((j for j, (x, y) in enumerate(zip(before, after)) if x != y), min(len(before), len(after)))
    return {"decision": ev["data"].get("decision"), "event": stored[k]["seq"] if k < len(stored) else None,
            "before": _line(before[k]) if k < len(before) else "(nothing)",
            "after": _line(after[k]) if k < len(after) else "(nothing)"}


def _line(item: tuple) -> str:
    kind, by, data = item
    if kind == "die":
        return f"die {data.get('purpose')}: {data.get('faces')}"
    return str(data.get("text") or _short(data))


def _short(data: dict) -> str:
    text = str(data)
    return text if len(text) < 80 else text[:77] + "..."


#: below this many stored files the audit reads them in its own process (starting workers costs more)
PARALLEL_FILES = 200


def _read_stored(item: tuple) -> tuple:
    """Read one stored order file and verify its signature (no game context): a worker's job."""
    seq, text, sig = item
    from ..crypto.signing import sshsig_verify, verify_text

    try:
        order = orders.parse(text, f"event {seq}", fast=True)
        if sig is not None:
            order.armored = sig
            signer, _ = verify_text(order.raw or order.text, source=order.source, detached=sig)
        elif order.armored is None:
            return seq, order, None, "the stored file is not signed"
        else:
            signer = sshsig_verify(order.armored, order.body.encode("utf-8"), source=order.source)
        return seq, order, signer.raw, None
    except HxrefError as exc:
        return seq, None, None, exc.message
    except Exception as exc:  # a damaged file must not crash the audit
        return seq, None, None, repr(exc)


def _read_stored_files(log: Sequence[Event], workers: int | None) -> dict[int, tuple]:
    """seq -> (order, signer's raw key, error) for every stored file, read in parallel when it pays."""
    items = [(ev["seq"], ev["data"].get("file"), ev["data"].get("sig")) for ev in log
             if ev.get("kind") == "submission" and isinstance(ev.get("data"), dict)
             and isinstance(ev["data"].get("file"), str)]
    if workers is None:
        workers = 2 if (os.cpu_count() or 1) > 1 and len(items) >= PARALLEL_FILES else 1
    if workers <= 1 or len(items) < 2:
        return {}
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, len(items) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return {seq: (order, signer, error) for seq, order, signer, error in
                pool.map(_read_stored, items, chunksize=chunk)}
