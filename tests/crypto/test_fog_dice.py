"""The dice and salts of a game played with hidden armies (hxref.crypto.fog, PurposeDice): two
copies that know different things agree on every roll both can make, and a roll one side alone may
see is that side's, bound by the seed its join committed to."""
from __future__ import annotations

import hashlib

from hxref.crypto import fog, merkle
from hxref.crypto.dice import PurposeDice, dice_seed
from hxref.crypto.signing import generate_key

GAME = "ab" * 32


def _public_seed(union_link: str, confederate_link: str) -> bytes:
    return dice_seed(GAME, "t1.reorg", [("confederate", confederate_link), ("union", union_link)])


def test_a_purpose_rolls_the_same_in_two_copies_whatever_else_each_asked():
    seed = _public_seed("11" * 32, "22" * 32)
    union_copy = PurposeDice(seed, secrets={"union": b"u" * 32, "confederate": None})
    confederate_copy = PurposeDice(seed, secrets={"union": None, "confederate": b"c" * 32})
    # the Union copy rolls attrition for three units of its own, the Confederate copy for the two it believes in
    for uid in ("u1", "u2", "u3"):
        union_copy.roll(f"attrition {uid}", visible_to=["union"])
    for uid in ("u1", "u2"):
        confederate_copy.roll(f"attrition {uid}", visible_to=["union"])
    union_copy.roll("supply recheck 0512", count=2)
    assert [union_copy.roll("weather", count=2) for _ in range(3)] == \
        [confederate_copy.roll("weather", count=2) for _ in range(3)]
    assert union_copy.d6("supply recheck 0512") == confederate_copy.roll("supply recheck 0512", count=3)[2]


def test_a_roll_one_side_may_see_is_unknown_to_the_other_copy_and_differs_from_its_stand_in():
    seed = _public_seed("11" * 32, "22" * 32)
    owner = PurposeDice(seed, secrets={"union": b"u" * 32, "confederate": None})
    other = PurposeDice(seed, secrets={"union": None, "confederate": b"c" * 32})
    mine = owner.roll("attrition u1", count=20, visible_to=["union"])
    guess = other.roll("attrition u1", count=20, visible_to=["union"])
    assert owner.rolls[0].known and not other.rolls[0].known
    assert mine != guess
    # and it is not the public stream of that purpose either: the public links alone do not give it
    public = PurposeDice(seed).roll("attrition u1", count=20)
    assert mine != public


def test_the_owner_cannot_steer_a_secret_die_the_other_link_decides_it(tmp_path):
    key = generate_key(tmp_path / "union")
    seed = fog.fog_seed(key, GAME, "00" * 32)
    secret = fog.secret_dice(seed, GAME, "t1.reorg")
    faces = set()
    for other_link in ("22" * 32, "33" * 32, "44" * 32, "55" * 32):
        d = PurposeDice(_public_seed("11" * 32, other_link), secrets={"union": secret})
        faces.add(tuple(d.roll("attrition u1", count=8, visible_to=["union"])))
    assert len(faces) == 4


def test_the_fog_seed_is_the_keys_own_bound_by_the_joins_commitment(tmp_path):
    key = generate_key(tmp_path / "union")
    other = generate_key(tmp_path / "other")
    seed = fog.fog_seed(key, GAME, "00" * 32)
    assert seed == fog.fog_seed(key, GAME, "00" * 32)          # made again from the key alone
    assert seed != fog.fog_seed(key, GAME, "01" * 32)          # a new join draws a new nonce
    assert seed != fog.fog_seed(other, GAME, "00" * 32)
    commitment = fog.seed_commitment(seed)
    assert commitment == hashlib.sha256(b"hxref-fog-seed/1\x00" + seed).hexdigest()
    assert fog.seed_commitment(fog.fog_seed(other, GAME, "00" * 32)) != commitment


def test_box_salts_differ_by_commitment_so_an_unchanged_box_looks_new():
    seed = b"s" * 32
    names = ["leader:bragg", "track"]
    at_7 = fog.box_salts(seed, "aa" * 32 + "@7", names)
    at_9 = fog.box_salts(seed, "bb" * 32 + "@9", names)
    box = {"wep": 120}
    assert merkle.commit({"track": box, "leader:bragg": {}}, at_7).root != \
        merkle.commit({"track": box, "leader:bragg": {}}, at_9).root
    assert at_7 == fog.box_salts(seed, "aa" * 32 + "@7", names)
    assert fog.box_salts(b"t" * 32, "aa" * 32 + "@7", names) != at_7
