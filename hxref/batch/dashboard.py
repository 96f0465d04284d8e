"""The dashboard of a folder of games (:func:`dashboard`): one :class:`Row` per game.

Each row is read from the game file's header as every command reads it (:func:`hxref.batch.scan.read_header`:
proved by the replay of its log, or the very file this machine wrote or proved).  It lists
every party that owes something now (an answer, a commitment, a reveal, a dice link, the umpire's
resolution) and the deadlines; a party past the deadline of a decision it owes is *late*, and once
the grace is over too a signed claim (``hxref claim``) can be made against it.  How a finished game
ended (a forfeit says so) is never read from its header: it comes from the game's audited replay
(:func:`hxref.batch.standings.checked_result`, as ``hxref standings`` counts it), and a finished game
that fails its audit says so instead.  ``audit=True`` also runs :func:`hxref.referee.audit.audit` on every
game; the audits run in parallel processes (:mod:`hxref.batch.workers`).
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .scan import _rel, _sort_time, find_games, parse_time, read_header
from .standings import GameResult, checked_result, result_text
from .workers import _audit_one, _key_fingerprint, _run
from ..base.errors import HxrefError
from ..gamefile.game import GameFile, damaged

def _shell(path: Path, header: dict):
    """An :class:`~hxref.referee.engine.Engine` over a header alone: enough for ``waiting_for``, ``ready``,
    ``missing_links``, ``owed_by``, ``due`` and ``claim_command``, which read only the header
    (``meta``, ``participants``, ``awaiting`` and ``pending``: per open decision its kept
    ``files``, the ``answers`` and ``links`` they give, and any ``claims`` and ``undo`` votes),
    without loading the game system or the log.  Nothing that applies a file or rules may be called
    on it (it has no ``system``)."""
    from ..referee.engine import Engine

    eng = Engine.__new__(Engine)
    eng.gf = GameFile(path, header, [])
    eng.h = header
    return eng


@dataclass
class Row:
    """One game of a folder, as the dashboard shows it."""

    path: Path
    file: str                              # the path relative to the folder
    game: str | None = None
    system: str | None = None
    scenario: str | None = None
    mode: str | None = None
    phase: str | None = None               # setup, playing, over
    turn: Any = None
    stage: str | None = None               # the system's own phase (kgp: stage)
    #: [{decision, kind, rule, owed: {party: what}, commands: {party: command}, ready, deadline, due,
    #: late: [party] (only when someone is)}] (``Engine.waiting_for``; ``due``: the deadline plus the
    #: grace, from when a claim can be signed)
    awaiting: list[dict] = field(default_factory=list)
    waiting_on: list[str] = field(default_factory=list)  # the parties that owe something now (the umpire too)
    ready: bool = False                    # a decision has all its answers
    blocked: str | None = None             # why a ready game cannot be resolved now
    deadline: str | None = None            # the earliest deadline among the decisions still owed
    late: list[str] = field(default_factory=list)        # parties past the deadline of a decision they owe
    #: what a signed claim may be made against now (past the deadline and its grace):
    #: [{decision, against, owed, due, gives (stand-fast | forfeit), command}]
    claimable: list[dict] = field(default_factory=list)
    nmr: str | None = None                 # what a claim gives under the game's policy (stand-fast, forfeit)
    last_activity: str | None = None
    activity_from: str | None = None       # pending | log | mtime (see Peek)
    head: str | None = None
    events: int = 0
    audit: str | None = None               # None: not run; "ok"; "FAILED: why"
    result: str | None = None              # how a finished game ended, from its audited replay
    error: str | None = None               # the file cannot be read (one line)

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def resolvable(self) -> bool:
        return self.ready and not self.blocked and not self.error

    @property
    def status(self) -> str:
        """error | over | ready | late | blocked | waiting (late: a party owes something past its deadline,
        be it an answer or only a dice link)"""
        if self.error:
            return "error"
        if self.finished:
            return "over"
        if self.ready and not self.blocked:
            return "ready"
        if self.late:
            return "late"
        return "blocked" if self.ready else "waiting"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["path"] = str(self.path)
        d["status"] = self.status
        return d


def _row(path: Path, folder: Path, umpire_fp: str | None, now: _dt.datetime | None = None) -> Row:
    """One game's row: the header's fields, then what the game awaits; a file or header that cannot be
    read gives a row that holds the error."""
    row = Row(path, _rel(path, folder))
    try:
        peek = read_header(path)
    except HxrefError as exc:
        row.error = exc.render()
        return row
    h = peek.header
    _header_fields(row, h, peek)
    now = now or parse_time(_now())
    try:
        deadlines = _awaited_fields(row, path, h, umpire_fp, now)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        row.error = damaged(path, f"the header's awaited decisions cannot be read ({exc!r})").render()
        return row
    row.deadline = min(deadlines, key=_sort_time) if deadlines else None
    return row


def _header_fields(row: Row, h: dict, peek) -> None:
    """The row's fields read straight from the header: the game's names and mode, phase, turn and stage,
    last activity, the no-move policy, the head."""
    meta = h["meta"]
    row.game, row.system, row.scenario, row.mode = (meta.get(k) for k in ("game", "system", "scenario", "mode"))
    row.phase = h.get("phase")
    st = h.get("state") or {}
    row.turn, row.stage = st.get("turn"), st.get("stage")
    row.last_activity, row.activity_from = peek.last_activity, peek.activity_from
    row.nmr = (meta.get("policy") or {}).get("nmr") if isinstance(meta.get("policy"), dict) else None
    row.head = (h.get("head") or {}).get("hash")
    row.events = int((h.get("head") or {}).get("seq") or 0)


def _awaited_fields(row: Row, path: Path, h: dict, umpire_fp: str | None, now: _dt.datetime | None) -> list:
    """What the game awaits: each decision and who owes it now, whether one is ready (and why we cannot
    resolve it); returns the deadlines of the decisions still owed."""
    eng = _shell(path, h)
    row.awaiting = [{k: w.get(k) for k in ("decision", "kind", "rule", "owed", "commands", "ready", "deadline",
                                           "due")} for w in eng.waiting_for()]
    ready = eng.ready()
    row.ready = bool(ready)
    if ready:
        row.blocked = _blocked(eng, ready[0], umpire_fp)
    deadlines = []
    for w in row.awaiting:
        owing = owes_now(w["owed"])
        row.waiting_on += [s for s in owing if s not in row.waiting_on]
        if not owing or not w.get("deadline") or row.finished:
            continue
        deadlines.append(w["deadline"])
        _lateness(row, eng, h, w, owing, now, path)
    return deadlines


def _lateness(row: Row, eng, h: dict, w: dict, owing: list[str], now: _dt.datetime | None, path: Path) -> None:
    """Who owes the decision ``w`` past its deadline (late) and, once its grace is over too, the signed
    claim that may be made against each side (not in solo games, nor without a no-move policy)."""
    if now and _sort_time(w["deadline"]) < now:
        w["late"] = owing
        row.late += [s for s in owing if s not in row.late]
    if now and row.mode != "solo" and row.nmr and _sort_time(w.get("due") or w["deadline"]) <= now:
        dec = eng.decision(w["decision"])
        row.claimable += [{"decision": w["decision"], "against": s, "owed": w["owed"][s],
                           "due": w.get("due") or w["deadline"], "gives": _claim_gives(h, s, w["owed"][s]),
                           "command": _claim_command(eng, s, dec, path)}
                          for s in owing if s in eng.sides()]


def _claim_gives(header: dict, against: str, owed: str) -> str:
    """What a claim against ``against`` would give now (as :meth:`ClaimsMixin._apply_claim` decides
    it): ``forfeit`` for a withheld reveal or dice link, under ``--nmr forfeit``, or at the policy's
    ``forfeit_after`` missed deadlines; else ``stand-fast`` (the decision's default answer)."""
    policy = header["meta"].get("policy") or {}
    missed = (header.get("missed") or {}).get(against, 0) + 1
    if owed in ("reveal", "link") or policy.get("nmr") == "forfeit" \
            or (policy.get("forfeit_after") and missed >= int(policy["forfeit_after"])):
        return "forfeit"
    return "stand-fast"


def _claim_command(eng, against: str, dec, path: Path) -> str:
    """The command that writes a claim against ``against``, for this game file (in an open game of two
    sides, signed by the other side)."""
    cmd = eng.claim_command(against, dec).strip("`").replace("GAME", str(path))
    others = [s for s in eng.sides() if s != against]
    if eng.mode == "open" and len(others) == 1:
        cmd = cmd.replace("--side SIDE", f"--side {others[0]}")
    return cmd


def owes_now(owed: dict) -> list[str]:
    """The parties of a ``waiting_for`` entry that owe something now: an answer, a commitment, a
    reveal, a dice link, or the umpire's resolution -- not those done, claimed against, or waiting
    for others first (a reveal before every commitment, a dice link before every answer)."""
    return [s for s, what in owed.items()
            if what not in ("done", "missed (claimed)") and not what.startswith(("wait", "link (after"))]


def _blocked(eng, dec, umpire_fp: str | None) -> str | None:
    """Why the ready decision ``dec`` cannot be resolved by us now (None: it can)."""
    from ..referee.engine import UMPIRE

    if not dec.dice:
        return None
    missing = eng.missing_links(dec)
    others = [w for w in missing if w != UMPIRE]
    if others:
        return f"{dec.id} rolls dice: waiting for the dice link of {', '.join(others)} (`hxref roll`)"
    if UMPIRE in missing:
        fp = eng.participants.get(UMPIRE, {}).get("fingerprint")
        if umpire_fp is None:
            return f"{dec.id} rolls dice: the umpire resolves it (--key UMPIRE_KEY)"
        if umpire_fp != fp:
            return f"{dec.id} rolls dice: the key given is not this game's umpire ({fp})"
    return None


def dashboard(folder: str | Path, *, audit: bool = False, workers: int | None = None,
              umpire_key: Any = None) -> list[Row]:
    """One :class:`Row` per game file under ``folder``; ``audit`` also replays every game (in parallel).

    ``umpire_key`` (a key or its file) only tells which umpired games that key could resolve.
    """
    root = Path(folder)
    fp = _key_fingerprint(umpire_key)
    now = parse_time(_now())
    rows = [_row(p, root, fp, now) for p in find_games(root)]
    over = [r for r in rows if not r.error and r.finished]
    for i, res in _run(checked_result, [(str(r.path), r.file) for r in over], workers):
        if isinstance(res, GameResult):
            over[i].result = result_text(res)
            over[i].audit = "ok"
        else:       # a finished game that fails its audit (or, replayed, is not over): no result is shown
            over[i].audit = "FAILED: " + (res or "the replayed game is not over: the header says it is")
    if audit:
        todo = [r for r in rows if not r.error and not r.finished]
        for i, verdict in _run(_audit_one, [(str(r.path),) for r in todo], workers):
            todo[i].audit = verdict
    return rows


def _now() -> str:
    from ..referee.engine import now_iso

    return now_iso()


def time_left(deadline: str, now: str | None = None) -> str:
    """``3d 4h left``, ``2h 5m left`` or ``late by 1d 2h`` (``now``: default the engine's clock)."""
    from ..referee.engine import now_iso

    due, at = parse_time(deadline), parse_time(now or now_iso())
    if due is None or at is None:
        return "?"
    secs = int((due - at).total_seconds())
    d, rest = divmod(abs(secs), 86400)
    h, rest = divmod(rest, 3600)
    m = rest // 60
    span = f"{d}d {h}h" if d else (f"{h}h {m}m" if h else f"{m}m")
    return f"{span} left" if secs >= 0 else f"late by {span}"
