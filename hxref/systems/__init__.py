"""The game systems, one package each (``info.py`` and ``system.py``); the registry of their
names is :mod:`hxref.kit.registry`."""
from __future__ import annotations

from ..kit.registry import REGISTRY, get, info, infos, names, register  # noqa: F401  (the registry's calls)
