"""`kcref score` streams: it judges each hand as its verdict comes and keeps no verdict. Whatever
the errors in the logs, the streamed scoreboard and every output equal those of the whole-file
path (``scoreboard`` on reports that keep every verdict and diagnostic)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.check import check_file
from kcref.diagnostics import Diagnostic
from kcref.options import Scoring, preset, with_scoring
from kcref.score import EXIT_OK, score_paths, score_reports
from kcref.standings import SCORED, HandSorter, Tally
from tests.engine.bot import game_log

SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

JUNK = ['[Target "lots"]', '[Players "Ann"]', '[Scoring "nope"]', "Ann: 4S->Q", "nonsense here", "hand x",
        "deal Ann: 2S", "layout N:2S", "Bob: draw; draw", '[Date "yesterday"]', "hand 9", "[Event]",
        '[Rules "classic"]', "Zed: pass"]


def corrupt(text: str, rng: random.Random, edits: int) -> str:
    """The log with a few lines deleted, replaced by junk, or junk inserted (before the first
    hand too)."""
    lines = text.split("\n")
    for _ in range(edits):
        at = rng.randrange(len(lines))
        kind = rng.randrange(3)
        if kind == 0 and len(lines) > 3:
            del lines[at]
        elif kind == 1:
            lines[at] = rng.choice(JUNK)
        else:
            lines.insert(at, rng.choice(JUNK))
    return "\n".join(lines)


def outputs(paths: list[str], reports_too: bool) -> list[tuple[int, str, str]]:
    """Every view and a few formats, with the chart, streamed (or from kept reports)."""
    reports = [check_file(p) for p in paths] if reports_too else []
    out = []
    for by, fmt, chart in [("player", "simple", True), ("hand", "plain", True), ("night", "csv", False),
                           ("player", "json", False)]:
        for skip in (True, False):
            if reports_too:
                r = score_reports(reports, by, fmt, chart, skip_invalid=skip)
            else:
                r = score_paths(paths, by, fmt, chart, skip_invalid=skip)
            out.append((r.status, r.out, r.err))
    return out


@SETTINGS
@given(seed=st.integers(0, 2**32), files=st.integers(1, 3), edits=st.integers(0, 4),
       scoring=st.sampled_from(list(Scoring)))
def test_streaming_equals_the_whole_file_path(tmp_path_factory: pytest.TempPathFactory, seed: int, files: int,
                                              edits: int, scoring: Scoring) -> None:
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("stream")
    paths = []
    for i in range(files):
        options = with_scoring(preset(rng.choice(["classic", "commercial", "family"])), scoring)
        text = corrupt(game_log(rng, options, rng.randint(2, 4), rng.randint(1, 5)), rng, edits)
        path = folder / f"night{i}.log"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    streamed, whole = outputs(paths, False), outputs(paths, True)
    assert streamed == whole
    board = score_paths(paths, "hand", "json", skip_invalid=True).board
    kept = score_reports([check_file(p) for p in paths], "hand", "json", skip_invalid=True).board
    assert board is not None and kept is not None
    assert (board.rows, board.games, board.standings, board.nights, board.ignored) == \
        (kept.rows, kept.games, kept.standings, kept.nights, kept.ignored)


def test_player_and_night_views_keep_no_row_per_scored_hand(tmp_path: Path) -> None:
    rng = random.Random(5)
    log = tmp_path / "night.log"
    log.write_text(game_log(rng, with_scoring(preset("classic"), Scoring.PENALTY), 3, 12), encoding="utf-8")
    for by, fmt in [("player", "simple"), ("night", "csv"), ("player", "html")]:
        result = score_paths([str(log)], by, fmt)
        assert result.status == EXIT_OK and result.board is not None
        assert not result.board.complete and result.board.scored_count > 0
        assert all(r.status != SCORED for r in result.board.rows)
        assert result.board.running == ()
    full = score_paths([str(log)], "hand", "simple", chart=True).board
    assert full is not None and full.complete and len(full.scored) == full.scored_count
    assert [r.hands for r in full.running] == [full.scored_count]


def test_the_sorter_keeps_only_the_first_error_of_a_hand(tmp_path: Path) -> None:
    """Errors after the first hand are not all kept: only the first of the hand to come."""
    log = tmp_path / "night.log"
    text = game_log(random.Random(1), preset("classic"), 2, 2).rstrip("\n")
    junk = "\n".join(f"nonsense {i}" for i in range(500))
    log.write_text(f"{text}\n{junk}\n", encoding="utf-8")
    first_junk = text.count("\n") + 2
    sorter = HandSorter()
    tally = Tally(keep_rows=True, keep_running=False)
    peak = 0

    def emit(d: Diagnostic) -> None:
        nonlocal peak
        if d.is_error:
            sorter.error(d)
            peak = max(peak, len(sorter.waiting))

    report = check_file(str(log), keep_hands=False, emit=emit,
                        on_hand=lambda v, line: tally.add(v, line, sorter.judge(v, line)))
    tally.end_night(report.path, report.tags, report.hand_count, sorter.ignored())
    board = tally.finish()
    assert peak == 1 and report.errors == 500
    assert [r.status for r in board.rows] == [SCORED, "left out"]
    assert board.rows[1].reason.startswith("error KC1") and f" at line {first_junk}:" in board.rows[1].reason
