"""`kcref show` reads one file or standard input, once; `--line` past the end is refused, and
before a hand's layout it shows the deal so far, not the table laid out later."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from click.testing import CliRunner

from kcref.apps.show import show
from kcref.cli import main
from kcref.notation.reader import Item, read_file
from kcref.render.table_view import ViewStyle, locate
from tests.util import ROOT

CLASSIC = "samples/classic-night.log"


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["show", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_a_line_past_the_end_is_a_usage_error(in_root: Path) -> None:
    assert run(CLASSIC, "--line", "107") == (
        2, "", "kcref show: line 107 is past the end of samples/classic-night.log, which has 106 lines\n")
    code, out, _ = run(CLASSIC, "--line", "106")
    assert code == 0 and out.startswith("samples/classic-night.log: hand 4, classic rules, dealer Cy, after line 106")
    code, _, err = run("-", "--line", "200", input=(ROOT / CLASSIC).read_bytes())
    assert code == 2 and err == "kcref show: line 200 is past the end of <stdin>, which has 106 lines\n"


def test_a_line_before_the_layout_shows_the_deal_so_far(in_root: Path) -> None:
    code, out, _ = run(CLASSIC, "--line", "10")
    assert code == 0
    assert out == (
        "samples/classic-night.log: hand 1, classic rules, dealer Cy, after line 10\n"
        "\n"
        "the cards are being dealt: the layout is turned up at line 12\n"
        "\n"
        "  Ann   7 cards  4H 6H 4D 7D 2C 4C 6C\n"
        "  Bob   7 cards  3S 5S 10S 5H 9H QD QC\n"
        "  Cy             not dealt yet\n"
        "Ann plays first\n"
    )
    code, out, _ = run(CLASSIC, "--line", "8")  # the hand line itself: nothing dealt yet
    assert out.count("not dealt yet") == 3 and "stock" not in out
    code, out, _ = run(CLASSIC, "--line", "12")  # the layout line: the table is laid out
    assert "stock 27" in out and "9C" in out and "> Ann" in out and "not dealt" not in out


def test_a_deal_line_in_a_later_hand(in_root: Path) -> None:
    text = (ROOT / CLASSIC).read_text(encoding="utf-8").split("\n")
    second = next(i for i, line in enumerate(text, 1) if line.startswith("hand 2"))
    out = show(CLASSIC, line=second + 1, style=ViewStyle(ascii=True))
    assert out.startswith(f"samples/classic-night.log: hand 2, classic rules, dealer Ann, after line {second + 1}\n")
    assert out.count("7 cards") == 1 and out.count("not dealt yet") == 2 and "Bob plays first" in out


def test_standard_input_is_read_once(in_root: Path) -> None:
    data = (ROOT / CLASSIC).read_bytes()
    cases: list[tuple[list[str], dict[str, int]]] = [(["--hand", "2"], {"hand": 2}), (["--line", "25"], {"line": 25}),
                                                     ([], {})]
    for args, where in cases:
        code, out, _ = run("-", *args, input=data)
        assert code == 0
        assert out == show(CLASSIC, style=ViewStyle(ascii=True), **where).replace(f"{CLASSIC}:", "<stdin>:", 1)


def test_locate_reads_no_further_than_it_needs(in_root: Path) -> None:
    read: list[int] = []

    def items() -> Iterator[Item]:
        for item in read_file(CLASSIC, trivia=True):
            read.append(1)
            yield item

    located = locate(items(), CLASSIC, line=20)
    assert located.record.index == 1
    assert len(read) < 60  # hand 2 starts the next record; the rest of the file is never read


def test_unreadable_input_in_the_common_words(tmp_path: Path) -> None:
    binary = tmp_path / "game.log"
    binary.write_bytes(b"hand 1\n\x00\x01")
    code, out, err = run(str(binary))
    assert code == 2 and out == "" and err.startswith(f"{binary}:2:1: error KC003 ")
    code, _, err = run("-", input=b"\xff\xfe\n")
    assert code == 2 and err.startswith("<stdin>:1:1: error KC002 ")
