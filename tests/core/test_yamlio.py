"""hxref's own YAML writer must write files both readers take the same way (the two-readers
rule refuses anything YAML 1.1 and YAML 1.2 read differently)."""
import pytest

from hxref.base import yamlio

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
