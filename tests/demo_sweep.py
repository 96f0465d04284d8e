"""Shared by the end-to-end tests that sweep a shipped game's reports for the other side's secrets."""
from __future__ import annotations

import io
import re

from hxref.report import turn


def report_formats(eng, audience, rep=None) -> dict[str, str]:
    """The report of ``audience`` in every format, as `hxref report --format ...` makes them: rich,
    and text from one recording console (as :func:`hxref.report.turn.to_text`), html from ``to_html``."""
    rep = rep or turn.build(eng, audience)
    c = _console(rep)
    return {"rich": c.file.getvalue(), "text": c.export_text(styles=False, clear=False),
            "html": turn.render(rep, "html"),
            "md": turn.render(rep, "md"), "json": turn.render(rep, "json")}


def report_text(eng, audience, rep=None) -> str:
    """The text of :func:`report_formats` alone (a golden playthrough keeps no other format)."""
    return _console(rep or turn.build(eng, audience)).export_text(styles=False, clear=False)


def _console(rep):
    """The recording console with ``rep`` printed on it."""
    from rich.console import Console

    c = Console(record=True, width=turn.WIDTH, file=io.StringIO(), color_system="truecolor", force_terminal=True,
                legacy_windows=False)
    c.print(turn.renderables(rep))
    return c


def leaks(text: str, words: list[str]) -> list[str]:
    """Each of ``words`` found in ``text`` as a whole word (ids like ``cs-4`` count whole)."""
    return sorted({w for w in words if re.search(r"(?<![\w-])" + re.escape(w) + r"(?![\w-])", text)})
