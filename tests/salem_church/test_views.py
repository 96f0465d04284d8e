"""What each side of Salem Church may see: line of sight by the Terrain Effects Chart
(digest C; seed 003's TEC wins where the digest is unclear), and the per-side and public
views of the state (scenario item 5: in umpired mode each side sees enemy units only
when in its line of sight -- the umpire's option, on by default for e-mail play --,
else the whole map is open; digest F: orders stay private until resolved).

TEC, line of sight:
* hill: blocks LOS unless both the observer and the target are on hills;
* heavy woods: LOS into and through the hex is blocked;
* light woods: blocks artillery LOS (for fire), except when [the artillery is] on a hill.

The hexes are the stand-in map's (games/salem_church/maps/salem-church.yaml): the Salem
Church ridge 0608-0611 and 0508-0510 (hills), the heavy-woods ravine 1104 between the
Banks' Ford hills 1103 and 1105, the heavy-woods thicket 0713/0714, light woods 0805/0806
and 0407/0409-0411.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from hxref.systems.salem_church import views as vw

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "games" / "salem_church"


def state_with(scenario, **where) -> dict:
    """Units of the scenario at the given hexes (id with '_' for '-'); everything else off the map."""
    units = {}
    for key, label in where.items():
        uid = key.replace("_", "-")
        u = scenario["units"][uid]
        units[uid] = {"side": u["side"], "type": u["type"], "name": u["name"], "formation": u["formation"],
                      "hex": label, "steps": u["steps"], "disrupted": False}
    return {"turn": 8, "units": units, "control": {}, "wagon": {"exited": None, "captured": False},
            "initial_steps": {uid: scenario["units"][uid]["steps"] for uid in units}}


def los(m, a, b, **kw) -> bool:
    return vw.line_of_sight(m, a, b, **kw).visible


# --------------------------------------------------------------------------
# the TEC's LOS rules, one by one


def test_tec_hill_between_blocks_los(m):
    # 0606 -> 0612 down column 06 crosses the Salem Church ridge (0608-0611); neither end on a hill
    r = vw.line_of_sight(m, "0606", "0612")
    assert not r.visible and r.rule == "TEC Hill"
    assert r.blocking in ("0608", "0609", "0610", "0611")
    assert "hill" in r.why


def test_tec_hill_between_blocks_when_only_one_end_is_on_a_hill(m):
    # 0609 (hill) -> 0407 over 0509/0508 (hills): the target is not on a hill
    assert not los(m, "0609", "0407")


def test_tec_hill_to_hill_is_seen(m):
    # 0508 -> 0510 over 0509: observer and target both on hills
    r = vw.line_of_sight(m, "0508", "0510")
    assert r.visible


def test_tec_heavy_woods_between_blocks_los_even_hill_to_hill(m):
    # 1103 -> 1105 over the heavy-woods ravine 1104
    r = vw.line_of_sight(m, "1103", "1105")
    assert not r.visible and r.blocking == "1104" and r.rule == "TEC Heavy woods"


def test_tec_heavy_woods_blocks_los_into_the_hex(m):
    # 0909 -> 0713: nothing between blocks, but the target is in heavy woods ("LOS into ... is blocked")
    r = vw.line_of_sight(m, "0909", "0713")
    assert not r.visible and r.blocking == "0713" and r.rule == "TEC Heavy woods"


def test_tec_heavy_woods_does_not_block_los_out_of_the_hex(m):
    # reading: the TEC blocks LOS "into and through"; out of the observer's own hex is not named
    assert los(m, "0713", "0909")


def test_tec_light_woods_does_not_block_seeing(m):
    # 0804 -> 0807 over light woods 0805, 0806: any unit sees through (plain reading for seeing)
    assert los(m, "0804", "0807")
    assert los(m, "0804", "0807", unit_type="artillery")        # seeing, not fire


def test_tec_light_woods_blocks_artillery_fire_los(m):
    r = vw.line_of_sight(m, "0804", "0807", unit_type="artillery", purpose="fire")
    assert not r.visible and r.rule == "TEC Light woods" and r.blocking in ("0805", "0806")
    assert los(m, "0804", "0807", unit_type="infantry", purpose="fire")


def test_tec_light_woods_artillery_on_a_hill_fires_over_it(m):
    # 0508 (hill) -> 0307 over light woods 0407; from low ground 0406 -> 0412 over light woods it may not
    assert los(m, "0508", "0307", unit_type="artillery", purpose="fire")
    assert not los(m, "0406", "0412", unit_type="artillery", purpose="fire")


def test_los_own_and_adjacent_hexes(m):
    assert los(m, "0606", "0606")
    assert los(m, "0712", "0711")       # adjacent: no hex between
    assert not los(m, "0712", "0713")   # into heavy woods even when adjacent (contact: visible_hexes)
    with pytest.raises(Exception):
        vw.line_of_sight(m, "0606", "9999")


# --------------------------------------------------------------------------
# visible_hexes: what a side's units see


def test_visible_hexes_hill_blocks_and_own_hexes_seen(m, scenario):
    s = state_with(scenario, first_1="0606", wilcox_m="0612")
    seen = vw.visible_hexes(s, m, "union")
    assert "0606" in seen and "0612" not in seen
    assert "0608" in seen                                 # the near edge of the ridge is in sight
    assert "0609" not in seen                             # the ridge's next hill hides behind 0608


def test_visible_hexes_contact_sees_adjacent_heavy_woods(m, scenario):
    # reading: a unit always sees the six hexes around it (combat, 16.0 and 18.0 turn on adjacency)
    s = state_with(scenario, first_1="0712", kershaw_m="0713")
    assert "0713" in vw.visible_hexes(s, m, "union")
    s = state_with(scenario, first_1="0909", kershaw_m="0713")
    assert "0713" not in vw.visible_hexes(s, m, "union")


def test_visible_hexes_off_map_and_eliminated_units_see_nothing(m, scenario):
    s = state_with(scenario, first_1="0606", second_1="1103")
    s["units"]["first-1"]["hex"] = None
    s["units"]["second-1"]["steps"] = 0
    assert vw.visible_hexes(s, m, "union") == set()


def test_seen_units(m, scenario):
    s = state_with(scenario, first_1="0606", art_1="0804", wilcox_m="0612", semmes_m="0807")
    assert vw.seen_units(s, m, "union") == {"semmes-m"}
    # Wilcox (0612) is blind behind the ridge too, but Semmes (0807) sees both Union units
    assert not los(m, "0612", "0606") and los(m, "0807", "0606")
    assert vw.seen_units(s, m, "confederate") == {"art-1", "first-1"}


# --------------------------------------------------------------------------
# side_view: LOS fog only in umpired mode with the option on


def test_side_view_umpired_hides_unseen_enemy_units(m, scenario):
    s = state_with(scenario, first_1="0606", wilcox_m="0612", semmes_m="0807", art_1="0804")
    v = vw.side_view(s, m, "union", "umpired")
    assert set(v["units"]) == {"first-1", "art-1", "semmes-m"}
    assert v["units"]["semmes-m"]["hex"] == "0807"


def test_side_view_open_and_option_off_show_the_whole_map(m, scenario):
    s = state_with(scenario, first_1="0606", wilcox_m="0612")
    for mode, opt in (("open", True), ("solo", True), ("umpired", False)):
        v = vw.side_view(s, m, "union", mode, los_option=opt)
        assert set(v["units"]) == {"first-1", "wilcox-m"}, (mode, opt)


def test_side_view_does_not_change_the_state(m, scenario):
    s = state_with(scenario, first_1="0606", wilcox_m="0612")
    s["orders"] = {"union": {"x": 1}, "confederate": {"y": 2}}
    before = copy.deepcopy(s)
    v = vw.side_view(s, m, "union", "umpired")
    v["units"]["first-1"]["hex"] = "0101"
    assert s == before


def test_side_view_orders_stay_private_in_every_mode(m, scenario):
    # digest F1, F2: a side's orders and standing orders are secret until resolved
    s = state_with(scenario, first_1="0606", wilcox_m="0612")
    s["orders"] = {"union": {"first-1": "hold"}, "confederate": {"wilcox-m": "attack 0606"}}
    s["standing_orders"] = {"confederate": {"retreat": 3}}
    for mode in ("open", "umpired"):
        v = vw.side_view(s, m, "union", mode)
        assert v["orders"] == {"union": {"first-1": "hold"}}
        assert v["standing_orders"] == {}


def test_side_view_seen_enemy_shows_its_counter_not_its_plans(m, scenario):
    s = state_with(scenario, art_1="0804", semmes_m="0807")
    s["units"]["semmes-m"].update(steps=1, disrupted=True, orders="march on 1204", mp_left=3)
    u = vw.side_view(s, m, "union", "umpired")["units"]["semmes-m"]
    assert u["steps"] == 1 and u["disrupted"] is True and u["hex"] == "0807"
    assert "orders" not in u and "mp_left" not in u


def test_side_view_control_in_umpired_los_mode_only_the_victory_hexes(m, scenario):
    # digest F5: who holds 1204, 1302, 2114, 2407 is public; other control would show where units went
    s = state_with(scenario, first_1="0606", wilcox_m="0612")
    s["control"] = {"1204": "confederate", "0612": "confederate", "0606": "union", "2114": "union"}
    v = vw.side_view(s, m, "union", "umpired")
    assert v["control"] == {"1204": "confederate", "2114": "union"}
    assert vw.side_view(s, m, "union", "open")["control"] == s["control"]


def test_public_view_shows_only_units_both_sides_see(m, scenario):
    # 0804 and 0807 see each other; 0612 (behind the ridge from 0606/0804) and 1702 (heavy woods) are unseen
    s = state_with(scenario, art_1="0804", semmes_m="0807", third_1="1702", wilcox_m="0612")
    assert "1702" not in vw.visible_hexes(s, m, "confederate")
    assert "0612" not in vw.visible_hexes(s, m, "union")
    s["orders"] = {"union": {"a": 1}, "confederate": {"b": 2}}
    v = vw.public_view(s, m, "umpired")
    assert set(v["units"]) == {"art-1", "semmes-m"}
    assert "orders" not in v or v["orders"] == {}
    assert set(vw.public_view(s, m, "open")["units"]) == {"art-1", "semmes-m", "third-1", "wilcox-m"}


# --------------------------------------------------------------------------
# secrets: nothing of an unseen enemy unit is in a side's view


SECRET_STATE = dict(
    # Union
    first_1="0606", art_1="0804", brooks_1="0804", second_1="1103", third_1="1702", guard_6="2313",
    # Confederate
    wilcox_m="0612", kershaw_m="0713", semmes_m="0807", mahone_a="0412",
)


def _leaks(text: str, state: dict, uid: str) -> list[str]:
    u = state["units"][uid]
    return [x for x in (uid, u["hex"], u["name"]) if x in text]


@pytest.mark.parametrize("viewer,enemy", [("union", "confederate"), ("confederate", "union")])
def test_secrets_no_unseen_enemy_unit_in_the_side_view(m, scenario, viewer, enemy):
    s = state_with(scenario, **SECRET_STATE)
    s["control"] = {"1204": "union", "2407": "confederate"}
    s["log"] = [f"{uid} moved to {u['hex']}" for uid, u in s["units"].items()]
    s["current"] = {"moves": [{"unit": uid, "to": u["hex"]} for uid, u in s["units"].items()],
                    "last_hex": {uid: u["hex"] for uid, u in s["units"].items()}}
    s["orders"] = {side: {uid: f"hold {u['hex']}" for uid, u in s["units"].items() if u["side"] == side}
                   for side in ("union", "confederate")}
    seen = vw.visible_hexes(s, m, viewer)
    unseen = [uid for uid, u in s["units"].items() if u["side"] == enemy and u["hex"] not in seen]
    visible = [uid for uid, u in s["units"].items() if u["side"] == enemy and u["hex"] in seen]
    assert len(unseen) >= 2 and visible, (unseen, visible)    # the test needs both kinds
    text = json.dumps(vw.side_view(s, m, viewer, "umpired"), sort_keys=True)
    for uid in unseen:
        assert not _leaks(text, s, uid), (uid, _leaks(text, s, uid))
    for uid in visible:
        assert uid in text
    public = json.dumps(vw.public_view(s, m, "umpired"), sort_keys=True)
    for uid in unseen:
        assert not _leaks(public, s, uid)


def test_secrets_expected_sightings(m, scenario):
    s = state_with(scenario, **SECRET_STATE)
    assert vw.seen_units(s, m, "union") == {"semmes-m"}
    assert vw.seen_units(s, m, "confederate") == {"first-1", "art-1", "brooks-1", "second-1"}
