"""``python -m hxref.cli``: the same as the ``hxref`` command."""
from .root import main

main()
