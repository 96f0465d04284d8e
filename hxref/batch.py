"""Many games at once (issue 9, scope 5): a folder's dashboard, resolving every ready game, standings.

* :func:`find_games` -- every game file under a folder, recursively.  A game file is a ``.yaml``/
  ``.yml`` file that starts the way :meth:`hxref.game.GameFile.dumps` writes one (``# hxref game
  file``, or ``hxref: 1`` followed by ``meta:``); backups (``.bak``), lock files, hidden and
  temporary files, order files and every other YAML file are skipped.
* :func:`dashboard` -- one :class:`Row` per game, read from the file's *header* only: the log is
  not parsed, and even the header's ``state`` block (the bulk of it) is skipped except for a few
  scalars (``turn``, ``stage``, ``date``), so a folder of hundreds of games is read in a fraction
  of a second.  The last activity is the time of the last input event that records one (read
  from the end of the file), else the file's modification time.  ``audit=True`` also runs
  :func:`hxref.engine.audit` on every game, in parallel processes.
* :func:`resolve_all` -- resolves every game whose awaited decision has all its answers (and the
  dice links it needs), each in a worker process that takes the game's lock, loads, resolves and
  saves it exactly as ``hxref resolve GAME`` does: the game's NMR policy first (issue 9 scope 4: a
  side past its deadline stands fast, or the game holds), then every complete decision.  A game that
  fails is reported with its one-line error and never stops the others.  When most of the sides due
  in the folder are late at once (a mail outage, not a tournament of sleepers), no NMR policy is
  applied anywhere and the result says so; ``force_nmr`` applies it all the same.
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
    activity_from: str         # "log" (the last event that records a time) or "mtime"


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


def _last_event_time(fh, head_end: int, size: int) -> str | None:
    """The time of the last event that records one, read from the end of the log."""
    for window in (16 * 1024, 1024 * 1024):
        start = max(head_end, size - window)
        fh.seek(start)
        lines = fh.read(size - start).split(b"\n")
        if start > head_end:
            lines = lines[1:]            # the first line may be cut
        for line in reversed(lines):
            if line.startswith(b"- {") and (b'"at":"' in line or b'"created":"' in line):
                try:
                    ev = json.loads(line[2:])
                except ValueError:
                    continue             # damage is the audit's business, not the dashboard's
                t = _event_time(ev)
                if t:
                    return t
        if start == head_end:
            break
    return None


def _event_time(ev: Any) -> str | None:
    from .engine import INPUT_KINDS

    if not isinstance(ev, dict) or not isinstance(ev.get("data"), dict):
        return None
    data = ev["data"]
    if ev.get("kind") == "game.created":
        t = (data.get("meta") or {}).get("created")
    elif ev.get("kind") in INPUT_KINDS or ev.get("kind") == "undo":
        t = data.get("at")
    else:
        t = None
    return t if isinstance(t, str) else None


def _shell(path: Path, header: dict):
    """An :class:`~hxref.engine.Engine` over a header alone: enough for ``waiting_for``, ``ready`` and
    ``missing_links`` (which read only the header), without loading the game system or the log."""
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
    awaiting: list[dict] = field(default_factory=list)   # [{decision, kind, owed: {side: what}, ready, deadline}]
    waiting_on: list[str] = field(default_factory=list)  # the sides that owe something
    ready: bool = False                    # a decision has all its answers
    blocked: str | None = None             # why a ready game cannot be resolved now
    deadline: str | None = None            # the earliest deadline among the decisions still owed
    late: list[str] = field(default_factory=list)        # sides past the deadline of a decision they owe
    due: int = 0                           # (decision, side) pairs owed under a deadline
    nmr: str | None = None                 # the game's NMR policy (hold, stand-fast), if it has one
    last_activity: str | None = None
    activity_from: str | None = None       # log | mtime
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
        """error | over | ready | blocked | late | waiting"""
        if self.error:
            return "error"
        if self.finished:
            return "over"
        if self.ready:
            return "blocked" if self.blocked else "ready"
        return "late" if self.late else "waiting"

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
    try:
        eng = _shell(path, h)
        row.awaiting = [{k: w[k] for k in ("decision", "kind", "owed", "ready", "deadline", "rule")}
                        for w in eng.waiting_for()]
        ready = eng.ready()
        row.ready = bool(ready)
        if ready:
            row.blocked = _blocked(eng, ready[0], umpire_fp)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        row.error = damaged(path, f"the header's awaited decisions cannot be read ({exc!r})").render()
        return row
    owed = []
    deadlines = []
    now = now or parse_time(_now())
    for w in row.awaiting:
        due = [s for s, what in w["owed"].items() if what != "done" and not what.startswith("wait")]
        owed += [s for s in due if s not in owed]
        if due and w.get("deadline"):
            deadlines.append(w["deadline"])
            row.due += len(due)
            if not row.finished and now and _sort_time(w["deadline"]) < now:
                row.late += [s for s in due if s not in row.late]
    row.waiting_on = owed
    row.deadline = min(deadlines, key=_sort_time) if deadlines else None
    return row


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
    status: str                            # resolved | nmr (the policy answered, nothing resolved) | skipped | error
    decisions: list[str] = field(default_factory=list)
    head: str | None = None
    next: str | None = None                # what the game awaits now
    message: str | None = None             # why it was skipped, or the error (one line)
    nmr: list[str] = field(default_factory=list)         # what the NMR policy did (one line each)
    pid: int = 0                           # the process that resolved it

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class BatchResult:
    outcomes: list[Outcome]                # every game of the folder: resolved, nmr, skipped, or error
    workers: int                           # worker processes used (1: this process)
    outage: str | None = None              # why no NMR policy was applied (most sides late at once)

    @property
    def resolved(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "resolved"]

    @property
    def errors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "error"]

    def to_dict(self) -> dict:
        return {"workers": self.workers, "resolved": len(self.resolved), "errors": len(self.errors),
                "outage": self.outage, "games": [o.to_dict() for o in self.outcomes]}


def resolve_all(folder: str | Path, umpire_key: Any = None, workers: int | None = None,
                progress: Callable[[int, int, Outcome], None] | None = None,
                force_nmr: bool = False) -> BatchResult:
    """Resolve every game under ``folder`` whose awaited decision has all its answers.

    Each game is resolved in a worker process (``workers``; default: one per core, and none below
    :data:`PARALLEL_GAMES` games) under its lock, exactly as ``hxref resolve GAME``.  ``umpire_key``
    is the umpire's private key (a :class:`~hxref.signing.Key` or its file): it is used for the
    umpired games whose umpire it is.  ``progress(done, total, outcome)`` is called in this process
    after each game.  Games that are not ready are listed as skipped with what they await; a game
    that cannot be read or resolved is listed as an error, and the others go on.

    Late sides: a game whose policy is ``stand-fast`` is sent to a worker, which applies the policy
    as ``hxref resolve GAME`` does.  If more than :data:`OUTAGE_SHARE` of the sides due under a
    deadline are late, in at least two games, no policy is applied (``outage`` says why) unless
    ``force_nmr``.
    """
    root = Path(folder)
    key_blob = _key_blob(umpire_key)
    fp = _key_fingerprint(umpire_key)
    now_text = _now()
    now = parse_time(now_text)
    rows = [_row(p, root, fp, now) for p in find_games(root)]
    outage = None if force_nmr else _outage(rows)
    outcomes: dict[str, Outcome] = {}
    todo: list[Row] = []
    for r in rows:
        late_fast = r.late and r.nmr == "stand-fast" and not outage
        if r.error:
            outcomes[r.file] = Outcome(str(r.path), r.file, r.game, "error", message=r.error)
        elif r.resolvable or (late_fast and not r.ready):
            todo.append(r)
        else:
            why = "the game is over" if r.finished else (r.blocked or "waiting: " + _waiting_text(r))
            if r.late and not r.ready:
                policy = f"NMR policy {r.nmr}" if r.nmr else "no NMR policy"
                if outage and r.nmr == "stand-fast":
                    policy += ", not applied: most sides are late"
                why = f"{', '.join(r.late)} late ({policy}); {why}"
            outcomes[r.file] = Outcome(str(r.path), r.file, r.game, "skipped", head=r.head, message=why)
    used = _workers(workers, len(todo))
    if used > 1:
        # import the games' systems once here: the forked workers inherit them instead of importing each
        from . import systems

        for name in {r.system for r in todo}:
            try:
                systems.get(name)
            except HxrefError:
                pass                     # that game's worker reports it
    jobs = [(str(r.path), r.file, key_blob, now_text if not outage else None) for r in todo]
    for done, (i, out) in enumerate(_run(_resolve_one, jobs, used), 1):
        outcomes[todo[i].file] = out
        if progress:
            progress(done, len(todo), out)
    return BatchResult([outcomes[r.file] for r in rows], used, outage)


#: more than this share of the sides due under a deadline late at once is a mail outage
OUTAGE_SHARE = 0.5


def _outage(rows: list[Row]) -> str | None:
    """Why the NMR policies must wait (most sides late at once), or None."""
    running = [r for r in rows if not r.error and not r.finished and r.nmr]
    due = sum(r.due for r in running)
    late = sum(len(r.late) for r in running)
    games = sum(1 for r in running if r.late)
    if games >= 2 and due and late > OUTAGE_SHARE * due:
        return (f"{late} of the {due} sides due are late at once, in {games} games (a mail outage?): "
                "no NMR policy was applied; resolve with --force-nmr to apply them")
    return None


def _resolve_one(path: str, file: str, key_blob: bytes | None, now: str | None = None) -> Outcome:
    """A worker's job: resolve one game under its lock and save it (as ``hxref resolve GAME``): the
    game's NMR policy at ``now`` first (None: not applied), then every complete decision."""
    from .engine import Engine
    from .game import locked

    game = None
    try:
        with locked(path):
            eng = Engine.load(path)
            game = eng.meta.get("game")
            late = eng.apply_nmr(now) if now and hasattr(eng, "apply_nmr") else []
            said = [_nmr_line(item) for item in late]
            try:
                if eng.finished:         # a side forfeited
                    raise InvalidInput(eng.waiting_text(), code="E308")
                key = _key_from_blob(key_blob) if key_blob and eng.mode == "umpired" else None
                done = eng.resolve(key)
            except HxrefError:
                if not any(item.get("applied") for item in late):
                    raise
                eng.save()               # the policy's answers are kept, as `hxref resolve GAME` keeps them
                return Outcome(path, file, game, "nmr", [], eng.gf.head, eng.waiting_text(), nmr=said,
                               pid=os.getpid())
            eng.save()
        return Outcome(path, file, game, "resolved", [r.decision for r in done], eng.gf.head, eng.waiting_text(),
                       nmr=said, pid=os.getpid())
    except HxrefError as exc:
        status = "skipped" if exc.code == "E308" else "error"
        return Outcome(path, file, game, status, message=exc.render(), pid=os.getpid())
    except Exception as exc:  # a bug or damage in one game must not stop the batch
        return Outcome(path, file, game, "error", message=f"{path}: internal error {exc!r} (a bug in hxref)",
                       pid=os.getpid())


def _nmr_line(item: dict) -> str:
    """One line for what the NMR policy did, in the words of ``hxref resolve GAME``."""
    if item.get("applied"):
        return f"missed {item['decision']}: {item['side']} stands fast (NMR policy stand-fast)" \
            + (", and forfeits" if item.get("forfeit") else "")
    why = item.get("why") or "the game holds (NMR policy hold)"
    return f"missed {item['decision']}: {item['side']} is late; {why}"


def _now() -> str:
    from .engine import now_iso

    return now_iso()


def _waiting_text(r: Row) -> str:
    parts = []
    for w in r.awaiting:
        owed = [f"{s} ({what})" for s, what in w["owed"].items() if what != "done" and not what.startswith("wait")]
        parts.append(f"{w['decision']} awaits " + (", ".join(owed) if owed else "resolution"))
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
