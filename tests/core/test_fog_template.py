"""The orders template of a game with hidden armies names the command that works there: the player
fills it in and runs ``hxref answer`` on it (which seals the choice under his army's commitment);
``hxref sign``, which an open game's template names, writes a file without the commitment that is
refused."""
from __future__ import annotations

import json

import pytest

from tests.core.fog_table import GAME, Table

BIDS = {"union": 2, "confederate": 3}


@pytest.fixture
def table(tmp_path, monkeypatch) -> Table:
    t = Table(tmp_path, monkeypatch)
    t.start()
    return t


def answer_owed(table: Table) -> tuple[str, str]:
    """Play the bid; the first decision then awaited with an answer: (side, decision)."""
    def choose(side: str, d: dict) -> dict:
        return {"bid": BIDS[side]}

    while True:
        d = table["union"].status()["awaiting"][0]
        owed = [s for s, what in d["owed"].items() if what == "answer"]
        if owed:
            return owed[0], d["decision"]
        table.step(choose)


def test_the_template_names_hxref_answer_and_the_file_it_writes_is_accepted(table):
    side, decision = answer_owed(table)
    p = table[side]
    p("template", GAME, "--side", side, "-o", "t.yaml")
    text = (p.folder / "t.yaml").read_text()
    then = text.split("# Then:", 1)[1]
    assert f"hxref answer {GAME} --side {side} --key YOUR_KEY --decision {decision} --choice @THIS_FILE" \
        in " ".join(line.lstrip("# ") for line in then.splitlines())
    assert "hxref sign THIS_FILE" not in text
    # the skeleton as it stands, through the command the template names, is mailed and taken
    p("answer", GAME, "--side", side, "--key", p.key, "--decision", decision, "--choice", "@t.yaml")
    table.mail(side, f"{side}-{decision}.yaml")


def test_a_hand_signed_answer_in_a_fog_game_is_refused(table):
    side, decision = answer_owed(table)
    p = table[side]
    p("template", GAME, "--side", side, "-o", "t.yaml")
    (p.folder / "o.yaml").write_text("hxref: 1\n" + "".join(
        f"{k}: {json.dumps(v)}\n" for k, v in {"game": "fg", "decision": decision, "side": side, "kind": "answer",
                                                "choice": {"level": 1}}.items()))
    p("sign", "o.yaml", "--key", p.key, "--game", GAME, "--side", side)
    err = p.fails("submit", GAME, "o.yaml")
    assert err.startswith("hxref: error: o.yaml:1: ") and "`root`" in err and "[E314]" in err, err
