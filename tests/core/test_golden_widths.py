"""Every report and the dashboard at 80 and at 160 columns, from the shipped demos.

Each system's side report (``hxref report GAME --side S --format text --width N``), ``hxref status
GAME`` and the dashboard ``hxref status DIR`` are golden files in tests/golden/ (rewritten with
HXREF_REGEN_GOLDEN=1).  At 80 columns no line is longer than 80 characters, no name is cut with an
ellipsis, and no word is split across lines: every word of the 80-column text is a word of the
160-column text (a file path may break after a slash).
"""
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hxref.cli import main
from tests import played

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
WIDTHS = (80, 160)
#: each registered system's demo (SystemInfo.demo) and the side whose report is golden: its first
SIDE = {d.system: next(iter(d.manifest()["keys"])) for d in played.default_demos()}
_RULE = re.compile(r"^[═║╔╗╚╝━─│]+$")      # borders and rules: as long as the room, not words


@pytest.fixture(scope="module")
def demos(tmp_path_factory, played):
    """Each system's demo, played to its end (tests/played.py), copied into a folder of its own
    under one root (the dashboard's DIR)."""
    root = tmp_path_factory.mktemp("demos")
    for system in SIDE:
        played.copy(system, root / system)
    return root


def _run(root: Path, *args: str, width: int) -> str:
    """A command's output at ``width`` columns, run in ``root`` so every path in it is relative."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        res = CliRunner(env={"COLUMNS": str(width), "HXREF_NOW": "2026-12-01T12:00:00Z"}).invoke(
            main, list(args), catch_exceptions=False)
    finally:
        os.chdir(cwd)
    assert res.exit_code == 0, res.output
    return res.output.replace(str(root), "DEMOS")


def _golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("HXREF_REGEN_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), f"{name} differs (HXREF_REGEN_GOLDEN=1 rewrites it)"


def _words(text: str, paths: bool = False) -> set[str]:
    words = {w for w in text.split() if not _RULE.match(w)}
    if paths:           # a path may break after a slash: its pieces count as words
        words |= {p for w in list(words) for p in re.split(r"(?<=/)", w) if p}
    return words


def _readable(texts: dict[int, str], name: str) -> None:
    """At each width no line is longer; no ellipsis; no word of the 80-column text that is not one
    of the 160-column text (a word split across lines would be two that are not)."""
    for width, text in texts.items():
        long = [line for line in text.splitlines() if len(line) > width]
        assert not long, f"{name} at {width}: {long[:3]}"
        assert "…" not in text, name
    split = _words(texts[80]) - _words(texts[160], paths=True)
    assert not split, f"{name}: words split at 80 columns: {sorted(split)[:10]}"


def _report(demos: Path, system: str, width: int) -> str:
    return _run(demos, "report", f"{system}/game.yaml", "--side", SIDE[system], "--format", "text",
                "--width", str(width), width=width)


@pytest.mark.parametrize("system", list(SIDE))
def test_side_report_at_80_and_160_columns(demos, system):
    texts = {w: _report(demos, system, w) for w in WIDTHS}
    _readable(texts, system)
    for w, text in texts.items():
        _golden(f"{system}-{SIDE[system]}-report-{w}.txt", text)


def test_the_army_organization_display_names_every_leader_and_unit_whole(demos):
    """A leader's row with his units as rows under him: each name whole on one line at 80 columns."""
    view = json.loads(_run(demos, "report", "heartland/game.yaml", "--side", "union", "--format", "json",
                           width=80))["view"]
    lines = _report(demos, "heartland", 80).splitlines()
    aod = lines[next(i for i, line in enumerate(lines) if "Army Organization Display" in line):]
    aod = aod[:aod.index("")]
    names = [ld["name"] for ld in view["leaders"].values() if ld["side"] == "union" and not ld.get("pool")]
    names += [u["name"] for u in view["units"].values() if u["side"] == "union" and u["steps"] > 0]
    assert len(names) > 5
    for name in names:
        assert any(name in line for line in aod), name
    widest = max(len(line.rstrip()) for line in aod)
    assert widest <= 80 and len(aod) == 2 + len(names) + len(view.get("logistics") or {}) + 1, aod


def test_status_of_each_game_at_80_and_160_columns(demos):
    games = [f"{s}/game.yaml" for s in SIDE] + ["heartland/pinned-data.yaml"]   # the last awaits its joins
    texts = {w: "".join(f"$ hxref status {g}\n" + _run(demos, "status", g, width=w) for g in games)
             for w in WIDTHS}
    _readable(texts, "status GAME")
    assert "hxref join heartland/pinned-data.yaml --side confederate --key KEY" in texts[160]
    for w, text in texts.items():
        _golden(f"status-game-{w}.txt", text)


def test_dashboard_at_80_and_160_columns(demos):
    texts = {w: _run(demos, "status", ".", width=w) for w in WIDTHS}
    _readable(texts, "status DIR")
    for name in ("heartland-demo", "salem-church-demo", "kgp-cg-ii-demo", "acw-mercers-mill-demo", "awaiting"):
        assert all(name in text for text in texts.values()), name
    for w, text in texts.items():
        _golden(f"dashboard-{w}.txt", text)
