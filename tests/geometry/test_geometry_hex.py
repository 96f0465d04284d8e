"""Hex coordinates, printed labels, hexsides, distance, rings and exact lines."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.base.errors import InvalidInput
from hxref.geometry.hex import (
    AslLabels,
    Direction,
    FourDigit,
    Hex,
    HexGrid,
    HexSide,
    column_letters,
    column_number,
    direction_to,
    distance,
    hex_corners,
    hex_line,
    hex_range,
    hexside_ends,
    label_format,
    line_steps,
    ring,
)

hexes = st.builds(Hex, st.integers(-60, 60), st.integers(-60, 60))
parities = st.sampled_from(["even", "odd"])


# --------------------------------------------------------------------------
# four-digit labels (Musket & Sabre, Heartland)


def neighbour_labels(fmt, label):
    return sorted(fmt.format(n) for n in fmt.parse(label).neighbours())


def test_four_digit_known_answers_even_parity():
    fmt = FourDigit(parity="even")  # even columns sit lower: 0201 is below 0101
    assert fmt.parse("2114") == Hex(21, 3)
    assert fmt.format(Hex(21, 3)) == "2114"
    # column 21 is odd, so it is a high column: its east/west neighbours are rows 13 and 14
    assert neighbour_labels(fmt, "2114") == ["2013", "2014", "2113", "2115", "2213", "2214"]
    # column 12 is even (low): its neighbours in columns 11 and 13 are rows 4 and 5
    assert neighbour_labels(fmt, "1204") == ["1104", "1105", "1203", "1205", "1304", "1305"]
    assert distance(fmt.parse("0101"), fmt.parse("0201")) == 1
    assert distance(fmt.parse("0102"), fmt.parse("0201")) == 1
    assert distance(fmt.parse("0101"), fmt.parse("0202")) == 2


def test_four_digit_known_answers_odd_parity():
    fmt = FourDigit(parity="odd")  # odd columns sit lower
    assert neighbour_labels(fmt, "2114") == ["2014", "2015", "2113", "2115", "2214", "2215"]
    assert distance(fmt.parse("0101"), fmt.parse("0202")) == 1
    assert distance(fmt.parse("0101"), fmt.parse("0200")) == 2
    assert distance(fmt.parse("0101"), fmt.parse("0201")) == 1


def test_salem_church_distances():
    # Salem Church (0609) and the Schoolhouse (0610) are adjacent in either parity;
    # the Union entry hex 2114 is 15 columns east of Salem Church.
    for parity in ("even", "odd"):
        fmt = FourDigit(parity=parity)
        assert distance(fmt.parse("0609"), fmt.parse("0610")) == 1
        assert distance(fmt.parse("0609"), fmt.parse("2114")) == 15


def test_four_digit_accepts_yaml_integers():
    fmt = FourDigit()
    assert fmt.parse(305) == fmt.parse("0305")  # YAML 1.2 reads 0305 as 305
    assert fmt.parse(2114) == fmt.parse("2114")


@pytest.mark.parametrize("bad", ["211", "21145", "21a4", "", "２１１４", "-114"])
def test_four_digit_bad_labels_are_quoted(bad):
    with pytest.raises(InvalidInput) as exc:
        FourDigit().parse(bad)
    assert repr(bad) in exc.value.message
    assert "like '0203'" in exc.value.message


@given(st.integers(0, 99), st.integers(0, 99), parities)
def test_four_digit_round_trip(col, row, parity):
    fmt = FourDigit(parity=parity)
    label = f"{col:02d}{row:02d}"
    h = fmt.parse(label)
    assert fmt.format(h) == label
    assert fmt.to_offset(h) == (col, row)
    assert fmt.parse(fmt.format(h)) == h


@given(hexes, parities)
def test_axial_to_offset_round_trip(h, parity):
    fmt = FourDigit(parity=parity)
    assert fmt.to_hex(*fmt.to_offset(h)) == h


# --------------------------------------------------------------------------
# ASL labels (Kampfgruppe Peiper)


def test_column_letters():
    assert [column_letters(n) for n in (1, 10, 26, 27, 33, 37, 38, 39, 53)] == ["A", "J", "Z", "AA", "GG", "KK", "LL", "MM", "AAA"]
    assert column_number("GG") == 33
    with pytest.raises(ValueError):
        column_number("AB")


@pytest.mark.parametrize(
    "label, col, row",
    [("StJ14", 10, 14), ("StAA15", 27, 15), ("StGG1", 33, 1), ("StKK13", 37, 13), ("StB0", 2, 0)],
)
def test_asl_known_labels(label, col, row):
    fmt = AslLabels(board_prefix="St")
    h = fmt.parse(label)
    assert fmt.to_offset(h) == (col, row)
    assert fmt.format(h) == label
    assert fmt.parse(label[2:]) == h  # the prefix may be left out


def test_asl_other_boards():
    assert AslLabels("Ch").format(AslLabels("Ch").parse("ChLL7")) == "ChLL7"
    assert AslLabels("Lg").to_offset(AslLabels("Lg").parse("LgI20")) == (9, 20)
    assert AslLabels().parse("GG10") == AslLabels().to_hex(33, 10)


# Adjacencies printed in the KGP rules (digest rules/kgp.md): hexsides, a vertex
# and moves hex by hex.  They fix the parity: even-lettered columns sit lower.
KGP_HEXSIDES = ["StG9-F8", "K13-L13", "H11-H12", "H12-I13", "StJ6-K6", "ChX3-Y4", "StC20-D20", "ChB3-B4",
                "ChLL6-LL7", "StN17-O17", "O18-N18", "L13-L14", "StK11-K12"]


@pytest.mark.parametrize("text", KGP_HEXSIDES)
def test_kgp_printed_hexsides_are_adjacent(text):
    board = text[:2] if text[:2] in ("St", "Ch") else "St"
    fmt = AslLabels(board_prefix=board)
    side = fmt.parse_hexside(text)
    assert distance(*side.hexes) == 1


def test_kgp_vertex_and_moves():
    fmt = AslLabels("St")
    o17, o18, p17 = (fmt.parse(x) for x in ("O17", "O18", "P17"))
    assert distance(o17, o18) == distance(o17, p17) == distance(o18, p17) == 1
    for path in (["I13", "J13", "K13"], ["I14", "J13", "K14"]):
        hs = [fmt.parse(x) for x in path]
        assert all(distance(a, b) == 1 for a, b in zip(hs, hs[1:]))
    # and the other parity would break them
    other = AslLabels("St", parity="odd")
    assert distance(other.parse("G9"), other.parse("F8")) == 2


@pytest.mark.parametrize(
    "bad, words",
    [("ChJ14", "is on board 'Ch'; this map has board 'St'"), ("StJ", "not a hex label"), ("AB3", "'AB' is not a column"),
     ("j14", "column letters are capitals"), ("14J", "not a hex label")],
)
def test_asl_bad_labels(bad, words):
    with pytest.raises(InvalidInput) as exc:
        AslLabels("St").parse(bad)
    assert repr(bad) in exc.value.message and words in exc.value.message


def test_asl_prefix_on_a_map_without_one():
    with pytest.raises(InvalidInput, match="this map has no board prefix"):
        AslLabels().parse("StJ14")


@given(st.integers(1, 80), st.integers(0, 99), parities, st.sampled_from(["", "St", "Ch", "Lg", "RB"]))
def test_asl_round_trip(col, row, parity, prefix):
    fmt = AslLabels(board_prefix=prefix, parity=parity)
    label = f"{prefix}{column_letters(col)}{row}"
    h = fmt.parse(label)
    assert fmt.format(h) == label
    assert fmt.parse(fmt.format(h)) == h
    assert fmt.to_offset(h) == (col, row)


def test_label_format_by_name():
    assert label_format("four-digit", "odd") == FourDigit("odd")
    assert label_format("asl", board_prefix="St") == AslLabels("St")
    with pytest.raises(ValueError):
        label_format("hexagonal")
    with pytest.raises(ValueError):
        FourDigit(parity="left")


# --------------------------------------------------------------------------
# grid


def test_grid_bounds_and_order():
    grid = HexGrid(FourDigit(), (1, 3), (1, 2))
    assert [grid.label(h) for h in grid.hexes()] == ["0101", "0102", "0201", "0202", "0301", "0302"]
    assert len(grid) == 6
    assert grid.parse("0302") in grid
    with pytest.raises(InvalidInput, match="'0403' is not on this map; its hexes run from 0101 to 0302"):
        grid.parse("0403")
    assert sorted(grid.label(n) for n in grid.neighbours(grid.parse("0101"))) == ["0102", "0201"]


# --------------------------------------------------------------------------
# hexsides and directions


def test_hexside_identity():
    fmt = FourDigit()
    a, b = fmt.parse("2114"), fmt.parse("2115")
    assert HexSide(a, b) == HexSide(b, a)
    assert hash(HexSide(a, b)) == hash(HexSide(b, a))
    assert fmt.parse_hexside("2114/2115") == fmt.parse_hexside("2115/2114") == fmt.parse_hexside("2114-2115")
    assert fmt.format_hexside(HexSide(b, a)) == "2114/2115"
    assert len({HexSide(a, b), HexSide(b, a)}) == 1
    assert HexSide(a, b).other(a) == b
    assert HexSide(a, b).direction_from(a) == Direction.S


def test_hexside_of_non_adjacent_hexes():
    with pytest.raises(ValueError):
        HexSide(Hex(0, 0), Hex(2, 0))
    with pytest.raises(InvalidInput, match="'0305/0307' is not a hexside: 0305 and 0307 are not adjacent"):
        FourDigit().parse_hexside("0305/0307")
    with pytest.raises(InvalidInput, match="not a hexside"):
        FourDigit().parse_hexside("0305")


def test_kgp_hexside_format():
    fmt = AslLabels("St")
    assert fmt.format_hexside(fmt.parse_hexside("StG9-F8")) == "StF8-G9"
    assert fmt.parse_hexside("StF8-G9") == fmt.parse_hexside("G9/StF8")


def test_directions():
    o = Hex(0, 0)
    assert [o.neighbour(d) for d in Direction] == list(o.neighbours())
    assert o.neighbour("ne") == Hex(1, -1) and o.neighbour(Direction.S) == Hex(0, 1)
    assert direction_to(o, Hex(-1, 0)) == Direction.NW
    assert Direction.NE.opposite == Direction.SW
    with pytest.raises(ValueError):
        direction_to(o, Hex(2, 0))
    with pytest.raises(ValueError):
        Direction.of("up")


def test_direction_names_on_the_printed_map():
    fmt = FourDigit(parity="even")
    h = fmt.parse("0505")  # odd column, high
    names = {d.name: fmt.format(h.neighbour(d)) for d in Direction}
    assert names == {"N": "0504", "NE": "0604", "SE": "0605", "S": "0506", "SW": "0405", "NW": "0404"}


def test_hexside_ends_are_shared_corners():
    for d in Direction:
        a = Hex(3, -1)
        side = HexSide(a, a.neighbour(d))
        ends = hexside_ends(side, 10.0)
        shared = [p for p in hex_corners(side.a, 10.0) if any(abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9 for q in hex_corners(side.b, 10.0))]
        assert len(shared) == 2
        assert [c for p in sorted(ends) for c in p] == pytest.approx([c for p in sorted(shared) for c in p])


# --------------------------------------------------------------------------
# distance, rings, ranges


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, a) == 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a) >= 0
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, st.integers(0, 8))
def test_rings_and_ranges(c, r):
    rg = ring(c, r)
    assert len(rg) == max(1, 6 * r) == len(set(rg))
    assert all(distance(c, h) == r for h in rg)
    assert all(distance(x, y) == 1 for x, y in zip(rg, rg[1:]))
    area = hex_range(c, r)
    assert len(area) == 3 * r * (r + 1) + 1 == len(set(area))


def test_ring_starts_north_and_goes_clockwise():
    assert ring(Hex(0, 0), 1) == [Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0)]


# --------------------------------------------------------------------------
# lines


@given(hexes, hexes)
def test_line_length_is_distance_plus_one(a, b):
    steps = line_steps(a, b)
    assert len(steps) == distance(a, b) + 1
    assert steps[0] == (a,) and steps[-1] == (b,)
    for side in (0, 1):
        line = hex_line(a, b, side)
        assert len(line) == distance(a, b) + 1
        assert all(distance(x, y) == 1 for x, y in zip(line, line[1:]))


@given(hexes, hexes)
def test_line_ties_are_hexsides_and_symmetric(a, b):
    steps = line_steps(a, b)
    for s in steps:
        assert len(s) in (1, 2)
        if len(s) == 2:
            assert distance(*s) == 1
    back = line_steps(b, a)
    assert [set(s) for s in steps] == [set(s) for s in reversed(back)]


@settings(max_examples=50)
@given(hexes, st.integers(1, 12))
def test_lines_along_hexsides_tie_every_other_step(a, k):
    # due east (q + 2, r - 1) is exactly along hexsides between the NE and SE neighbours
    b = a + Hex(2, -1).scaled(k)
    steps = line_steps(a, b)
    assert [len(s) for s in steps] == [1, 2] * k + [1]
    # one hex off that direction, the line never ties
    assert all(len(s) == 1 for s in line_steps(a, b + Hex(1, 0)))


def test_line_art():
    # A line from 0101 due east to 0501 runs along hexsides: the art marks the
    # hexes of the line; x|y pairs are the two sides of a hexside.
    #   0101  (0201|0202)  0301  (0401|0402)  0501       (odd parity: odd columns low)
    fmt = FourDigit(parity="odd")
    steps = line_steps(fmt.parse("0101"), fmt.parse("0501"))
    assert [sorted(fmt.format(h) for h in s) for s in steps] == [["0101"], ["0201", "0202"], ["0301"], ["0401", "0402"], ["0501"]]
    # the straight column line has no ties
    assert [fmt.format(h) for h in hex_line(fmt.parse("0301"), fmt.parse("0305"))] == ["0301", "0302", "0303", "0304", "0305"]


def test_module_examples():
    import doctest

    import hxref.geometry.hex
    import hxref.geometry.paths

    for mod in (hxref.geometry.hex, hxref.geometry.paths):
        assert doctest.testmod(mod).failed == 0
