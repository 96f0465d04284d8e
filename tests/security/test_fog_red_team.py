"""The red team against games with hidden armies (``--mode fog``): attacks on the protocol, each named
for what the attacker tries, played with what he holds (his key, the other side's public key, his
game copy, his own file, the files he received) on the bidding game (heartland's bidding-demo, two
machines: tests/core/fog_table.py), where a third tie opens both Number Tracks.  Each is refused at
once, or found by the proof, or (where the test says so) what the protocol lets through.  The
attacks that need the full game's sealed answers are in test_fog_cheats.py."""
from __future__ import annotations

import email.message
import json
import os
import shutil

import pytest

from hxref.base import yamlio
from hxref.crypto import dice as dice_mod
from hxref.crypto import fog, merkle
from hxref.cli import main
from hxref.crypto.signing import load_private_key, sign_text
from hxref.referee import orders
from hxref.referee.engine import Engine
from hxref.referee.fog_store import store_path
from hxref.systems.heartland.administration import ENTRENCH_AP
from tests.core import fog_table
from tests.core.fog_table import GAME, Player, Table
from tests.security import test_fog_cheats as cheats
from tests.security.test_fog_cheats import saved  # noqa: F401  (the saved Heartland game, played once)


@pytest.fixture
def table(tmp_path, monkeypatch) -> Table:
    (tmp_path / "a").mkdir()
    t = Table(tmp_path / "a", monkeypatch)
    t.start()
    return t


def read(p: Player, name: str) -> dict:
    return dict(orders.parse((p.folder / name).read_text(), name).data)


def signed(p: Player, data: dict, name: str) -> str:
    """``data`` as a file of ``p``'s, signed with his key, written as ``name`` in his folder."""
    text = orders.render({k: v for k, v in data.items() if k != "hxref"}, "made by hand")
    (p.folder / name).unlink(missing_ok=True)
    (p.folder / name).write_text(sign_text(text, load_private_key(p.folder / p.key)))
    return name


def sent(table: Table, side: str, name: str) -> str:
    """``side``'s file ``name`` in the other's folder, as the mail brings it; its name."""
    shutil.copy(table[side].folder / name, table.other(side).folder / name)
    return name


def own_engine(p: Player) -> Engine:
    os.environ["HXREF_HOME"] = str(p.home)
    return Engine.load(p.folder / GAME, side=p.side)


def own_seed(p: Player) -> bytes:
    return bytes.fromhex(yamlio.load_rt(store_path(p.folder / GAME, p.side).read_text(), "own")["seed"])


def to_third_tie(table: Table) -> None:
    """Both sides bid 1 three times: the third tie's decision waits for both Number Tracks."""
    fog_table.to_third_tie(table)
    assert table["union"].status()["awaiting"][0]["owed"] == {"union": "open", "confederate": "open"}


def open_both(table: Table) -> None:
    for side, p in table.players.items():
        p("open", GAME, "--side", side, "--key", p.key)
        table.mail(side, f"{side}-t1.bid.r3-open.yaml")
    for p in table.players.values():
        p("resolve", GAME)


def choose_bids(bids: dict[str, list[int]]):
    rounds = {s: list(b) for s, b in bids.items()}

    def choose(side, d):
        return {"bid": rounds[side].pop(0)} if d["kind"] == "bid" else {"level": 1}
    return choose


def play_to_proof(table: Table) -> None:
    choose = choose_bids({"union": [2, 1, 4], "confederate": [3, 2, 1]})
    while table["union"].status()["awaiting"][0]["decision"] != "proof":
        table.step(choose)


def verdict_of(table: Table) -> dict:
    eng = Engine.load(table["confederate"].folder / GAME)
    assert eng.finished
    return next(e["data"] for e in eng.gf.log if e["kind"] == "rules" and e["data"].get("type") == "proof")


def prove_all(table: Table) -> dict:
    table.prove()
    return verdict_of(table)


def submission(table: Table, side: str, decision: str, kind: str) -> dict:
    eng = Engine.load(table["confederate"].folder / GAME)
    found = [e["data"] for e in eng.gf.log if e["kind"] == "submission" and e["data"]["side"] == side
             and e["data"]["decision"] == decision and e["data"]["kind"] == kind]
    assert len(found) == 1
    return {"decision": decision, "kind": kind, "sha256": found[0]["sha256"]}


