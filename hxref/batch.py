"""Many games at once (issue 9, scope 5): a folder's dashboard, resolving every ready game, standings.

* :func:`find_games` -- every game file under a folder, recursively.  A game file is a ``.yaml``/
  ``.yml`` file that starts the way :meth:`hxref.game.GameFile.dumps` writes one (``# hxref game
  file``, or ``hxref: 1`` followed by ``meta:``); backups (``.bak``), lock files, hidden and
  temporary files, order files and every other YAML file are skipped.
* :func:`dashboard` -- one :class:`Row` per game, read from the file's *header* only: the log is
  not parsed, and even the header's ``state`` block (the bulk of it) is skipped except for a few
  scalars (``turn``, ``stage``, ``date``), so a folder of hundreds of games is read in a fraction
  of a second.  Each row lists every party that owes something now (an answer, a commitment, a
  reveal, a dice link, the umpire's resolution) and the deadlines; a party past the deadline of a
  decision it owes is *late*, and once the grace is over too a signed claim (``hxref claim``) can
  be made against it.  The last activity is the latest signed time of the files the game holds
  (those kept for its open decisions, else those of the last block of the log, else its
  creation), else the file's modification time.  ``audit=True`` also runs
  :func:`hxref.engine.audit` on every game, in parallel processes.
* :func:`resolve_all` -- resolves every game whose awaited decision has all its answers (and the
  dice links it needs), each in a worker process that takes the game's lock, loads, resolves and
  saves it exactly as ``hxref resolve GAME`` does.  A game that fails is reported with its one-line
  error and never stops the others.  No clock applies a deadline (SECURITY.md, "Attested time"): a
  late game is never changed by ``resolve``; only a signed claim, submitted to the game, gives the
  late side its default answer or forfeits it, and after that the game is resolved as any other.
* :func:`standings` -- a tournament table over the finished games.

Who is a player in the standings?  A tournament pairs *players*, and the same side name (``union``)
is played by different people in different games, so a player is identified by the fingerprint of
the key the game header records for the side.  The name shown is the key's comment (``hxref keygen
alice`` makes the comment ``alice``).  Solo games record no keys: there each *side name* stands for
a player.  A win is worth 2 points, a draw 1, a loss 0; players level on points are ordered by their
total victory margin (the margin of each game won, less the margin of each game lost), then by wins;
players level on all three share a rank.

The margin of a game is the system's own measure of how much the winner won by (see
:data:`RESULTS`): heartland and salem-church the VP difference, kgp the difference in CG LVP, ACW
miniatures the difference in units eliminated -- never below 0 (a KGP campaign can be won by its
conditions with fewer CG LVP than the loser: a win by 0).  A finished game that declares no winner is a draw
(margin 0) -- that includes a heartland scenario with no victory conditions (``bidding-demo``).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import HxrefError, InvalidInput
from .game import FORMAT, LOG_MARKER, GameFile, damaged

#: the first bytes of every game file hxref writes
SNIFF = b"# hxref game file"
_SNIFF_HEADER = re.compile(rb"^hxref: 1\r?\nmeta:", re.M)
GAME_SUFFIXES = (".yaml", ".yml")
_MARK = ("\n" + LOG_MARKER + "\n").encode("utf-8")
#: a top-level key of the header (PyYAML block style: keys at column 0, everything else indented)
_TOP_KEY = re.compile(r"^([A-Za-z_][\w.-]*):", re.M)
#: the scalars of the state a dashboard shows (direct children of ``state:``, indented two spaces)
_STATE_KEYS = ("turn", "turns", "stage", "date")
_STATE_SCALAR = re.compile(r"^  (" + "|".join(_STATE_KEYS) + r"): (.*)$", re.M)
#: below this many games a batch runs in this process (starting workers costs more than it saves)
PARALLEL_GAMES = 4
POINTS = {"win": 2, "draw": 1, "loss": 0}


# --- finding and reading game files ------------------------------------------------------------

def find_games(folder: str | Path) -> list[Path]:
    """Every game file under ``folder`` (recursively, in sorted order)."""
    root = Path(folder)
    if not root.is_dir():
        raise InvalidInput("not a folder", code="E100", file=str(root))
    found: list[Path] = []
    for here, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(GAME_SUFFIXES):
                continue
            path = Path(here) / name
            if is_game_file(path):
                found.append(path)
    return found


def is_game_file(path: str | Path) -> bool:
    """A cheap look at the first bytes: True when the file is (or claims to be) an hxref game file."""
    try:
        with open(path, "rb") as fh:
            start = fh.read(4096)
    except OSError:
        return False
    if start.startswith(b"\xef\xbb\xbf"):
        start = start[3:]
    return start.startswith(SNIFF) or bool(_SNIFF_HEADER.search(start))


@dataclass
class Peek:
    """What a dashboard needs from one game file, read without parsing its log."""

    header: dict               # the header; its ``state`` holds only _STATE_KEYS unless read in full
    last_activity: str         # ISO 8601 UTC
    #: "pending" (the latest signed time of the files kept for the open decisions), "log" (of the
    #: last block's files, or the creation), or "mtime"
    activity_from: str


def read_header(path: str | Path, *, full_state: bool = False) -> Peek:
    """The header of a game file (and its last activity), reading the log only from its end.

    Raises the same E500 error as :meth:`GameFile.load` when the header is damaged.
    """
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            head, head_end = _read_head(fh, p)
            size = os.fstat(fh.fileno()).st_size
            at = _last_event_time(fh, head_end, size)
            mtime = os.fstat(fh.fileno()).st_mtime
    except FileNotFoundError:
        raise InvalidInput("no such game file", code="E100", file=str(p)) from None
    except OSError as exc:
        raise InvalidInput(f"cannot read the game file: {exc.strerror or exc}", code="E100", file=str(p)) from None
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        raise damaged(p, "the header is not UTF-8 text") from None
    header = _parse_header(text, p, full_state)
    kept = _pending_time(header)
    if kept is not None and (at is None or _sort_time(kept) >= _sort_time(at)):
        return Peek(header, kept, "pending")
    if at is None:
        at = _dt.datetime.fromtimestamp(mtime, _dt.timezone.utc).replace(microsecond=0).isoformat()
        return Peek(header, at.replace("+00:00", "Z"), "mtime")
    return Peek(header, at, "log")


def _read_head(fh, path: Path) -> tuple[bytes, int]:
    """The bytes before the log marker, and the offset where the log starts."""
    buf = b""
    while True:
        chunk = fh.read(65536)
        if not chunk:
            raise damaged(path, "this is not an hxref game file (no log section)")
        scan = max(0, len(buf) - len(_MARK))
        buf += chunk
        i = buf.find(_MARK, scan)
        if i >= 0:
            return buf[:i], i + len(_MARK)


def _parse_header(text: str, path: Path, full_state: bool) -> dict:
    from . import yamlio

    header = None
    if not full_state:
        # every top-level block but `state`, parsed; of `state` only a few scalars
        starts = [m.start() for m in _TOP_KEY.finditer(text)]
        blocks = {text[a:text.index(":", a)]: text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])}
        if "state" in blocks and "meta" in blocks:
            state_text = blocks.pop("state")
            try:
                header = yamlio.fast_load("".join(blocks.values()))
                state = yamlio.fast_load("\n".join(m.group(0)[2:] for m in _STATE_SCALAR.finditer(state_text)))
                if isinstance(header, dict):
                    header["state"] = state if isinstance(state, dict) else {}
            except Exception:
                header = None            # let the full parse below find and report the damage
    if header is None:
        try:
            header = yamlio.fast_load(text)
        except Exception as exc:  # any YAML problem in our own header means damage
            mark = getattr(exc, "problem_mark", None)
            raise damaged(path, "the header is not valid YAML", mark.line + 1 if mark else None) from None
    if not isinstance(header, dict) or header.get("hxref") != FORMAT:
        raise damaged(path, f"unknown game file format (expected `hxref: {FORMAT}`)")
    for key in ("meta", "participants", "awaiting", "pending", "head"):
        if not isinstance(header.get(key), (dict, list)):
            raise damaged(path, f"the header lacks `{key}`")
    return header


#: the signed time in the text of an order file (``at: '2026-11-29T12:00:00Z'``)
_FILE_AT = re.compile(r"^at: *['\"]?([^'\"\n#]+?)['\"]? *$", re.M)
#: a log line that may record a time: a signed file of a block, or the game's creation
_TIMED = (b'"kind":"submission"', b'"kind":"game.created"')
#: how much of the end of the log is read for the last activity, first and at most
_WINDOWS = (16 * 1024, 1024 * 1024)


def _last_event_time(fh, head_end: int, size: int) -> str | None:
    """The latest signed time of the last block of the log that records one (its files' ``at``),
    or the time the game was created; read from the end of the log."""
    for window in _WINDOWS:
        start = max(head_end, size - window)
        fh.seek(start)
        lines = fh.read(size - start).split(b"\n")
        if start > head_end:
            lines = lines[1:]            # the first line may be cut
        latest = None
        in_block = False
        for line in reversed(lines):
            if not line.startswith(b"- {"):
                continue
            timed = any(k in line for k in _TIMED)
            if in_block and b'"kind":"submission"' not in line:
                return latest            # the files of the last block with a time are all read
            if not timed:
                continue
            try:
                ev = json.loads(line[2:])
            except ValueError:
                continue                 # damage is the audit's business, not the dashboard's
            t = _event_time(ev)
            if ev.get("kind") == "game.created":
                return _later(latest, t)
            if t:
                latest = _later(latest, t)
                in_block = True
        if start == head_end or window == _WINDOWS[-1]:
            return latest                # (a block longer than the last window: the times of its end)
    return None


def _event_time(ev: Any) -> str | None:
    """The time an event records: the creation time, or the signed ``at`` of a block's file."""
    if not isinstance(ev, dict) or not isinstance(ev.get("data"), dict):
        return None
    data = ev["data"]
    if ev.get("kind") == "game.created":
        t = (data.get("meta") or {}).get("created")
    elif ev.get("kind") == "submission":
        t = _file_time(data.get("file"))
    else:
        t = None
    return t if isinstance(t, str) and parse_time(t) is not None else None


def _file_time(text: Any) -> str | None:
    """The signed ``at`` of an order file's text (None: it has none that reads as a time)."""
    if not isinstance(text, str):
        return None
    m = _FILE_AT.search(text)
    return m.group(1).strip() if m and parse_time(m.group(1).strip()) is not None else None


def _pending_time(header: dict) -> str | None:
    """The latest signed time of the files kept for the open decisions (outside the log)."""
    latest = None
    pending = header.get("pending")
    for entry in (pending.values() if isinstance(pending, dict) else ()):
        files = entry.get("files") if isinstance(entry, dict) else None
        for f in files if isinstance(files, list) else ():
            latest = _later(latest, _file_time(f.get("file")) if isinstance(f, dict) else None)
    return latest


def _later(a: str | None, b: str | None) -> str | None:
    if a is None or b is None:
        return a or b
    return a if _sort_time(a) >= _sort_time(b) else b


def _shell(path: Path, header: dict):
    """An :class:`~hxref.engine.Engine` over a header alone: enough for ``waiting_for``, ``ready``,
    ``missing_links``, ``owed_by``, ``due`` and ``claim_command``, which read only the header
    (``meta``, ``participants``, ``awaiting`` and ``pending``: per open decision its kept
    ``files``, the ``answers`` and ``links`` they give, and any ``claims`` and ``undo`` votes),
    without loading the game system or the log.  Nothing that applies a file or rules may be called
    on it (it has no ``system``)."""
    from .engine import Engine

    eng = Engine.__new__(Engine)
    eng.gf = GameFile(path, header, [])
    eng.h = header
    return eng


# --- the dashboard -----------------------------------------------------------------------------

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
    row = Row(path, _rel(path, folder))
    try:
        peek = read_header(path)
    except HxrefError as exc:
        row.error = exc.render()
        return row
    h = peek.header
    meta = h["meta"]
    row.game, row.system, row.scenario, row.mode = (meta.get(k) for k in ("game", "system", "scenario", "mode"))
    row.phase = h.get("phase")
    st = h.get("state") or {}
    row.turn, row.stage = st.get("turn"), st.get("stage")
    row.last_activity, row.activity_from = peek.last_activity, peek.activity_from
    row.nmr = (meta.get("policy") or {}).get("nmr") if isinstance(meta.get("policy"), dict) else None
    row.head = (h.get("head") or {}).get("hash")
    row.events = int((h.get("head") or {}).get("seq") or 0)
    now = now or parse_time(_now())
    try:
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
            if now and _sort_time(w["deadline"]) < now:
                w["late"] = owing
                row.late += [s for s in owing if s not in row.late]
            if now and row.mode != "solo" and row.nmr and _sort_time(w.get("due") or w["deadline"]) <= now:
                dec = eng.decision(w["decision"])
                row.claimable += [{"decision": w["decision"], "against": s, "owed": w["owed"][s],
                                   "due": w.get("due") or w["deadline"], "gives": _claim_gives(h, s, w["owed"][s]),
                                   "command": _claim_command(eng, s, dec, path)}
                                  for s in owing if s in eng.sides()]
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        row.error = damaged(path, f"the header's awaited decisions cannot be read ({exc!r})").render()
        return row
    row.deadline = min(deadlines, key=_sort_time) if deadlines else None
    return row


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
    from .engine import UMPIRE

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
    if audit:
        todo = [r for r in rows if not r.error]
        for i, verdict in _run(_audit_one, [(str(r.path),) for r in todo], workers):
            todo[i].audit = verdict
    return rows


def _audit_one(path: str) -> str:
    """A worker's job: audit one game; "ok" or "FAILED: the first problem"."""
    from .engine import audit

    try:
        res = audit(path, workers=1)
    except HxrefError as exc:
        return "FAILED: " + exc.render()
    except Exception as exc:  # a damaged file must not stop the batch
        return f"FAILED: internal error {exc!r}"
    return "ok" if res.ok else "FAILED: " + "; ".join(res.problems[:2])


# --- resolving every ready game ------------------------------------------------------------------

@dataclass
class Outcome:
    """What :func:`resolve_all` did with one game."""

    path: str
    file: str
    game: str | None
    status: str                            # resolved | skipped | error
    decisions: list[str] = field(default_factory=list)
    head: str | None = None
    next: str | None = None                # what the game awaits now
    message: str | None = None             # why it was skipped, or the error (one line)
    late: list[str] = field(default_factory=list)        # parties past a deadline (skipped games)
    pid: int = 0                           # the process that resolved it

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class BatchResult:
    outcomes: list[Outcome]                # every game of the folder: resolved, skipped, or error
    workers: int                           # worker processes used (1: this process)

    @property
    def resolved(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "resolved"]

    @property
    def errors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "error"]

    @property
    def late(self) -> list[Outcome]:
        """The skipped games with a party past a deadline (resolve never changes them)."""
        return [o for o in self.outcomes if o.status == "skipped" and o.late]

    def to_dict(self) -> dict:
        return {"workers": self.workers, "resolved": len(self.resolved), "errors": len(self.errors),
                "late": len(self.late), "games": [o.to_dict() for o in self.outcomes]}


