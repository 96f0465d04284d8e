"""``hxref demo``: replay a system's shipped demo game and print every report.

Each system ships one folder ``orders/<data_folder>/<scenario>/`` (its
:meth:`~hxref.kit.protocol.SystemInfo.orders_path`) with the players'
public keys, the signed order files and a ``demo.yaml`` manifest of steps
(``say``, ``submit``, ``resolve``, ``report``, ``audit``).  The runner copies
the folder to a work folder and runs the real commands there, printing each
command as a user would type it; a new system adds only its files.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import click

from ..base.errors import InvalidInput
from ..kit import registry

GAME = "game.yaml"


def demos(system: str) -> dict[str, Path]:
    """The shipped demos of a registered system: scenario -> its ``demo.yaml``."""
    folder = registry.info(system).orders_path()
    return {p.parent.name: p for p in sorted(folder.glob("*/demo.yaml"))}


def manifest_path(system: str, scenario: str | None = None) -> Path:
    """The manifest of ``system``'s demo ``scenario`` (default: the one its ``SystemInfo.demo`` names)."""
    found = demos(system) if system in registry.names() else {}
    if not found:
        ready = [s for s in registry.names() if demos(s)]
        raise InvalidInput(f"no demo game is shipped for {system!r} yet; demos: {', '.join(ready)}", code="E503")
    name = scenario or registry.info(system).demo or next(iter(found))
    if name not in found:
        raise InvalidInput(f"no {system} demo called {name!r}; demos: {', '.join(found)}", code="E503")
    return found[name]


def shipped_games() -> set[str]:
    """The identities of every shipped demo's game (the first event of its pinned data file).  Its
    manifest is read with the fast reader, as a chart shipped with hxref is: only two of its values
    are wanted, not their line numbers."""
    from ..base import yamlio
    from ..gamefile.game import GameFile

    out = set()
    for system in registry.names():
        for manifest in demos(system).values():
            man = yamlio.load_data_fast(manifest)
            pinned = manifest.parent / str(man.get("charts_from") or "")
            if man.get("nonce") and man.get("charts_from") and pinned.is_file():
                log = GameFile.load(pinned).log
                if log and log[0].get("kind") == "game.created":
                    out.add(str(log[0]["hash"]))
    return out


@contextlib.contextmanager
def _env(**values):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _hxref(main: click.Command, args: list[str]) -> None:
    click.secho("$ hxref " + " ".join(args), fg="green", bold=True)
    try:
        main.main(args, prog_name="hxref", standalone_mode=False)
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise click.ClickException(f"demo step failed: hxref {' '.join(args)} (exit {exc.code})") from None
    click.echo()


def run(main: click.Command, system: str, keep: str | None, fmt: str, scenario: str | None = None) -> None:
    """Play ``system``'s demo ``scenario`` with ``main``, the ``hxref`` command line (:mod:`hxref.cli`
    passes itself: the demo runs the very commands a user types)."""
    from ..base import yamlio

    src = manifest_path(system, scenario)
    man = yamlio.to_plain(yamlio.load_data(src))
    work = _work_folder(src, keep)
    # the players' public keys; and in an umpired demo the umpire's (demo) key, to resolve
    umpire_key = man.get("umpire_key")
    shutil.copytree(src.parent / "keys", work / "keys", dirs_exist_ok=True,
                    ignore=lambda d, names: [n for n in names if not n.endswith(".pub")
                                             and f"keys/{n}" != umpire_key])
    click.secho(f"hxref demo: {man['system']} -- {man['scenario']}, played from the signed order files in "
                f"{src.parent}", bold=True)
    click.echo(f"working in {work}\n")
    cwd = os.getcwd()
    os.chdir(work)
    try:
        with _env(HXREF_NOW=man["created"]):
            _hxref(main, _new_args(man))
            for step in man["steps"]:
                _play_step(main, step, umpire_key, fmt)
        _write_reports(main, man)
    finally:
        os.chdir(cwd)
    click.secho(f"Done. The game file, the order files and the reports (Markdown and HTML for e-mail) are in "
                f"{work}", bold=True)


def _work_folder(src: Path, keep: str | None) -> Path:
    """The folder the demo plays in (``--keep``, else a new temporary one), refused when it holds a
    demo game already, with the demo's order files copied in."""
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="hxref-demo-"))
    work.mkdir(parents=True, exist_ok=True)
    if (work / GAME).exists():
        raise InvalidInput("the folder already holds a demo game; choose an empty --keep folder", code="E502",
                           file=str(work / GAME))
    for f in src.parent.iterdir():
        if f.is_file() and f.suffix == ".yaml" and f.name != "demo.yaml":
            shutil.copy(f, work / f.name)
    return work


def _new_args(man: dict) -> list[str]:
    """The ``hxref new`` command line that makes the manifest's game: system, scenario, mode, label,
    time, nonce, the data files it pins, policy, the sides' keys and the umpire's."""
    return ["new", GAME, "--system", man["system"], "--scenario", man["scenario"], "--mode", man["mode"],
            "--game-id", man["game_id"], "--created", man["created"],
            *(["--nonce", man["nonce"]] if man.get("nonce") else []),
            # the data the demo was made with, so a chart published since does not unmake it
            *(["--charts-from", man["charts_from"]] if man.get("charts_from") else []),
            *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in (man.get("policy") or {}).items()), []),
            *sum((["--side", f"{s}={k}"] for s, k in man["keys"].items()), []),
            *(["--umpire", man["umpire"]] if man.get("umpire") else [])]


def _play_step(main: click.Command, step: dict, umpire_key: str | None, fmt: str) -> None:
    """One step of the manifest: say a line, or run the command it names (submit, resolve, report, audit)."""
    if "say" in step:
        click.secho("# " + step["say"], fg="yellow")
    elif "submit" in step:
        _hxref(main, ["submit", GAME, *step["submit"]])
    elif "resolve" in step:
        _hxref(main, ["resolve", GAME] + (["--key", umpire_key] if umpire_key else []))
    elif "report" in step:
        who = step["report"]
        args = ["report", GAME] + ([] if who == "public" else ["--side", who])
        _hxref(main, args + (["--format", fmt] if fmt != "rich" else []))
    elif "audit" in step:
        _hxref(main, ["audit", GAME])


def _write_reports(main: click.Command, man: dict) -> None:
    """The public report and each side's, as Markdown and HTML files (for e-mail), beside the game."""
    for who in ["public", *man["keys"]]:
        for ext in ("md", "html"):
            args = ["report", GAME, "--format", ext, "-o", f"report-{who}.{ext}"]
            main.main(args + ([] if who == "public" else ["--side", who]), prog_name="hxref",
                      standalone_mode=False)
