"""The live judging API (kcref.referee.live): one line at a time, exactly as kcref check judges a log."""

from __future__ import annotations

from pathlib import Path

import pytest

import kcref
from kcref.referee.live import Expect, LiveLog, LogHasErrors
from tests.util import ROOT

SAMPLES = sorted((ROOT / "samples").glob("*.log"))
INVALID = sorted((ROOT / "samples" / "invalid").glob("*.log"))

HEAD = ['[Players "Ann, Bob"]', '[Rules "commercial"]', "hand 1"]
LAYOUT = "layout N:5D E:JS S:KH W:2C"


def _log(lines: list[str], path: str = "t.log") -> LiveLog:
    log = LiveLog(path)
    for line in lines:
        judged = log.feed(line)
        assert judged.accepted, judged
    return log


def _verdict_key(v: kcref.HandVerdict) -> tuple[object, ...]:
    return (v.winner, v.blocked, v.valid, v.cards_left, v.points, v.stacks_end, v.pot, v.penalties, v.diagnostics)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_sample_fed_line_by_line_gives_check_s_verdicts_and_fmt_s_text(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    log = LiveLog(str(sample))
    written = []
    for line in text.splitlines():
        judged = log.feed(line)
        assert judged.accepted, judged
        written.append(judged.written)
    report = kcref.check_text(text, str(sample))
    hands = [*log.finished, log.verdict]
    assert [_verdict_key(v) for v in hands] == [_verdict_key(v) for v in report.hands]
    from kcref.notation.writer import write_text

    assert "".join(written) == write_text(e for e in kcref.read_text(text, trivia=True)
                                          if not isinstance(e, kcref.Diagnostic))
    assert log.lines == len(text.splitlines())


@pytest.mark.parametrize("sample", INVALID, ids=lambda p: p.name)
def test_the_first_refused_line_of_an_invalid_sample_has_check_s_first_error(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    log = LiveLog(str(sample))
    first = next((d for d in kcref.check_text(text, str(sample)).diagnostics if d.is_error), None)
    refused = next(((n, j) for n, j in enumerate(map(log.feed, text.splitlines()), 1) if not j.accepted), None)
    if refused is None:
        assert first is None  # a log with warnings only (no hand: KC004) is all accepted
        return
    number, judged = refused
    assert first is not None
    assert number == first.line
    assert any((d.line, d.column, d.code, d.message) == (first.line, first.column, first.code, first.message)
               for d in judged.at(str(sample), number))


def test_a_refused_line_leaves_the_state_as_it_was() -> None:
    log = _log([*HEAD, LAYOUT])
    before = (log.lines, log.turn, log.table.stock if log.table else None)
    judged = log.feed("Ann: 5H->N")  # 5H on 5D: not one rank lower
    assert not judged.accepted
    assert [d.code for d in judged.diagnostics] == ["KC301"]
    assert judged.diagnostics[0].line == 5 and judged.diagnostics[0].column == 6
    assert judged.written == ""
    assert (log.lines, log.turn, log.table.stock if log.table else None) == before


def test_a_syntax_error_is_refused_at_its_column() -> None:
    log = _log(HEAD)
    judged = log.feed("layout N:5D E:JS S:KX W:2C")
    assert not judged.accepted
    assert judged.diagnostics[0].code == "KC102"
    assert judged.diagnostics[0].line == 4


def test_accepted_lines_are_written_canonical_and_penalties_reported() -> None:
    log = _log(HEAD)
    judged = log.feed("layout  n:5d e:js s:kh w:2c   # spaces")
    assert judged.accepted and judged.text == "layout N:5D E:JS S:KH W:2C # spaces"
    assert judged.written == "hand 1\n" + judged.text + "\n"  # the hand's set-up is written with its layout
    judged = log.feed("Ann: draw")
    assert judged.accepted
    assert [(d.code, d.message) for d in judged.diagnostics] == [("KC401", "Ann made no play: pays 1 chip")]
    assert log.turn == "Bob"


def test_the_actions_alone_stand_for_the_turn_of_the_player_to_play() -> None:
    log = _log([*HEAD, LAYOUT])
    judged = log.feed("draw")
    assert judged.accepted and judged.text == "Ann: draw"
    refused = log.feed("5H->Q")
    assert refused.diagnostics[0].code == "KC103"
    assert refused.diagnostics[0].column == 5  # in the text as typed
    assert refused.diagnostics[0].source == "5H->Q"


def test_undo_takes_back_the_last_line() -> None:
    log = _log([*HEAD, LAYOUT, "Ann: draw"])
    judged = log.undo()
    assert judged is not None and judged.text == "Ann: draw" and judged.written == "Ann: draw\n"
    assert log.turn == "Ann" and log.lines == 4
    assert log.feed("Ann: draw").accepted
    while log.undo() is not None:
        pass
    assert log.lines == 0 and log.expect is Expect.TAG


def test_a_hand_without_a_layout_is_open_until_the_next_hand_line() -> None:
    log = _log(HEAD)
    assert log.expect is Expect.DEAL
    assert log.feed("deal Ann: 3H 7C QS 2D 9H 4S 5C").accepted
    assert log.feed("deal Bob: KD 8S 6H JC 2S 10D 4C").accepted
    assert log.expect is Expect.LAYOUT
    judged = log.feed("hand 2")
    assert not judged.accepted
    assert [(d.code, d.line) for d in judged.diagnostics] == [("KC215", 3)]


def test_an_unfinished_hand_is_closed_with_a_warning_and_the_dealer_passes_left() -> None:
    log = _log([*HEAD, LAYOUT, "Ann: draw"])
    judged = log.feed("hand 2")
    assert judged.accepted
    assert [d.code for d in judged.diagnostics] == ["KC501", "KC502"]
    assert judged.closed is not None and not judged.closed.finished
    assert log.record is not None and log.record.dealer == 0  # passed from Bob (hand 1) to Ann
    assert log.feed(LAYOUT).accepted
    assert log.turn == "Bob"
    assert log.feed("hand 4").accepted is True  # a warning (KC214), not an error


def test_a_hand_that_ends_gives_its_verdict_and_the_standings_count_it() -> None:
    lines = (ROOT / "samples" / "short-classic.log").read_text(encoding="utf-8").splitlines()
    log = LiveLog("s.log")
    ended = [j.verdict for j in map(log.feed, lines) if j.verdict is not None]
    assert [v.winner_name for v in ended] == ["Ann", "Bob"]
    assert len(log.report().hands) == 2


def test_resume_rebuilds_the_state_and_refuses_logs_with_errors_or_not_canonical(tmp_path: Path) -> None:
    text = "\n".join([*HEAD, LAYOUT, "Ann: draw"]) + "\n"
    log = LiveLog.resume(text, "r.log")
    assert log.lines == 5 and log.turn == "Bob"
    assert log.undo() is not None and log.turn == "Ann"
    with pytest.raises(LogHasErrors) as bad:
        LiveLog.resume(text + "Ann: draw\n", "r.log")
    assert [d.code for d in bad.value.diagnostics] == ["KC310"]
    with pytest.raises(LogHasErrors, match="canonical"):
        LiveLog.resume(text.replace("Ann: draw", "Ann:  draw"), "r.log")


def test_a_blank_line_waits_for_the_next_line() -> None:
    log = _log(HEAD[:2])
    blank = log.feed("")
    assert blank.accepted and blank.written == "" and log.lines == 2
    judged = log.feed("hand 1")
    assert judged.line == 4 and judged.written == "" and log.unwritten == "\nhand 1\n"
    assert log.feed("# dealt").written == ""
    assert log.feed(LAYOUT).written == "\nhand 1\n# dealt\n" + LAYOUT + "\n"
    assert log.unwritten == ""
    assert log.undo() is not None and log.unwritten == "\nhand 1\n# dealt\n"


def test_feed_takes_one_line() -> None:
    with pytest.raises(ValueError, match="one line"):
        LiveLog().feed("hand 1\nhand 2")


def test_the_live_api_is_public() -> None:
    assert kcref.LiveLog is LiveLog
    assert kcref.Judgement.__name__ == "Judgement"


def test_assertion_lines_are_judged_as_check_judges_them() -> None:
    lines = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8").splitlines()
    log = _log(lines[:20])  # hand 1 up to Eli going out
    refused = log.feed("pot 15")
    assert not refused.accepted and refused.diagnostics[0].code == "KC601"
    assert log.feed("pot 16").accepted
    assert log.feed("chips Dora 17, Eli 35, Fran 15, Gus 13").accepted
    assert not log.feed("Dora: draw").accepted  # the hand is over


def test_what_a_front_end_reads_legal_actions_seen_cards_last_lines() -> None:
    from kcref.notation.writer import action_text

    deal = "deal Ann: 7H AH 7C KS QS JC JD"
    log = _log([*HEAD, deal])
    assert log.legal_actions() == ()  # no table yet
    assert sorted(map(str, log.seen_cards())) == sorted(deal.split(": ")[1].split())
    assert log.last_lines(2) == ('hand 1', deal) and log.last_lines(0) == ()
    log.feed("layout N:KC E:JH S:2C W:QH")
    offers = [action_text(a) for a in log.legal_actions()]
    assert "KS->NE" in offers and "AH->S" in offers and "draw" in offers
    after = [action_text(a) for a in log.legal_actions([kcref.PlayCard(kcref.parse_card("KS"), kcref.Pile.NE)])]
    assert "KS->NE" not in after and "AH->S" in after
    assert log.legal_actions([kcref.PlayCard(kcref.parse_card("5S"), kcref.Pile.N)]) == ()  # not Ann's card
    assert {"KC", "JH", "2C", "QH", "7H"} <= set(map(str, log.seen_cards()))
    # A resumed log (its hands before the last judged at once) tells its last lines as well.
    text = (ROOT / "samples" / "commercial-night.log").read_text(encoding="utf-8")
    resumed = LiveLog.resume(text)
    assert resumed.last_lines(30) == tuple(text.splitlines()[-30:])
