"""Attacks on what a command believes of a game file: its header snapshot (the state, the awaited
decisions, the pending files) sits outside the hash chain, and the log may be rewritten by whoever
holds the file.  Every command reads a game through one load (``Engine.load``): a file is believed
only when it is byte for byte the file this machine last wrote or proved there, and any other is
proved first by the audit's own replay, whose header it must be.

Each test is the attack as the cheater runs it, with the game file, his own key and the files he
holds (tests/security/attacker.py: he writes with ``GameFile.save`` or by hand, never touching the
victim's kept records), and the victim runs the real CLI.  Each asserts that every command refuses
it, exit 2 with E500, and leaves the file as it was.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from hxref.referee import audit as audit_mod
from hxref.base.canon import sha256_hex
from hxref.gamefile.game import LOG_SEPARATOR, GameFile, event_hash

from tests.security.attacker import sha
from tests.security.test_attacks import DEC, answer, refused, roll, start

COMMANDS = {
    "status": lambda g: ("status", g),
    "report": lambda g: ("report", g, "--side", "confederate", "--format", "text"),
    "resolve": lambda g: ("resolve", g),
    "submit": lambda g: ("submit", g, str(Path(g).parent / f"confederate-{DEC}.yaml")),
}


def _victim_game(cli) -> str:
    """The victim's game, saved by his own hxref (so his machine vouches for it), with confederate's
    signed orders written (not yet submitted) for ``submit`` to try."""
    g = start(cli)
    answer(cli, g, submit=False)
    return g


def _edit_header(g: str, edit) -> None:
    """The holder's edit of the header snapshot, the log left untouched."""
    gf = GameFile.load(g)
    edit(gf.header)
    gf.save()


def _all_refuse(cli, g: str, why: str = "does not check out") -> None:
    """Every command exits 2 with E500 naming the problem, and the file is unchanged."""
    before = sha(g)
    for name, args in COMMANDS.items():
        err = refused(cli, *args(g), code="E500")
        assert why in err, (name, err)
        assert sha(g) == before, name


def _wep(header: dict) -> None:
    header["state"]["wep"]["union"] = 999


def test_an_edited_wep_in_the_header_is_refused_by_every_command(cli):
    """F8: the holder sets union's WEP to 999 in the header, the log untouched; before, `status`,
    `report` and `resolve` showed and built on it, and only `audit` found it."""
    g = _victim_game(cli)
    _edit_header(g, _wep)
    _all_refuse(cli, g, "the header's state differs from the replayed game")


@pytest.mark.parametrize("edit", [
    lambda h: h.update(phase="over"),
    lambda h: h.update(forfeit={"side": "confederate", "why": "missed deadlines"}),
    lambda h: h.update(awaiting=[]),
    lambda h: h["awaiting"][0].update(sides=["union"]),
], ids=["phase", "forfeit", "awaiting-emptied", "awaiting-sides"])
def test_an_edited_phase_forfeit_or_awaited_decision_is_refused(cli, edit):
    """The holder ends the game, books a forfeit or drops what the victim owes, in the header."""
    g = _victim_game(cli)
    _edit_header(g, edit)
    _all_refuse(cli, g, "(edited snapshot)")


def test_an_edited_pending_file_is_refused(cli):
    """Confederate's orders wait in the pending area (outside the chain); the holder rewrites the
    kept text and its sha256 to match: the signature no longer covers it.  (Refused before this
    change too, by a check of the pending files that only the load made; now by the replay.)"""
    g = start(cli)
    path = answer(cli, g, submit=True)
    assert path.exists()
    gf = GameFile.load(g)
    entry = gf.header["pending"][DEC]["files"][0]
    entry["file"] = entry["file"].replace("standing:", "standing:  ", 1)
    entry["sha256"] = sha256_hex(entry["file"].encode("utf-8"))
    gf.save()
    before = sha(g)
    for args in (("status", g), ("resolve", g), ("report", g, "--side", "union", "--format", "text")):
        err = refused(cli, *args, code="E500")
        assert "pending file" in err, err
        assert sha(g) == before


def _rehash_from(gf: GameFile, index: int) -> None:
    """Re-hash the chain from event ``index`` on (the chain has no key): what the rewriter does."""
    log = list(gf.log)
    for i in range(index, len(log)):
        if i:
            log[i]["prev"] = log[i - 1]["hash"]
        log[i]["hash"] = event_hash(log[i])
    gf.log = log
    gf.header["head"] = {"seq": len(log), "hash": log[-1]["hash"]}


