"""Order files hxref writes must pass hxref's own checks: a Salem Church hex label like 0609 is a
number to YAML 1.2 and a string to YAML 1.1, so the writer quotes it (E105 otherwise)."""
import json
from pathlib import Path


def test_answer_with_a_hex_label_is_accepted_by_submit(cli):
    cli("new", "g.yaml", "--system", "salem-church", "--scenario", "salem-church", "--mode", "open",
        "--game-id", "sc-cli", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    cli("submit", "g.yaml", "union-join.yaml", "confederate-join.yaml")
    cli("answer", "g.yaml", "--side", "confederate", "--key", "bob", "--choice",
        json.dumps({"place": {"wilcox-m": "0609"}}))
    text = Path("confederate-t0.setup.yaml").read_text()
    assert "'0609'" in text
    cli("submit", "g.yaml", "confederate-t0.setup.yaml")
    cli("resolve", "g.yaml")
    from hxref.referee.engine import Engine

    assert Engine.load("g.yaml").state["units"]["wilcox-m"]["hex"] == "0609"
