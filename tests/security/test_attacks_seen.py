"""Attacks on the memo of checked game files (hxref/seen.py):

- a command that loads a game file this machine wrote, or checked whole, and that is unchanged
  since (same st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns, its header's head the kept one)
  reads only the lines it asks for, and SKIPS the load check's kind scan (C1: no unsigned input);
- a save copies the untouched log section from the descriptor read (``os.copy_file_range``);
- ``Engine.save`` and a full-check ``Engine.load`` write the record; ``hxref audit`` never uses it.

Each test is the attack as the cheater runs it, with the game file, his own key and the files he
holds (tests/security/attacker.py); a few need a second local account (run as root: a child
process with another uid) and are skipped otherwise.  Each asserts the secure behaviour.  Those
marked "BROKEN" worked against the memo's first version, and each is closed now; the others
("DEFEATED") never worked.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from hxref.canon import canonical_json

from tests.security.test_attacks import DEC, answer, run, start
from tests.security.test_attacks_lazy_log import _claimed_acw_game, forge_unsigned_answer, join, split

ROOT = hasattr(os, "getuid") and os.getuid() == 0
MALLORY = 4242          # the second local account (no passwd entry needed: a child with this uid)
needs_root = pytest.mark.skipif(not ROOT, reason="a second local account needs root to start")


# --- helpers ---------------------------------------------------------------------------------------

def same_size_forgery(g) -> tuple[int, bytes]:
    """An unsigned `answer` for confederate, written over the longest middle `rules`/`die` line with
    exactly that line's length (a padding member), its seq, prev and hash fields copied: what the
    forger writes IN PLACE.  Returns (offset in the file, the new line without its newline)."""
    top, lines = split(g)
    k = max((i for i, ln in enumerate(lines[1:-1], 1) if b'"kind":"rules"' in ln or b'"kind":"die"' in ln),
            key=lambda i: len(lines[i]))
    orig = json.loads(lines[k][2:])
    ev = {"seq": orig["seq"], "kind": "answer", "by": "confederate", "prev": orig["prev"], "hash": orig["hash"],
          "data": {"decision": DEC, "side": "confederate", "choice": {"moves": [], "standing": {"defence": {}}},
                   "zz": ""}}
    pad = len(lines[k]) - len(b"- " + canonical_json(ev))
    assert pad >= 0, "no middle line long enough"
    ev["data"]["zz"] = "x" * pad
    line = b"- " + canonical_json(ev)
    assert len(line) == len(lines[k])
    return len(top) + sum(len(ln) + 1 for ln in lines[:k]), line


def write_in_place(g, offset: int, data: bytes, *, keep_times: bool = True) -> None:
    """Overwrite bytes of ``g`` in place (same inode, same size), then set its times back."""
    st = os.stat(g)
    with open(g, "r+b") as fh:
        fh.seek(offset)
        fh.write(data)
    if keep_times:
        os.utime(g, ns=(st.st_atime_ns, st.st_mtime_ns))


def refused_unsigned(g, *commands: tuple[str, ...]) -> None:
    """Each command (default: status) exits 2 with E500 for the unsigned input, no traceback."""
    for args in commands or (("status", str(g)),):
        code, out = run(*args)
        assert code == 2 and "[E500]" in out and "internal error" not in out, (args, out)


def records() -> list[Path]:
    return sorted((Path(os.environ["HXREF_HOME"]) / "seen").glob("*.json"))


def as_mallory(code: str, *, group: int | None = None) -> None:
    """Run ``code`` (Python) as the second local account (a forked child: no interpreter to exec)."""
    pid = os.fork()
    if pid == 0:                                     # pragma: no cover - the child
        status = 1
        try:
            os.setgroups([] if group is None else [group])
            os.setgid(MALLORY if group is None else group)
            os.setuid(MALLORY)
            exec(code, {})  # noqa: S102 - the other account's own step, written by this test
            status = 0
        except BaseException as exc:
            os.write(2, repr(exc).encode())
        finally:
            os._exit(status)
    assert os.waitpid(pid, 0)[1] == 0, "the other account's step failed"


_SHARED: list[Path] = []


def shared_folder() -> Path:
    """A folder the other account can reach (the tests' own tmp_path is 0700); removed after the test."""
    d = Path(tempfile.mkdtemp(prefix="hxref-seen-shared-"))
    d.chmod(0o755)
    _SHARED.append(d)
    return d


@pytest.fixture(autouse=True)
def _remove_shared_folders():
    yield
    while _SHARED:
        shutil.rmtree(_SHARED.pop(), ignore_errors=True)


# --- S1-S6: the file changed on the disk after this machine checked it -----------------------------

def test_s1_in_place_same_size_edit_with_mtime_restored_is_checked_whole(cli):
    """DEFEATED: the victim's `status` keeps a record; whoever can write the file then overwrites
    a middle line IN PLACE with an unsigned `answer` of exactly its length and sets the times back
    with os.utime: same inode, size and mtime, but the kernel gave it a new ctime, so the next
    command reads and checks the whole log (E500), and so does every one after."""
    g = start(cli)
    cli("status", g)
    before = os.stat(g)
    assert records()
    write_in_place(g, *same_size_forgery(g))
    after = os.stat(g)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)
    refused_unsigned(g, ("status", g), ("resolve", g), ("status", g))


