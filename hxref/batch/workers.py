"""The worker processes of :mod:`hxref.batch`: the jobs they run and the pool that runs them.

:func:`_run` runs jobs in this process below :data:`PARALLEL_GAMES` games, else in forked worker
processes (one per core by default).  A job is :func:`_resolve_one` (resolve one game under its
lock and save it, as ``hxref resolve GAME``; its :class:`Outcome`), :func:`_audit_one` (audit one
game) or :func:`hxref.batch.standings.checked_result` (audit one game and read its result from the
replay, for the standings and the dashboard).  Errors come back as values, so one game that fails never stops the others.  The umpire's
private key travels to the workers as bytes (:func:`_key_blob`, :func:`_key_from_blob`): a key
object does not pickle.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable

from ..base.errors import HxrefError

#: below this many games a batch runs in this process (starting workers costs more than it saves)
PARALLEL_GAMES = 4


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


def _resolve_one(path: str, file: str, key_blob: bytes | None) -> Outcome:
    """A worker's job: resolve one game under its lock and save it (as ``hxref resolve GAME``)."""
    from ..referee.engine import Engine
    from ..gamefile.game import locked

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


def _audit_one(path: str) -> str:
    """A worker's job: audit one game; "ok" or "FAILED: the first problem"."""
    from ..referee.audit import audit

    try:
        res = audit(path, workers=1)
    except HxrefError as exc:
        return "FAILED: " + exc.render()
    except Exception as exc:  # a damaged file must not stop the batch
        return f"FAILED: internal error {exc!r}"
    return "ok" if res.ok else "FAILED: " + "; ".join(res.problems[:2])


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
    from ..crypto.signing import Key, load_private_key

    if not isinstance(key, Key):
        key = load_private_key(key)
    return key.public.fingerprint()


def _key_blob(key: Any) -> bytes | None:
    """The umpire's private key as bytes a worker process can rebuild it from (a key object does not pickle)."""
    if key is None:
        return None
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    from ..crypto.signing import Key, load_private_key

    if not isinstance(key, Key):
        key = load_private_key(key)
    return key._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())


def _key_from_blob(blob: bytes):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ..crypto.signing import Key

    return Key(Ed25519PrivateKey.from_private_bytes(blob))
