"""Conformance of claims: for each of the four systems' shipped demos, at each of its first decisions,
every party that sends a file there is in turn the late one.  The others send their files for
that decision (what the protocol lets them send without his), then a claimant (the other side in
an open game, the umpire in an umpired one) signs a claim against him past the deadline and its
grace; what the claim makes possible follows (the claimant's reveal, the other links), and the
game resolves.  Every claim taken live, whatever it claims (a missing commitment or answer, a
withheld reveal or link), gives a game that `hxref audit` accepts.
"""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.security.replay import DEMOS, GAME, Copy, file_info, manifest, phase_order, segments

#: past every demo decision's deadline and grace (the demos' files are signed at their creation
#: time, 2026-11-29; the default policy gives 7 days and 2 days' grace)
CLAIM_DAY = "2026-12-30T00:00:00Z"
#: the decisions tried, as segments of the manifest after the joins
FIRST, LAST = 1, 3


def _keys(copy: Copy, man: dict) -> dict[str, str]:
    """Every participant's private key (the demo keys), in the copy's keys folder."""
    out = {}
    for side, pub in {**man["keys"], **({"umpire": man["umpire"]} if man.get("umpire") else {})}.items():
        src = copy.src / pub[: -len(".pub")]
        dst = copy.work / "keys" / src.name
        shutil.copy(src, dst)
        dst.chmod(0o600)
        out[side] = str(dst)
    return out


def _send(copy: Copy, files: list[str]) -> None:
    """Submit each file, keeping those refused for now and sending them again after the next one
    is taken (as a player keeps a file that came too early)."""
    waiting = list(files)
    progress = True
    while waiting and progress:
        progress = False
        for f in list(waiting):
            if copy.hxref("submit", GAME, str(copy.src / f), day=CLAIM_DAY, code=None).exit_code == 0:
                waiting.remove(f)
                progress = True


def _branch(src: Path, man: dict, game_bytes: bytes, seg_files: list[str], late: str, tmp: Path) -> bool:
    """From the game at a segment's start: everyone but ``late`` sends, a claim against ``late``
    follows, then the rest; True when the claim was taken.  The game must audit either way."""
    copy = Copy(tmp, src, man)
    copy.game.write_bytes(game_bytes)
    keys = _keys(copy, man)
    others = [f for f in seg_files if file_info(src, f).side != late]
    _send(copy, phase_order(src, others))
    claimant = "umpire" if man["mode"] == "umpired" else next(s for s in man["keys"] if s != late)
    (copy.work / "claims").mkdir()
    res = copy.hxref("claim", GAME, "--side", claimant, "--key", keys[claimant], "--against", late,
                     "--dir", "claims", day=CLAIM_DAY, code=None)
    taken = False
    if res.exit_code == 0:
        claim = next((copy.work / "claims").iterdir())
        taken = copy.hxref("submit", GAME, str(claim), day=CLAIM_DAY, code=None).exit_code == 0
        _send(copy, phase_order(src, others))
        key = ["--key", keys["umpire"]] if man["mode"] == "umpired" else []
        copy.hxref("resolve", GAME, *key, day=CLAIM_DAY, code=None)
    out = copy.audit(CLAIM_DAY).output
    assert "audit OK" in out, f"{man['system']}: claim against {late}: {out}"
    return taken


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_every_claim_taken_live_audits(system):
    src = DEMOS[system]
    man = manifest(src)
    segs = segments(man)
    taken = 0
    with tempfile.TemporaryDirectory(prefix="hxref-claims-") as tmp:
        main = Copy(Path(tmp) / "main", src, man)
        main.new(man["created"])
        for n, seg in enumerate(segs[: LAST + 1]):
            if n >= FIRST:
                for late in sorted({file_info(src, f).side for f in seg.files} - {"umpire"}):
                    taken += _branch(src, man, main.game.read_bytes(), seg.files, late,
                                     Path(tmp) / f"claim-{n}-{late}")
            for step in seg.steps:
                main.submit(step, man["created"])
            if seg.resolve:
                main.resolve(man["created"])
    assert taken, f"{system}: no claim was taken"
