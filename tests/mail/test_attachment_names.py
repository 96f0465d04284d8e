"""A file a mail carries travels under the name the command that wrote it gave it: the decision,
then the kind, each once (``union-t1.bid-commit.yaml``; a join ``union-join.yaml``, a proof
``union-proof.yaml``, whose decision is named like its kind)."""
from __future__ import annotations

from pathlib import Path

from hxref.referee import bundle
from hxref.referee.engine import Engine


def test_a_join_travels_under_the_name_hxref_join_gave_it(cli, game):
    _, files = bundle.files_for(Engine.load(Path(game)), "union")
    joins = [a for a in files if a.kind == "join"]
    assert [a.name for a in joins] == ["confederate-join.yaml"]
    assert Path(joins[0].name).read_text() == joins[0].text


def test_a_decision_named_like_its_kind_is_named_once():
    assert bundle.file_name("union", "proof", "proof") == "union-proof.yaml"     # as `hxref challenge` writes it
    assert bundle.file_name("union", "t1.bid", "commit") == "union-t1.bid-commit.yaml"
    assert bundle.file_name("union", "t1.i1.orders", "answer") == "union-t1.i1.orders.yaml"
