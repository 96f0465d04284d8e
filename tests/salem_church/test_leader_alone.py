"""A leader whose last unit in the hex is captured or eliminated does not stay alone with the
enemy: he is captured too (reading, games/salem_church/readings.md)."""
from hxref.systems.salem_church.board import hexmap
from hxref.systems.salem_church.system import SYSTEM
from hxref.systems.salem_church import combat as cb
from hxref.systems.salem_church.counters import Outcome
from hxref.systems.salem_church.narration import everyone
from hxref.systems.salem_church.turn import Turn


class NoDice:
    def d6(self, purpose, by=None, visible_to=None):
        raise AssertionError("no die is needed here")


def test_a_leader_left_alone_after_his_unit_is_captured_is_captured():
    st = SYSTEM.setup(SYSTEM.load_scenario("salem-church"))
    hm = hexmap(SYSTEM.charts, st)
    corner = "0101"
    st["units"]["wilcox-m"]["hex"] = corner
    st["units"]["mclaws-m"]["hex"] = corner                      # the Confederate leader with him
    around = [hm.label(n) for n in hm.parse(corner).neighbours() if n in hm.grid]
    union = ["first-1", "second-1", "third-1", "first-3", "second-3", "third-3"]
    for uid, label in zip(union, around):                       # every way out is held by the enemy
        st["units"][uid]["hex"] = label
    st["stage"] = "play"
    t = Turn(st, st["rules"], SYSTEM.charts, "union", {}, NoDice())
    effect = cb.SideEffect("defender", Outcome.DISRUPT_OR_RETREAT)
    notes = t._settle(effect, ["wilcox-m", "mclaws-m"], "confederate", {"choice": "retreat", "hexes": 1},
                      corner, attackers=union[:1])
    assert st["units"]["wilcox-m"].get("captured") and st["units"]["wilcox-m"]["hex"] is None
    assert st["units"]["mclaws-m"].get("captured") and st["units"]["mclaws-m"]["hex"] is None
    told = [n.told(everyone(st)) for n in notes]
    assert "McLaws/M is left alone with the enemy and captured" in told, told


def test_the_umpire_reads_each_fogged_event_and_what_each_side_was_told():
    # the copy of an event without the unseen units is for the side that cannot see every unit it
    # names; the umpire reads both, each marked with the sides it was told to
    from hxref.kit.events import visible
    from hxref.report.turn import event_line

    whole = {"type": "combat", "text": "attack on 0609 by first-1", "rule": "B1", "visible_to": ["union"]}
    copy = {"type": "combat", "text": "attack on 0609 by an unseen Union unit", "rule": "B1",
            "visible_to": ["confederate"]}
    assert visible(whole, "umpire") and visible(copy, "umpire")
    assert visible(copy, "confederate") and not visible(whole, "confederate")
    assert not visible(copy, None) and not visible(whole, None)
    assert event_line({"data": copy}, "umpire", "umpired").endswith("(told to confederate only)")
    assert event_line({"data": copy}, "confederate", "umpired") == "attack on 0609 by an unseen Union unit [rule B1]"
