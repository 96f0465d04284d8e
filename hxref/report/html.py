"""The turn report as HTML for mail clients.

Mail clients drop <style> blocks and most layout CSS, so every element carries its own
``style=`` attribute, and the page is plain flow: headings, paragraphs, lists and tables that
wrap inside a narrow phone screen (400 px) as well as a wide one.  Every text from the game
(unit, leader and player names) is escaped: a hostile name shows as text, never as markup.
The side's SVG map goes in inline, scaled to the width by its viewBox.
"""
from __future__ import annotations

import re
from html import escape
from typing import Any

_BODY = ("margin:0;padding:8px;font-family:Georgia,'Times New Roman',serif;font-size:15px;"
         "line-height:1.4;color:#1a1a1a;background:#ffffff;")
# Words wrap at spaces and stay whole (overflow-wrap:break-word leaves a column's minimum
# width alone); a long token such as a hash or a key fingerprint goes in a span that may
# break anywhere, so that it alone never widens a table past a phone's screen.
_WRAP = "max-width:100%;overflow-wrap:break-word;"
_LONG = "overflow-wrap:anywhere;word-break:break-all;"
_CELL_BREAK = "overflow-wrap:anywhere;"
_LONG_TOKEN = re.compile(r"\S{24,}")
_H1 = "font-size:22px;margin:0 0 8px 0;" + _WRAP
_H2 = "font-size:18px;margin:18px 0 6px 0;border-bottom:1px solid #999999;" + _WRAP
_TABLE = ("border-collapse:collapse;width:100%;max-width:100%;table-layout:auto;"
          "font-size:14px;margin:4px 0 8px 0;")
_TH = "text-align:left;padding:3px 4px;border:1px solid #bbbbbb;background:#eeeeee;" + _WRAP
_TD = "text-align:left;vertical-align:top;padding:3px 4px;border:1px solid #bbbbbb;" + _WRAP
_P = "margin:4px 0;" + _WRAP
_UL = "margin:4px 0;padding-left:20px;" + _WRAP
_SECRET = "color:#a01010;"
_DIM = "color:#666666;font-size:13px;"
_MAP = "margin:12px 0 0 0;max-width:100%;"
_SVG = "display:block;width:100%;height:auto;max-width:100%;"


def _text(s: Any) -> str:
    """Escaped text; each long token (24 characters or more without a space) may break anywhere."""
    out: list[str] = []
    pos = 0
    text = str(s)
    for m in _LONG_TOKEN.finditer(text):
        out.append(escape(text[pos:m.start()], quote=True))
        out.append(f'<span style="{_LONG}">{escape(m.group(0), quote=True)}</span>')
        pos = m.end()
    out.append(escape(text[pos:], quote=True))
    return "".join(out)


#: a phone's width less the page's padding, and the rough width of one character at 14 px
_NARROW_PX = 360
#: a wide mail window's text width (1200 px less the page's padding)
_WIDE_PX = 1184
_CHAR_PX = 8.5
_CELL_PAD_PX = 9


def _longest_words(columns: list[str], rows: list[list[str]]) -> list[int]:
    """Each column's longest word in characters (a long token counts as 16: it may break anywhere)."""
    n = max([len(columns)] + [len(r) for r in rows])
    chars = [0] * n
    for row in [columns] + rows:
        for i, cell in enumerate(row):
            words = str(cell).split() or [""]
            chars[i] = max(chars[i], min(16, max(len(w) for w in words)))
    return chars


def _kept_whole(chars: list[int]) -> set[int]:
    """The columns whose words never break: the shortest-worded first, as many as fit side by side
    in a phone's width while every other column keeps room for 3 characters.  A column of short
    words (a turn, a hex, a die) is read whole at any width; only the columns of long text may
    break a word, and only when a phone's screen leaves no other way."""
    kept: set[int] = set()
    used = 0.0
    for i in sorted(range(len(chars)), key=lambda i: (chars[i], i)):
        rest = len(chars) - len(kept) - 1
        need = chars[i] * _CHAR_PX + _CELL_PAD_PX
        if used + need + rest * (3 * _CHAR_PX + _CELL_PAD_PX) > _NARROW_PX:
            break
        kept.add(i)
        used += need
    return kept


