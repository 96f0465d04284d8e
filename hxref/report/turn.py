"""The turn report: one model, several renderings.

:func:`build` makes a :class:`Report` for an audience -- ``None`` (the public
report), a side, or the umpire -- from the game system's ``view`` for that
audience and the core's facts (head hash, what is awaited, dice rolled).  A
side's report adds its own secrets: its sealed choices and the reveal files
it keeps locally.  :func:`render` turns the model into rich output, plain
text, Markdown, HTML or JSON; text and HTML come from a recording rich
``Console``, so the e-mail copy says exactly what the terminal shows.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..kit.events import restricted, shown  # noqa: F401  (shown: read here by the reports and their tests)
from ..systems.base import Section

FORMATS = ("rich", "text", "md", "html", "json")
#: the text report's width in a file or a mail, and the narrowest it is laid out at
WIDTH = 100
MIN_WIDTH = 40


@dataclass
class Report:
    title: str
    audience: str
    header: list[tuple[str, str]]
    sections: list[Section] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)


def _event_line(ev: dict, audience: str | None, mode: str) -> str:
    d = ev["data"]
    text = d.get("text")
    t = d.get("type")
    if t == "bids.revealed":
        b = d["bids"]
        text = "bids revealed: " + ", ".join(f"{s} {'Pass' if v == 0 else v}" for s, v in b.items())
    elif t == "impulse":
        text = (f"impulse {d['n']}: {d['side']} at operation level {d['level']} ({d['how']}); "
                f"leader pay {d['pay']} WEP")
    line = f"{text} [rule {d['rule']}]" if d.get("rule") not in (None, "-") else str(text)
    if audience == "umpire" and mode == "umpired" and restricted(d):
        line += f" (told to {', '.join(d['visible_to']) or 'no side'} only)"     # the umpire reads every copy
    return line


def _local_reveals(folder: Path, game: str, side: str) -> dict[str, tuple[Path, dict]]:
    """Reveal files this side keeps next to the game file: decision -> (path, choice)."""
    from .. import yamlio

    found: dict[str, tuple[Path, dict]] = {}
    for path in sorted(folder.glob(f"{side}*reveal*.yaml")):
        try:
            data = yamlio.fast_load(path.read_text(encoding="utf-8"))
        except Exception:
            continue
        if isinstance(data, dict) and data.get("game") == game and data.get("side") == side \
                and data.get("kind") == "reveal":
            found[str(data.get("decision"))] = (path, data.get("choice") or {})
    return found


def build(engine, audience: str | None = None, since: int | None = None) -> Report:
    """The report for ``audience``: None (public), a side name, or ``"umpire"``; it tells every
    resolution after event ``since`` (default: what the reader has provably seen, see
    :mod:`hxref.report.story`)."""
    from . import story, tallies

    h = engine.h
    meta = h["meta"]
    mode = meta["mode"]
    full = audience == "umpire"
    view = engine.system.view(h["state"], None if full else audience, "open" if full else mode) \
        if h.get("phase") != "setup" else {}
    rep = Report(title=meta.get("title", meta["scenario"]), audience=audience or "public",
                 header=_header(engine, audience, mode))
    waiting = engine.waiting_for()
    rep.sections.append(_awaited(engine, waiting))
    sealed, mine = _sealed(engine, audience)
    if sealed.rows:
        rep.sections.append(sealed)
    if mine is not None and mine.lines:
        rep.sections.append(mine)
    if view:        # the rules' own sections
        rep.sections.extend(engine.system.report(view))
    faces, claims = tallies.whole_game(engine, audience)
    protocol = _claims(claims)
    if protocol.lines:
        rep.sections.append(protocol)
    start = story.default_since(engine, audience) if since is None else since
    told, new = story.since_resolutions(engine.gf.log, start)
    from ..dice_stats import summary_of

    # an umpired game's players hold no game file: their reports name no command that reads it
    summary = summary_of(faces, audience, engine.gf.path.name if mode != "umpired" or audience == "umpire" else None)
    rep.sections.extend(_resolution_sections(told, start, audience, mode, summary))
    last = told[-1].events if told else []
    rep.facts = {
        "game": meta["game"], "system": meta["system"], "scenario": meta["scenario"], "mode": mode,
        "audience": audience or "public", "head": engine.gf.head, "events": len(engine.gf.log),
        "phase": h.get("phase"), "awaiting": waiting, "view": view,
        "last_resolution": [ev["data"] for ev in last if ev["kind"] in ("rules", "die")
                            and shown(ev["data"], audience, mode)] if last else [],
        "since": start,
        "resolutions": [{"decision": r.decision, "event": r.seq,
                         "events": [ev["data"] for ev in r.events[1:] if shown(ev["data"], audience, mode)]}
                        for r in told] if new else [],
    }
    if mine is not None and mine.lines:
        rep.facts["secrets"] = mine.lines
    return rep


def _for_whom(audience: str | None, mode: str) -> str:
    """The header's ``for`` line: whose report, and what in it is secret."""
    if audience is None:
        return "public report"
    if audience == "umpire":
        return "umpire's report (everything)"
    if mode == "umpired":
        return f"{audience}'s report (secret: {audience} only)"
    return f"{audience}'s report (its sealed choices stay its own; in {mode} mode nothing else is secret)"


