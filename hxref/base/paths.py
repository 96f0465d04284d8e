"""Where the shipped data lives: ``games/`` (charts, maps, scenarios) and
``orders/`` (signed example order files).

In a checkout they are the top-level folders; after ``pip install .`` they are
package data under ``hxref.data``.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]


def _locate(name: str) -> Path:
    in_repo = _REPO / name
    if in_repo.is_dir():
        return in_repo
    from importlib.util import find_spec

    spec = find_spec(f"hxref.data.{name}")  # a namespace package: data only, no __init__.py
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"hxref's {name}/ data folder is not installed")
    return Path(list(spec.submodule_search_locations)[0])


@cache
def games_dir() -> Path:
    """The folder holding one data folder per game system."""
    return _locate("games")


@cache
def orders_dir() -> Path:
    """The folder holding the shipped example order files."""
    return _locate("orders")
