"""`hxref audit`: every hash, signature, commitment and die re-derived; tampering found."""
import json
from pathlib import Path

import pytest

from hxref.base.canon import canonical_json
from hxref.referee.audit import audit
from hxref.gamefile.game import LOG_MARKER, GameFile, event_hash
from tests.conftest import bid_round


@pytest.fixture
def played(cli, game):
    bid_round(cli, game, 2, 2)
    bid_round(cli, game, 1, 3, "t1.bid.r2")
    return Path(game)


def rewrite(path: Path, log: list[dict], rehash: bool) -> None:
    gf = GameFile.load(path)
    if rehash:
        prev = "0" * 64
        for i, ev in enumerate(log, 1):
            ev["seq"], ev["prev"] = i, prev
            ev["hash"] = event_hash(ev)
            prev = ev["hash"]
        gf.header["head"] = {"seq": len(log), "hash": prev}
    gf.log = log
    path.write_text(gf.dumps())


def test_clean_game_audits(cli, played):
    res = audit(played)
    assert res.ok, res.problems
    assert res.signatures == 10 and res.commitments == 4 and res.dice == 1
    out = json.loads(cli("audit", str(played), "--json").stdout)
    assert out["ok"] and out["dice_rederived"] == 1


def test_edited_event_is_found(cli, played):
    text = played.read_text()
    lines = text.split("\n")
    i = next(n for n, line in enumerate(lines) if '"kind":"die"' in line)
    ev = json.loads(lines[i][2:])
    ev["data"]["faces"] = [f % 6 + 1 for f in ev["data"]["faces"]]     # surely different faces
    lines[i] = "- " + canonical_json(ev).decode()
    played.write_text("\n".join(lines))
    res = audit(played)
    assert not res.ok and "edited" in res.problems[0]
    assert "audit FAILED" in cli("audit", str(played), code=1).stdout


@pytest.mark.parametrize("how", ["swap", "drop", "duplicate"])
def test_reordered_dropped_or_duplicated_events_are_found(played, how):
    gf = GameFile.load(played)
    log = gf.log
    if how == "swap":
        log[5], log[6] = log[6], log[5]
    elif how == "drop":
        del log[6]
    else:
        log.insert(7, dict(log[6]))
    rewrite(played, log, rehash=False)
    assert not audit(played).ok
    rewrite(played, log, rehash=True)   # a forger who recomputes every hash is caught by the replay
    res = audit(played)
    assert not res.ok, how


def test_forged_die_with_rehashed_chain(played):
    gf = GameFile.load(played)
    for ev in gf.log:
        if ev["kind"] == "die":
            ev["data"]["faces"] = [1, 1] if ev["data"]["faces"] != [1, 1] else [2, 2]
    rewrite(played, gf.log, rehash=True)
    res = audit(played)
    assert not res.ok and "replay gives a different result" in res.problems[0]


def test_forged_reveal_with_rehashed_chain(played):
    gf = GameFile.load(played)
    ev = next(e for e in gf.log if e["kind"] == "submission" and "kind: reveal" in e["data"]["file"])
    ev["data"]["file"] = ev["data"]["file"].replace("bid: 2", "bid: 3")
    rewrite(played, gf.log, rehash=True)
    res = audit(played)
    assert not res.ok and "replay refuses" in res.problems[0]


def test_edited_snapshot_is_found(played):
    text = played.read_text()
    head, _, log = text.partition(LOG_MARKER)
    import re

    edited, n = re.subn(r'("wep": \{"confederate": \d+, "union": )(\d+)',
                        lambda m: m.group(1) + str(int(m.group(2)) + 100), head, count=1)
    assert n == 1
    played.write_text(edited + LOG_MARKER + log)
    res = audit(played)
    assert not res.ok and "header" in res.problems[-1]


def test_truncated_log_is_found(played):
    gf = GameFile.load(played)
    rewrite(played, gf.log[:-1], rehash=False)
    res = audit(played)
    assert not res.ok


def test_a_last_event_without_its_hash_is_found_not_a_crash(played):
    """A byte flipped in the last event's `"hash"` key leaves it without one: the audit says so."""
    text = played.read_text()
    last = text.rstrip("\n").rsplit("\n", 1)[1]
    played.write_text(text.replace(last, last.replace('"hash":', '"hasi":')))
    res = audit(played)
    assert not res.ok and res.problems


def test_parallel_reading_gives_the_same_audit(played):
    one, two = audit(played, workers=1), audit(played, workers=2)
    assert one.ok and two.ok
    assert (one.signatures, one.commitments, one.dice, one.head) == (two.signatures, two.commitments, two.dice,
                                                                     two.head)


def test_parallel_reading_still_finds_a_forged_file(played):
    gf = GameFile.load(played)
    ev = next(e for e in gf.log if e["kind"] == "submission" and "kind: reveal" in e["data"]["file"])
    ev["data"]["file"] = ev["data"]["file"].replace("bid: 2", "bid: 3")
    rewrite(played, gf.log, rehash=True)
    res = audit(played, workers=2)
    assert not res.ok and "replay refuses" in res.problems[0]


def test_parallel_reading_refuses_a_file_signed_by_another_side(played, keydir):
    from hxref.crypto.signing import load_private_key, sign_text, split_signed_text

    gf = GameFile.load(played)
    ev = next(e for e in gf.log if e["kind"] == "submission" and "side: union" in e["data"]["file"]
              and "kind: commit" in e["data"]["file"])
    body, _ = split_signed_text(ev["data"]["file"])
    ev["data"]["file"] = sign_text(body, load_private_key(keydir / "bob"))      # re-signed by the Confederate
    import hashlib

    ev["data"]["sha256"] = hashlib.sha256(ev["data"]["file"].encode()).hexdigest()
    rewrite(played, gf.log, rehash=True)
    res = audit(played, workers=2)
    assert not res.ok and "not union's key" in res.problems[0]
