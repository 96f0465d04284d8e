"""Weather effects (5.21-5.29; 3.53 item 4, 3.55): Mud after two Rain turns, Cold, Blizzard, Clear,
and the FERT / forced-march / attrition DRM look-ups.  Worked example H-20.

Readings: ``hxref/systems/heartland/weather.py``."""
import pytest

from factory import C, U, World
from hxref.systems.heartland import weather as wx


def game(weather: str, history=(), *, ml: int = 3):
    """A state whose turn has ``weather`` after the turns ``history`` (oldest first)."""
    w = World()
    w.leader("a", U, "0303", stars=3, hq=True, ml=ml)
    w.leader("b", U, "0303", stars=2, ml=ml, superior="a")
    w.leader("c", C, "0909", stars=2, ml=ml)
    w.leader("pooled", C, None, stars=1, ml=ml, pool=True)
    w.unit("u1", U, leader="a", ml=(0, 1))
    w.unit("u2", U, leader="b", ml=(1, 2))
    w.unit("c1", C, leader="c", ml=(0, 1))
    w.wagon("w1", U, "0303", leader="a")
    w.wagon("w2", C, "0808")
    s = w.state
    s["history"] = [{"turn": i + 1, "weather": {"result": h, "roll": [3, 3], "stand_in": True}}
                    for i, h in enumerate(history)]
    s["turn"] = len(history) + 1
    s["current"] = {"weather": {"result": weather, "roll": [3, 4], "stand_in": True}}
    return s


def next_turn(s: dict, weather: str) -> None:
    """End the turn (its weather into the history) and start the next with ``weather``."""
    s["history"].append({"turn": s["turn"], "weather": s["current"]["weather"]})
    s["turn"] += 1
    s["current"] = {"weather": {"result": weather, "roll": [2, 5], "stand_in": True}}
    wx.start_of_turn(s)


def mls(s):
    return {lid: ld["ml"] for lid, ld in s["leaders"].items()}


# --- look-ups for other modules (5.23, 5.24, 5.28, 5.29) ----------------------------------

@pytest.mark.parametrize("weather,fert,march", [
    ("Clear", 0, 0), ("Light Rain", 0, 0), ("Rain", -1, 1), ("Mud", -1, 3), ("Thaw", 0, 0),
    ("Cold", 0, 0), ("Light Snow", 0, 0), ("Snow", 0, 2), ("Blizzard", -4, 4)])
def test_5_23_to_5_29_fert_and_march_drms(weather, fert, march):
    assert wx.fert_drm(weather) == fert
    assert wx.march_drm(weather) == march
    assert wx.attrition_drm(weather) == march     # the same DRMs on the Attrition Table


def test_weather_rule_numbers():
    assert wx.weather_rule("Mud") == "5.24" and wx.weather_rule("Blizzard") == "5.29"


# --- 5.24 Mud -----------------------------------------------------------------------------

@pytest.mark.parametrize("past,rolled,result", [
    ([], "Rain", "Rain"),                                        # one Rain turn: not yet
    (["Rain"], "Rain", "Mud"),                                   # 5.24: the second Rain turn is Mud
    (["Clear", "Rain"], "Rain", "Mud"),
    (["Rain", "Clear"], "Rain", "Rain"),                         # not consecutive
    (["Light Rain"], "Rain", "Rain"),                            # 5.22: 0.5 + 1 = 1.5
    (["Light Rain", "Light Rain"], "Rain", "Mud"),               # 0.5 + 0.5 + 1 = 2
    (["Rain"], "Light Rain", "Light Rain"),                      # 1 + 0.5
    (["Rain", "Light Rain"], "Light Rain", "Mud"),               # 1 + 0.5 + 0.5
    (["Light Rain"] * 3, "Light Rain", "Mud"),                   # four Light Rain turns = two Rain turns
    (["Light Rain"] * 2, "Light Rain", "Light Rain"),            # 1.5
    (["Rain", "Rain"], "Clear", "Clear"),                        # only a rainy turn becomes Mud
    (["Rain", "Rain"], "Snow", "Snow"),
    (["Rain", "Cold"], "Rain", "Rain"),                          # Cold breaks the run
])
def test_5_24_mud_after_two_rain_turns(past, rolled, result):
    assert wx.resolve_mud(rolled, past).result == result


def test_5_24_a_mud_turn_counts_as_the_rain_it_was_rolled_as():
    past = [{"result": "Rain"}, {"result": "Mud", "rolled": "Rain"}]
    assert wx.resolve_mud("Light Rain", past).result == "Mud"     # the run goes on: still Mud
    past = [{"result": "Mud", "rolled": "Light Rain"}]
    assert wx.resolve_mud("Rain", past).result == "Rain"          # 0.5 + 1


def test_5_24_mud_rolled_directly_counts_as_one_rain_turn():
    assert wx.resolve_mud("Mud", []).result == "Mud"
    assert wx.resolve_mud("Rain", ["Mud"]).result == "Mud"


