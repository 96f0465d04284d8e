"""KGP campaign data and pure functions: CG calendar, chits, LVP and victory (8.51-8.53, 8.603).

The expected numbers are the digest's (rules/kgp.md), written here before the
data files were: CG-I 8 CG Dates (8.51), CG-II 4 (8.52), CG-III 13 (8.53);
map-group LVP 52 / 14 / 34 (8.603); Attack Chit limits 5/3, 3/1, 8/3; the
initial CPP 25/85, 24/35, 14/30; the LVP examples 10 -> 25 -> 37 (8.603) and
the Sanatorium 20 -> 16 (8.2 LVP); every victory condition met and not met.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from hxref.kit.charts import Charts
from hxref.base.errors import InvalidInput
from hxref.systems.kgp import campaign as C
from hxref.systems.kgp import cg_calendar as cal
from hxref.systems.kgp import chits
from hxref.systems.kgp import rg_chart
from hxref.systems.kgp import victory as V

CHARTS = Charts.today("kgp")     # the data folder's files as they are today: no game's
INITIATIVE = chits.load_initiative_chart(CHARTS)

ROOT = Path(__file__).resolve().parents[2]
KGP = ROOT / "games" / "kgp"


@pytest.fixture(scope="module")
def cgs():
    return {name: C.load_campaign(CHARTS, name) for name in C.CAMPAIGNS}


# --------------------------------------------------------------------------
# the numbers of 8.51-8.53 and 8.603, checked against the data files


@pytest.mark.parametrize("name, count, first, last, group, sections, lvp", [
    ("cg-i", 8, "19AM", "21PM", "St", 2, 52),      # 8.51; 8.2 Map Group; 8.603
    ("cg-ii", 4, "20PM", "21PM", "Ch", 1, 14),     # 8.52
    ("cg-iii", 13, "19PM", "23PM", "Lg", 2, 34),   # 8.53
])
def test_cg_dates_map_group_and_lvp_total_8_5x_8_603(cgs, name, count, first, last, group, sections, lvp):
    cg = cgs[name]
    assert len(cg.dates) == count
    assert cg.dates[0].label == first and cg.dates[-1].label == last
    assert cg.map_group == group and cg.map_sections == sections
    assert cg.lvp_total == lvp
    assert list(cg.dates) == list(cal.date_range(first, last))
    assert cg.initial.date == cg.dates[0]         # 8.5: the Initial Scenario is the first CG Date


@pytest.mark.parametrize("name, us, german", [("cg-i", 5, 3), ("cg-ii", 3, 1), ("cg-iii", 8, 3)])
def test_attack_chit_limits_8_5x(cgs, name, us, german):
    cg = cgs[name]
    assert cg.attack_chits == {"us": us, "german": german}


@pytest.mark.parametrize("name, us_cpp, german_cpp, first, moves", [
    ("cg-i", 25, 85, "us", "german"),        # 8.51 US / German Initial OB; setup order
    ("cg-ii", 24, 35, "german", "us"),       # 8.52
    ("cg-iii", 14, 30, "german", "us"),      # 8.53
])
def test_initial_cpp_and_setup_order_8_5x(cgs, name, us_cpp, german_cpp, first, moves):
    ini = cgs[name].initial
    assert ini.sides["us"].cpp == us_cpp and ini.sides["german"].cpp == german_cpp
    assert ini.sets_up_first == first and ini.moves_first == moves


@pytest.mark.parametrize("name, side, elr, san", [
    ("cg-i", "us", 3, 3), ("cg-i", "german", 5, 2),
    ("cg-ii", "german", 5, 4), ("cg-ii", "us", 5, 2),
    ("cg-iii", "german", 5, 2), ("cg-iii", "us", 4, 2),
])
def test_initial_elr_and_san_8_5x(cgs, name, side, elr, san):
    s = cgs[name].initial.sides[side]
    assert (s.elr, s.san) == (elr, san)


def _ob(cg, side):
    return {(item.name): item.count for item in cg.initial.sides[side].ob}


def test_initial_obs_as_printed_8_51_8_52_8_53(cgs):
    us1, de1 = _ob(cgs["cg-i"], "us"), _ob(cgs["cg-i"], "german")
    assert us1["Infantry Platoon"] == 6 and us1["AT Platoon"] == 1 and us1["Medium Tank Platoon II"] == 1
    assert us1["76L AT Gun"] == 4 and us1["Crew"] == 5 and us1["M4A3"] == 3 and us1["M8"] == 2
    assert us1["M4 tractor"] == 1 and us1["1S Foxhole"] == 15
    assert de1 == {"SS PzGren Platoon": 4, "SS PzGren Heavy Weapons Platoon": 1, "Pz IV Section": 4, "Pz V Section": 4}
    de2, us2 = _ob(cgs["cg-ii"], "german"), _ob(cgs["cg-ii"], "us")
    assert de2 == {"SS Infantry Platoon": 2, "AA HT Section I": 2, "AA HT Section II": 1, "AA Truck Section": 1,
                   "SS MG Platoon": 1, "Roadblock": 1}
    assert us2 == {"Paratroop Infantry Platoon": 3, "SPW 251/9": 1}
    de3, us3 = _ob(cgs["cg-iii"], "german"), _ob(cgs["cg-iii"], "us")
    assert de3 == {"SS PzGren Platoon": 1, "PzKpfw VIb": 1, "SS Infantry Platoon": 1}
    assert us3["Infantry Platoon"] == 1 and us3["8-0 Leader"] == 1


def test_counts_the_seed_lost_are_stand_ins_8_51_8_53(cgs):
    """The 90L AA Gun count (CG-I) and the Medium Tank Platoon II count (CG-III) are illegible/lost."""
    aa = [i for i in cgs["cg-i"].initial.sides["us"].ob if i.name.startswith("90L")]
    tanks = [i for i in cgs["cg-iii"].initial.sides["us"].ob if i.name == "Medium Tank Platoon II"]
    assert len(aa) == 1 and aa[0].stand_in
    assert len(tanks) == 1 and tanks[0].stand_in


def test_initial_ob_rgs_name_rgs_of_the_stand_in_chart_8_619():
    chart = rg_chart.load_rg_chart(CHARTS)
    assert chart.stand_in
    for name in C.CAMPAIGNS:
        cg = C.load_campaign(CHARTS, name)
        for side, s in cg.initial.sides.items():
            for item in s.ob:
                if item.rg:
                    rg = chart.get(side, item.rg)
                    assert rg.name == item.name, (name, side, item.rg)
                    assert name in rg.cg_max, f"{item.rg} is not available in {name}"


def test_rg_chart_shape_for_a_purchase_step_8_619():
    chart = rg_chart.load_rg_chart(CHARTS)
    assert set(chart.rgs) == {"us", "german"}
    for side, rgs in chart.rgs.items():
        assert rgs, side
        for rg in rgs:
            assert rg.cpp > 0 and rg.units and rg.cg_max
            assert rg.type in rg_chart.RG_TYPES
            if side == "us":
                assert rg.depleted == () and rg.entry_codes            # 8.6193 US always Full; 8.6197
            for cg in rg.cg_max:
                assert cg in C.CAMPAIGNS
    o3 = chart.get("us", "O3")                                      # SSR CG15: US RG O3 = M12 GMC OBA
    assert o3.type == "oba" and "M12" in o3.name
    assert {"I1", "I2", "I4"} <= {rg.id for rg in chart.rgs["german"]}   # SSR I.2's exception names them
    assert chart.available("german", "cg-ii") and chart.available("us", "cg-ii")


def test_entry_areas_and_eligibility_dates_cg6(cgs):
    for cg in cgs.values():
        assert cg.entry_areas
        for ea in cg.entry_areas:
            assert ea.eligible_from in cg.dates
            assert set(ea.sides) <= {"us", "german"} and ea.sides
            assert ea.centre.startswith(cg.map_group)
    rail = [ea for ea in cgs["cg-ii"].entry_areas if ea.centre == "ChHH0"]
    assert len(rail) == 1 and not rail[0].vehicles                  # CG Railroad-Bridge Entry Area
    targnon = [ea for ea in cgs["cg-i"].entry_areas if ea.centre == "StHH0"]
    assert targnon and targnon[0].name == "Targnon"                 # SSR I.2
    cg = cgs["cg-i"]
    ea = targnon[0]
    assert cg.eligible(ea, "us", "19AM") and not cg.eligible(ea, "german", "19AM")


# --------------------------------------------------------------------------
# the CG calendar (8.2 CG Date): AM -> PM -> N -> next day's AM


def test_calendar_cycle_8_2():
    assert cal.next_date("19AM").label == "19PM"
    assert cal.next_date("19PM").label == "19N"
    assert cal.next_date("19N").label == "20AM"
    assert cal.is_night("19N") and not cal.is_night("19AM") and not cal.is_night("20PM")
    assert cal.parse_date("20PM") == cal.CGDate(20, "PM")
    assert cal.CGDate(20, "N").label == "20N"
    assert cal.parse_date("19AM") < cal.parse_date("19PM") < cal.parse_date("19N") < cal.parse_date("20AM")
    assert [d.label for d in cal.date_range("20PM", "21PM")] == ["20PM", "20N", "21AM", "21PM"]


def test_campaign_calendar_ends_at_the_last_cg_date_8_2(cgs):
    cg = cgs["cg-ii"]
    assert cg.next_date("20PM").label == "20N"
    assert cg.next_date("21PM") is None and cg.is_last("21PM")
    assert not cg.is_last("21AM")


@pytest.mark.parametrize("bad", ["19M", "19", "AM", "19XM", "0AM", "19am "])
def test_date_labels_refused_name_the_rule_8_2(bad):
    with pytest.raises(InvalidInput) as e:
        cal.parse_date(bad)
    assert e.value.rule == "8.2" and repr(bad) in e.value.message


# --------------------------------------------------------------------------
# Initiative (8.623): the four chit pairs, by day and at night


def test_initiative_chart_says_where_each_outcome_comes_from_8_623():
    chart = chits.load_initiative_chart(CHARTS)
    assert len(chart.outcomes) == 8                               # 2 x 2 chits x day/night
    for o in chart.outcomes:
        assert o.source in {"seed", "public", "reading"} and o.rule
    sources = {(o.us, o.german, o.period): o.source for o in chart.outcomes}
    assert sources[("idle", "idle", "day")] == "seed"            # 8.2 Idle Date
    assert sources[("attack", "idle", "night")] == "seed"         # SSR CG5
    assert sources[("attack", "attack", "day")] == "reading"


@pytest.mark.parametrize("night", [False, True])
def test_both_idle_is_an_idle_date_8_2(night):
    o = chits.chit_outcome(INITIATIVE, "idle", "idle", night=night)
    assert o.idle_date and not o.scenario and o.attacker is None and o.source == "seed"


def test_attack_idle_by_day_attacker_moves_first_defender_sets_up_first_8_623():
    o = chits.chit_outcome(INITIATIVE, "attack", "idle", night=False)
    assert (o.attacker, o.defender, o.sets_up_first, o.moves_first) == ("us", "german", "german", "us")
    o = chits.chit_outcome(INITIATIVE, "idle", "attack", night=False)
    assert (o.attacker, o.defender, o.sets_up_first, o.moves_first) == ("german", "us", "us", "german")
    assert o.source == "reading" and o.scenario and not o.idle_date


def test_night_roles_from_the_chits_cg5():
    o = chits.chit_outcome(INITIATIVE, "idle", "attack", night=True)
    assert (o.attacker, o.defender) == ("german", "us") and o.source == "seed" and o.rule.startswith("CG5")
    o = chits.chit_outcome(INITIATIVE, "attack", "idle", date="19N")
    assert (o.attacker, o.defender) == ("us", "german") and o.night


@pytest.mark.parametrize("night", [False, True])
def test_both_attack_needs_a_dr_that_decides_the_attacker_8_623(night):
    o = chits.chit_outcome(INITIATIVE, "attack", "attack", night=night)
    assert o.scenario and o.needs_dr and o.attacker is None
    chart = chits.load_initiative_chart(CHARTS)
    for dr in range(1, 7):
        o = chits.chit_outcome(INITIATIVE, "attack", "attack", night=night, dr=dr)
        assert not o.needs_dr and o.attacker == chart.tie_break.side_for(dr)
        assert {o.attacker, o.defender} == {"us", "german"} and str(dr) in o.why
    assert chits.chit_outcome(INITIATIVE, "attack", "attack", night=night, dr=1).attacker != \
        chits.chit_outcome(INITIATIVE, "attack", "attack", night=night, dr=6).attacker


def test_chit_outcome_refuses_unknown_chits_and_needs_the_period():
    with pytest.raises(InvalidInput):
        chits.chit_outcome(INITIATIVE, "defend", "idle", night=False)
    with pytest.raises(ValueError):
        chits.chit_outcome(INITIATIVE, "idle", "idle")


# --------------------------------------------------------------------------
# victory: every condition met and not met


def _state(**kw):
    base = {"moment": "scenario_end", "date": None,
            "cg_lvp": {"us": 0, "german": 0}, "current_lvp": {"us": 0, "german": 0},
            "cvp": {"us": 0, "german": 0}}
    base.update(kw)
    return base


def test_cg_i_us_wins_with_cg_lvp_130_at_any_scenario_end_8_51(cgs):
    v = V.victory(cgs["cg-i"], _state(date="20AM", cg_lvp={"us": 130, "german": 0}))
    assert v.winner == "us" and v.cg_end
    assert v.check("cg_lvp").met and "130" in v.why


def test_cg_i_129_is_not_enough_and_the_cg_goes_on_8_51(cgs):
    v = V.victory(cgs["cg-i"], _state(date="20AM", cg_lvp={"us": 129, "german": 0}))
    assert v.winner is None and not v.cg_end
    assert not v.check("cg_lvp").met
    assert not v.check("buildings").checked                     # only at CG End


BUILDINGS = {"sanatorium": "us", "church": "us", "building-56": "us"}


def test_cg_i_us_wins_with_all_three_buildings_at_cg_end_8_51(cgs):
    v = V.victory(cgs["cg-i"], _state(date="21PM", buildings=BUILDINGS))   # last CG Date: CG End
    assert v.cg_end and v.winner == "us" and v.check("buildings").met


def test_cg_i_buildings_by_hex_and_the_lost_third_building_8_51(cgs):
    by_hex = {"StAA15": "us", "J19": "us", "P56": "us"}
    v = V.victory(cgs["cg-i"], _state(date="21AM", moment="cg_end", buildings=by_hex))
    assert v.winner == "us"
    v = V.victory(cgs["cg-i"], _state(date="21PM", buildings={**BUILDINGS, "church": "german"}))
    assert v.cg_end and not v.check("buildings").met and v.winner == "german"   # reading: German otherwise


def test_cg_i_buildings_not_checked_before_cg_end_8_51(cgs):
    v = V.victory(cgs["cg-i"], _state(date="20AM", buildings=BUILDINGS))
    assert v.winner is None and not v.check("buildings").checked


def test_cg_ii_immediate_us_win_when_germans_destroy_the_bridge_8_52(cgs):
    v = V.victory(cgs["cg-ii"], _state(date="20N", moment="during_play", bridge_destroyed_by="german"))
    assert v.winner == "us" and v.cg_end and v.check("bridge").met
    assert not v.check("lvp_hexes").checked
    v = V.victory(cgs["cg-ii"], _state(date="20N", moment="during_play", bridge_destroyed_by=None))
    assert v.winner is None and not v.check("bridge").met and not v.cg_end


def test_cg_ii_ten_lvp_hexes_at_cg_end_bridge_counts_five_8_52(cgs):
    hexes = ["ChNN6", "ChA1", "ChB2", "ChC3", "ChD4", "ChE5"]
    v = V.victory(cgs["cg-ii"], _state(date="21PM", lvp_hexes={"us": hexes}))
    assert v.winner == "us" and v.check("lvp_hexes").met and "10" in v.check("lvp_hexes").detail
    v = V.victory(cgs["cg-ii"], _state(date="21PM", lvp_hexes={"us": hexes[:-1]}))
    assert v.winner == "german" and not v.check("lvp_hexes").met and v.cg_end


def test_cg_ii_lvp_hexes_not_checked_before_cg_end_8_52(cgs):
    hexes = ["ChNN6", "ChA1", "ChB2", "ChC3", "ChD4", "ChE5"]
    v = V.victory(cgs["cg-ii"], _state(date="20N", lvp_hexes={"us": hexes}))
    assert v.winner is None and not v.cg_end


def test_cg_iii_cg_lvp_160_at_any_scenario_end_8_53(cgs):
    v = V.victory(cgs["cg-iii"], _state(date="21AM", cg_lvp={"us": 160, "german": 0}))
    assert v.winner == "us" and v.check("cg_lvp").met
    v = V.victory(cgs["cg-iii"], _state(date="21AM", cg_lvp={"us": 159, "german": 0}))
    assert v.winner is None and not v.check("cg_lvp").met


def test_cg_iii_all_existing_lvp_locations_8_53(cgs):
    v = V.victory(cgs["cg-iii"], _state(date="21AM", current_lvp={"us": 34, "german": 0}))
    assert v.winner == "us" and v.check("all_lvp").met
    v = V.victory(cgs["cg-iii"], _state(date="21AM", current_lvp={"us": 30, "german": 0}, lvp_existing=30))
    assert v.winner == "us"                                       # rubble lowered what exists (8.2 LVP EXC)
    v = V.victory(cgs["cg-iii"], _state(date="21AM", current_lvp={"us": 33, "german": 1}))
    assert v.winner is None and not v.check("all_lvp").met


def test_cg_iii_german_wins_at_cg_end_otherwise_reading(cgs):
    v = V.victory(cgs["cg-iii"], _state(date="23PM", cg_lvp={"us": 100, "german": 20}))
    assert v.cg_end and v.winner == "german" and "otherwise" in v.why


def test_every_condition_is_listed_met_or_not(cgs):
    v = V.victory(cgs["cg-i"], _state(date="19AM"))
    ids = [c.id for c in v.checks]
    assert ids == ["cg_lvp", "buildings"]
    assert [c.id for c in v.initial.checks] == ["cvp_margin", "current_lvp"]
    for c in (*v.checks, *v.initial.checks):
        assert c.rule and c.text and c.side in ("us", "german")


# the Initial Scenarios (8.51-8.53)


def test_cg_i_initial_german_win_by_cvp_margin_50_8_51(cgs):
    v = V.victory(cgs["cg-i"], _state(date="19AM", cvp={"german": 70, "us": 20}))
    assert v.initial.winner == "german" and v.initial.check("cvp_margin").met
    assert v.winner is None and not v.cg_end                      # the CG goes on


def test_cg_i_initial_49_and_27_is_a_us_win_49_and_28_german_8_51(cgs):
    v = V.victory(cgs["cg-i"], _state(date="19AM", cvp={"german": 69, "us": 20},
                                        current_lvp={"german": 27, "us": 25}))
    assert v.initial.winner == "us" and not v.initial.check("cvp_margin").met
    v = V.victory(cgs["cg-i"], _state(date="19AM", cvp={"german": 69, "us": 20},
                                        current_lvp={"german": 28, "us": 24}))
    assert v.initial.winner == "german" and v.initial.check("current_lvp").met


def test_cg_ii_initial_us_needs_1_lvp_8_52(cgs):
    v = V.victory(cgs["cg-ii"], _state(date="20PM", current_lvp={"us": 1, "german": 13}))
    assert v.initial.winner == "us"
    v = V.victory(cgs["cg-ii"], _state(date="20PM", current_lvp={"us": 0, "german": 14}))
    assert v.initial.winner == "german"


def test_cg_iii_initial_us_by_cvp_10_or_s55_and_r46_8_53(cgs):
    cg = cgs["cg-iii"]
    v = V.victory(cg, _state(date="19PM", cvp={"us": 3, "german": 0}, hexes={"us": ["LgS55", "R46"]}))
    assert v.initial.winner == "us" and v.initial.check("hexes").met
    v = V.victory(cg, _state(date="19PM", cvp={"us": 10, "german": 0}))
    assert v.initial.winner == "us" and v.initial.check("cvp").met
    v = V.victory(cg, _state(date="19PM", cvp={"us": 9, "german": 0}, hexes={"us": ["LgS55"]}))
    assert v.initial.winner == "german"
    assert not v.initial.check("cvp").met and not v.initial.check("hexes").met


def test_non_initial_scenarios_have_no_scenario_verdict_here(cgs):
    v = V.victory(cgs["cg-ii"], _state(date="20N"))
    assert v.initial is None


def test_impossible_lvp_reports_are_refused_8_603(cgs):
    with pytest.raises(InvalidInput) as e:
        V.victory(cgs["cg-ii"], _state(date="20N", current_lvp={"us": 15, "german": 0}))
    assert "14" in e.value.message and e.value.where.path == "current_lvp.us"
    with pytest.raises(InvalidInput):
        V.victory(cgs["cg-ii"], _state(date="20N", current_lvp={"us": 8, "german": 7}))
    with pytest.raises(InvalidInput):
        V.victory(cgs["cg-ii"], _state(date="24AM"))
    with pytest.raises(InvalidInput):
        V.victory(cgs["cg-ii"], _state(date="20N", moment="teatime"))


# --------------------------------------------------------------------------
# loader errors name the file and the key


def _copy(tmp_path, name, old, new, count=1):
    text = (KGP / "campaigns" / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text, old
    p = tmp_path / f"{name}.yaml"
    p.write_text(text.replace(old, new, count), encoding="utf-8")
    return p


def _fails(path, **kw) -> InvalidInput:
    with pytest.raises(InvalidInput) as e:
        C.load_campaign(CHARTS, path, **kw)
    return e.value


def test_loader_missing_key_names_file_and_key(tmp_path):
    p = _copy(tmp_path, "cg-ii", "attack_chits: {us: 3, german: 1}", "attack_chits: {us: 3}")
    err = _fails(p)
    assert err.where.file == str(p) and err.where.path == "attack_chits.german" and err.code == "E111"
    assert err.where.line


def test_loader_unknown_key_names_file_and_key(tmp_path):
    p = _copy(tmp_path, "cg-ii", "lvp_total: 14", "lvp_total: 14\nlvp_totl: 14")
    err = _fails(p)
    assert err.where.file == str(p) and err.where.path == "lvp_totl" and err.code == "E110"


def test_loader_bad_date_names_its_index(tmp_path):
    p = _copy(tmp_path, "cg-ii", "dates: [20PM, 20N, 21AM, 21PM]", "dates: [20PM, 20X, 21AM, 21PM]")
    err = _fails(p)
    assert err.where.path == "dates[1]" and "20X" in err.message


def test_loader_dates_must_follow_the_calendar_and_the_count(tmp_path):
    p = _copy(tmp_path, "cg-ii", "dates: [20PM, 20N, 21AM, 21PM]", "dates: [20PM, 21AM, 21PM]")
    err = _fails(p)
    assert err.where.path.startswith("dates") and err.rule == "8.2"


def test_loader_wrong_type_names_the_key(tmp_path):
    p = _copy(tmp_path, "cg-ii", "lvp_total: 14", "lvp_total: fourteen")
    err = _fails(p)
    assert err.where.path == "lvp_total" and err.code == "E112"


def test_loader_unknown_rg_names_the_ob_line(tmp_path):
    p = _copy(tmp_path, "cg-ii", "rg: I2,", "rg: I9,")
    err = _fails(p)
    assert err.where.path == "initial.sides.german.ob[0].rg" and "I9" in err.message
    assert err.where.file == str(p)


def test_loader_unknown_victory_test_names_the_condition(tmp_path):
    p = _copy(tmp_path, "cg-iii", "test: cg_lvp_at_least", "test: cg_lvp_at_most")
    err = _fails(p)
    assert err.where.path == "victory.conditions[0].test"


def test_loader_entry_area_date_outside_the_cg(tmp_path):
    p = _copy(tmp_path, "cg-ii", "eligible_from: 20PM", "eligible_from: 19AM")
    err = _fails(p)
    assert err.where.path.startswith("entry_areas[") and err.where.path.endswith("eligible_from")


def test_unknown_campaign_name():
    with pytest.raises(InvalidInput) as e:
        C.load_campaign(CHARTS, "cg-iv")
    assert "cg-iv" in e.value.message


def test_chart_loader_errors_name_file_and_key(tmp_path):
    text = (KGP / "charts" / "initiative.yaml").read_text(encoding="utf-8")
    p = tmp_path / "initiative.yaml"
    p.write_text(text.replace("\n  source: reading", "\n  source: guess", 1), encoding="utf-8")
    with pytest.raises(InvalidInput) as e:
        chits.load_initiative_chart(CHARTS, p)
    assert e.value.where.file == str(p) and e.value.where.path.endswith(".source")
    text = (KGP / "charts" / "rg.yaml").read_text(encoding="utf-8")
    p = tmp_path / "rg.yaml"
    p.write_text(text.replace("cpp: ", "cpp: -", 1), encoding="utf-8")
    with pytest.raises(InvalidInput) as e:
        rg_chart.load_rg_chart(CHARTS, p)
    assert e.value.where.file == str(p) and e.value.where.path.endswith(".cpp")


def test_shipped_files_are_stand_in_where_the_seed_is_silent(cgs):
    assert rg_chart.load_rg_chart(CHARTS).stand_in
    for cg in cgs.values():
        assert any(ea.stand_in for ea in cg.entry_areas)           # sides/colours/dates are map data
        for s in cg.initial.sides.values():
            assert s.fpp_stand_in                                  # 8.621: no FPP in the seed
