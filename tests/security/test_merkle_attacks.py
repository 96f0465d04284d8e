"""Attacks on the salted Merkle commitment to a side's organisation boxes, run as the attacker
would run them.

Two attackers.  The committer holds his secret, every salt and every value: he wants to open a box
with another value than he committed, or to choose between two values when the rules ask.  The
opponent holds only the public list of box names, the signed roots and the openings the rules
have made: he wants to learn an unopened box, or learn that a box did not change.
"""
from __future__ import annotations

import dataclasses
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hxref.base.errors import InvalidInput
from hxref.crypto import merkle

SECRET = b"the union player's secret, kept on his machine"
AOD = {
    "I Corps": {"leader": "Reynolds", "units": [{"id": "1/I", "steps": 3}, {"id": "2/I", "steps": 2}]},
    "II Corps": {"leader": "Hancock", "units": [{"id": "1/II", "steps": 4}]},
    "III Corps": {"leader": "Sickles", "units": [{"id": "1/III", "steps": 2}]},
    "wep": 7,
}
NAMES = sorted(AOD)          # public: the verifier knows which boxes there are


def committed(aod=AOD, label="head-0001"):
    return merkle.commit(aod, merkle.salts(SECRET, label, aod))


def _node(left_hex: str, right_hex: str) -> str:
    return hashlib.sha256(b"\x01" + bytes.fromhex(left_hex) + bytes.fromhex(right_hex)).hexdigest()


# --- the committer ------------------------------------------------------------------------------

def test_opening_another_value_than_committed():
    tree = committed()
    honest = tree.open("II Corps")
    assert merkle.verify(tree.root, NAMES, honest)
    stronger = {"leader": "Hancock", "units": [{"id": "1/II", "steps": 6}]}
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, value=stronger))
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, value=7))


def test_opening_with_another_salt():
    tree = committed()
    honest = tree.open("wep")
    for salt in ("00" * 32, merkle.salts(SECRET, "head-0002", NAMES)["wep"], tree.open("I Corps").salt):
        assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, salt=salt))
        assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, salt=salt, value=9))


def test_leaf_of_another_commitment_opened_against_this_root():
    old = committed({**AOD, "wep": 12}, label="head-0001")
    now = committed(AOD, label="head-0002")
    # the box was worth more at an earlier head: its old, honest opening does not open the new root
    stale = old.open("wep")
    assert merkle.verify(old.root, NAMES, stale)
    assert not merkle.verify(now.root, NAMES, stale)
    # nor does the same value under the same label's salt at another head
    assert not merkle.verify(now.root, NAMES, committed(AOD, label="head-0001").open("wep"))


def test_interior_node_presented_as_leaf():
    tree = committed()                       # four boxes: ((I, II), (III, wep))
    leaves = [merkle.leaf_hash(n, tree.open(n).salt, AOD[n]) for n in NAMES]
    left_pair, right_pair = _node(leaves[0], leaves[1]), _node(leaves[2], leaves[3])
    assert _node(left_pair, right_pair) == tree.root
    # the committer knows the interior node's preimage (0x01 || leaf I || leaf II) and dresses it
    # as box I Corps of a two-leaf tree: leaf I as the salt, leaf II as the value, the right pair
    # as the sibling; were the left pair accepted as a leaf, this path would lead to the root
    forged = merkle.Opening(NAMES[0], leaves[0], leaves[1], 0, 2, (right_pair,))
    assert not merkle.verify(tree.root, NAMES, forged)                  # the public list has four
    assert not merkle.verify(tree.root, NAMES[:2], forged)              # and a leaf is never a node
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(forged, size=4))
    # a leaf's preimage starts with 0x00, a node's with 0x01: no box hashes to the node
    assert merkle.leaf_hash(NAMES[0], leaves[0], leaves[1]) != left_pair


def test_committer_with_two_leaves_of_one_name_opens_the_one_that_suits_him():
    # the public list is a, b, c, d; he builds his own tree a, b (3 steps), b (9 steps), d by hand
    public = ["a", "b", "c", "d"]
    salt = {n: "%02x" % i * 32 for i, n in enumerate(["a", "b3", "b9", "d"])}
    leaves = [merkle.leaf_hash("a", salt["a"], 1), merkle.leaf_hash("b", salt["b3"], 3),
              merkle.leaf_hash("b", salt["b9"], 9), merkle.leaf_hash("d", salt["d"], 1)]
    low, high = _node(leaves[0], leaves[1]), _node(leaves[2], leaves[3])
    root = _node(low, high)
    weak = merkle.Opening("b", salt["b3"], 3, 1, 4, (leaves[0], high))
    strong = merkle.Opening("b", salt["b9"], 9, 2, 4, (leaves[3], low))
    assert merkle.verify(root, public, weak)            # b is at index 1 of the sorted list
    assert not merkle.verify(root, public, strong)      # the path is right, the index is not b's
    assert not merkle.verify(root, public, dataclasses.replace(strong, index=1))


def test_path_of_the_wrong_length():
    tree = committed()
    honest = tree.open("III Corps")
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, path=honest.path[:-1]))
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, path=honest.path + (tree.root,)))
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, path=()))


def test_index_past_the_size():
    tree = committed()
    honest = tree.open("wep")
    for index in (4, 5, 2**64):
        assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, index=index))
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, index=-1))
    assert not merkle.verify(tree.root, NAMES, dataclasses.replace(honest, size=5))


