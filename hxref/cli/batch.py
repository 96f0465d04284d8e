"""The command line for many games at once: ``hxref status DIR``, ``hxref resolve DIR``
and ``hxref standings DIR``.

``status`` and ``resolve`` are the single-game commands of :mod:`hxref.cli`; given a folder they call
:func:`status_folder` and :func:`resolve_folder` here.  ``standings`` is registered lazily in
``Main.GROUPS``.  The work is done by :mod:`hxref.batch`; this module only renders.
"""
from __future__ import annotations

import json
import sys

import click

#: how a dashboard status looks
STYLE = {"ready": "bold green", "blocked": "yellow", "late": "bold yellow", "waiting": "", "over": "dim",
         "error": "bold red"}


def _console(stderr: bool = False, width: int | None = None):
    from rich.console import Console

    import os

    wide = None if os.environ.get("COLUMNS") else 160      # piped to a file or a mail: not 80 columns
    # file names and errors are never markup
    return Console(stderr=stderr, highlight=False, markup=False, width=width or (None if _tty(stderr) else wide))


def _tty(stderr: bool) -> bool:
    stream = sys.stderr if stderr else sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def _short_time(text: str | None) -> str:
    """``2026-11-29 12:00Z``: minutes are enough for a dashboard."""
    if not text:
        return "-"
    from ..batch import parse_time

    t = parse_time(text)
    return t.strftime("%Y-%m-%d %H:%MZ") if t else text


def _awaited(row) -> str:
    """What a game waits for, in a few words."""
    if row.error:
        return row.error
    if row.finished:
        return f"the game is over: {row.result}" if row.result else "the game is over (no result: its audit fails)"
    from ..batch import owes_now

    claimable = {(c["decision"], c["against"]) for c in row.claimable}
    parts = []
    for w in row.awaiting:
        if w["ready"]:
            parts.append(f"{w['decision']}: all in" + (f" -- {row.blocked}" if row.blocked else ", resolve"))
            continue
        owed = []
        for s in owes_now(w["owed"]):
            late = ""
            if (w["decision"], s) in claimable:
                late = ", LATE: claim"
            elif s in w.get("late", ()):
                late = ", LATE"
            owed.append(f"{s} ({w['owed'][s]}{late})")
        parts.append(f"{w['decision']}: " + (", ".join(owed) or "-"))
    return "; ".join(parts) or "-"


def _summary(rows) -> str:
    from collections import Counter

    n = Counter(r.status for r in rows)
    words = [f"{n['ready']} ready to resolve", f"{n['waiting']} waiting for players"]
    if n["late"]:
        words.append(f"{n['late']} with a party past its deadline")
    if n["blocked"]:
        words.append(f"{n['blocked']} waiting for dice links or the umpire")
    words.append(f"{n['over']} over")
    if n["error"]:
        words.append(f"{n['error']} unreadable")
    return f"{len(rows)} game{'s' if len(rows) != 1 else ''}: " + ", ".join(words)


def _say(fmt: str):
    """say(style, word, rest): one line, the word coloured in the terminal (nothing in ``rest`` is markup)."""
    if fmt != "rich":
        return lambda style, word, rest: click.echo(f"{word} {rest}")
    from rich.text import Text

    c = _console()
    return lambda style, word, rest: c.print(Text.assemble((word, style), " " + rest), soft_wrap=True)


def status_folder(folder: str, as_json: bool = False, audit: bool = False, workers: int | None = None,
                  width: int | None = None) -> None:
    """``hxref status DIR``: the dashboard of every game under DIR.

    Exit status 0; 1 when a finished game fails its audit (its result is checked by replaying it) or,
    with ``--audit``, when any game fails its audit or cannot be read.
    """
    from .. import batch

    rows = batch.dashboard(folder, audit=audit, workers=workers)
    failed = any((audit and r.error) or (r.audit or "").startswith("FAILED") for r in rows)
    if as_json:
        from collections import Counter

        click.echo(json.dumps({"folder": folder, "summary": dict(Counter(r.status for r in rows)),
                               "games": [r.to_dict() for r in rows]}, indent=2))
        sys.exit(1 if failed else 0)
    c = _console(width=width)
    if not rows:
        c.print(f"no game files under {folder}")
        return
    table, notes = _status_table(rows, audit)
    c.print(table)
    for note in notes:
        c.print(note, soft_wrap=True)
    c.print(_summary(rows))
    if any(r.status == "ready" for r in rows):
        c.print(f"next: hxref resolve {folder}")
    if any(r.claimable for r in rows):
        c.print("no clock applies a deadline: a late party's game waits until a claim is signed and submitted "
                "(hxref claim, then hxref submit)")
    sys.exit(1 if failed else 0)