def forged_open(table: Table, change) -> str:
    """The union's honest `open` file of the third tie, changed by ``change(data)`` and signed again."""
    union = table["union"]
    union("open", GAME, "--side", "union", "--key", "alice")
    data = read(union, "union-t1.bid.r3-open.yaml")
    change(data)
    return sent(table, "union", signed(union, data, "forged-open.yaml"))


def opening_at(p: Player, head: str, boxes: dict, name: str) -> dict:
    """``p``'s opening of ``name`` over ``boxes`` with his salts for ``head``."""
    eng = own_engine(p)
    names = eng.system.box_names(eng.h["state"], p.side)
    return merkle.commit(boxes, fog.box_salts(own_seed(p), head, names)).open(name).to_data()


def next_file(table: Table, side: str) -> str:
    """``side``'s honest file for what the game awaits of it now (bids of 1, level 1), not mailed."""
    p = table[side]
    d = p.status()["awaiting"][0]
    owed = d["owed"][side]
    choice = json.dumps({"bid": 1} if d["kind"] == "bid" else {"level": 1})
    if owed == "answer":
        p("answer", GAME, "--side", side, "--key", p.key, "--choice", choice)
        return f"{side}-{d['decision']}.yaml"
    if owed == "commit":
        p("commit", GAME, "--side", side, "--key", p.key, "--choice", choice)
        return f"{side}-{d['decision']}-commit.yaml"
    assert owed.startswith("link"), d
    p("roll", GAME, "--side", side, "--key", p.key)
    return f"{side}-{d['decision']}-roll.yaml"


# --- openings ----------------------------------------------------------------------------------------

def test_an_opening_of_another_game_is_refused(table, tmp_path, monkeypatch):
    (tmp_path / "b").mkdir()
    other = Table(tmp_path / "b", monkeypatch)
    other.start()
    to_third_tie(other)
    other["union"]("open", GAME, "--side", "union", "--key", "alice")
    theirs = read(other["union"], "union-t1.bid.r3-open.yaml")["openings"]
    to_third_tie(table)
    bad = forged_open(table, lambda d: d.update(openings=theirs))
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err and "does not open this file's root" in err


def test_an_opening_made_for_another_head_is_refused(table):
    to_third_tie(table)
    union = table["union"]
    first = read(union, "union-t1.bid-reveal.yaml")["head"]
    true = own_engine(union).knowledge.boxes["union"]
    bad = forged_open(table, lambda d: d.update(openings=[opening_at(union, first, true, "track")]))
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err and "does not open this file's root" in err


def test_an_opening_of_the_other_side_is_refused(table):
    to_third_tie(table)
    confederate = table["confederate"]
    confederate("open", GAME, "--side", "confederate", "--key", "bob")
    theirs = read(confederate, "confederate-t1.bid.r3-open.yaml")["openings"]
    shutil.copy(confederate.folder / "confederate-t1.bid.r3-open.yaml",
                table["union"].folder / "confederate-t1.bid.r3-open.yaml")
    bad = forged_open(table, lambda d: d.update(openings=theirs))
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err and "does not open this file's root" in err


def test_an_opening_replayed_in_a_later_file_is_refused(table):
    # the union's opening of his Number Track at the third tie, sent again with his next file, where
    # the track has changed (he paid his bid): it opens the old root, not the new one
    to_third_tie(table)
    open_both(table)
    old = read(table["union"], "union-t1.bid.r3-open.yaml")["openings"]
    union = table["union"]
    name = next_file(table, "union")
    data = read(union, name)
    data["openings"] = old
    bad = sent(table, "union", signed(union, data, "replayed.yaml"))
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err and "does not open this file's root" in err


def test_an_opening_of_a_box_the_public_part_does_not_name_is_refused(table):
    # a second box beside his track, committed and opened: the names come from the public part alone
    to_third_tie(table)
    union = table["union"]
    boxes = {**own_engine(union).knowledge.boxes["union"], "leader:ghost": {"steps": 9}}

    def ghost(d):
        salts = fog.box_salts(own_seed(union), d["head"], sorted(boxes))
        tree = merkle.commit(boxes, salts)
        d.update(root=tree.root, openings=[tree.open("track").to_data(), tree.open("leader:ghost").to_data()])
    bad = forged_open(table, ghost)
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E314" in err


