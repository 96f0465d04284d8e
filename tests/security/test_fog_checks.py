"""Fog-safe checks (trust protocol v2, property 8), probed the way the attacker does it
(shared/reviews/security.md H4, L6; security-scripts/probe_hidden.py).

In an umpired game a side's orders are checked against its own view (3.71).  A force hidden under
a cavalry screen (8.62a) is off the enemy's map: a path into its hex or through its ZOC is not
refused; at resolution the move stops as the rules say (3.61: entering enemy ZOC stops the move;
8.26: never into an enemy-occupied hex) and the hidden force appears (8.62a).  Open games have no
such fog (hidden forces are plotted commitments there), and solo games hide nothing.

Heartland: the heartland-demo scenario at the Confederates' first orders; Union Dunning is put in
1404 (across the Duck River from 1504: no ZOC over the major river, 3.61) or in 1604 (open
ground) and hidden as a legal ``hide: true`` would.  Strother (1904) probes westwards.
Salem Church: line-of-sight fog (views.py); Kershaw/M in the heavy woods of 0713 is unseen from
0909 (heavy woods block LOS into the hex).
"""
from __future__ import annotations

import copy
import json

import pytest

from hxref.crypto.dice import FixedDice
from hxref.systems import get
from hxref.systems.heartland import cavalry as cv
from hxref.systems.heartland import fog, impulse, model

H = get("heartland")
PATH = ["1804", "1704", "1604", "1504", "1404"]
STANDING = {"choice": "disrupt", "loss": "loss", "hexes": 1}


def heartland(mode: str = "umpired", dunning_at: str = "1404", hidden: bool = True) -> dict:
    sc = H.load_scenario("heartland-demo")
    sc["table_mode"] = mode                       # the engine sets it before setup
    st = H.setup(sc)
    st["phase"], st["current"]["remaining"] = "impulse", {"union": 2, "confederate": 2}
    impulse.start(st, H.charts.map(st["map"]), {"side": "confederate", "level": 3, "fixed": True, "rule": "5.11"}, [])
    st["leaders"]["dunning"]["hex"] = dunning_at
    # 8.62a: Royce's cavalry (2 brigades: screen range 2) screens as a corps two hexes away
    st["leaders"]["royce"].update(hex="1204" if dunning_at == "1404" else "1602", cavalry_corps=True, screen=True)
    if hidden:
        h = cv.hide(st, H.charts.map(st["map"]), "dunning")
        assert not h.problems, h.why                # a legal `hide: true`
        cv.apply_hide(st, h)
    return st


def probe(st: dict, moves: list[dict]):
    dec = H.decisions(st)[0]
    return H.check(st, dec, "confederate", {"moves": moves})


def secrets(st: dict) -> list[str]:
    d = st["leaders"]["dunning"]
    return ["dunning", d["name"], d["name"].split()[-1], d["hex"]]


def resolve(st: dict, moves: list[dict], faces=(1,) * 12):
    st = copy.deepcopy(st)
    dec = H.decisions(st)[0]
    return H.resolve(st, dec, {"confederate": {"moves": moves}}, FixedDice(list(faces)))


def seen_by(events: list[dict], side: str) -> list[str]:
    """The event texts ``side``'s report shows (hxref.kit.events.visible, umpired)."""
    from hxref.kit.events import visible

    return [e.get("text", "") for e in events if visible(e, side)]


# --- the check: the side's own view -----------------------------------------------------------

def test_3_71_the_view_and_the_check_agree_on_the_enemy_hexes():
    st = heartland()
    view = H.view(st, "confederate", "umpired")
    assert "dunning" not in json.dumps(view).lower()
    seen = model.occupied_hexes(fog.checked_state(st, "confederate"), "union")     # what its orders meet
    assert "1404" not in seen
    assert seen <= set(view["seen"]["union"])
    assert "1404" in model.occupied_hexes(st, "union")          # still there (8.62a)


@pytest.mark.parametrize("n", range(1, len(PATH) + 1))
def test_8_62a_probing_paths_towards_a_hidden_force_is_never_refused(n):
    st = heartland()
    assert probe(st, [{"force": "strother", "path": PATH[:n]}]) == []


def test_8_62a_probing_through_a_hidden_force_zoc_is_never_refused():
    st = heartland(dunning_at="1604")            # 1504, 1704 ... in its ZOC (3.6)
    for path in (PATH[:2], PATH[:3], PATH, ["1804", "1704", "1703"]):
        assert probe(st, [{"force": "strother", "path": path}]) == [], path


