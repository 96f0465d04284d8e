"""The options and helpers the commands share (one place for each): the GAME argument, ``--side``,
``--key``, ``--decision`` and ``--dir``, loading a game and a key, and the folder a command writes
to.  Both :mod:`hxref.cli` and the modules of commands it mounts (:mod:`hxref.cli_files`) read
them; this module imports neither, and nothing heavy, so ``hxref --version`` stays fast.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .errors import InvalidInput

if TYPE_CHECKING:
    from .engine import Engine
    from .signing import Key

SIDE_HELP = "the side you play (e.g. union)"

game_argument = click.argument("game", type=click.Path(exists=True, dir_okay=False))
decision_option = click.option("--decision", default=None,
                               help="the decision id (default: the one awaited from you)")
dir_option = click.option("--dir", "out_dir", default=None, help="where to write the file(s) (default: beside GAME)")


def side_option(extra: str = "") -> Any:
    return click.option("--side", required=True, help=SIDE_HELP + extra)


def key_option(required: bool = True, extra: str = "") -> Any:
    return click.option("--key", "key_path", required=required, default=None,
                        help="your private key file" + extra)


def load_game(game: str) -> Engine:
    """The game file GAME, checked as every command checks what it loads."""
    from .engine import Engine

    return Engine.load(game)


def private_key(path: str) -> Key:
    """The private key file at ``path`` (``~`` expanded)."""
    from .signing import load_private_key

    return load_private_key(os.path.expanduser(path))


def out_dir_for(game: str, out_dir: str | None) -> Path:
    """Where a command writes its files: ``--dir``, else the folder of GAME."""
    return Path(out_dir) if out_dir else (Path(game).resolve().parent)


def check_side(eng: Engine, side: str) -> None:
    """E504 unless ``side`` is a participant of the game."""
    if side not in eng.participants:
        raise InvalidInput(f"no side {side!r} in this game; sides: {', '.join(eng.sides())}", code="E504")
