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
from collections.abc import Sequence
from typing import Any

from ..kit.events import restricted, shown  # noqa: F401  (shown: read here by the reports and their tests)
from ..kit.protocol import Section

FORMATS = ("rich", "text", "md", "html", "json")
#: the text report's width in a file, and the narrowest it is laid out at
WIDTH = 100
MIN_WIDTH = 40
#: the width of a mail's text part: an 80-column mail client shows every line whole
MAIL_WIDTH = 78


@dataclass
class Report:
    """A report in the order a reader wants it: what he owes (:attr:`move`), the turn in brief,
    the details (:attr:`sections`: the rules' sections, then the story of the turn and its dice),
    and a footer to verify it by (:attr:`header`: game, head, identity, keys; :attr:`notices`:
    the stand-in charts).  A mail adds what it carries (:attr:`attached`), its map (:attr:`map_note`)
    and the receipts of the files it acknowledges (:attr:`receipts`, in the footer)."""

    title: str
    audience: str
    header: list[tuple[str, str]]
    sections: list[Section] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    #: the headline (what the reader owes, by when; or whom everyone waits for), then the commands
    move: list[str] = field(default_factory=list)
    brief: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    #: a warning every reader must see before the turn (charts that differ from the published ones)
    warnings: list[str] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)
    map_note: str | None = None
    receipts: list[str] = field(default_factory=list)


def event_line(ev: dict, audience: str | None, mode: str, sides: Sequence[str] = ()) -> str:
    """One event as the reports, `hxref resolve` and `hxref play` print it (``sides``: the game's, in its order)."""
    d = ev["data"]
    text = d.get("text")
    t = d.get("type")
    if t == "bids.revealed":        # the sides in the game's order (the logged mapping's keys are sorted)
        b = d["bids"]
        order = [s for s in sides if s in b] + sorted(s for s in b if s not in sides)
        text = "bids revealed: " + ", ".join(f"{s} {'Pass' if b[s] == 0 else b[s]}" for s in order)
    elif t == "impulse":
        text = (f"impulse {d['n']}: {d['side']} at operation level {d['level']} ({d['how']}); "
                f"leader pay {d['pay']} WEP")
    line = f"{text} [rule {d['rule']}]" if d.get("rule") not in (None, "-") else str(text)
    if audience == "umpire" and mode == "umpired" and restricted(d):
        line += f" (told to {', '.join(d['visible_to']) or 'no side'} only)"     # the umpire reads every copy
    return line


def own_lines(engine, side: str) -> list[str]:
    """What only ``side`` saw since the head its newest file names (a game with hidden armies: its
    own copy's journal), one line an event or roll; none elsewhere."""
    from .story import default_since

    return [f"{e['purpose']}: rolled {', '.join(map(str, e['faces']))}" if "faces" in e and "text" not in e
            else event_line({"data": e}, side, engine.mode)
            for e in engine.own_events(side, default_since(engine, side))]


def _local_reveals(folder: Path, game: str, side: str) -> dict[str, tuple[Path, dict]]:
    """Reveal files this side keeps next to the game file: decision -> (path, choice)."""
    from ..base import yamlio

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


