"""Salted Merkle commitments to organisation boxes: every box of every size opens and verifies, the
order the boxes were written in does not matter, and the byte format is pinned by hand."""
import base64
import hashlib
import hmac

import pytest

from hxref.crypto import merkle


def boxes(n):
    """``n`` boxes of a display, named so that their sorted order is not their written order."""
    return {f"box-{(7 * i) % n:02d}-{i}": {"leader": f"L{i}", "units": [{"steps": i % 4}], "ml": i % 6}
            for i in range(n)}


@pytest.mark.parametrize("n", range(1, 34))
def test_every_box_opens_and_verifies(n):
    aod = boxes(n)
    tree = merkle.commit(aod, merkle.salts(b"secret", "head-1", aod))
    assert tree.names == tuple(sorted(aod))
    for index, name in enumerate(tree.names):
        opening = tree.open(name)
        assert (opening.name, opening.value, opening.index, opening.size) == (name, aod[name], index, n)
        assert len(opening.path) == merkle.path_length(index, n)
        assert merkle.verify(tree.root, list(aod), opening)
        read = merkle.Opening.from_data(opening.to_data(), "opening.yaml")
        assert read == opening
        assert merkle.verify(tree.root, list(aod), read)


def test_root_does_not_depend_on_the_order_boxes_were_written_in():
    aod = boxes(11)
    salts = merkle.salts(b"secret", "head-1", aod)
    backwards = dict(reversed(list(aod.items())))
    assert list(backwards) != list(aod)
    assert merkle.commit(backwards, salts).root == merkle.commit(aod, salts).root


def test_an_opening_is_a_copy_of_what_was_committed():
    aod = {"a": {"steps": 3}}
    tree = merkle.commit(aod, merkle.salts(b"secret", "head-1", aod))
    aod["a"]["steps"] = 9
    assert tree.open("a").value == {"steps": 3}
    assert merkle.verify(tree.root, ["a"], tree.open("a"))


def test_three_boxes_known_answer():
    sha = hashlib.sha256
    secret, label = b"k" * 32, "0f" * 32
    aod = {"c": [1, 2], "a": {"ml": 3}, "b": None}
    salt = {n: hmac.new(secret, b"hxref-salt/1\x00" + label.encode() + b"\x00" + n.encode(), sha).hexdigest()
            for n in "abc"}
    assert merkle.salts(secret, label, aod) == salt
    leaf = {n: sha(b"\x00hxref-box/1\x00" + b"\x00\x00\x00\x01" + n.encode() + bytes.fromhex(salt[n]) + j).digest()
            for n, j in (("a", b'{"ml":3}'), ("b", b"null"), ("c", b"[1,2]"))}
    ab = sha(b"\x01" + leaf["a"] + leaf["b"]).digest()
    root = sha(b"\x01" + ab + leaf["c"]).hexdigest()

    tree = merkle.commit(aod, salt)
    assert tree.root == root
    assert merkle.leaf_hash("b", salt["b"], None) == leaf["b"].hex()
    assert tree.open("a").path == (leaf["b"].hex(), leaf["c"].hex())
    assert tree.open("b").path == (leaf["a"].hex(), leaf["c"].hex())
    assert tree.open("c").path == (ab.hex(),)
    assert tree.open("a").to_data() == {"name": "a", "salt": salt["a"], "value": {"ml": 3}, "index": 0,
                                        "size": 3, "path": [leaf["b"].hex(), leaf["c"].hex()]}
    # what a proof gives of this root: the leaves one after the other, in base64
    assert merkle.pack_leaves(tree.leaves()) == base64.b64encode(leaf["a"] + leaf["b"] + leaf["c"]).decode()
    assert merkle.root_of_leaves(tree.leaves()) == root


def test_one_box_is_its_own_root():
    salt = "5a" * 32
    tree = merkle.commit({"only": 4}, {"only": salt})
    assert tree.root == merkle.leaf_hash("only", salt, 4)
    assert tree.open("only").path == ()
    assert merkle.verify(tree.root, ["only"], tree.open("only"))


def test_audit_path_lengths_follow_the_tree_shape():
    # RFC 6962 2.1: 5 leaves split 4 + 1, so the last leaf has one sibling and the others three
    assert [merkle.path_length(i, 5) for i in range(5)] == [3, 3, 3, 3, 1]
    assert [merkle.path_length(i, 8) for i in range(8)] == [3] * 8
    assert [merkle.path_length(i, 7) for i in range(7)] == [3, 3, 3, 3, 3, 3, 2]


def test_the_tree_keeps_values_and_salts_out_of_its_repr():
    salt = "5a" * 32
    text = repr(merkle.commit({"hidden": {"steps": 17}}, {"hidden": salt}))
    assert salt not in text and "17" not in text


def test_commit_needs_a_salt_for_every_box():
    with pytest.raises(ValueError, match="no salt for the boxes b"):
        merkle.commit({"a": 1, "b": 2}, {"a": "00" * 32})
    with pytest.raises(ValueError, match="64 lower-case hex"):
        merkle.commit({"a": 1}, {"a": "00"})


def test_a_public_list_with_a_name_twice_is_a_caller_error():
    tree = merkle.commit({"a": 1}, {"a": "00" * 32})
    with pytest.raises(ValueError, match="twice"):
        merkle.verify(tree.root, ["a", "a"], tree.open("a"))


# --- the leaves a proof gives ------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 34))
def test_the_leaves_rebuild_the_root_and_each_is_its_box_s(n):
    aod = boxes(n)
    salts = merkle.salts(b"secret", "head-1", aod)
    tree = merkle.commit(aod, salts)
    leaves = tree.leaves()
    assert [h.hex() for h in leaves] == [merkle.leaf_hash(name, salts[name], aod[name]) for name in tree.names]
    assert merkle.root_of_leaves(leaves) == tree.root
    assert merkle.unpack_leaves(merkle.pack_leaves(leaves)) == leaves


def test_leaves_in_another_order_or_one_changed_do_not_rebuild_the_root():
    aod = boxes(5)
    tree = merkle.commit(aod, merkle.salts(b"secret", "head-1", aod))
    leaves = list(tree.leaves())
    swapped = [leaves[1], leaves[0], *leaves[2:]]
    changed = [*leaves[:4], hashlib.sha256(b"another box").digest()]
    assert merkle.root_of_leaves(swapped) != tree.root
    assert merkle.root_of_leaves(changed) != tree.root
    assert merkle.root_of_leaves(leaves[:4]) != tree.root


@pytest.mark.parametrize("text,why", [
    (None, "not null"),
    ("a b", "not base64"),
    ("AAAA", "3 bytes"),
    ("", "0 bytes"),
])
def test_leaves_in_another_form_are_refused(text, why):
    with pytest.raises(ValueError, match=why):
        merkle.unpack_leaves(text)
