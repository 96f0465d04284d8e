"""Hex Duel: a small hex-and-counter game, shipped inside the tests and built from the kit alone.

It proves that a new map game is one package (``info.py``, ``system.py`` and its rules modules,
its data folder ``games/`` with a map, terrain types, a results table and a case book) plus one
registry line: ``tests/conformance/conftest.py`` registers it as ``hex-duel`` and the whole
conformance suite runs over it unchanged.  The rules are in :mod:`.system`.
"""
