"""Line of sight: heights, obstacles, lines along hexsides, hexside obstacles, adjustments."""
from __future__ import annotations

from pathlib import Path

from hexart import parse_art
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.geometry.hex import FourDigit, Hex, HexSide
from hxref.geometry.los import LosResult, SightTerrain, line_of_sight, sight_line, upslope_bonus
from hxref.geometry.mapfile import load_map

ROOT = Path(__file__).resolve().parents[2]


def terrain_from_art(art: str, heights: dict[str, tuple[float, float]], parity: str = "even"):
    """Art characters -> (ground level, obstacle height)."""
    grid, cells = parse_art(art, parity)
    return grid, SightTerrain(
        ground=lambda h: heights[cells.get(h, ".")][0],
        obstacle=lambda h: heights[cells.get(h, ".")][1],
    )


HEIGHTS = {".": (0, 0), "w": (0, 1), "h": (1, 0), "H": (2, 0), "P": (0, 2)}


def test_open_ground_and_woods():
    grid, t = terrain_from_art(
        """
        . . . . .
        . . w . .
        . . . . .
        """,
        HEIGHTS,
    )
    p = grid.parse
    assert line_of_sight(t, p("0101"), p("0103")).visible
    # due east from 0102 to 0502: along 0201|0202, through 0302 (the woods), along 0401|0402
    line = sight_line(t, p("0102"), p("0502"))
    assert [sorted(grid.label(h) for h in s.hexes) for s in line.steps] == [["0102"], ["0201", "0202"], ["0302"], ["0401", "0402"], ["0502"]]
    res = line_of_sight(t, p("0102"), p("0502"))
    assert not res.visible and res.blocking == p("0302")
    assert line_of_sight(t, p("0101"), p("0501")).visible  # the row above the woods
    blocked = line_of_sight(t, p("0301"), p("0303"))
    assert not blocked and blocked.blocking == p("0302") and "higher than the line of sight" in blocked.reason


def test_hill_observer_sees_over_woods_near_him_not_near_the_target():
    # one column, observer on a level-2 hill at 0101, target at ground level 0105.
    # The sight line falls from 2 to 0: at step i it is 2 (4 - i) / 4.
    t_near = SightTerrain(ground=lambda h: 2 if h == Hex(1, 0) else 0, obstacle=lambda h: 1 if h == Hex(1, 2) else 0)
    t_far = SightTerrain(ground=lambda h: 2 if h == Hex(1, 0) else 0, obstacle=lambda h: 1 if h == Hex(1, 3) else 0)
    a, b = Hex(1, 0), Hex(1, 4)
    assert line_of_sight(t_near, a, b).visible  # woods top 1 = line height 1 at the half-way hex: not higher
    res = line_of_sight(t_far, a, b)  # woods top 1 > line height 0.5
    assert not res.visible and res.blocking == Hex(1, 3)


def test_along_a_hexside_blocked_only_if_both_sides_block():
    # Odd parity: from 0101 due east to 0501 the line runs along the hexsides
    # 0201|0202 and 0401|0402.
    art_one = """
    . w . . .
    . . . . .
    """
    art_both = """
    . w . . .
    . w . . .
    """
    grid, one = terrain_from_art(art_one, HEIGHTS, parity="odd")
    _, both = terrain_from_art(art_both, HEIGHTS, parity="odd")
    a, b = grid.parse("0101"), grid.parse("0501")
    assert line_of_sight(one, a, b).visible
    res = line_of_sight(both, a, b)
    assert not res.visible
    assert res.blocking == HexSide(grid.parse("0201"), grid.parse("0202"))
    assert "both hexes block" in res.reason


def test_hexside_obstacles():
    fmt = FourDigit()
    a, wall_a, wall_b, b = (fmt.parse(x) for x in ("0301", "0302", "0303", "0304"))
    wall = HexSide(wall_a, wall_b)
    t = SightTerrain(ground=lambda h: 0, hexside=lambda s: 0.5 if s == wall else 0)
    res = line_of_sight(t, a, b)
    assert not res and res.blocking == wall
    # a wall on the observer's own hexside does not block him
    assert line_of_sight(t, wall_b, fmt.parse("0306")).visible
    assert line_of_sight(t, wall_a, b).visible
    # seen from above the wall, it does not block
    assert line_of_sight(t, a, b, observer_level=1, target_level=1).visible
    touches = sight_line(t, a, b).sides
    assert [x.kind for x in touches] == ["crossed"] * 3 and touches[1].top == 0.5


