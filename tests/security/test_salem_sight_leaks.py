"""Salem Church, umpired line-of-sight play: a side is told where an enemy unit is only where its
own units saw it at that moment (:mod:`hxref.systems.salem_church.narration`, ``Place``).

Each test plays a turn and then reads, as the cheating side would, only what that side holds: the
events told to it (the report's event lines and the JSON output), its view (the status and the
report's tables, the JSON view) and its map's markers (the SVG) -- never the game's full state.
The honest owner's own report stays complete.
"""
from __future__ import annotations

import json
from typing import Any

from hxref.kit.events import visible
from hxref.systems.salem_church import views as vw
from hxref.systems.salem_church.board import hexmap
from hxref.systems.salem_church.system import SYSTEM
from tests.salem_church.test_narration import PurposeDice


def game(pos: dict[str, str], *, turn: int = 2, phasing: str = "union") -> Any:
    sc = SYSTEM.load_scenario("salem-church")
    sc["table_mode"] = "umpired"
    st = SYSTEM.setup(sc)
    for u in st["units"].values():
        u["hex"] = None
    for uid, label in pos.items():
        st["units"][uid]["hex"] = label
    st.update(turn=turn, phasing=phasing, stage="play")
    return st


def play(st: Any, orders: dict, faces: dict[str, int]) -> tuple[Any, list[dict]]:
    dec = SYSTEM.decisions(st)[0]
    return SYSTEM.resolve(st, dec, {st["phasing"]: orders}, PurposeDice(faces))


def held_by(st: dict, events: list[dict], side: str) -> dict[str, str]:
    """Everything ``side`` holds after the turn, as text: its events (report lines and JSON), its
    view (JSON, the report's sections) and its map markers (SVG)."""
    view = SYSTEM.view(st, side, "umpired")
    mine = [e for e in events if visible(e, side)]
    sections = [{"title": s.title, "lines": s.lines, "rows": s.rows} for s in SYSTEM.report(view)]
    return {"events": json.dumps(mine), "view": json.dumps(view), "report": json.dumps(sections),
            "svg": json.dumps(SYSTEM.map_view(view).units)}


def leaked(held: dict[str, str], words) -> list[tuple[str, str]]:
    return [(where, w) for where, text in held.items() for w in words if f'{w}' in text]


# --- 1. a unit that leaves the side's sight: its destination is not told -------------------------

def retreat_out_of_sight():
    """First/1 (0209) attacks Wilcox/M in 0310: die 5, Dr; the Confederates' standing order is to
    retreat 3 hexes: Wilcox/M goes to 0608, which First/1 does not see."""
    st = game({"first-1": "0209", "wilcox-m": "0310"})
    st["standing_orders"]["confederate"] = {"choice": "retreat", "hexes": 3}
    st, events = play(st, {"attacks": [{"attackers": ["first-1"], "target": "0310"}]}, {"CRT": 5, "MC": 1})
    assert st["units"]["wilcox-m"]["hex"] == "0608"
    assert "wilcox-m" not in vw.seen_now(st, hexmap(SYSTEM.charts, st), "union")
    return st, events


def test_a_unit_retreating_out_of_sight_is_not_followed_to_its_new_hex():
    st, events = retreat_out_of_sight()
    union = held_by(st, events, "union")
    assert leaked(union, ["0608", "wilcox-m", "Wilcox/M"]) == []
    (told,) = [e for e in events if e["type"] == "combat" and visible(e, "union")]
    assert told["text"].endswith("an unseen Confederate unit retreats out of sight")
    # the turn summary row too
    assert SYSTEM.view(st, "union", "umpired")["combats"][0]["effects"] == \
        "an unseen Confederate unit retreats out of sight"
    # the honest owner is told where his brigade went, in his events and his summary
    (own,) = [e for e in events if e["type"] == "combat" and visible(e, "confederate")]
    assert own["text"].endswith("Wilcox/M retreats to 0608")
    assert SYSTEM.view(st, "confederate", "umpired")["combats"][0]["effects"] == "Wilcox/M retreats to 0608"


def test_a_retreat_kept_in_the_state_reads_the_same_after_a_save():
    st, _ = retreat_out_of_sight()
    again = json.loads(json.dumps(st))              # the game file: plain data
    assert SYSTEM.view(again, "union", "umpired")["combats"] == SYSTEM.view(st, "union", "umpired")["combats"]


# --- 2. combat reasons name no hex of an attacker the defender does not see ------------------------

