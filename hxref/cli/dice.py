"""``hxref dice GAME``: the dice statistics of a whole game, as text, JSON or an SVG histogram.

The main command line registers :data:`dice_cmd`; the figures come from :mod:`hxref.report.dice_stats`.
"""
from __future__ import annotations

from pathlib import Path

import click

from .options import check_side, game_argument, load_game
from ..base.errors import InvalidInput


@click.command("dice")
@game_argument
@click.option("--side", default=None, metavar="SIDE",
              help="count only the dice SIDE may see; `umpire` for every die (default: the public dice; "
                   "in an open or solo game every die is public)")
@click.option("--purpose", "purposes", multiple=True, metavar="TEXT",
              help="only the rolls whose purpose contains TEXT, ignoring case (e.g. CRT, 'MC (defender'); "
                   "repeat for the rolls of any of several")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output for scripts (keys sorted)")
@click.option("--svg", "svg_out", default=None, type=click.Path(dir_okay=False), metavar="FILE",
              help="also write a histogram per group as an SVG picture")
def dice_cmd(game: str, side: str | None, purposes: tuple[str, ...], as_json: bool, svg_out: str | None) -> None:
    """Dice statistics over the whole game: per side who rolled and purpose, the count of
    each face, the mean against a fair die's and a chi-square test of fairness.

    A group marked `few` has under 5 dice expected per face: its test means little.
    The "all d6" line takes every d6 of the game together.

    In an umpired game only the dice the audience may see are counted: a side's
    statistics leave out the dice rolled in secret for another side.

    \b
    Examples:
      hxref dice g.yaml
      hxref dice g.yaml --side union --purpose CRT --purpose MC
      hxref dice g.yaml --json
      hxref dice g.yaml --svg dice.svg
    """
    from ..report import dice_stats

    eng = load_game(game)
    if side is not None and side != "umpire":
        check_side(eng, side)
    rolls = dice_stats.visible_rolls(eng.gf.log, side, eng.mode)
    chosen = dice_stats.matching(rolls, purposes)
    if purposes and not chosen:
        known = sorted({r.purpose for r in rolls}, key=str.casefold)
        # the purposes listed are those of the dice the audience sees: no secret roll is named
        raise InvalidInput(f"--purpose: no die visible to {side or 'the public'} has a purpose containing "
                           f"{' or '.join(repr(p) for p in purposes)}; purposes: {', '.join(known) or 'none'}",
                           code="E504")
    st = dice_stats.compute(chosen, game=Path(game).name, mode=eng.mode, audience=side, purposes=purposes)
    click.echo(dice_stats.render_json(st) if as_json else dice_stats.render_text(st), nl=False)
    if svg_out:
        from ..base.files import atomic_write

        atomic_write(Path(svg_out), dice_stats.render_svg(st).encode("utf-8"))
        # after JSON the message goes to stderr, so that stdout stays one JSON document
        click.echo(f"wrote {svg_out}", err=as_json)
