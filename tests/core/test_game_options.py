"""The optional rules a game is made with (``hxref new --option``) are named to whoever joins it:
``status`` (text and JSON), ``join`` and the receipt of a join list them, read from the game's
first event, so no one signs for rules he was not shown."""
import json

from hxref.referee.engine import Engine


def made_with(cli, *options: str) -> str:
    args = [a for name in options for a in ("--option", name)]
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", *args)
    return "g.yaml"


def test_status_lists_the_optional_rules_chosen_at_creation(cli):
    game = made_with(cli, "sickness", "off_map_rail")
    assert Engine.load(game).gf.log[0]["data"]["scenario"]["options"] == {"off_map_rail": True, "sickness": True}
    out = cli("status", game).output
    assert "optional rules: off_map_rail, sickness" in out
    assert json.loads(cli("status", game, "--json").output)["options"] == ["off_map_rail", "sickness"]


def test_status_says_none_when_no_optional_rule_was_chosen(cli):
    game = made_with(cli)
    assert "optional rules: none" in cli("status", game).output
    assert json.loads(cli("status", game, "--json").output)["options"] == []


def test_join_and_its_receipt_list_the_optional_rules(cli):
    game = made_with(cli, "sickness")
    out = cli("join", game, "--side", "union", "--key", "alice").output
    assert "optional rules your join agrees to: sickness" in out
    receipt = cli("submit", game, "union-join.yaml").output
    assert "optional rules: sickness" in receipt
