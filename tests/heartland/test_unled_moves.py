"""8.22b: an unled stack is named by its hex (``unled@<hex>``), so its id changes when it moves; what
follows its move (captures, the attack check, the report, the map marks) finds it where it ends.  The
moves themselves are cases of games/heartland/cases/wagons_and_unled_moves.yaml."""
from __future__ import annotations

from hxref.systems.heartland.marks import marks


def test_8_22b_the_attack_arrow_of_an_unled_stack_starts_where_its_move_ended():
    # the enemy reader is told the move (named by the hex it left) and the passed check (named by the
    # hex it stands in), not the Assault marker's hex: the arrow still starts in 1213
    events = [{"type": "move", "side": "confederate", "force": "unled@1313", "path": ["1313", "1213"],
               "text": "unled units in 1313 moves 1313 > 1213"},
              {"type": "attack.check", "side": "confederate", "force": "unled@1213", "target": "1113",
               "passed": True},
              {"type": "combat", "target": "1113", "attacker": "confederate", "text": ""}]
    drawn = [m for m in marks(events, {}, "union") if m.kind == "attack"]
    assert drawn and drawn[0].at == ("1213", "1113")
