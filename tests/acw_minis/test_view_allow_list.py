"""ACW minis keeps no secret (every figure, order and die is in the open), so its view is the
whole state for every audience: a new state field shows to both sides and the public alike."""
from hxref.kit import registry


def test_every_audience_sees_the_whole_state():
    system = registry.get("acw-minis")
    state = system.setup(system.load_scenario("mercers-mill"))
    state["zz_new_field"] = "XYZZY-123"
    for audience in (*system.sides, None):
        v = system.view(state, audience, "umpired")
        assert {k: x for k, x in v.items() if k != "viewer"} == state and v["viewer"] == audience
