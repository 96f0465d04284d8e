"""The html report for mail clients: the reader's move first, then the map, the details folded
and a footer; real tables with no style on each cell, inline styles, escaped names, the side's
map inline and scaled to the width; in a real Chromium, no sideways scroll at 1200 and at 400
pixels (a wide table scrolls in its own box)."""
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
from hxref.report.html import _table, embed_map, report_html, responsive_svg
from hxref.report.turn import Report

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def demo_pages(tmp_path_factory, played):
    """Each demo's union report as html, written by `hxref report` from a played demo game."""
    pages = {}
    for system in ("heartland", "salem-church"):
        folder = played.copy(system, tmp_path_factory.mktemp(system) / "play")
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
    assert page.count("<h1") == 1 and page.count("<details>") >= 4
    assert page.count("<table") >= 3 and "<th " in page and "<td>" in page
    assert "<style" not in page      # mail clients drop style blocks: the page's few styles are inline
    assert "<td style" not in page and "overflow-wrap:anywhere" not in page.split("To verify")[0].split("</pre>")[-1]
    assert all(page[:m.start()].endswith('<div style="overflow-x:auto;max-width:100%;">')
               for m in re.finditer(r"<table", page))        # a wide table scrolls in its own box
    assert "SECRET -- " in page and "Keep the head hash" in page
    # the order a reader wants: the move, the map, the details, then the hashes and keys
    move, svg, details, foot = (page.index(x) for x in ("The game is over", "<svg", "Details</h2>", "To verify"))
    assert move < svg < details < foot
    assert page.index("identity:") > foot and page.index("keys:") > foot


@pytest.mark.parametrize("system", ["heartland", "salem-church"])
def test_demo_map_is_inline_and_scales(demo_pages, system):
    page = demo_pages[system].read_text()
    assert page.count("<svg") == 1 and page.index("<svg") < page.index("<table")
    tag = re.search(r"<svg\b[^>]*>", page).group(0)
    assert re.search(r'viewBox="0 0 [\d.]+ [\d.]+"', tag)
    assert "width:100%" in tag and "height:auto" in tag
    assert not re.search(r"\s(width|height)=", tag)
    assert "<?xml" not in page


def test_hostile_names_are_text():
    evil = 'Bob" <script> alert(1) </script> <img src=x onerror=alert(1)> & co'
    rep = Report(title=f"Game {evil}", audience="union", header=[("player", evil)], move=[evil, f"    {evil}"],
                 sections=[Section(title=evil, lines=[evil, f"- {evil}"], columns=["unit", evil],
                                   rows=[[evil, "ok"]])])
    page = report_html(rep)
    assert "<script" not in page and "<img" not in page
    # <title>, <h1>, the move and its command, the summary, two items, the column, the cell, the footer
    assert page.count(html.escape(evil, quote=True)) == 10
    assert page.index("<table", page.index("<summary")) < page.index("<li>", page.index("<summary"))
    # a long hostile token is escaped inside its breakable span
    page = report_html(Report(title="t", audience="u", header=[("p", "<script>alert(document.cookie)</script>")]))
    assert "<script" not in page and "&lt;script&gt;alert(document.cookie)&lt;/script&gt;</span>" in page


def test_a_mail_shows_its_map_as_a_picture_of_the_mail():
    page = report_html(Report(title="t", audience="union", header=[], move=["Your move: x."],
                              brief=["Whitcomb attacks 1510: 2/1"], map_note="map attached"), map_cid="map@x")
    assert '<img src="cid:map@x"' in page and "<svg" not in page
    assert page.index("Your move") < page.index("This turn in brief") < page.index("cid:map@x")


def test_long_tokens_may_break_and_words_in_cells_stay_whole():
    digest = "f1ccc762e3f0d7b5dd1e83e7e4922e0bcb0dc0b22ce1e7d27d600d6953314124"
    page = report_html(Report(title="t", audience="u", header=[("head", f"{digest} (event 3)")]))
    assert f'<span style="overflow-wrap:anywhere;word-break:break-all;">{digest}</span> (event 3)' in page
    cols = ["turn", "by", "target", "A-D", "column", "die", "result", "effects"]
    rows = [["14", "union", "1003", "16-3 = +13", ">=+10", "2", "Dm(Dr)", "an unseen Confederate unit eliminated"]]
    table = _table(cols, rows)
    assert "<td>14</td>" in table and "word-break" not in table and "overflow-wrap" not in table


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