def test_5_24_apply_mud_rewrites_the_record_once_and_keeps_the_roll():
    s = game("Rain", ["Rain"])
    chk = wx.apply_mud(s)
    rec = s["current"]["weather"]
    assert chk.mud and "5.24" in chk.why
    assert rec["result"] == "Mud" and rec["rolled"] == "Rain" and rec["rain"] == 2.0 and rec["roll"] == [3, 4]
    wx.apply_mud(s)                                                # idempotent
    assert rec["result"] == "Mud" and rec["rolled"] == "Rain"
    next_turn(s, "Rain")                                           # a third Rain turn: still Mud
    assert s["current"]["weather"]["result"] == "Mud"


def test_5_24_no_weather_rolled_is_an_error():
    s = game("Rain")
    s["current"]["weather"] = None
    with pytest.raises(ValueError):
        wx.apply_mud(s)


# --- 5.26 Cold (H-20) ----------------------------------------------------------------------

def test_h20_5_26_cold_costs_1_ml_once_and_the_next_non_cold_turn_restores_it():
    s = game("Cold", ["Clear"])
    wx.start_of_turn(s)
    assert mls(s) == {"a": 2, "b": 2, "c": 2, "pooled": 2}         # every leader, SLs and pool too (3.55)
    assert all(ld["cold_ml"] == 1 for ld in s["leaders"].values())
    next_turn(s, "Cold")                                            # not cumulative
    assert mls(s) == {"a": 2, "b": 2, "c": 2, "pooled": 2}
    next_turn(s, "Rain")                                            # restored on a non-Cold turn
    assert mls(s) == {"a": 3, "b": 3, "c": 3, "pooled": 3}
    assert not any("cold_ml" in ld for ld in s["leaders"].values())


def test_5_26_a_leader_at_ml_0_loses_nothing_and_gets_nothing_back():
    s = game("Cold", ml=0)
    wx.start_of_turn(s)
    assert set(mls(s).values()) == {0}
    next_turn(s, "Clear")
    assert set(mls(s).values()) == {0}


def test_5_26_captured_and_killed_leaders_are_untouched():
    s = game("Cold")
    s["leaders"]["c"]["captured"] = True
    s["leaders"]["pooled"]["killed"] = True
    wx.start_of_turn(s)
    assert mls(s) == {"a": 2, "b": 2, "c": 3, "pooled": 3}


def test_5_26_cold_then_clear_only_restores():
    s = game("Cold", ["Clear"])
    wx.start_of_turn(s)
    next_turn(s, "Clear")                      # Clear after Cold: the 1 back, no 5.21 bonus
    assert mls(s)["a"] == 3


def test_5_26_a_leader_trained_during_cold_keeps_the_gain():
    s = game("Cold")
    wx.start_of_turn(s)
    s["leaders"]["a"]["ml"] += 1               # trained (3.53(2)) while cold: 3
    next_turn(s, "Thaw")
    assert mls(s)["a"] == 4


# --- 5.21 Clear after Mud or Blizzard ------------------------------------------------------

@pytest.mark.parametrize("previous,now,gain", [
    ("Mud", "Clear", 1), ("Blizzard", "Clear", 1), ("Rain", "Clear", 0), ("Clear", "Clear", 0),
    ("Mud", "Light Rain", 0), ("Blizzard", "Snow", 0), (None, "Clear", 0)])
def test_5_21_clear_after_mud_or_blizzard_gives_every_leader_plus_1(previous, now, gain):
    s = game(now, [previous] if previous else [])
    ts = wx.apply_turn_start(s)
    assert mls(s) == {k: 3 + gain for k in ("a", "b", "c", "pooled")}
    if gain:
        assert "every leader +1 ML (5.21)" in ts.why


def test_5_21_ml_never_goes_above_9():
    s = game("Clear", ["Mud"], ml=9)
    wx.start_of_turn(s)
    assert set(mls(s).values()) == {9}


def test_5_21_the_effects_are_applied_once_a_turn():
    s = game("Clear", ["Blizzard"])
    wx.apply_turn_start(s)
    again = wx.apply_turn_start(s)
    assert again.already_applied and mls(s)["a"] == 4
    assert s["current"]["weather"]["effects_applied"] is True


def test_5_2_a_turn_without_a_weather_roll_changes_nothing():
    s = game("Clear", ["Mud"])
    s["current"]["weather"] = None                 # both sides passed: nobody rolled (5.2)
    mud, ts = wx.start_of_turn(s)
    assert mud is None and not ts.changes and "no weather" in ts.why and mls(s)["a"] == 3
    s = game("Rain", ["Rain"])
    s["history"].append({"turn": 2, "weather": None})
    assert wx.resolve_mud("Rain", wx.past_weather(s)).result == "Rain"      # the run is broken


def test_5_21_turn_start_is_pure():
    s = game("Cold")
    ts = wx.turn_start(s)
    assert len(ts.changes) == 4 and mls(s)["a"] == 3 and "cold_ml" not in s["leaders"]["a"]


