"""A unit attacks once a combat phase (the Musket & Sabre series reading,
games/salem_church/readings.md): the Union player, with only his key and the game file, names
one brigade in two attacks to make it fight twice, or twice in one attack to count its CF twice;
``hxref answer`` and ``hxref check`` refuse the file (exit 2, one line naming the rule), and the
game file is not changed."""
import json
from pathlib import Path

import pytest

TURN_1 = {"entry": "2114", "moves": [
    {"unit": "first-1", "path": ["2114", "2013", "1913", "1812", "1712"]},
    {"unit": "second-1", "path": ["2114", "2013", "1913", "1812", "1712"]},
    {"unit": "art-1", "path": ["2114", "2013", "1913", "1812", "1713"]},
    {"unit": "brooks-1", "path": ["2114", "2013", "1913", "1812", "1713"], "leader": "brooks-1"}]}


def _link(cli, key: str, decision: str) -> None:
    side = {"alice": "union", "bob": "confederate"}[key]
    cli("roll", "g.yaml", "--side", side, "--key", key)
    cli("submit", "g.yaml", f"{side}-{decision}-roll.yaml")


@pytest.fixture
def next_to_wilcox(cli) -> str:
    """An open game at the Union turn 2: First/1 and Second/1 in 1712, Wilcox/M next to them in 1612."""
    cli("new", "g.yaml", "--system", "salem-church", "--scenario", "salem-church", "--mode", "open",
        "--game-id", "sc-once", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    for side, key, decision, choice in (
            ("confederate", "bob", "t0.setup", {"place": {"wilcox-m": "1512"}}),
            ("union", "alice", "t1.union", TURN_1),
            ("confederate", "bob", "t1.confederate", {"moves": [{"unit": "wilcox-m", "path": ["1612"]}]})):
        cli("answer", "g.yaml", "--side", side, "--key", key, "--choice", json.dumps(choice))
        cli("submit", "g.yaml", f"{side}-{decision}.yaml")
        if decision != "t0.setup":       # a player turn rolls dice: the other side's link follows
            _link(cli, "bob" if side == "union" else "alice", decision)
        cli("resolve", "g.yaml")
    return "g.yaml"


@pytest.mark.parametrize("attacks, said", [
    ([{"attackers": ["first-1"], "target": "1612"}, {"attackers": ["second-1", "first-1"], "target": "1612"}],
     "first-1 is already in attack 1, not again in attack 2"),
    ([{"attackers": ["first-1", "first-1", "second-1"], "target": "1612"}], "first-1 is twice in this attack 1"),
])
def test_a_brigade_cannot_attack_twice_in_one_combat_phase(cli, next_to_wilcox, attacks, said) -> None:
    before = Path(next_to_wilcox).read_bytes()
    err = cli.fails("answer", "g.yaml", "--side", "union", "--key", "alice", "--choice",
                    json.dumps({"moves": [], "attacks": attacks}))
    assert said in err and "a unit attacks once a combat phase" in err and "B1" in err, err
    assert Path(next_to_wilcox).read_bytes() == before


def test_the_honest_attack_is_played(cli, next_to_wilcox) -> None:
    cli("answer", "g.yaml", "--side", "union", "--key", "alice", "--choice",
        json.dumps({"moves": [], "attacks": [{"attackers": ["first-1", "second-1"], "target": "1612"}]}))
    cli("check", "g.yaml", "union-t2.union.yaml")
    cli("submit", "g.yaml", "union-t2.union.yaml")
    _link(cli, "bob", "t2.union")
    cli("resolve", "g.yaml")
    from hxref.referee.engine import Engine

    combats = Engine.load("g.yaml").state["combats"]
    assert [(c["turn"], c["attackers"], c["target"]) for c in combats] == [(2, ["first-1", "second-1"], "1612")]
