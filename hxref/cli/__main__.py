"""``python -m hxref.cli``: the command line, as the ``hxref`` command runs it."""
from . import main

main()
