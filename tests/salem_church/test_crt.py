"""The Salem Church CRT (digest rules/salem-church.md section B) checked cell by cell.

The table below is a literal copy of the digest's B4 reconstruction ("+L" = the
cell also carries Leader); the shipped ``games/salem_church/charts/crt.yaml``
must say exactly the same.
"""
from __future__ import annotations

import copy

import pytest

from hxref.base.errors import InvalidInput
from hxref.base.paths import games_dir
from hxref.kit.charts import Charts
from hxref.systems.salem_church.crt import Affects, Crt, Kind, Result
from hxref.base.yamlio import load_data_fast

# --- B4, copied from the digest -----------------------------------------------------------------
B4_COLUMNS = ["<=-5", "-4..-3", "-2..-1", "0..+1", "+2..+3", "+4..+5", "+6..+7", "+8..+9", ">=+10"]
B4 = """
1 | Ax    | Ax        | Ax        | Ar        | Ac(NE) | Dc(Ex) | Dr        | Dr        | Dx
2 | Ax    | Ax        | Ar        | Ar        | Dc(Ex) | Dc(Ex) | Dr        | Dx        | Dm(Dr)
3 | Ax    | Ar        | Ar        | Ac(Ex)    | Dc(Ex) | Dr     | Dr        | Dm(Dr)    | Dm(Dr)
4 | Ar +L | Ar +L     | Ac(Ex) +L | Dc(Ex) +L | Dr +L  | Dr +L  | Dm(Dr) +L | Dm(Dr) +L | Dm(Dx) +L
5 | Ar    | Ac(NE)    | Dc(NE)    | Dr        | Dx     | Dm(Dr) | Dm(Dr)    | Dm(Dx)    | Dm(Dx)
6 | Ar    | Dc(NE)    | Dc(Dr)    | Dr        | Dm(Dr) | Dm(Dr) | Dm(Dx)    | Dm(Dx)    | Dm(Dx)
"""


def _b4() -> dict[tuple[int, str], tuple[str, bool]]:
    out = {}
    for line in B4.strip().splitlines():
        die, *cells = [c.strip() for c in line.split("|")]
        assert len(cells) == 9
        for label, cell in zip(B4_COLUMNS, cells):
            out[(int(die), label)] = (cell.removesuffix(" +L").strip(), cell.endswith("+L"))
    return out


B4_CELLS = _b4()


@pytest.fixture(scope="module")
def crt() -> Crt:
    return Crt.load(Charts.today("salem-church"))


def test_b1_nine_columns_as_the_digest_labels_them(crt):
    # B1: nine differential columns, <=-5 ... >=+10
    assert crt.labels == tuple(B4_COLUMNS)


@pytest.mark.parametrize("die,label", sorted(B4_CELLS))
def test_b4_cell_by_cell(crt, die, label):
    # B4: every one of the 54 cells, result and Leader line
    code, leader = B4_CELLS[(die, label)]
    r = crt.cell(label, die)
    assert r.code == code
    assert r.leader is leader


def test_b4_yaml_rows_are_the_digest_rows_verbatim():
    # B4: the YAML strings themselves (not only what the parser makes of them)
    data = load_data_fast(games_dir() / "salem_church" / "charts" / "crt.yaml")
    assert sorted(data["rows"]) == [1, 2, 3, 4, 5, 6]
    for die, row in data["rows"].items():
        for label, text in zip(B4_COLUMNS, row):
            code, leader = B4_CELLS[(die, label)]
            assert text == (f"{code} + Leader" if leader else code), (die, label)


def test_b5_7_leader_line_on_every_die_4_cell_and_nowhere_else(crt):
    # B5.7: 9 Leader items, one per column, all on die 4
    marked = [(d, c) for d in range(1, 7) for c in crt.labels if crt.cell(c, d).leader]
    assert marked == [(4, c) for c in crt.labels]


def test_chart_is_marked_stand_in_with_source(crt):
    assert crt.stand_in is True
    assert "003_dca046e0270f8215" in crt.source and "B4" in crt.source


# --- B4/B5.6: the two uncertain cells -----------------------------------------------------------
def test_b4_the_two_uncertain_cells_are_listed_with_notes(crt):
    assert [(u.row, u.column, u.printed, u.alternative) for u in crt.uncertain] == [
        (5, "+2..+3", "Dx", "Dr"),
        (6, "0..+1", "Dr", "Dx"),
    ]
    assert all("B5.6" in u.note for u in crt.uncertain)


def test_b4_uncertain_cell_is_reported_by_a_lookup(crt):
    assert crt.uncertain_at("+2..+3", 5).alternative == "Dr"
    assert crt.uncertain_at("0..+1", 6).alternative == "Dx"
    assert crt.uncertain_at("0..+1", 5) is None
    read = crt.read(3, 5)
    assert read.cell == "Dx" and read.uncertain is not None


