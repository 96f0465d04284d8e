"""Templates and signed files keep every line within 72 characters, so a mail client that
hard-wraps a pasted body at 72 columns changes nothing (newcomer review, point 9).  A long value
is folded so that both YAML readers (YAML 1.2 and 1.1) still read exactly the same."""
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from ruamel.yaml import YAML

from hxref.referee import orders
from hxref.base import yamlio
from hxref.crypto.signing import sign_text

ROOT = Path(__file__).resolve().parents[2]
DEMOS = sorted(ROOT.glob("orders/*/*/demo.yaml"))
WIDTH = 72


def long_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if len(line) > WIDTH]


def mail_rewrap(text: str, width: int = WIDTH) -> str:
    """What a plain-text mail client that does not use format=flowed does to a pasted body: a line
    longer than ``width`` is broken at its last space within the width (or cut there)."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            cut = line.rfind(" ", 0, width + 1)
            cut = cut if cut > 0 else width
            out.append(line[:cut])
            line = line[cut:].lstrip(" ")
        out.append(line)
    return "\n".join(out)


def all_readers(text: str):
    """The plain data of ``text`` under every YAML reader hxref could use: they must agree."""
    got = [yamlio.to_plain(YAML(typ="rt").load(text)), yamlio.to_plain(YAML(typ="safe", pure=True).load(text)),
           yamlio.to_plain(yaml.load(text, Loader=yaml.SafeLoader)),
           yamlio.to_plain(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))]
    assert all(g == got[0] for g in got), got
    return got[0]


# --- folding: the same data under both readers ---------------------------------------------------

VALUES = ["6c0e" * 16, "ab" * 32 + "@37", "a" * 200, "word " * 40, 'has "quotes" and \\ back\\slashes ' * 4,
          "  leading and trailing  " * 5, "x" * 71 + " " + "y" * 71, "'0609'" * 20, "é ü ✓ " * 30, "a:b " * 40]


@pytest.mark.parametrize("value", VALUES)
def test_a_long_value_is_folded_and_reads_the_same(value):
    data = {"hxref": 2, "identity": value, "choice": {"moves": [{"force": "x", "note": value}, value],
                                                     "k": {"deeper": {"still": value}}}}
    text = orders.render(data, "a comment " * 30)
    assert not long_lines(text), long_lines(text)
    assert all_readers(text) == yamlio.to_plain(data)
    rt = yamlio.load_rt(text, "t.yaml")
    assert yamlio.check_two_readers(text, rt, "t.yaml") == yamlio.to_plain(data)


def test_hashes_move_whole_to_the_next_line():
    h = "6c0e" * 16
    text = orders.render({"identity": h, "head": f"{h}@37", "commitment": h, "salt": h})
    assert f"identity:\n  {h}\n" in text and f"head:\n  {h}@37\n" in text and f"commitment:\n  {h}\n" in text
    assert f"salt: {h}\n" in text                       # 70 characters: left as it was
    assert all_readers(text)["head"] == f"{h}@37"


def test_comments_wrap_on_word_boundaries():
    text = orders.render({"a": 1}, "one two three " * 20 + "\n\n  an indented note that goes on " * 4)
    comments = [line for line in text.split("\n") if line.startswith("#")]
    assert len(comments) > 4 and all(len(line) <= WIDTH for line in comments)
    words = " ".join(line[1:].strip() for line in comments).split()
    assert words == ("one two three " * 20 + "\n\n  an indented note that goes on " * 4).split()


def test_dump_rt_keeps_72_columns_and_flow_lists():
    from ruamel.yaml.comments import CommentedSeq

    seq = CommentedSeq([f"{i:02d}{i + 1:02d}" for i in range(30)])
    seq.fa.set_flow_style()
    text = yamlio.dump_rt({"identity": "6c0e" * 16, "choice": {"moves": [{"force": "dunning", "path": seq}]}})
    assert not long_lines(text), text
    assert all_readers(text)["choice"]["moves"][0]["path"] == list(seq)


def test_the_data_written_only_spares_a_second_reading():
    """``fold_long_lines(text, data=...)`` checks the folded text against the data it was written
    from: a line inside a block scalar that looks like ``key: value`` is still left alone, and data
    that is not the text's gives what the text alone gives."""
    long = "identity: " + "6c0e" * 16
    block = f"note: |\n  {long}\n  more\nk: 1\n"
    data = yaml.safe_load(block)
    assert yamlio.fold_long_lines(block, data=data) == block == yamlio.fold_long_lines(block)
    text = f"{long}\nk: 1\n"
    folded = yamlio.fold_long_lines(text)
    assert folded != text and not long_lines(folded)
    assert yamlio.fold_long_lines(text, data={"other": 2}) == folded == yamlio.fold_long_lines(
        text, data=yaml.safe_load(text))


