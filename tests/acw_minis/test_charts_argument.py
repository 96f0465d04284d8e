"""The ACW rules read their table only from the :class:`~hxref.kit.charts.Charts` they are bound
to (:meth:`~hxref.kit.protocol.GameSystem.bind`): nothing of the package asks a context for it, and
a game plays on the table it pinned, not on today's file."""
from __future__ import annotations

import hxref.systems.acw_minis as package
from hxref.base.canon import sha256_hex
from hxref.kit.charts import Charts, Source
from hxref.systems.acw_minis.system import SYSTEM
from tests.acw_minis.test_club_table import CLUB_POND
from tests.rules_imports import context_readers, map_readers, modules

TABLE = "maps/mercers-mill.yaml"
#: us-3 (at (34, 4)) heads north up the Valley Road, where the club's pond lies
MOVE = {"moves": [{"unit": "us-3", "advance": 6}], "shots": []}


def test_the_rules_import_nothing_that_reads_a_context():
    assert len(modules(package)) > 5                    # the package is where the check looks
    assert context_readers(package) == {}


def test_the_rules_read_the_games_table_only_through_its_charts():
    """A map file is read by the map reader only for a file the user names (a ``cli.py`` command)."""
    assert map_readers(package) == {}


def pinned_pond() -> Charts:
    """The game's charts with its table as the published one with a pond across us-3's way."""
    text = SYSTEM.charts.source(TABLE).text.replace("areas:\n", "areas:\n" + CLUB_POND, 1)
    assert "Club Pond" in text
    src = Source("acw-minis", TABLE, str(SYSTEM.info.games_path() / TABLE), sha256_hex(text.encode("utf-8")), True,
                 text)
    return Charts("acw-minis", {TABLE: src})


def test_a_bound_system_plays_on_the_games_pinned_table_not_todays():
    state = SYSTEM.setup(SYSTEM.load_scenario("mercers-mill"))
    dec = SYSTEM.decisions(state)[0]
    assert SYSTEM.check(state, dec, "union", MOVE) == []                # today's table: the road is open
    bound = SYSTEM.bind(pinned_pond())
    problems = bound.check(state, dec, "union", MOVE)
    assert problems and "Club Pond" in problems[0].message and "A3" in problems[0].rule
    assert bound.map_view(bound.view(state, None, "open")).map_path == SYSTEM.info.games_path() / TABLE
    assert SYSTEM.check(state, dec, "union", MOVE) == []                # the unbound rules are unchanged
