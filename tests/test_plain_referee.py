"""bench/plain_referee.py, the benchmarks' stdlib yardstick, judges self-play logs as kcref does:
no error on a legal log, the same penalties and the same chips hand by hand, and an error on
the same line where a log is made illegal."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kcref.engine.bots import play_log
from kcref.model.codes import Severity
from kcref.notation.writer import Spelling
from kcref.referee.pipeline import check_text
from tests.util import ROOT


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("plain_referee", ROOT / "bench" / "plain_referee.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


plain = _load()

# (rules, players, bot, seed, hands): a few hundred hands in all, every table size, both bots.
LOGS = [
    ("commercial", 4, "greedy", 0, 60),
    ("commercial", 2, "random", 1, 30),
    ("commercial", 3, "greedy", 2, 30),
    ("commercial", 5, "random", 3, 30),
    ("commercial", 6, "random", 4, 40),
    ("commercial", 6, "greedy", 5, 30),
    ("classic", 4, "greedy", 6, 40),
    ("classic", 3, "random", 7, 30),
    ("classic", 6, "random", 8, 30),
]


def _log(rules: str, players: int, bot: str, seed: int, hands: int) -> str:
    return "".join(play_log(players, rules, seed=seed, hands=hands, bot=bot))


def _compare(text: str) -> tuple[list[tuple[int, str]], list[int]]:
    """Referee ``text`` with both; assert that they agree hand by hand and in total. Returns
    the errors the plain referee found (line and message) and the lines of kcref's."""
    report = check_text(text, "play.log")
    tally = plain.referee_text(text, "play.log")
    assert len(tally.results) == len(report.hands)
    for mine, theirs in zip(tally.results, report.hands):
        where = f"hand {theirs.index}"
        assert mine.valid == theirs.valid, where
        if not theirs.valid:
            continue
        assert (mine.winner, mine.blocked) == (theirs.winner, theirs.blocked), where
        assert mine.penalties == len(theirs.penalties), where
        assert mine.stacks_end == theirs.stacks_end, where
    kcref_errors = [d.line for d in report.diagnostics if d.is_error]
    if not kcref_errors:
        assert tally.penalties == sum(d.code.startswith("KC4") for d in report.diagnostics)
        assert tally.warnings == sum(d.severity is Severity.WARNING for d in report.diagnostics)
    return tally.found, kcref_errors


@pytest.mark.parametrize(("rules", "players", "bot", "seed", "hands"), LOGS)
def test_legal_logs_agree(rules: str, players: int, bot: str, seed: int, hands: int) -> None:
    mine, theirs = _compare(_log(rules, players, bot, seed, hands))
    assert mine == theirs == []


def test_suit_symbols_and_t_for_ten() -> None:
    text = "".join(play_log(4, "commercial", seed=13, hands=10, bot="random", spelling=Spelling("T", symbols=True)))
    assert re.search("T[♠♥♦♣]", text)
    mine, theirs = _compare(text)
    assert mine == theirs == []


def test_the_presets_in_one_log() -> None:
    classic = _log("classic", 4, "random", 9, 10)
    commercial = _log("commercial", 4, "random", 10, 10).replace('[Players "Ann, Bob, Cy, Dee"]\n', "")
    mine, theirs = _compare(classic + commercial)
    assert mine == theirs == []


def _hand_lines(text: str) -> tuple[list[str], dict[str, list[str]], dict[str, str], int]:
    """The lines of ``text``, the first hand's deals and layout, and the index of its first turn."""
    lines = text.splitlines(keepends=True)
    deals: dict[str, list[str]] = {}
    layout: dict[str, str] = {}
    for i, line in enumerate(lines):
        if line.startswith("deal "):
            name, _, cards = line[len("deal "):].partition(":")
            deals[name] = cards.split()
        elif line.startswith("layout "):
            layout = dict(entry.split(":") for entry in line.split()[1:])
        elif deals and ":" in line:
            return lines, deals, layout, i
    raise AssertionError("no turn")


def _misfit(deals: dict[str, list[str]], layout: dict[str, str], player: str) -> str:
    """A play of one of ``player``'s cards onto a foundation (not an Ace) it does not fit."""
    for text in deals[player]:
        card = plain.parse_card(text)
        for pile, top in layout.items():
            if not top.startswith("A") and not plain.fits(card, plain.parse_card(top)):
                return f"{text}->{pile}"
    raise AssertionError("every card fits everywhere")


def _mutations(text: str) -> dict[str, str]:
    """Illegal versions of ``text``, each with the first turn of its first hand changed, by the
    words the plain referee's error must hold."""
    lines, deals, layout, first = _hand_lines(text)
    player = lines[first].partition(":")[0]
    other = next(name for name in deals if name != player)
    turns = {
        "does not hold": f"{player}: {deals[other][0]}->N\n",
        "cannot go on": f"{player}: {_misfit(deals, layout, player)}\n",
        "nothing may follow the draw": lines[first].partition("#")[0].rstrip() + "; N->E\n",
        "corner piles never move": f"{player}: NE->N\n",
        "onto itself": f"{player}: N->N\n",
        f"it is {player}'s turn": f"{other}: pass\n",
    }
    return {why: "".join([*lines[:first], turn, *lines[first + 1:]]) for why, turn in turns.items()}


@pytest.mark.parametrize("rules", ["commercial", "classic"])
def test_illegal_plays_are_errors_in_both(rules: str) -> None:
    for why, text in _mutations(_log(rules, 4, "greedy", 11, 3)).items():
        mine, theirs = _compare(text)
        assert mine and theirs, why
        line, message = mine[0]
        assert line == theirs[0] and why in message, (why, mine[0])


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "play.log"
    text = _log("commercial", 3, "random", 12, 5)
    path.write_bytes(("\ufeff" + text.replace("\n", "\r\n")).encode())
    assert plain.main([str(path)]) == 0
    penalties = sum(d.code.startswith("KC4") for d in check_text(text, "play.log").diagnostics)
    assert capsys.readouterr().out == f"1 file, 5 hands, 0 errors, 0 warnings, {penalties} penalties, 0 notes\n"
    path.write_text(_mutations(text)["cannot go on"], encoding="utf-8")
    assert plain.main([str(path)]) == 1
    assert ", 1 errors, " in capsys.readouterr().out
    done = subprocess.run(plain.plain_referee_argv(str(path)), capture_output=True, text=True, check=False)
    assert done.returncode == 1 and ", 1 errors, " in done.stdout