def _status_table(rows, audit: bool):
    """The dashboard's table, one row a game, and the notes printed below it (unreadable files, late
    parties, failed audits), in the rows' order."""
    from ..report.fit import Col, FitTable

    cells: list = []
    notes: list = []
    for r in rows:
        notes.extend(_row_notes(r, audit))
        cells.append(_status_cells(r))
        if audit:
            cells[-1].append(_audit_cell(r, notes))
    # laid out to the room there is (see .report.fit): words stay whole, a path breaks after a slash;
    # where the room is short, the head (`hxref status GAME` has it), then the last activity, then a
    # deadline column with no deadline in it give way first, before a game id or a date is broken
    no_deadline = all(c[5] == "-" for c in cells)
    cols = [Col(c, no_wrap=c in ("status", "turn", "audit"),
                optional=c in ("head", "last activity") or (c == "deadline" and no_deadline))
            for c in ["game / file", "system", "turn", "status", "awaiting", "deadline", "last activity", "head"]
            + (["audit"] if audit else [])]
    return FitTable(cols, cells, show_edge=False, box=None, padding=(0, 1), pad_edge=False,
                    header_style="bold"), notes


def _status_cells(r) -> list:
    """One game's cells up to the head: name and file, system, turn and stage, status, what it awaits,
    deadline and time left, last activity, head."""
    from rich.text import Text

    from .. import batch

    turn = "-" if r.turn is None else str(r.turn)
    if r.stage and r.stage not in ("play", "over"):
        turn += f" ({r.stage})"
    deadline = f"{_short_time(r.deadline)}\n{batch.time_left(r.deadline)}" if r.deadline else "-"
    name = Text(r.file) if r.game is None else Text.assemble(r.game, ("\n" + r.file, "dim"))
    system = "?" if r.error else f"{r.system} {r.scenario}\n({r.mode})"
    awaited = "cannot be read (below)" if r.error else _awaited(r)
    when = _short_time(r.last_activity)
    return [name, system, turn, Text(r.status, style=STYLE[r.status]), awaited,
            deadline, when if r.activity_from != "mtime" else f"{when}\n(file time)", (r.head or "")[:10]]


def _row_notes(r, audit_column: bool = False) -> list:
    """The notes one game's row earns: its file cannot be read; a party is late, with what a signed
    claim gives."""
    from rich.text import Text

    from .. import batch

    notes = []
    if r.error:
        notes.append(Text.assemble(("unreadable", "bold red"), f" {r.file}: {r.error}"))
    if r.finished and (r.audit or "").startswith("FAILED") and not audit_column:
        notes.append(Text.assemble(("audit FAILED", "bold red"), f" {r.file}: {r.audit[8:]}"))
    for cl in r.claimable:
        notes.append(Text.assemble(("late", "bold yellow"),
                                   f" {r.file}: {cl['against']} owes its {cl['owed']} for {cl['decision']}, "
                                   f"due {_short_time(cl['due'])}; a signed claim gives "
                                   f"{batch.claim_gives_text(cl)}: {cl['command']}"))
    return notes


def _audit_cell(r, notes: list):
    """The audit column: ok, or FAILED with the reason added to the notes."""
    from rich.text import Text

    verdict = r.audit or "-"
    if verdict.startswith("FAILED"):
        notes.append(Text.assemble(("audit FAILED", "bold red"), f" {r.file}: {verdict[8:]}"))
        verdict = "FAILED"
    return Text(verdict, style="green" if verdict == "ok" else "bold red")


def resolve_folder(folder: str, key_path: str | None = None, fmt: str = "rich", workers: int | None = None) -> None:
    """``hxref resolve DIR``: resolve every game under DIR whose answers are all in, in parallel processes.

    No deadline is applied by the clock: a game waiting for a late party is left as it is, and the
    output names who is late and the claim that settles it (``hxref claim``).
    Exit status 0, or 1 when a game could not be read or resolved (the others are resolved all the same).
    """
    from .. import batch

    key = None
    if key_path:
        import os

        from ..crypto.signing import load_private_key

        key = load_private_key(os.path.expanduser(key_path))
    if fmt == "json":
        res = batch.resolve_all(folder, umpire_key=key, workers=workers)
        click.echo(json.dumps(res.to_dict(), indent=2))
        sys.exit(1 if res.errors else 0)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = _console(stderr=True)
    # no refresh thread: the bar is redrawn after each game (the workers are forked, and forking
    # while another thread runs is unsafe)
    bar = Progress(TextColumn("resolving"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("{task.description}"), console=err, transient=True, auto_refresh=False,
                   disable=fmt != "rich" or not err.is_terminal)
    with bar:
        task = bar.add_task("", total=None)

        def step(done: int, total: int, out) -> None:
            bar.update(task, completed=done, total=total, description=out.file, refresh=True)

        res = batch.resolve_all(folder, umpire_key=key, workers=workers, progress=step)
    say = _say(fmt)
    for o in res.outcomes:
        if o.status == "resolved":
            say("green", "resolved", f"{o.file} ({o.game}): {', '.join(o.decisions)}; head {(o.head or '')[:16]}; "
                f"next: {o.next}")
        elif o.status == "error":
            say("bold red", "error", f"{o.file}: {o.message}")
        elif o.late:
            say("yellow", "late", f"{o.file} ({o.game}), not changed: {o.message}")
    skipped = sum(1 for o in res.outcomes if o.status == "skipped")
    late = len(res.late)
    summary = (f"{len(res.resolved)} game{'s' if len(res.resolved) != 1 else ''} resolved, "
               + f"{skipped} not ready or over"
               + (f" ({late} with a late party, left for a signed claim)" if late else "")
               + f", {len(res.errors)} error{'s' if len(res.errors) != 1 else ''}"
               + (f" ({res.workers} worker processes)" if res.workers > 1 else ""))
    click.echo(summary if res.outcomes else f"no game files under {folder}")
    sys.exit(1 if res.errors else 0)


@click.command("standings")
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="machine-readable output for scripts")
@click.option("--games", "show_games", is_flag=True, help="also list every finished game and its result")
@click.option("--forfeit-margin", type=click.IntRange(min=0), default=None,
              help="the margin a forfeit counts by (default: the largest margin of any game won in the table, "
                   "at least 1)")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="processes that audit the games (default: one per core when there are many games)")
