"""The turn report as HTML for mail clients and browsers.

Mail clients drop <style> blocks in places, so the few styles the page needs are inline, and the
page reads without them: headings, paragraphs, lists, and tables drawn by their own ``border`` and
``cellpadding`` attributes (no style on each cell: a turn's HTML stays small).  The order is the
text report's: the title, the reader's move and its commands, the turn in brief, the map, the
details (each section folded in a ``<details>``; a client that does not fold shows it open), and
a small footer with the head, the identity and the keys.  At a phone's 400 px, words stay whole:
a table too wide scrolls sideways in its own box, and only a command or a hash may break anywhere.
Every text from the game is escaped: a hostile name shows as text, never as markup.  A mail shows
the map as a picture of the same mail (``cid:``); a report file shows the SVG inline.
"""
from __future__ import annotations

import re
from html import escape
from typing import Any

_BODY = ("margin:0;padding:8px;font-family:Georgia,'Times New Roman',serif;font-size:15px;"
         "line-height:1.4;color:#1a1a1a;background:#ffffff;")
#: a hash or a key's fingerprint: the only text that may break anywhere (a command, in its <pre>,
#: wraps at its spaces and breaks a word only when one alone is wider than the screen)
_LONG = "overflow-wrap:anywhere;word-break:break-all;"
_LONG_TOKEN = re.compile(r"\S{24,}")
_H1 = "font-size:20px;margin:0 0 8px 0;"
_H2 = "font-size:17px;margin:14px 0 4px 0;"
_MOVE = "font-size:16px;font-weight:bold;margin:8px 0 4px 0;color:#7a4a00;"
_PRE = ("white-space:pre-wrap;overflow-wrap:break-word;margin:4px 0;padding:6px;background:#f3f1ea;"
        "font-size:13px;font-family:Menlo,Consolas,monospace;")
_SCROLL = "overflow-x:auto;max-width:100%;"
_TABLE = "border-collapse:collapse;font-size:14px;margin:2px 0 6px 0;"
_SECRET = "color:#a01010;"
_FOOT = "color:#666666;font-size:12px;margin-top:18px;border-top:1px solid #cccccc;"
_MAP = "display:block;width:100%;max-width:720px;height:auto;margin:10px 0;"
_SVG = "display:block;width:100%;height:auto;max-width:100%;"
_SUMMARY = "font-weight:bold;font-size:16px;margin:10px 0 2px 0;cursor:pointer;"


def _text(s: Any) -> str:
    """Escaped text; each long token (24 characters or more without a space: a hash, a key's
    fingerprint) may break anywhere."""
    out: list[str] = []
    pos = 0
    text = str(s)
    for m in _LONG_TOKEN.finditer(text):
        out.append(escape(text[pos:m.start()], quote=True))
        out.append(f'<span style="{_LONG}">{escape(m.group(0), quote=True)}</span>')
        pos = m.end()
    out.append(escape(text[pos:], quote=True))
    return "".join(out)