def test_a_combat_reason_does_not_name_the_hex_of_an_attacker_out_of_sight():
    """First/1 and Second/1 attack out of heavy woods in 0105 into 0106: die 5, Dr; Wilcox/M
    retreats out of contact and no longer sees them (LOS into heavy woods is blocked)."""
    st = game({"first-1": "0105", "second-1": "0105", "wilcox-m": "0106"})
    st["standing_orders"]["confederate"] = {"choice": "retreat", "hexes": 3}
    st, events = play(st, {"attacks": [{"attackers": ["first-1", "second-1"], "target": "0106"}]},
                      {"CRT": 5, "MC": 1})
    assert not {"first-1", "second-1"} & vw.seen_now(st, hexmap(SYSTEM.charts, st), "confederate")
    confederate = held_by(st, events, "confederate")
    assert leaked(confederate, ["0105", "first-1", "First/1", "second-1"]) == []
    (told,) = [e for e in events if e["type"] == "combat" and visible(e, "confederate")]
    assert "an unseen Union unit 5 /2 attacking out of heavy woods (TEC) = 2.5" in told["text"]
    reasons = [m["reason"] for m in told["explain"]["modifiers"]]
    assert reasons == ["attacking out of heavy woods"] * 2
    # the attacker reads his own hexes in full
    (own,) = [e for e in events if e["type"] == "combat" and visible(e, "union")]
    assert "First/1 5 /2 attacking out of heavy woods in 0105 (TEC)" in own["text"]


# --- 3. a unit seen only at its destination: not its whole path ------------------------------------

def test_a_unit_seen_arriving_is_told_from_out_of_sight():
    """Kershaw/M moves 0408 > 0407 > 0406; First/1 in 0909 sees only 0406."""
    st = game({"first-1": "0909", "kershaw-m": "0408"}, turn=1, phasing="confederate")
    sight = set().union(*(vw.sight_from(hexmap(SYSTEM.charts, st), h) for h in vw.observers(st, "union")))
    assert "0406" in sight and not {"0408", "0407"} & sight
    st, events = play(st, {"moves": [{"unit": "kershaw-m", "path": ["0407", "0406"]}]}, {})
    union = held_by(st, events, "union")
    assert leaked(union, ["0408", "0407"]) == []
    (told,) = [e for e in events if e["type"] == "move" and visible(e, "union")]
    assert told["text"] == "Kershaw/M moves from out of sight > 0406 (end of the ordered path)"
    assert told["path"] == ["out of sight", "0406"]
    assert "kershaw-m" in SYSTEM.view(st, "union", "umpired")["units"]        # seen where it is now
    (own,) = [e for e in events if e["type"] == "move" and visible(e, "confederate")]
    assert own["text"] == "Kershaw/M moves 0408 > 0407 > 0406 (end of the ordered path)"
    assert own["path"] == ["0407", "0406"]


def test_a_move_seen_whole_is_told_whole_to_both_sides():
    """Kershaw/M moves 0607 > 0608 next to First/1's sight all the way: one event for everyone."""
    st = game({"first-1": "0909", "kershaw-m": "0607"}, turn=1, phasing="confederate")
    sight = set().union(*(vw.sight_from(hexmap(SYSTEM.charts, st), h) for h in vw.observers(st, "union")))
    assert {"0607", "0608"} <= sight
    st, events = play(st, {"moves": [{"unit": "kershaw-m", "path": ["0608"]}]}, {})
    (move,) = [e for e in events if e["type"] == "move"]
    assert "visible_to" not in move and move["text"].startswith("Kershaw/M moves 0607 > 0608")


# --- the declared secret kinds cover positions out of sight --------------------------------------

def test_the_declared_secrets_hold_where_an_unseen_unit_went():
    """``.views:unseen_positions`` (SystemInfo.secret_kinds): the conformance sweep (f) searches
    every report for them; here the enemy's outputs show none, the owner's show his own."""
    from hxref.systems.salem_church.info import INFO

    assert ".views:unseen_positions" in INFO.secret_kinds
    st, events = retreat_out_of_sight()
    words = SYSTEM.secrets(st, "confederate")
    assert {"to 0608", "> 0608", "into 0608", "wilcox-m", "Wilcox/M"} <= words
    assert leaked(held_by(st, events, "union"), sorted(words)) == []
    assert ("events", "to 0608") in leaked(held_by(st, events, "confederate"), sorted(words))


def test_open_map_declares_no_position_secret():
    st, _ = retreat_out_of_sight()
    st["options"]["open_map"] = True
    assert vw.unseen_positions(st, "confederate") == []


# --- further: how an unseen unit took a public victory hex ---------------------------------------

