"""A tournament table over the finished games of a folder (:func:`standings`).

What is counted is what the audit proves.  Every game file is audited (:func:`hxref.referee.audit.audit`:
its hash chain, every signature, the replay of the whole log from the scenario, the header compared
with the replay), in worker processes when there are many (:mod:`hxref.batch.workers`).  A game
that fails its audit is listed as an error with its one-line reason and counted for nobody; a game
that audits clean is counted from the state its replay built, never from the header's snapshot.

Who is a player in the standings?  A tournament pairs *players*, and the same side name (``union``)
is played by different people in different games, so a player is identified by the fingerprint of
the key the game records for the side -- but only where a join signed by that key is in the log
(every side signs its join in open and umpired games).  The name shown is the key's comment
(``hxref keygen alice`` makes the comment ``alice``).  A side without a signed join -- every side of
a solo game, which one person plays unsigned -- is counted under its *side name*, never under a
player's key, whatever keys the game's first event names.  A win is worth 2 points, a draw 1, a loss
0; players level on points are ordered by their total victory margin (the margin of each game won,
less the margin of each game lost), then by wins; players level on all three share a rank.

The margin of a game is the system's own measure of how much the winner won by (its
:meth:`~hxref.kit.protocol.GameSystem.result`: the VP difference, the difference in campaign
victory points or in units eliminated, ...) -- never below 0 (a campaign can be won by its
conditions with fewer points than the loser: a win by 0).  A finished game that declares no winner
is a draw (margin 0) -- that includes a scenario with no victory conditions.

A game that ended by a forfeit (a signed claim against a withheld reveal or dice link, or under the
game's forfeit policy) is a loss for the side that forfeits and a win for every other side, by the
*forfeit margin*: the largest margin of any game won in the table (at least 1), or the organiser's
own (``hxref standings --forfeit-margin N``).  So withholding is never better than losing on the
board by as much as anybody did.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .scan import _rel, find_games
from .workers import _run
from ..base.errors import HxrefError, InvalidInput
from ..gamefile.game import damaged
from ..kit import registry
from ..kit.protocol import Result

POINTS = {"win": 2, "draw": 1, "loss": 0}
#: the least margin of a forfeit (when no game of the table was won by more)
MIN_FORFEIT_MARGIN = 1


@dataclass
class GameResult:
    """The end of one finished game, as the standings count it."""

    path: str
    file: str
    game: str
    system: str
    scenario: str
    players: dict[str, str]                # side -> player id
    winner: str | None                     # the winning side; None: a draw (or a forfeit among more than two)
    margin: int                            # the system's margin (0 for a draw; a forfeit's, once the table is made)
    how: str                               # the system's words for the result, or the forfeit's
    forfeit: str | None = None             # the side that forfeited the game
    names: dict[str, str] | None = None    # side -> the player's name (the key's comment, or the side)
    identity: str = ""                     # the game's identity (the hash of its first event)
    head: str = ""                         # the last event's hash


@dataclass
class Standing:
    player: str                            # the key fingerprint; "side:NAME" in games without keys
    name: str                              # the key's comment (or the fingerprint), or the side name
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0                      # losses by forfeit (counted in losses)
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
    errors: list[tuple[str, str]]          # (file, one-line error) of games that fail their audit or cannot be read
    copies: list[tuple[str, str]] = field(default_factory=list)    # (file, the file counted): one game twice
    forfeit_margin: int = MIN_FORFEIT_MARGIN   # the margin a forfeit counts by
    workers: int = 1                       # the processes that audited the games

    def to_dict(self) -> dict:
        return {"standings": [r.to_dict() for r in self.rows], "games": [asdict(g) for g in self.results],
                "unfinished": self.unfinished, "errors": [{"file": f, "error": e} for f, e in self.errors],
                "copies": [{"file": f, "counted": c} for f, c in self.copies], "forfeit_margin": self.forfeit_margin}


def _result(system: str, state: dict) -> Result:
    """How a finished game of ``system`` ended: the system's :meth:`~hxref.kit.protocol.GameSystem.result`,
    or a draw when it names none (an unknown system, a game that ended before any victory)."""
    try:
        sysobj = registry.get(system)
    except InvalidInput:
        sysobj = None
    return (sysobj.result(state) if sysobj else None) or Result(None, 0, "no result")


def game_result(header: Mapping[str, Any], path: str | Path = "", file: str = "",
                joined: Collection[str] = ()) -> GameResult:
    """The result of a finished game from its header as the replay built it (:func:`checked_result`
    gives it one): a forfeit, or the system's result.  ``joined``: the sides whose signed join is in
    the log, the only ones counted under their key."""
    meta, parts = header["meta"], header["participants"]
    sides = [s for s, p in parts.items() if p.get("role") == "side"]
    who = {s: _player(s, parts[s] if s in joined else {}) for s in sides}
    players, names = {s: w[0] for s, w in who.items()}, {s: w[1] for s, w in who.items()}
    forfeit = header.get("forfeit")
    if forfeit:
        loser = forfeit["side"]
        if loser not in sides:
            raise damaged(Path(path), f"the forfeit names {loser!r}, no side of the game")
        others = [s for s in sides if s != loser]
        return GameResult(str(path), file, meta["game"], meta["system"], meta["scenario"], players,
                          others[0] if len(others) == 1 else None, 0,
                          f"forfeit: {loser} {forfeit.get('why', 'missed its deadlines')}", loser, names)
    res = _result(meta["system"], header.get("state") or {})
    winner, margin, how = res.winner, res.margin, res.how
    if winner is not None and winner not in sides:
        raise damaged(Path(path), f"the result names a winner {winner!r} that is no side of the game")
    # a margin counts only in the winner's favour: a campaign won by its conditions with fewer victory
    # points than the loser is a win by 0
    return GameResult(str(path), file, meta["game"], meta["system"], meta["scenario"], players, winner,
                      max(0, int(margin)) if winner else 0, how, names=names)


def result_text(res: GameResult) -> str:
    """How a finished game ended, in a few words: ``forfeit: union ...``, ``union won by 3``, ``a draw``."""
    if res.forfeit:
        return res.how
    return "a draw" if res.winner is None else f"{res.winner} won by {res.margin}"


def _player(side: str, p: Mapping[str, Any]) -> tuple[str, str]:
    """(id, name) of the player of ``side``: the key's fingerprint and comment; the side name without a key."""
    fp = p.get("fingerprint")
    if not fp:
        return f"side:{side}", side
    parts = str(p.get("key", "")).split(maxsplit=2)
    return fp, (parts[2] if len(parts) > 2 else fp)


