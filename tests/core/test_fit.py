"""Tables laid out to the room they are printed in (hxref.report.fit): words whole, never an ellipsis."""
import io

from rich.console import Console
from rich.text import Text

from hxref.report.fit import Col, FitPanel, FitTable


def _text(renderable, width: int) -> list[str]:
    c = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    c.print(renderable)
    return c.export_text().splitlines()


def _table(*cols: Col, rows) -> FitTable:
    return FitTable(list(cols), rows, box=None, padding=(0, 1), pad_edge=False)


def test_a_table_that_fits_keeps_its_natural_widths():
    t = _table(Col("name"), Col("hex"), rows=[["Horace B. Whitcomb", "1510"]])
    assert t.layout(80) == ([0, 1], None, None)
    assert _text(t, 80)[1].rstrip() == "Horace B. Whitcomb  1510"


def test_narrow_room_wraps_at_spaces_and_gives_the_long_text_the_room():
    notes = "an unseen Confederate unit routs to destruction; Wright/A loses a step and routs to 0702"
    t = _table(Col("unit"), Col("effects"), rows=[["Second Division", notes]])
    lines = _text(t, 40)
    assert all(len(line) <= 40 for line in lines) and not any("…" in line for line in lines)
    # the name needs only a little more than its longest word: it gets it, the notes wrap
    assert lines[1].startswith("Second Division  an unseen") and len(lines) > 3
    assert {w for line in lines for w in line.split()} == set(("unit effects Second Division " + notes).split())


def test_optional_columns_give_way_then_paths_break_after_a_slash():
    t = _table(Col("file"), Col("awaiting"), Col("head", optional=True),
               rows=[["salem-church/pinned-data.yaml", "confederate (join)", "695a014b2d"]])
    keep, widths, breaks = t.layout(30)
    assert keep == [0, 1] and breaks is not None and widths is not None
    lines = _text(t, 30)
    assert "head" not in lines[0] and lines[1].startswith("salem-church/ ") and "pinned-data.yaml" in lines[2]


def test_a_hash_wider_than_the_room_folds_and_is_never_cut():
    digest = "f1ccc762e3f0d7b5dd1e83e7e4922e0bcb0dc0b22ce1e7d27d600d6953314124"
    lines = _text(_table(Col("head"), rows=[[Text(digest)]]), 20)
    assert "".join(line.strip() for line in lines[1:]) == digest and all(len(x) <= 20 for x in lines)


def test_a_panel_title_too_long_for_the_border_goes_above_it():
    title = Text("hxref -- Crossing the Sallow: a three-turn demo (original scenario)")
    assert title.plain in _text(FitPanel("body", title), 100)[0]
    narrow = _text(FitPanel("body", title), 40)
    assert "three-turn demo" in " ".join(narrow[:2]) and narrow[2].startswith("╭") and "…" not in "".join(narrow)
