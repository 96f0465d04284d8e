"""Narration names units by reference, and each event is written for its audiences when it is made
(umpired line-of-sight play, :mod:`hxref.systems.salem_church.narration`): a side reads an unseen
enemy unit as "an unseen ... unit", its owner and the umpire by its name; no text is redacted after
it is written."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from hxref.kit.events import visible
from hxref.systems.salem_church import narration as nr
from hxref.systems.salem_church.system import SYSTEM

PACKAGE = Path(nr.__file__).parent
#: the one module that may use regular expressions: it parses the chart's cells (``Dc(Ex) + Leader``)
CHART_READER = "crt.py"


def _regex_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "re" for a in node.names):
            found.append(f"{path.name}:{node.lineno}: import re")
        elif isinstance(node, ast.ImportFrom) and node.module == "re":
            found.append(f"{path.name}:{node.lineno}: from re import")
        elif isinstance(node, ast.Attribute) and node.attr in ("sub", "subn"):
            found.append(f"{path.name}:{node.lineno}: .{node.attr}(")
    return found


def test_no_salem_module_rewrites_text_by_regex():
    modules = sorted(PACKAGE.glob("*.py"))
    assert {p.name for p in modules} >= {"narration.py", "turn.py", "combat.py", "movement.py", "views.py",
                                         "system.py", "report.py"}
    # the chart reader parses the chart's cells; the map marks read the effects a reader was told
    # (a retreat's hex) to draw them: both import re, and neither may rewrite text with it
    found = [hit for p in modules for hit in _regex_uses(p)
             if not (p.name in (CHART_READER, "marks.py") and hit.endswith("import re"))]
    assert found == []
    from hxref.systems.salem_church import system, views

    for gone in ("_needles", "_names", "_redact", "fog_events"):
        assert not hasattr(system, gone), gone
    for gone in ("_needles", "_scrub", "_about", "_mentions"):
        assert not hasattr(views, gone), gone


def test_a_line_names_each_unit_as_its_reader_sees_it():
    st = SYSTEM.setup(SYSTEM.load_scenario("salem-church"))
    said = nr.line(nr.listing([nr.name("wilcox-m"), nr.name("first-1"), nr.ident("mclaws-m")]), " and zz-1")
    assert said.units == {"wilcox-m", "first-1", "mclaws-m"}
    assert said.told(nr.everyone(st)) == "Wilcox/M, First/1, McLaws/M and zz-1"
    union = nr.audience(st, "union", seen={"wilcox-m"})
    assert said.told(union) == "Wilcox/M, First/1, an unseen Confederate unit and zz-1"
    confederate = nr.audience(st, "confederate", seen=set())
    assert said.told(confederate) == "Wilcox/M, an unseen Union unit, McLaws/M and zz-1"
    # the plain data kept in the state gives the same line back
    assert nr.Line.from_data(json.loads(json.dumps(said.data()))) == said


class PurposeDice:
    """Faces by what the die is for (the first word of its purpose)."""

    def __init__(self, faces: dict[str, int]) -> None:
        self.faces, self.asked = faces, []

    def d6(self, purpose, by=None, visible_to=None):
        self.asked.append(purpose)
        for what, face in self.faces.items():
            if purpose.startswith(what):
                return face
        raise AssertionError(f"unexpected roll: {purpose}")


def _church_attack(mode: str):
    """First/1 attacks Wilcox/M and McLaws/M in Salem Church: differential 5 - 7 = -2, die 4:
    Ac(Ex) + Leader; First/1 passes its MC (Ex: a step each side); McLaws/M's casualty roll, 5,
    kills him.  He leaves the map: the Union sees him no more."""
    sc = SYSTEM.load_scenario("salem-church")
    sc["table_mode"] = mode
    st = SYSTEM.setup(sc)
    for u in st["units"].values():
        u["hex"] = None
    st["units"]["first-1"]["hex"] = "0709"
    st["units"]["wilcox-m"]["hex"] = "0609"
    st["units"]["mclaws-m"]["hex"] = "0609"
    st.update(turn=2, phasing="union", stage="play")
    dec = SYSTEM.decisions(st)[0]
    dice = PurposeDice({"CRT": 4, "MC": 1, "leader casualty": 5})
    st, events = SYSTEM.resolve(st, dec, {"union": {"attacks": [{"attackers": ["first-1"], "target": "0609"}]}},
                                dice)
    assert st["units"]["mclaws-m"].get("killed") and st["units"]["mclaws-m"]["hex"] is None
    return st, [e for e in events if e["type"] == "combat"]


def test_an_unseen_unit_is_not_named_to_the_enemy_and_named_to_its_owner():
    st, combats = _church_attack("umpired")
    (confederate,) = [e for e in combats if visible(e, "confederate")]
    (union,) = [e for e in combats if visible(e, "union")]
    assert confederate is not union
    assert confederate["visible_to"] == ["confederate"] and union["visible_to"] == ["union"]
    # the owner (and the umpire, who reads both) is told who was killed
    assert "McLaws/M killed" in confederate["text"] and "leader casualty McLaws/M: 5: killed" in confederate["text"]
    assert confederate["explain"]["effects"]["leaders"][0]["leader"] == "McLaws/M"
    # the enemy, who does not see him now, is told that a unit it does not see was killed, and
    # still reads the unit it sees by name
    text = json.dumps(union)
    assert "McLaws/M" not in text and "mclaws-m" not in text
    assert union["text"].endswith("an unseen Confederate unit killed")
    assert "leader casualty an unseen Confederate unit: 5: killed" in union["text"]
    assert "Wilcox/M loses a step" in union["text"] and "Wilcox/M 5" in union["text"]
    assert union["explain"]["effects"]["leaders"][0]["leader"] == "an unseen Confederate unit"
    # the public report reads neither (each names a unit one side does not see); the umpire's
    # report shows both, each with the side it was told to
    assert not [e for e in combats if visible(e, None)]
    from hxref.report.turn import event_line

    assert event_line({"data": union}, "umpire", "umpired").endswith("(told to union only)")
    assert event_line({"data": confederate}, "umpire", "umpired").endswith("(told to confederate only)")
    # the turn summary: the same, built for each side from the record's references
    row = {side: SYSTEM.view(st, side, "umpired")["combats"][0]["effects"] for side in ("union", "confederate")}
    assert row["confederate"].endswith("McLaws/M killed")
    assert row["union"].endswith("an unseen Confederate unit killed") and "McLaws" not in row["union"]


def test_an_open_game_tells_everyone_the_whole_event():
    _, combats = _church_attack("open")
    (combat,) = combats
    assert "visible_to" not in combat and combat["text"].endswith("McLaws/M killed")


@pytest.mark.parametrize("mode, told_union", [("umpired", False), ("open", True)])
def test_the_move_of_a_unit_the_enemy_does_not_see_is_told_to_its_owner_only(mode, told_union):
    sc = SYSTEM.load_scenario("salem-church")
    sc["table_mode"] = mode
    st = SYSTEM.setup(sc)
    for u in st["units"].values():
        u["hex"] = None
    st["units"]["first-1"]["hex"] = "0909"
    st["units"]["kershaw-m"]["hex"] = "0713"            # heavy woods: unseen from 0909
    st.update(turn=1, phasing="confederate", stage="play")
    dec = SYSTEM.decisions(st)[0]
    st, events = SYSTEM.resolve(st, dec, {"confederate": {"moves": [{"unit": "kershaw-m", "path": ["0714"]}]}},
                                PurposeDice({}))
    (move,) = [e for e in events if e["type"] == "move"]
    assert "Kershaw/M moves 0713 > 0714" in move["text"]
    assert visible(move, "confederate") and visible(move, "umpire")
    assert visible(move, "union") is told_union