def test_3_71_no_refusal_names_the_hidden_force():
    st = heartland()
    words = secrets(st)
    tries = [[{"force": "strother", "path": PATH + ["1304"]}], [{"force": "strother", "path": PATH + ["1405"]}],
             [{"force": "strother", "path": ["1804", "1704"], "attack": "1404"}]]
    for moves in tries:            # (a refusal echoing the order's own words is no leak: see L6 below)
        for p in probe(st, moves):
            assert not any(w.lower() in p.message.lower() for w in words), p.message


def test_8_4_an_attack_probing_a_hidden_force_is_refused_as_one_on_an_empty_hex():
    """The attacker orders an attack on each hex he suspects; a hex holding a hidden force must get
    the refusal an empty hex gets (8.4 against his own map, 3.71), word for word."""
    st = heartland()
    hidden = probe(st, [{"force": "strother", "path": ["1804", "1704"], "attack": "1404"}])
    empty = probe(st, [{"force": "strother", "path": ["1804", "1704"], "attack": "1303"}])
    assert hidden and [(p.message, p.rule, p.path) for p in hidden] == [(p.message, p.rule, p.path) for p in empty]
    assert hidden[0].rule == "8.4"


def test_l6_a_hidden_enemy_id_is_refused_like_a_made_up_one():
    st = heartland()
    hidden = probe(st, [{"force": "dunning", "path": ["1405"]}])
    made_up = probe(st, [{"force": "zz-nobody", "path": ["1405"]}])
    visible = probe(st, [{"force": "whitcomb", "path": ["1110"]}])
    assert hidden and made_up and visible
    for p in (hidden, visible):
        assert p[0].message.replace("dunning", "X").replace("whitcomb", "X") == \
            made_up[0].message.replace("zz-nobody", "X")
        assert p[0].rule == made_up[0].rule == "8.21"


def test_l6_a_screen_order_for_an_enemy_id_is_refused_like_a_made_up_one():
    st = heartland()
    dec = H.decisions(st)[0]
    a = H.check(st, dec, "confederate", {"moves": [], "screen": [{"who": "dunning"}]})
    b = H.check(st, dec, "confederate", {"moves": [], "screen": [{"who": "zz-nobody"}]})
    assert a and b and a[0].message.replace("dunning", "X") == b[0].message.replace("zz-nobody", "X")


# --- resolution: contact ----------------------------------------------------------------------

def test_8_26_a_move_into_the_hidden_hex_stops_in_the_hex_before_and_the_force_appears():
    st = heartland()                              # 1504|1404 is a major river: no ZOC over it (3.61)
    st, events = resolve(st, [{"force": "strother", "path": PATH}])
    assert st["leaders"]["strother"]["hex"] == "1504"
    assert not st["leaders"]["dunning"].get("hidden")              # 8.62a: it appears
    view = H.view(st, "confederate", "umpired")
    assert "1404" in view["seen"]["union"]
    mine = " | ".join(seen_by(events, "confederate"))
    assert "runs into a hidden union force in 1404" in mine and "stops in 1504" in mine
    theirs = " | ".join(seen_by(events, "union"))
    assert "Dunning, hidden in 1404, is met by an enemy force" in theirs
    assert "runs into" not in theirs


def test_3_61_a_move_into_a_hidden_force_zoc_stops_there_and_checks_to_attack():
    st = heartland(dunning_at="1604")
    st, events = resolve(st, [{"force": "strother", "path": PATH}])
    assert st["leaders"]["strother"]["hex"] == "1704"              # the first hex in its ZOC
    assert not st["leaders"]["dunning"].get("hidden")
    assert any(e["type"] == "attack.check" and e["target"] == "1604" for e in events)   # 3.61, 8.41
    mine = " | ".join(seen_by(events, "confederate"))
    assert "entered enemy ZOC in 1704" in mine and "hidden union force in 1604" in mine


def test_3_61_zoc_to_zoc_into_a_hidden_zoc_stops_before():
    st = heartland(dunning_at="1604")
    st["leaders"]["whitcomb"]["hex"] = "1903"      # a seen enemy: Strother starts in its ZOC
    for lid in model.force_leaders(st, "whitcomb")[1:]:
        st["leaders"][lid]["hex"] = "1903"
    assert probe(st, [{"force": "strother", "path": ["1804"]}]) == []   # not ZOC to ZOC on its map
    st2, events = resolve(st, [{"force": "strother", "path": ["1804"]}])
    z = impulse.enemy_zoc(fog.checked_state(st, "confederate"), H.charts.map(st["map"]), "confederate")     # the ZOC on its map
    if "1804" in z:       # 1804 is in the seen ZOC too: the move stops there, no contact needed
        return
    assert st2["leaders"]["strother"]["hex"] in ("1904", "1804")


