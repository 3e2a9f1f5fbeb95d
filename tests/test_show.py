"""`kcref show` (the table at a line) and `kcref play` (self-play logs) from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kcref.apps.show import show
from kcref.cli import main
from kcref.render.table_view import ViewStyle
from tests.util import ROOT, assert_golden

CASES = [
    ("classic-end", ["samples/classic-night.log"]),
    ("classic-hand2", ["samples/classic-night.log", "--hand", "2"]),
    ("commercial-line25-full", ["samples/commercial-night.log", "--line", "25", "--full"]),
    ("commercial-line14-midhand", ["samples/commercial-night.log", "--line", "14"]),
    ("family-hand3", ["samples/family-night.log", "--hand", "3"]),
    ("illegal-line14", ["samples/invalid/illegal-plays.log", "--line", "14"]),
]


@pytest.mark.parametrize("name,args", CASES, ids=[c[0] for c in CASES])
def test_show_golden(name: str, args: list[str], in_root: Path) -> None:
    result = CliRunner().invoke(main, ["show", *args])
    assert result.exit_code == 0, result.output
    assert_golden(ROOT / "tests" / "golden" / f"show-{name}.txt", result.output)


def test_show_not_a_tty_is_plain(in_root: Path) -> None:
    out = CliRunner().invoke(main, ["show", "samples/commercial-night.log"]).output
    assert "\x1b[" not in out and "♥" not in out


def test_colour_and_symbols() -> None:
    path = str(ROOT / "samples" / "commercial-night.log")
    coloured = show(path, line=25, style=ViewStyle(colour=True))
    assert "\x1b[31m" in coloured and "♥" in coloured
    assert "\x1b[" not in show(path, line=25, style=ViewStyle())


def test_show_line_walks_the_hand(in_root: Path) -> None:
    before = show("samples/classic-night.log", line=12, style=ViewStyle(ascii=True))
    after = show("samples/classic-night.log", line=13, style=ViewStyle(ascii=True))
    assert "> Ann" in before and "> Bob" in after
    assert "7H 6C" in after and "7H 6C" not in before


@pytest.mark.parametrize("args,message", [
    (["samples/classic-night.log", "--hand", "9"], "has no hand 9 (4 hands in all)"),
    (["samples/classic-night.log", "--line", "3"], "stands before the first hand"),
    (["samples/invalid/no-hand.log"], "holds no hand"),
    (["samples/nope.log"], "no such file"),
])
def test_show_errors(args: list[str], message: str, in_root: Path) -> None:
    result = CliRunner().invoke(main, ["show", *args])
    assert result.exit_code == 2 and message in result.output


def test_show_hand_and_line_together_is_usage(in_root: Path) -> None:
    assert CliRunner().invoke(main, ["show", "samples/classic-night.log", "--hand", "1", "--line", "9"]).exit_code == 2


def test_play_writes_a_clean_log(tmp_path: Path) -> None:
    out = tmp_path / "night.log"
    result = CliRunner().invoke(main, ["play", "-n", "4", "--rules", "commercial", "--seed", "7",
                                       "--hands", "3", "--bot", "random", "-o", str(out)])
    assert result.exit_code == 0, result.output
    check = CliRunner().invoke(main, ["check", "--no-source", str(out)])
    assert check.exit_code == 0 and "1 file, 3 hands, 0 errors, 0 warnings" in check.output
    again = CliRunner().invoke(main, ["play", "-n", "4", "--rules", "commercial", "--seed", "7",
                                      "--hands", "3", "--bot", "random"])
    assert again.output == out.read_text(encoding="utf-8")


@pytest.mark.parametrize("args,message", [
    (["--option", "Draw"], "is not TAG=VALUE"),
    (["--option", "Draw=sometimes"], "Draw 'sometimes': expected one of end, start, stuck"),
    (["--rules", "poker"], "unknown preset 'poker'"),
    (["--players", "7"], "7 is not in the range 2<=x<=6"),
])
def test_play_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["play", *args])
    assert result.exit_code == 2 and message in result.output


def test_show_a_hand_cut_by_a_line_that_cannot_be_judged(tmp_path: Path) -> None:
    log = tmp_path / "cut.log"
    log.write_text('[Players "Ann, Bob"]\nhand 1\ndeal Ann: QH 7H 6S 2C AD 9C 5D\nlayout N:9D E:JS S:3C W:5H\n'
                   "Ann: draw 2H\nBob: draw 3D\nAnn: 2H->Q\nBob: draw\n", encoding="utf-8")
    end = show(str(log))
    assert end.splitlines()[1] == ("stopped before line 7, which cannot be judged (KC103: kcref check says why); "
                                   "the table is shown as it stood then")
    assert "stock 32" in end and "Ann to play" in end  # both draws before line 7 were replayed
    before = show(str(log), line=6)
    assert "stopped" not in before and before.splitlines()[2:] == end.splitlines()[3:]


@pytest.mark.parametrize("head", ["", '[Players "Ann"]\n', '[Players "\U0001f0a1, Bob"]\n'])
def test_show_a_hand_without_usable_players(head: str, tmp_path: Path) -> None:
    """No Players tag, or one that cannot be used: the hand cannot be replayed, and show says so
    (it said 'tuple index out of range', exit status 2: the dealer's name was looked up)."""
    log = tmp_path / "nobody.log"
    log.write_text(head + "hand 1\nAnn: 5S->E\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["show", str(log), "--line", str(head.count("\n") + 2)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1].startswith("the hand cannot be replayed")
    assert ", classic rules, after line" in result.output.splitlines()[0]
