"""`kcref score` streams: it judges each hand as its verdict comes and keeps no verdict. Whatever
the errors in the logs, the streamed scoreboard and every output equal those of the whole-file
path (``scoreboard`` on reports that keep every verdict and diagnostic)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcref.apps.score import score_paths, score_reports
from kcref.files import spool
from kcref.model.diagnostics import Diagnostic, json_text
from kcref.model.options import preset, with_scoring
from kcref.model.status import ExitStatus
from kcref.model.systems import PENALTY, SYSTEMS, ScoringSystem
from kcref.referee.pipeline import check_file
from kcref.render import table_chunks
from kcref.render.chart import chart as draw_chart
from kcref.render.score_formats import SCORE_FORMATS, VIEWS, render_scores
from kcref.scoring.standings import SCORED, HandRows, HandSorter, Tally
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


def night_logs(folder: Path, rng: random.Random, files: int, edits: int, scoring: ScoringSystem,
               hands: tuple[int, int] = (1, 5)) -> list[str]:
    """A few random nights (some lines corrupted), their paths."""
    paths = []
    for i in range(files):
        options = with_scoring(preset(rng.choice(["classic", "commercial", "family"])), scoring)
        text = corrupt(game_log(rng, options, rng.randint(2, 4), rng.randint(*hands)), rng, edits)
        path = folder / f"night{i}.log"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


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
       scoring=st.sampled_from(list(SYSTEMS.values())))
def test_streaming_equals_the_whole_file_path(tmp_path_factory: pytest.TempPathFactory, seed: int, files: int,
                                              edits: int, scoring: ScoringSystem) -> None:
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
    log.write_text(game_log(rng, with_scoring(preset("classic"), PENALTY), 3, 12), encoding="utf-8")
    for by, fmt in [("player", "simple"), ("night", "csv"), ("player", "html")]:
        result = score_paths([str(log)], by, fmt)
        assert result.status == ExitStatus.OK and result.board is not None
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
    rows = list(board.rows)
    assert [r.status for r in rows] == [SCORED, "left out"]
    assert rows[1].reason.startswith("error KC1") and f" at line {first_junk}:" in rows[1].reason


@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), files=st.integers(1, 3), edits=st.integers(0, 3),
       scoring=st.sampled_from([*SYSTEMS.values(), None]))
def test_rows_read_back_in_chunks_give_the_output_of_rows_in_memory(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, seed: int, files: int,
        edits: int, scoring: ScoringSystem | None) -> None:
    """Every view in every format (and the chart): the rows spooled to a file in small batches and
    the tables drawn a few rows at a time give what tabulate draws of every row at once."""
    rng = random.Random(seed)
    folder = tmp_path_factory.mktemp("chunks")
    if scoring is None:  # several systems: the hand view has a scoring column
        paths = []
        for system in rng.sample(list(SYSTEMS.values()), 2):
            (folder / system.name).mkdir()
            paths += night_logs(folder / system.name, rng, 1, edits, system, (3, 9))
    else:
        paths = night_logs(folder, rng, files, edits, scoring, (3, 9))
    whole = score_paths(paths, "hand", "json", chart=True, skip_invalid=True).board
    monkeypatch.setattr(spool, "BATCH", 2)
    spooled = score_paths(paths, "hand", "json", chart=True, skip_invalid=True).board
    assert whole is not None and spooled is not None and isinstance(spooled.rows, HandRows)
    assert spooled.rows.on_disk == (len(spooled.rows) >= 2)
    chart = draw_chart(whole)
    chunk_rows = rng.randint(1, 3)
    for by in VIEWS:
        for fmt in SCORE_FORMATS:
            drawn = "" if fmt in ("csv", "tsv", "json") else chart
            streamed, kept = render_scores(spooled, by, fmt, drawn, chunk_rows), render_scores(whole, by, fmt, drawn, 10**9)
            assert (str(streamed.out), str(streamed.err)) == (str(kept.out), str(kept.err)), (by, fmt)


def test_json_written_piece_by_piece_is_the_document_dumped_whole(tmp_path: Path) -> None:
    paths = night_logs(tmp_path, random.Random(3), 2, 2, PENALTY, (2, 6))
    for by in ("hand", "player"):
        out = score_paths(paths, by, "json", skip_invalid=True).out
        assert json_text(json.loads(out)) + "\n" == out
    empty = tmp_path / "empty.log"
    empty.write_text('[Players "Ann, Bob"]\n', encoding="utf-8")
    out = score_paths([str(empty)], "hand", "json").out
    assert json_text(json.loads(out)) + "\n" == out and json.loads(out)["hands"] == []


def test_the_rows_of_every_hand_are_in_a_file_not_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing every hand keeps no row per hand in memory: the rows go to a temporary file a
    batch at a time, and the output is made as it is written."""
    monkeypatch.setattr(spool, "BATCH", 4)
    log = tmp_path / "night.log"
    log.write_text(game_log(random.Random(8), with_scoring(preset("classic"), PENALTY), 3, 30),
                   encoding="utf-8")
    for by, fmt in [("hand", "simple"), ("hand", "csv"), ("player", "json"), ("hand", "grid")]:
        result = score_paths([str(log)], by, fmt)
        board = result.board
        assert result.status == ExitStatus.OK and board is not None and board.complete
        assert isinstance(board.rows, HandRows) and len(board.rows) == 30
        assert board.rows.in_memory < 4
        assert not isinstance(result.out_chunks, (str, list, tuple))
        assert [r.index for r in board.rows] == list(range(1, 31))
    monkeypatch.setattr(table_chunks, "CHUNK_ROWS", 7)
    monkeypatch.setattr(spool, "BATCH", 1000)
    drawn = []
    real = table_chunks.tabulate

    def counting(rows: list[object], *args: object, **kwargs: object) -> str:
        drawn.append(len(rows))
        return real(rows, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(table_chunks, "tabulate", counting)
    result = score_paths([str(log)], "hand", "grid")  # simple is drawn without tabulate (test_simple_table)
    assert result.out.count("\n") > 30
    assert drawn and max(drawn) < 30 // 2  # never every row at once
