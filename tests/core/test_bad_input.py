"""Bad input (issue: the core, scope 8): each case exits 2 with one readable line naming the
file (and the line where there is one) and leaves the game file byte-identical."""
import re
from pathlib import Path

import pytest

from hxref.crypto.signing import load_private_key, sign_text, split_signed_text


@pytest.fixture
def committed(cli, game):
    """Union has committed to bid 3; its reveal file is kept."""
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", game, "union-t1.bid-commit.yaml")
    return game


def refused(cli, game, path, code, *, line=True, extra=()):
    before = Path(game).read_bytes()
    err = cli.fails("submit", game, str(path), *extra)
    assert Path(game).read_bytes() == before, "a refused file changed the game file"
    assert f"[{code}]" in err, err
    assert str(path) in err
    if line:
        assert re.search(re.escape(str(path)) + r":\d+", err), f"no line number in: {err}"
    return err


def resign(path: Path, text: str, key="alice") -> Path:
    body, _ = split_signed_text(text)
    path.write_text(sign_text(body, load_private_key(key)))
    return path


def test_unsigned_file(cli, committed):
    body, _ = split_signed_text(Path("union-t1.bid-reveal.yaml").read_text())
    Path("unsigned.yaml").write_text(body)
    err = refused(cli, committed, "unsigned.yaml", "E200", line=False)
    assert "hxref sign" in err


