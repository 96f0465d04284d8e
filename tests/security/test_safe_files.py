"""Safe files: what a player with write access to a shared game folder can do with the file system.

Written the way the attacker works: plant symlinks where hxref will write its temporary files, point the
game path through a link, hand hxref a FIFO as an order file, fill the disk, take away write
permission, sign a CRLF file with the real ssh-keygen.  Each time the game must be untouched (or
correctly updated), and every refusal must be one line with an E-code and exit status 2.
"""
from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hxref.base import files as game_mod
from hxref.base.errors import InvalidInput, Locked
from hxref.base.files import atomic_write
from hxref.gamefile.game import locked
from hxref.base.yamlio import read_text

NOW = "2026-11-29T12:00:00Z"    # as tests/conftest.py
HXREF = str(Path(sys.executable).with_name("hxref"))
needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def plant(folder: Path, name: str, first_pid: int, target: str = "victim.txt", n: int = 300) -> None:
    """The attack on predictable temporary names: links for the next ``n`` PIDs, for the save and its backup."""
    for pid in range(first_pid, first_pid + n):
        for suffix in (".tmp", ".bak.tmp"):
            with_pid = folder / f".{name}.{pid}{suffix}"
            if not os.path.lexists(with_pid):
                os.symlink(target, with_pid)


