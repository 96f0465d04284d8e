"""The second scenario, river-line (rail, gunboats, a river line), played through the engine in solo mode."""
import json

from hxref.referee.audit import audit
from hxref.referee.engine import Engine
from hxref.report import turn


def _answer(eng, side, choice):
    eng.answer_solo(side, None, choice)


def test_river_line_plays_an_impulse_with_gunboats_and_audits(tmp_path, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "r.yaml", system="heartland", scenario="river-line", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="river-test")
    st = eng.state
    assert set(st["naval"]["gunboats"]) == {"gb1", "gb2"} and set(st["trains"]) == {"ut1", "ct1"}
    _answer(eng, "union", {"bid": 3})
    _answer(eng, "confederate", {"bid": 1})
    eng.resolve()
    dec = eng.awaiting[0]
    assert dec.kind == "orders" and dec.sides == ("union",)
    # the Union gunboat runs downstream one hexside, Kerr's cavalry corps moves a hex
    _answer(eng, "union", {"gunboats": [{"gunboat": "gb1", "to": "1209/1210"}],
                           "moves": [{"force": "kerr", "path": ["1507"]}]})
    eng.resolve()
    assert eng.state["naval"]["gunboats"]["gb1"]["hexside"] == "1209/1210"
    kinds = [e["data"].get("type") for e in eng.gf.log if e["kind"] == "rules"]
    assert "gunboat" in kinds and "supply" in kinds
    eng.save()
    res = audit(tmp_path / "r.yaml")
    assert res.ok, res.problems
    # reports and the side's map picture render from the views
    for who in (None, "union", "confederate"):
        json.loads(turn.render(turn.build(eng, who), "json"))
    mv = eng.system.map_view(eng.system.view(eng.state, "union", "solo"))
    path, units = mv.map_path, mv.units
    assert path.name == "river-line.yaml" and units


def test_river_line_orders_refuse_a_gunboat_that_is_not_ours(tmp_path, monkeypatch):
    import pytest

    from hxref.base.errors import HxrefError

    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    eng = Engine.create(tmp_path / "r.yaml", system="heartland", scenario="river-line", mode="solo",
                        sides={"union": None, "confederate": None}, game_id="river-test-2")
    _answer(eng, "union", {"bid": 1})
    _answer(eng, "confederate", {"bid": 3})
    eng.resolve()
    with pytest.raises(HxrefError) as e:
        _answer(eng, "confederate", {"gunboats": [{"gunboat": "gb1", "to": "1209/1210"}], "moves": []})
    assert "8.91" in e.value.render()


def test_the_naval_assault_display_is_hidden_from_the_confederates():
    from hxref.systems import get
    from hxref.systems.heartland.views import army_view

    sysobj = get("heartland")
    st = sysobj.setup(sysobj.load_scenario("river-line"))
    gb = st["naval"]["gunboats"]["gb1"]
    gb.update(hexside=None, box="any_impulse_t1", cargo={"units": ["u3"], "leaders": [], "wagon": None})
    conf = army_view(st, "confederate", "umpired")
    assert "gb1" not in conf["naval"]["gunboats"] and "gb2" in conf["naval"]["gunboats"]   # 3.17
    union = army_view(st, "union", "umpired")
    assert union["naval"]["gunboats"]["gb1"]["cargo"]["units"] == ["u3"]
