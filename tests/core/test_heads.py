"""The heads this machine has seen (SECURITY.md, "Heads and forks"): a game file that does not
extend the last head saved at its path, or holds another game there, is refused with both heads
and where the histories part; a backup restored on purpose is accepted after a clean audit."""
import shutil
from pathlib import Path

from tests.conftest import bid_round


def test_a_rolled_back_file_is_refused_naming_both_heads_and_where_they_part(cli, game):
    bid_round(cli, game, 3, 1)                          # a block: t1.bid resolved
    kept = cli("status", game).output.split("head ")[-1].strip()
    shutil.copy(game + ".bak", "rolled.yaml")           # the file before the last save ...
    shutil.copy("rolled.yaml", game)                    # ... put back in its place by whoever holds it
    before = Path(game).read_bytes()
    err = cli.fails("status", game)
    assert "[E506]" in err and kept.split("@")[0][:16] in err and "rollback" in err
    assert "the file has only" in err
    err = cli.fails("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    assert "[E506]" in err and Path(game).read_bytes() == before
    out = cli("audit", game, code=1).output
    assert "audit FAILED" in out and "does not extend the head this machine last saw" in out


def test_a_fork_says_where_the_histories_part(cli, game):
    shutil.copy(game, "other.yaml")                     # the same game, to be played another way
    bid_round(cli, game, 3, 1)                          # this machine's history: union wins the bid
    Path("o").mkdir()
    cli("commit", "other.yaml", "--side", "union", "--key", "alice", "--choice", "bid: 1", "--dir", "o")
    cli("commit", "other.yaml", "--side", "confederate", "--key", "bob", "--choice", "bid: 4", "--dir", "o")
    cli("submit", "other.yaml", "o/union-t1.bid-commit.yaml", "o/confederate-t1.bid-commit.yaml")
    cli("submit", "other.yaml", "o/union-t1.bid-reveal.yaml", "o/confederate-t1.bid-reveal.yaml")
    cli("resolve", "other.yaml")
    shutil.copy("other.yaml", game)                     # the other history put in place of ours
    err = cli.fails("status", game)
    assert "[E506]" in err and "fork" in err
    assert "the two histories agree up to event 5 and part at or before event" in err


def test_another_game_at_the_same_path_is_refused(cli, game):
    cli("new", "second.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "test-game", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    shutil.copy("second.yaml", game)                    # same label, another identity
    err = cli.fails("status", game)
    assert "[E506]" in err and "another game" in err


def test_a_backup_restored_on_purpose_is_accepted_after_a_clean_audit(cli, game):
    bid_round(cli, game, 3, 1)
    shutil.copy(game + ".bak", game)
    assert "[E506]" in cli.fails("status", game)
    assert cli("audit", game, "--accept-head").output.startswith("audit OK")
    cli("status", game)
