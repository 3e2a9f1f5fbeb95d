"""``LiveLog.resume``: a log's complete hands judged through the pipeline of ``kcref check``,
reading the text once, each hand once; the last hand fed line by line. What it gives is the
log that feeding the text's lines one by one gives, refusals and all."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kcref
from kcref.notation.reader import BOM, split_lines
from kcref.referee import live
from kcref.referee.live import Judgement, LiveLog, LogHasErrors
from kcref.referee.pipeline import check_items
from kcref.referee.verdict import HandVerdict
from tests.util import ROOT

SAMPLES = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "samples").glob("*.log"))]


def _play(players: int, rules: str, seed: int, hands: int) -> str:
    return "".join(kcref.play_log(players, rules, seed=seed, hands=hands))


def _count(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[Any]:
    """Each call of ``module.name`` from now on, by its first argument."""
    calls: list[Any] = []
    real: Callable[..., Any] = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0] if args else None)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def _judged_by_pipeline(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[int]]:
    """Each call of the pipeline (``check_items``) from now on, by the path it checks, and the
    index of each hand whose verdict it hands on: each hand it judged. (Counted from live, which
    calls it: in the compiled build the referee's own modules call each other directly.)"""
    calls: list[str] = []
    judged: list[int] = []
    real = live.check_items

    def spy(items: Any, path: str, **kwargs: Any) -> Any:
        calls.append(path)
        on_hand = kwargs["on_hand"]

        def seen(verdict: HandVerdict, line: int) -> None:
            judged.append(verdict.index)
            on_hand(verdict, line)

        return real(items, path, **{**kwargs, "on_hand": seen})

    monkeypatch.setattr(live, "check_items", spy)
    return calls, judged


def _last_hand_line(text: str) -> int:
    """The index of the last ``hand`` line among the text's lines."""
    return max(i for i, line in enumerate(text.splitlines()) if line.startswith("hand"))


# --- reading once, judging once ---------------------------------------------------------------------

def test_resume_reads_the_text_once_and_judges_each_complete_hand_once_through_the_pipeline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = _play(3, "commercial", 5, 12)
    lines = text.splitlines()
    last = _last_hand_line(text)
    pipelines, by_pipeline = _judged_by_pipeline(monkeypatch)
    read = _count(monkeypatch, live, "text_stream")
    by_line = _count(monkeypatch, live, "referee_hand")  # what judging a line fed calls
    playing = _count(monkeypatch, live, "open_hand")  # the same, for the hand being played
    log = LiveLog.resume(text, "t.log")
    assert len(pipelines) == 1 and read == ["".join(line + "\n" for line in lines[:last])]
    assert by_pipeline == list(range(1, 12))  # each hand before the last, once
    # Then the last hand's lines fed one by one: the hand before it judged again for the state
    # it leaves, and once more closed by the last hand's hand line; the last hand with each line
    # up to its first turn, from which each line is judged alone, against the hand so far.
    first_turn = next(i for i in range(last, len(lines)) if re.match(r"(Ann|Bob|Cy): ", lines[i]))
    assert len(by_line) + len(playing) == 2 + first_turn - last
    assert [v.index for v in log.finished] == list(range(1, 12))
    report = kcref.check_text(text, "t.log")
    assert [*log.finished, log.verdict] == report.hands
    assert list(log.report().hand_lines) == list(report.hand_lines)


def test_a_log_with_an_error_is_judged_at_once_up_to_the_hand_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _play(2, "classic", 3, 10).splitlines()
    hands = [i for i, line in enumerate(lines) if line.startswith("hand")]
    bad = next(i for i in range(hands[6], hands[7]) if lines[i].startswith("Ann: ") and "->" in lines[i])
    lines[bad] = lines[bad].replace("Ann: ", "Bob: ")  # not Bob's turn: KC310
    text = "\n".join(lines) + "\n"
    by_line = _count(monkeypatch, live, "referee_hand")
    with pytest.raises(LogHasErrors) as refused:
        LiveLog.resume(text, "t.log")
    assert [(d.line, d.code) for d in refused.value.diagnostics] == [(bad + 1, "KC310")]
    assert len(by_line) <= 3 + bad - hands[6]  # hand 7 fed line by line, not the whole log


# --- the same log as feeding every line ----------------------------------------------------------------

def _fed(text: str, path: str) -> LiveLog:
    """``LiveLog.resume(text, path)`` as its docstring says it: every line of the text fed."""
    log = LiveLog(path)
    written = []
    for number, line in enumerate(split_lines(text.removeprefix(BOM)), 1):
        judged = log.feed(line)
        if not judged.accepted:
            raise LogHasErrors(f"{path} has errors: run 'kcref check' on it and fix them first",
                               judged.at(path, number))
        written.append(judged.written)
    if log.unwritten:
        raise LogHasErrors(f"{path} ends with a hand that has no layout: run 'kcref check' on it and fix it first")
    if log._state.blank or "".join(written) != text:
        raise LogHasErrors(f"{path} is not in canonical form: run 'kcref fmt --write' on it first")
    return log


def _outcome(make: Callable[[str, str], LiveLog], text: str) -> LiveLog | tuple[str, tuple[kcref.Diagnostic, ...]]:
    try:
        return make(text, "t.log")
    except LogHasErrors as exc:
        return str(exc), exc.diagnostics


def _history(log: LiveLog) -> list[Judgement]:
    return [judged for _, judged in log._history]


def _same_log(resumed: LiveLog, fed: LiveLog) -> None:
    assert resumed._state == fed._state
    assert _history(resumed) == _history(fed)
    assert (resumed._finished, resumed._finished_lines) == (fed._finished, fed._finished_lines)
    assert ("".join(resumed._segments), resumed._texts) == ("".join(fed._segments), fed._texts)


ODD = ["", "   ", "# a note", "hand", "hand 9", "  hand 3 # late", "HAND 4 dealer Bob", "blocked", "pot 3",
       "Ann: draw", "Bob: pass", "Ann: 4S->N # kcref: ignore[KC301, KC310]", '[Players "Ann, Bob, Cy"]',
       '[Rules "classic"]', "layout N:5D E:JS S:KH W:2C", "\ufeff# mark", "a\0b", "# caf\udce9"]


@st.composite
def _logs(draw: st.DrawFn) -> str:
    """A log, sometimes changed a little: a line taken out, one put in, blank lines, spaces, CRLF
    line ends, a byte order mark, no last line end."""
    if draw(st.booleans()):
        text = draw(st.sampled_from(SAMPLES))
    else:
        text = _play(draw(st.integers(2, 4)), draw(st.sampled_from(["commercial", "classic"])),
                     draw(st.integers(0, 99)), draw(st.integers(1, 5)))
        if draw(st.booleans()):
            text = re.sub(r"(?m)^hand \d+", "hand", text)
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(lines) - 1))
        change = draw(st.sampled_from(["drop", "insert", "blank", "space", "digit"]))
        if change == "drop":
            del lines[at]
        elif change == "insert":
            lines.insert(at, draw(st.sampled_from(ODD)))
        elif change == "blank":
            lines[at:at] = ["", ""]
        elif change == "space":
            lines[at] = lines[at].replace(" ", "  ", 1)
        else:
            lines[at] = re.sub(r"[2-9]", str(draw(st.integers(2, 9))), lines[at], count=1)
    text = "\n".join(lines)
    return draw(st.sampled_from(["", BOM])) + (text.replace("\n", "\r\n") if draw(st.booleans()) else text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_logs(), st.integers(0, 30))
