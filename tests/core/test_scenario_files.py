"""A club's own scenario file: ``hxref new --scenario my-scenario.yaml`` (the words of docs/maps.md).

Every system that reads scenarios from ``games/<folder>/scenarios/`` also takes a file of one's
own, by a path relative to the working folder, and says which file is wrong when it is.  KGP's
scenarios are its Campaign Games, data of the system, not files a club writes."""
from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from hxref.cli import main
from hxref.referee.engine import Engine
from hxref.kit import registry

FILE_SYSTEMS = [n for n in registry.names() if any((registry.info(n).games_path() / "scenarios").glob("*.yaml"))]


def _shipped(system: str):
    return sorted((registry.info(system).games_path() / "scenarios").glob("*.yaml"))[-1]


def _new(tmp_path, monkeypatch, system: str, scenario: str):
    monkeypatch.chdir(tmp_path)
    sides = registry.info(system).sides
    args = ["new", "g.yaml", "--system", system, "--scenario", scenario, "--mode", "solo"]
    for s in sides:
        args += ["--side", s]
    return CliRunner().invoke(main, args)


def test_the_systems_with_scenario_files_are_found():
    assert {"acw-minis", "heartland", "salem-church"} <= set(FILE_SYSTEMS)


@pytest.mark.parametrize("system", FILE_SYSTEMS)
def test_a_scenario_file_of_ones_own_by_a_relative_path(system, tmp_path, monkeypatch):
    shipped = _shipped(system)
    shutil.copy(shipped, tmp_path / "my-scenario.yaml")
    out = _new(tmp_path, monkeypatch, system, "my-scenario.yaml")
    assert out.exit_code == 0, out.output
    eng = Engine.load(tmp_path / "g.yaml")
    assert eng.meta["scenario"] == "my-scenario.yaml"
    # the game holds the file's scenario, as the shipped one by name would give it
    by_name = registry.get(system).load_scenario(shipped.stem)
    assert eng.gf.log[0]["data"]["scenario"] == by_name


@pytest.mark.parametrize("system", FILE_SYSTEMS)
def test_a_missing_scenario_file_names_the_file(system, tmp_path, monkeypatch):
    out = _new(tmp_path, monkeypatch, system, "nope.yaml")
    assert out.exit_code == 2
    assert "nope.yaml" in out.output and "E503" in out.output and "Traceback" not in out.output
    assert not (tmp_path / "g.yaml").exists()


@pytest.mark.parametrize("system", FILE_SYSTEMS)
def test_a_scenario_file_that_is_no_mapping_is_refused(system, tmp_path, monkeypatch):
    (tmp_path / "bad.yaml").write_text("- a list\n- of things\n")
    out = _new(tmp_path, monkeypatch, system, "bad.yaml")
    assert out.exit_code == 2 and "bad.yaml" in out.output, out.output
    assert out.output.count("\n") == 1 and not (tmp_path / "g.yaml").exists()


@pytest.mark.parametrize("path", [p for n in FILE_SYSTEMS
                                  for p in sorted((registry.info(n).games_path() / "scenarios").glob("*.yaml"))],
                         ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_shipped_scenario_reads_the_same_with_the_strict_reader(path):
    """A new game reads a shipped scenario with the fast reader (a file of one's own with the strict
    one, for its line numbers): the strict reader, which refuses a duplicate key, finds the same data."""
    from hxref.base.yamlio import load_data, load_data_fast, to_plain

    assert to_plain(load_data(path)) == load_data_fast(path)


@pytest.mark.parametrize("system", FILE_SYSTEMS)
def test_a_scenario_file_with_a_duplicate_key_names_its_line(system, tmp_path, monkeypatch):
    text = _shipped(system).read_text(encoding="utf-8")
    (tmp_path / "dup.yaml").write_text(text + "sides: [again]\n")
    out = _new(tmp_path, monkeypatch, system, "dup.yaml")
    assert out.exit_code == 2 and "dup.yaml" in out.output and "E104" in out.output, out.output
    assert f"dup.yaml:{text.count(chr(10)) + 1}:" in out.output and not (tmp_path / "g.yaml").exists()
