"""The KGP Initial set-up checked on the placements the sides send (8.51-8.53, SSR CG6, CG7, CG20):
what the case book (games/kgp/cases/initial_setup.yaml) cannot say -- the attacks a player would try
with his own orders, the umpire's views, and the geometry of the set-up lines."""
import random

import pytest

from hxref.kit.charts import Charts
from hxref.base.errors import HxrefError
from hxref.kit import schema
from hxref.systems.kgp.purchase import ob_objective_ids
from hxref.systems.kgp.setup_rules import plan
from hxref.systems.kgp.system import SYSTEM
from tests.kgp.test_flow import answer, game  # noqa: F401  (the fixture)

CHARTS = Charts.today("kgp")     # the data folder's files as they are today: no game's


def _seals(cg, side):
    return [{"id": i, "kind": "objective_hex", "commitment": "1" * 64} for i in ob_objective_ids(CHARTS, cg, side)]


def _setup_state(cg, mode="umpired"):
    return SYSTEM.setup({**SYSTEM.load_scenario(cg), "table_mode": mode})


def test_cg7b_the_side_keeping_the_turn_cannot_release_a_german_reserve_out_of_range(game):  # noqa: F811
    """The attack: in CG-II the US keeps the turn record; he names a German Reserve released by
    "LOS" from a unit 9 hexes away, to see its contents early.  Refused (CG7b: within 6 hexes)."""
    answer(game, {"german": {"purchase": ["V4"], "placements": [
        {"id": "r1", "rg": "V4", "kind": "vehicle", "hex": "SS5", "reserve": True}]}})
    with pytest.raises(HxrefError) as e:
        game.answer_solo("us", game.awaiting[0].id, {"release": [{"id": "r1", "by": "los", "enemy_hex": "SS14"}]})
    assert "CG7b" in e.value.render() and "9 hexes" in e.value.render()
    assert not game.state["placements"]["german"][0].get("released")
    with pytest.raises(HxrefError) as e:              # nor one that was never set up
        game.answer_solo("us", game.awaiting[0].id, {"release": [{"id": "r9", "by": "attack"}]})
    assert "no Reserve Cloaking counter 'r9'" in e.value.render()
    answer(game, {"us": {"release": [{"id": "r1", "by": "los", "enemy_hex": "SS10"}]}})   # 5 hexes: released
    assert game.state["placements"]["german"][0]["released"] == "20PM turn 1"


def test_cg7a_the_us_does_not_see_what_is_under_a_german_reserve_cloaking_counter():
    """Umpired: the German placements (the RG under each Cloaking counter) are the German's own;
    the US is told the counters and their hexes only, as on the table."""
    state = _setup_state("cg-ii")
    dec = SYSTEM.decisions(state)[0]
    answers = {"us": {"seal": _seals("cg-ii", "us")},
               "german": {"purchase": ["V4"], "seal": _seals("cg-ii", "german"), "placements": [
                   {"id": "r1", "rg": "V4", "kind": "vehicle", "hex": "SS5", "reserve": True}]}}
    for side, choice in answers.items():
        assert SYSTEM.check(state, dec, side, choice) == []
    new, events = SYSTEM.resolve(state, dec, answers, _Dice())
    assert "german" not in SYSTEM.view(new, "us", "umpired").get("placements", {})
    assert SYSTEM.view(new, "german", "umpired")["placements"]["german"][0]["rg"] == "V4"
    told = [e for e in events if e["type"] == "setup.reserves"]
    assert told and "visible_to" not in told[0] and "V4" not in told[0]["text"]


class _Dice:
    def d6(self, purpose, by=None, visible_to=None):
        return 3


GOOD = ["C50", "SS5", "N5", "A1", "K22", "K20", "HH0", "A10", "GG1", "N56", "V56", "U55", "R44", "X40"]
BAD = ["", "../x", "/etc/passwd", "a1", "St", "ChZZZ1", "LgA1", "A-1", "GG999", "south", "0", "HH0HH0", "ChHH0 ",
       "NN6", "A10", "V56", "SS5", "R44", "K10"]


@pytest.mark.parametrize("cg", ["cg-i", "cg-ii", "cg-iii"])
def test_no_placement_a_player_can_write_makes_resolve_raise(cg):
    """Random placements of every shape the schema lets through: each is refused with a Problem
    naming a rule, or resolved without an exception."""
    rnd = random.Random(cg)
    state = _setup_state(cg)
    dec = SYSTEM.decisions(state)[0]
    keys = ("hex", "enter", "entry_hex", "building")
    resolved = 0
    for _ in range(600):
        side = rnd.choice(["us", "german"])
        choice = {"seal": _seals(cg, side), "placements": [_placement(rnd, keys) for _ in range(rnd.randint(1, 2))]}
        problems = schema.check(dec.schema, choice, dec.rule) or SYSTEM.check(state, dec, side, choice)
        if problems:
            assert all(p.rule for p in problems)
            continue
        resolved += 1
        other = "german" if side == "us" else "us"
        SYSTEM.resolve(state, dec, {side: choice, other: {"seal": _seals(cg, other)}}, _Dice())
    assert resolved >= 1                               # the honest placements among them are played


def _placement(rnd, keys):
    x = {"kind": rnd.choice(["mmc", "leader", "vehicle", "gun", "sw", "fortification", "dummy"])}
    x[rnd.choice(["hex", "enter"])] = rnd.choice(GOOD)
    for k in rnd.sample(keys, rnd.randint(0, 2)):
        x[k] = rnd.choice(GOOD + BAD)
    for k, v in (("rg", rnd.choice(["I1", "I2", "V2", "V4", "HW1", "G1"])), ("reserve", True), ("hip", True),
                 ("id", rnd.choice(["r1", "r2"])), ("turn", rnd.randint(1, 3)), ("ca", "E"), ("ft", True),
                 ("unit", rnd.choice(["PzKpfw VIb", "M4A3", "8-0"])), ("fortification", "foxhole-1s")):
        if rnd.random() < 0.15:
            x[k] = v
    return x


def test_8_51_8_53_the_set_up_lines_and_the_entry_areas():
    i, ii, iii = plan(CHARTS, "cg-i"), plan(CHARTS, "cg-ii"), plan(CHARTS, "cg-iii")
    on = [h for h in ("StA29", "StJ33", "StS38", "StS50") if not i.area("german", i.group.parse(h))]
    assert on == []                                    # the line's own hexes are "on" it
    assert not i.area("german", i.group.parse("StA28")) and not i.area("german", i.group.parse("StT45"))
    assert ii.area("german", ii.group.parse("ChH1")) and not ii.area("german", ii.group.parse("ChF1"))
    assert iii.area("german", iii.group.parse("LgR44")) and not iii.area("german", iii.group.parse("LgGG10"))
    for p in (i, ii, iii):                              # SSR CG6: the arrow hex and 4 each side
        assert all(len(p.group.entry_hexes(p.group.parse(a.centre))) == 9 for a in p.cg.entry_areas)
