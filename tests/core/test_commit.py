"""Commit-reveal hashing (design section 5)."""
import hashlib

from hypothesis import given
from hypothesis import strategies as st

from hxref.crypto import commit
from hxref.base.canon import canonical_json


def test_commitment_formula():
    salt = "ab" * 32
    expected = hashlib.sha256(b"hxref-commit/1" + b'{"bid":4}' + bytes.fromhex(salt)).hexdigest()
    assert commit.commitment({"bid": 4}, salt) == expected


def test_canonical_json_ignores_key_order():
    assert canonical_json({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'.encode()


@given(bid=st.integers(0, 6), other=st.integers(0, 6))
def test_matches_only_the_committed_choice(bid, other):
    salt = commit.new_salt()
    c = commit.commitment({"bid": bid}, salt)
    assert commit.matches(c, {"bid": bid}, salt)
    assert commit.matches(c, {"bid": other}, salt) == (bid == other)
    assert not commit.matches(c, {"bid": bid}, commit.new_salt())


def test_bad_salt_never_matches():
    c = commit.commitment({"bid": 1}, "00" * 32)
    assert not commit.matches(c, {"bid": 1}, "00")
    assert not commit.matches(c, {"bid": 1}, "zz" * 32)