def test_a_rewritten_die_with_the_chain_rehashed_is_refused_at_first_sight(cli, tmp_path, monkeypatch):
    """F8: the holder rewrites the weather die (to faces it did not roll), re-hashes the chain and the header's
    head, and hands the file to a machine that never held it: its first command replays the log
    and refuses it; before, `status` and `report` showed the dice that were never rolled."""
    g = start(cli)
    gf = GameFile.load(g)
    i = next(i for i, ev in enumerate(gf.log) if ev["kind"] == "die")
    rolled = gf.log[i]["data"]["faces"]
    gf.log[i]["data"]["faces"] = [1 if f != 1 else 2 for f in rolled]     # another roll, whatever was rolled
    _rehash_from(gf, i)
    victim = tmp_path / "victim"
    victim.mkdir()
    gf.path = victim / "g.yaml"
    gf.save()
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "victim-home"))     # a machine that never held it
    before = sha(gf.path)
    for args in (("status", str(gf.path)), ("report", str(gf.path), "--side", "union", "--format", "text")):
        err = refused(cli, *args, code="E500")
        assert f"event {i + 1} (die): replay gives a different result" in err, err
        assert sha(gf.path) == before


def test_the_kept_header_over_a_swapped_log_is_refused(cli, tmp_path, monkeypatch):
    """The holder keeps the header the victim's machine holds (so it is the one its record vouched
    for), and swaps the log under it: a longer one (the game played on elsewhere) or one with a
    forged unsigned event appended and hash-chained."""
    g = _victim_game(cli)
    saved = Path(g).read_bytes()
    header = saved.partition(LOG_SEPARATOR)[0]
    cli("submit", g, str(Path(g).parent / f"confederate-{DEC}.yaml"))    # played on, on the holder's machine
    cli("submit", g, str(roll(cli, g)))
    cli("resolve", g)
    later = Path(g).read_bytes()
    assert len(later.partition(LOG_SEPARATOR)[2]) > len(saved.partition(LOG_SEPARATOR)[2])
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "victim-home"))      # the victim's machine
    Path(g).write_bytes(saved)
    cli("status", g)                                                      # proved, and vouched for
    Path(g).write_bytes(header + LOG_SEPARATOR + later.partition(LOG_SEPARATOR)[2])
    _all_refuse(cli, g)
    Path(g).write_bytes(saved)
    gf = GameFile.load(g)
    gf.append("answer", "confederate", {"decision": DEC, "side": "confederate", "choice": {}})
    Path(g).write_bytes(header + LOG_SEPARATOR + b"".join(gf.log.dump()))
    _all_refuse(cli, g)


def test_a_line_rewritten_by_hand_with_every_hash_right_is_refused(cli, tmp_path, monkeypatch):
    """The holder rewrites one log line in another JSON form (spaces, another key order): the event
    and its hash are unchanged, the chain holds; but two copies of the game no longer hold the same
    bytes, and what reads a line relies on its one form.  Refused on the victim's machine and on a
    machine that never held the file."""
    g = _victim_game(cli)
    data = Path(g).read_bytes()
    top, _, section = data.partition(LOG_SEPARATOR)
    lines = section.split(b"\n")
    ev = json.loads(lines[3][2:])
    lines[3] = b"- " + json.dumps(ev, separators=(", ", ": "), sort_keys=False).encode("utf-8")
    Path(g).write_bytes(top + LOG_SEPARATOR + b"\n".join(lines))
    _all_refuse(cli, g, "event 4: its line is not the event's canonical JSON")
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "fresh-home"))
    _all_refuse(cli, g, "event 4: its line is not the event's canonical JSON")


def test_an_in_place_edit_of_the_same_size_with_its_times_set_back_is_refused(cli):
    """The holder overwrites the victim's saved file in place (same inode, same size), then sets
    its times back: nothing of the file's identity on the disk is trusted, its bytes are."""
    g = _victim_game(cli)
    st = os.stat(g)
    text = Path(g).read_text()
    wep = json.dumps(GameFile.load(g).header["state"]["wep"])
    edited = text.replace(wep, wep.replace(": ", ":9", 1), 1)
    assert edited != text and len(edited) == len(text)
    with open(g, "r+", encoding="utf-8") as fh:
        fh.write(edited)
    os.utime(g, ns=(st.st_atime_ns, st.st_mtime_ns))
    _all_refuse(cli, g, "(edited snapshot)")


def test_the_honest_game_is_proved_once_then_believed(cli, tmp_path, monkeypatch):
    """The honest side of it: a copy of an honest game on a machine that never held it is proved
    at its first command and taken; the next command believes the file this machine proved without
    a replay, and a save is believed as this machine's own."""
    g = _victim_game(cli)
    there = tmp_path / "copy"
    there.mkdir()
    for f in Path(g).parent.glob("*.yaml"):
        shutil.copy(f, there / f.name)
    copy = str(there / "g.yaml")
    monkeypatch.setenv("HXREF_HOME", str(tmp_path / "other-machine"))
    proofs = []
    real = audit_mod.prove
    monkeypatch.setattr(audit_mod, "prove", lambda gf: proofs.append(gf.path) or real(gf))
    cli("status", copy)
    assert len(proofs) == 1
    cli("status", copy)
    cli("submit", copy, str(there / f"confederate-{DEC}.yaml"))
    cli("report", copy, "--side", "union", "--format", "text")
    assert len(proofs) == 1
