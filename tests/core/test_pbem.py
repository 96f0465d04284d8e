"""End-to-end PBEM play of the Heartland bid through the command line (issue: the core)."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import bid_round

SSH = shutil.which("ssh-keygen")


def facts(cli, game, *extra):
    return json.loads(cli("report", game, "--format", "json", *extra).stdout)


def test_status_before_and_after_join(cli):
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    st = json.loads(cli("status", "g.yaml", "--json").stdout)
    assert st["phase"] == "setup" and st["awaiting"][0]["decision"] == "join"
    assert re.fullmatch(r"[0-9a-f]{64}", st["head"]) and st["events"] == 1
    assert "head" in cli("status", "g.yaml").stdout


def test_the_issue_flow_5_13_example(cli, game):
    # 5.13a / H-2 played by mail: Union (max 4 here) bids 4 vs a Pass: 4 > ceil(4/2) -> monopoly 2 + 2
    st = json.loads(cli("status", game, "--json").stdout)
    assert st["awaiting"][0]["owed"] == {"union": "commit", "confederate": "commit"}
    out = cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 4").stdout
    assert "union-t1.bid-commit.yaml" in out and Path("union-t1.bid-reveal.yaml").exists()
    receipt = cli("submit", game, "union-t1.bid-commit.yaml").stdout
    assert "accepted: game test-game decision t1.bid side union (commit)" in receipt
    # nothing is revealed: the public report shows a commitment, not the bid
    public = cli("report", game, "--format", "text").stdout
    assert "sealed" in public and "your sealed choice" not in public
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 0")
    cli("submit", game, "confederate-t1.bid-commit.yaml")
    cli("submit", game, "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    out = cli("resolve", game).stdout
    assert "plays the turn alone" in out
    f = facts(cli, game)
    turn = f["view"]["current"] if f["view"]["turn"] == 1 else f["view"]["history"][0]
    assert [(i["side"], i["level"]) for i in turn["impulses"]] == [("union", 2), ("union", 2)]
    assert turn["initiative"] == "union" and turn["fee"] == 5
    assert turn["weather"]["roll"] and len(turn["weather"]["roll"]) == 2  # April: the winner rolls 2d6
    assert cli("audit", game).stdout.startswith("audit OK")


def test_json_report_and_status_for_scripts(cli, game):
    bid_round(cli, game, 2, 3)
    f = facts(cli, game)
    assert f["game"] == "test-game" and f["mode"] == "open" and re.fullmatch(r"[0-9a-f]{64}", f["head"])
    cur = f["view"]["current"]
    assert cur["initiative"] == "confederate"
    assert [(i["side"], i["level"]) for i in cur["impulses"]] == [("confederate", 3), ("union", 2)]
    st = json.loads(cli("status", game, "--json").stdout)
    assert st["awaiting"][0]["decision"] == "t1.i3.level" and st["awaiting"][0]["owed"] == {"confederate": "answer"}
    dice = [d for d in f["last_resolution"] if "faces" in d]
    assert dice and dice[0]["purpose"] == "weather (2d6)" and dice[0]["by"] == "confederate"


def test_declared_levels_and_the_rest_in_a_row(cli, game):
    bid_round(cli, game, 2, 4)           # C wins: C4, U2; left U2 C1
    cli("answer", game, "--side", "confederate", "--key", "bob", "--choice", "level: 1")
    cli("submit", game, "confederate-t1.i3.level.yaml")
    cli("resolve", game)
    cli("answer", game, "--side", "union", "--key", "alice", "--choice", "level: 2")
    cli("submit", game, "union-t1.i4.level.yaml")
    cli("resolve", game)
    f = facts(cli, game)
    assert f["view"]["turn"] == 2 and f["view"]["history"][0]["impulses"][-1]["level"] == 2
    # 4.25 leader pay: union 2 impulses x 8 leaders; confederate 2 x 6 + the 5 WEP fee
    assert f["view"]["wep"] == {"union": 245 - 16, "confederate": 160 - 5 - 12}


def test_ties_rebid_with_new_commitments(cli, game):
    bid_round(cli, game, 3, 3)
    st = json.loads(cli("status", game, "--json").stdout)
    assert st["awaiting"][0]["decision"] == "t1.bid.r2"
    bid_round(cli, game, 1, 1, "t1.bid.r2")
    bid_round(cli, game, 2, 2, "t1.bid.r3")
    cur = facts(cli, game)["view"]["current"]
    # 5.12: after the third tie the side with more WEP (union 245 > 160) goes first and pays 10
    assert cur["initiative"] == "union" and cur["fee"] == 10
    assert [b["round"] for b in cur["bids"]] == [1, 2, 3]
    assert cli("audit", game).stdout.startswith("audit OK")


def test_reports_in_every_format_carry_the_head(cli, game):
    bid_round(cli, game, 1, 2)
    head = json.loads(cli("status", game, "--json").stdout)["head"]
    for fmt in ("text", "md", "html", "json"):
        out = cli("report", game, "--side", "union", "--format", fmt).stdout
        assert head[:16] in out, fmt
    cli("report", game, "--format", "html", "-o", "r.html")
    assert "<html" in Path("r.html").read_text().lower()
    md = cli("report", game, "--format", "md").stdout
    assert md.startswith("# Operations effort") and "-- public report" in md.splitlines()[0] and "| side |" in md


def test_side_report_shows_its_own_secret_only(cli, game):
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", game, "union-t1.bid-commit.yaml")
    salt = re.search(r"salt: ([0-9a-f]{64})", Path("union-t1.bid-reveal.yaml").read_text()).group(1)
    mine = cli("report", game, "--side", "union", "--format", "text").stdout
    assert '{"bid": 3}' in mine and "union-t1.bid-reveal.yaml" in mine
    for other in (["--side", "confederate"], []):
        for fmt in ("text", "md", "html", "json"):
            out = cli("report", game, *other, "--format", fmt).stdout
            assert salt not in out and "union-t1.bid-reveal" not in out and '"bid": 3' not in out
    assert salt not in Path(game).read_text()


def test_solo_game_needs_no_keys(cli):
    cli("new", "s.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "solo")
    cli("answer", "s.yaml", "--side", "union", "--choice", "bid: 4")
    cli("answer", "s.yaml", "--side", "confederate", "--choice", "bid: 5")
    out = cli("resolve", "s.yaml").stdout
    assert "weather" in out
    f = facts(cli, "s.yaml")
    cur = f["view"]["history"][0]   # every impulse was set by the bids, so turn 1 is over
    assert f["view"]["turn"] == 2 and cur["initiative"] == "confederate"
    # 5.14: the Confederate full bid gets one impulse; union then 4 with nothing left
    assert [(i["side"], i["level"]) for i in cur["impulses"]] == [("confederate", 5), ("union", 4)]
    assert cli("audit", "s.yaml").stdout.startswith("audit OK")
    assert "solo_seed" in Path("s.yaml").read_text()


def test_umpired_game_hides_wep_and_needs_the_umpire_for_dice(cli):
    cli("new", "u.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "umpired",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", "--umpire", "umpire.pub")
    for side, key in (("union", "alice"), ("confederate", "bob"), ("umpire", "umpire")):
        cli("join", "u.yaml", "--side", side, "--key", key)
        cli("submit", "u.yaml", f"{side}-join.yaml")
    for side, key, bid in (("union", "alice", 2), ("confederate", "bob", 1)):
        cli("commit", "u.yaml", "--side", side, "--key", key, "--choice", f"bid: {bid}")
    cli("submit", "u.yaml", "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml")
    cli("submit", "u.yaml", "union-t1.bid-reveal.yaml", "confederate-t1.bid-reveal.yaml")
    err = cli.fails("resolve", "u.yaml")
    assert "umpire" in err and "E308" in err
    cli("resolve", "u.yaml", "--key", "umpire")
    conf = json.loads(cli("report", "u.yaml", "--side", "confederate", "--format", "json").stdout)
    view = conf["view"]
    assert view["wep"] == {"confederate": 160 - 6}   # own WEP after its impulse's pay; union's hidden (3.71)
    union_wep = json.loads(cli("report", "u.yaml", "--side", "union", "--format", "json").stdout)["view"]["wep"]
    # the union's WEP appears nowhere in what the confederate is told, not even in an event
    weps = [d for d in conf["last_resolution"] if d.get("type") == "wep"]
    assert weps and all(d["visible_to"] == ["confederate"] for d in weps)     # its own WEP event, no other
    assert union_wep["union"] not in [d.get("wep") for d in conf["last_resolution"]]
    text = cli("report", "u.yaml", "--side", "confederate", "--format", "text").stdout
    assert "hidden (3.71)" in text
    ump = json.loads(cli("report", "u.yaml", "--side", "umpire", "--format", "json").stdout)
    assert set(ump["view"]["wep"]) == {"union", "confederate"}
    assert cli("audit", "u.yaml").stdout.startswith("audit OK")


def test_sign_a_hand_written_file_with_the_envelope_filled_in(cli, game):
    # a player writes only what he decides; `hxref sign --game` fills in the game's identity, the
    # head he writes against and his signed time (and his dice link where the decision takes one)
    from hxref.referee.engine import Engine

    bid_round(cli, game, 2, 4)
    Path("mine.yaml").write_text("# my orders\nhxref: 2\ngame: test-game\ndecision: t1.i3.level\n"
                                 "side: confederate\nkind: answer\nchoice:\n  level: 1   # one level\n")
    cli("sign", "mine.yaml", "--key", "bob", "--game", game, "--side", "confederate")
    text = Path("mine.yaml").read_text()
    eng = Engine.load(game)
    assert "# one level" in text                               # comments kept (ruamel round trip)
    import yaml

    fields = yaml.safe_load(text)
    assert fields["identity"] == eng.identity and fields["head"] == eng.head_text()
    assert "link:" not in text                                 # declaring a level rolls no dice
    assert "good signature by confederate" in cli("verify", "mine.yaml", "--game", game).stdout
    cli("check", game, "mine.yaml")
    cli("submit", game, "mine.yaml")


@pytest.mark.skipif(SSH is None, reason="ssh-keygen not installed")
def test_detached_signature_from_ssh_keygen_and_an_ssh_keygen_key(cli, tmp_path):
    # a player's existing ~/.ssh/id_ed25519 made by ssh-keygen
    subprocess.run([SSH, "-q", "-t", "ed25519", "-N", "", "-C", "dave@club", "-f", "id_ed25519"], check=True)
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--game-id", "ssh-game",
        "--side", "union=id_ed25519.pub", "--side", "confederate=bob.pub")
    cli("join", "g.yaml", "--side", "union", "--key", "id_ed25519")
    # strip hxref's embedded signature, sign the file with ssh-keygen itself, submit with --sig
    from hxref.crypto.signing import split_signed_text

    body, _ = split_signed_text(Path("union-join.yaml").read_text())
    Path("plain.yaml").write_text(body)
    subprocess.run([SSH, "-Y", "sign", "-f", "id_ed25519", "-n", "hxref", "plain.yaml"], check=True,
                   capture_output=True)
    cli("submit", "g.yaml", "plain.yaml", "--sig", "plain.yaml.sig")
    # and ssh-keygen accepts what hxref signed
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    body, armored = split_signed_text(Path("confederate-join.yaml").read_text())
    Path("c.yaml").write_text(body)
    Path("c.yaml.sig").write_text(armored)
    Path("allowed").write_text("bob " + Path("bob.pub").read_text())
    subprocess.run([SSH, "-Y", "verify", "-f", "allowed", "-I", "bob", "-n", "hxref", "-s", "c.yaml.sig"],
                   input=Path("c.yaml").read_bytes(), check=True, capture_output=True)
    cli("submit", "g.yaml", "confederate-join.yaml")
    assert cli("audit", "g.yaml").stdout.startswith("audit OK")


def test_template_for_an_open_decision_signs_and_submits(cli, game):
    bid_round(cli, game, 2, 4)               # confederates declare impulse 3's level next
    cli.fails("template", game, "--side", "union")          # nothing is awaited from union now
    cli("template", game, "--side", "confederate", "-o", "mine.yaml")
    text = Path("mine.yaml").read_text()
    assert "decision: t1.i3.level" in text and "choice.level" in text
    text = text.replace("level: 1", "level: 1")
    cli("sign", "mine.yaml", "--key", "bob", "--game", game, "--side", "confederate")
    cli("submit", game, "mine.yaml")


def test_template_for_a_secret_decision_says_how_to_commit(cli, game):
    out = cli("template", game, "--side", "union").stdout
    assert "hxref commit g.yaml --side union --key YOUR_KEY --choice 'bid: 2'" in out


def test_the_files_of_one_mail_are_read_and_written_once(cli, game, monkeypatch):
    """`hxref submit GAME F1 F2`: the game is loaded and saved once, and holds both files."""
    from hxref.gamefile.game import GameFile

    calls = {"load": 0, "save": 0}
    load, save = GameFile.load.__func__, GameFile.save

    def counted_load(cls, path, **how):
        calls["load"] += 1
        return load(cls, path, **how)

    def counted_save(self):
        calls["save"] += 1
        return save(self)

    monkeypatch.setattr(GameFile, "load", classmethod(counted_load))
    monkeypatch.setattr(GameFile, "save", counted_save)
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 3")
    calls.update(load=0, save=0)
    out = cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-commit.yaml").stdout
    assert calls == {"load": 1, "save": 1}
    assert out.count("accepted: game test-game decision t1.bid") == 2
    st = json.loads(cli("status", game, "--json").stdout)
    assert st["awaiting"][0]["owed"] == {"union": "reveal", "confederate": "reveal"}


def test_a_bad_file_after_good_ones_keeps_the_good_ones(cli, game):
    """A file refused in a multi-file submit stores nothing of itself; the files before it are kept,
    as one command per file would have kept them, and their receipts are said."""
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 3")
    res = cli("submit", game, "union-t1.bid-commit.yaml", "confederate-t1.bid-reveal.yaml", code=2)
    assert "accepted: game test-game decision t1.bid side union (commit)" in res.stdout
    assert "confederate-t1.bid-reveal.yaml" in res.stderr and "Traceback" not in res.output
    st = json.loads(cli("status", game, "--json").stdout)
    assert st["awaiting"][0]["owed"] == {"union": "wait (others commit)", "confederate": "commit"}
    assert cli("audit", game).stdout.startswith("audit OK")
