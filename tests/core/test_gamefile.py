"""The game file: hash chain, atomic save with backup, lock (design section 3)."""
import multiprocessing
import time

import pytest

from hxref.errors import HxrefError, Locked
from hxref.game import GENESIS, GameFile, event_hash, locked, new_header


def make(tmp_path, n=3) -> GameFile:
    gf = GameFile(tmp_path / "g.yaml", new_header({"game": "g"}, {}))
    for i in range(n):
        gf.append("test", None, {"i": i, "text": "é ü \"quoted\" on yes 0777"})
    return gf


def test_hash_chain(tmp_path):
    gf = make(tmp_path)
    assert gf.log[0]["prev"] == GENESIS
    for a, b in zip(gf.log, gf.log[1:]):
        assert b["prev"] == a["hash"]
    assert all(event_hash(e) == e["hash"] for e in gf.log)
    assert gf.header["head"] == {"seq": 3, "hash": gf.head}


def test_save_load_round_trip_is_exact(tmp_path):
    gf = make(tmp_path)
    gf.header["state"] = {"s": "on", "n": "0777", "yes": [1, 2], "nested": {"x": None}}
    gf.save()
    again = GameFile.load(gf.path)
    assert again.header == gf.header and again.log == gf.log
    assert again.dumps() == gf.dumps()


def test_any_yaml_reader_reads_the_whole_file(tmp_path):
    from ruamel.yaml import YAML

    gf = make(tmp_path)
    gf.save()
    docs = list(YAML(typ="safe", pure=True).load_all(gf.path.read_text()))
    assert docs[0]["head"]["hash"] == gf.head
    assert [e["hash"] for e in docs[1]] == [e["hash"] for e in gf.log]


def test_save_keeps_a_backup_of_the_previous_version(tmp_path):
    gf = make(tmp_path)
    gf.save()
    first = gf.path.read_bytes()
    gf.append("test", None, {"i": 99})
    gf.save()
    assert (tmp_path / "g.yaml.bak").read_bytes() == first
    assert gf.path.read_bytes() != first
    assert not list(tmp_path.glob(".*tmp"))


def test_damaged_files_are_named(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text("just: yaml\n")
    with pytest.raises(HxrefError) as e:
        GameFile.load(p)
    assert e.value.code == "E500"
    gf = make(tmp_path)
    gf.save()
    text = p.read_text().replace('- {"by"', '- {"by" broken', 1)
    p.write_text(text)
    with pytest.raises(HxrefError) as e:
        GameFile.load(p)
    assert e.value.code == "E500" and e.value.where.line
    with pytest.raises(HxrefError) as e:
        GameFile.load(tmp_path / "missing.yaml")
    assert e.value.code == "E100"


def _hold(path, seconds, ready):
    with locked(path):
        ready.set()
        time.sleep(seconds)


def test_lock_refuses_a_second_writer(tmp_path):
    path = tmp_path / "g.yaml"
    ready = multiprocessing.Event()
    proc = multiprocessing.Process(target=_hold, args=(str(path), 1.5, ready))
    proc.start()
    try:
        assert ready.wait(5)
        with pytest.raises(Locked) as e:
            with locked(path, wait=0.2):
                pass
        assert "locked" in e.value.render() and e.value.code == "E501"
    finally:
        proc.join()
    with locked(path, wait=0.2):  # released when the holder exits
        pass


def test_lock_is_released_when_the_holder_dies(tmp_path):
    path = tmp_path / "g.yaml"
    ready = multiprocessing.Event()
    proc = multiprocessing.Process(target=_hold, args=(str(path), 30, ready))
    proc.start()
    assert ready.wait(5)
    proc.kill()
    proc.join()
    with locked(path, wait=1):
        pass


def test_header_has_no_anchors_for_shared_data(tmp_path):
    gf = make(tmp_path)
    shared = [1, 2]
    gf.header["state"] = {"a": shared, "b": shared}
    gf.save()
    text = gf.path.read_text()
    assert "&id" not in text and "*id" not in text
    assert GameFile.load(gf.path).header["state"] == {"a": [1, 2], "b": [1, 2]}
