"""The registry of game systems: name -> the object implementing :mod:`hxref.systems.base`.

Systems are imported only when used, so ``hxref --version`` stays fast.
"""
from __future__ import annotations

from importlib import import_module

from ..errors import InvalidInput

#: name -> "module:attribute"; a new system adds one line here and its folders.
REGISTRY: dict[str, str] = {
    "heartland": "hxref.systems.heartland:SYSTEM",
    "salem-church": "hxref.systems.salem_church:SYSTEM",
    "kgp": "hxref.systems.kgp.system:SYSTEM",
    "acw-minis": "hxref.systems.acw_minis.system:SYSTEM",
}


def names() -> list[str]:
    return sorted(REGISTRY)


def get(name: str):
    """The system called ``name`` (one of :func:`names`)."""
    try:
        module, attr = REGISTRY[name].split(":")
    except KeyError:
        raise InvalidInput(f"unknown game system {name!r}; known: {', '.join(names())}", code="E503") from None
    return getattr(import_module(module), attr)
