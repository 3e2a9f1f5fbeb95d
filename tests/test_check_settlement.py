"""``kcref check``'s text output for people: a hand's penalties in one settlement line;
``--verbose`` one line per penalty, as every machine format keeps."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from click.testing import CliRunner

from kcref.apps.check.run import run_check
from kcref.cli import main
from kcref.files.inputs import resolve
from kcref.model.events import Span
from kcref.referee.pipeline import check_file
from kcref.referee.verdict import HandVerdict, Penalty
from kcref.render.check_formats import CheckSettings
from kcref.render.diagnostic_lines import format_located
from kcref.render.settlement import settlement_line
from tests.util import ROOT, assert_golden

NIGHT = "samples/commercial-night.log"
MIXED = [NIGHT, "tests/cases/rules/chips_debt.log", "tests/cases/assertions/stacks.log",
         "tests/cases/assertions/stacks_unknown.log", "samples/invalid/illegal-plays.log"]
"""Penalties, a warning inside a settled hand, an error in a later hand, a note, rule errors."""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_golden_text(in_root: Path) -> None:
    code, out = run("check", *MIXED)
    assert code == 1
    assert_golden(ROOT / "tests" / "golden" / "check-text.txt", out)


def test_one_line_per_hand_and_the_same_summary(in_root: Path) -> None:
    _, out = run("check", NIGHT)
    lines = out.splitlines()
    assert lines == [
        f"{NIGHT}:9: hand 1: Eli went out and took the pot of 16; cards left: Dora 2, Fran 4, Gus 6; "
        "chips paid: Dora 2, Fran 4, Gus 6",
        f"{NIGHT}:26: hand 2: Eli went out and took the pot of 16; cards left: Dora 5, Fran 2, Gus 4; "
        "chips paid: Dora 5, Fran 2, Gus 5",
        f"{NIGHT}:48: hand 3: Eli went out and took the pot of 21; cards left: Dora 7, Fran 5, Gus 5; "
        "chips paid: Dora 7, Fran 5, Gus 5",
        "1 file, 3 hands, 0 errors, 0 warnings, 10 penalties, 0 notes",
    ]


def test_chips_paid_are_the_penalties_summed() -> None:
    report = check_file(str(ROOT / NIGHT))
    for verdict in report.hands:
        paid = dict.fromkeys(verdict.players, 0)
        for p in verdict.penalties:
            paid[verdict.players[p.seat]] += p.chips
        said = settlement_line(verdict).partition("chips paid: ")[2]
        assert said == ", ".join(f"{n} {c}" for n, c in paid.items() if c)


def test_verbose_keeps_one_line_per_penalty(in_root: Path) -> None:
    _, out = run("check", "--verbose", NIGHT)
    assert out.count(": info KC40") == 10 and " hand 1:" not in out
    short = CliRunner().invoke(main, ["check", "-v", "--no-source", NIGHT]).stdout  # not the configuration line
    assert short.splitlines()[0] == f"{NIGHT}:20:13: info KC404 Fran has 4 cards left: pays 4 chips"
    # Verbose text is what a machine format holds: every diagnostic, in order.
    _, github = run("check", "--format", "github", NIGHT)
    plain = [line for line in github.splitlines() if not line.startswith("::")]
    assert plain == short.splitlines()


def test_errors_and_warnings_unchanged(in_root: Path) -> None:
    _, default = run("check", *MIXED)
    _, verbose = run("check", "-v", *MIXED)
    kept = [line for line in verbose.splitlines() if " error KC" in line or " warning KC" in line]
    assert [line for line in default.splitlines() if " error KC" in line or " warning KC" in line] == kept
    assert default.splitlines()[-1] == verbose.splitlines()[-1]


def test_a_hand_with_an_error_gets_no_settlement(in_root: Path) -> None:
    _, out = run("check", "--no-source", "tests/cases/assertions/chips_mismatch.log")
    assert " hand 1:" not in out and " info KC40" not in out
    assert out.count(" error KC601 ") == 5


def test_workers_print_as_one_process(in_root: Path) -> None:
    args = [*MIXED, NIGHT, "tests/cases/rules/chips_no_play.log"]
    assert run("check", "--jobs", "2", *args) == run("check", *args)
    assert run("check", "--jobs", "2", "-v", *args) == run("check", "-v", *args)


def test_progress_bar_prints_as_streamed(in_root: Path) -> None:
    inputs = resolve([*MIXED] * 3)
    streamed, whole = io.StringIO(), io.StringIO()
    run_check(inputs, CheckSettings(), streamed)
    run_check(inputs, CheckSettings(), whole, progress=lambda reports, count: _passing(reports))
    assert whole.getvalue() == streamed.getvalue()


class _passing:
    def __init__(self, reports: object) -> None:
        self.reports = reports

    def __enter__(self) -> object:
        return self.reports

    def __exit__(self, *exc: object) -> None:
        pass


def test_quiet_prints_no_settlement(in_root: Path) -> None:
    assert run("check", "--quiet", NIGHT) == (0, "")


def test_machine_formats_keep_every_penalty(in_root: Path) -> None:
    for fmt in ("json", "sarif", "gitlab"):
        _, out = run("check", "--format", fmt, NIGHT)
        assert out.count("KC404") >= 9, fmt


def test_a_hostile_path_is_escaped(tmp_path: Path) -> None:
    log = tmp_path / ":x##[y]\u202e.log"
    shutil.copy(ROOT / "tests" / "cases" / "rules" / "chips_no_play.log", log)
    out = io.StringIO()
    run_check(resolve([str(log)]), CheckSettings(), out)
    line = out.getvalue().splitlines()[0]
    assert "\u202e" not in line and "##[" not in line and ":6: hand 1: Bob went out" in line
    assert format_located(":a", 3, "b\x1b") == "./:a:3: b\ufffd"


def test_blocked_hand_and_points_are_worded() -> None:
    verdict = check_file(str(ROOT / NIGHT)).hands[0]
    fields = dict(zip(HandVerdict.__match_args__, verdict.fields()))
    fields.update(winner=None, blocked=True, pot_left=verdict.pot, number=None, index=7, cards_left=(1, 2, 3, 4),
                  points=(1, 2, None, 4),
                  penalties=(Penalty(3, 1, "KC401", Span("x", 1, 1)), Penalty(3, 2, "KC402", Span("x", 2, 1))))
    blocked = HandVerdict(**fields)  # type: ignore[arg-type]
    assert settlement_line(blocked) == (
        "hand 7: the hand is blocked: nobody went out; the pot of 16 stays; cards left: Dora 1, Eli 2, "
        "Fran 3, Gus 4; points: Dora 1, Eli 2, Fran ?, Gus 4; chips paid: Gus 3")
