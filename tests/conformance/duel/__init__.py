"""Dice Duel: the smallest game system, shipped inside the tests.

It proves that a new system is one package (``info.py``, ``system.py``, its data folder) plus one
registry line: ``tests/conformance/conftest.py`` registers it as ``dice-duel`` and the whole
conformance suite runs over it unchanged.  The rules are in :mod:`.system`.
"""
