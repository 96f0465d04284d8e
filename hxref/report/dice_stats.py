"""Dice statistics over a whole game: how often each face came up, the mean against its
expectation and a chi-square test of fairness, for ``hxref dice`` and the reports' dice section.

Only the dice an audience may see are counted: the same rule as the turn report
(:func:`hxref.kit.events.shown`), so a side's statistics never count a die rolled in secret
for the other side, and the public's (audience None) count only public dice in an umpired game.

Dice are grouped by the side that rolled them (``by``; ``"-"`` for none) and purpose, for each
die size; each side also gets an "all" line per die size, and the game one per die size over
every side and purpose ("all d6"), the figure players ask about most.

The p-value comes from the regularised upper incomplete gamma function, computed here (series
and continued fraction, as in Numerical Recipes 6.2), so hxref needs no scipy.
"""
from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..base.errors import InvalidInput

#: the label of a group over several sides or purposes
ALL = "all"
#: the side of a die rolled by no side
NOBODY = "-"
#: the chi-square test is taken as meaningful only when every face expects this many
MIN_EXPECTED = 5.0
#: the text report's width
WIDTH = 80
LABEL_WIDTH = 36
#: the longest panel title the SVG prints at its full 13 px (bold sans-serif, one panel wide)
TITLE_CHARS = 44


# --- the chi-square distribution -----------------------------------------------------------

def _gamma_series(s: float, x: float) -> float:
    """The regularised lower incomplete gamma P(s, x) by its series (good for x < s + 1)."""
    term = total = 1.0 / s
    a = s
    for _ in range(10_000):
        a += 1.0
        term *= x / a
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + s * math.log(x) - math.lgamma(s))


def _gamma_fraction(s: float, x: float) -> float:
    """The regularised upper incomplete gamma Q(s, x) by Lentz's continued fraction (x >= s + 1)."""
    tiny = 1e-300
    b = x + 1.0 - s
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - s)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h * math.exp(-x + s * math.log(x) - math.lgamma(s))