def resolve_all(folder: str | Path, umpire_key: Any = None, workers: int | None = None,
                progress: Callable[[int, int, Outcome], None] | None = None) -> BatchResult:
    """Resolve every game under ``folder`` whose awaited decision has all its answers.

    Each game is resolved in a worker process (``workers``; default: one per core, and none below
    :data:`PARALLEL_GAMES` games) under its lock, exactly as ``hxref resolve GAME``.  ``umpire_key``
    is the umpire's private key (a :class:`~hxref.signing.Key` or its file): it is used for the
    umpired games whose umpire it is.  ``progress(done, total, outcome)`` is called in this process
    after each game.  Games that are not ready are listed as skipped with what they await; a game
    that cannot be read or resolved is listed as an error, and the others go on.

    Late parties: no clock applies a deadline, so a game waiting for a late party is skipped and
    left as it is; its outcome names who is late and the claim that may be signed against them
    (``hxref claim``).  Once a claim is submitted, the game is resolved here as any other.
    """
    root = Path(folder)
    key_blob = _key_blob(umpire_key)
    fp = _key_fingerprint(umpire_key)
    now = parse_time(_now())
    rows = [_row(p, root, fp, now) for p in find_games(root)]
    outcomes: dict[str, Outcome] = {}
    todo: list[Row] = []
    for r in rows:
        if r.error:
            outcomes[r.file] = Outcome(str(r.path), r.file, r.game, "error", message=r.error)
        elif r.resolvable:
            todo.append(r)
        else:
            why = "the game is over" if r.finished else (r.blocked or "waiting: " + _waiting_text(r))
            if r.late and not r.finished:
                why = f"{_late_text(r)}; {why}"
            outcomes[r.file] = Outcome(str(r.path), r.file, r.game, "skipped", head=r.head, message=why,
                                       late=list(r.late) if not r.finished else [])
    used = _workers(workers, len(todo))
    if used > 1:
        # import the games' systems once here: the forked workers inherit them instead of importing each
        from . import systems

        for name in {r.system for r in todo}:
            try:
                systems.get(name)
            except HxrefError:
                pass                     # that game's worker reports it
    jobs = [(str(r.path), r.file, key_blob) for r in todo]
    for done, (i, out) in enumerate(_run(_resolve_one, jobs, used), 1):
        outcomes[todo[i].file] = out
        if progress:
            progress(done, len(todo), out)
    return BatchResult([outcomes[r.file] for r in rows], used)