# --- every file the commands write --------------------------------------------------------------

def new_demo_game(cli, manifest: Path) -> dict:
    man = yaml.safe_load(manifest.read_text())
    shutil.copytree(manifest.parent / "keys", Path("keys"), dirs_exist_ok=True)
    for f in Path("keys").iterdir():
        if not f.name.endswith(".pub"):
            f.chmod(0o600)
    cli("new", "g.yaml", "--system", man["system"], "--scenario", man["scenario"], "--mode", man["mode"],
        "--game-id", man["game_id"], "--created", man["created"], "--nonce", man["nonce"],
        "--charts-from", str(manifest.parent / man["charts_from"]),
        *sum(([f"--{k.replace('_', '-')}", str(v)] for k, v in (man.get("policy") or {}).items()), []),
        *sum((["--side", f"{s}={k}"] for s, k in man["keys"].items()), []),
        *(["--umpire", man["umpire"]] if man.get("umpire") else []))
    return man


def assert_fits_and_is_accepted(cli, game: str, name: str, submit: bool = True) -> None:
    text = Path(name).read_text()
    assert not long_lines(text), (name, long_lines(text))
    assert mail_rewrap(text) == text
    all_readers(text)
    cli("check", game, name)
    if submit:
        cli("submit", game, name)


def run(cli, *args):
    """A command that may be refused (a template for a secret decision, say): its result."""
    from hxref.cli import main

    return cli.runner.invoke(main, list(args), catch_exceptions=False)


def templates_fit(cli, game: str) -> int:
    """Write the template of every awaited decision of every side; check each; how many."""
    n = 0
    for entry in json.loads(cli("status", game, "--json").stdout)["awaiting"]:
        for side in entry.get("owed") or {}:
            out = Path(f"{side}-{entry['decision']}-template.yaml")
            res = run(cli, "template", game, "--side", side, "--decision", entry["decision"], "-o", str(out))
            if res.exit_code != 0 or not out.exists():     # a secret decision: it prints a commit line
                continue
            text = out.read_text()
            assert not long_lines(text), (out.name, long_lines(text))
            assert mail_rewrap(text) == text
            all_readers(text)
            n += 1
    return n


@pytest.mark.parametrize("manifest", DEMOS, ids=[f"{m.parent.parent.name}-{m.parent.name}" for m in DEMOS])
def test_the_join_and_template_files_of_every_demo_fit(cli, manifest):
    man = new_demo_game(cli, manifest)
    for side in list(man["keys"]) + (["umpire"] if man.get("umpire") else []):
        cli("join", "g.yaml", "--side", side, "--key", f"keys/{side}")
        assert_fits_and_is_accepted(cli, "g.yaml", f"{side}-join.yaml")
    templates_fit(cli, "g.yaml")


