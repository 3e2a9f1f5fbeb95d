"""One reading for every way a log comes in: ``check_text`` reads a text as ``check_file`` reads
its bytes, and ``LiveLog`` reads each line as ``check`` reads it in the log; what ``LiveLog``
accepts (and so what ``kcref record`` writes) always passes ``kcref check``."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import kcref
from kcref.notation.reader import split_lines
from kcref.notation.textlines import LINE_LIMIT
from kcref.notation.writer import event_text
from kcref.referee import live
from kcref.referee.live import LiveLog
from tests.strategies import events
from tests.util import ROOT

SAMPLES = sorted((ROOT / "samples").glob("*.log"))
SAMPLE_LINES = [line for path in SAMPLES for line in path.read_text(encoding="utf-8").splitlines()]
TOO_LONG = "# " + "x" * LINE_LIMIT
ODD_LINES = ["# a\0b", "\0", "a\0b\0", TOO_LONG, " " * (LINE_LIMIT + 1), "# caf\udce9", "# \ud800 lone", "\ufeffhand 1",
             "\ufeff# note", "hand\f1", "# form\ffeed", "", "   ", "\r", "Ann: 4S->N\rBob: draw", "undo"]
lines = st.one_of(
    st.sampled_from(SAMPLE_LINES),
    st.sampled_from(ODD_LINES),
    events.map(event_text),
    st.text(max_size=20),
    st.text(st.characters(codec=None, categories=None), max_size=8),  # surrogates and controls too
)
texts = st.lists(lines, max_size=24).map("\n".join) | st.text(max_size=60)


def _diagnostics(report: kcref.FileReport) -> list[tuple[object, ...]]:
    return [(d.path, d.line, d.column, d.severity, d.code, d.message, d.source) for d in report.diagnostics]


# --- check_text reads as check_file --------------------------------------------------------------

def test_check_text_skips_a_line_too_long_and_calls_a_nul_binary_as_check_file_does(tmp_path: Path) -> None:
    text = f'[Players "Ann, Bob"]\n{TOO_LONG}\nhand 1\n'
    assert [d.code for d in kcref.check_text(text).diagnostics][:1] == ["KC005"]
    nul = '[Players "Ann, Bob"]\n# a\0b\n'
    assert [(d.code, d.line, d.column) for d in kcref.check_text(nul).diagnostics] == [("KC003", 2, 4)]
    lone = "# \ud800\n"
    assert [(d.code, d.line, d.column) for d in kcref.check_text(lone).diagnostics] == [("KC002", 1, 3)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_check_text_and_check_file_agree_on_any_text(text: str) -> None:
    """Any text: ``check_text(t)`` gives exactly what ``check_file`` gives on a file holding the
    bytes ``t`` stands for (UTF-8; a lone surrogate, which UTF-8 cannot hold, as ``surrogatepass``
    writes it, bytes that are not UTF-8)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "t.log")
        Path(path).write_bytes(text.encode("utf-8", "surrogatepass"))
        assert _diagnostics(kcref.check_text(text, path)) == _diagnostics(kcref.check_file(path))


def test_read_line_is_the_reading_of_a_file_line() -> None:
    from kcref.notation.textlines import SNIFF, read_line

    assert read_line("Ann: draw", "t.log", 3) == "Ann: draw"
    assert read_line("# caf\u00e9", "t.log", 3) == "# caf\u00e9"
    long = read_line(TOO_LONG, "t.log", 3)
    assert isinstance(long, kcref.Diagnostic) and (long.code, long.line) == ("KC005", 3)
    nul = read_line("# a\0b", "t.log", 3, "x" * SNIFF)
    assert isinstance(nul, kcref.Diagnostic) and (nul.code, nul.line, nul.column) == ("KC003", 3, 4)
    # at the start of a file, NUL bytes every other byte make it UTF-16, as check_file says
    wide = read_line("a\0b\0", "t.log", 1)
    assert isinstance(wide, kcref.Diagnostic) and wide.code == "KC002" and "UTF-16" in wide.message


# --- LiveLog refuses what check would reject -------------------------------------------------------

@pytest.mark.parametrize(("line", "code"), [("# a\0b", "KC003"), (TOO_LONG, "KC005"), ("# \ud800", "KC002"),
                                            ("# caf\udce9", "KC002"), (" " * (LINE_LIMIT + 1), "KC005")])
def test_live_log_refuses_a_line_check_would_reject(line: str, code: str) -> None:
    log = LiveLog("t.log")
    assert log.feed('[Players "Ann, Bob"]').accepted
    judged = log.feed(line)
    assert not judged.accepted and [d.code for d in judged.diagnostics] == [code]
    assert judged.line == 2 and log.lines == 1


def test_a_byte_order_mark_is_a_file_s_first_character_only() -> None:
    log = LiveLog("t.log")
    assert log.feed("\ufeff# a note").accepted  # line 1: check takes the mark off
    judged = log.feed("\ufeff# another")
    checked = [(d.line, d.code) for d in kcref.check_text("# a\n\ufeff# b\n").diagnostics if d.is_error]
    assert not judged.accepted and [(d.line, d.code) for d in judged.diagnostics] == checked == [(2, "KC106")]


# --- the property: LiveLog agrees with check -------------------------------------------------------

def _errors(report: kcref.FileReport, columns: bool = True) -> set[tuple[object, ...]]:
    return {(d.line, d.column if columns else 0, d.code, d.message) for d in report.diagnostics if d.is_error}


def _verdict(v: kcref.HandVerdict) -> tuple[object, ...]:
    return (v.winner, v.blocked, v.valid, v.cards_left, v.points, v.stacks_end, v.pot, [d.code for d in v.diagnostics])