# --- 5.29 Blizzard (H-20) -------------------------------------------------------------------

def test_h20_5_29_a_moving_unit_with_ml_0_becomes_ml_1_and_a_leader_with_ml_3_becomes_2():
    s = game("Blizzard")
    loss = wx.blizzard_loss(s, "a")
    wx.apply_blizzard_loss(s, loss)
    assert wx.unit_ml(s["units"]["u1"]) == 1                        # printed 0 + 1
    assert s["units"]["u1"]["ml"] == [0, 1]                         # 3.53: the printed ML is untouched
    assert s["units"]["u1"]["blizzard_ml"] == 1
    assert s["leaders"]["a"]["ml"] == 2
    assert s["leaders"]["b"]["ml"] == 2 and wx.unit_ml(s["units"]["u2"]) == 2    # SLs too (3.55)
    assert s["logistics"]["w1"]["blizzard_ml"] == 1                 # the wagon with the force
    assert s["leaders"]["c"]["ml"] == 3 and "blizzard_ml" not in s["units"]["c1"]   # did not move
    assert "5.29" in loss.why


def test_5_29_once_a_turn_however_often_the_force_moves():
    s = game("Blizzard")
    wx.apply_blizzard_loss(s, wx.blizzard_loss(s, "a"))
    second = wx.blizzard_loss(s, "a")
    assert not second.hits and set(second.spared) >= {"a", "b", "u1"}
    wx.apply_blizzard_loss(s, second)
    assert s["leaders"]["a"]["ml"] == 2 and wx.unit_ml(s["units"]["u1"]) == 1


def test_5_29_losses_last_until_clear_cancels_the_unit_modifier():
    s = game("Blizzard", ["Clear"])
    wx.start_of_turn(s)
    wx.apply_blizzard_loss(s, wx.blizzard_loss(s, "a"))
    next_turn(s, "Blizzard")                                        # another Blizzard turn: loses again
    wx.apply_blizzard_loss(s, wx.blizzard_loss(s, "a"))
    assert wx.unit_ml(s["units"]["u1"]) == 2 and s["leaders"]["a"]["ml"] == 1
    next_turn(s, "Snow")                                            # not Clear: the modifier stays
    assert wx.unit_ml(s["units"]["u1"]) == 2
    next_turn(s, "Clear")                                           # 5.21: cancels it ...
    assert wx.unit_ml(s["units"]["u1"]) == 0 and "blizzard_ml" not in s["units"]["u1"]
    assert "blizzard_ml" not in s["logistics"]["w1"]
    assert s["leaders"]["a"]["ml"] == 1                             # ... Clear after Snow: no leader bonus


def test_5_21_5_29_clear_straight_after_blizzard_gives_the_leaders_1_back():
    s = game("Blizzard")
    wx.apply_blizzard_loss(s, wx.blizzard_loss(s, "a"))
    next_turn(s, "Clear")
    assert s["leaders"]["a"]["ml"] == 3 and s["leaders"]["c"]["ml"] == 4
    assert wx.unit_ml(s["units"]["u1"]) == 0


def test_5_29_no_loss_in_other_weather():
    for weather in ("Clear", "Snow", "Cold", "Mud"):
        s = game(weather)
        loss = wx.blizzard_loss(s, "a")
        assert not loss.hits and "only Blizzard" in loss.why


def test_5_29_unled_units_and_a_wagon_alone():
    s = game("Blizzard")
    s["units"]["x1"] = {"side": C, "name": "x1", "arm": "cavalry", "size": "brigade", "cf": [3, 1], "ml": [2, 3],
                        "steps": 2, "leader": None, "hex": "0808"}
    loss = wx.blizzard_loss(s, "unled@0808")
    wx.apply_blizzard_loss(s, loss)
    assert wx.unit_ml(s["units"]["x1"]) == 3
    assert s["logistics"]["w2"]["blizzard_ml"] == 1                  # the wagon in the hex moves with them
    s2 = game("Blizzard")
    wx.apply_blizzard_loss(s2, wx.blizzard_loss(s2, "w2"))
    assert wx.unit_ml(s2["logistics"]["w2"]) == 4 and s2["leaders"]["c"]["ml"] == 3


def test_5_29_unit_ml_never_above_6_and_leader_ml_never_below_0():
    s = game("Blizzard", ml=0)
    s["units"]["u1"]["ml"] = [6, 6]
    wx.apply_blizzard_loss(s, wx.blizzard_loss(s, "a"))
    assert wx.unit_ml(s["units"]["u1"]) == 6 and s["leaders"]["a"]["ml"] == 0
    assert "blizzard_ml" not in s["units"]["u1"]


def test_unit_ml_reads_the_side_showing():
    u = {"ml": [0, 2], "steps": 1, "blizzard_ml": 1}
    assert wx.unit_ml(u) == 3
