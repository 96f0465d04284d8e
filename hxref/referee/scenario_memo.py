"""The published-scenario comparison, remembered between commands.

Every report and ``hxref status`` says when a game is played with a scenario that differs from
the one this hxref publishes (:func:`hxref.referee.published.scenario_differences`).  Reading the
published scenario imports the system's rules, which costs a command that only reads the game's
metadata most of its time.  So the answer is kept under ``$HXREF_HOME/scenarios/``, keyed by
everything it depends on: this hxref's version, the system, the scenario's name, the game's own
copy of the scenario, and the size and modification time of every file of the system's data
folder and of its rules package.  Any change to one of them gives a new key, so a stale answer
is never read; a cache that cannot be written or read is simply not used.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from ..base.canon import canonical_json, sha256_hex


def _tree(root: Path | None) -> list[list[Any]]:
    """(relative path, size, mtime) of every file under ``root``, sorted."""
    if root is None or not root.is_dir():
        return []
    out: list[list[Any]] = []
    top = str(root)
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, top)     # plain strings: a Path a file costs most of a command's walk
        for name in sorted(filenames):
            with contextlib.suppress(OSError):
                st = os.stat(os.path.join(dirpath, name))
                out.append([name if rel == "." else os.path.join(rel, name), st.st_size, st.st_mtime_ns])
    return out


def _package_dir(system: str) -> Path | None:
    from ..kit.registry import REGISTRY

    try:
        spec = find_spec(REGISTRY[system])
    except (KeyError, ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else None


def key(system: str, name: str, scenario: Any, data_folder: Path, what: str = "scenario") -> str:
    """The memo's key: ``what`` is asked (a question of its own: no other question's answer is
    ever read for it), and everything the answer depends on."""
    from .. import __version__

    return sha256_hex(b"hxref-scenario-memo/1\x00" + canonical_json(
        [__version__, what, system, name, scenario, _tree(data_folder), _tree(_package_dir(system))]))


def _path(k: str) -> Path:
    from ..base.home import home

    return home() / "scenarios" / f"{k[:40]}.json"


def remembered(system: str, name: str, scenario: Any, data_folder: Path,
               compute: Callable[[], list[str]], what: str = "scenario") -> list[str]:
    """``compute()``, or the answer it gave last time for exactly these inputs."""
    try:
        k = key(system, name, scenario, data_folder, what)
    except (TypeError, ValueError):     # a scenario that is not plain data: compare afresh
        return compute()
    from ..base.home import read_record, write_record

    path = _path(k)
    got = read_record(path)     # this user's own record only: another account's could hide a difference
    if isinstance(got, dict) and got.get("key") == k and isinstance(got.get("lines"), list) \
            and all(isinstance(x, str) for x in got["lines"]):
        return list(got["lines"])
    lines = compute()
    write_record(path, {"key": k, "lines": lines})
    return lines