def standings_cmd(folder, as_json, show_games, forfeit_margin, workers):
    """Tournament standings of the finished games under FOLDER, counted from
    what each game's audit proves.

    \b
    Every game is audited (hash chain, signatures, the replay of its whole
    log); a game that fails is listed as an error and counted for nobody,
    and a result is read from the replayed game, never from the header.
    A player is the key a game records for a side (named by the key's
    comment), counted only where a join signed by that key is in the log;
    in solo games, whose sides sign nothing, each side name counts as a
    player, never a key.  Win 2 points, draw 1, loss 0; level players are
    ordered by their total victory margin (won less lost), then by wins.
    The margin is the system's own: VP difference (heartland,
    salem-church), CG LVP difference (kgp), units eliminated difference
    (acw-minis).  A forfeit is a loss for the side that forfeits and a win
    for the others, by the forfeit margin.

    Example: hxref standings tournament/ --games
    """
    from .. import batch

    st = batch.standings(folder, forfeit_margin=forfeit_margin, workers=workers)
    if as_json:
        click.echo(json.dumps(st.to_dict(), indent=2))
        sys.exit(1 if st.errors else 0)
    from rich.table import Table
    from rich.text import Text

    c = _console()
    forfeits = any(s.forfeits for s in st.rows)
    if not st.rows:
        c.print(f"no finished games under {folder} ({len(st.unfinished)} in progress)")
    else:
        t = Table(show_edge=False, box=None, padding=(0, 1), header_style="bold")
        cols = ("#", "player", "games", "won", "drawn", "lost", *(("forfeit",) if forfeits else ()), "points", "margin")
        for col in cols:
            t.add_column(col, justify="left" if col == "player" else "right")
        prev = None
        for s in st.rows:
            who = s.name if s.player.startswith("side:") or s.name == s.player else f"{s.name} ({s.player[:19]})"
            t.add_row("" if s.rank == prev else str(s.rank), Text(who), str(s.played), str(s.wins), str(s.draws),
                      str(s.losses), *((str(s.forfeits),) if forfeits else ()), str(s.points), f"{s.margin:+d}")
            prev = s.rank
        c.print(t)
    if show_games and st.results:
        g = Table(show_edge=False, box=None, padding=(0, 1), header_style="bold", title_justify="left")
        for col in ("file", "game", "system", "winner", "margin", "result"):
            g.add_column(col, overflow="fold")
        for r in st.results:
            winner = r.winner or ("the others" if r.forfeit else "draw")
            g.add_row(*(Text(x) for x in (r.file, r.game, f"{r.system}/{r.scenario}", winner,
                                           str(r.margin), r.how)))
        c.print(g)
    n_forfeit = sum(1 for r in st.results if r.forfeit)
    c.print(f"{len(st.results)} finished game{'s' if len(st.results) != 1 else ''} counted, "
            f"{len(st.unfinished)} in progress"
            + (f", {len(st.errors)} not counted (failed audit or unreadable)" if st.errors else "")
            + (f"; {n_forfeit} forfeit{'s' if n_forfeit != 1 else ''}, each a loss by {st.forfeit_margin}"
               if n_forfeit else "")
            + (f" ({st.workers} worker processes)" if st.workers > 1 else ""))
    for file, error in st.errors:
        c.print(Text.assemble(("not counted", "bold red"), f" {file}: {error}"), soft_wrap=True)
    for file, counted in st.copies:
        c.print(Text.assemble(("counted once", "yellow"), f" {file}: the same game as {counted}"), soft_wrap=True)
    sys.exit(1 if st.errors else 0)