def run(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, HXREF_NOW=NOW)
    return subprocess.run([HXREF, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def one_line_error(stderr: str, code: str) -> str:
    err = stderr.strip()
    assert err.startswith("hxref: error: ") and "\n" not in err and "Traceback" not in err, stderr
    assert err.endswith(f"[{code}]"), err
    return err


# --- 1. the temporary file: random name, O_EXCL, 0600, never through a planted link -------------------

def test_planted_tmp_links_for_the_next_pids_are_not_followed(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_bytes(b"old game\n")
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"the victim's own text\n")
    # the save runs in a new process: links for the PIDs that come next
    plant(tmp_path, "g.yaml", os.getpid())
    code = ("import sys; from pathlib import Path; from hxref.base.files import atomic_write; "
            "atomic_write(Path(sys.argv[1]), b'new game\\n', backup=True)")
    subprocess.run([sys.executable, "-c", code, str(game)], check=True, timeout=60)
    assert victim.read_bytes() == b"the victim's own text\n"
    assert not game.is_symlink() and game.read_bytes() == b"new game\n"
    bak = tmp_path / "g.yaml.bak"
    assert not bak.is_symlink() and bak.read_bytes() == b"old game\n"
    planted = [p for p in tmp_path.iterdir() if p.is_symlink()]
    assert len(planted) == 600 and all(os.readlink(p) == "victim.txt" for p in planted)   # untouched


def test_submit_in_a_folder_full_of_planted_links(cli, game):
    """The attack of the review, end to end: plant, run a command that saves, look at the victim."""
    folder = cli.folder
    victim = folder / "victim.txt"
    victim.write_text("the victim's own text\n")
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    before = (folder / game).read_bytes()
    plant(folder, game, os.getpid())
    res = run("submit", game, "union-t1.bid-commit.yaml", cwd=folder)
    assert res.returncode == 0, res.stderr
    assert victim.read_text() == "the victim's own text\n"
    assert not (folder / game).is_symlink() and (folder / game).read_bytes() != before
    assert (folder / f"{game}.bak").read_bytes() == before
    assert run("audit", game, cwd=folder).returncode == 0


def test_temporary_names_are_random_and_made_by_mkstemp(tmp_path, monkeypatch):
    made = []
    real = tempfile.mkstemp

    def spy(*args, **kwargs):
        fd, name = real(*args, **kwargs)
        st = os.fstat(fd)
        made.append((Path(name).name, stat.S_IMODE(st.st_mode), st.st_size))
        return fd, name

    monkeypatch.setattr(game_mod.tempfile, "mkstemp", spy)
    for i in range(3):
        atomic_write(tmp_path / "g.yaml", b"v%d\n" % i, backup=True)
    names = [m[0] for m in made]
    assert len(set(names)) == 3 and all(n.startswith(".g.yaml.") and n.endswith(".tmp") for n in names)
    assert str(os.getpid()) not in "".join(names)
    assert all(m[1:] == (0o600, 0) for m in made)       # O_EXCL, 0600 and empty when it appears
    assert leftovers(tmp_path) == []


# --- 2. modes: a game file keeps its mode; private files are 0600 from the first byte -----------------

def test_a_saved_file_keeps_the_mode_of_the_one_it_replaces(tmp_path):
    old = os.umask(0o022)
    try:
        new = tmp_path / "new.yaml"
        atomic_write(new, b"x\n")
        assert mode(new) == 0o644
        kept = tmp_path / "kept.yaml"
        kept.write_bytes(b"x\n")
        kept.chmod(0o640)
        atomic_write(kept, b"y\n", backup=True)
        assert mode(kept) == 0o640 and kept.read_bytes() == b"y\n"
    finally:
        os.umask(old)


def test_private_files_are_never_wider_than_0600(tmp_path, monkeypatch):
    """Every mode the file has from creation to rename: 0600 at mkstemp, and no fchmod/chmod after."""
    from hxref.systems.heartland.cli import _write_private

    seen = []
    real_mkstemp = tempfile.mkstemp

    def spy_mkstemp(*args, **kwargs):
        fd, name = real_mkstemp(*args, **kwargs)
        seen.append(("mkstemp", stat.S_IMODE(os.fstat(fd).st_mode)))
        return fd, name

    monkeypatch.setattr(game_mod.tempfile, "mkstemp", spy_mkstemp)
    monkeypatch.setattr(game_mod.os, "fchmod", lambda fd, m: seen.append(("fchmod", m)))
    monkeypatch.setattr(game_mod.os, "chmod", lambda *a, **k: seen.append(("chmod", a)))
    old = os.umask(0)      # the worst umask: a file created by open(..., 0o666) would be world-writable
    try:
        plots = tmp_path / "union-plots.yaml"
        _write_private(plots, "# PRIVATE\nsecret: salt\n")
    finally:
        os.umask(old)
    assert seen == [("mkstemp", 0o600)]
    assert mode(plots) == 0o600 and plots.read_text() == "# PRIVATE\nsecret: salt\n"
    assert leftovers(tmp_path) == []


def test_commit_writes_the_reveal_file_0600(cli, game):
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    assert mode(cli.folder / "union-t1.bid-reveal.yaml") == 0o600
    assert mode(cli.folder / "union-t1.bid-commit.yaml") & 0o044     # the commitment is public


def test_commit_does_not_write_the_reveal_through_a_planted_link(cli, game):
    loot = cli.folder / "loot"
    loot.mkdir()
    os.symlink(loot / "reveal.yaml", cli.folder / "union-t1.bid-reveal.yaml")     # dangling on purpose
    err = cli.fails("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    assert "E502" in err
    assert list(loot.iterdir()) == []


# --- 3. a symlinked game path: one game, one lock, the link stays a link ------------------------------

def test_a_symlinked_game_stays_a_link_to_the_updated_target(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "g.yaml"
    target.write_bytes(b"old\n")
    link = tmp_path / "g.yaml"
    link.symlink_to("real/g.yaml")
    atomic_write(link, b"new\n", backup=True)
    assert link.is_symlink() and os.readlink(link) == "real/g.yaml"
    assert target.read_bytes() == b"new\n"
    assert (tmp_path / "real" / "g.yaml.bak").read_bytes() == b"old\n"
    assert not os.path.lexists(tmp_path / "g.yaml.bak")
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "real") == []


def test_the_link_and_its_target_share_one_lock(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "g.yaml"
    target.write_bytes(b"game\n")
    link = tmp_path / "g.yaml"
    link.symlink_to(target)
    with locked(link):
        with pytest.raises(Locked):
            with locked(target, wait=0.1):
                pass
    assert (tmp_path / "real" / "g.yaml.lock").exists() and not (tmp_path / "g.yaml.lock").exists()


def test_a_planted_lock_link_is_refused_in_one_line(tmp_path):
    (tmp_path / "g.yaml").write_bytes(b"game\n")
    os.symlink("victim.txt", tmp_path / "g.yaml.lock")
    with pytest.raises(InvalidInput) as e:
        with locked(tmp_path / "g.yaml"):
            pass
    assert e.value.code == "E510" and not (tmp_path / "victim.txt").exists()


def test_submit_through_a_symlinked_game_path(cli, game):
    folder = cli.folder
    (folder / "real").mkdir()
    os.replace(folder / game, folder / "real" / game)
    (folder / f"{game}.bak").unlink()
    (folder / game).symlink_to(f"real/{game}")
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")     # beside the real file
    cli("submit", game, "real/union-t1.bid-commit.yaml")
    assert (folder / game).is_symlink() and os.readlink(folder / game) == f"real/{game}"
    assert (folder / "real" / f"{game}.bak").is_file() and not os.path.lexists(folder / f"{game}.bak")
    cli("audit", game)
    cli("audit", f"real/{game}")
    # a second submission through the target sees the first: one game, not two
    cli.fails("submit", f"real/{game}", "real/union-t1.bid-commit.yaml")


# --- 4. OSError: one line, an E-code, exit 2, the game untouched, no temp file left -------------------

def fail_with(err: int):
    def raiser(*args, **kwargs):
        raise OSError(err, os.strerror(err))
    return raiser


@pytest.mark.parametrize("where, err, words", [
    ("fsync", errno.ENOSPC, "no space left on the device"),
    ("mkstemp", errno.EACCES, "permission denied"),
    ("replace", errno.EPERM, "permission denied"),
    ("link", errno.EROFS, "read-only"),
])
def test_a_failed_save_is_one_line_and_leaves_the_file(tmp_path, monkeypatch, where, err, words):
    game = tmp_path / "g.yaml"
    game.write_bytes(b"the game\n")
    target = game_mod.tempfile if where == "mkstemp" else game_mod.os
    monkeypatch.setattr(target, where, fail_with(err))
    with pytest.raises(InvalidInput) as e:
        atomic_write(game, b"half a game", backup=True)
    monkeypatch.undo()
    assert e.value.code == "E510" and words in e.value.render() and "\n" not in e.value.render()
    assert e.value.where.file == str(game)
    assert game.read_bytes() == b"the game\n" and leftovers(tmp_path) == []


@pytest.mark.parametrize("where, err, words", [
    ("fsync", errno.ENOSPC, "no space left on the device"),
    ("mkstemp", errno.EACCES, "permission denied"),
])
def test_disk_full_or_no_permission_during_submit(cli, game, monkeypatch, where, err, words):
    # root ignores file modes and a tiny tmpfs needs mount: the failure is injected where it would happen
    cli("commit", game, "--side", "union", "--key", "alice", "--choice", "bid: 3")
    before = (cli.folder / game).read_bytes()
    target = game_mod.tempfile if where == "mkstemp" else game_mod.os
    monkeypatch.setattr(target, where, fail_with(err))
    msg = cli.fails("submit", game, "union-t1.bid-commit.yaml")
    monkeypatch.undo()
    assert msg.startswith(f"hxref: error: {game}: cannot save: {words}") and msg.endswith("[E510]"), msg
    assert (cli.folder / game).read_bytes() == before
    assert leftovers(cli.folder) == []


def test_an_unexpected_oserror_is_still_one_line(cli, monkeypatch):
    import hxref.crypto.signing

    monkeypatch.setattr(hxref.crypto.signing, "generate_key", fail_with(errno.EIO))
    res = cli("keygen", "zed", code=2)
    one_line_error(res.stderr, "E510")
    assert "internal error" not in res.stderr


def test_an_unreadable_order_file_names_it(tmp_path, monkeypatch):
    f = tmp_path / "o.yaml"
    f.write_text("a: 1\n")
    monkeypatch.setattr("hxref.base.yamlio.os.open", fail_with(errno.EACCES))
    with pytest.raises(InvalidInput) as e:
        read_text(f)
    assert e.value.code == "E100" and e.value.render() == f"{f}: cannot read the file: permission denied [E100]"


# --- 5. only a regular file is read as an order file -------------------------------------------------

def test_read_text_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "orders.yaml"
    os.mkfifo(fifo)
    code = "import sys; from hxref.base.yamlio import read_text; read_text(sys.argv[1])"
    res = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=20)
    assert "not a regular file" in res.stderr and "E100" in res.stderr


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/null", "a folder"])
def test_read_text_refuses_devices_and_folders(tmp_path, name):
    path = Path(name) if name.startswith("/") else tmp_path / name
    if not path.exists():
        path.mkdir()
    with pytest.raises(InvalidInput) as e:
        read_text(path)
    assert e.value.code == "E100" and "not a regular file" in e.value.message


def test_check_refuses_a_fifo_order_file_quickly(cli, game):
    os.mkfifo(cli.folder / "fifo.yaml")
    res = run("check", game, "fifo.yaml", cwd=cli.folder, timeout=30)
    assert res.returncode == 2
    err = one_line_error(res.stderr, "E100")
    assert "fifo.yaml" in err and "not a regular file" in err


def test_submit_refuses_a_fifo_order_file_and_leaves_the_game(cli, game):
    os.mkfifo(cli.folder / "fifo.yaml")
    before = (cli.folder / game).read_bytes()
    res = run("submit", game, "fifo.yaml", cwd=cli.folder, timeout=30)
    assert res.returncode == 2 and "not a regular file" in one_line_error(res.stderr, "E100")
    assert (cli.folder / game).read_bytes() == before


# --- 6. a detached signature over a CRLF file: accepted exactly when ssh-keygen accepts it -------------

def ssh_keygen(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["ssh-keygen", *args], input=stdin, capture_output=True, timeout=60)


@needs_ssh_keygen
def test_detached_signature_over_a_crlf_file(cli):
    from hxref.crypto.signing import split_signed_text

    folder = cli.folder
    cli("new", "g.yaml", "--system", "heartland", "--scenario", "bidding-demo", "--mode", "open",
        "--game-id", "test-game", "--side", "union=alice.pub", "--side", "confederate=bob.pub")
    cli("join", "g.yaml", "--side", "union", "--key", "alice")
    cli("join", "g.yaml", "--side", "confederate", "--key", "bob")
    # the file the CLI wrote, without its embedded signature, as a Windows editor saves it
    body, _ = split_signed_text((folder / "union-join.yaml").read_text())
    crlf = folder / "union-crlf.yaml"
    crlf.write_bytes(body.replace("\n", "\r\n").encode())
    signed = ssh_keygen("-Y", "sign", "-f", str(folder / "alice"), "-n", "hxref", str(crlf))
    assert signed.returncode == 0, signed.stderr
    (folder / "allowed_signers").write_text(f"alice {(folder / 'alice.pub').read_text().strip()}\n")
    verified = ssh_keygen("-Y", "verify", "-f", str(folder / "allowed_signers"), "-I", "alice", "-n", "hxref",
                          "-s", str(folder / "union-crlf.yaml.sig"), stdin=crlf.read_bytes())
    assert verified.returncode == 0, verified.stderr
    cli("verify", str(crlf), "--sig", str(folder / "union-crlf.yaml.sig"))
    cli("submit", "g.yaml", str(crlf), "--sig", str(folder / "union-crlf.yaml.sig"))
    cli("submit", "g.yaml", "confederate-join.yaml")
    cli("audit", "g.yaml")
    # and one line ending changed: ssh-keygen refuses, so does hxref
    crlf.write_bytes(crlf.read_bytes().replace(b"\r\n", b"\n", 1))
    assert ssh_keygen("-Y", "verify", "-f", str(folder / "allowed_signers"), "-I", "alice", "-n", "hxref",
                      "-s", str(folder / "union-crlf.yaml.sig"), stdin=crlf.read_bytes()).returncode != 0
    assert "E201" in cli.fails("verify", str(crlf), "--sig", str(folder / "union-crlf.yaml.sig"))
