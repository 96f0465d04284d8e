"""The command line: parse, call the library, render.  Nothing else.

The root group is :mod:`hxref.cli.root`; each command family is a module of its own, imported
only when its command runs (:attr:`hxref.cli.root.Main.GROUPS`).
"""
from .root import Main, main, report

__all__ = ["Main", "main", "report"]