def _late_text(r: Row) -> str:
    """Who is late in a game, and what settles it (a signed claim, never the clock)."""
    words = f"{', '.join(r.late)} late (deadline {r.deadline})"
    if r.claimable:
        words += "; " + "; ".join(f"a signed claim against {c['against']} gives {claim_gives_text(c)}: {c['command']}"
                                  for c in r.claimable)
    elif r.mode == "solo":
        words += "; a solo game has no claims"
    else:
        words += "; no claim can be signed yet (within the grace)" if r.nmr else ""
    return words


def claim_gives_text(claim: dict) -> str:
    return "a forfeit" if claim["gives"] == "forfeit" else "stand-fast (the default answer)"


def _resolve_one(path: str, file: str, key_blob: bytes | None) -> Outcome:
    """A worker's job: resolve one game under its lock and save it (as ``hxref resolve GAME``)."""
    from .engine import Engine
    from .game import locked

    game = None
    try:
        with locked(path):
            eng = Engine.load(path)
            game = eng.meta.get("game")
            key = _key_from_blob(key_blob) if key_blob and eng.mode == "umpired" else None
            done = eng.resolve(key)
            eng.save()
        return Outcome(path, file, game, "resolved", [r.decision for r in done], eng.gf.head, eng.waiting_text(),
                       pid=os.getpid())
    except HxrefError as exc:
        status = "skipped" if exc.code == "E308" else "error"
        return Outcome(path, file, game, status, message=exc.render(), pid=os.getpid())
    except Exception as exc:  # a bug or damage in one game must not stop the batch
        return Outcome(path, file, game, "error", message=f"{path}: internal error {exc!r} (a bug in hxref)",
                       pid=os.getpid())


