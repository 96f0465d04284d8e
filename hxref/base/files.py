"""Files read and written safely: a regular file only, written atomically.

A game file, a report, an order file and a key are all written by :func:`atomic_write` (a crash
leaves the old file or the new one, never a mix) and read by :func:`read_regular` (a named pipe
or a device put in a file's place cannot hang a command).
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from .errors import cannot_write


def read_regular(path: Path, limit: int = -1) -> bytes:
    """The bytes of the regular file at ``path`` (up to ``limit``): opened without blocking and
    refused unless it is a regular file, so a named pipe or a device put where a game file is
    expected cannot hang or flood a command (OSError, as for a file that cannot be read)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        return fh.read(limit)


def atomic_write(path: Path, data: bytes | list[bytes], *, backup: bool = False, private: bool = False) -> None:
    """Write ``data`` (bytes, or pieces written one after another) to ``path`` so that a crash
    leaves the old or the new file, never a mix.

    With ``backup`` the previous version is kept as ``path.bak`` (itself
    replaced atomically).  A symlinked ``path`` stays a link and its target
    gets the new data.  The temporary file is made by ``mkstemp`` in the same
    folder (a random name, ``O_EXCL``, mode 0600), so a symlink planted in a
    shared folder is never followed.  The file keeps the mode of the one it
    replaces (0644, less the umask, for a new one); a ``private`` one stays
    0600 from its first byte.  An OSError (disk full, no permission) becomes
    one line, E510, naming the file.
    """
    shown = path
    path = Path(os.path.realpath(path))
    folder = path.parent
    made: list[str] = []        # temporary names still to remove if we stop half-way
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        made.append(tmp)
        with os.fdopen(fd, "wb") as fh:
            if not private:
                os.fchmod(fh.fileno(), _public_mode(path))
            if isinstance(data, bytes):
                fh.write(data)
            else:
                fh.writelines(data)
            fh.flush()
            os.fsync(fh.fileno())
        if backup and path.exists():
            # a random name again; os.link never follows or overwrites what is there
            bak_tmp = str(folder / f".{path.name}.{os.urandom(8).hex()}.bak.tmp")
            os.link(path, bak_tmp)
            made.append(bak_tmp)
            os.replace(bak_tmp, folder / (path.name + ".bak"))
            made.remove(bak_tmp)
        os.replace(tmp, path)
        made.remove(tmp)
    except OSError as exc:
        raise cannot_write(shown, exc) from None
    finally:
        for name in made:
            with contextlib.suppress(OSError):
                os.unlink(name)
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError as exc:
        raise cannot_write(shown, exc, "the new file is in place but may not survive a power cut",
                           what="make the save durable") from None


def _public_mode(path: Path) -> int:
    """The mode for a file that is not private: that of the file it replaces, else 0644 less the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o644 & ~umask