def test_resume_is_the_log_every_line_fed_gives(text: str, undos: int) -> None:
    """Refused with the same diagnostics for the same reason, or the same log, state by state
    back through ``undo`` (across hands: the log rebuilt from its text)."""
    resumed, fed = _outcome(LiveLog.resume, text), _outcome(_fed, text)
    if not isinstance(fed, LiveLog):
        assert resumed == fed
        return
    assert isinstance(resumed, LiveLog)
    _same_log(resumed, fed)
    for _ in range(undos):
        undone = resumed.undo()
        assert undone == fed.undo()
        _same_log(resumed, fed)
        if undone is None:
            break


def test_blank_lines_the_log_does_not_number_are_read_as_fed() -> None:
    text = _play(2, "classic", 1, 4)
    lines = text.splitlines()
    lines[4:4] = ["", ""]  # two blank lines in a row: the second is not numbered, not written
    with pytest.raises(LogHasErrors, match="canonical"):
        LiveLog.resume("\n".join(lines) + "\n", "t.log")
    last = _last_hand_line(text) + 2
    bad = next(i for i in range(last - 20, last) if lines[i].startswith("Ann: ") and "->" in lines[i])
    lines[bad] = lines[bad].replace("Ann: ", "Bob: ")
    resumed, fed = _outcome(LiveLog.resume, "\n".join(lines) + "\n"), _outcome(_fed, "\n".join(lines) + "\n")
    assert resumed == fed
    assert not isinstance(fed, LiveLog) and [d.line for d in fed[1]] == [bad + 1]


