"""Each system's rules readings sit beside its case book, in ``games/<folder>/readings.md``: every
reading names the case files or tests that pin it, those files exist, and at least one of them
cites a rule the reading names (a sub-rule counts for its rule: 8.603 for 8.6, 13.2 for 13.x)."""
import re
from pathlib import Path

import pytest

from hxref.kit import registry

ROOT = Path(__file__).resolve().parents[2]
RULE = re.compile(r"(?<![\w.])(?:\d{1,2}\.(?:\d{1,4}[a-z]?|x)|CG\d+[a-z]?|[IV]{1,3}\.\d+|[A-H]\d{1,2})(?![\w])")
PINNED = re.compile(r"`((?:tests|games)/[^`\s]+\.(?:py|yaml))`")

FOLDERS = sorted(i.data_folder for i in registry.infos() if (ROOT / "games" / i.data_folder / "cases").is_dir())


def readings(text: str) -> list[str]:
    """The top-level bullets of a readings page, each with its continuation lines."""
    found: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("- "):
            found.append([line])
            inside = True
        elif inside and line.startswith("  "):
            found[-1].append(line)
        else:
            inside = False
    return ["\n".join(b) for b in found]


def cites(text: str, rule: str) -> bool:
    stem = rule[:-1] if rule.endswith(".x") else rule
    return re.search(rf"(?<![\w.]){re.escape(stem)}(?![A-Za-z])", text) is not None


def test_the_readings_pages_are_found():
    assert {"heartland", "salem_church", "kgp", "acw_minis"} <= set(FOLDERS)


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_reading_names_what_pins_it(folder):
    page = ROOT / "games" / folder / "readings.md"
    assert page.is_file(), f"{page.relative_to(ROOT)}: the system's rules readings, beside its cases"
    items = readings(page.read_text(encoding="utf-8"))
    assert len(items) >= 5
    for item in items:
        title = item.splitlines()[0][:70]
        pins = [p for p in PINNED.findall(item) if p.startswith(("tests/", f"games/{folder}/cases/"))]
        assert pins, f"{folder}: '{title}' names no case file or test"
        missing = [p for p in pins if not (ROOT / p).is_file()]
        assert not missing, f"{folder}: '{title}' names files that are not there: {missing}"
        rules = RULE.findall(item.splitlines()[0]) or RULE.findall(item)
        if rules:
            texts = [(ROOT / p).read_text(encoding="utf-8") for p in pins]
            assert any(cites(t, r) for t in texts for r in rules), \
                f"{folder}: '{title}': none of {pins} cites {rules}"
