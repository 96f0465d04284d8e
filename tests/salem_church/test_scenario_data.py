"""The Salem Church scenario data, ``games/salem_church/scenarios/salem-church.yaml``.

Every expected number below is copied from the scenario rules (digest
rules/salem-church.md 12.0-20.0; the Japanese seed 003 wins where the digest is
unclear), not read from the data file, so the test fails if the data drifts
from the rules:

* 12.2  all standard rules except 9.0: no cavalry, charges or squares;
* 13.2  Union: nobody on the map; arrivals T1/T3/T4/T5 at 2114; 2 steps a turn;
        returning units at any US entry hex;
* 13.3  Confederates: Wilcox/M on the map west of the 16xx column; arrivals
        T2/T3/T5/T7; one chosen hex for every unit of a turn; 2 steps a turn;
        returning units at their formation's entry hexes;
* 13.4  14 turns, the Union is the first player, "US Full Initiative";
* 14.x  victory hexes and the wagon train;
* 15.0  +2 CF for infantry defending in 0609 / 0610;
* 16.0  the wagon train's exits;
* 17.1  Union initiative roll from turn 7: 1-2 Full, 3-6 Low;
* 18.0  turn 6 is a night turn;
* 20.x  the formations and the brigades the order of battle names.

The seed prints no counter values (digest D3 item 3): every CF, MP, morale,
step count and leader rating is a stand-in and must be marked so.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hxref.geometry.mapfile import load_map
from hxref.base.yamlio import load_data, to_plain

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "salem_church"
SCENARIO = GAME / "scenarios" / "salem-church.yaml"
MAP = GAME / "maps" / "salem-church.yaml"

SIDES = ("union", "confederate")
UNIT_TYPES = {"infantry", "artillery", "cavalry", "leader", "wagon_train"}
UNIT_FIELDS = ("name", "side", "formation", "type", "steps", "cf", "cf_reduced", "mp", "morale", "leader_modifier", "range", "stand_in", "source")
# the counter values: none is printed in the seed (D3 item 3), so all are stand-ins
COUNTER_VALUES = ("steps", "cf", "cf_reduced", "mp", "morale", "leader_modifier", "range")
# the unit names the seed itself prints (13.2, 13.3)
SEED_NAMES = {"Third/1": "1", "Guard/6": "6", "Wilcox/M": "M", "Mahone/A": "A"}


def load_scenario(path: Path = SCENARIO) -> dict:
    """The scenario file as plain Python data (the lead's system package will have the real loader)."""
    return to_plain(load_data(path))


@pytest.fixture(scope="module")
def sc():
    return load_scenario()


@pytest.fixture(scope="module")
def m():
    return load_map(MAP)


def units_of(sc, *, side=None, formation=None, type=None):
    return {uid for uid, u in sc["units"].items()
            if (side is None or u["side"] == side)
            and (formation is None or u["formation"] == formation)
            and (type is None or u["type"] == type)}


def by_name(sc, name):
    hits = [uid for uid, u in sc["units"].items() if u["name"] == name]
    assert len(hits) == 1, f"exactly one unit named {name!r}: {hits}"
    return hits[0]


def wagon(sc):
    hits = units_of(sc, type="wagon_train")
    assert len(hits) == 1, "one Union wagon train (13.2, 16.0)"
    return next(iter(hits))


def arrivals(sc, side, turn):
    groups = [g for g in sc["reinforcements"] if g["side"] == side and g["turn"] == turn]
    assert len(groups) <= 1, f"one arrival group per side and turn ({side} T{turn})"
    return groups[0] if groups else None


# --------------------------------------------------------------------------
# the frame: 12.2, 13.4, 17.1, 18.0, 13.2/13.3 replacements


def test_file_is_marked_stand_in_and_names_map_and_system(sc):
    assert sc["system"] == "salem_church"
    assert sc["map"] == "salem-church"
    assert sc["sides"] == list(SIDES)
    assert sc["stand_in"] is True and "stand-in" in sc["note"].lower()


def test_12_2_no_cavalry_standard_rule_9_excluded(sc):
    # 12.2 all standard rules apply except 9.0; no cavalry units, charges or squares
    assert sc["excluded_standard_rules"] == ["9.0"]
    assert not units_of(sc, type="cavalry")


def test_13_4_fourteen_turns_union_first_player(sc):
    # 13.4 the game lasts 14 turns; the Union player is the first player
    assert sc["turns"] == 14
    assert sc["first_player"] == "union"


def test_18_0_turn_6_is_night(sc):
    # 18.0 turn 6 is a night turn: move normally but not adjacent to an enemy unit; no combat
    night = sc["night"]
    assert night["rule"] == "18.0"
    assert night["turns"] == [6]
    assert night["no_move_adjacent_to_enemy"] is True
    assert night["adjacent_units_may_stay_or_leave"] is True
    assert night["combat_phases"] == "skipped"


def test_17_1_union_initiative_roll_from_turn_7(sc):
    # 13.4 / 17.1 the Union starts at Full Initiative; from T7, 1d6 at the start of each Union movement phase
    ini = sc["initiative"]
    assert ini["rule"] == "17.1"
    assert ini["side"] == "union"
    assert ini["start"] == "full"
    assert ini["roll_from_turn"] == 7
    assert ini["die"] == "1d6"
    assert ini["results"] == {"full": [1, 2], "low": [3, 4, 5, 6]}


def test_17_2_17_3_low_initiative_effects(sc):
    low = sc["initiative"]["low"]
    # 17.2 no EZOC entry unless stacked with a leader who passes: fail if 1d6 > leader's morale; -1 adjacent to / in an EZOC
    mv = low["movement"]
    assert mv["rule"] == "17.2"
    assert mv["enter_ezoc"] == "only with a leader who passes an initiative check"
    assert mv["check"] == {"die": "1d6", "fails_if_roll_greater_than": "leader morale", "modifier_adjacent_to_or_in_ezoc": -1}
    # 17.3 MC of the attacker's first unit before each combat; fail: cancelled, defenders may counter-attack (7.2)
    cb = low["combat"]
    assert cb["rule"] == "17.3"
    assert cb["morale_check_before_each_combat"] == "attacker's first unit"
    assert cb["on_failure"] == {"attack": "cancelled", "defenders_may_counter_attack": "7.2"}
    assert low["bombardment"] == "unaffected"


def test_13_2_13_3_two_replacement_steps_per_side_per_turn(sc):
    rep = sc["replacements"]
    assert rep["steps_per_turn"] == {"union": 2, "confederate": 2}
    assert set(rep["rule"]) == {"13.2", "13.3"}


# --------------------------------------------------------------------------
# 20.x: the formations


def test_20_formations_and_sides(sc):
    f = sc["formations"]
    assert {k for k, v in f.items() if v["side"] == "union"} == {"1", "2", "3", "L", "6"}
    assert {k for k, v in f.items() if v["side"] == "confederate"} == {"A", "E", "M"}
    # 20.1 / 20.2 commanders as the seed prints them
    assert f["6"]["commander"] == "John Sedgwick"
    assert f["1"]["commander"] == "William Brooks"
    assert f["2"]["commander"] == "Albion Howe"
    assert f["3"]["commander"] == "John Newton"
    assert f["L"]["commander"] == "Hiram Burnham"
    assert f["A"]["commander"] == "Richard Anderson"
    assert f["E"]["commander"] == "Jubal Early"
    assert f["M"]["commander"] == "Lafayette McLaws"
    for uid, u in sc["units"].items():
        assert u["formation"] in f, uid
        assert f[u["formation"]]["side"] == u["side"], f"{uid}: its formation belongs to its side"


@pytest.mark.parametrize("formation, brigades, artillery", [
    ("A", {"Mahone", "Perry", "Posey", "Wright"}, {"Garnett"}),     # 20.2 Anderson
    ("E", {"Gordon", "Hays", "Hoke"}, {"Andrews"}),                  # 20.2 Early
    ("M", {"Kershaw", "Semmes", "Wilcox", "Wofford"}, set()),        # 20.2 McLaws
])
def test_20_2_confederate_brigades_as_named(sc, formation, brigades, artillery):
    def stems(kind):
        return {sc["units"][u]["name"].split("/")[0] for u in units_of(sc, formation=formation, type=kind)}
    assert stems("infantry") == brigades
    assert stems("artillery") == artillery
    assert len(units_of(sc, formation=formation, type="leader")) == 1


def test_seed_named_units_exist_in_their_formations(sc):
    # 13.2 Third/1, Guard/6; 13.3 Wilcox/M, Mahone/A: names in the Unit/Formation pattern
    for name, formation in SEED_NAMES.items():
        assert sc["units"][by_name(sc, name)]["formation"] == formation
    assert sc["units"][wagon(sc)]["side"] == "union"


def test_counter_totals_union_19_confederate_16(sc):
    # 13.2: 4 + 7 + 3 + 5 = 19;  13.3: 1 + 4 + 1 + 5 + 5 = 16
    assert len(units_of(sc, side="union")) == 19
    assert len(units_of(sc, side="confederate")) == 16


# --------------------------------------------------------------------------
# 13.2 / 13.3: set-up and arrivals


def test_every_unit_is_set_up_or_arrives_exactly_once(sc):
    placed = [u for g in sc["setup"] for u in g["units"]] + [u for g in sc["reinforcements"] for u in g["units"]]
    dup = [u for u, n in Counter(placed).items() if n > 1]
    assert not dup, f"listed twice: {dup}"
    assert set(placed) == set(sc["units"])


def test_13_2_no_union_unit_starts_on_the_map(sc):
    assert not [g for g in sc["setup"] if g["side"] == "union"]


def test_13_3_only_wilcox_starts_on_the_map_west_of_column_16(sc):
    # 13.3 Wilcox/M (1 counter): any hex west of the 16xx column (English "row"): columns 01-15
    (g,) = sc["setup"]
    assert g["side"] == "confederate" and g["rule"] == "13.3"
    assert g["units"] == [by_name(sc, "Wilcox/M")]
    assert g["area"] == {"columns": [1, 15]}


def test_13_2_formation_1_enters_t1_at_2114_four_counters_not_third_1(sc):
    # 13.2 Formation 1 (the four counters other than Third/1): T1 at 2114
    g = arrivals(sc, "union", 1)
    assert g["rule"] == "13.2" and g["entry_hexes"] == ["2114"]
    assert len(g["units"]) == 4
    assert set(g["units"]) == units_of(sc, formation="1") - {by_name(sc, "Third/1")}


def test_13_2_formations_3_and_l_enter_t3_at_2114_seven_counters(sc):
    # 13.2 Formations 3 and L (7 counters): T3 at 2114
    g = arrivals(sc, "union", 3)
    assert g["entry_hexes"] == ["2114"]
    assert len(g["units"]) == 7
    assert set(g["units"]) == units_of(sc, formation="3") | units_of(sc, formation="L")


def test_13_2_third_1_guard_6_and_wagon_train_enter_t4_at_2114(sc):
    # 13.2 Third/1, Guard/6 and the wagon train (3 counters): T4 at 2114
    g = arrivals(sc, "union", 4)
    assert g["entry_hexes"] == ["2114"]
    assert set(g["units"]) == {by_name(sc, "Third/1"), by_name(sc, "Guard/6"), wagon(sc)}


def test_13_2_formation_2_enters_t5_at_2114_five_counters(sc):
    # 13.2 Formation 2 (5 counters): T5 at 2114
    g = arrivals(sc, "union", 5)
    assert g["entry_hexes"] == ["2114"]
    assert len(g["units"]) == 5
    assert set(g["units"]) == units_of(sc, formation="2")


def test_13_2_union_arrives_only_on_t1_t3_t4_t5(sc):
    assert sorted(g["turn"] for g in sc["reinforcements"] if g["side"] == "union") == [1, 3, 4, 5]


def test_13_3_formation_m_enters_t2_at_0107_four_counters_not_wilcox(sc):
    # 13.3 Formation M (the four counters other than Wilcox): T2 at 0107
    g = arrivals(sc, "confederate", 2)
    assert g["rule"] == "13.3" and g["entry_hexes"] == ["0107"]
    assert len(g["units"]) == 4
    assert set(g["units"]) == units_of(sc, formation="M") - {by_name(sc, "Wilcox/M")}


def test_13_3_mahone_enters_t3_at_0107_or_0903(sc):
    # 13.3 Mahone/A (1 counter): T3 at 0107 or 0903
    g = arrivals(sc, "confederate", 3)
    assert g["units"] == [by_name(sc, "Mahone/A")]
    assert g["entry_hexes"] == ["0107", "0903"]


def test_13_3_formation_a_enters_t5_at_0107_or_0903_five_counters_not_mahone(sc):
    # 13.3 Formation A (the five counters other than Mahone): T5 at 0107 or 0903
    g = arrivals(sc, "confederate", 5)
    assert g["entry_hexes"] == ["0107", "0903"]
    assert len(g["units"]) == 5
    assert set(g["units"]) == units_of(sc, formation="A") - {by_name(sc, "Mahone/A")}


def test_13_3_formation_e_enters_t7_at_0213_1013_or_2114_five_counters(sc):
    # 13.3 Formation E (5 counters): T7 at 0213, 1013 or 2114
    g = arrivals(sc, "confederate", 7)
    assert g["entry_hexes"] == ["0213", "1013", "2114"]
    assert len(g["units"]) == 5
    assert set(g["units"]) == units_of(sc, formation="E")


def test_13_3_confederates_arrive_only_on_t2_t3_t5_t7(sc):
    assert sorted(g["turn"] for g in sc["reinforcements"] if g["side"] == "confederate") == [2, 3, 5, 7]


def test_13_3_one_chosen_hex_for_every_unit_of_a_turn(sc):
    # 13.3 where several entry hexes are listed, all units arriving that turn enter by the same chosen hex
    rule = sc["reinforcement_entry"]
    assert rule["rule"] == "13.3"
    assert rule["same_hex_for_all_units_of_a_turn"] is True


def test_13_2_13_3_returning_units_entry_hexes(sc):
    # 13.2 returning Union units: any US entry hex; 13.3 Confederates: any hex their formation may use
    f = sc["formations"]
    for k in ("1", "2", "3", "L", "6"):
        assert f[k]["entry_hexes"] == ["2114"], k
    assert f["M"]["entry_hexes"] == ["0107"]
    assert f["A"]["entry_hexes"] == ["0107", "0903"]
    assert f["E"]["entry_hexes"] == ["0213", "1013", "2114"]
    assert sc["returning_units"] == {
        "union": {"rule": "13.2", "entry_hexes": ["2114"]},
        "confederate": {"rule": "13.3", "entry_hexes": "formation"},
    }


def test_arrival_entry_hexes_are_the_formations_hexes(sc):
    for g in sc["reinforcements"]:
        for uid in g["units"]:
            u = sc["units"][uid]
            assert u["side"] == g["side"], uid
            assert set(g["entry_hexes"]) <= set(sc["formations"][u["formation"]]["entry_hexes"]), uid


def test_every_scenario_hex_is_on_the_map(sc, m):
    # entry hexes (13.x), victory hexes (14.x), defensive positions (15.0), wagon exits (16.0)
    hexes = set()
    for g in sc["reinforcements"]:
        hexes |= set(g["entry_hexes"])
    for f in sc["formations"].values():
        hexes |= set(f["entry_hexes"])
    hexes |= set(sc["defensive_positions"]["hexes"])
    hexes |= set(sc["wagon_train"]["exits"]["victory"]) | set(sc["wagon_train"]["exits"]["escape"])
    for cond in sc["victory"]["union_major"]["all"] + sc["victory"]["confederate_major"]["any"]:
        for key in ("via", "hold_any", "hold_all"):
            hexes |= set(cond.get(key, []))
    assert hexes == {"0107", "0903", "0213", "1013", "2114", "0609", "0610", "1204", "1302", "2407"}
    on_map = {m.label(h) for h in m.hexes()}
    assert hexes <= on_map
    lo, hi = sc["setup"][0]["area"]["columns"]
    assert m.grid.columns[0] <= lo and hi < m.grid.columns[1], "the Wilcox area and column 16 are on the map"


# --------------------------------------------------------------------------
# 14.x, 15.0, 16.0


def test_14_victory_conditions(sc):
    v = sc["victory"]
    assert v["check_at_end_of_turn"] == 14
    assert v["hold"] == "occupies or was the last unit to pass through"
    # 14.1 Union major: the train exited through 0107 or 0903 AND a Union unit holds 1204 or 2114
    u = v["union_major"]
    assert u["rule"] == "14.1"
    assert u["all"] == [{"wagon_train": "exited", "via": ["0107", "0903"]}, {"hold_any": ["1204", "2114"]}]
    # 14.2 Confederate major: the train captured OR Confederate units hold all of 1204, 1302, 2114, 2407
    c = v["confederate_major"]
    assert c["rule"] == "14.2"
    assert c["any"] == [{"wagon_train": "captured"}, {"hold_all": ["1204", "1302", "2114", "2407"]}]
    # 14.3 otherwise more VP wins a marginal victory; equal VP is a draw; the VP schedule is a stand-in
    mg = v["marginal"]
    assert mg["rule"] == "14.3" and mg["by"] == "victory_points" and mg["tie"] == "draw"
    assert mg["vp"]["stand_in"] is True


def test_15_0_defensive_positions(sc, m):
    # 15.0 Salem Church (0609) and the Schoolhouse (0610): +2 CF to an infantry brigade defending there
    d = sc["defensive_positions"]
    assert d["rule"] == "15.0"
    assert d["hexes"] == {"0609": "Salem Church", "0610": "Schoolhouse"}
    assert d["cf_add"] == 2
    assert d["unit_types"] == ["infantry"]
    assert d["when"] == "defending"
    for label, name in d["hexes"].items():
        assert m.places[name] == m.parse(label)


def test_16_0_wagon_train(sc):
    w = sc["wagon_train"]
    assert w["rule"] == "16.0"
    assert w["unit"] == wagon(sc)
    assert w["roads_only"] is True
    assert w["no_union_unit_enters_or_stacks"] is True
    assert w["no_move_adjacent_to"] == "confederate"
    assert w["exits"] == {"victory": ["0107", "0903"], "escape": ["1204", "1302"]}
    assert w["exit_cost_mp"] == 1
    assert w["never_attacked"] is True
    assert w["captured_when"] == "a Confederate unit enters its hex"


# --------------------------------------------------------------------------
# the unit records


def test_every_unit_has_all_fields(sc):
    for uid, u in sc["units"].items():
        missing = [k for k in UNIT_FIELDS if k not in u]
        assert not missing, f"{uid} lacks {missing}"
        assert u["side"] in SIDES, uid
        assert u["type"] in UNIT_TYPES, uid
        assert isinstance(u["name"], str) and u["name"], uid
        assert isinstance(u["steps"], int) and u["steps"] >= 1, uid
        assert isinstance(u["cf"], int) and u["cf"] >= 0, uid
        assert isinstance(u["mp"], int) and u["mp"] >= 1, uid
        # a reduced CF exactly for units with a second step, and below the full CF
        if u["steps"] == 2:
            assert isinstance(u["cf_reduced"], int) and 0 < u["cf_reduced"] < u["cf"], uid
        else:
            assert u["cf_reduced"] is None, uid
        # morale: every unit but the train (never attacked, 16.0); leaders' morale is their rating (17.2)
        if u["type"] == "wagon_train":
            assert u["morale"] is None, uid
        else:
            assert isinstance(u["morale"], int) and 1 <= u["morale"] <= 6, uid
        # the leader's modification to a stacked unit's morale (17.3): leaders only
        assert (u["leader_modifier"] is not None) == (u["type"] == "leader"), uid
        # range: artillery only (bombardment, standard rules)
        assert (u["range"] is not None) == (u["type"] == "artillery"), uid


def test_unit_names_follow_the_unit_formation_pattern(sc):
    # 13.2 / 13.3 the counters are named Unit/Formation (Third/1, Guard/6, Wilcox/M, Mahone/A)
    for uid, u in sc["units"].items():
        if u["type"] == "wagon_train":
            continue
        stem, _, formation = u["name"].partition("/")
        assert stem and formation == u["formation"], uid


def test_stand_in_values_are_marked(sc):
    # D3 item 3: the seed prints no counter values, so every one a unit has is a stand-in
    for uid, u in sc["units"].items():
        marked = set(u["stand_in"])
        given = {k for k in COUNTER_VALUES if u[k] is not None}   # null = does not apply to this unit
        assert given <= marked, f"{uid}: unmarked stand-ins {given - marked}"
        assert marked <= set(UNIT_FIELDS) - {"stand_in", "source"}, uid
        assert u["source"], uid
        # a name the seed prints is not a stand-in; the Union brigade names the seed does not print are
        if u["name"] in SEED_NAMES:
            assert "name" not in marked, uid
        assert "side" not in marked and "formation" not in marked, uid
    union_brigades = units_of(sc, side="union", type="infantry") - {by_name(sc, n) for n in SEED_NAMES}
    assert union_brigades and all("name" in sc["units"][u]["stand_in"] for u in union_brigades)


def test_leaders_one_per_division(sc):
    # 20.x: counts of 13.x need a leader counter in formations 1, 2, 3, A, E, M (digest 20.2 breakdown)
    leaders = Counter(sc["units"][u]["formation"] for u in units_of(sc, type="leader"))
    assert leaders == Counter({"1": 1, "2": 1, "3": 1, "A": 1, "E": 1, "M": 1})


def test_infantry_brigades_have_two_steps(sc):
    # D2 (public reviews): infantry have a second step; artillery, leaders single-step
    for uid in units_of(sc, type="artillery") | units_of(sc, type="leader") | {wagon(sc)}:
        assert sc["units"][uid]["steps"] == 1, uid
    brigades = units_of(sc, type="infantry")
    assert sum(sc["units"][u]["steps"] == 2 for u in brigades) >= len(brigades) - 1  # the skirmish detachment may be 1
