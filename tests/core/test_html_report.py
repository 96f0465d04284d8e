"""The html report for mail clients: real headings and tables, inline styles, escaped names,
the side's map inline and scaled to the width; in a real Chromium, no sideways scroll at 1200
and at 400 pixels."""
import html
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.kit.protocol import Section
from hxref.report.html import _CHAR_PX, embed_map, report_html, responsive_svg
from hxref.report.turn import Report

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def demo_pages(tmp_path_factory):
    """Each demo's union report as html, written by `hxref report` from a played demo game."""
    pages = {}
    for system, scenario in (("heartland", "heartland-demo"), ("salem-church", "salem-church")):
        folder = tmp_path_factory.mktemp(system) / "play"
        res = CliRunner().invoke(main, ["demo", "--system", system, "--scenario", scenario, "--keep", str(folder),
                                        "--format", "text"], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        out = folder / "union.html"
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            res = CliRunner().invoke(main, ["report", "game.yaml", "--side", "union", "--format", "html", "-o", str(out)],
                                     catch_exceptions=False)
        finally:
            os.chdir(cwd)
        assert res.exit_code == 0, res.output
        pages[system] = out
    return pages


@pytest.mark.parametrize("system", ["heartland", "salem-church"])
def test_demo_report_is_laid_out_html(demo_pages, system):
    page = demo_pages[system].read_text()
    assert page.count("<h1") == 1 and page.count("<h2") >= 4
    assert page.count("<table") >= 3 and "<th " in page and "<td " in page
    assert "<pre" not in page and "<style" not in page      # mail clients drop style blocks
    # every cell carries its own style, and wraps
    assert all("overflow-wrap:" in m for m in re.findall(r"<td style=\"[^\"]*\"", page))
    assert "SECRET -- " in page and "Keep the head hash" in page
    # the union's own army is a table with a row per force, not a text picture
    assert re.search(r"<h2[^>]*>[^<]*union[^<]*</h2>\s*<table", page)


@pytest.mark.parametrize("system", ["heartland", "salem-church"])
def test_demo_map_is_inline_and_scales(demo_pages, system):
    page = demo_pages[system].read_text()
    assert page.count("<svg") == 1 and page.index("<svg") > page.rindex("</table>")
    tag = re.search(r"<svg\b[^>]*>", page).group(0)
    assert re.search(r'viewBox="0 0 [\d.]+ [\d.]+"', tag)
    assert "width:100%" in tag and "height:auto" in tag
    assert not re.search(r"\s(width|height)=", tag)
    assert "<?xml" not in page


def test_hostile_names_are_text():
    evil = 'Bob" <script> alert(1) </script> <img src=x onerror=alert(1)> & co'
    rep = Report(title=f"Game {evil}", audience="union", header=[("player", evil)],
                 sections=[Section(title=evil, lines=[evil, f"- {evil}"], columns=["unit", evil],
                                   rows=[[evil, "ok"]])])
    page = report_html(rep)
    assert "<script" not in page and "<img" not in page
    assert page.count(html.escape(evil, quote=True)) == 8    # title twice, header, heading, line, item, column, cell
    assert page.index("<table", page.index("<h2")) < page.index("<p ", page.index("<h2"))   # table, then lines
    # a long hostile token is escaped inside its breakable span
    page = report_html(Report(title="t", audience="u", header=[("p", "<script>alert(document.cookie)</script>")]))
    assert "<script" not in page and "&lt;script&gt;alert(document.cookie)&lt;/script&gt;</span>" in page


def test_lines_become_paragraphs_and_lists():
    page = report_html(Report(title="t", audience="union", header=[],
                              sections=[Section(title="s", lines=["first", "- one", "- two", "last"])]))
    assert re.search(r"<p [^>]*>first</p>\s*<ul [^>]*><li>one</li><li>two</li></ul>\s*<p [^>]*>last</p>", page)


def test_long_tokens_may_break_and_short_words_stay_whole():
    digest = "f1ccc762e3f0d7b5dd1e83e7e4922e0bcb0dc0b22ce1e7d27d600d6953314124"
    page = report_html(Report(title="t", audience="u", header=[("head", f"{digest} (event 3)")]))
    assert f'<span style="overflow-wrap:anywhere;word-break:break-all;">{digest}</span> (event 3)' in page
    # a table too wide for a phone: the longest words are capped, the hex numbers keep their width
    cols = ["force", "hex", "leader", "rank", "AR-BR-MR", "ML", "AP", "art/ASP", "units"]
    row = ["whitcomb", "1510", "Horace B. Whitcomb HQ", "***", "3-2-3", "0", "3", "3/0", "2nd Division 5-2 reduced"]
    page = report_html(Report(title="t", audience="u", header=[], sections=[Section("aod", columns=cols, rows=[row])]))
    widths = [int(w) for w in re.findall(r"<td style=\"[^\"]*min-width:(\d+)px;", page)]
    char = _CHAR_PX
    assert widths[1] == int(4 * char) and widths[0] < int(8 * char) and sum(widths) + 9 * 9 <= 360


def test_responsive_svg_makes_a_viewbox_from_fixed_size():
    svg = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150px"><rect/></svg>'
    out = responsive_svg(svg)
    assert out.startswith('<svg ') and 'viewBox="0 0 300 150"' in out and 'width="' not in out
    page = embed_map("<html><body><h1>x</h1></body></html>", svg)
    assert page.index("<svg") > page.index("</h1>") and page.endswith("</body></html>")


def _chromium(*args: str, width: int, url: str) -> str:
    cmd = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tempfile.mkdtemp()}", f"--window-size={width},900", *args, url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout


