"""`pip install .` must ship every package and the data in games/ and orders/.

setup.py computes the package list (every package under hxref/), so a new game system's package
ships with no line added anywhere; a folder of modules without ``__init__.py`` would be left out.
"""
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_folder_of_modules_is_a_package():
    folders = {p.parent for p in (ROOT / "hxref").rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file())
    assert not missing, f"add an __init__.py (find_packages leaves these out): {missing}"


def test_data_folders_are_mapped():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert cfg["package-dir"]["hxref.data.games"] == "games"
    assert cfg["package-dir"]["hxref.data.orders"] == "orders"


def test_the_wheel_holds_every_module_and_the_data(tmp_path):
    # built from a copy, so the build leaves nothing in the checkout
    src = tmp_path / "src"
    for name in ("hxref", "games", "orders"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "wheel"), str(src)],
                   check=True, capture_output=True)
    names = set(zipfile.ZipFile(next((tmp_path / "wheel").glob("hxref-*.whl"))).namelist())
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "hxref").rglob("*.py") if "__pycache__" not in p.parts}
    assert modules <= names, sorted(modules - names)[:5]
    for folder, under in (("games", "hxref/data/games"), ("orders", "hxref/data/orders")):
        shipped = {str(p.relative_to(ROOT / folder)) for p in (ROOT / folder).rglob("*") if p.is_file()}
        assert {f"{under}/{s}" for s in shipped} <= names, folder
