"""Many games at once: a folder's dashboard, resolving every ready game, standings.

The work is done in one module per concept; this module re-exports their public names (and the
private ones the benchmark and the tests use), so ``from hxref import batch`` /
``batch.dashboard(...)`` and ``from hxref.batch import ...`` keep working:

* :mod:`hxref.batch.scan` -- :func:`find_games` (every game file under a folder, recursively) and
  :func:`read_header` (a game file's header, as every command reads it), and the times they read.
* :mod:`hxref.batch.dashboard` -- :func:`dashboard`: one :class:`Row` per game, with every party
  that owes something now, the deadlines and who is late; ``audit=True`` also runs
  :func:`hxref.referee.audit.audit` on every game, in parallel processes.
* :mod:`hxref.batch.resolve` -- :func:`resolve_all`: resolves every game whose awaited decision has
  all its answers, each in a worker process, as ``hxref resolve GAME`` does.  No clock applies a
  deadline: only a signed claim settles a late game.
* :mod:`hxref.batch.workers` -- the worker processes: the jobs they run and the pool that runs them.
* :mod:`hxref.batch.standings` -- :func:`standings`: a tournament table over the finished games
  that audit clean, each result read from the game's replay (a forfeit is a loss).
"""
from __future__ import annotations

from .dashboard import Row, dashboard, owes_now, time_left
from .resolve import BatchResult, claim_gives_text, resolve_all
from .scan import GAME_SUFFIXES, SNIFF, Peek, find_games, is_game_file, parse_time, read_header
from .standings import POINTS, GameResult, Standing, Standings, game_result, standings
from .workers import PARALLEL_GAMES, Outcome

__all__ = [
    "Row", "dashboard", "owes_now", "time_left",
    "BatchResult", "claim_gives_text", "resolve_all",
    "GAME_SUFFIXES", "SNIFF", "Peek", "find_games", "is_game_file", "parse_time", "read_header",
    "POINTS", "GameResult", "Standing", "Standings", "game_result", "standings",
    "PARALLEL_GAMES", "Outcome",
]