def _now() -> str:
    from .engine import now_iso

    return now_iso()


def _waiting_text(r: Row) -> str:
    parts = []
    for w in r.awaiting:
        owed = [f"{s} ({w['owed'][s]})" for s in owes_now(w["owed"])]
        parts.append(f"{w['decision']} awaits " + (", ".join(owed) if owed else "the decisions before it"))
    return "; ".join(parts) or "nothing"


# --- worker processes ------------------------------------------------------------------------------

def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _workers(workers: int | None, jobs: int) -> int:
    if workers is None:
        workers = _cores() if jobs >= PARALLEL_GAMES else 1
    return max(1, min(int(workers), jobs or 1))


def _run(fn: Callable, jobs: list[tuple], workers: int | None) -> Iterable[tuple[int, Any]]:
    """``(index, fn(*job))`` for every job, in the order they finish; in worker processes when
    ``workers`` > 1.  ``fn`` returns its errors as values; a worker that dies is reported by index."""
    n = _workers(workers, len(jobs))
    if n <= 1:
        for i, job in enumerate(jobs):
            yield i, fn(*job)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # fork: the workers start with hxref already imported (spawn would import it again in each)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=n, mp_context=ctx) as pool:
        futures = {pool.submit(fn, *job): i for i, job in enumerate(jobs)}
        for fut in as_completed(futures):
            i = futures[fut]
            try:
                yield i, fut.result()
            except Exception as exc:   # the worker process died (killed, out of memory)
                path = jobs[i][0]
                if fn is _resolve_one:
                    yield i, Outcome(path, jobs[i][1], None, "error", message=f"{path}: the worker failed: {exc!r}")
                else:
                    yield i, f"FAILED: the worker failed: {exc!r}"