def _min_widths(columns: list[str], rows: list[list[str]]) -> list[int]:
    """Each column's least width in px: its longest word; when the words of all the columns cannot
    sit side by side in a phone's width, those of the columns not kept whole are capped until they do."""
    chars = _longest_words(columns, rows)
    kept = _kept_whole(chars)
    room = max(0.0, _NARROW_PX - len(chars) * _CELL_PAD_PX) / _CHAR_PX - sum(chars[i] for i in kept)
    cap = 16
    while cap > 1 and sum(min(c, cap) for i, c in enumerate(chars) if i not in kept) > room:
        cap -= 1            # the longest words give way first
    return [int((c if i in kept else min(c, cap)) * _CHAR_PX) for i, c in enumerate(chars)]


def _table(columns: list[str], rows: list[list[str]]) -> str:
    """A table that fits a 400 px screen: words wrap at spaces and stay whole while the
    columns' longest words fit side by side; past that, a word of a long-text column may break
    (no sideways scroll), never one of a column of short words."""
    mins = _min_widths(columns, rows)
    chars = _longest_words(columns, rows)
    kept = _kept_whole(chars)
    # a column of short cells that may break on a phone asks for its words' share of a wide
    # window, so that at 1200 px it is not squeezed by a column of long text beside it
    short = {i for i in range(len(chars)) if i not in kept
             and max(len(str(r[i])) for r in [columns] + rows if i < len(r)) <= 16}

    def cell(tag: str, style: str, i: int, text: str) -> str:
        width = f"min-width:{mins[i]}px;" if i < len(mins) else ""
        if i in short:
            width += f"width:{100 * (chars[i] * _CHAR_PX + _CELL_PAD_PX) / _WIDE_PX:.1f}%;"
        brk = "" if i in kept else _CELL_BREAK      # _WRAP's break-word leaves the word whole
        return f'<{tag} style="{style}{brk}{width}">{_text(text)}</{tag}>'

    out = [f'<table style="{_TABLE}" cellpadding="0" cellspacing="0" role="table">']
    if columns:
        out.append("<tr>" + "".join(cell("th", _TH, i, c) for i, c in enumerate(columns)) + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(cell("td", _TD, i, c) for i, c in enumerate(row)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _lines(lines: list[str]) -> str:
    """A run of lines: bullet lines ("- ", "* ", "• ") become a list, the rest paragraphs."""
    out: list[str] = []
    items: list[str] = []

    def flush() -> None:
        if items:
            out.append(f'<ul style="{_UL}">' + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
            items.clear()

    for line in lines:
        stripped = line.strip()
        m = re.match(r"^(?:[-*\u2022])\s+(.*)$", stripped)
        if m:
            items.append(_text(m.group(1)))
            continue
        flush()
        if stripped:
            out.append(f'<p style="{_P}">{_text(stripped)}</p>')
    flush()
    return "\n".join(out)


def section_html(sec: Any) -> str:
    """One report section (kit.protocol.Section): a heading (a secret one marked, in red), its
    table, then its lines, in the order of the text and markdown reports."""
    if sec.secret:
        head = f'<h2 style="{_H2}{_SECRET}">SECRET -- {_text(sec.title)}</h2>'
    else:
        head = f'<h2 style="{_H2}">{_text(sec.title)}</h2>'
    parts = [head]
    if sec.rows:
        parts.append(_table(list(sec.columns), [list(r) for r in sec.rows]))
    if sec.lines:
        parts.append(_lines(list(sec.lines)))
    return "\n".join(parts)


def report_html(rep: Any) -> str:
    """A whole report (report.turn.Report) as one HTML page with inline styles."""
    title = f"hxref -- {rep.title}"
    body = [f'<h1 style="{_H1}">{_text(title)}</h1>']
    if rep.header:
        body.append(_table([], [[k, v] for k, v in rep.header]))
    body.extend(section_html(s) for s in rep.sections)
    head = str(getattr(rep, "facts", {}).get("head", ""))
    body.append(f'<p style="{_P}{_DIM}">Keep the head hash {_text(head[:16])}... to prove this history later.</p>')
    return ("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n</head>\n"
            f'<body style="{_BODY}">\n<div style="{_WRAP}">\n' + "\n".join(body)
            + "\n</div>\n</body>\n</html>\n")


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
    block = f'<div class="map" style="{_MAP}">{responsive_svg(svg)}</div>\n'
    i = page.rfind("</body>")
    if i < 0:
        return page + block
    return page[:i] + block + page[i:]