def test_salem_church_hills_block_unless_both_on_hills():
    # Hill hexes are one level up: two units on hills see over a hill between
    # them; a unit off the hills does not.
    grid, t = terrain_from_art("h\n.\nh\nh\nh", {".": (0, 0), "h": (1, 0)})  # one column, rows 1-5
    p = grid.parse
    assert line_of_sight(t, p("0103"), p("0105")).visible  # hill to hill over a hill
    assert line_of_sight(t, p("0101"), p("0105")).visible  # hill to hill over the valley and the hills
    res = line_of_sight(t, p("0102"), p("0104"))  # from the valley, the hill in 0103 blocks
    assert not res and res.blocking == p("0103")


def test_kgp_upslope_bonus_is_a_hook():
    # Observer in 0301, target in 0305 (one column, both at level 0).  Brush
    # half a level high in 0302.  The hexside 0301/0302 is a slope whose
    # hachures are drawn in 0302, so 0301 is Up-Slope across it: +3/4.
    fmt = FourDigit()
    o, near, tgt = fmt.parse("0301"), fmt.parse("0302"), fmt.parse("0305")
    slope = HexSide(o, near)
    t = SightTerrain(ground=lambda h: 0, obstacle=lambda h: 0.5 if h == near else 0)
    assert not line_of_sight(t, o, tgt)  # 0.5 > 0
    up = upslope_bonus(lambda s: near if s == slope else None, 0.75)
    res = line_of_sight(t, o, tgt, adjustments=[up])
    assert res.visible and res.line.observer_height == 0.75  # at 0302 the line is 0.75 * 3/4 = 0.5625 > 0.5
    # drawn in the observer's own hex: he is Down-Slope, no bonus
    down = upslope_bonus(lambda s: o if s == slope else None, 0.75)
    assert not line_of_sight(t, o, tgt, adjustments=[down])
    # the reverse LOS: the target end gets the bonus, so LOS stays reciprocal
    assert line_of_sight(t, tgt, o, adjustments=[up]).visible
    # a slope the line does not cross does nothing
    other = upslope_bonus(lambda s: fmt.parse("0201") if s == HexSide(o, fmt.parse("0201")) else None, 0.75)
    assert not line_of_sight(t, o, tgt, adjustments=[other])


def test_an_adjustment_may_decide():
    # Salem Church heavy woods "block LOS into" the hex: an adjustment says so.
    woods = Hex(0, 3)
    t = SightTerrain(ground=lambda h: 0)

    def heavy_woods(line):
        if line.target == woods:
            return LosResult(False, woods, "heavy woods block LOS into the hex", line)
        return line

    res = line_of_sight(t, Hex(0, 0), woods, adjustments=[heavy_woods])
    assert not res and res.blocking == woods
    assert line_of_sight(t, Hex(0, 0), Hex(0, 4), adjustments=[heavy_woods])


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4)), st.tuples(st.integers(0, 3), st.sampled_from([0, 0.5, 1, 2])), max_size=40),
    st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4)),
    st.builds(Hex, st.integers(-4, 4), st.integers(-4, 4)),
    st.sampled_from([0, 0.25, 0.75, 1]),
    st.sampled_from([0, 0.5, 1]),
)
def test_los_is_reciprocal(cells, a, b, la, lb):
    t = SightTerrain(ground=lambda h: cells.get(h, (0, 0))[0], obstacle=lambda h: cells.get(h, (0, 0))[1])
    ab = line_of_sight(t, a, b, la, lb)
    ba = line_of_sight(t, b, a, lb, la)
    assert ab.visible == ba.visible
    if not ab.visible:
        assert ab.blocking is not None


def test_los_on_the_kgp_sample_map():
    m = load_map(ROOT / "games/kgp/maps/sample.yaml")
    t = m.sight_terrain()
    p = m.parse
    assert t.ground(p("StJ11")) == 2 and t.obstacle(p("StJ11")) == 2  # pine woods: 2-level obstacle (KGP 1.2)
    res = line_of_sight(t, p("StJ13"), p("StJ9"))
    assert not res and res.blocking == p("StJ12")  # the level-1 hillside
    # from the crest (level 2 in I11) down the slope to I15; the pine woods in J11 hide L12
    assert line_of_sight(t, p("StI11"), p("StI15")).visible
    assert line_of_sight(t, p("StI11"), p("StL12")).blocking == p("StJ11")
    assert t.hexside(m.grid.parse_hexside("StL11-L12")) == 0.5  # the wall