def _table(columns: list[str], rows: list[list[str]]) -> str:
    """A table whose words stay whole; too wide for the screen, it scrolls in its own box."""
    out = [f'<div style="{_SCROLL}"><table border="1" cellpadding="3" cellspacing="0" '
           f'style="{_TABLE}" bordercolor="#bbbbbb">']
    if columns:
        out.append('<tr bgcolor="#eeeeee">' + "".join(f'<th align="left">{_text(c)}</th>' for c in columns) + "</tr>")
    for row in rows:
        out.append('<tr valign="top">' + "".join(f"<td>{_text(c)}</td>" for c in row) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def _lines(lines: list[str]) -> str:
    """A run of lines: bullet lines ("- ", "* ", "• ") become a list, the rest paragraphs."""
    out: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if items:
            out.append('<ul style="margin:2px 0;padding-left:20px;">' + "".join(f"<li>{i}</li>" for i in items)
                       + "</ul>")
            items.clear()

    for line in lines:
        stripped = line.strip()
        m = re.match(r"^(?:[-*\u2022])\s+(.*)$", stripped)
        if m:
            items.append(_text(m.group(1)))
            continue
        flush()
        if stripped:
            out.append(f'<p style="margin:4px 0;">{_text(stripped)}</p>')
    flush()
    return "\n".join(out)


def _list(lines: list[str]) -> str:
    return '<ul style="margin:2px 0;padding-left:20px;">' + "".join(f"<li>{_text(x)}</li>" for x in lines) + "</ul>"


def _attached(lines: list[str]) -> str:
    """What the mail carries, one item a line; a command (an indented line) as preformatted text
    that wraps, under its note."""
    items = [f'<li style="list-style:none;"><pre style="{_PRE}">{escape(x.strip())}</pre></li>' if x.startswith("    ")
             else f"<li>{_text(x)}</li>" for x in lines]
    return '<ul style="margin:2px 0;padding-left:20px;">' + "".join(items) + "</ul>"


def section_html(sec: Any, fold: bool = True) -> str:
    """One report section (kit.protocol.Section): its title (a secret one marked, in red), its
    table, then its lines; folded in a ``<details>`` whose summary is the title."""
    title = ("SECRET -- " if sec.secret else "") + str(sec.title)
    style = _SUMMARY + (_SECRET if sec.secret else "")
    parts = []
    if sec.rows:
        parts.append(_table(list(sec.columns), [list(r) for r in sec.rows]))
    if sec.lines:
        parts.append(_lines([f"- {x}" for x in sec.lines]))
    if not fold:
        return f'<h2 style="{_H2}{_SECRET if sec.secret else ""}">{_text(title)}</h2>\n' + "\n".join(parts)
    return (f'<details><summary style="{style}">{_text(title)}</summary>\n' + "\n".join(parts) + "\n</details>")


def _move(rep: Any) -> list[str]:
    """The reader's move: the headline, then the decisions and commands as preformatted text that
    wraps (a command is never cut at the screen's edge)."""
    if not rep.move:
        return []
    out = [f'<p style="{_MOVE}">{escape(rep.move[0])}</p>']
    if rep.move[1:]:
        out.append(f'<pre style="{_PRE}">' + escape("\n".join(rep.move[1:])) + "</pre>")
    return out


def report_html(rep: Any, map_cid: str | None = None, svg: str | None = None, map_width: int | None = None) -> str:
    """A whole report (report.turn.Report) as one HTML page; the map, when there is one, after the
    turn in brief: the mail's picture ``map_cid`` (at its own ``map_width`` in pixels when given:
    scrolled sideways on a narrow screen rather than shrunk below legible), or the ``svg`` inline (a
    report file)."""
    title = f"{rep.title} -- {rep.audience if rep.audience in ('public', 'umpire') else rep.audience}"
    whose = {"public": "public report", "umpire": "umpire's report"}.get(rep.audience, f"{rep.audience}'s report")
    body = [f'<h1 style="{_H1}">{_text(rep.title)} <span style="font-weight:normal;font-size:15px;">-- '
            f"{_text(whose)}</span></h1>"]
    body += [f'<p style="font-weight:bold;{_SECRET}">{_text(w)}</p>' for w in getattr(rep, "warnings", [])]
    body += _move(rep)
    if getattr(rep, "attached", None):
        body.append(_attached(rep.attached))
    if getattr(rep, "brief", None):
        body += [f'<h2 style="{_H2}">This turn in brief</h2>', _list(rep.brief)]
    if map_cid:
        if map_width:               # at most its own size, and never so small that its text is under 9 px
            least = -(-map_width * 9 // 11)     # a counter's 5.5-point details, drawn at twice the size: 9 px
            body.append(f'<div style="{_SCROLL}margin:10px 0;"><img src="cid:{escape(map_cid)}" alt="your map" '
                        f'style="display:block;width:100%;min-width:{least}px;max-width:{map_width}px;height:auto;">'
                        "</div>")
        else:
            body.append(f'<img src="cid:{escape(map_cid)}" alt="your map" width="100%" style="{_MAP}">')
        if getattr(rep, "map_note", None):
            body.append(f'<p style="margin:2px 0;font-size:13px;color:#555555;">{_text(rep.map_note)}</p>')
    elif svg:
        body.append(f'<div class="map" style="margin:10px 0;max-width:100%;">{responsive_svg(svg)}</div>')
    if rep.sections:
        body.append(f'<h2 style="{_H2}">Details</h2>')
        body.extend(section_html(s) for s in rep.sections)
    foot = [f'<div style="{_FOOT}">', '<p style="margin:6px 0 2px 0;font-weight:bold;">To verify this report</p>']
    if getattr(rep, "receipts", None):
        foot.append('<p style="margin:2px 0;">Receipts of the files accepted since the last mail:</p>')
        foot.append(f'<pre style="{_PRE}font-size:11px;">' + escape("\n".join(rep.receipts)) + "</pre>")
    foot += [f'<p style="margin:2px 0;">{_text(k)}: {_text(v)}</p>' for k, v in rep.header if v]
    foot += [f'<p style="margin:2px 0;">{_text(n)}</p>' for n in getattr(rep, "notices", [])]
    head = str(getattr(rep, "facts", {}).get("head", ""))
    foot.append(f'<p style="margin:2px 0;">Keep the head hash {_text(head[:16])}... to prove this history later.</p>')
    foot.append("</div>")
    body += foot
    return ("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n</head>\n"
            f'<body style="{_BODY}">\n' + "\n".join(body) + "\n</body>\n</html>\n")


_SVG_TAG = re.compile(r"<svg\b[^>]*>", re.S)


def responsive_svg(svg: str) -> str:
    """The SVG picture scaled to the page: fixed width/height dropped, a viewBox kept (made
    from them when missing), style width:100%;height:auto.  The XML prolog is dropped too."""
    svg = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)
    svg = re.sub(r"^\s*<!DOCTYPE[^>]*>\s*", "", svg)
    m = _SVG_TAG.search(svg)
    if not m:
        return svg
    tag = m.group(0)
    dims = {k: v for k, v in re.findall(r'\s(width|height)\s*=\s*["\']([^"\']*)["\']', tag)}
    new = re.sub(r'\s(?:width|height|style)\s*=\s*(["\'])[^"\']*\1', "", tag)
    if not re.search(r"\sviewBox\s*=", new):
        w = re.match(r"[\d.]+", dims.get("width", ""))
        h = re.match(r"[\d.]+", dims.get("height", ""))
        if w and h:
            new = new[:4] + f' viewBox="0 0 {w.group(0)} {h.group(0)}"' + new[4:]
    new = new[:4] + f' style="{_SVG}" preserveAspectRatio="xMidYMid meet"' + new[4:]
    return svg[:m.start()] + new + svg[m.end():]


def embed_map(page: str, svg: str) -> str:
    """The page with the map at its end, inline and scaled to the width."""
    block = f'<div class="map" style="margin:12px 0 0 0;max-width:100%;">{responsive_svg(svg)}</div>\n'
    i = page.rfind("</body>")
    if i < 0:
        return page + block
    return page[:i] + block + page[i:]
