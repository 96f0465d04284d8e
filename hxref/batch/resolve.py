"""Resolving every ready game of a folder (:func:`resolve_all`).

Every game whose awaited decision has all its answers (and the dice links it needs) is resolved,
each in a worker process (:mod:`hxref.batch.workers`) that takes the game's lock, loads, resolves
and saves it exactly as ``hxref resolve GAME`` does.  A game that fails is reported with its
one-line error and never stops the others.  No clock applies a deadline (SECURITY.md, "Attested
time"): a late game is never changed by ``resolve``; only a signed claim, submitted to the game,
gives the late side its default answer or forfeits it, and after that the game is resolved as any
other.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .dashboard import Row, _now, _row, owes_now
from .scan import find_games, parse_time
from .workers import Outcome, _key_blob, _key_fingerprint, _resolve_one, _run, _workers
from ..base.errors import HxrefError

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
    is the umpire's private key (a :class:`~hxref.crypto.signing.Key` or its file): it is used for the
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
        from ..kit import registry

        for name in {r.system for r in todo if r.system is not None}:
            try:
                registry.get(name)
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


def _waiting_text(r: Row) -> str:
    parts = []
    for w in r.awaiting:
        owed = [f"{s} ({w['owed'][s]})" for s in owes_now(w["owed"])]
        parts.append(f"{w['decision']} awaits " + (", ".join(owed) if owed else "the decisions before it"))
    return "; ".join(parts) or "nothing"
