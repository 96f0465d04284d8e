"""``hxref decrypt``: open an encrypted side report without the age tool.

The main command line registers :data:`decrypt` (lazily, like ``map``); the
work is done by :func:`hxref.crypto.crypt.decrypt_with`.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..base.errors import InvalidInput


@click.command("decrypt")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--key", "key_path", required=True,
              help="your private key file (the one the game knows you by; passphrase: $HXREF_PASSPHRASE)")
@click.option("--out", "-o", default=None, type=click.Path(dir_okay=False),
              help="write the report to this file (readable by you only) instead of printing it")
def decrypt(file, key_path, out):
    """Decrypt FILE, a side's report encrypted to your key (an age file; - reads stdin).

    Reports made with `hxref report --encrypt` are standard age files: the
    age and rage tools open them too (age -d -i KEY FILE).  An armored report
    pasted into an e-mail can be decrypted from the saved message as it is.

    \b
    Example:
      hxref decrypt union-report.txt.age --key alice
      hxref decrypt union-report.html.age --key ~/.ssh/id_ed25519 -o union.html
    """
    from ..crypto.crypt import decrypt_with

    if file == "-":
        data, source = sys.stdin.buffer.read(), "<stdin>"
    else:
        source = file
        try:
            data = Path(file).read_bytes()
        except FileNotFoundError:
            raise InvalidInput("file not found", code="E100", file=file) from None
        except OSError as exc:
            raise InvalidInput(f"file cannot be read ({exc.strerror})", code="E100", file=file) from None
    plain = decrypt_with(os.path.expanduser(key_path), data, source=source)
    if out is None:
        click.echo(plain, nl=False)
        return
    _write_private(Path(out), plain)
    click.echo(f"wrote {out}")


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` atomically, mode 0600 from the first byte (a random temporary file, no
    symlink followed): a decrypted report is secret."""
    from ..base.files import atomic_write

    atomic_write(path, data, private=True)