def test_b2_leader_casualty_kills_on_5_and_6(crt):
    # CRT key: "on 5-6 that leader is killed"
    assert crt.leader_kills == frozenset({5, 6})


# --- B6: the look-up examples -------------------------------------------------------------------
B6 = [
    (-7, "<=-5", 1, "Ax"),
    (-5, "<=-5", 6, "Ar"),
    (-4, "-4..-3", 5, "Ac(NE)"),
    (-3, "-4..-3", 6, "Dc(NE)"),
    (-1, "-2..-1", 6, "Dc(Dr)"),
    (0, "0..+1", 1, "Ar"),
    (1, "0..+1", 3, "Ac(Ex)"),
    (2, "+2..+3", 1, "Ac(NE)"),
    (3, "+2..+3", 2, "Dc(Ex)"),
    (4, "+4..+5", 1, "Dc(Ex)"),
    (5, "+4..+5", 5, "Dm(Dr)"),
    (7, "+6..+7", 3, "Dr"),
    (8, "+8..+9", 2, "Dx"),
    (9, "+8..+9", 6, "Dm(Dx)"),
    (10, ">=+10", 1, "Dx"),
    (15, ">=+10", 2, "Dm(Dr)"),
]


@pytest.mark.parametrize("diff,label,die,code", B6)
def test_b6_lookup_examples(crt, diff, label, die, code):
    assert crt.column_for(diff) == label
    r = crt.lookup(diff, die)
    assert r.code == code and not r.leader


@pytest.mark.parametrize("diff", range(-12, 16))
def test_b6_die_4_any_column_gives_the_cell_plus_leader(crt, diff):
    r = crt.lookup(diff, 4)
    assert r.leader
    assert r.code == B4_CELLS[(4, crt.column_for(diff))][0]


# --- B1: the columns and their clamping ---------------------------------------------------------
@pytest.mark.parametrize("diff,label", [
    (-1000, "<=-5"), (-6, "<=-5"), (-5, "<=-5"),            # open at the left end
    (-4, "-4..-3"), (-3, "-4..-3"), (-2, "-2..-1"), (-1, "-2..-1"),
    (0, "0..+1"), (1, "0..+1"), (2, "+2..+3"), (3, "+2..+3"), (4, "+4..+5"), (5, "+4..+5"),
    (6, "+6..+7"), (7, "+6..+7"), (8, "+8..+9"), (9, "+8..+9"),
    (10, ">=+10"), (11, ">=+10"), (1000, ">=+10"),          # open at the right end
])
def test_b1_column_bands_and_clamping(crt, diff, label):
    assert crt.column_for(diff) == label


def test_b1_clamped_ends_read_the_end_cells(crt):
    assert crt.lookup(-40, 1).code == crt.cell("<=-5", 1).code == "Ax"
    assert crt.lookup(40, 6).code == crt.cell(">=+10", 6).code == "Dm(Dx)"


@pytest.mark.parametrize("die", [0, 7, -1])
def test_die_must_be_a_face_of_1d6(crt, die):
    with pytest.raises(ValueError, match="1d6"):
        crt.lookup(0, die)


def test_differential_must_be_a_whole_number(crt):
    with pytest.raises(TypeError):
        crt.column_for(1.5)


# --- B5.8: monotonic under both readings of the uncertain cells ---------------------------------
RANK = {"Ax": 0, "Ar": 1, "Ac(NE)": 2, "Ac(Ex)": 2, "Dc(NE)": 3, "Dc(Ex)": 4, "Dr": 5, "Dc(Dr)": 5,
        "Dx": 6, "Dm(Dr)": 7, "Dm(Dx)": 8}


@pytest.mark.parametrize("swap", [False, True])
def test_b5_8_rows_and_columns_never_get_worse_for_the_attacker(crt, swap):
    grid = {(d, c): crt.cell(c, d).code for d in range(1, 7) for c in crt.labels}
    if swap:
        for u in crt.uncertain:
            grid[(u.row, u.column)] = u.alternative
    for d in range(1, 7):
        ranks = [RANK[grid[(d, c)]] for c in crt.labels]
        assert ranks == sorted(ranks), f"row {d}"
    for c in crt.labels:
        ranks = [RANK[grid[(d, c)]] for d in range(1, 7)]
        assert ranks == sorted(ranks), f"column {c}"


