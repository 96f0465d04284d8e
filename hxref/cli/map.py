"""``hxref map check|show``: check map files and draw them (terminal or SVG).

The main command line registers :data:`map_group`; everything here is a thin
shell over :mod:`hxref.geometry.mapfile` and :mod:`hxref.report.mapsvg` /
:mod:`hxref.report.mapterm`.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from ..base.errors import HxrefError, InvalidInput


@click.group("map")
def map_group() -> None:
    """Check map files and draw maps.

    \b
    Examples:
      hxref map check games/heartland/maps/sample.yaml
      hxref map show games/kgp/maps/sample.yaml
      hxref map show mygame.yaml --side union --svg union.svg
    """


@map_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
def check_cmd(file: str) -> None:
    """Check a map file and report every problem with its file and line.

    Exits 0 when the map is good, 2 when it has problems (one line each).

    \b
    Example:
      hxref map check games/heartland/maps/sample.yaml
    """
    from ..geometry.mapfile import check_map, load_map

    problems = check_map(file)
    if problems:
        for p in problems:
            click.echo(p.render(), err=True)
        n = len(problems)
        click.echo(f"hxref: {file}: {n} problem{'s' if n != 1 else ''}", err=True)
        raise SystemExit(2)
    m = load_map(file)
    if m.kind == "hex":
        what = f"hex map, {len(m.grid)} hexes, {len(m.sides)} hexsides with features, {len(m.lines)} roads/railroads"
    else:
        what = f"table {m.width:g} x {m.height:g} inches, {len(m.table.areas)} areas, {len(m.table.rivers)} rivers, {len(m.table.roads)} roads"
    stand_in = "; stand-in map" if m.stand_in else ""
    click.echo(f"{file}: OK ({what}{stand_in})")


@map_group.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--side", "-s", default=None, help="Draw a game as this side sees it (game files only).")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, help="Write an SVG picture to this file instead of drawing in the terminal.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False), default=None,
              help="Write a PNG picture to this file (a game's: cropped to the last turn's action and the "
                   "side's units, with the turn drawn on it; a map file's: the whole map).")
@click.option("--width", type=click.IntRange(min=20), default=None,
              help="Largest terminal picture width, in characters (default: the terminal's width).")
@click.option("--height", type=click.IntRange(min=5), default=None,
              help="Largest hex map picture height, in lines (default: the whole map's height).")
@click.option("--around", default=None, metavar="HEX",
              help="Centre the terminal picture of a hex map on this hex (default: the side's forces).")
def show_cmd(file: str, side: str | None, svg_out: str | None, png_out: str | None, width: int | None,
             height: int | None, around: str | None) -> None:
    """Draw a map file, or the map of a game with its units.

    FILE is a map file (games/<system>/maps/*.yaml) or a game file; for a game,
    --side draws only what that side may see.

    \b
    Examples:
      hxref map show games/heartland/maps/sample.yaml
      hxref map show games/acw_minis/maps/sample-table.yaml --svg table.svg
      hxref map show mygame.yaml --side confederate --svg csa.svg
      hxref map show mygame.yaml --side confederate --png csa.png
      hxref map show mygame.yaml --side union --width 80 --around 1510
    """
    from ..geometry.mapfile import is_map_file, load_map

    path = Path(file)
    if not path.exists():
        raise InvalidInput("no such file", code="E100", file=file)
    units: list[dict] = []
    shots: Sequence[dict] = ()
    title = None
    if is_map_file(path):
        if side is not None:
            raise InvalidInput("--side is for game files; a map file has no units", code="E504", file=file)
        m = load_map(path)
    else:
        try:
            from ..referee.engine import map_view
        except ImportError:
            raise HxrefError(
                "this file is not a map file, and drawing a game's map needs hxref.referee.engine.map_view, which this installation lacks",
                code="E504",
                file=file,
            ) from None
        mv = map_view(str(path), side)
        units, shots = mv.units, mv.shots
        m = mv.load()
        title = f"{m.title or m.id}" + (f": what {side} sees" if side else ": public view")
    if png_out:
        _write_png(path, m, side, png_out, game=title is not None)
    if svg_out:
        from ..report.mapsvg import render_svg

        Path(svg_out).write_text(render_svg(m, units, title=title, shots=shots), encoding="utf-8")
        click.echo(f"wrote {svg_out}")
    if png_out or svg_out:
        return
    from rich.console import Console

    from ..report.mapterm import render_terminal

    import shutil

    if width is None:
        width = shutil.get_terminal_size((100, 40)).columns
    if around is not None:
        if m.kind != "hex":
            raise InvalidInput("--around is for hex maps; a table is drawn whole", code="E504", file=file)
        try:
            m.parse(around)
        except InvalidInput as exc:
            raise InvalidInput(f"--around {around}: {exc.message}", code="E504", file=file) from None
    console = Console(highlight=False, soft_wrap=False, width=max(width, 20))
    console.print(render_terminal(m, units, max_width=width, title=title, around=around, max_height=height))


def _write_png(path: Path, m, side: str | None, png_out: str, game: bool) -> None:
    """The PNG of ``hxref map show --png``: a game's side map as its mail carries it
    (:func:`hxref.report.turnmap.side_map`), a map file's whole picture."""
    from ..base.files import atomic_write
    from ..report.mappng import to_png

    if game:
        from ..referee.engine import Engine
        from ..report.turnmap import side_map

        found = side_map(Engine.load(path), side)
        if found is None:
            raise InvalidInput("this game has no map to draw", code="E503", file=str(path))
        png = found.png
    else:
        from ..report.mapsvg import render_svg

        png = to_png(render_svg(m))
    atomic_write(Path(png_out), png)
    click.echo(f"wrote {png_out}")