def test_control_of_a_victory_hex_by_an_unseen_unit_does_not_say_how():
    """Wilcox/M moves 1203 > 1204 (a victory hex, its holder public: 14.1, F5) out of First/1's
    sight (0105): the Union reads who holds 1204, not that a unit is (or passed) there."""
    st = game({"first-1": "0105", "wilcox-m": "1203"}, turn=1, phasing="confederate")
    st, events = play(st, {"moves": [{"unit": "wilcox-m", "path": ["1204"]}]}, {})
    assert "wilcox-m" not in vw.seen_now(st, hexmap(SYSTEM.charts, st), "union")
    told = [e["text"] for e in events if e["type"] == "control" and e["hex"] == "1204"]
    union = [e["text"] for e in events if e["type"] == "control" and e["hex"] == "1204" and visible(e, "union")]
    assert union == ["1204: Confederate (was nobody's) [14.1, 14.2]"]
    assert leaked(held_by(st, events, "union"), ["wilcox-m", "Wilcox/M", "an unseen Confederate unit"]) == []
    own = [t for t in told if t not in union]
    assert own and own[0].startswith("1204: Confederate (Wilcox/M ")
    assert SYSTEM.view(st, "union", "umpired")["control"] == {"1204": "confederate"}


def test_a_bombardment_does_not_say_where_an_unseen_battery_fires_from():
    """Art/1 in heavy woods (0105) bombards Wilcox/M in 0107, who cannot see into the woods: die 6,
    a step lost.  The Confederates learn of the fire and its result, not the battery's hex nor
    its distance (which would draw the ring it stands on)."""
    st = game({"art-1": "0105", "wilcox-m": "0107"})
    assert "0105" not in vw.sight_from(hexmap(SYSTEM.charts, st), "0107")
    st, events = play(st, {"bombard": [{"unit": "art-1", "target": "0107"}]}, {"bombard": 6})
    confederate = held_by(st, events, "confederate")
    assert leaked(confederate, ["0105", "art-1", "Art/1", "2 hex(es)"]) == []
    (told,) = [e for e in events if e["type"] == "bombardment" and visible(e, "confederate")]
    assert told["text"].startswith("an unseen Union unit bombards 0107 (Wilcox/M): die 6: step")
    assert told["explain"]["from"] is None and told["explain"]["distance"] is None
    (own,) = [e for e in events if e["type"] == "bombardment" and visible(e, "union")]
    assert own["text"].startswith("Art/1 in 0105 bombards 0107 (Wilcox/M): 2 hex(es), range 3")
    assert own["explain"]["from"] == "0105"


# --- the wagon train's exit hex (16.0): told only to a side that saw it leave -----------------------

def wagon_exit(confederate_hex: str):
    """The wagon train leaves the map from 0107 (16.0, for victory, 14.1) on turn 5."""
    st = game({"wagon-train": "0107", "wilcox-m": confederate_hex}, turn=5)
    return play(st, {"moves": [{"unit": "wagon-train", "path": ["off"]}]}, {})


def test_the_wagon_trains_exit_hex_is_not_told_to_a_confederate_who_did_not_see_it():
    st, events = wagon_exit("2010")
    assert "0107" not in set().union(*(vw.sight_from(hexmap(SYSTEM.charts, st), h) for h in vw.observers(st, "confederate")))
    assert st["wagon"]["exited"] == "victory" and st["wagon"]["hex"] == "0107"
    assert "confederate" not in st["wagon"]["seen_by"]
    confederate = held_by(st, events, "confederate")
    # 0107 is also the Confederates' own entry hex (13.3), printed in the view's schedule: the
    # view's wagon record is read below; everything else they hold names no 0107
    assert leaked({k: x for k, x in confederate.items() if k != "view"}, ["0107"]) == []
    # that it left, and for victory, is public (digest F5)
    assert SYSTEM.view(st, "confederate", "umpired")["wagon"] == {"exited": "victory", "captured": False}
    (told,) = [e for e in events if e["type"] == "wagon.exit" and visible(e, "confederate")]
    assert told["text"] == "the wagon train leaves the map out of sight (victory, 16.0)"
    # the owner reads his train's exit hex in full
    assert SYSTEM.view(st, "union", "umpired")["wagon"]["hex"] == "0107"
    (own,) = [e for e in events if e["type"] == "wagon.exit" and visible(e, "union")]
    assert own["text"] == "the wagon train leaves the map at 0107 (victory, 16.0)"


def test_a_confederate_who_saw_the_wagon_train_leave_is_told_its_exit_hex():
    st, events = wagon_exit("0208")                 # next to 0107: contact
    assert st["wagon"]["seen_by"] == ["confederate", "union"]
    assert SYSTEM.view(st, "confederate", "umpired")["wagon"]["hex"] == "0107"
    (told,) = [e for e in events if e["type"] == "wagon.exit" and visible(e, "confederate")]
    assert told["text"] == "the wagon train leaves the map at 0107 (victory, 16.0)"