def _key_fingerprint(key: Any) -> str | None:
    if key is None:
        return None
    from .signing import Key, load_private_key

    if not isinstance(key, Key):
        key = load_private_key(key)
    return key.public.fingerprint()


def _key_blob(key: Any) -> bytes | None:
    """The umpire's private key as bytes a worker process can rebuild it from (a key object does not pickle)."""
    if key is None:
        return None
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    from .signing import Key, load_private_key

    if not isinstance(key, Key):
        key = load_private_key(key)
    return key._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())


def _key_from_blob(blob: bytes):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from .signing import Key

    return Key(Ed25519PrivateKey.from_private_bytes(blob))


# --- standings -------------------------------------------------------------------------------------

@dataclass
class GameResult:
    """The end of one finished game, as the standings count it."""

    path: str
    file: str
    game: str
    system: str
    scenario: str
    players: dict[str, str]                # side -> player id
    winner: str | None                     # the winning side; None: a draw
    margin: int                            # the system's margin (0 for a draw)
    how: str                               # the system's words for the result


@dataclass
class Standing:
    player: str                            # the key fingerprint; "side:NAME" in games without keys
    name: str                              # the key's comment (or the fingerprint), or the side name
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    margin: int = 0                        # victory margins won less victory margins lost
    rank: int = 0                          # equal ranks: level on points, margin and wins

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Standings:
    rows: list[Standing]
    results: list[GameResult]              # the finished games counted
    unfinished: list[str]                  # games still being played (files relative to the folder)
    errors: list[tuple[str, str]]          # (file, one-line error) of games that could not be read

    def to_dict(self) -> dict:
        return {"standings": [r.to_dict() for r in self.rows], "games": [asdict(g) for g in self.results],
                "unfinished": self.unfinished, "errors": [{"file": f, "error": e} for f, e in self.errors]}


