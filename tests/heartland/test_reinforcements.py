"""6.1 reinforcements: where an entry without a hex comes on, and when an entry is due.

The cases that play them through check/resolve are in games/heartland/cases/reinforcements.yaml."""
import copy

from hxref.kit import registry
from hxref.systems.heartland import reinforcements as rf
from tests.heartland.factory import TODAY


def river_line() -> dict:
    system = registry.get("heartland")
    return system.setup(system.load_scenario("river-line"))


def test_6_1_the_default_hex_is_the_friendly_station_nearest_a_friendly_edge():
    st = river_line()
    label, why = rf.entry_station(st, TODAY.map(st["map"]), "confederate")
    assert label == "1316" and "2 hex(es)" in why           # Marrowgate, two rows from the south edge


def test_6_1_a_station_the_enemy_holds_or_occupies_is_not_friendly():
    st = river_line()
    st["control_vp"]["1316"] = "union"
    assert rf.entry_station(st, TODAY.map(st["map"]), "confederate")[0] == "1413"     # Corliss next
    st = river_line()
    st["leaders"]["ames"]["hex"] = "1316"
    assert rf.entry_station(st, TODAY.map(st["map"]), "confederate")[0] == "1413"


def test_6_1_an_entry_is_due_from_its_turn_and_impulse_on_and_only_once():
    st = river_line()
    assert rf.due(st, "confederate") == []                   # turn 1: Ruffin comes in turn 2
    st["turn"] = 2
    assert [e["id"] for e in rf.due(st, "confederate")] == ["ruffin-division"]
    assert rf.due(st, "union") == []
    later = copy.deepcopy(st)
    later["turn"] = 3                                        # a side with no impulse in turn 2 gets it later
    assert [e["id"] for e in rf.due(later, "confederate")] == ["ruffin-division"]
    arrivals = rf.arrive(st, TODAY.map(st["map"]), "confederate")
    assert [a.leaders for a in arrivals] == [["ruffin"]] and st["units"]["c13"]["leader"] == "ruffin"
    assert st["initial_steps"]["c13"] == 2                   # its losses count for the enemy (3.16)
    assert rf.due(st, "confederate") == []
