"""``hxref heartland plot``: The Army of the Heartland's own command, a hidden force's plot on paper.

The main command line mounts :data:`heartland_group` as ``hxref heartland`` (``INFO.cli``); the
command is a thin shell over :mod:`.hidden_open` and :mod:`.cavalry` (8.62a: in an open game a
hidden force's hex is plotted as a commitment and opened when the force appears).  This module
imports only click and the shared options at load time, so ``hxref --version`` stays fast.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from ...cli.options import check_side, dir_option, game_argument, load_game, out_dir_for, side_option
from ...base.errors import InvalidInput

if TYPE_CHECKING:
    from .state_types import FullGameState


@click.group("heartland")
def heartland_group() -> None:
    """The Army of the Heartland: hidden forces plotted on paper in open games (8.62a).

    \b
    Example:
      hxref heartland plot g.yaml --side union --force royce --hex 1514
    """


@heartland_group.command("plot", short_help="Plot a hidden force's hex on paper, as a commitment (8.62a).")
@game_argument
@side_option()
@click.option("--force", default=None, help="the hidden force to plot this impulse")
@click.option("--hex", "label", default=None, help="the hex you plot it in (quote four-digit labels)")
@click.option("--reveal", "reveal_force", default=None, metavar="FORCE",
              help="print the reveal of FORCE's plots instead")
@dir_option
def plot(game, side, force, label, reveal_force, out_dir):
    """Plot a hidden force's hex on paper, as a commitment (open games, 8.62a).

    With --force/--hex it commits to the force's hex for the impulse you are
    writing orders for, keeps the hex and the salt in your private file
    GAME-SIDE-plots.yaml (never send it), and prints the line for your orders:
    `plot: [{force, commitment}]`.  With --reveal it prints the orders line that
    opens every plot of the force so it appears: `reveal: [{force, plots}]`.

    Example: hxref heartland plot g.yaml --side union --force royce --hex 1514
    """
    import json

    from ...crypto import commit
    from ...base import yamlio
    from . import hidden_open as ho
    from .cavalry import plot_choice, plot_commitment

    eng = load_game(game)
    check_side(eng, side)
    state = cast("FullGameState", eng.state)      # what setup built
    mine = out_dir_for(game, out_dir) / f"{Path(game).stem}-{side}-plots.yaml"
    book = yamlio.fast_load(mine.read_text()) if mine.exists() else {}
    if reveal_force:
        rec = ho.records(state, side).get(reveal_force)
        if rec is None:
            raise InvalidInput(f"{reveal_force} is not one of {side}'s hidden forces", code="E400", file=game)
        kept = {x["commitment"]: x for x in (book or {}).get(reveal_force, [])}
        missing = [e["impulse"] for e in rec["entries"] if e["commitment"] not in kept]
        if missing:
            raise InvalidInput(f"{mine.name} has no plot of {reveal_force} for impulse {missing[0]}: "
                               "the salt is lost; the force cannot appear lawfully", code="E305", file=str(mine))
        plots = [{"hex": kept[e["commitment"]]["hex"], "salt": kept[e["commitment"]]["salt"]} for e in rec["entries"]]
        click.echo("reveal: " + json.dumps([{"force": reveal_force, "plots": plots}]))
        return
    if not force or not label:
        raise InvalidInput("give --force and --hex to plot, or --reveal FORCE", code="E504")
    if force not in ho.records(state, side):
        raise InvalidInput(f"{force} is not one of {side}'s hidden forces (hide it first with `hide: true`)",
                           code="E400", file=game)
    dec = eng.open_decision_for(side, None, ("answer",))
    if dec.kind != "orders":
        raise InvalidInput(f"{dec.id} is not an orders decision: plots go with your impulse's orders", code="E301")
    label = str(label)
    hm = eng.system.charts.map(state["map"])        # the game's map, as its pinned copy draws it
    try:
        hm.parse(label)
    except Exception as exc:
        raise InvalidInput(f"--hex {label}: {exc}", code="E504") from None
    impulse = ho.impulse_number(state)
    salt = commit.new_salt()
    c = plot_commitment(plot_choice(force, label, impulse), salt)
    entries = [x for x in (book or {}).get(force, []) if x.get("impulse") != impulse]
    book = dict(book or {}, **{force: entries + [{"impulse": impulse, "hex": label, "salt": salt, "commitment": c}]})
    _write_private(mine, "# PRIVATE: your hidden forces' plotted hexes and salts (8.62a). Never send this file.\n"
                   + yamlio.dump_fast(book))
    click.echo(f"kept in {mine.name} (private); put this in your orders for {dec.id}:")
    click.echo("plot: " + json.dumps([{"force": force, "commitment": c}]))


def _write_private(path: Path, text: str) -> None:
    """A secret file (hidden plots and their salts): mode 0600 from its first byte, written atomically."""
    from ...base.files import atomic_write

    atomic_write(path, text.encode("utf-8"), private=True)