def _lead(counts: dict, winner: str, sides: list[str]) -> int:
    """How far ``winner`` is ahead of the best other side on ``counts`` (side -> number)."""
    return counts.get(winner, 0) - max((counts.get(s, 0) for s in sides if s != winner), default=0)


def _heartland(state: dict, sides: list[str]) -> tuple[str | None, int, str]:
    r = state.get("result")
    if not r:
        return None, 0, "no victory conditions in the scenario: a draw"
    vp = ", ".join(f"{s} {n}" for s, n in (r.get("points") or {}).items())
    return r.get("winner"), int(r.get("margin") or 0), f"{r.get('level') or 'a'} victory; VP {vp}"


def _salem_church(state: dict, sides: list[str]) -> tuple[str | None, int, str]:
    v = state.get("victory_result") or {}
    points = (v.get("score") or {}).get("points") or {}
    winner = v.get("winner")
    margin = 0
    if winner and points:
        margin = _lead(points, winner, sides)
    return winner, margin, str(v.get("result") or "no result")


def _kgp(state: dict, sides: list[str]) -> tuple[str | None, int, str]:
    r = state.get("result") or {}
    winner = r.get("winner")
    lvp = state.get("cg_lvp") or {}
    margin = 0
    if winner and lvp:
        margin = _lead(lvp, winner, sides)
    lvps = ", ".join(f"{s} {n}" for s, n in lvp.items())
    return winner, margin, f"rule {r.get('rule')}; CG LVP {lvps}" if r else "no result"


def _acw_minis(state: dict, sides: list[str]) -> tuple[str | None, int, str]:
    r = state.get("result") or {}
    winner = r.get("winner")
    lost = {s: len(v) for s, v in (state.get("eliminated") or {}).items()}
    margin = 0
    if winner and lost:
        margin = -_lead(lost, winner, sides)         # the winner lost fewer units
    return winner, margin, str(r.get("why") or "no result")


def _generic(state: dict, sides: list[str]) -> tuple[str | None, int, str]:
    r = state.get("result") or state.get("victory_result") or {}
    margin = r.get("margin") if isinstance(r.get("margin"), int) else 0
    return r.get("winner"), margin, str(r.get("why") or r.get("result") or "result")