# --- B2: every result code parsed ---------------------------------------------------------------
@pytest.mark.parametrize("text,affects,kind,bracket", [
    ("Ar", Affects.ATTACKER, Kind.RETREAT, None),
    ("Dr", Affects.DEFENDER, Kind.RETREAT, None),
    ("Ax", Affects.ATTACKER, Kind.RETREAT_OR_LOSS, None),
    ("Dx", Affects.DEFENDER, Kind.RETREAT_OR_LOSS, None),
    ("Ac(NE)", Affects.ATTACKER, Kind.RETREAT_CHECK, "NE"),
    ("Ac(Ex)", Affects.ATTACKER, Kind.RETREAT_CHECK, "Ex"),
    ("Dc(NE)", Affects.DEFENDER, Kind.RETREAT_CHECK, "NE"),
    ("Dc(Ex)", Affects.DEFENDER, Kind.RETREAT_CHECK, "Ex"),
    ("Dc(Dr)", Affects.DEFENDER, Kind.RETREAT_CHECK, "Dr"),
    ("Dm(Dr)", Affects.DEFENDER, Kind.ROUT_CHECK, "Dr"),
    ("Dm(Dx)", Affects.DEFENDER, Kind.ROUT_CHECK, "Dx"),
    ("Ex", Affects.BOTH, Kind.EXCHANGE, None),
    ("EX", Affects.BOTH, Kind.EXCHANGE, None),          # the key prints EX
    ("NE", Affects.NONE, Kind.NO_EFFECT, None),
    ("Leader", Affects.BOTH, Kind.LEADER, None),
])
def test_b2_parse_every_code(text, affects, kind, bracket):
    r = Result.parse(text)
    assert (r.code, r.affects, r.kind) == (text, affects, kind)
    assert (r.bracket.code if r.bracket else None) == bracket
    assert r.leader is (kind is Kind.LEADER)
    assert r.needs_mc is (kind in (Kind.RETREAT_CHECK, Kind.RETREAT_OR_LOSS, Kind.ROUT_CHECK))
    assert Result.parse(r.text) == r                 # parse/format pair


def test_b2_bracketed_result_is_itself_parsed():
    r = Result.parse("Dm(Dx)")
    assert r.bracket == Result.parse("Dx")
    assert r.bracket.kind is Kind.RETREAT_OR_LOSS and r.bracket.needs_mc


def test_b5_2_cell_with_leader_line():
    r = Result.parse("Dm(Dr) + Leader")
    assert r.leader and r.code == "Dm(Dr)" and r.kind is Kind.ROUT_CHECK
    assert r.text == "Dm(Dr) + Leader"
    assert r.without_leader() == Result.parse("Dm(Dr)")


@pytest.mark.parametrize("bad", ["", "Zz", "Dm", "Ac", "Ar(NE)", "Dc()", "Dc(Zz)", "Dm(Dm(Dr))", "Dr +",
                                 "Leader + Leader", "NE(Dr)", "dr", "Dx + Lead"])
def test_b2_malformed_codes_are_refused(bad):
    with pytest.raises(ValueError, match="CRT"):
        Result.parse(bad)


def test_b2_every_code_in_the_table_has_a_meaning(crt):
    used = set()
    for d in range(1, 7):
        for c in crt.labels:
            r = crt.cell(c, d)
            while r is not None:
                used.add(r.letters)
                r = r.bracket
    used.add("Leader")
    assert used <= set(crt.codes)
    for code in used:
        assert crt.codes[code].meaning and crt.codes[code].ja


# --- the loader: errors name the file and the key -----------------------------------------------
def _data() -> dict:
    return copy.deepcopy(load_data_fast(games_dir() / "salem_church" / "charts" / "crt.yaml"))


def _refused(data: dict, path_part: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as e:
        Crt.from_data(data, "crt-test.yaml")
    err = e.value
    assert err.where.file == "crt-test.yaml"
    assert path_part in (err.where.path or ""), err.render()
    return err


def test_loader_accepts_the_shipped_chart():
    assert Crt.from_data(_data(), "x.yaml").labels == tuple(B4_COLUMNS)


def test_loader_missing_key():
    d = _data()
    del d["rows"]
    assert _refused(d, "rows").code == "E111"


def test_loader_bad_column_label():
    d = _data()
    d["columns"][3] = "0-1"
    _refused(d, "columns[3]")


def test_loader_columns_with_a_gap():
    d = _data()
    d["columns"][3] = "+1..+1"
    _refused(d, "columns[3]")


def test_loader_row_of_wrong_length():
    d = _data()
    d["rows"][2] = d["rows"][2][:8]
    _refused(d, "rows.2")


def test_loader_missing_die_row():
    d = _data()
    del d["rows"][6]
    _refused(d, "rows")


def test_loader_unknown_code():
    d = _data()
    d["rows"][3][4] = "Dq"
    err = _refused(d, "rows.3[4]")
    assert "Dq" in err.message


def test_loader_uncertain_cell_must_match_the_table():
    d = _data()
    d["uncertain"][0]["printed"] = "Dr"
    _refused(d, "uncertain[0].printed")


def test_loader_code_meaning_must_agree_with_the_parser():
    d = _data()
    d["codes"]["Dr"]["affects"] = "attacker"
    _refused(d, "codes.Dr.affects")


def test_loader_code_used_without_a_meaning():
    d = _data()
    del d["codes"]["Dm"]
    _refused(d, "codes")


def test_loader_leader_faces():
    d = _data()
    d["leader_casualty"]["killed_on"] = [7]
    _refused(d, "leader_casualty.killed_on")