def test_name_not_in_the_public_list():
    extra = {**AOD, "Cavalry Corps": {"leader": "Pleasonton", "units": []}}
    tree = committed(extra)
    secret_box = tree.open("Cavalry Corps")
    assert merkle.verify(tree.root, sorted(extra), secret_box)
    assert not merkle.verify(tree.root, NAMES, secret_box)
    renamed = dataclasses.replace(tree.open("wep"), name="WEP")
    assert not merkle.verify(tree.root, NAMES + ["WEP"], renamed)


# --- the opponent --------------------------------------------------------------------------------

def test_opponent_cannot_guess_a_small_value_of_an_unopened_box():
    aod = {"III Corps": AOD["III Corps"], "wep": 7}
    tree = committed(aod)
    # what he holds: the public names, the root, and the opening of III Corps after a combat,
    # whose path is the leaf of the unopened box `wep`
    root, opened = tree.root, tree.open("III Corps")
    wep_leaf = opened.path[0]
    assert merkle.leaf_hash("wep", tree.open("wep").salt, 7) == wep_leaf       # it is that leaf
    salts_he_might_try = ["00" * 32, "ff" * 32, opened.salt, root, hashlib.sha256(b"wep").hexdigest(),
                          merkle.salts(b"", "head-0001", ["wep"])["wep"]]
    guesses = [(s, v) for s in salts_he_might_try for v in range(1001)
               if merkle.leaf_hash("wep", s, v) == wep_leaf]
    assert guesses == []
    # with the salt, one pass over 0..1000 would have found it: the salt is what protects it
    real = tree.open("wep").salt
    assert [v for v in range(1001) if merkle.leaf_hash("wep", real, v) == wep_leaf] == [7]


def test_unchanged_box_gets_a_different_leaf_in_every_commitment():
    before = committed({**AOD, "I Corps": {"leader": "Reynolds", "units": []}}, label="head-0001")
    after = committed(AOD, label="head-0002")
    # he sees the leaf of wep (unchanged) in the paths of III Corps's openings at both heads
    assert before.open("III Corps").path[0] == merkle.leaf_hash("wep", before.open("wep").salt, 7)
    assert before.open("III Corps").path[0] != after.open("III Corps").path[0]
    # and the changed I Corps looks no different from the unchanged II Corps: both leaves are new
    assert before.open("II Corps").path[0] != after.open("II Corps").path[0]
    assert before.open("I Corps").path[0] != after.open("I Corps").path[0]
    # the same head gives the same salts: a side can commit again and get the same root
    assert committed(AOD, label="head-0002").root == after.root


# --- malformed openings ----------------------------------------------------------------------------

def _rejected(data) -> str:
    with pytest.raises(InvalidInput) as caught:
        merkle.Opening.from_data(data, "combat-12.yaml")
    line = caught.value.render()
    assert "\n" not in line and line.startswith("combat-12.yaml: ")
    return line


GOOD = committed().open("II Corps").to_data()


DROP = object()


@pytest.mark.parametrize("change, words", [
    ({"salt": DROP}, "lacks `salt`"),
    ({"path": DROP}, "lacks `path`"),
    ({"umpire": "me"}, "unknown key 'umpire'"),
    ({"salt": "zz" * 32}, "`salt` must be 32 bytes"),
    ({"salt": "AB" * 32}, "`salt` must be 32 bytes"),
    ({"path": ["00" * 31, "00" * 32]}, "`path` must be a list of hashes"),
    ({"path": "00" * 64}, "`path` must be a list of hashes"),
    ({"index": True}, "`index` must be a whole number, not true or false"),
    ({"size": 4.0}, "`size` must be a whole number, not a number"),
    ({"index": 10**30}, "`index` must be between 0 and 3"),
    ({"index": -1}, "`index` must be between 0 and 3"),
    ({"size": 2**70}, "`size` must be between 1 and 65536"),
    ({"size": 0, "index": 0}, "`size` must be between 1"),
    ({"path": [GOOD["path"][0]]}, "`path` holds 1 hashes where leaf 1 of 4 has 2"),
    ({"name": ""}, "`name` must be a box's name, not text"),
    ({"name": 3}, "`name` must be a box's name, not a number"),
    ({"value": float("nan")}, "`value` must be plain data"),
    ({"value": {1: "a", "1": "b"}}, "`value` must be plain data"),
])
def test_malformed_opening_is_one_line_naming_the_file(change, words):
    data = {k: v for k, v in {**GOOD, **change}.items() if v is not DROP}
    assert words in _rejected(data)


def test_opening_that_is_not_a_mapping():
    assert "an opening is a mapping" in _rejected(["name", "salt"])
    assert "not null" in _rejected(None)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(sorted(GOOD)), value=JSONISH)
def test_any_one_field_replaced_is_read_or_refused_in_one_line(field, value):
    data = {**GOOD, field: value}
    try:
        opening = merkle.Opening.from_data(data, "combat-12.yaml")
    except InvalidInput as error:
        assert "\n" not in error.render()
    else:
        assert opening.to_data() == merkle.Opening.from_data(opening.to_data(), "x").to_data()


@settings(max_examples=200, deadline=None)
@given(data=JSONISH | st.dictionaries(st.sampled_from(sorted(GOOD)) | st.text(max_size=5), JSONISH))
def test_any_data_is_read_or_refused_in_one_line(data):
    try:
        merkle.Opening.from_data(data, "combat-12.yaml")
    except InvalidInput as error:
        assert "\n" not in error.render()