#: system -> (state, sides) -> (winning side or None for a draw, margin, how); margin: heartland and
#: salem-church VP difference, kgp CG LVP difference, acw-minis units eliminated difference
RESULTS: dict[str, Callable[[dict, list[str]], tuple[str | None, int, str]]] = {
    "heartland": _heartland, "salem-church": _salem_church, "kgp": _kgp, "acw-minis": _acw_minis}


def game_result(header: dict, path: str | Path = "", file: str = "") -> GameResult:
    """The result of a finished game from its header (the full state)."""
    meta, parts = header["meta"], header["participants"]
    sides = [s for s, p in parts.items() if p.get("role") == "side"]
    winner, margin, how = RESULTS.get(meta["system"], _generic)(header.get("state") or {}, sides)
    if winner is not None and winner not in sides:
        raise damaged(Path(path), f"the result names a winner {winner!r} that is no side of the game")
    players = {s: _player(s, parts[s])[0] for s in sides}
    # a margin counts only in the winner's favour: a KGP campaign won by its conditions with fewer CG LVP
    # than the loser is a win by 0
    return GameResult(str(path), file, meta["game"], meta["system"], meta["scenario"], players, winner,
                      max(0, int(margin)) if winner else 0, how)


def _player(side: str, p: dict) -> tuple[str, str]:
    """(id, name) of the player of ``side``: the key's fingerprint and comment; the side name without a key."""
    fp = p.get("fingerprint")
    if not fp:
        return f"side:{side}", side
    parts = str(p.get("key", "")).split(maxsplit=2)
    return fp, (parts[2] if len(parts) > 2 else fp)


def standings(folder: str | Path) -> Standings:
    """The tournament table of the finished games under ``folder``."""
    root = Path(folder)
    results: list[GameResult] = []
    unfinished: list[str] = []
    errors: list[tuple[str, str]] = []
    table: dict[str, Standing] = {}
    for path in find_games(root):
        file = _rel(path, root)
        try:
            peek = read_header(path)
            if peek.header.get("phase") != "over":
                unfinished.append(file)
                continue
            header = read_header(path, full_state=True).header
            res = game_result(header, path, file)
        except HxrefError as exc:
            errors.append((file, exc.render()))
            continue
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            errors.append((file, damaged(path, f"the result cannot be read ({exc!r})").render()))
            continue
        results.append(res)
        for side, pid in res.players.items():
            name = _player(side, header["participants"][side])[1]
            st = table.setdefault(pid, Standing(pid, name))
            st.played += 1
            if res.winner is None:
                st.draws += 1
                st.points += POINTS["draw"]
            elif res.winner == side:
                st.wins += 1
                st.points += POINTS["win"]
                st.margin += res.margin
            else:
                st.losses += 1
                st.margin -= res.margin
    rows = sorted(table.values(), key=lambda s: (-s.points, -s.margin, -s.wins, s.name, s.player))
    for i, st in enumerate(rows):
        prev = rows[i - 1] if i else None
        st.rank = prev.rank if prev and (prev.points, prev.margin, prev.wins) == (st.points, st.margin, st.wins) \
            else i + 1
    return Standings(rows, results, unfinished, errors)


# --- small helpers -----------------------------------------------------------------------------------

def _rel(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


def parse_time(text: str) -> _dt.datetime | None:
    """An ISO 8601 time as an aware UTC datetime (a time without a zone is taken as UTC)."""
    try:
        t = _dt.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return t.replace(tzinfo=_dt.timezone.utc) if t.tzinfo is None else t.astimezone(_dt.timezone.utc)


def _sort_time(text: str) -> _dt.datetime:
    return parse_time(text) or _dt.datetime.max.replace(tzinfo=_dt.timezone.utc)


def time_left(deadline: str, now: str | None = None) -> str:
    """``3d 4h left``, ``2h 5m left`` or ``late by 1d 2h`` (``now``: default the engine's clock)."""
    from .engine import now_iso

    due, at = parse_time(deadline), parse_time(now or now_iso())
    if due is None or at is None:
        return "?"
    secs = int((due - at).total_seconds())
    d, rest = divmod(abs(secs), 86400)
    h, rest = divmod(rest, 3600)
    m = rest // 60
    span = f"{d}d {h}h" if d else (f"{h}h {m}m" if h else f"{m}m")
    return f"{span} left" if secs >= 0 else f"late by {span}"
