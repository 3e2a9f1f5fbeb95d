"""The data-driven scoring cases of tests/cases/score/: each folder holds the logs of some nights
(scored in name order) and ``expected.txt``, the standings and games worked out by hand:

    args --skip-invalid                    the options of kcref score, if any
    player RANK NAME POINTS PLAYED WON GAMES
    game NUMBER over ENDED_BY WINNERS      a game that is over (``-`` for no winner)
    game NUMBER on - LEADERS               the game in progress
    hand FILE:LINE left out|not scored     every hand that is not scored

POINTS is a number, or ``system=points,...`` where several scoring systems were played. Names
are comma-separated, in the order kcref lists them. ``#`` starts a comment line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcref.apps.score import score_paths
from kcref.model.status import ExitStatus
from kcref.scoring.standings import SCORED, Scoreboard

CASES_DIR = Path(__file__).resolve().parent / "cases" / "score"
CASES = sorted(p for p in CASES_DIR.iterdir() if p.is_dir())


def expected(case: Path) -> tuple[list[str], list[str], list[str], list[str]]:
    """The args, player lines, game lines and hand lines of a case, as written."""
    args: list[str] = []
    players: list[str] = []
    games: list[str] = []
    hands: list[str] = []
    for line in (case / "expected.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, _, rest = line.partition(" ")
        target = {"args": args, "player": players, "game": games, "hand": hands}[kind]
        target.extend(rest.split()) if kind == "args" else target.append(" ".join(rest.split()))
    return args, players, games, sorted(hands)


def found(board: Scoreboard) -> tuple[list[str], list[str], list[str]]:
    """The same lines, from what kcref computed."""
    single = len(board.systems) == 1
    players = [f"{s.rank} {s.name} "
               + (str(s.points[0][1]) if single else ",".join(f"{k.name}={v}" for k, v in s.points))
               + f" {s.hands_played} {s.hands_won} {s.games_won}" for s in board.standings]
    games = [f"{g.number} {'over' if g.over else 'on'} {g.ended_by or '-'} {','.join(g.best) or '-'}"
             for g in board.games]
    hands = sorted(f"{Path(r.path).name}:{r.line} {r.status}" for r in board.rows if r.status != SCORED)
    return players, games, hands


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Path) -> None:
    args, players, games, hands = expected(case)
    logs = sorted(str(p) for p in case.glob("*.log"))
    result = score_paths(logs, skip_invalid="--skip-invalid" in args)
    assert result.status == ExitStatus.OK, result.err
    assert result.board is not None
    assert found(result.board) == (players, games, hands)


def test_errors_are_refused_without_skip_invalid() -> None:
    logs = [str(CASES_DIR / "skip_invalid" / "night.log")]
    result = score_paths(logs)
    assert result.status == ExitStatus.FOUND and result.out == "" and result.board is None
    assert "error KC301" in result.err and "error KC206" in result.err
    assert "'kcref check " in result.err and "--skip-invalid" in result.err


def test_there_are_cases_for_every_system() -> None:
    systems = set()
    for case in CASES:
        for log in case.glob("*.log"):
            text = log.read_text(encoding="utf-8")
            systems.update(s for s in ("none", "chips", "stacks", "penalty", "pips", "dutch", "commercial",
                                       "classic") if f'"{s}"' in text)
    assert {"chips", "stacks", "penalty", "pips", "dutch", "classic"} <= systems
