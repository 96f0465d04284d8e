"""Wagons and unbridged pontoons that move alone (7.21, 8.81), their escort (8.52) and the depot a
wagon becomes (8.5): what the case book (games/heartland/cases/wagons_and_unled_moves.yaml) cannot set up."""
from __future__ import annotations

from hxref.systems.heartland import wagons
from hxref.systems.heartland.impulse_conditions import cost_fn

from tests.heartland.factory import TODAY, C, U, World


def _world() -> World:
    w = World()
    w.state["current"] = {"weather": {"result": "Clear"}}
    w.wagon("w", U, "0101")
    return w


def _walk(w: World, path: list[str]) -> wagons.LoneMove:
    st = w.state
    hm = TODAY.map(st["map"])
    return wagons.lone_move(st, U, "w", path, hexmap=hm, cost=cost_fn(st, hm, U), zoc=set())


def test_7_21_a_wagon_walks_its_path_on_8_mp():
    m = _walk(_world(), ["0102", "0103"])
    assert m.hexes == ["0101", "0102", "0103"] and m.kind == "wagon" and m.rule == "7.21"


def test_3_71_a_wagon_stops_before_enemy_units_its_owner_could_not_see():
    # an enemy detachment has no ZOC (8.52): only the stack itself stops the wagon, in the hex before
    w = _world()
    w.unit("d", C, hex="0103", arm="detachment", size="regiment", cf=(1, 1))
    m = _walk(w, ["0102", "0103", "0104"])
    assert m.hexes == ["0101", "0102"] and "stopped before 0103: enemy units there" in m.stopped


def test_8_52_only_unled_detachments_in_the_wagons_hex_ride_as_its_escort():
    w = _world()
    w.unit("d1", U, hex="0101", arm="detachment", size="regiment", cf=(1, 1))
    w.unit("d2", U, hex="0102", arm="detachment", size="regiment", cf=(1, 1))     # elsewhere
    w.unit("inf", U, hex="0101")                                                   # not a detachment
    w.leader("lee", U, "0101")
    w.unit("d3", U, leader="lee", arm="detachment", size="regiment", cf=(1, 1))   # goes with its leader
    assert wagons.escort(w.state, "w") == ["d1"]
    m = _walk(w, ["0102"])
    wagons.apply_lone_move(w.state, m)
    assert w.state["units"]["d1"]["hex"] == "0102" and w.state["units"]["inf"]["hex"] == "0101"


def test_7_21_an_enemy_wagon_and_a_pontoon_being_laid_are_no_movers_of_the_side():
    w = _world()
    w.wagon("cw", C, "0105")
    w.state["pontoons"] = [{"id": "p1", "side": U, "hex": "0101", "hexside": None, "status": "unbridged",
                            "laid_turn": None}]
    assert wagons.lone_movers(w.state, U) == ["p1", "w"]
    assert not wagons.is_lone_mover(w.state, U, "cw") and wagons.is_lone_mover(w.state, C, "cw")


def test_7_21_a_wagon_ordered_alone_leaves_its_field_command_before_any_force_moves():
    w = _world()
    w.leader("lee", U, "0303")
    w.wagon("w2", U, "0303", leader="lee")
    left = wagons.unhook(w.state, U, [{"force": "lee", "path": ["0304"]}, {"force": "w2", "path": ["0302"]}])
    assert left == {"w2": "lee"}
    assert w.state["logistics"]["w2"]["leader"] is None and w.state["logistics"]["w2"]["hex"] == "0303"


def test_8_5_a_depot_stands_only_in_a_major_city_or_town_with_a_detachment_there(tmp_path):
    w = _world()
    w.unit("d1", U, hex="0101", arm="detachment", size="regiment", cf=(1, 1))
    hm = TODAY.map(w.state["map"])
    found = wagons.depot_problems(w.state, U, [{"wagon": "w", "detachment": "d1"}], hm)
    towns = [lab for lab in (f"{c:02d}{r:02d}" for c in range(1, 13) for r in range(1, 11))
             if {"town", "major_city"} & set(hm.features(hm.parse(lab)))]
    assert found and found[0].rule == "7.22, 8.5"          # 0101 of the sample map is open country
    w.state["logistics"]["w"]["hex"] = w.state["units"]["d1"]["hex"] = towns[0]
    assert wagons.depot_problems(w.state, U, [{"wagon": "w", "detachment": "d1"}], hm) == []
    assert wagons.depot_problems(w.state, U, [{"wagon": "w", "detachment": "d1"}, {"wagon": "w", "detachment": "d1"}],
                                 hm)[0].rule == "8.5"
    assert wagons.make_depot(w.state, "w", "d1") == towns[0]
    assert w.state["logistics"]["w"]["kind"] == "depot" and w.state["units"]["d1"]["steps"] == 0


def test_3_71_the_enemys_wagon_is_refused_word_for_word_as_an_id_that_does_not_exist():
    # the attacker (the Union, with only his own orders) probes for the Confederate wagon cw1 by
    # ordering it: the refusal is the one a made-up id gets, so it tells him nothing
    from tests.cases import book

    case = next(c for c in book.load_cases() if c.system == "heartland" and c.file.name == "wagons_and_unled_moves.yaml"
                and "enemy wagon" in c.data["title"])
    system, state = book.position(case)
    decision = book.awaited(system, state, "orders")

    def refusal(force: str) -> list[tuple[str, str]]:
        return book.side_problems(system, state, decision, U, {"moves": [{"force": force, "path": ["2009"]}]})

    assert refusal("cw1") == [(r, m.replace("`nosuch`", "`cw1`")) for r, m in refusal("nosuch")]
    assert refusal("cw1")[0][0] == "8.21"


def test_8_21_a_wagon_is_ordered_once_an_impulse():
    from tests.cases import book

    case = next(c for c in book.load_cases() if c.system == "heartland" and c.file.name == "wagons_and_unled_moves.yaml"
                and c.data["rule"] == "7.21" and "greyfield road" in c.data["title"].lower())
    system, state = book.position(case)
    decision = book.awaited(system, state, "orders")
    found = book.side_problems(system, state, decision, C, {"moves": [{"force": "cw1", "path": ["2009"]},
                                                                      {"force": "cw1", "path": ["2008"]}]})
    assert found and found[0][0] == "8.21" and "ordered to move twice" in found[0][1]
