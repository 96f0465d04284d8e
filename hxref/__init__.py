"""hxref: a referee for wargames played by e-mail, umpired, or solo.

The command line lives in :mod:`hxref.cli`; everything else is a library the
command line calls.  Heavy modules are imported lazily so that
``hxref --version`` and ``hxref status`` start fast.
"""

__version__ = "0.1.0"
