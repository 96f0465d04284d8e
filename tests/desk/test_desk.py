"""The order page's API: what it shows, the live check as `hxref check` words it, and the save."""
from __future__ import annotations

from pathlib import Path

from hxref.desk.session import path_of


def test_the_page_shows_the_decision_the_template_and_what_is_owed(bid_desk):
    status, page = bid_desk.api("page")
    assert status == 200
    assert page["side"] == "union" and page["decision"]["id"] == "t1.bid" and page["decision"]["secret"]
    assert page["decision"]["schema"]["bid"]["type"] == "int"
    assert "bid" in page["choice"]
    assert page["lists"] == []                    # a bid is made in the form alone
    assert any("t1.bid" in line for line in page["owed"])
    # the player answers on the page: what is owed names no command to type
    assert any("union (you): its sealed commitment" in line for line in page["owed"]), page["owed"]
    assert not any("hxref " in line for line in page["owed"]), page["owed"]


def test_a_wrong_value_is_refused_with_the_words_of_hxref_check_and_nothing_saved(bid_desk):
    status, r = bid_desk.api("check", {"choice": {"bid": 99}})
    assert status == 200 and len(r["problems"]) == 1
    p = r["problems"][0]
    assert p["code"] == "E400" and p["rule"] == "5.1" and p["at"] == "choice.bid" and "99" in p["message"]
    assert p["line"] == ("union-t1.bid-commit.yaml: bid 99 is above this side's maximum operation level of 4 "
                         "(at choice.bid) [rule 5.1] [E400]")            # as `hxref commit` and `check` say it
    assert bid_desk.api("check", {"choice": {"bid": -1}})[1]["problems"][0]["code"] == "E112"   # the schema's own
    status, r = bid_desk.api("save", {"choice": {"bid": 99}})
    assert r["problems"] and not list(Path.cwd().glob("union-t1.bid-*.yaml"))


def test_a_good_bid_is_saved_as_hxref_commit_writes_it_and_submit_accepts_it(bid_desk, cli):
    assert bid_desk.api("check", {"choice": {"bid": 3}})[1] == {"problems": []}
    status, r = bid_desk.api("save", {"choice": {"bid": 3}})
    assert status == 200, r
    assert r["files"] == ["union-t1.bid-commit.yaml", "union-t1.bid-reveal.yaml"]
    assert r["send"].startswith("hxref submit g.yaml union-t1.bid-commit.yaml")
    cli("submit", "g.yaml", "union-t1.bid-commit.yaml")
    cli("commit", "g.yaml", "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    cli("submit", "g.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", "g.yaml", "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    assert "union" in cli("resolve", "g.yaml").stdout


def test_a_second_save_does_not_overwrite_the_first(bid_desk):
    bid_desk.api("save", {"choice": {"bid": 3}})
    status, r = bid_desk.api("save", {"choice": {"bid": 4}})
    assert status == 400 and "E502" in r["error"]


def test_a_problem_s_place_is_read_as_the_steps_inside_the_choice():
    assert path_of("choice.moves[1].path[0]") == ["moves", 1, "path", 0]
    assert path_of("choice.bid") == ["bid"]
    assert path_of(None) == [] and path_of("head") == []


def test_done_stops_the_server(bid_desk):
    assert bid_desk.api("done")[0] == 200
    bid_desk.thread.join(5)
    assert not bid_desk.thread.is_alive()


def test_an_impulse_s_map_lists_reach_and_problems_on_the_map(impulse_desk):
    status, page = impulse_desk.api("page")
    assert status == 200 and page["map"]["size"] > 0 and "2010" in page["map"]["hexes"]
    assert page["map"]["svg"].startswith("<svg") and "what confederate sees" in page["map"]["svg"]
    moves = next(ml for ml in page["lists"] if ml["key"] == "moves")
    assert {"id": "calloway", "hex": "2010", "label": "Calloway"} in moves["pieces"]
    status, r = impulse_desk.api("reach", {"choice": page["choice"], "list": "moves", "piece": "calloway"})
    assert status == 200 and r["reach"]["1910"] > 0
    status, r = impulse_desk.api("reach", {"choice": page["choice"], "list": "moves", "piece": "dunning"})
    assert status == 400 and "not a piece" in r["error"]          # the enemy's force: nothing of his is asked
    bad = {"moves": [{"force": "calloway", "path": ["1910", "1710"]}]}
    [p] = impulse_desk.api("check", {"choice": bad})[1]["problems"]
    assert p["hex"] == "1710" and p["rule"] == "8.2" and p["at"] == "choice.moves[0].path[1]"


def test_the_pieces_and_the_reach_are_read_from_the_sides_view_never_the_open_games_full_state(impulse_desk,
                                                                                                 monkeypatch):
    """An open game's file holds everything, hidden forces too: the page lights what the side's own
    view allows (as its map shows it), and only the check, the referee's, reads the game."""
    session = impulse_desk.desk.session
    seen = []
    real_orders, real_reach = session.system.map_orders, session.system.reach
    monkeypatch.setattr(session.system, "map_orders", lambda st, *a: seen.append(st) or real_orders(st, *a))
    monkeypatch.setattr(session.system, "reach", lambda st, *a: seen.append(st) or real_reach(st, *a))
    page = impulse_desk.api("page")[1]
    assert impulse_desk.api("reach", {"choice": page["choice"], "list": "moves", "piece": "calloway"})[0] == 200
    assert seen and all(st is session.view for st in seen) and session.view is not session.state


def test_save_and_mail_submits_and_writes_the_outbox_where_the_game_has_an_address_book(cli, game):
    from tests.desk.conftest import serving

    Path("g.addresses.yaml").write_text("union: alice@example.org\nconfederate: bob@example.org\n")
    with serving(game, "union", "alice") as served:
        assert served.api("page")[1]["mail"] is True
        status, r = served.api("save", {"choice": {"bid": 2}, "mail": True})
    assert status == 200, r
    assert r["mailed"][0].startswith("accepted: game test-game decision t1.bid side union (commit)")   # submitted
    assert any("for confederate" in line for line in r["mailed"])
    assert list(Path("outbox").glob("*.eml"))
    assert "confederate" in cli("status", game).stdout                        # the union's commitment is in


def test_without_an_address_book_there_is_no_save_and_mail(bid_desk):
    assert bid_desk.api("page")[1]["mail"] is False