def _agrees(log: LiveLog, held: str) -> None:
    """``held``, the text of the log ``log`` holds (what it wrote and its set-up waiting to be
    written), has exactly the errors ``log`` holds back, and the verdicts ``log`` gives."""
    report = kcref.check_text(held, "t.log")
    assert _errors(report) == {(d.line, d.column, d.code, d.message) for d in log.held_back if d.is_error}
    mine = log.report().hands
    assert [_verdict(v) for v in mine] == [_verdict(v) for v in report.hands[:len(mine)]]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines | st.none(), max_size=24))
@example(["#", "\x00"])
def test_live_log_agrees_with_check_on_any_lines(fed: list[str | None]) -> None:
    """The lines of any text fed to a LiveLog one by one (``None``: an undo), as ``kcref record``
    feeds them (a line end ends a line). After each:

    - accepted: the log's text (the ``written`` of the lines accepted, then its ``unwritten``
      set-up) checks with no error but those the log holds back (a hand with no layout yet), and
      with the log's verdicts;
    - refused: ``kcref check`` finds every error of the refusal in the log's text with the line
      after it, as typed (when it did not read), or in its canonical form (``judged.text``: the
      actions alone of a turn stand for the turn, which check reads written out);

    and what the log wrote (the file ``kcref record`` writes) checks with no error at all, and
    resumes into the same log."""
    log = LiveLog("t.log")
    file = ""  # what the log wrote, as kcref record appends it and cuts it back
    for line in (piece for typed in fed for piece in ([None] if typed is None else split_lines(typed) or [""])):
        if line is None:
            undone = log.undo()
            if undone is not None:
                assert file.endswith(undone.written)
                file = file[:len(file) - len(undone.written)]
            _agrees(log, file + log.unwritten)
            continue
        before = file + log.unwritten
        judged = log.feed(line)
        if judged.accepted:
            file += judged.written
            _agrees(log, file + log.unwritten)
            continue
        padded = before + "\n" * (judged.line - 1 - before.count("\n"))
        mine = {(d.line, d.column, d.code, d.message) for d in judged.errors}
        assert mine
        if judged.text:
            found = _errors(kcref.check_text(padded + judged.text + "\n", "t.log"), columns=False)
            assert {(n, 0, code, message) for n, _, code, message in mine} <= found
        else:
            found = _errors(kcref.check_text(padded + line + "\n", "t.log"))
            # Where check puts them: on the line as a rule, on the first line where the bytes
            # tell the whole file is not a log (a NUL after '#' reads as UTF-16).
            assert {(d.line, d.code) for d in judged.errors} <= {(n, code) for n, _, code, _ in found}
            if log.turn is None:  # no turn to stand for: the line is read as it is
                assert mine <= found
    assert not _errors(kcref.check_text(file, "t.log"))
    resumed = LiveLog.resume(file, "t.log")
    assert resumed.lines == log.lines - log.unwritten.count("\n")
    if not log.unwritten:
        assert (resumed.expect, resumed.turn, resumed.tags) == (log.expect, log.turn, log.tags)
        assert [_verdict(v) for v in resumed.report().hands] == [_verdict(v) for v in log.report().hands]


# --- memory and time: what the hand being played needs -----------------------------------------------

def _held_by(lines: list[str]) -> int:
    """Bytes a LiveLog fed ``lines`` holds."""
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        log = LiveLog("t.log")
        for line in lines:
            assert log.feed(line).accepted
        log.table  # noqa: B018  # what a view of the table keeps too
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()


def _hands(count: int) -> list[str]:
    return "".join(kcref.play_log(3, "commercial", seed=5, hands=count)).splitlines()


def test_a_live_log_holds_the_hand_being_played_and_little_per_hand_before() -> None:
    few, many = _hands(4), _hands(16)
    _held_by(many)  # the reader's caches (names, actions) are filled: they are no LiveLog's
    per_hand = (_held_by(many) - _held_by(few)) / 12
    # A finished hand leaves its verdict and its text, not the states of its lines.
    assert per_hand < 20_000, per_hand
    log = LiveLog("t.log")
    for line in many:
        log.feed(line)
    assert len(log._history) <= len(many) - max(i for i, line in enumerate(many) if line.startswith("hand")) + 1
    assert all(isinstance(e, kcref.Event) for e in log._state.hand)
    assert log._state.hand[0] == log.record.start  # type: ignore[union-attr]


def test_resume_judges_each_hand_once(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(kcref.play_log(3, "commercial", seed=5, hands=12))
    judged = []
    monkeypatch.setattr(live, "_judge", lambda *a: judged.append(1) or _judge(*a))
    log = LiveLog.resume(text, "t.log")
    last = len(text.splitlines()) - max(i for i, line in enumerate(text.splitlines()) if line.startswith("hand"))
    assert len(judged) <= last + 1  # the hands before the last judged by check's pipeline, then its lines one by one
    assert [_verdict(v) for v in (*log.finished, log.verdict)] == [  # type: ignore[arg-type]
        _verdict(v) for v in kcref.check_text(text, "t.log").hands]


_judge = live._judge


def test_undo_goes_back_through_every_hand_to_the_first_line() -> None:
    lines = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8")
    log = LiveLog.resume(lines, "t.log")
    text = lines
    while (judged := log.undo()) is not None:
        assert text.endswith(judged.written)
        text = text[:len(text) - len(judged.written)]
        if judged.text and not log.unwritten:
            fresh = LiveLog.resume(text, "t.log")
            assert (fresh.lines, fresh.expect, fresh.turn, [_verdict(v) for v in fresh.finished]) == (
                log.lines, log.expect, log.turn, [_verdict(v) for v in log.finished])
    assert log.lines == 0 and text.strip() == ""