def _header(engine, audience: str | None, mode: str) -> list[tuple[str, str]]:
    from ..kit import published

    meta = engine.h["meta"]
    header = [
        ("game", meta["game"]),
        ("system", f"{engine.system.title} -- {meta['scenario']}"),
        ("mode", mode),
        ("for", _for_whom(audience, mode)),
        ("head", f"{engine.gf.head} (event {len(engine.gf.log)})"),
        ("identity", engine.identity),
        ("keys", ", ".join(f"{n} {p['fingerprint']}" for n, p in engine.participants.items() if p.get("fingerprint"))),
    ]
    differ = published.differences(engine)
    if differ:      # a chart the creator slipped in, or one replaced since: each reader should know
        header.append(("charts", "played with charts that differ from the published ones: " + "; ".join(differ)))
    return header


def _awaited(engine, waiting: list[dict]) -> Section:
    """What is awaited: each decision's owed answers, or why nothing is."""
    aw = Section("Awaited", columns=["decision", "side", "owes", "rule", "what"])
    for w in waiting:
        for s, what in w["owed"].items():
            aw.rows.append([w["decision"], s, what, w["rule"], w["prompt"]])
    if engine.finished:
        aw.lines.append("Nothing: the game is over.")
    elif not waiting:
        aw.lines.append("Nothing.")
    elif any(w["ready"] for w in waiting):
        aw.lines.append("All answers are in: run `hxref resolve`.")
    return aw


def _sealed(engine, audience: str | None) -> tuple[Section, Section | None]:
    """Sealed choices: the public facts (who committed, what is revealed), and for a side's report
    its own secrets (None in the public and the umpire's report)."""
    h = engine.h
    full = audience == "umpire"
    sealed = Section("Sealed choices", columns=["decision", "side", "commitment", "state"])
    side = audience if audience and not full else None
    mine = Section(f"Your secrets ({side} only)", secret=True) if side else None
    local = _local_reveals(engine.gf.path.parent, h["meta"]["game"], side) if side else {}
    for dec_id, pend in h.get("pending", {}).items():
        for s, a in pend.get("answers", {}).items():
            if "commitment" not in a:
                continue
            state = "revealed" if "choice" in a else "sealed"
            sealed.rows.append([dec_id, s, a["commitment"][:16] + "...", state])
            if mine is not None and s == audience and "choice" not in a:
                mine.lines.append(_own_sealed_line(dec_id, local))
            if full and "choice" not in a:
                sealed.rows[-1][3] = "sealed (umpire cannot see it either)"
    return sealed, mine


def _own_sealed_line(dec_id: str, local: dict[str, tuple[Path, dict]]) -> str:
    if dec_id in local:
        path, choice = local[dec_id]
        return (f"{dec_id}: your sealed choice is {json.dumps(choice)}; the reveal "
                f"file {path.name} is kept here until every side has committed")
    return f"{dec_id}: you have committed; your reveal file was not found next to the game file"


def _claims(claims: list[tuple[int, str]]) -> Section:
    """Every signed claim of a missed deadline and every withdrawal by consent, the whole game
    long: each side must be able to see and dispute them."""
    protocol = Section("Claims and withdrawals (signed)")
    protocol.lines.extend(f"event {seq}: {text}" for seq, text in claims)
    return protocol


def _resolution_sections(told: list, since: int, audience: str | None, mode: str,
                         dice_summary: str | None = None) -> list[Section]:
    """What happened since event ``since``, resolution by resolution, and which dice were rolled
    (as far as ``audience`` sees); when nothing is new, the last resolution."""
    out = []
    for n, r in enumerate(told, 1):
        if len(told) == 1:
            title = f"Last resolution: {r.decision}"
        else:
            title = f"Since event {since}, resolution {n} of {len(told)}: {r.decision} (event {r.seq})"
        happened = Section(title)
        for ev in r.events[1:]:
            if ev["kind"] == "rules" and shown(ev["data"], audience, mode):
                happened.lines.append(_event_line(ev, audience, mode))
        out.append(happened)
    several = len(told) > 1
    dsec = Section("Dice (verifiable: `hxref audit` re-derives every one)",
                   columns=(["decision"] if several else []) + ["purpose", "rolled by", "faces"])
    for r in told:
        for ev in r.events:
            d = ev["data"]
            if ev["kind"] == "die" and shown(d, audience, mode):
                dsec.rows.append(([r.decision] if several else [])
                                 + [d["purpose"], d.get("by") or "-", " ".join(map(str, d["faces"]))])
    if dice_summary:        # the whole game's dice as far as this reader sees them
        dsec.lines.append(dice_summary)
    if dsec.rows or dsec.lines:
        out.append(dsec)
    return out