# --- what the pipeline is asked for -----------------------------------------------------------------

def test_a_suppressed_error_refuses_its_line_on_resume_as_when_it_is_fed() -> None:
    lines = _play(2, "classic", 3, 3).splitlines()
    hands = [i for i, line in enumerate(lines) if line.startswith("hand")]
    bad = next(i for i in range(hands[0], hands[1]) if lines[i].startswith("Ann: ") and "->" in lines[i])
    lines[bad] = lines[bad].replace("Ann: ", "Bob: ") + " # kcref: ignore[KC310]"
    text = "\n".join(lines) + "\n"
    assert kcref.check_text(text).errors == 0  # check silences it
    with pytest.raises(LogHasErrors) as refused:
        LiveLog.resume(text, "t.log")
    assert [(d.line, d.code) for d in refused.value.diagnostics] == [(bad + 1, "KC310")]


def test_check_items_without_suppress_reads_no_suppression() -> None:
    text = '[Players "Ann, Bob"]\nhand 1 dealer Cy # kcref: ignore[KC205]\nlayout N:5D E:JS S:KH W:2C\n'

    def codes(suppress: bool) -> list[str]:
        return [d.code for d in check_items(kcref.read_text(text, "t.log"), "t.log", suppress=suppress).diagnostics]

    assert "KC205" not in codes(True) and codes(False).count("KC205") == 1
    assert "KC007" not in codes(False)


# --- hands without a number ----------------------------------------------------------------------

def test_hands_without_a_number_are_counted_in_the_log_fed_or_resumed() -> None:
    text = re.sub(r"(?m)^hand \d+", "hand", _play(3, "commercial", 5, 5))
    log = LiveLog("t.log")
    closed: list[HandVerdict] = []
    for line in text.splitlines():
        judged = log.feed(line)
        assert judged.accepted
        if judged.closed is not None:
            closed.append(judged.closed)
    assert [v.index for v in closed] == [v.index for v in log.finished] == [1, 2, 3, 4]
    assert log.verdict is not None and log.verdict.index == 5 and log.next_number == 6
    assert [v.index for v in kcref.check_text(text).hands] == [1, 2, 3, 4, 5]
    resumed = LiveLog.resume(text, "t.log")
    assert [v.index for v in resumed.finished] == [1, 2, 3, 4] and resumed.next_number == 6


# --- undo across hands ------------------------------------------------------------------------------

def _typed(text: str) -> Iterator[str]:
    """The lines of a log as typed at the recorder's prompt: a turn's actions alone."""
    for line in text.splitlines():
        head, colon, rest = line.partition(": ")
        yield rest if colon and not head.startswith(("deal", "reveal")) and " " not in head else line


def test_undo_across_hands_of_a_typed_log_rebuilds_it_through_the_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _play(3, "commercial", 7, 4)
    log = LiveLog("t.log")
    file = ""
    for line in _typed(text):
        judged = log.feed(line)
        assert judged.accepted, judged
        file += judged.written
    assert file == text
    pipelines = _count(monkeypatch, live, "check_items")
    while log.record is not None and (log.record.number == 4 or log._state.blank):
        undone = log.undo()
        assert undone is not None
        file = file[:len(file) - len(undone.written)]
    assert len(pipelines) == 1  # the lines typed are kept as written: check reads them
    fresh = LiveLog.resume(file, "t.log")
    _same_log(log, fresh)
