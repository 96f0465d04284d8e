"""The turn in brief of Salem Church, ACW miniatures and KGP, through the rules: each shipped demo
played by the real CLI (every order through the system's ``check`` and ``resolve``), then each
resolution's brief read by each audience from the events it may see."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from hxref.referee.engine import Engine
from hxref.kit.events import shown
from hxref.report import story


def _played(tmp_path_factory, system: str) -> Engine:
    folder = tmp_path_factory.mktemp(system) / "game"
    subprocess.run([sys.executable, "-m", "hxref.cli", "demo", "--system", system, "--keep", str(folder)],
                   check=True, capture_output=True)
    return Engine.load(folder / "game.yaml")


def _briefs(eng: Engine, audience: str | None) -> dict[str, list[str]]:
    mode = eng.h["meta"]["mode"]
    view = eng.system.view(eng.h["state"], audience, mode)
    out = {}
    for r in story.resolutions(eng.gf.log, 0):
        evs = [ev["data"] for ev in r.events[1:] if ev["kind"] in ("rules", "die") and shown(ev["data"], audience, mode)]
        out[r.decision] = eng.system.brief(evs, view, audience)
    return out


@pytest.fixture(scope="module")
def salem(tmp_path_factory):
    return _played(tmp_path_factory, "salem-church")


def test_salem_brief_tells_the_attack_its_result_and_the_leader_killed_by_name(salem):
    lines = _briefs(salem, "union")["t3.union"]
    assert lines[0].startswith("Attack on 0609: Art/1, First/1, Second/1, Brooks/1 vs ")
    assert "die 4: Dm(Dr) + Leader -- Wilcox/M disrupted; Brooks/1 killed" in lines[0]
    assert all(len(b) <= 8 for b in _briefs(salem, "union").values())


def test_salem_turn_summary_names_units_as_the_other_tables_do(salem):
    view = salem.system.view(salem.h["state"], "union", "umpired")
    table = next(s for s in salem.system.report(view) if s.title.startswith("Turn summary"))
    cells = " ".join(r[2] for r in table.rows)
    assert "First" in cells or "Kershaw" in cells
    assert "-1" not in cells and "-m" not in cells and "-3" not in cells


@pytest.mark.parametrize("side,other", [("union", "confederate"), ("confederate", "union")])
def test_salem_brief_of_one_side_names_none_of_the_others_secrets(salem, side, other):
    """The attacker reads his own briefs, turn after turn, for the enemy units his sight does not
    reach (the umpired game's secrets)."""
    secrets = {s for s in salem.system.secrets(salem.h["state"], other) if len(s) > 3}
    text = "\n".join(line for lines in _briefs(salem, side).values() for line in lines)
    assert text
    assert not [s for s in secrets if s in text]


def test_acw_brief_tells_the_victory_the_eliminated_and_the_hits_by_name(tmp_path_factory):
    eng = _played(tmp_path_factory, "acw-minis")
    lines = _briefs(eng, "union")["t8.union"]
    assert lines[0].startswith("union has eliminated 4 enemy units (Ransome's Tigers, ")
    assert "Eliminated: Pegues' Horse." in lines
    assert any(x.startswith("Pegues' Horse takes 4 hits: ") for x in lines)
    assert not any("cs-" in x or "us-" in x for b in _briefs(eng, "union").values() for x in b)


def test_kgp_brief_tells_what_the_rolls_decided_and_keeps_each_sides_secrets(tmp_path_factory):
    eng = _played(tmp_path_factory, "kgp")
    us = _briefs(eng, "us")
    # the scenario's last turn: how long it lasts is the Game End drs', which follow the pinned charts
    last = max((d for d in us if d.startswith("d20PM.t")), key=lambda d: int(d.rsplit(".t", 1)[1]))
    assert any(re.search(r"Game End dr \d (<= circled \d.*: the scenario ends at once|> circled \d.*: the scenario "
                         r"continues)", x) for x in us[last])
    assert us["d20PM.report.2"][0].startswith("20PM CG Roster: Current LVP US 4, German 8")
    for side, other in (("us", "german"), ("german", "us")):
        secrets = {s for s in eng.system.secrets(eng.h["state"], other) if len(s) > 3}
        text = "\n".join(x for b in _briefs(eng, side).values() for x in b)
        assert not [s for s in secrets if s in text]
