"""The manual in docs/: every page the index lists is there, every relative link of the README,
the manual and the readings pages leads to a file, and every command has its line in
docs/commands.md (sqlite-utils' test_docs habit)."""
import re
from pathlib import Path

import click

from hxref.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "games" / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
         *sorted((ROOT / "games").glob("*/readings.md"))]


def test_every_link_leads_to_a_file():
    broken = []
    for page in PAGES:
        for link in re.findall(r"\]\(([^)#\s]+)", page.read_text(encoding="utf-8")):
            if "://" not in link and not (page.parent / link).exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
    assert not broken, broken


def test_the_index_lists_every_page():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for page in (ROOT / "docs").glob("*.md"):
        assert page.name == "README.md" or f"]({page.name})" in index, page.name


def test_every_command_is_in_the_command_list():
    listed = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    ctx = click.Context(main)
    missing = [name for name in main.list_commands(ctx) if f"`hxref {name}`" not in listed]
    assert not missing, f"docs/commands.md lacks {missing}"
