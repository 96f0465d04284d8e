"""A shipped demo played up to a point: the game as its players hold it mid-game, for the mail tests.

:func:`play_until` copies a system's demo folder (its keys, signed files and pinned data) and runs
the manifest's steps (``hxref submit`` and ``hxref resolve``, as ``hxref demo`` runs them) until the
given number of resolutions; the game then awaits what the next steps would send.
"""
from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from hxref.cli import demo
from hxref.base import yamlio
from hxref.cli import main


def play_until(system: str, folder: Path, resolves: int, scenario: str | None = None) -> Path:
    """The game file of ``system``'s demo in ``folder`` after its first ``resolves`` resolutions."""
    import shutil

    src = demo.manifest_path(system, scenario)
    man = yamlio.to_plain(yamlio.load_data(src))
    work = demo._work_folder(src, str(folder))
    umpire_key = man.get("umpire_key")
    shutil.copytree(src.parent / "keys", work / "keys", dirs_exist_ok=True,
                    ignore=lambda d, names: [n for n in names if not n.endswith(".pub")
                                             and f"keys/{n}" != umpire_key])
    cwd = os.getcwd()
    os.chdir(work)
    old = os.environ.get("HXREF_NOW")
    os.environ["HXREF_NOW"] = man["created"]
    done = 0
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            demo._hxref(main, demo._new_args(man))
            for step in man["steps"]:
                if "submit" in step or "resolve" in step:
                    demo._play_step(main, step, umpire_key, "text")
                done += "resolve" in step
                if done >= resolves:
                    break
    finally:
        os.chdir(cwd)
        if old is None:
            os.environ.pop("HXREF_NOW", None)
        else:
            os.environ["HXREF_NOW"] = old
    return work / demo.GAME