# --- rendering ---------------------------------------------------------------------------------

def renderables(rep: Report):
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .fit import Col, FitPanel, FitTable

    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold", no_wrap=True)
    head.add_column(overflow="fold")        # a word wraps whole; only a digest wider than the room folds
    for k, v in rep.header:
        head.add_row(k, Text(v))
    parts: list = [FitPanel(head, Text(f"hxref -- {rep.title}", style="bold"), box=box.DOUBLE, expand=True)]
    for s in rep.sections:
        style = "bold red" if s.secret else "bold cyan"
        parts.append(Text(("SECRET -- " if s.secret else "") + s.title, style=style))
        if s.rows:      # laid out when printed, to the room there is: no name is cut (see .fit)
            parts.append(FitTable([Col(c) for c in s.columns], [list(r) for r in s.rows],
                                  box=box.SIMPLE_HEAVY, show_edge=False, pad_edge=False, collapse_padding=True))
        if s.lines:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(width=2, justify="right")
            grid.add_column(ratio=1, overflow="fold")
            for line in s.lines:
                grid.add_row("-", Text(line))   # Text: never parse report content as markup
            parts.append(grid)
        parts.append(Text(""))
    parts.append(Text(f"Keep the head hash {rep.facts.get('head', '')[:16]}... to prove this history later.",
                      style="dim"))
    return Group(*parts)


def text_width(width: int | None = None, to_file: bool = False) -> int:
    """The width ``hxref report`` lays the text out at: ``width`` when given; in a file :data:`WIDTH`;
    printed, the terminal's, or ``COLUMNS`` when set, else :data:`WIDTH` (piped to a mail or a pager)."""
    import os
    import shutil
    import sys

    if width:
        return max(width, MIN_WIDTH)
    if to_file:
        return WIDTH
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(int(columns), MIN_WIDTH)
    if sys.stdout.isatty():
        return max(shutil.get_terminal_size((WIDTH, 24)).columns, MIN_WIDTH)
    return WIDTH


def _recording_console(width: int | None = None):
    from rich.console import Console
    import io

    return Console(record=True, width=max(width, MIN_WIDTH) if width else WIDTH, file=io.StringIO(),
                   color_system="truecolor", force_terminal=True, legacy_windows=False)


def to_text(rep: Report, width: int | None = None) -> str:
    """The report as plain text ``width`` columns wide (None: :data:`WIDTH`, the same on every
    machine, for mails and golden files; the command line picks it with :func:`text_width`)."""
    c = _recording_console(width)
    c.print(renderables(rep))
    return c.export_text(styles=False)


def to_html(rep: Report) -> str:
    from .html import report_html

    return report_html(rep)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(rep: Report) -> str:
    out = [f"# hxref -- {rep.title}", ""]
    for k, v in rep.header:
        out.append(f"- **{k}**: {v}")
    out.append("")
    for s in rep.sections:
        out.append(f"## {'SECRET -- ' if s.secret else ''}{s.title}")
        out.append("")
        if s.rows:
            out.append("| " + " | ".join(map(_md_cell, s.columns)) + " |")
            out.append("|" + "---|" * len(s.columns))
            for r in s.rows:
                out.append("| " + " | ".join(map(_md_cell, r)) + " |")
            out.append("")
        for line in s.lines:
            out.append(f"- {line}")
        if s.lines:
            out.append("")
    out.append(f"Keep the head hash `{rep.facts.get('head', '')}` to prove this history later.")
    return "\n".join(out) + "\n"


def to_json(rep: Report) -> str:
    return json.dumps(rep.facts, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render(rep: Report, fmt: str, width: int | None = None) -> str:
    """The report as text in ``fmt`` (one of :data:`FORMATS` except ``rich``); ``width`` lays out
    the ``text`` format (None: :data:`WIDTH`)."""
    if fmt == "text":
        return to_text(rep, width)
    return {"md": to_markdown, "html": to_html, "json": to_json}[fmt](rep)
