"""`hxref template` for the Reorganization Segment's sealed orders (12.0-13.x, 4.32): the command it
prints runs as printed, and its notes give the format of every order, administration's replacements
({unit, steps, leader}) with the side's replacement steps, so a player need not learn them from refusals."""
from __future__ import annotations

import copy
import shlex

from hxref.referee.engine import Engine
from tests import played
from tests.core.test_templates import GAME, Demo, hx


def _at_reorganization(tmp_path, monkeypatch) -> Engine:
    monkeypatch.chdir(tmp_path)
    heartland = played.demo("heartland")
    monkeypatch.setenv("HXREF_NOW", heartland.manifest()["created"])
    demo = Demo(heartland, tmp_path)
    for eng in demo.steps():
        if eng.awaiting and eng.awaiting[0].kind == "reorg":
            return eng
    raise AssertionError("the demo reaches no Reorganization Segment")


def test_the_command_the_reorganization_template_prints_runs_as_printed(tmp_path, monkeypatch):
    eng = _at_reorganization(tmp_path, monkeypatch)
    dec = eng.awaiting[0]
    for f in tmp_path.glob(f"confederate-{dec.id}-*.yaml"):     # the demo's own files, copied in
        f.unlink()
    out = hx("template", GAME, "--side", "confederate").output
    command = out.rstrip("\n").splitlines()[-1]
    assert command.startswith(f"hxref commit {GAME} --side confederate --key YOUR_KEY --choice ")
    args = shlex.split(command.replace("YOUR_KEY", "keys/confederate"))
    res = hx(*args[1:], code=None)
    assert res.exit_code == 0, res.output
    assert (tmp_path / f"confederate-{dec.id}-commit.yaml").exists()
    # the format of the orders, with what the side has to spend (its own Number Track, 3.16)
    assert "choice.administration.replacements: a list of {unit, steps, leader?}" in out
    assert "Replacement steps on your Number Track: 0" in out
    assert "c10: 1 of 2, strother (AP 0)" in out            # the demo's reduced Confederate unit
    assert "reorganization.py" not in out


def test_a_replacement_written_as_the_template_shows_it_is_accepted(tmp_path, monkeypatch):
    """The format the notes give ({unit, steps, leader}) is the one the checker reads (4.32)."""
    eng = _at_reorganization(tmp_path, monkeypatch)
    st, dec = copy.deepcopy(eng.state), eng.awaiting[0]
    st["replacements"] = {"confederate": 1}
    st["leaders"]["strother"]["ap"] = 1
    view = eng.system.view(st, "confederate", eng.mode)
    notes = "\n".join(eng.system.template(view, dec, "confederate").notes)
    assert "Replacement steps on your Number Track: 1" in notes
    order = {"administration": {"replacements": [{"unit": "c10", "steps": 1, "leader": "strother"}]}}
    assert eng.system.check(st, dec, "confederate", order) == []
    found = eng.system.check(st, dec, "confederate", {"administration": {"replacements": [
        {"unit": "c10", "steps": 2, "leader": "strother"}]}})
    assert found and found[0].rule == "4.32"
