"""A tournament table over the finished games of a folder (:func:`standings`).

Who is a player in the standings?  A tournament pairs *players*, and the same side name (``union``)
is played by different people in different games, so a player is identified by the fingerprint of
the key the game header records for the side.  The name shown is the key's comment (``hxref keygen
alice`` makes the comment ``alice``).  Solo games record no keys: there each *side name* stands for
a player.  A win is worth 2 points, a draw 1, a loss 0; players level on points are ordered by their
total victory margin (the margin of each game won, less the margin of each game lost), then by wins;
players level on all three share a rank.

The margin of a game is the system's own measure of how much the winner won by (its
:meth:`~hxref.kit.protocol.GameSystem.result`: the VP difference, the difference in campaign
victory points or in units eliminated, ...) -- never below 0 (a campaign can be won by its
conditions with fewer points than the loser: a win by 0).  A finished game that declares no winner is a draw
(margin 0) -- that includes a scenario with no victory conditions.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from .batch_scan import _rel, find_games, read_header
from .errors import HxrefError, InvalidInput
from .game import damaged
from .kit import registry
from .kit.protocol import Result

POINTS = {"win": 2, "draw": 1, "loss": 0}


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


def _result(system: str, state: dict) -> Result:
    """How a finished game of ``system`` ended: the system's :meth:`~hxref.kit.protocol.GameSystem.result`,
    or a draw when it names none (an unknown system, a game that ended before any victory)."""
    try:
        sysobj = registry.get(system)
    except InvalidInput:
        sysobj = None
    return (sysobj.result(state) if sysobj else None) or Result(None, 0, "no result")


def game_result(header: dict, path: str | Path = "", file: str = "") -> GameResult:
    """The result of a finished game from its header (the full state)."""
    meta, parts = header["meta"], header["participants"]
    sides = [s for s, p in parts.items() if p.get("role") == "side"]
    res = _result(meta["system"], header.get("state") or {})
    winner, margin, how = res.winner, res.margin, res.how
    if winner is not None and winner not in sides:
        raise damaged(Path(path), f"the result names a winner {winner!r} that is no side of the game")
    players = {s: _player(s, parts[s])[0] for s in sides}
    # a margin counts only in the winner's favour: a campaign won by its conditions with fewer victory
    # points than the loser is a win by 0
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
