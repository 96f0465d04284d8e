"""Fixtures the Salem Church tests share: the shipped map and scenario, read once per module."""
from __future__ import annotations

from pathlib import Path

import pytest

from hxref.geometry.mapfile import load_map
from hxref.base.yamlio import load_data, to_plain

GAME = Path(__file__).resolve().parents[2] / "games" / "salem_church"


@pytest.fixture(scope="module")
def m():
    return load_map(GAME / "maps" / "salem-church.yaml")


@pytest.fixture(scope="module")
def scenario():
    return to_plain(load_data(GAME / "scenarios" / "salem-church.yaml"))
