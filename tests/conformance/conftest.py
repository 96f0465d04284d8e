"""The conformance suite runs over every registered system, and over Hex Duel, the small hex game
shipped in ``tests/conformance/duel/``: registering it is the one line a new system needs (and one
more for its random player)."""
from __future__ import annotations

import contextlib

import pytest

from hxref.kit import registry

from tests.conformance import players
from tests.conformance.duel.player import random_orders

#: the systems shipped with the tests, registered for this suite only
EXTRA = {"hex-duel": "tests.conformance.duel"}
players.PLAYERS["hex-duel"] = random_orders


@contextlib.contextmanager
def registered():
    added = [n for n in EXTRA if n not in registry.REGISTRY]
    for name in added:
        registry.register(name, EXTRA[name])
    try:
        yield
    finally:
        for name in added:
            registry.unregister(name)


def pytest_generate_tests(metafunc):
    if "system" in metafunc.fixturenames:
        with registered():
            metafunc.parametrize("system", registry.names(), scope="module")


@pytest.fixture(scope="package", autouse=True)
def _duel_registered():
    with registered():
        yield