def test_commit_reveal_answer_and_roll_files_fit(cli, game):
    for name in ("union-join.yaml", "confederate-join.yaml"):
        assert not long_lines(Path(name).read_text())
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    cli("commit", game, "--side", "confederate", "--key", "bob", "--choice", "bid: 4")
    for side in ("union", "confederate"):
        assert_fits_and_is_accepted(cli, game, f"{side}-t1.bid-commit.yaml")
    for side in ("union", "confederate"):
        assert_fits_and_is_accepted(cli, game, f"{side}-t1.bid-reveal.yaml")
    cli("resolve", game)
    assert templates_fit(cli, game) >= 1
    # answer the awaited decision with its template's choice, then the other side's dice link
    dec = json.loads(cli("status", game, "--json").stdout)["awaiting"][0]
    side = next(iter(dec["owed"]))
    other, keys = ("union" if side == "confederate" else "confederate"), {"union": "alice", "confederate": "bob"}
    choice = yaml.safe_load(Path(f"{side}-{dec['decision']}-template.yaml").read_text())["choice"]
    cli("answer", game, "--side", side, "--key", keys[side], "--choice", json.dumps(choice))
    assert_fits_and_is_accepted(cli, game, f"{side}-{dec['decision']}.yaml")
    if run(cli, "roll", game, "--side", other, "--key", keys[other]).exit_code == 0:
        assert_fits_and_is_accepted(cli, game, f"{other}-{dec['decision']}-roll.yaml")


def test_undo_files_fit(cli, game):
    from hxref.referee.engine import Engine

    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    cli("submit", game, "union-t1.bid-commit.yaml")
    target = Engine.load(game).h["pending"]["t1.bid"]["files"][0]["sha256"]
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("undo", game, "--side", side, "--key", key)
        assert_fits_and_is_accepted(cli, game, f"{side}-undo-{target[:12]}.yaml")
    assert target in Engine.load(game).h["withdrawn"]


def test_claim_files_fit(cli, monkeypatch):
    monkeypatch.setenv("HXREF_NOW", "2026-11-29T12:00:00Z")
    cli("new", "g.yaml", "--system", "acw-minis", "--scenario", "mercers-mill", "--mode", "open",
        "--side", "union=alice.pub", "--side", "confederate=bob.pub", "--deadline-hours", "48")
    for side, key in (("union", "alice"), ("confederate", "bob")):
        cli("join", "g.yaml", "--side", side, "--key", key)
        assert_fits_and_is_accepted(cli, "g.yaml", f"{side}-join.yaml")
    monkeypatch.setenv("HXREF_NOW", "2026-12-09T12:00:00Z")          # long past the deadline and its grace
    cli("claim", "g.yaml", "--side", "confederate", "--key", "bob", "--against", "union")
    assert_fits_and_is_accepted(cli, "g.yaml", "confederate-t1.union-claim-union.yaml")


# --- pasting into a mail body --------------------------------------------------------------------

def test_a_signed_file_survives_a_mail_client_that_rewraps_at_72(cli, game):
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    for name in ("union-t1.bid-commit.yaml", "union-t1.bid-reveal.yaml", "union-join.yaml"):
        text = Path(name).read_text()
        assert max(map(len, text.split("\n"))) <= WIDTH
        assert mail_rewrap(text) == text                    # the client has nothing to break
        Path("pasted.yaml").write_text(mail_rewrap(text))
        assert "good signature by union" in cli("verify", "pasted.yaml", "--game", game).stdout
    # what it used to do: a 74-character identity line was broken in two, and the file was refused
    old = "identity: " + "6c0e" * 16 + "\n"
    assert mail_rewrap(old) != old


def test_the_signature_block_is_within_72_columns(keydir):
    from hxref.crypto.signing import load_private_key

    text = sign_text(orders.render({"a": "b"}, "c"), load_private_key(keydir / "alice"))
    block = text[text.index("# -----BEGIN"):]
    assert not long_lines(block) and len(block.split("\n")) > 3


def test_the_shipped_demo_order_files_fit():
    # the signed files; not the manifest, nor the game file whose pinned data the demo plays with
    files = []
    for d in DEMOS:
        skip = ("demo.yaml", yamlio.to_plain(yamlio.load_data(d)).get("charts_from"))     # each manifest read once
        files += [f for f in sorted(d.parent.glob("*.yaml")) if f.name not in skip]
    assert files
    stale = re.compile(r"^identity: [0-9a-f]{64}$|^# [A-Za-z0-9+/=]{76}$", re.M)
    if any(stale.search(f.read_text()) for f in files):
        pytest.skip("the shipped demo files were signed before 72 columns: run tools/make_demo_orders.py")
    bad = {f.relative_to(ROOT).as_posix(): long_lines(f.read_text())[:2] for f in files if long_lines(f.read_text())}
    assert not bad, bad