def gamma_q(s: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(s, x) = Gamma(s, x) / Gamma(s)."""
    if s <= 0:
        raise ValueError(f"gamma_q needs s > 0, not {s}")
    if x <= 0:
        return 1.0
    if x < s + 1.0:
        return max(0.0, 1.0 - _gamma_series(s, x))
    return min(1.0, _gamma_fraction(s, x))


def chi2_p(chi2: float, df: int) -> float:
    """The probability that a chi-square variable with ``df`` degrees of freedom is >= ``chi2``."""
    return gamma_q(df / 2.0, chi2 / 2.0)


# --- which dice -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Roll:
    """One die event as the statistics read it."""

    seq: int
    by: str
    purpose: str
    sides: int
    faces: tuple[int, ...]


def visible_rolls(log: Sequence[Mapping[str, Any]], audience: str | None, mode: str, after: int = 0) -> list[Roll]:
    """The die events of ``log`` (after its first ``after``) that ``audience`` (a side, None for
    the public, ``"umpire"``) may see in a game of ``mode``, in log order."""
    from ..kit.events import shown

    return [_roll(ev) for ev in log[after:] if ev.get("kind") == "die" and shown(ev["data"], audience, mode)]


def _roll(ev: Mapping[str, Any]) -> Roll:
    d = ev["data"]
    sides, faces = d.get("sides"), d.get("faces")
    if not isinstance(sides, int) or sides < 1 or not isinstance(faces, list) \
            or not all(isinstance(f, int) and 1 <= f <= sides for f in faces):
        raise InvalidInput(f"die event {ev.get('seq')} has faces {faces!r} for a d{sides}", code="E500")
    return Roll(ev.get("seq", -1), d.get("by") or NOBODY, str(d.get("purpose", "")), sides, tuple(faces))


def matching(rolls: Iterable[Roll], purposes: Sequence[str]) -> list[Roll]:
    """The rolls whose purpose contains any of ``purposes`` (case-insensitive); all of them
    when ``purposes`` is empty."""
    wanted = [p.casefold() for p in purposes]
    return [r for r in rolls if not wanted or any(w in r.purpose.casefold() for w in wanted)]


# --- the statistics -------------------------------------------------------------------------

@dataclass
class Group:
    """The dice of one side (or ``all``) and purpose (or ``all``) for one die size."""

    by: str
    purpose: str
    sides: int
    counts: list[int]           # counts[i]: how often face i + 1 came up

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> float:
        return sum((i + 1) * c for i, c in enumerate(self.counts)) / self.n

    @property
    def expected_mean(self) -> float:
        return (self.sides + 1) / 2

    @property
    def expected_count(self) -> float:
        return self.n / self.sides

    @property
    def df(self) -> int:
        return self.sides - 1

    @property
    def chi2(self) -> float:
        e = self.expected_count
        return sum((c - e) ** 2 / e for c in self.counts)

    @property
    def p(self) -> float | None:
        return chi2_p(self.chi2, self.df) if self.df > 0 else None

    @property
    def few(self) -> bool:
        """Too few dice for the chi-square test to mean anything (under 5 expected per face)."""
        return self.expected_count < MIN_EXPECTED

    @property
    def title(self) -> str:
        if self.by == ALL:
            return f"all d{self.sides}"
        if self.purpose == ALL:
            return f"{self.by}: all d{self.sides}"
        return f"{self.by}: {self.purpose} (d{self.sides})"

    def to_dict(self) -> dict:
        p = self.p
        return {"by": self.by, "purpose": self.purpose, "sides": self.sides, "n": self.n,
                "counts": list(self.counts), "mean": round(self.mean, 4),
                "expected_mean": self.expected_mean, "expected_count": round(self.expected_count, 4),
                "chi2": round(self.chi2, 4), "df": self.df, "p": None if p is None else round(p, 6),
                "few": self.few}


@dataclass
class Stats:
    """Every group of a game's visible dice, for one audience."""

    game: str
    mode: str
    audience: str | None
    purposes: list[str]
    rolls: int                  # die events counted
    totals: list[Group]         # per die size over every side and purpose
    sides: list[Group]          # per side who rolled and die size, over every purpose
    groups: list[Group]         # per side who rolled, purpose and die size

    @property
    def dice(self) -> int:
        return sum(g.n for g in self.totals)

    def all_groups(self) -> list[Group]:
        """Every group in report order: the totals, then each side's total and its purposes."""
        out = list(self.totals)
        for s in self.sides:
            out.append(s)
            out.extend(g for g in self.groups if g.by == s.by and g.sides == s.sides)
        return out


def _groups(rolls: Iterable[Roll], key) -> list[Group]:
    found: dict[tuple, Group] = {}
    for r in rolls:
        by, purpose = key(r)
        g = found.setdefault((by, purpose, r.sides), Group(by, purpose, r.sides, [0] * r.sides))
        for f in r.faces:
            g.counts[f - 1] += 1
    # groups without dice (a roll of no dice) say nothing
    return [found[k] for k in sorted(found, key=lambda k: (k[2], k[0], k[1].casefold(), k[1])) if found[k].n]


def compute(rolls: Sequence[Roll], *, game: str = "", mode: str = "open", audience: str | None = None,
            purposes: Sequence[str] = ()) -> Stats:
    """The statistics of ``rolls`` (already the audience's and the purposes' rolls)."""
    totals = _groups(rolls, lambda r: (ALL, ALL))
    per_side = _groups(rolls, lambda r: (r.by, ALL))
    groups = _groups(rolls, lambda r: (r.by, r.purpose))
    per_side.sort(key=lambda g: (g.by, g.sides))
    groups.sort(key=lambda g: (g.by, g.sides, g.purpose.casefold(), g.purpose))
    return Stats(game, mode, audience, list(purposes), len(rolls), totals, per_side, groups)


def game_stats(log: Sequence[Mapping[str, Any]], audience: str | None, mode: str, *, game: str = "",
               purposes: Sequence[str] = ()) -> Stats:
    """The statistics of the dice in ``log`` that ``audience`` may see, of ``purposes`` (any)."""
    return compute(matching(visible_rolls(log, audience, mode), purposes), game=game, mode=mode,
                   audience=audience, purposes=purposes)


# --- text -----------------------------------------------------------------------------------

def _fmt_p(g: Group) -> str:
    p = g.p
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _whose(audience: str | None, mode: str) -> str:
    if mode != "umpired":
        return f"every die ({mode} game: no die is secret)"
    if audience is None:
        return "the public dice (umpired game)"
    if audience == "umpire":
        return "every die, as the umpire sees them"
    return f"the dice {audience} may see (umpired game)"


def _row(label: str, g: Group) -> list[str]:
    """The group's figures after its label; a label too long for the column has a line of its
    own, whole (a purpose names units and hexes: it is never cut)."""
    mark = "  few" if g.few else ""
    figures = (f" {g.n:>5} {g.mean:>6.2f} {g.expected_mean:>5.2f}"
               f" {g.chi2:>7.2f} {g.df:>3} {_fmt_p(g):>7}{mark}")
    if len(label) <= LABEL_WIDTH:
        return [f"{label:<{LABEL_WIDTH}}{figures}"]
    indent = " " * (len(label) - len(label.lstrip()))
    wrapped = textwrap.wrap(label.strip(), WIDTH - len(indent), initial_indent=indent, subsequent_indent=indent + "  ",
                            break_on_hyphens=False, break_long_words=False)
    return wrapped + [f"{'':<{LABEL_WIDTH}}{figures}"]


def _faces(g: Group, indent: int) -> list[str]:
    cells = "  ".join(f"{i + 1}:{c}" for i, c in enumerate(g.counts))
    return textwrap.wrap(cells, WIDTH - 2, initial_indent=" " * indent, subsequent_indent=" " * indent,
                         break_on_hyphens=False)


def _title(st: Stats) -> str:
    return f"Dice of {st.game}: {_whose(st.audience, st.mode)}" if st.game else f"Dice: {_whose(st.audience, st.mode)}"


def _table(st: Stats) -> list[str]:
    """The rows, each with its faces: the totals, then each side's total and its purposes."""
    lines = [f"{'':<{LABEL_WIDTH}} {'dice':>5} {'mean':>6} {'exp':>5} {'chi2':>7} {'df':>3} {'p':>7}",
             "all sides"]
    heading = None
    for g in st.all_groups():
        if g.by != ALL and g.by != heading:
            heading = g.by
            lines.append(f"{g.by} (rolled by)" if g.by != NOBODY else "rolled by no side")
        lines.extend(_row(f"  {g.purpose}" if g.purpose != ALL else f"  all d{g.sides}", g))
        lines.extend(_faces(g, 4))
    return lines


def render_text(st: Stats) -> str:
    """The statistics as plain text that fits in 80 columns."""
    lines = [_title(st)]
    if st.purposes:
        lines.append("purposes containing: " + ", ".join(repr(p) for p in st.purposes))
    if not st.totals:
        return "\n".join([*lines, "no dice to count"]) + "\n"
    lines += [f"{st.dice} dice in {st.rolls} rolls", "", *_table(st), "",
              "exp: the mean a fair die gives", "p: the chance that fair dice give a chi-square (chi2) this large"]
    if any(g.few for g in st.all_groups()):
        lines.append(f"few: under {MIN_EXPECTED:g} dice expected per face, too few for the test to mean much")
    return "\n".join(lines) + "\n"


# --- JSON -----------------------------------------------------------------------------------

def to_dict(st: Stats) -> dict:
    return {"game": st.game, "mode": st.mode, "audience": st.audience or "public", "purposes": st.purposes,
            "rolls": st.rolls, "dice": st.dice, "min_expected": MIN_EXPECTED,
            "totals": [g.to_dict() for g in st.totals], "sides": [g.to_dict() for g in st.sides],
            "groups": [g.to_dict() for g in st.groups]}


def render_json(st: Stats) -> str:
    """The statistics as JSON, keys sorted; ``counts[i]`` is how often face ``i + 1`` came up."""
    return json.dumps(to_dict(st), indent=2, sort_keys=True) + "\n"


# --- SVG ------------------------------------------------------------------------------------

PANEL_W, PANEL_H, COLUMNS = 380, 190, 2
PLOT_X, PLOT_TOP, PLOT_H = 36, 54, 108


def _panel(g: Group, x0: int, y0: int) -> list[str]:
    """One bar chart: a bar per face, its count above it, the expected count as a dashed line."""
    plot_w = PANEL_W - PLOT_X - 16
    top = max(max(g.counts), g.expected_count) or 1
    scale = PLOT_H / top
    base = y0 + PLOT_TOP + PLOT_H
    bar_w = plot_w / g.sides
    few = " (few dice)" if g.few else ""
    out = [f'<g class="group" data-sides="{g.sides}">',
           # a long title is squeezed to the panel, never cut: it names units and hexes
           f'<text x="{x0 + 8}" y="{y0 + 18}" class="title"'
           + (f' style="font-size:{13 * TITLE_CHARS / len(g.title):.1f}px"' if len(g.title) > TITLE_CHARS else "")
           + f'>{escape(g.title)}</text>',
           f'<text x="{x0 + 8}" y="{y0 + 34}" class="sub">{g.n} dice, mean {g.mean:.2f} (expected '
           f'{g.expected_mean:.2f}), p {escape(_fmt_p(g))}{escape(few)}</text>',
           f'<line x1="{x0 + PLOT_X}" y1="{base}" x2="{x0 + PLOT_X + plot_w}" y2="{base}" class="axis"/>']
    for i, c in enumerate(g.counts):
        h = c * scale
        bx = x0 + PLOT_X + i * bar_w
        out.append(f'<rect x="{bx + bar_w * 0.1:.1f}" y="{base - h:.1f}" width="{bar_w * 0.8:.1f}" '
                   f'height="{h:.1f}" class="bar"><title>face {i + 1}: {c}</title></rect>')
        if g.sides <= 20:
            cx = bx + bar_w / 2
            out.append(f'<text x="{cx:.1f}" y="{base - h - 3:.1f}" class="count">{c}</text>')
            out.append(f'<text x="{cx:.1f}" y="{base + 14}" class="face">{i + 1}</text>')
    ey = base - g.expected_count * scale
    out.append(f'<line x1="{x0 + PLOT_X}" y1="{ey:.1f}" x2="{x0 + PLOT_X + plot_w}" y2="{ey:.1f}" class="expected">'
               f'<title>expected {g.expected_count:.2f}</title></line>')
    out.append(f'<text x="{x0 + PLOT_X - 4}" y="{ey + 4:.1f}" class="exp">{g.expected_count:.1f}</text>')
    out.append("</g>")
    return out


def render_svg(st: Stats) -> str:
    """A small bar chart per group (the totals first), with the expected count as a dashed line."""
    groups = st.all_groups()
    rows = max(1, math.ceil(len(groups) / COLUMNS))
    width, height = PANEL_W * COLUMNS, 50 + rows * PANEL_H
    title = _title(st)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label={quoteattr(title)}>',
           "<style>text{font-family:sans-serif;fill:#222}.title{font-size:13px;font-weight:bold}"
           ".sub{font-size:11px}.count,.face{font-size:10px;text-anchor:middle}.exp{font-size:9px;"
           "text-anchor:end;fill:#b22}.bar{fill:#4a78b0}.axis{stroke:#444}"
           ".expected{stroke:#b22;stroke-dasharray:5 3;stroke-width:1.5}</style>",
           f'<rect width="{width}" height="{height}" fill="#fff"/>',
           f'<text x="8" y="20" class="title">{escape(title)}</text>',
           '<text x="8" y="34" class="sub">bars: how often each face came up; dashed line: the count '
           'a fair die expects</text>']
    if not groups:
        out.append('<text x="8" y="60" class="sub">no dice to count</text>')
    for i, g in enumerate(groups):
        out.extend(_panel(g, (i % COLUMNS) * PANEL_W, 50 + (i // COLUMNS) * PANEL_H))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the report's line ----------------------------------------------------------------------

def summary_line(log: list[dict], audience: str | None, mode: str, game_name: str) -> str | None:
    """One line for a report's dice section: the dice ``audience`` may see over the whole game,
    per die size; None when it sees none."""
    return summary_of(face_counts(visible_rolls(log, audience, mode)), audience, game_name)


def face_counts(rolls: Iterable[Roll], counts: dict[int, list[int]] | None = None) -> dict[int, list[int]]:
    """How often each face of each die size came up in ``rolls``, added to ``counts``."""
    counts = {} if counts is None else counts
    for r in rolls:
        row = counts.setdefault(r.sides, [0] * r.sides)
        for f in r.faces:
            row[f - 1] += 1
    return counts


def summary_of(counts: Mapping[int, Sequence[int]], audience: str | None, game_name: str | None) -> str | None:
    """:func:`summary_line` from the face counts of the dice ``audience`` may see; the line names
    the ``hxref dice`` command for the breakdown when the reader holds the game file ``game_name``."""
    totals = [Group(ALL, ALL, sides, list(row)) for sides, row in sorted(counts.items()) if sum(row)]
    if not totals:
        return None
    parts = []
    for g in totals:
        test = "too few for a chi-square test" if g.few else f"chi-square p = {_fmt_p(g)}"
        parts.append(f"{g.n} d{g.sides}, mean {g.mean:.2f} (expected {g.expected_mean:.2f}), {test}")
    side = f" --side {audience}" if audience is not None else ""
    if game_name is None:
        return f"Dice this game: {'; '.join(parts)}"
    return f"Dice this game: {'; '.join(parts)} — `hxref dice {game_name}{side}` for the breakdown"
