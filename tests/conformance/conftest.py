"""The conformance suite runs over every registered system, and over Dice Duel, the tiny system
shipped in ``tests/conformance/duel/``: registering it is the one line a new system needs."""
from __future__ import annotations

import contextlib

import pytest

from hxref.kit import registry

#: the systems shipped with the tests, registered for this suite only
EXTRA = {"dice-duel": "tests.conformance.duel"}


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
