"""Write the golden playthroughs again: every audience's text report at every step of each
system's shipped demo (as OpenSpiel's playthroughs), checked by tests/conformance (g).

    python tools/regen_playthroughs.py                    # every system, Hex Duel included
    python tools/regen_playthroughs.py --system kgp       # one system

Each goes to ``<the system's games folder>/playthroughs/<demo>.txt`` (for the four systems
``games/<folder>/playthroughs/``; for Hex Duel ``tests/conformance/duel/games/playthroughs/``).
Run it when a change to what reports show, or to the demos, is meant; review the diff.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# the heads this run sees stay apart from the user's own (hxref.gamefile.heads)
os.environ.setdefault("HXREF_HOME", tempfile.mkdtemp(prefix="hxref-regen-home-"))

from hxref.kit import registry  # noqa: E402
from tests.conformance import harness  # noqa: E402
from tests.conformance.conftest import registered  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", action="append", help="only this system (repeatable)")
    args = ap.parse_args(argv)
    with registered():
        for name in args.system or registry.names():
            with tempfile.TemporaryDirectory() as work:
                text = harness.playthrough_text(name, harness.playthrough_steps(name, Path(work)))
            out = harness.playthrough_path(name)
            out.parent.mkdir(parents=True, exist_ok=True)
            old = out.read_text(encoding="utf-8") if out.is_file() else None
            out.write_text(text, encoding="utf-8")
            print(f"{'unchanged' if old == text else 'wrote'} {out.relative_to(ROOT)} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
