"""The shipped demo's scripted Salem Church players bombard (stand-in chart, bombardment.py):
``tools/make_demo_orders.py``'s :class:`SalemPlanner` gives each battery that does not attack a
legal bombardment, which hxref's own ``check`` accepts and ``resolve`` fires."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from hxref.systems.salem_church import bombardment as bb
from hxref.systems.salem_church.system import SYSTEM
from tests.salem_church.test_narration import PurposeDice

TOOL = Path(__file__).resolve().parents[2] / "tools" / "make_demo_orders.py"
CHART = bb.BombardmentChart.load(SYSTEM.charts)


def planner_module():
    spec = importlib.util.spec_from_file_location("make_demo_orders", TOOL)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def position(pos: dict[str, str], turn: int = 2) -> dict:
    sc = SYSTEM.load_scenario("salem-church")
    st = SYSTEM.setup(sc)
    for u in st["units"].values():
        u["hex"] = None
    for uid, label in pos.items():
        st["units"][uid]["hex"] = label
    st.update(turn=turn, phasing="union", stage="play")
    return st


# Art/1 (range 3) in 1508, First/1 by it in 1509; Wilcox/M 2 hexes off in 1306, in its LOS for fire
BATTERY = {"art-1": "1508", "first-1": "1509", "wilcox-m": "1306"}


def test_a_battery_in_range_of_an_enemy_brigade_is_scripted_to_bombard_it():
    st = position(BATTERY)
    mod = planner_module()
    p = mod.SalemPlanner(st, "union", SYSTEM.charts)
    assert bb.problem(st, p.hm, "union", {"unit": "art-1", "target": "1306"}, chart=CHART) is None
    assert p.bombardments(set()) == [{"unit": "art-1", "target": "1306"}]


def test_the_scripted_orders_bombard_and_pass_check_and_resolve():
    # the battery moves west with First/1 first, then fires from where it stands (1007, 3 hexes)
    st = position(BATTERY)
    choice = planner_module().SalemPlanner(st, "union", SYSTEM.charts).orders()
    assert choice["bombard"] == [{"unit": "art-1", "target": "1306"}]
    assert "art-1" not in {u for a in choice["attacks"] for u in a["attackers"]}
    dec = SYSTEM.decisions(st)[0]
    assert SYSTEM.check(st, dec, "union", choice) == []
    before = int(st["units"]["wilcox-m"]["steps"])
    after, events = SYSTEM.resolve(st, dec, {"union": choice}, PurposeDice({"bombardment": 6}))
    (fire,) = [e for e in events if e["type"] == "bombardment"]
    assert "Art/1 in 1007 bombards 1306" in fire["text"] and "Wilcox/M loses a step" in fire["text"]
    assert after["units"]["wilcox-m"]["steps"] == before - 1


def test_a_battery_that_attacks_does_not_also_bombard():
    st = position(BATTERY)
    p = planner_module().SalemPlanner(st, "union", SYSTEM.charts)
    assert p.bombardments({"art-1"}) == []


def test_no_scripted_bombardment_at_night():
    st = position(BATTERY, turn=6)                  # 18.0: turn 6 is the night turn
    choice = planner_module().SalemPlanner(st, "union", SYSTEM.charts).orders()
    assert "bombard" not in choice


def test_no_bombardment_out_of_range():
    st = position({"art-1": "1508", "first-1": "1509", "wilcox-m": "1102"})
    p = planner_module().SalemPlanner(st, "union", SYSTEM.charts)
    assert bb.problem(st, p.hm, "union", {"unit": "art-1", "target": "1102"}, chart=CHART) is not None
    assert p.bombardments(set()) == []
