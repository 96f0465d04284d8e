"""Salem Church reads its charts and its map only from the :class:`~hxref.kit.charts.Charts` it is
bound to (:meth:`~hxref.kit.protocol.GameSystem.bind`): nothing of the package asks a context for
them, and a game plays with the charts it pinned, not with today's files."""
from __future__ import annotations

import hxref.systems.salem_church as package
from hxref.base.canon import sha256_hex
from hxref.kit.charts import Charts, Source
from hxref.systems.salem_church.system import SYSTEM
from tests.rules_imports import context_imports, context_readers, map_file_reads, map_readers, modules
from tests.salem_church.test_narration import PurposeDice

NAME = package.__name__


def test_the_checks_see_what_they_look_for():
    assert len(modules(package)) > 10                   # the package is where the checks look
    module = f"{NAME}.board"
    assert context_imports("from ...kit import data\n", module) == ["hxref.kit.data (line 1)"]
    assert context_imports("from ...kit.pins import held\n", module)
    assert context_imports("import hxref.kit.data\n", module)
    assert not context_imports("from ...kit.charts import Charts\n", module)
    assert map_file_reads("from ...geometry.mapfile import load_map\n", module)
    assert map_file_reads("from ...geometry import mapfile\nmapfile.load_map('x')\n", module)


def test_the_rules_import_nothing_that_reads_a_context():
    assert context_readers(package) == {}


def test_the_rules_read_the_games_map_only_through_its_charts():
    """A map file is read by the map reader only for a file the user names (a ``cli.py`` command)."""
    assert map_readers(package) == {}


# --- a game plays with its pinned chart -------------------------------------------------------------

#: Art/1 in 1508 with First/1, Wilcox/M 2 hexes off in 1306: in range and in its line of sight for fire
BATTERY = {"art-1": "1508", "first-1": "1509", "wilcox-m": "1306"}
ORDERS = {"moves": [], "attacks": [], "bombard": [{"unit": "art-1", "target": "1306"}]}


def pinned_bombardment(face_one: str) -> Charts:
    """The game's charts with a bombardment chart whose face 1 gives ``face_one``."""
    rel = "charts/bombardment.yaml"
    text = SYSTEM.charts.source(rel).text.replace("  1: none\n", f"  1: {face_one}\n")
    assert f"  1: {face_one}\n" in text
    src = Source("salem-church", rel, str(SYSTEM.info.games_path() / rel), sha256_hex(text.encode("utf-8")), True,
                 text)
    return Charts("salem-church", {rel: src})


def bombarded(system) -> int:
    """Wilcox/M's steps after Art/1 bombards him with a 1, the rules being ``system``."""
    st = system.setup(system.load_scenario("salem-church"))
    for u in st["units"].values():
        u["hex"] = None
    for uid, label in BATTERY.items():
        st["units"][uid]["hex"] = label
    st.update(turn=2, phasing="union", stage="play")
    dec = system.decisions(st)[0]
    assert system.check(st, dec, "union", ORDERS) == []
    after, _ = system.resolve(st, dec, {"union": ORDERS}, PurposeDice({"bombardment": 1}))
    return int(after["units"]["wilcox-m"]["steps"])


def test_a_bound_system_fires_on_the_games_pinned_chart_not_todays():
    steps = int(SYSTEM.setup(SYSTEM.load_scenario("salem-church"))["units"]["wilcox-m"]["steps"])
    assert bombarded(SYSTEM) == steps                                   # today's chart: a 1 does nothing
    assert bombarded(SYSTEM.bind(pinned_bombardment("step"))) == steps - 1
    assert bombarded(SYSTEM) == steps                                   # and the unbound rules are unchanged


def test_the_secrets_are_the_declared_kinds_read_on_the_games_map():
    """:meth:`SalemChurch.secrets` reads the declared kinds (``INFO.secret_kinds``) on the map the
    system is bound to; on today's map it says what the kinds say."""
    from hxref.kit.secret_kinds import values

    st = SYSTEM.setup(SYSTEM.load_scenario("salem-church"))
    st["units"]["wilcox-m"]["hex"] = "0609"
    st["units"]["first-1"]["hex"] = "2114"           # out of its sight
    st["stage"] = "play"
    for side in ("union", "confederate"):
        got = SYSTEM.secrets(st, side)
        assert got == values(st, side, SYSTEM.info.secret_kinds, NAME)
    assert "wilcox-m" in SYSTEM.secrets(st, "confederate")
