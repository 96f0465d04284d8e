"""The options and helpers the commands share (one place for each): the GAME argument, ``--side``,
``--key``, ``--decision`` and ``--dir``, loading a game and a key, the folder a command writes
to, and the options whose help names the registered systems.  Both :mod:`hxref.cli` and the
modules of commands it mounts (:mod:`hxref.cli.files`) read them; this module imports neither,
and nothing heavy, so ``hxref --version`` stays fast.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..base.errors import InvalidInput

if TYPE_CHECKING:
    from ..referee.engine import Engine
    from ..crypto.signing import Key

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


def load_game(game: str, side: str | None = None) -> Engine:
    """The game file GAME, checked as every command checks what it loads; a game with hidden armies
    as ``side`` knows it, from its own file beside the game."""
    from ..referee.engine import Engine

    return Engine.load(game, side=side)


def private_key(path: str) -> Key:
    """The private key file at ``path`` (``~`` expanded)."""
    from ..crypto.signing import load_private_key

    return load_private_key(os.path.expanduser(path))


def out_dir_for(game: str, out_dir: str | None) -> Path:
    """Where a command writes its files: ``--dir``, else the folder of GAME."""
    return Path(out_dir) if out_dir else (Path(game).resolve().parent)


def check_side(eng: Engine, side: str) -> None:
    """E504 unless ``side`` is a participant of the game."""
    if side not in eng.participants:
        raise InvalidInput(f"no side {side!r} in this game; sides: {', '.join(eng.sides())}", code="E504")


# --- help texts read from the registry when the help is shown ---------------------------------

class RegistryHelp(click.Option):
    """An option whose help names the registered systems (their scenarios, optional rules or
    demos), built only when the help is shown: ``hxref --version`` and every other command load
    no system for it."""

    def __init__(self, *args, help_from, **kwargs):
        super().__init__(*args, **kwargs)
        self.help_from = help_from

    def get_help_record(self, ctx):
        self.help = self.help_from()
        return super().get_help_record(ctx)


def _or(words: list[str]) -> str:
    """``a, b or c``."""
    return " or ".join(filter(None, [", ".join(words[:-1]), words[-1]])) if words else "none"


def systems_help(lead: str) -> str:
    from ..kit import registry

    return f"{lead}: {_or(registry.names())}"


def scenarios_help() -> str:
    from ..kit import registry

    return "; ".join(f"{n}: {', '.join(registry.get(n).scenarios())}" for n in registry.names())


def options_help() -> str:
    from ..kit import registry

    rules = [f"{i.name}: " + ", ".join(f"{k} ({v.split(':')[0].split()[0]})" for k, v in i.optional_rules.items())
             for i in registry.infos() if i.optional_rules]
    return f"switch on an optional rule, e.g. {'; '.join(rules)}; repeat for more"


def demo_system_help() -> str:
    from ..kit import registry

    return systems_help("which system's demo game to play") + f" (default: {registry.default()})"


def demos_help() -> str:
    from .demo import demos
    from ..kit import registry

    parts = []
    for n in registry.names():
        found = list(demos(n))
        first = registry.info(n).demo if registry.info(n).demo in found else next(iter(found), None)
        if first is None:
            continue
        others = [d for d in found if d != first]
        parts.append(f"{n}: {first}" + (f", the default, or {_or(others)}" if others else ""))
    return f"which of the system's demos ({'; '.join(parts)})"