def signed_joins(log) -> set[str]:
    """The sides whose join is in the log: in a game that audits clean, each was signed by the key
    the game names for the side (a solo game has none)."""
    return {ev["by"] for ev in log if ev["kind"] == "submission" and isinstance(ev.get("data"), dict)
            and ev["data"].get("kind") == "join"}


def checked_result(path: str, file: str) -> GameResult | str | None:
    """A worker's job: audit one game; its result from the replay when it audits clean and is over,
    None while it goes on, or the one-line reason it is not counted."""
    from ..referee.audit import audit

    try:
        res = audit(path, workers=1)
        if not res.ok:
            return f"audit FAILED: {res.problems[0] if res.problems else 'no reason given'}"
        eng = res.replayed
        if eng.h.get("phase") != "over":
            return None
        out = game_result(eng.h, path, file, signed_joins(eng.gf.log))
        out.identity, out.head = eng.gf.log[0]["hash"], eng.gf.head
        return out
    except HxrefError as exc:
        return exc.render()
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        return damaged(Path(path), f"the result cannot be read ({exc!r})").render()
    except Exception as exc:  # a damaged file must not stop the table
        return f"{path}: internal error {exc!r} (a bug in hxref)"


def standings(folder: str | Path, forfeit_margin: int | None = None, workers: int | None = None) -> Standings:
    """The tournament table of the finished games under ``folder`` that audit clean; ``workers``
    processes audit them (default: one per core when there are many games)."""
    from .workers import _workers

    root = Path(folder)
    paths = find_games(root)
    jobs = [(str(p), _rel(p, root)) for p in paths]
    found: dict[int, GameResult | str | None] = {}
    if jobs and _workers(workers, len(jobs)) > 1:
        # the first game here: the forked workers then start with its system and charts loaded
        found[0] = checked_result(*jobs[0])
        found.update((i + 1, out) for i, out in _run(checked_result, jobs[1:], workers))
    else:
        found.update(_run(checked_result, jobs, workers))
    results: list[GameResult] = []
    unfinished: list[str] = []
    errors: list[tuple[str, str]] = []
    for i, (_, file) in enumerate(jobs):
        out = found[i]
        if out is None:
            unfinished.append(file)
        elif isinstance(out, str):
            errors.append((file, out))
        else:
            results.append(out)
    results, copies = _once(results, errors)
    won = [r.margin for r in results if r.winner is not None and not r.forfeit]
    margin = forfeit_margin if forfeit_margin is not None else max([MIN_FORFEIT_MARGIN, *won])
    for r in results:
        if r.forfeit:
            r.margin = margin
    return Standings(_table(results), results, unfinished, errors, copies, margin, _workers(workers, len(jobs)))


def _once(results: list[GameResult], errors: list[tuple[str, str]]) -> tuple[list[GameResult], list[tuple[str, str]]]:
    """Each game counted once: copies of one game (the same identity) that end at the same head are
    counted as one, the first file's; copies that end at different heads (a fork: two histories of
    one game) are all listed as errors and counted for nobody."""
    by_game: dict[str, list[GameResult]] = {}
    for r in results:
        by_game.setdefault(r.identity, []).append(r)
    once: list[GameResult] = []
    copies: list[tuple[str, str]] = []
    for group in by_game.values():
        if len({r.head for r in group}) > 1:
            files = ", ".join(r.file for r in group)
            errors += [(r.file, f"copies of one game end differently ({files}): two histories of one game, "
                                f"head {r.head[:16]} here; not counted") for r in group]
            continue
        once.append(group[0])
        copies += [(r.file, group[0].file) for r in group[1:]]
    kept = {id(r) for r in once}
    return [r for r in results if id(r) in kept], copies


def _table(results: list[GameResult]) -> list[Standing]:
    table: dict[str, Standing] = {}
    for res in results:
        for side, pid in res.players.items():
            st = table.setdefault(pid, Standing(pid, (res.names or {}).get(side, side)))
            st.played += 1
            if res.forfeit:
                won = side != res.forfeit
            elif res.winner is None:
                st.draws += 1
                st.points += POINTS["draw"]
                continue
            else:
                won = side == res.winner
            if won:
                st.wins += 1
                st.points += POINTS["win"]
                st.margin += res.margin
            else:
                st.losses += 1
                st.forfeits += res.forfeit == side
                st.margin -= res.margin
    rows = sorted(table.values(), key=lambda s: (-s.points, -s.margin, -s.wins, s.name, s.player))
    for i, st in enumerate(rows):
        prev = rows[i - 1] if i else None
        st.rank = prev.rank if prev and (prev.points, prev.margin, prev.wins) == (st.points, st.margin, st.wins) \
            else i + 1
    return rows