def test_8_62a_a_move_short_of_the_contact_reveals_nothing():
    st = heartland(dunning_at="1604")
    st, events = resolve(st, [{"force": "strother", "path": PATH[:1]}])
    assert st["leaders"]["strother"]["hex"] == "1804"
    assert st["leaders"]["dunning"].get("hidden")
    assert not any(e["type"] == "contact" for e in events)


def test_8_62a_a_hidden_force_moving_keeps_its_path_to_its_side():
    st = heartland()
    st["current"]["active_impulse"]["side"] = "union"
    dec = H.decisions(st)[0]
    st, events = H.resolve(st, dec, {"union": {"moves": [{"force": "dunning", "path": ["1403"]}]}},
                           FixedDice([1] * 12))
    moves = [e for e in events if e.get("type") == "move" and e.get("force") == "dunning"]
    assert moves and all(e.get("visible_to") == ["union"] for e in moves)
    assert not any("1403" in t for t in seen_by(events, "confederate"))


# --- open and solo games: no such fog ---------------------------------------------------------

def test_open_and_solo_checks_are_unchanged():
    for mode in ("open", "solo"):
        st = heartland(mode=mode, hidden=False)
        p = probe(st, [{"force": "strother", "path": PATH}])
        assert p and "1404 holds enemy units" in p[0].message, mode
        assert fog.checked_state(st, "confederate") is st
    st = heartland(mode="solo")                  # solo: the one player sees everything (views)
    assert probe(st, [{"force": "strother", "path": PATH}])


def test_open_game_hidden_forces_are_plotted_off_the_map():
    from hxref.systems.heartland import hidden_open as ho

    st = heartland(mode="open", hidden=False)
    ho.start(st, "dunning", "1404")              # 8.62a open: it leaves the map, plotted on paper
    assert probe(st, [{"force": "strother", "path": PATH}]) == []
    hm = H.charts.map(st["map"])
    assert fog.contact_on_path(st, "confederate", PATH, start="1904", active=True,
                               hexmap=hm, cost=impulse.cost_fn(st, hm, "confederate")) is None


# --- Salem Church: line-of-sight fog ----------------------------------------------------------

def salem(mode: str = "umpired") -> tuple:
    S = get("salem-church")
    sc = S.load_scenario("salem-church")
    sc["table_mode"] = mode
    st = S.setup(sc)
    for u in st["units"].values():
        u["hex"] = None
    st["units"]["first-1"]["hex"] = "0909"
    st["units"]["kershaw-m"]["hex"] = "0713"      # heavy woods: unseen from 0909
    st.update(turn=8, phasing="union", stage="play")
    return S, st


SALEM_PATH = ["0809", "0810", "0811", "0812", "0713"]


def test_salem_umpired_the_check_never_names_an_unseen_unit():
    from hxref.systems.salem_church.board import hexmap
    from hxref.systems.salem_church import views as vw

    S, st = salem()
    assert "kershaw-m" not in vw.seen_units(st, hexmap(S.charts, st), "union")
    dec = S.decisions(st)[0]
    assert S.check(st, dec, "union", {"moves": [{"unit": "first-1", "path": SALEM_PATH}]}) == []
    a = S.check(st, dec, "union", {"moves": [{"unit": "kershaw-m", "path": ["0712"]}]})
    b = S.check(st, dec, "union", {"moves": [{"unit": "zz-nobody", "path": ["0712"]}]})
    assert a[0].message.replace("kershaw-m", "X") == b[0].message.replace("zz-nobody", "X")


def test_salem_umpired_contact_stops_the_move_before_the_occupied_hex():
    S, st = salem()
    dec = S.decisions(st)[0]
    st, events = S.resolve(st, dec, {"union": {"moves": [{"unit": "first-1", "path": SALEM_PATH}],
                                               "standing": STANDING}}, FixedDice([1] * 20))
    assert st["units"]["first-1"]["hex"] == "0812"
    assert st["units"]["kershaw-m"]["hex"] == "0713"
    mine = " | ".join(seen_by(events, "union"))
    assert "runs into enemy units it had not seen: its move stops in 0812" in mine
    v = S.view(st, "union", "umpired")
    assert "kershaw-m" in v["units"]                                    # in sight now (contact)


def test_salem_open_check_is_unchanged():
    S, st = salem(mode="open")
    dec = S.decisions(st)[0]
    p = S.check(st, dec, "union", {"moves": [{"unit": "first-1", "path": SALEM_PATH}]})
    assert p and "0713 holds enemy units" in p[0].message