def _fits(page: str, width: int, tmp: Path) -> str:
    """In Chromium, whether the page at this width has no sideways scroll.  Headless Chromium
    will not make a window narrower than 500 px, so the page is laid out in an iframe of the
    width, and a script writes the answer into the body for --dump-dom."""
    wrap = (f'<!DOCTYPE html><html><body style="margin:0"><iframe id="f" style="border:0" width="{width}" '
            f'height="900" srcdoc="{html.escape(page, quote=True)}"></iframe><script>'
            'window.addEventListener("load",function(){var f=document.getElementById("f"),'
            'd=f.contentDocument.documentElement;document.body.insertAdjacentHTML("beforeend",'
            '"<p id=fit>"+(d.scrollWidth<=f.contentWindow.innerWidth)+" "+d.scrollWidth+"</p>")});'
            '</script></body></html>')
    path = tmp / f"fit-{width}.html"
    path.write_text(wrap)
    found = re.findall(r'<p id="fit">([^<]*)</p>', _chromium("--dump-dom", width=width + 100, url=path.as_uri()))
    assert found, "chromium wrote no answer"
    return found[0]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)")
@pytest.mark.parametrize("system", ["heartland", "salem-church"])
def test_no_sideways_scroll_in_chromium(demo_pages, system, tmp_path):
    page = demo_pages[system].read_text()
    for width in (1200, 400):
        assert _fits(page, width, tmp_path).startswith("true"), (system, width)
        shot = tmp_path / f"{system}-{width}.png"
        _chromium(f"--screenshot={shot}", width=width, url=demo_pages[system].as_uri())
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the check can fail: a fixed 900 px block scrolls at 400
    wide = page.replace("</body>", '<div style="width:900px">wide</div></body>')
    assert _fits(wide, 400, tmp_path).startswith("false")


def test_short_word_columns_stay_whole_beside_long_text():
    """A table of short cells (turn, hex, die, result) beside a column of long text: the short
    columns never break a word and ask for their share of a wide window; only the long text may
    break, on a phone (the Salem Church turn summary at 1200 px read "tur n", "colu mn")."""
    from hxref.report.html import _table

    long_text = "an unseen Confederate unit eliminated; " * 6
    cols = ["turn", "by", "target", "A-D", "column", "die", "result", "effects"]
    rows = [["14", "union", "1003", "16-3 = +13", ">=+10", "2", "Dm(Dr)", long_text]]
    html = _table(cols, rows)
    cells = re.findall(r'<t[hd] style="([^"]*)"', html)
    by_col = [cells[i::len(cols)] for i in range(len(cols))]
    for i, name in enumerate(cols[:-1]):
        for style in by_col[i]:
            assert "overflow-wrap:anywhere" not in style or "width:" in style, (name, style)
    assert all("overflow-wrap:anywhere" in st for st in by_col[-1])