def test_s2_cp_p_of_a_same_size_forgery_over_the_game_is_checked_whole(cli):
    """DEFEATED: the forger prepares his forgery in a copy (same size, a middle line rewritten),
    then `cp -p` over the victim's checked file: cp writes into the same inode and copies the
    mtime (and mode) of the original: the ctime is new, the load check runs, E500."""
    g = start(cli)
    cli("status", g)
    shutil.copy2(g, "forged.yaml")
    write_in_place("forged.yaml", *same_size_forgery("forged.yaml"))
    ino = os.stat(g).st_ino
    subprocess.run(["cp", "-p", "forged.yaml", g], check=True)
    assert os.stat(g).st_ino == ino and os.stat(g).st_mtime_ns == os.stat("forged.yaml").st_mtime_ns
    refused_unsigned(g)


def test_s3_a_forgery_renamed_into_place_with_the_same_size_and_mtime(cli):
    """DEFEATED: a forgery of the same size, its mtime set to the checked file's, renamed over it
    (`mv`): another inode and ctime: checked whole, E500.  The honest file renamed back afterwards
    (rename changes the ctime too) is checked whole as well, and passes."""
    g = start(cli)
    cli("status", g)
    st = os.stat(g)
    shutil.copy(g, "honest.yaml")
    shutil.copy(g, "forged.yaml")
    write_in_place("forged.yaml", *same_size_forgery("forged.yaml"), keep_times=False)
    os.utime("forged.yaml", ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace("forged.yaml", g)
    refused_unsigned(g)
    os.replace("honest.yaml", g)
    assert run("status", g)[0] == 0


def test_s4_a_hard_link_edited_in_place_through_the_other_name(cli):
    """DEFEATED: the holder hard-links the checked file under another name (link count: new ctime),
    waits for the victim's next command to record the file again, then edits through the other name
    in place, same size, times set back: the record (keyed by the victim's path) no longer matches;
    the other name has no record of its own: both are checked whole."""
    g = start(cli)
    cli("status", g)
    os.link(g, "other.yaml")
    cli("status", g)                     # recorded again, link and all
    write_in_place("other.yaml", *same_size_forgery("other.yaml"))
    refused_unsigned(g, ("status", g), ("status", "other.yaml"))


def test_s5_a_symlinked_game_retargeted_to_a_forgery(cli):
    """DEFEATED: the victim plays through a symlink (game.yaml -> real.yaml): the record is kept
    under the real path.  The holder points the link at a forgery: another real path, no record:
    checked whole.  The victim's save through the link writes the real file, the link stays."""
    g = start(cli)
    os.rename(g, "real.yaml")
    os.symlink("real.yaml", "game.yaml")
    answer(cli, "game.yaml")                                       # a save through the link
    assert os.path.islink("game.yaml") and records()
    shutil.copy("real.yaml", "forged.yaml")
    write_in_place("forged.yaml", *same_size_forgery("forged.yaml"))
    os.unlink("game.yaml")
    os.symlink("forged.yaml", "game.yaml")
    refused_unsigned("game.yaml")


def test_s6_a_backup_edited_and_put_back(cli):
    """DEFEATED: after a save, GAME.bak is the previous file (the inode the record named before the
    save).  The holder edits it in place, times set back, and renames it over GAME: refused (exit 2
    with an E-code: the rollback, or the unsigned input), never accepted."""
    g = start(cli)
    answer(cli, g)                                                  # saves: g.yaml.bak is the old file
    bak = g + ".bak"
    write_in_place(bak, *same_size_forgery(bak))
    os.replace(bak, g)
    code, out = run("status", g)
    assert code == 2 and ("[E500]" in out or "[E506]" in out) and "internal error" not in out, out


# --- S7-S8: another account; a file that shrinks -------------------------------------------------

@needs_root
def test_s7_a_group_writable_game_edited_by_another_account(cli):
    """DEFEATED: a game file in a shared folder, group-writable (0664): the other account, in the
    group, rewrites a middle line in place (it may not set the times back: it does not own the file,
    but a write in the clock tick of a save would keep them).  Such a file is never taken as
    unchanged: every command checks it whole, E500."""
    d = shared_folder()
    g = start(cli, str(d))
    os.chmod(g, 0o664)
    cli("status", g)
    offset, line = same_size_forgery(g)
    as_mallory(f"f = open({g!r}, 'r+b'); f.seek({offset}); f.write({line!r}); f.close()", group=os.stat(g).st_gid)
    refused_unsigned(g)


def test_s8_a_file_truncated_after_the_record_or_under_a_command(cli, monkeypatch):
    """DEFEATED: the checked file truncated in place (its end cut off, then its times set back) is
    refused with one line, not a traceback; truncated while a command runs, between its load and its
    save (the section is copied from the descriptor read), the save stops with E500 and leaves the
    file as it was cut, never a new file made of half a log."""
    g = start(cli)
    cli("status", g)
    size = os.path.getsize(g)
    st = os.stat(g)
    os.truncate(g, size - 100)
    os.utime(g, ns=(st.st_atime_ns, st.st_mtime_ns))
    code, out = run("status", g)
    assert code == 2 and "[E500]" in out and "internal error" not in out, out
    # the same, under a command: a fresh game, recorded, then cut between load and save
    h = start(cli, "h")
    cli("status", h)
    from hxref.engine import Engine
    real_save = Engine.save

    def cut_then_save(self):
        os.truncate(h, os.path.getsize(h) // 2)
        return real_save(self)

    monkeypatch.setattr(Engine, "save", cut_then_save)
    ans = answer(cli, h, submit=False)
    cut = os.path.getsize(h) // 2
    code, out = run("submit", h, str(ans))
    assert code == 2 and "[E500]" in out and "internal error" not in out, out
    assert os.path.getsize(h) <= cut


# --- S9-S11: a file the first command accepts, not in the form the memo assumes ---------------------

def test_s9_a_claim_hidden_by_a_trailing_space_once_the_memo_is_written(cli, monkeypatch):
    """BROKEN: confederate (the claimant, holding the file) adds one space after the closing brace
    of his claim's `rules` line: the same event to json.loads, same hash and chain.  The first
    command that loads it sees a line not in canonical form, reads every line whole, and passes:
    Engine.load then records the file as checked.  From the next command on, the memo says "every
    line canonical" (EventLog._all_canonical = True), so the report's claims sieve
    (events_of(..., needles)) skips the line whose end is not _TAIL: union's report no longer lists
    the claim, which SECURITY.md promises it does, the whole game long.  (The audit names the line;
    the victim has no reason to run it.)"""
    monkeypatch.setenv("COLUMNS", "250")
    game = _claimed_acw_game(cli, monkeypatch)
    top, lines = split(game)
    k = next(i for i, ln in enumerate(lines) if b'"nmr":true' in ln)
    lines[k] += b" "
    join(game, top, lines)
    cli("status", game)                                      # the victim looks: the file is recorded
    text = cli("report", game, "--format", "text", "--side", "union").output
    claims = text.split("Claims and withdrawals", 1)[1].split("\n\n", 1)[0] if "Claims and" in text else ""
    assert "claim signed by confederate" in claims, text


def test_s10_dice_of_crlf_lines_vanish_once_the_memo_is_written(cli):
    """BROKEN: the holder sends the file with its log lines ending in CRLF (or a mail program
    does).  `hxref dice` gives the same figures as before; after any command has recorded the file,
    the memo takes every line for canonical and the die sieve (_tail_of ... \\n) finds none: the
    victim's dice statistics change, and differ from his opponent's copy of the same game."""
    g = start(cli)
    honest = json.loads(cli("dice", g, "--json").stdout)
    top, lines = split(g)
    Path(g).write_bytes(top + b"".join(ln + b"\r\n" for ln in lines))
    assert json.loads(cli("dice", g, "--json").stdout) == honest     # read whole: the same dice
    cli("status", g)
    assert json.loads(cli("dice", g, "--json").stdout) == honest


@pytest.mark.parametrize("shape", ["blank-line", "spaces-line", "no-final-newline", "blank-last-line"])
def test_s11_a_log_the_first_command_accepts_stays_accepted(cli, shape):
    """BROKEN (denial, false alarm): a log with a blank (or spaces-only) line, no final newline, or
    a blank last line is read line by line and accepted by every command and by the audit.  But the
    first command records it with `events` = the number of events, not of lines (and a section not
    ending in a newline): from the second command on, every command refuses the untouched file as
    damaged (E500 "a log line does not hold an event" / "the game file changed while hxref was
    reading it") and tells the victim to restore GAME.bak, while `hxref audit` says OK."""
    g = start(cli)
    top, lines = split(g)
    body = {"blank-line": b"\n".join(lines[:3] + [b""] + lines[3:]) + b"\n",
            "spaces-line": b"\n".join(lines[:3] + [b"   "] + lines[3:]) + b"\n",
            "no-final-newline": b"\n".join(lines),
            "blank-last-line": b"\n".join(lines) + b"\n\n"}[shape]
    Path(g).write_bytes(top + body)
    first = run("status", g)
    assert first[0] == 0, first
    assert run("status", g) == first and run("report", g)[0] == 0


# --- S12-S13: the record made of a file other than the one checked -----------------------------------

def test_s12_a_file_renamed_into_place_between_the_save_and_its_stat(cli, monkeypatch):
    """BROKEN (a race; needs write access to the game's folder: a shared folder, or a sync tool):
    GameFile.save renames its new file into place, fsyncs the folder, and only then os.stat()s the
    PATH for the record.  Whoever renames another file over the game in that window (inotify tells
    him when) gets THAT file recorded as checked, if its header is the saved one (the record keeps
    log_at, the event count and the head, not the section's size).  The forger predicts the
    victim's file after `submit` of his own answer (two honest copies are byte-identical), rewrites
    a middle line of it into an unsigned `answer`, and the victim holds it (saved from his mail).
    Every later command skips the kind scan for it.  (Simulated: the rename at the folder's fsync.)"""
    g = start(cli)
    ans = answer(cli, g, submit=False)
    Path("a").mkdir()
    shutil.copy(g, "a/g.yaml")
    cli("submit", "a/g.yaml", str(ans))               # the forger's copy: what the victim's will be
    write_in_place("a/g.yaml", *same_size_forgery("a/g.yaml"))
    shutil.copy("a/g.yaml", "incoming.yaml")
    refused_unsigned("incoming.yaml")                 # checked whole: refused, no record
    real_fsync, armed = os.fsync, [True]

    def fsync(fd):
        real_fsync(fd)
        if armed[0] and stat.S_ISDIR(os.fstat(fd).st_mode):
            armed[0] = False
            os.replace("incoming.yaml", g)            # the attacker, at that moment

    monkeypatch.setattr(os, "fsync", fsync)
    cli("submit", g, str(ans))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert not armed[0]
    refused_unsigned(g, ("status", g), ("resolve", g))


@pytest.mark.parametrize("memo", ["recorded", "no-record"])
def test_s13_an_in_place_write_during_a_command_is_saved_and_recorded(cli, monkeypatch, memo):
    """BROKEN (needs to write the file in place while a command runs: the same account, or a
    descriptor opened while the file was group-writable, kept after `chmod g-w`): the victim's
    command loads the recorded file without reading its middle; the holder then rewrites a middle
    line in place with an unsigned `answer` of the same length; the save copies the section from
    the file as it is NOW (copy_file_range) into the new file, and records the new file as checked.
    Before the memo, a save wrote the bytes read and checked at load; now a load that reads and
    checks the whole file (no record) also copies the section from the file at its save."""
    g = start(cli)
    os.chmod(g, 0o664)
    held = os.open(g, os.O_WRONLY)                    # opened while it was group-writable
    os.chmod(g, 0o644)
    ans = answer(cli, g, submit=False)
    cli("status", g)
    if memo == "no-record":
        for r in records():
            r.unlink()
    offset, line = same_size_forgery(g)
    from hxref.engine import Engine
    real_save = Engine.save

    def write_then_save(self):
        os.pwrite(held, line, offset)                 # the holder, while the command runs
        return real_save(self)

    monkeypatch.setattr(Engine, "save", write_then_save)
    try:
        code, out = run("submit", g, str(ans))
    finally:
        os.close(held)
        monkeypatch.setattr(Engine, "save", real_save)
    assert code == 2 or line not in Path(g).read_bytes(), out
    refused_unsigned(g)


def test_s13b_a_forgery_renamed_over_the_game_during_a_command_is_not_saved(cli, monkeypatch):
    """DEFEATED: the same, but the holder renames a forgery over the game while the command runs
    (no write access to the file itself is needed, only to its folder).  Either the save copies the
    section from the descriptor it read (the old inode) over the forgery, and the game holds the
    honest log; or the command refuses (E500: the file changed) and leaves the forgery, which the
    next command checks whole.  Never a forgery saved or recorded."""
    g = start(cli)
    cli("status", g)
    ans = answer(cli, g, submit=False)
    shutil.copy(g, "forged.yaml")
    offset, line = same_size_forgery("forged.yaml")
    write_in_place("forged.yaml", offset, line)
    from hxref.engine import Engine
    real_save = Engine.save

    def swap_then_save(self):
        os.replace("forged.yaml", g)
        return real_save(self)

    monkeypatch.setattr(Engine, "save", swap_then_save)
    code, out = run("submit", g, str(ans))
    monkeypatch.setattr(Engine, "save", real_save)
    if code == 0:
        assert line not in Path(g).read_bytes()
        assert run("status", g)[0] == 0 and run("audit", g)[0] == 0
    else:
        assert code == 2 and "[E500]" in out and "internal error" not in out, out
        refused_unsigned(g)


# --- S14: the record itself -----------------------------------------------------------------------

@needs_root
@pytest.mark.parametrize("record", ["forged", "nested"])
def test_s14_a_record_planted_by_another_account(cli, monkeypatch, record):
    """BROKEN (hardening; needs $HXREF_HOME/seen writable by another account: a shared or
    mis-moded HXREF_HOME, e.g. made under umask 000, or pre-created by that account): the victim
    saves the forger's file as his game (his own file, 0644).  The forger, another local account,
    stats it and plants the record that matches it.  seen.checked() reads records without looking
    at who owns them: the victim's first command skips the kind scan and accepts the unsigned
    `answer`.  A record nested 100,000 deep ends in `internal error: RecursionError` (exit 3)."""
    home = shared_folder()
    (home / "seen").mkdir(mode=0o777)
    (home / "seen").chmod(0o777)
    monkeypatch.setenv("HXREF_HOME", str(home))
    d = shared_folder()
    g = start(cli, str(d))
    shutil.copy(g, "forged.yaml")
    forge_unsigned_answer("forged.yaml")
    shutil.copy("forged.yaml", g)                     # the victim saves what arrived, as himself
    os.chmod(g, 0o644)
    real = os.path.realpath(g)
    top, lines = split(g)
    head = json.loads(lines[-1][2:])
    name = hashlib.sha256(real.encode()).hexdigest()[:32] + ".json"
    plant = f"""
import json, os
st = os.stat({real!r})
rec = {{"path": {real!r}, "stat": [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns],
       "log_at": {len(top)}, "events": {len(lines)}, "seq": {head['seq']}, "hash": {head['hash']!r}}}
text = json.dumps(rec) if {record!r} == "forged" else "[" * 100000 + "]" * 100000
tmp = os.path.join({str(home / 'seen')!r}, "planted.tmp")
open(tmp, "w").write(text)
os.replace(tmp, os.path.join({str(home / 'seen')!r}, {name!r}))    # over the victim's own record
"""
    # hxref closes a folder of records it finds open (0700); a misconfiguration opens it again
    (home / "seen").chmod(0o777)
    as_mallory(plant)
    assert run("audit", g)[0] == 1                   # the audit never reads the records
    refused_unsigned(g)                              # a record another account wrote is no record


def test_s14b_a_record_nested_thousands_deep_is_no_record(cli):
    """DEFEATED: a record of this account's own (out of scope: the same account may write the game
    file itself) nested 100,000 deep, or not JSON, is read as no record: one whole read, no crash."""
    d = shared_folder()
    g = start(cli, str(d))
    assert run("status", g)[0] == 0
    for text in ("[" * 100000 + "]" * 100000, "{not json", ""):
        for rec in records():
            rec.write_text(text)
        code, out = run("status", g)
        assert code == 0 and "internal error" not in out, out