def build(engine, audience: str | None = None, since: int | None = None, zone: str | None = None) -> Report:
    """The report for ``audience``: None (public), a side name, or ``"umpire"``; it tells every
    resolution after event ``since`` (default: what the reader has provably seen, see
    :mod:`hxref.report.story`); deadlines in the time ``zone`` (None: UTC)."""
    from . import story, tallies

    h = engine.h
    meta = h["meta"]
    mode = meta["mode"]
    full = audience == "umpire"
    view = engine.system.view(engine.state, None if full else audience, "open" if full else engine.view_mode) \
        if h.get("phase") != "setup" else {}
    header, warnings = _header(engine, audience, mode)
    rep = Report(title=meta.get("title", meta["scenario"]), audience=audience or "public", header=header,
                 warnings=warnings)
    waiting = engine.waiting_for()
    rep.move = move_lines(engine, audience, zone)
    sealed, mine = _sealed(engine, audience)
    if sealed.rows:
        rep.sections.append(sealed)
    if mine is not None and mine.lines:
        rep.sections.append(mine)
    if view:        # the rules' own sections; a stand-in chart's notice goes to the footer
        for sec in engine.system.report(view):
            if _is_notice(sec):
                rep.notices.extend(sec.lines)
            else:
                rep.sections.append(sec)
    faces, claims = tallies.whole_game(engine, audience)
    protocol = _claims(claims)
    if protocol.lines:
        rep.sections.append(protocol)
    start = story.default_since(engine, audience) if since is None else since
    # a side's own copy of a game with hidden armies tells it what it alone sees too (its journal)
    told, new = story.since_resolutions(engine.told_log() if audience not in (None, "umpire") else engine.gf.log,
                                        start)
    from .dice_stats import summary_of

    # an umpired game's players hold no game file: their reports name no command that reads it
    summary = summary_of(faces, audience, engine.gf.path.name if mode != "umpired" or audience == "umpire" else None)
    rep.sections.extend(_resolution_sections(told, start, audience, mode, summary, engine.system.sides))
    seen = [ev["data"] for r in told for ev in r.events[1:]
            if ev["kind"] in ("rules", "die") and shown(ev["data"], audience, mode)] if new else []
    if view and seen:
        rep.brief = list(engine.system.brief(seen, view, None if full else audience))
    last = told[-1].events if told else []
    rep.facts = {
        "game": meta["game"], "system": meta["system"], "scenario": meta["scenario"], "mode": mode,
        "audience": audience or "public", "head": engine.gf.head, "events": len(engine.gf.log),
        "phase": h.get("phase"), "awaiting": waiting, "view": view, "move": rep.move, "brief": rep.brief,
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


def _is_notice(sec: Section) -> bool:
    """A section that only says which charts are stand-ins: it belongs in the footer."""
    return not sec.rows and bool(sec.lines) and all("stand-in" in line.lower() for line in sec.lines)


def _for_whom(audience: str | None, mode: str) -> str:
    """The footer's ``for`` line: whose report, and what in it is secret."""
    if audience is None:
        return "public report"
    if audience == "umpire":
        return "umpire's report (everything)"
    if mode == "umpired":
        return f"{audience}'s report (secret: {audience} only)"
    if mode == "fog":
        return f"{audience}'s report (secret: {audience}'s army stays on this machine until the proof; do not send it)"
    return f"{audience}'s report (its sealed choices stay its own; in {mode} mode nothing else is secret)"


def _header(engine, audience: str | None, mode: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The footer's lines to verify the report by, and the warnings every reader must see first."""
    from ..referee import published

    meta = engine.h["meta"]
    header = [
        ("game", meta["game"]),
        ("system", f"{engine.title} -- {meta['scenario']}"),
        ("mode", mode),
        ("for", _for_whom(audience, mode)),
        ("head", f"{engine.gf.head} (event {len(engine.gf.log)})"),
        ("identity", engine.identity),
        ("keys", ", ".join(f"{n} {p['fingerprint']}" for n, p in engine.participants.items() if p.get("fingerprint"))),
    ]
    differ = published.differences(engine)
    warnings = []
    if differ:      # a chart the creator slipped in, or one replaced since: each reader should know, first
        warnings.append("charts: played with charts that differ from the published ones: " + "; ".join(differ))
    return header, warnings


# --- what the reader owes, by when ------------------------------------------------------------------

def _owes_now(what: str) -> bool:
    """Whether an entry of ``waiting_for()["owed"]`` can be sent now (not done, not waiting for the
    others' files)."""
    return what not in ("done", "missed (claimed)") and not what.startswith(("wait", "link (after"))


def decision_words(w: dict) -> str:
    """A waiting decision in a few words: its prompt up to the first colon (and, after a head as
    short as "turn 1", up to the next comma), the text in brackets left out, at most about 48
    characters, cut at a word."""
    text = " ".join(str(w.get("prompt") or w["decision"]).split())
    head, _, rest = text.partition(": ")
    words = (head + (", " + rest.split(",")[0] if rest and len(head) < 12 else "")).split(" (")[0].split("; ")[0]
    if len(words) > 48:
        words = words[:48].rsplit(" ", 1)[0].rstrip(",;:") + " ..."
    return words


def headline(engine, audience: str | None, zone: str | None = None) -> tuple[str, str]:
    """(``move``, ``wait``, ``over`` or ``none``; the line): the reader's move with its one deadline,
    or whom the game waits for, or that it is over."""
    from .owed import deadline_text

    if engine.finished:
        text = engine.waiting_text()
        return "over", text[0].upper() + text[1:] + "."
    waiting = engine.waiting_for()
    if not waiting:
        return "none", "Nothing is awaited."
    reader = audience or ""
    mine = [w for w in waiting if _owes_now(w["owed"].get(reader, "done"))
            or (reader == "umpire" and w["ready"])]
    if mine:
        w = mine[0]
        due = deadline_text(engine, w, zone)
        more = f" (and {len(mine) - 1} more below)" if len(mine) > 1 else ""
        what = f"resolve {w['decision']}" if reader == "umpire" and w["ready"] else decision_words(w)
        return "move", f"Your move: {what}" + (f", {due}" if due else "") + more + "."
    w = waiting[0]
    due = deadline_text(engine, w, zone)
    owing = list(dict.fromkeys(p for w in waiting for p, what in w["owed"].items() if _owes_now(what)))
    if w["ready"] and not owing:
        return "wait", f"Waiting for the umpire to resolve {w['decision']}."
    who = ", ".join("the umpire" if p == "umpire" else p for p in owing) or "the decisions before it"
    return "wait", f"Waiting for {who}: {decision_words(w)}" + (f", {due}" if due else "") + "."


def move_lines(engine, audience: str | None, zone: str | None = None) -> list[str]:
    """The headline (:func:`headline`), then for each awaited decision its id and prompt and who
    owes what, with the exact command (:func:`hxref.report.owed.owed_lines`)."""
    from .owed import owed_lines

    _, line = headline(engine, audience, zone)
    out = [line]
    owed: dict[str, list[str]] = {}
    current = None
    for text in owed_lines(engine, audience or "", zone):
        if not text.startswith(" "):        # a decision's own line: its id, its deadline (given above)
            current = text.split(",")[0].rstrip(":")
            owed[current] = []
        elif current is not None:
            owed[current].append(text)
    waiting = engine.waiting_for()
    for w in waiting:
        lines = owed.get(w["decision"]) or []
        if not lines:
            continue
        out.append(f"{w['decision']}: {w['prompt']}" + (f" [rule {w['rule']}]" if w.get("rule") else ""))
        mine = [x for x in lines if audience and x.lstrip().startswith(f"{audience} (you):")]
        for x in mine:          # the reader's own command, on a line of its own to copy whole
            who, _, cmd = x.strip().partition(": hxref ")
            out.append(f"  {who}" + (":" if cmd else ""))
            if cmd:
                out.append(f"    hxref {cmd}")
        others = [x.strip().partition(": hxref ")[0] for x in lines if x not in mine]
        if others:              # the others' commands are theirs to read in their own reports
            out.append(("  also awaited: " if mine else "  awaited: ") + "; ".join(others))
    if any(w["ready"] for w in waiting) and not engine.finished:
        out.append("All answers are in: the next step is `hxref resolve`.")
    return out


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
                         dice_summary: str | None = None, sides: Sequence[str] = ()) -> list[Section]:
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
                happened.lines.append(event_line(ev, audience, mode, sides))
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

def whose(rep: Report) -> str:
    """Whose report it is, in a few words: the public report, the umpire's, or a side's."""
    return {"public": "public report", "umpire": "umpire's report"}.get(rep.audience, f"{rep.audience}'s report")


def footer_lines(rep: Report) -> list[str]:
    """The footer's sentences after its table: the stand-in charts, and why the head hash matters."""
    return [*rep.notices, f"Keep the head hash {rep.facts.get('head', '')[:16]}... to prove this history later."]


def renderables(rep: Report):
    """The report for a terminal (rich), in the order a reader wants it: the title, his move and
    its commands, the turn in brief, the map (in a mail), the details, and the footer to verify it by."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .fit import Col, FitTable

    def bullets(lines: list[str], style: str | None = None):
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=1)
        grid.add_column(ratio=1, overflow="fold")
        for line in lines:
            grid.add_row("-", Text(line, style=style or ""))   # Text: never parse report content as markup
        return grid

    def heading(title: str, style: str = "bold cyan"):
        return Text(title, style=style)

    parts: list = [Text(f"{rep.title} -- {whose(rep)}", style="bold")]
    parts += [Text(w, style="bold red") for w in rep.warnings]
    if rep.move:
        parts.append(Text(""))
        parts.append(Text(rep.move[0], style="bold yellow"))
        for line in rep.move[1:]:
            if line.startswith("    "):     # a command: folded only where the room ends, its words never split
                parts.append(Text(line, style="bold", overflow="fold"))
            else:                           # a line that wraps under its own start
                indent = len(line) - len(line.lstrip(" "))
                grid = Table.grid()
                if indent:
                    grid.add_column(width=indent)
                grid.add_column(ratio=1)
                grid.add_row(*([""] if indent else []), Text(line.lstrip(" ")))
                parts.append(grid)
    for line in rep.attached:               # a command (indented) under its note, wrapping under its own start
        if line.startswith("    "):
            grid = Table.grid()
            grid.add_column(width=4)
            grid.add_column(ratio=1, overflow="fold")
            grid.add_row("", Text(line.strip()))
            parts.append(grid)
        else:
            parts.append(bullets([line]))
    if rep.brief:
        parts += [Text(""), heading("This turn in brief"), bullets(rep.brief)]
    if rep.map_note:
        parts += [Text(""), Text(rep.map_note)]
    for s in rep.sections:
        parts.append(Text(""))
        parts.append(heading(("SECRET -- " if s.secret else "") + s.title, "bold red" if s.secret else "bold cyan"))
        if s.rows:      # laid out when printed, to the room there is: no name is cut (see .fit)
            parts.append(FitTable([Col(c) for c in s.columns], [list(r) for r in s.rows],
                                  box=box.SIMPLE_HEAVY, show_edge=False, pad_edge=False, collapse_padding=True))
        if s.lines:
            parts.append(bullets(s.lines))
    parts += [Text(""), heading("To verify this report", "bold dim")]
    if rep.receipts:
        parts.append(Text("Receipts of the files accepted since the last mail (each player keeps its own):",
                          style="dim"))
        for r in rep.receipts:      # a receipt in two lines, at its file: each fits an 80-column mail
            first, sep, rest = r.partition(" file sha256:")
            parts.append(Text("  " + first, style="dim"))
            if sep:
                parts.append(Text("    file sha256:" + rest, style="dim"))
    foot = Table.grid(padding=(0, 2))
    foot.add_column(style="dim", no_wrap=True)
    foot.add_column(overflow="fold", style="dim")     # a word wraps whole; only a digest wider than the room folds
    for k, v in rep.header:
        if v:
            foot.add_row(k, Text(v))
    parts.append(foot)
    parts.append(bullets(footer_lines(rep), "dim"))
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
    return "".join(line.rstrip() + "\n" for line in c.export_text(styles=False).splitlines())


def to_html(rep: Report, map_cid: str | None = None, svg: str | None = None, map_width: int | None = None) -> str:
    """The report as an HTML page for a mail client or a browser (:mod:`hxref.report.html`); the
    map after the turn in brief: ``map_cid``, the map's picture in the same mail, or ``svg`` inline."""
    from .html import report_html

    return report_html(rep, map_cid, svg, map_width)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(rep: Report) -> str:
    """The report as Markdown, in the order of the text and HTML reports."""
    out = [f"# {rep.title} -- {whose(rep)}", ""]
    out += [f"**{w}**" for w in rep.warnings]
    if rep.move:
        out += [f"**{rep.move[0]}**", ""]
        if rep.move[1:]:
            out += ["```", *rep.move[1:], "```", ""]
    out += [f"      {a.strip()}" if a.startswith("    ") else f"- {a}" for a in rep.attached] + ([""] if rep.attached else [])
    if rep.brief:
        out += ["## This turn in brief", "", *(f"- {line}" for line in rep.brief), ""]
    if rep.map_note:
        out += [rep.map_note, ""]
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
    out += ["## To verify this report", ""]
    if rep.receipts:
        out += ["Receipts of the files accepted since the last mail:", "", "```", *rep.receipts, "```", ""]
    out += [f"- **{k}**: {v}" for k, v in rep.header]
    out += [f"- {line}" for line in rep.notices]
    out += ["", f"Keep the head hash `{rep.facts.get('head', '')}` to prove this history later."]
    return "\n".join(out) + "\n"


def to_json(rep: Report) -> str:
    return json.dumps(rep.facts, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render(rep: Report, fmt: str, width: int | None = None) -> str:
    """The report as text in ``fmt`` (one of :data:`FORMATS` except ``rich``); ``width`` lays out
    the ``text`` format (None: :data:`WIDTH`)."""
    if fmt == "text":
        return to_text(rep, width)
    return {"md": to_markdown, "html": to_html, "json": to_json}[fmt](rep)
