"""The game systems by name.

Each line of :data:`REGISTRY` names a system's package; the package holds ``info.py``
(``INFO``, a :class:`~hxref.kit.protocol.SystemInfo`, cheap to import) and ``system.py``
(``SYSTEM``, the rules).  A new system is its package, its data folder and one line here; a
system shipped outside hxref calls :func:`register` (a test does so for its own tiny system).
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

from ..base.errors import InvalidInput
from .protocol import GameSystem, SystemInfo

#: name -> the system's package
REGISTRY: dict[str, str] = {
    "heartland": "hxref.systems.heartland",
    "salem-church": "hxref.systems.salem_church",
    "kgp": "hxref.systems.kgp",
    "acw-minis": "hxref.systems.acw_minis",
}


def names() -> list[str]:
    """The registered systems, sorted."""
    return sorted(REGISTRY)


def _package(name: str) -> str:
    try:
        return REGISTRY[name]
    except KeyError:
        raise InvalidInput(f"unknown game system {name!r}; known: {', '.join(names())}", code="E503") from None


def info(name: str) -> SystemInfo:
    """The metadata of the system called ``name``, without importing its rules."""
    found = import_module(_package(name) + ".info").INFO
    if not isinstance(found, SystemInfo) or found.name != name:
        raise TypeError(f"{_package(name)}.info.INFO is not the SystemInfo of {name!r}")
    return found


def infos() -> list[SystemInfo]:
    """Every registered system's metadata, by name."""
    return [info(n) for n in names()]


def get(name: str) -> GameSystem[Any]:
    """The system called ``name`` (one of :func:`names`)."""
    found = import_module(_package(name) + ".system").SYSTEM
    if not isinstance(found, GameSystem):
        raise TypeError(f"{_package(name)}.system.SYSTEM is not a GameSystem (hxref.kit.protocol)")
    return found


def default() -> str:
    """The system ``hxref demo`` plays when none is named: the first line of :data:`REGISTRY`."""
    return next(iter(REGISTRY))


def register(name: str, package: str) -> None:
    """Add a system shipped outside hxref (its package holds ``info.py`` and ``system.py``)."""
    REGISTRY[name] = package


def unregister(name: str) -> None:
    REGISTRY.pop(name, None)