def test_signed_by_the_other_sides_key(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text()
    err = refused(cli, committed, resign(Path("forged.yaml"), text, key="bob"), "E202", line=False)
    assert "SHA256:" in err


def test_signed_by_a_key_not_in_the_game(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text()
    refused(cli, committed, resign(Path("forged.yaml"), text, key="carol"), "E202", line=False)


def test_a_flipped_byte_breaks_the_signature(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("bid: 3", "bid: 4")
    Path("edited.yaml").write_text(text)
    refused(cli, committed, "edited.yaml", "E201", line=False)


def test_file_for_another_game(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("game: test-game", "game: other-game")
    err = refused(cli, committed, resign(Path("other.yaml"), text), "E300")
    assert "other-game" in err and "other.yaml:4:" in err   # the `game:` line, after two comment lines


def test_file_for_another_decision(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("decision: t1.bid", "decision: t9.bid")
    err = refused(cli, committed, resign(Path("other.yaml"), text), "E301")
    assert "t9.bid" in err and "awaited now: t1.bid" in err


def test_malformed_yaml_names_the_line(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("choice:\n  bid: 3", "choice: [bid: 3\n")
    err = refused(cli, committed, resign(Path("bad.yaml"), text), "E101")
    assert "YAML error" in err


@pytest.mark.parametrize("key", ["[a, {b: 1}]", "[[a]]", "{a: [1]}"])
def test_a_key_that_is_a_list_or_mapping_is_refused_without_a_traceback(cli, committed, key):
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("kind: reveal", f"kind: reveal\n? {key}\n: 1")
    err = refused(cli, committed, resign(Path("bad.yaml"), text), "E101", line=False)
    assert "a key must be a plain value" in err


def test_a_data_file_with_such_a_key_names_the_file():
    from hxref.base.errors import InvalidInput
    from hxref.base.yamlio import DATA_LIMITS, load_rt

    with pytest.raises(InvalidInput) as exc:
        load_rt("a: 1\n? [x, {y: 2}]\n: 3\n", "my-scenario.yaml", DATA_LIMITS, strict=False)
    assert exc.value.code == "E101" and exc.value.where.file == "my-scenario.yaml"


def test_unknown_keys(cli, committed):
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("kind: reveal", "kind: reveal\nbribe: 100")
    err = refused(cli, committed, resign(Path("bad.yaml"), text), "E110")
    assert "bribe" in err
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("  bid: 3", "  bid: 3\n  extra: 1")
    refused(cli, committed, resign(Path("bad2.yaml"), text), "E110")


def test_bid_above_the_maximum(cli, game):
    # refused before any file is written...
    err = cli.fails("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 5")
    assert "maximum operation level of 4" in err and "[rule 5.1]" in err
    # ...and a hand-made answer to the secret decision is refused too
    from tests.conftest import envelope

    Path("h.yaml").write_text(envelope(game, "union", "t1.bid", "answer") + "choice:\n  bid: 9\n")
    resign(Path("h.yaml"), Path("h.yaml").read_text())
    refused(cli, game, "h.yaml", "E304")


def test_bid_above_the_maximum_in_a_reveal(cli, game):
    # a player who bypasses `hxref commit` and commits to an illegal bid cannot reveal it
    from hxref.crypto import commit as c
    from hxref.referee.engine import Engine
    from tests.conftest import envelope

    eng = Engine.load(game)
    key = load_private_key("alice")
    salt = c.new_salt()
    link = eng.next_link("union", key, eng.decision("t1.bid"))
    for kind, extra in (("commit", f"commitment: {c.commitment({'bid': 9}, salt, (eng.identity, 't1.bid', 'union'))}\n"),
                        ("reveal", f"link: {link}\nchoice:\n  bid: 9\nsalt: {salt}\n")):
        Path(f"{kind}.yaml").write_text(sign_text(envelope(game, "union", "t1.bid", kind) + extra, key))
    cli("submit", game, "commit.yaml")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    cli("submit", game, "confederate-t1.bid-commit.yaml")
    err = refused(cli, game, "reveal.yaml", "E400")
    assert "[rule 5.1]" in err and "at choice.bid" in err


def test_negative_bid(cli, game):
    err = cli.fails("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: -1")
    assert "`bid` must be 0 or more (got -1)" in err and "[rule 5.1]" in err


def test_reveal_that_does_not_match(cli, committed):
    cli("commit", committed, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    cli("submit", committed, "confederate-t1.bid-commit.yaml")
    text = Path("union-t1.bid-reveal.yaml").read_text().replace("bid: 3", "bid: 4")
    err = refused(cli, committed, resign(Path("changed.yaml"), text), "E305")
    assert "do not match the commitment" in err


def test_reveal_before_every_commitment(cli, committed):
    err = refused(cli, committed, "union-t1.bid-reveal.yaml", "E304")
    assert "waiting for confederate" in err


def test_duplicate_submission(cli, committed):
    err = refused(cli, committed, "union-t1.bid-commit.yaml", "E303", line=False)
    assert "already" in err


def test_second_commitment_for_the_same_decision(cli, committed):
    Path("union-t1.bid-commit.yaml").rename("first-commit.yaml")
    Path("union-t1.bid-reveal.yaml").rename("first-reveal.yaml")
    cli("commit", committed, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    refused(cli, committed, "union-t1.bid-commit.yaml", "E303", line=False)


def test_commitment_copied_from_the_other_side_cannot_be_opened(cli, committed):
    # a commitment is bound to its game, decision and side: bob may copy alice's, but cannot open
    # it even when he learns her choice and salt from her reveal, so he cannot force a tie
    theirs = re.search(r"commitment:\s+(\w+)", Path("union-t1.bid-commit.yaml").read_text()).group(1)
    cli("commit", committed, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    text = re.sub(r"commitment:\s+\w+", f"commitment: {theirs}", Path("confederate-t1.bid-commit.yaml").read_text())
    cli("submit", committed, str(resign(Path("copy.yaml"), text, "bob")))
    cli("submit", committed, "union-t1.bid-reveal.yaml")
    hers = Path("union-t1.bid-reveal.yaml").read_text()
    mine = Path("confederate-t1.bid-reveal.yaml").read_text()
    for key in (r"choice:\n  bid: \d+", r"salt:\s+\w+"):
        mine = re.sub(key, re.search(key, hers).group(0), mine)
    err = refused(cli, committed, resign(Path("opened.yaml"), mine, "bob"), "E305")
    assert "do not match the commitment" in err


def test_a_copy_that_arrives_first_does_not_block_the_original(cli, game):
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    theirs = re.search(r"commitment:\s+(\w+)", Path("union-t1.bid-commit.yaml").read_text()).group(1)
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    text = re.sub(r"commitment:\s+\w+", f"commitment: {theirs}", Path("confederate-t1.bid-commit.yaml").read_text())
    cli("submit", game, str(resign(Path("copy.yaml"), text, "bob")))
    cli("submit", game, "union-t1.bid-commit.yaml")        # accepted: the copy blocks nothing


def test_a_commitment_of_a_closed_decision_is_refused(cli, game):
    from tests.conftest import bid_round

    bid_round(cli, game, 3, 3)                             # a tie: the bid is made again (t1.bid.r2)
    old = re.search(r"commitment:\s+(\w+)", Path("union-t1.bid-commit.yaml").read_text()).group(1)
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    text = re.sub(r"commitment:\s+\w+", f"commitment: {old}", Path("union-t1.bid.r2-commit.yaml").read_text())
    err = refused(cli, game, resign(Path("again.yaml"), text), "E306")
    assert "used before" in err


def test_replayed_file_from_an_earlier_decision(cli, game):
    from tests.conftest import bid_round

    bid_round(cli, game, 3, 3)                    # tie -> t1.bid.r2
    err = refused(cli, game, "union-t1.bid-commit.yaml", "E301")
    assert "already resolved" in err


def test_a_link_bound_to_another_decision(cli, committed):
    # the link of a decision is bound to it: union's next link in its chain (the one for the next
    # dice decision) is refused here, so no link can be saved up or spent early
    from hxref.crypto import dice
    from hxref.referee.engine import Engine

    eng = Engine.load(committed)
    seed = dice.chain_seed(load_private_key("alice"), eng.identity, eng.participants["union"]["nonce"])
    text = Path("union-t1.bid-reveal.yaml").read_text()
    cli("commit", committed, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    cli("submit", committed, "confederate-t1.bid-commit.yaml")
    text = re.sub(r"link: \w+", f"link: {dice.chain_link(seed, 2)}", text)
    err = refused(cli, committed, resign(Path("stale.yaml"), text), "E307")
    assert "bound to this decision" in err


def test_yaml_alias_bomb(cli, game):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9))
    Path("bomb.yaml").write_text(bomb)
    err = refused(cli, game, "bomb.yaml", "E102")
    assert "anchors" in err


def test_50_mb_file(cli, game):
    with open("huge.yaml", "w") as fh:
        fh.write("hxref: 1\npad: '")
        fh.write("x" * (50 * 1024 * 1024))
        fh.write("'\n")
    err = refused(cli, game, "huge.yaml", "E103", line=False)
    assert "bytes" in err


def test_not_utf8_and_tags_and_duplicate_keys(cli, game):
    Path("latin1.yaml").write_bytes("side: unión\n".encode("latin-1"))
    refused(cli, game, "latin1.yaml", "E100")
    Path("tag.yaml").write_text("hxref: 1\nx: !!python/object:os.system 1\n")
    refused(cli, game, "tag.yaml", "E102")
    Path("dup.yaml").write_text("hxref: 1\ngame: a\ngame: b\n")
    refused(cli, game, "dup.yaml", "E104")
    Path("yes.yaml").write_text("hxref: 1\ngame: test-game\ndecision: t1.bid\nside: on\nkind: commit\n")
    refused(cli, game, "yes.yaml", "E105")


def test_missing_files_and_bad_command_values(cli, game):
    cli.fails("submit", game, "nope.yaml")
    cli.fails("new", "x.yaml", "--system", "chess", "--scenario", "x", "--side", "union=alice.pub")
    cli.fails("new", "x.yaml", "--system", "heartland", "--scenario", "nope", "--side", "union=alice.pub")
    cli.fails("new", game, "--system", "heartland", "--scenario", "bidding-demo")
    cli.fails("commit", game, "--side", "union", "--key", "bob", "--choice", "bid: 1")   # wrong key
    cli.fails("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: [1")
    cli.fails("report", game, "--side", "prussia")


def test_new_with_an_unknown_optional_rule_is_refused_without_a_file(cli):
    err = cli.fails("new", "o.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "solo",
                    "--option", "off_map_railway")
    assert "[E504]" in err and "off_map_rail" in err        # lists the optional rules it has
    assert not Path("o.yaml").exists()


def test_new_with_an_optional_rule_switches_it_on(cli):
    # 1.12: optional rules the players agree on; 8.74 off-map rail here
    cli("new", "o.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "solo",
        "--option", "off_map_rail", "--option", "sickness")
    from hxref.referee.engine import Engine

    assert Engine.load("o.yaml").state["options"] == {"off_map_rail": True, "sickness": True}


def test_report_html_carries_the_sides_map_and_map_writes_it(cli):
    # a side's HTML report carries the SVG map of what that side sees, and --map writes it alone
    cli("new", "m.yaml", "--system", "heartland", "--scenario", "river-line", "--mode", "solo")
    cli("report", "m.yaml", "--side", "union", "--format", "html", "-o", "u.html", "--map", "u.svg")
    html, svg = Path("u.html").read_text(), Path("u.svg").read_text()
    assert svg.startswith("<svg") and "what union sees" in svg
    assert "<svg" in html and html.index("<svg") < html.index("</body>")


def test_report_map_of_a_game_without_a_map_writes_the_report_and_warns(cli, game):
    # a mapless game (bidding-demo; KGP) still gets its HTML report: --map is warned of, not fatal
    res = cli("report", game, "--format", "html", "-o", "r.html", "--map", "x.svg")
    assert "warning" in res.stderr and "no map" in res.stderr and "x.svg" in res.stderr
    assert Path("r.html").read_text().startswith("<!") and not Path("x.svg").exists()


def test_an_integer_of_thousands_of_digits_is_a_one_line_error(cli, game):
    # found by tests/security/test_fuzz.py: Python refuses to convert a 4,301-digit integer
    Path("huge.yaml").write_text("hxref: 1\ngame: test-game\ndecision: t1.bid\nside: union\nkind: answer\n"
                                 "choice: {bid: " + "9" * 4301 + "}\n")
    err = cli.fails("check", game, "huge.yaml")
    assert "[E103]" in err and "huge.yaml" in err


def test_a_key_with_newlines_is_shown_on_one_line(cli, game):
    # found by tests/security/test_fuzz.py: a key holding newlines used to break the one-line error
    from tests.conftest import envelope

    Path("nl.yaml").write_text(envelope(game, "union", "t1.bid", "answer") + "? '\n\n  '\n: null\n")
    err = cli.fails("check", game, "nl.yaml")
    assert "[E110]" in err and "\\n" in err


def test_commit_or_answer_before_joining_says_to_join_first(cli):
    cli("new", "j.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    before = Path("j.yaml").read_bytes()
    for command in ("commit", "answer"):
        err = cli.fails(command, "j.yaml", "--side", "union", "--key", "alice", "--choice", "bid: 1")
        assert "[E304]" in err and "send your join file first" in err and "hxref join" in err, err
    assert Path("j.yaml").read_bytes() == before
