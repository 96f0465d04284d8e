"""The game file: hash chain, atomic save with backup, lock (design section 3)."""
import multiprocessing
import time

import pytest

from hxref.base.errors import HxrefError, Locked
from hxref.gamefile.game import GENESIS, GameFile, event_hash, locked, new_header


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
    lines = p.read_text().split("\n")
    broken = next(i for i, line in enumerate(lines) if line.startswith('- {"by"')) + 1     # the event's line
    p.write_text(p.read_text().replace('- {"by"', '- {"by" broken', 1))
    loaded = GameFile.load(p)           # the log is parsed as far as it is read: the damage shows there
    with pytest.raises(HxrefError) as e:
        list(loaded.log)
    assert e.value.code == "E500" and e.value.where.line == broken
    p.write_text(p.read_text().replace('- {"by" broken', '{"by"', 1))       # a line that is no event
    with pytest.raises(HxrefError) as e:
        GameFile.load(p)
    assert e.value.code == "E500" and e.value.where.line == broken
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


def test_the_log_is_written_back_as_it_was_read(tmp_path):
    """A save writes the stored lines byte for byte and serialises only what was added or changed."""
    gf = make(tmp_path, n=50)
    gf.save()
    before = gf.path.read_bytes()
    again = GameFile.load(gf.path)
    assert again.dump_bytes() == before                 # nothing read, nothing changed
    assert again.log[-1]["data"]["i"] == 49 and again.log[0]["data"]["i"] == 0
    assert again.dump_bytes() == before                 # read, unchanged
    again.append("test", None, {"i": 50, "text": "é ü \"quoted\" on yes 0777"})
    grown = again.dump_bytes()
    assert grown.split(b"\n--- # log")[1].startswith(before.split(b"\n--- # log")[1])
    fresh = make(tmp_path, n=51)                        # the same events made in memory write the same bytes
    fresh.header = again.header
    assert fresh.dump_bytes() == grown


def test_an_event_changed_in_place_is_written_as_changed(tmp_path):
    """Whoever holds the file may change a loaded event (so the tamper tests do): the change is saved."""
    gf = make(tmp_path, n=20)
    gf.save()
    again = GameFile.load(gf.path)
    again.log[7]["data"]["i"] = "forged"
    again.log[0]["data"]["i"] = "forged too"
    again.save()
    third = GameFile.load(gf.path)
    assert [ev["data"]["i"] for ev in third.log] == ["forged too", *range(1, 7), "forged", *range(8, 20)]
    del third.log[3]                                    # a change other than at the end: all written anew
    third.save()
    assert len(GameFile.load(gf.path).log) == 19


def test_a_yaml_header_of_an_earlier_hxref_is_still_read(tmp_path):
    from hxref.base import yamlio
    from hxref.gamefile.game import LOG_MARKER

    gf = make(tmp_path)
    text = "# hxref game file.\n" + yamlio.dump_fast(gf.header) + LOG_MARKER + "\n"
    text += "".join(line + "\n" for line in gf.dumps().split(LOG_MARKER + "\n")[1].splitlines())
    gf.path.write_text(text)
    again = GameFile.load(gf.path)
    assert again.header == gf.header and again.log == gf.log