def test_an_open_file_none_asks_for_is_refused(table):
    union = table["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    tree_data = read(union, "union-t1.bid-commit.yaml")
    data = {k: v for k, v in tree_data.items() if k not in ("commitment",)}
    data.update(kind="open", openings=[])
    bad = sent(table, "union", signed(union, data, "unasked-open.yaml"))
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E304" in err and "asks no opening" in err


# --- roots ----------------------------------------------------------------------------------------------

def test_a_root_made_for_another_head_is_found_by_the_proof(table):
    # the union's first bid paid, he signs his next file with the root of his first: a track he no
    # longer has, under the salts of another head; nothing tells before the proof
    choose = choose_bids({"union": [2, 1, 4], "confederate": [3, 2, 1]})
    table.step(choose)
    table.step(choose)
    union = table["union"]
    stale = read(union, "union-t1.bid-commit.yaml")["root"]
    while union.status()["awaiting"][0]["owed"].get("union") not in ("answer", "commit", "link"):
        table.step(choose)
    d = union.status()["awaiting"][0]
    name = next_file(table, "union")
    data = read(union, name)
    assert data["head"] != read(union, "union-t1.bid-commit.yaml")["head"]
    data["root"] = stale
    signed(union, data, name)
    table.mail("union", name)
    while table["union"].status()["awaiting"][0]["decision"] != "proof":
        table.step(choose)
    v = prove_all(table)["verdict"]
    kind = {"answer": "answer", "commit": "commit"}.get(d["owed"]["union"], "roll")
    assert (v["side"], v["file"]) == ("union", submission(table, "union", d["decision"], kind)), v


# --- proofs ---------------------------------------------------------------------------------------------

def test_a_proof_of_another_game_is_refused(table, tmp_path, monkeypatch):
    (tmp_path / "b").mkdir()
    other = Table(tmp_path / "b", monkeypatch)
    other.start()
    play_to_proof(other)
    other["union"]("challenge", GAME, "--side", "union", "--key", "alice")
    theirs = read(other["union"], "union-proof.yaml")
    play_to_proof(table)
    union = table["union"]
    union("challenge", GAME, "--side", "union", "--key", "alice")
    mine = read(union, "union-proof.yaml")
    # his seed and sealed answers of the other game, under this game's envelope and his key here
    bad = sent(table, "union", signed(union, {**mine, "seed": theirs["seed"],
                                              "sealed_answers": theirs["sealed_answers"]}, "other-proof.yaml"))
    err = table["confederate"].fails("submit", GAME, bad)
    assert "E305" in err and "join committed to" in err
    # and the other game's file as it is, signed by a key of that game
    shutil.copy(other["union"].folder / "union-proof.yaml", table["confederate"].folder / "theirs.yaml")
    err = table["confederate"].fails("submit", GAME, "theirs.yaml")
    assert "theirs.yaml" in err


def test_a_proof_with_the_other_side_s_seed_is_refused(table):
    play_to_proof(table)
    confederate, union = table["confederate"], table["union"]
    confederate("challenge", GAME, "--side", "confederate", "--key", "bob")
    table.mail("confederate", "confederate-proof.yaml")
    theirs = read(union, "confederate-proof.yaml")
    union("challenge", GAME, "--side", "union", "--key", "alice")
    mine = read(union, "union-proof.yaml")
    bad = sent(table, "union", signed(union, {**mine, "seed": theirs["seed"]}, "their-seed.yaml"))
    err = confederate.fails("submit", GAME, bad)
    assert "E305" in err and "join committed to" in err


def test_a_second_proof_is_refused(table):
    play_to_proof(table)
    union = table["union"]
    union("challenge", GAME, "--side", "union", "--key", "alice")
    table.mail("union", "union-proof.yaml")
    again = read(union, "union-proof.yaml")
    again["sealed_answers"] = {"t1.bid": {"choice": {"bid": 9}, "salt": "00" * 32}}
    bad = sent(table, "union", signed(union, again, "second-proof.yaml"))
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and ("E303" in err or "E308" in err or "E304" in err)


def test_a_challenge_in_the_middle_of_a_block_is_refused_and_the_block_kept(table):
    # a challenge comes between blocks: with the confederate's commitment kept, neither hxref writes
    # the union's proof nor does the confederate's copy take one made by hand; the block goes on
    confederate, union = table["confederate"], table["union"]
    confederate("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    table.mail("confederate", "confederate-t1.bid-commit.yaml")
    err = union.fails("challenge", GAME, "--side", "union", "--key", "alice")
    assert "E308" in err and "between blocks" in err and "t1.bid" in err
    assert not (union.folder / "union-proof.yaml").exists()
    # his seed sent all the same, in a proof made by hand
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 1")
    data = {k: v for k, v in read(union, "union-t1.bid-commit.yaml").items()
            if k not in ("commitment", "root", "shown")}
    data.update(decision="proof", kind="proof", seed=own_seed(union).hex(), sealed_answers={}, leaves={})
    bad = sent(table, "union", signed(union, data, "early-proof.yaml"))
    err = confederate.fails("submit", GAME, bad)
    assert bad in err and "E308" in err and "between blocks" in err
    d = confederate.status()["awaiting"][0]
    assert (d["decision"], d["owed"]) == ("t1.bid", {"union": "commit", "confederate": "wait (others commit)"}), d
    table.mail("union", "union-t1.bid-commit.yaml")


def test_a_challenge_between_blocks_awaits_every_proof_first(table):
    # the union challenges before the first bid, and the confederate's bid, written before the
    # challenge came, crosses it in the mail: no copy takes a bid until every proof is in
    union, confederate = table["union"], table["confederate"]
    confederate("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    union("challenge", GAME, "--side", "union", "--key", "alice")
    table.mail("union", "union-proof.yaml")
    assert confederate.status()["awaiting"][0]["owed"] == {"union": "done", "confederate": "proof"}
    bad = sent(table, "confederate", "confederate-t1.bid-commit.yaml")
    err = union.fails("submit", GAME, bad)
    assert "E308" in err and "challenge is under way" in err


def test_withholding_an_open_forfeits_after_a_claim(table, monkeypatch):
    to_third_tie(table)
    confederate = table["confederate"]
    confederate("open", GAME, "--side", "confederate", "--key", "bob")
    table.mail("confederate", "confederate-t1.bid.r3-open.yaml")
    assert confederate.status()["awaiting"][0]["owed"] == {"union": "open", "confederate": "done"}
    monkeypatch.setenv("HXREF_NOW", "2027-01-15T12:00:00Z")
    confederate("claim", GAME, "--side", "confederate", "--key", "bob", "--against", "union")
    table.mail("confederate", "confederate-t1.bid.r3-claim-union.yaml")
    eng = Engine.load(confederate.folder / GAME)
    assert eng.finished and eng.h["forfeit"]["side"] == "union"


# --- the game file and the own file ---------------------------------------------------------------------

def test_a_forged_verdict_in_the_game_file_is_found_by_the_audit(table):
    # the union writes into his copy a proof that the confederate forfeits, the hash chain made again
    play_to_proof(table)
    union = table["union"]
    eng = Engine.load(union.folder / GAME)
    eng._emit("rules", "confederate", {"decision": "proof", "type": "proof", "rule": "protocol: proof",
                                       "text": "proof: confederate forfeits", "verdict": {
                                           "side": "confederate", "file": None, "rule": "protocol: proof",
                                           "why": "forged"}})
    eng.h["forfeit"] = {"side": "confederate", "decision": "proof", "by": "proof", "why": "forged"}
    eng.h["awaiting"], eng.h["phase"] = [], "over"
    eng.gf.save()
    err = union.fails("status", GAME)
    assert "E500" in err and "does not check out" in err
    res = union.runner.invoke(main, ["audit", GAME])
    assert res.exit_code != 0 and "audit OK" not in res.output, res.output


def test_a_store_planted_before_the_join_is_not_taken(tmp_path, monkeypatch):
    # the union leaves, in the confederate's folder, an own file whose seed he knows, before the
    # confederate joins: the join refuses to take it (it writes its own seed or nothing)
    t = Table(tmp_path, monkeypatch)
    union, confederate = t["union"], t["confederate"]
    union("new", GAME, "--system", "heartland", "--scenario", "bidding-demo", "--mode", "fog", "--game-id", "fg",
          "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    shutil.copy(union.folder / GAME, confederate.folder / GAME)
    union("join", GAME, "--side", "union", "--key", "alice")
    planted = store_path(confederate.folder / GAME, "confederate")
    text = store_path(union.folder / GAME, "union").read_text().replace("side: union", "side: confederate")
    planted.write_text(text)
    planted.chmod(0o600)
    err = confederate.fails("join", GAME, "--side", "confederate", "--key", "bob")
    assert "E502" in err and planted.name in err


def test_a_store_planted_after_the_join_is_refused(table):
    union, confederate = table["union"], table["confederate"]
    theirs = store_path(confederate.folder / GAME, "confederate")
    known = yamlio.load_rt(theirs.read_text(), "own")
    forged = store_path(union.folder / GAME, "union").read_text().replace("side: union", "side: confederate")
    theirs.write_text(forged)
    theirs.chmod(0o600)
    assert known["seed"] not in theirs.read_text()
    err = confederate.fails("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 1")
    assert "E500" in err and theirs.name in err


def test_the_own_file_submitted_is_refused(table):
    union = table["union"]
    own = store_path(union.folder / GAME, "union")
    shutil.copy(own, table["confederate"].folder / own.name)
    err = table["confederate"].fails("submit", GAME, own.name)
    assert own.name in err


def test_the_own_file_mailed_by_mistake_is_not_taken_by_the_inbox(table):
    union, confederate = table["union"], table["confederate"]
    own = store_path(union.folder / GAME, "union")
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "alice@example.org", "bob@example.org", "my orders"
    msg.set_content("here you are")
    msg.add_attachment(own.read_bytes(), maintype="text", subtype="plain", filename=own.name)
    eml = confederate.folder / "mistake.eml"
    eml.write_bytes(bytes(msg))
    before = (confederate.folder / GAME).read_bytes()
    os.chdir(confederate.folder)
    os.environ["HXREF_HOME"] = str(confederate.home)
    res = confederate.runner.invoke(main, ["inbox", GAME, "--eml", str(eml), "--json"])
    assert "Traceback" not in res.output
    assert (confederate.folder / GAME).read_bytes() == before
    # not an hxref file: the message is left where it is, unanswered (the seed is in the other's
    # mailbox all the same: only the sender's side can keep it, by never attaching the file)
    out = json.loads(res.stdout)
    assert (out["accepted"], out["rejected"], out["left_alone"]) == (0, 0, 1), out
    assert not (confederate.folder / "outbox").exists()


# --- dice -----------------------------------------------------------------------------------------------

def test_a_secret_die_cannot_be_steered_or_foreseen_by_its_owner():
    # the owner's secret for a decision is fixed by his seed (committed at the join); the roll mixes
    # the public seed, which holds the other side's link: over the other's links his face is anything
    secret = fog.secret_dice(b"\x01" * 32, "ab" * 32, "t1.reorg")
    faces = set()
    for i in range(60):
        public = dice_mod.dice_seed("ab" * 32, "t1.reorg", [("confederate", f"{i:064x}"), ("union", "11" * 32)])
        d = dice_mod.PurposeDice(public, secrets={"union": secret, "confederate": None})
        faces.add(d.d6("attrition bragg", visible_to=["union"]))
    assert faces == {1, 2, 3, 4, 5, 6}


def test_the_other_side_cannot_foresee_a_secret_die():
    public = dice_mod.dice_seed("ab" * 32, "t1.reorg", [("confederate", "22" * 32), ("union", "11" * 32)])
    true = dice_mod.PurposeDice(public, secrets={"union": fog.secret_dice(b"\x01" * 32, "ab" * 32, "t1.reorg")})
    blind = dice_mod.PurposeDice(public, secrets={"union": None})
    for i in range(30):
        true.d6(f"attrition {i}", visible_to=["union"])
        blind.d6(f"attrition {i}", visible_to=["union"])
    assert all(r.known for r in true.rolls) and not any(r.known for r in blind.rolls)
    assert [r.faces for r in true.rolls] != [r.faces for r in blind.rolls]


def test_the_seed_a_join_commits_to_is_its_own():
    # he cannot answer a challenge with a seed chosen afterwards for kinder secret dice
    seed, other = b"\x01" * 32, b"\x02" * 32
    assert fog.seed_commitment(seed) != fog.seed_commitment(other)
    assert fog.secret_dice(seed, "ab" * 32, "t1.reorg") != fog.secret_dice(other, "ab" * 32, "t1.reorg")



# --- the proof's leaves (the bidding game: one box a side, the Number Track) --------------------------

def proof_data(p: Player) -> dict:
    p("challenge", GAME, "--side", p.side, "--key", p.key)
    return read(p, f"{p.side}-proof.yaml")


def test_a_proof_sent_again_with_other_leaves_is_refused(table):
    # his proof is in; a second, its leaves changed (a root he would rather have named otherwise)
    play_to_proof(table)
    union = table["union"]
    data = proof_data(union)
    table.mail("union", "union-proof.yaml")
    root = sorted(data["leaves"])[0]
    data["leaves"][root] = merkle.pack_leaves([bytes(32)])
    bad = sent(table, "union", signed(union, data, "second-leaves.yaml"))
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and "E303" in err and "has sent its proof already" in err, err


def test_a_proof_larger_than_a_file_may_be_is_refused(table):
    # the leaves of one root padded with 9,000 hashes (a text of 384 KB): refused before it is read,
    # as every file a person sends (256 KB), so no copy spends time or memory on it
    play_to_proof(table)
    union = table["union"]
    data = proof_data(union)
    root = sorted(data["leaves"])[0]
    data["leaves"][root] = merkle.pack_leaves([bytes(32)] * 9000 + list(merkle.unpack_leaves(data["leaves"][root])))
    bad = sent(table, "union", signed(union, data, "huge-proof.yaml"))
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and "E103" in err and "at most 262,144 are accepted" in err, err
    assert table["confederate"].status()["awaiting"][0]["owed"]["union"] == "proof"


def test_a_proof_naming_one_root_twice_is_refused(table):
    # two entries for one root in his proof's `leaves`, the true leaves and others, written by hand:
    # the copy that reads it must not choose between them
    play_to_proof(table)
    union = table["union"]
    data = proof_data(union)
    root = sorted(data["leaves"])[0]
    text = orders.render({k: v for k, v in data.items() if k != "hxref"}, "made by hand")
    line = next(x for x in text.splitlines() if x.strip().startswith(f"{root}:") or x.strip().startswith(f"'{root}'"))
    twice = text.replace(line, line + "\n" + line.replace(data["leaves"][root], merkle.pack_leaves([bytes(32)])), 1)
    assert twice.count(root) == text.count(root) + 1
    (union.folder / "twice.yaml").write_text(sign_text(twice, load_private_key(union.folder / union.key)))
    bad = sent(table, "union", "twice.yaml")
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and "E104" in err and "duplicate key" in err, err


def test_a_root_copied_from_the_other_side_and_proved_with_its_leaves_convicts_the_copier(table):
    # the union signs his first bid's files with the confederate's root of the join's head (it is in
    # the confederate's commit he received); at the proof he waits for the confederate's proof and
    # gives its leaves for that root: they rebuild it, so the verdict must still name the union's file,
    # never the confederate, whose root it also is
    choose = choose_bids({"union": [2, 1, 4], "confederate": [3, 2, 1]})
    union, confederate = table["union"], table["confederate"]
    confederate("commit", GAME, "--side", "confederate", "--key", "bob", "--choice", "bid: 3")
    table.mail("confederate", "confederate-t1.bid-commit.yaml")
    theirs = read(union, "confederate-t1.bid-commit.yaml")
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice", "bid: 2")
    for kind in ("commit", "reveal"):
        name = f"union-t1.bid-{kind}.yaml"
        data = read(union, name)
        assert data["head"] == theirs["head"]
        data["root"] = theirs["root"]
        signed(union, data, name)
    for kind in ("commit", "reveal"):
        table.mail("union", f"union-t1.bid-{kind}.yaml")
    table.mail("confederate", "confederate-t1.bid-reveal.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    while union.status()["awaiting"][0]["decision"] != "proof":
        table.step(choose)
    confederate("challenge", GAME, "--side", "confederate", "--key", "bob")
    table.mail("confederate", "confederate-proof.yaml")
    data = proof_data(union)
    data["leaves"][theirs["root"]] = read(union, "confederate-proof.yaml")["leaves"][theirs["root"]]
    signed(union, data, "union-proof.yaml")
    table.mail("union", "union-proof.yaml")
    for p in table.players.values():
        p("resolve", GAME)
    v = verdict_of(table)["verdict"]
    assert (v["side"], v["file"], v["rule"]) == ("union", submission(table, "union", "t1.bid", "commit"), "3.16"), v
    assert v["why"].startswith("box track: "), v
    assert Engine.load(confederate.folder / GAME).h["forfeit"]["side"] == "union"


# --- the full Heartland game: leaves, claims "at least", and two processes ------------------------------

@pytest.fixture
def heartland(saved, tmp_path, monkeypatch) -> Table:  # noqa: F811  (the saved game of test_fog_cheats.py)
    """Both machines of the saved Heartland game at the commitments of its last Reorganization."""
    return cheats.copied(saved[cheats.LAST_REORG], tmp_path / "t", monkeypatch)


def test_leaves_in_another_order_convict_his_proof(heartland):
    # his roots are all true; in his proof the leaves of one are given last box first: the same
    # hashes, which rebuild another root, so his proof is at fault, not a box nor the other side
    cheats.the_other_commits(heartland, "confederate")
    union = heartland["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice",
          json.dumps(cheats.staying(heartland)("union", cheats.awaiting(heartland))))
    heartland.mail("union", f"union-{cheats.LAST_REORG}-commit.yaml")
    for side in ("union", "confederate"):
        heartland.mail(side, f"{side}-{cheats.LAST_REORG}-reveal.yaml")
    for p in heartland.players.values():
        p("resolve", GAME)
    union("challenge", GAME, "--side", "union", "--key", "alice")
    true = read(union, "union-proof.yaml")["leaves"]
    (union.folder / "union-proof.yaml").unlink()
    root = max(true, key=lambda r: len(true[r]))
    reordered = merkle.pack_leaves(list(reversed(merkle.unpack_leaves(true[root]))))
    assert reordered != true[root]
    verdict = cheats.prove(heartland, forged_leaves={root: reordered})
    cheats.convicted(verdict, heartland, "union", "proof", "proof", "protocol: proof")
    assert f"its leaves of the root {root[:16]}" in verdict["verdict"]["why"] and "do not rebuild it" in verdict["text"]


def entrenching(table: Table, ap) -> str:
    """The union's Reorganization answer entrenches Dunning's hex (3.24a: 1 AP, public, claimed); his
    reveal's claim of Dunning's AP made ``ap`` by hand and signed again; commit mailed, the confederate
    committed.  The reveal's name (in his folder, not mailed)."""
    union = table["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice",
          json.dumps({"administration": {"entrench": ["dunning"]}}))
    name = f"union-{cheats.LAST_REORG}-reveal.yaml"
    data = read(union, name)
    assert data["claims"] == {"leader:dunning": {"leader": {"ap": {"at_least": ENTRENCH_AP}}}}
    data["claims"] = {"leader:dunning": {"leader": {"ap": ap}}}
    signed(union, data, name)
    table.mail("union", f"union-{cheats.LAST_REORG}-commit.yaml")
    cheats.the_other_commits(table, "confederate")
    return name


@pytest.mark.parametrize("least", [0, -5])
def test_an_at_least_claim_below_what_the_move_reads_is_refused_at_once(heartland, least):
    name = entrenching(heartland, {"at_least": least})
    confederate = heartland["confederate"]
    shutil.copy(heartland["union"].folder / name, confederate.folder / name)
    err = confederate.fails("submit", GAME, name)
    assert name in err and "leader:dunning" in err, err


@pytest.mark.parametrize("ap", [{"at_least": "x"}, {"at_least": 1, "value": 9}, {"at_least": 1.5},
                                {"at_least": True}], ids=["text", "bound-and-value", "fraction", "true"])
def test_an_at_least_claim_that_is_not_a_whole_number_is_refused_at_once(heartland, ap):
    name = entrenching(heartland, ap)
    confederate = heartland["confederate"]
    shutil.copy(heartland["union"].folder / name, confederate.folder / name)
    err = confederate.fails("submit", GAME, name)
    assert name in err and "E112" in err and "leader:dunning" in err, err


def test_an_at_least_claim_above_what_the_move_reads_is_refused_at_once(heartland):
    # 10**30 AP "at least" where entrenching reads 1 (3.24a): not the bound the rules give his answer
    name = entrenching(heartland, {"at_least": 10 ** 30})
    confederate = heartland["confederate"]
    shutil.copy(heartland["union"].folder / name, confederate.folder / name)
    err = confederate.fails("submit", GAME, name)
    assert name in err and "E314" in err and "claims.leader:dunning.leader.ap" in err and "3.24" in err, err


def test_an_at_least_claim_on_a_face_that_is_exact_is_refused_at_once(heartland):
    # his honest AP bound, and Dunning's face (active or not, read exactly) claimed "at least 0": a face
    # is a yes or no (8.1), never a bound
    union = heartland["union"]
    name = entrenching(heartland, {"at_least": ENTRENCH_AP})
    data = read(union, name)
    data["claims"]["leader:dunning"]["leader"]["active"] = {"at_least": 0}
    signed(union, data, name)
    shutil.copy(union.folder / name, heartland["confederate"].folder / name)
    err = heartland["confederate"].fails("submit", GAME, name)
    assert name in err and "E112" in err and "claims.leader:dunning.leader.active" in err, err


def test_two_copies_resolve_alike_in_processes_with_other_hash_seeds_zones_locales_and_widths(heartland):
    # the last file of the Reorganization (attrition, administration, the turn's end) resolved by each
    # copy in a process of its own: string hashing, time zone, locale and terminal width all differ
    import subprocess
    import sys

    cheats.the_other_commits(heartland, "confederate")
    union = heartland["union"]
    union("commit", GAME, "--side", "union", "--key", "alice", "--choice",
          json.dumps(cheats.staying(heartland)("union", cheats.awaiting(heartland))))
    heartland.mail("union", f"union-{cheats.LAST_REORG}-commit.yaml")
    heartland.mail("union", f"union-{cheats.LAST_REORG}-reveal.yaml")
    last = sent(heartland, "confederate", f"confederate-{cheats.LAST_REORG}-reveal.yaml")
    envs = [{"PYTHONHASHSEED": "1", "TZ": "UTC", "LC_ALL": "C", "COLUMNS": "60"},
            {"PYTHONHASHSEED": "4242", "TZ": "Pacific/Kiritimati", "LC_ALL": "C.UTF-8", "COLUMNS": "200"}]
    games = []
    for p, env in zip(heartland.players.values(), envs):
        run = {**os.environ, **env, "HXREF_HOME": str(p.home), "HXREF_NOW": fog_table.NOW}
        res = subprocess.run([sys.executable, "-m", "hxref.cli", "submit", GAME, last], cwd=p.folder, env=run,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        subprocess.run([sys.executable, "-m", "hxref.cli", "resolve", GAME], cwd=p.folder, env=run,
                       capture_output=True, text=True, timeout=300)
        games.append((p.folder / GAME).read_bytes())
    assert Engine.load(heartland["union"].folder / GAME).finished or cheats.awaiting(heartland)["decision"] == "proof"
    assert games[0] == games[1], "the two copies differ"


def test_an_at_least_claim_below_what_a_move_pays_is_refused_at_once(saved, tmp_path, monkeypatch):  # noqa: F811
    # his orders move a force whose commander has more AP than the move pays; his claim says only
    # "at least 0": true of his box, but below what the move reads (3.24)
    from tests.security.test_fog_claims import bounded_orders, to_union_orders

    table = cheats.copied(saved[cheats.LAST_BID], tmp_path / "t", monkeypatch)
    d = to_union_orders(table)
    choice, lid, _, least = bounded_orders(table, d)
    assert least > 0
    union = table["union"]
    union("answer", GAME, "--side", "union", "--key", "alice", "--choice", json.dumps(choice))
    name = f"union-{d['decision']}.yaml"
    data = read(union, name)
    data["claims"][f"leader:{lid}"]["leader"]["ap"] = {"at_least": 0}
    bad = sent(table, "union", signed(union, data, name))
    err = table["confederate"].fails("submit", GAME, bad)
    assert bad in err and f"leader:{lid}" in err, err
