"""Victory points of the demo scenario (stand-in schedule in the scenario file; the seed has none)."""
from hxref.systems import get
from hxref.systems.heartland import victory


def demo_state():
    sysobj = get("heartland")
    return sysobj.setup(sysobj.load_scenario("heartland-demo"))


def test_initial_score_is_the_places_each_side_holds():
    st = demo_state()
    s = victory.score(st)
    assert s.points == {"union": 15, "confederate": 18}
    assert s.winner == "confederate" and s.margin == 3 and s.level == "marginal"


def test_places_change_hands_when_a_force_enters():
    st = demo_state()
    # a Confederate force in Ransom Station takes it (the last side with a force there)
    st["leaders"]["strother"]["hex"] = "1010"
    for lid in ("whitcomb", "crane", "lyle"):
        st["leaders"][lid]["hex"] = "1110"
    victory.update_control(st)
    assert st["control_vp"]["1010"] == "confederate"
    # leaving does not give it back
    st["leaders"]["strother"]["hex"] = "1110"
    victory.update_control(st)
    assert st["control_vp"]["1010"] == "confederate"


def test_steps_and_leaders_lost_score_for_the_enemy():
    st = demo_state()
    base = victory.score(st).points
    st["units"]["u1"]["steps"] -= 1                      # a Union step lost: +1 Confederate
    st["units"]["c1"]["steps"] = 0                       # a Confederate unit gone (2 steps): +2 Union
    st["leaders"]["lyle"]["killed"] = True               # +3 Confederate
    st["leaders"]["duvall"]["removed"] = True            # sickness (8.13): nothing
    s = victory.score(st)
    assert s.points["confederate"] == base["confederate"] + 1 + 3
    assert s.points["union"] == base["union"] + 2


def test_decisive_margin():
    st = demo_state()
    for uid, u in st["units"].items():
        if u["side"] == "union":
            u["steps"] = 0
    s = victory.score(st)
    assert s.winner == "confederate" and s.level == "decisive" and s.margin >= 10
