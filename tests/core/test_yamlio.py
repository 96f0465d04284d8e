"""hxref's own YAML writer must write files both readers take the same way (the two-readers
rule refuses anything YAML 1.1 and YAML 1.2 read differently)."""
import pytest

from hxref.base import yamlio
from hxref.base.errors import InvalidInput

AMBIGUOUS = ["0609", "0809", "1e3", "0o17", "0x1F", "off", "on", "yes", "no", "y", "n", "~", "null", "true",
             "1_000", "0b101", "+12", "-0", ".5", "12:30", "2114", "NaN", ".inf"]


@pytest.mark.parametrize("value", AMBIGUOUS)
def test_dump_fast_quotes_what_the_readers_could_read_differently(value):
    text = yamlio.dump_fast({"v": value, "list": [value]})
    root = yamlio.load_rt(text, "t.yaml")
    assert yamlio.check_two_readers(text, root, "t.yaml") == {"v": value, "list": [value]}


def test_round_trip_keeps_quotes_on_ambiguous_strings():
    # `hxref sign --game` rewrites the file through ruamel: '0609' and 'off' must stay strings
    text = "choice:\n  moves:\n    - {unit: wagon-train, path: ['1205', '0609', 'off']}\n"
    out = yamlio.dump_rt(yamlio.load_rt(text, "t.yaml"))
    root = yamlio.load_rt(out, "t.yaml")
    assert yamlio.check_two_readers(out, root, "t.yaml")["choice"]["moves"][0]["path"] == ["1205", "0609", "off"]


# --- the strict reader: one pass checks the order-file rules and builds the values ----------------
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))

# each file, and what the reader says of it: the first thing refused is the first in the file
REFUSED = [
    ("alias bomb", BOMB, "t.yaml:1: anchors (&name) are not allowed in order files [E102]"),
    ("alias with no anchor", "a: 1\nb: *x\n", "t.yaml:2: aliases (*name) are not allowed in order files [E102]"),
    ("anchor before a syntax error", "a: &x 1\nb: [1\nc: 2\n",
     "t.yaml:1: anchors (&name) are not allowed in order files [E102]"),
    ("syntax error before an anchor", "a: [1\nb: &x 2\n",
     "t.yaml:2:2: YAML error: expected ',' or ']', but got ':'; a `[` opened on line 1 is not closed "
     "with `]` on that line, or a comma is missing between its items [E101]"),
    ("a tag", "a: 1\nb: !!str 2\n", "t.yaml:2: YAML tags (tag:yaml.org,2002:str) are not allowed in order files [E102]"),
    ("a non-specific tag on a list", "a: ! [1]\n", "t.yaml:1: YAML tags (!) are not allowed in order files [E102]"),
    ("a duplicate key", "a: 1\nb: 2\na: 3\n",
     't.yaml:3:1: YAML error: found duplicate key "a" with value "3" (original value: "1") [E104]'),
    ("a duplicate key after an anchor", "a: 1\na: &x 2\n", "t.yaml:2: anchors (&name) are not allowed in order files [E102]"),
    ("a second document", "a: 1\n---\na: &x 2\n", "t.yaml:2: only one YAML document is allowed in a file [E102]"),
    ("too deep", "a: " + "[" * 30 + "]" * 30 + "\n", "t.yaml:1: nested deeper than 24 levels [E103]"),
]


@pytest.mark.parametrize("text, message", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_the_strict_reader_refuses_the_first_thing_in_the_file(text, message):
    with pytest.raises(InvalidInput) as exc:
        yamlio.load_rt(text, "t.yaml")
    assert str(exc.value) == message


def test_the_strict_reader_reads_what_the_loose_one_reads():
    text = "%YAML 1.1\n---\n# a comment\nchoice: {moves: ['0609', 0777, ! 12]}   # kept\nnote: on\n"
    strict, loose = yamlio.load_rt(text, "t.yaml"), yamlio.load_rt(text, "t.yaml", strict=False)
    assert yamlio.to_plain(strict) == yamlio.to_plain(loose) == {"choice": {"moves": ["0609", 511, 12]}, "note": True}
    assert yamlio.dump_rt(strict) == yamlio.dump_rt(loose)
    assert yamlio.line_of(strict["choice"], "moves") == 4
