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


#: the random play of a system is cut into this many parts, each the next share of its decisions
#: (``random_part``), and the demo's steps into this many parts, every so-many-th step (``demo_part``),
#: so that no test waits long for its share and pytest-xdist spreads the parts over the cores
RANDOM_PARTS = 6
DEMO_PARTS = 6


def pytest_generate_tests(metafunc):
    if "system" not in metafunc.fixturenames:
        return
    with registered():
        names = registry.names()
    for part, parts in (("random_part", RANDOM_PARTS), ("demo_part", DEMO_PARTS)):
        if part in metafunc.fixturenames:
            metafunc.parametrize(("system", part), [(n, k) for n in names for k in range(parts)],
                                 ids=[f"{n}-{k + 1}of{parts}" for n in names for k in range(parts)], scope="module")
            return
    metafunc.parametrize("system", names, scope="module")


@pytest.fixture(scope="package", autouse=True)
def _duel_registered():
    with registered():
        yield
