"""``kcref record`` at a prompt: prompt_toolkit driven through its pipe input, and Tab's offers."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kcref.apps.record.prompt import PromptSource, RecordCompleter
from kcref.apps.record.session import record
from kcref.apps.record.view import completions, prompt_text
from kcref.model.status import ExitStatus
from kcref.referee.live import LiveLog

SET_UP = ['[Players "Ann, Bob"]', "hand 1", "deal Ann: 3H 7C QS 2D 9H 4S 5C", "layout N:5D E:JS S:KH W:2C"]


def _typed(path: Path, pieces: list[str], tags: list[tuple[str, str]] | None = None) -> tuple[ExitStatus, str]:
    """Record ``path`` with ``pieces`` typed at the prompt, a moment apart (Tab's offers are
    worked out between keys); the status and what was printed."""
    out, err = io.StringIO(), io.StringIO()
    with create_pipe_input() as pipe:
        def type_in() -> None:
            for piece in pieces:
                pipe.send_text(piece)
                time.sleep(0.15)

        typist = threading.Thread(target=type_in, daemon=True)
        typist.start()
        status = record(str(path), tags or [], lambda log: PromptSource(log, input=pipe, output=DummyOutput()),
                        out, err)
        typist.join()
    assert err.getvalue() == ""
    return status, out.getvalue()


def test_a_session_at_the_prompt(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    status, printed = _typed(log, [
        "hand 1\ndeal Ann: 3H 7C QS 2D 9H 4S 5C\nlayout N:5D E:JS S:KH W:2C\n",
        "5H->Q\n",            # refused: not a pile
        "4S\t", "; dr\t", "\n",  # Tab: 4S->N (the one play of 4S), then draw
        "half-typed\x03",     # Ctrl-C drops the line
        "show\n", "undo\n", "help\n",
        "Bob: draw\n",        # refused: Ann is to play
        "draw\n", "quit\n",
    ], tags=[("Players", "Ann, Bob"), ("Rules", "commercial")])
    assert status is ExitStatus.OK  # a refused line is typed again: not a failure of the session
    assert printed.startswith(f"Recording a new log: {log}")
    assert "error KC103 expected a pile" in printed
    assert "N 4♠  E J♠" in printed  # 4S->N was played
    assert "Took back line 6: Ann: 4S->N; draw" in printed
    assert "Ann   7 cards  chips  39  Q♠ 3♥ 9♥ 2♦ 5♣ 7♣ + 1 unknown" in printed  # the full table
    assert "stock 33" in printed and "Bob to play" in printed  # the full table, as kcref show draws it
    assert "undo  take back the last line written" in printed
    assert "error KC310 it is Ann's turn, not Bob's" in printed
    assert "Ann made no play: pays 1 chip" in printed
    assert "half-typed" not in log.read_text(encoding="utf-8")
    assert log.read_text(encoding="utf-8") == "\n".join(
        ['[Players "Ann, Bob"]', '[Rules "commercial"]', *SET_UP[1:], "Ann: draw"]) + "\n"
    assert printed.endswith(f"{log} holds 6 lines.\n")


def test_ctrl_d_ends_and_resuming_shows_where_the_log_stands(tmp_path: Path) -> None:
    log = tmp_path / "night.log"
    log.write_text("\n".join(SET_UP) + "\n", encoding="utf-8")
    status, printed = _typed(log, ["\x04"])
    assert status is ExitStatus.OK
    assert printed.startswith(f"Resumed {log}: 4 lines, 1 hand; next: Ann\n")
    assert "cards: Ann 7, Bob 7" in printed


def test_the_prompt_says_whose_turn_or_what_comes_next() -> None:
    log = LiveLog()
    assert prompt_text(log) == "tag> "
    for line, expected in zip(SET_UP, ["hand> ", "deal> ", "deal> ", "Ann> "]):
        assert log.feed(line).accepted
        assert prompt_text(log) == expected


def _offers(log: LiveLog, text: str) -> list[str]:
    completer = RecordCompleter(log)
    found = list(completer.get_completions(Document(text), CompleteEvent(completion_requested=True)))
    replaced, offers = completions(log, text)
    assert [c.text for c in found] == offers
    assert all(c.start_position == -replaced for c in found)
    return offers


def test_tab_offers_the_legal_actions_of_a_known_hand() -> None:
    log = LiveLog()
    for line in SET_UP:
        assert log.feed(line).accepted
    moves = ["S->NE", "S->NW", "S->SE", "S->SW"]  # the pile with KH at its bottom may go to a corner
    assert _offers(log, "") == ["4S->N", "QS->S", *moves, "draw", "show", "undo", "help", "quit"]
    assert _offers(log, "4") == ["4S->N"]
    assert _offers(log, "Ann: 4S->N; ") == ["QS->S", "3H->N", *moves, "draw"]  # 3H fits on 4S now
    assert _offers(log, "4S->N; d") == ["draw"]
    assert _offers(log, "Ann: 9H->N; ") == []  # the actions so far are illegal: nothing to offer


def test_tab_offers_the_piles_a_card_may_go_on_from_an_unknown_hand() -> None:
    log = LiveLog()
    for line in [*SET_UP, "Ann: draw"]:
        assert log.feed(line).accepted
    assert log.turn == "Bob"
    assert _offers(log, "4C") == ["4C->N"]  # 4C fits on 5D
    assert _offers(log, "Bob: 10h-") == ["10H->E"]  # 10H fits on JS
    assert _offers(log, "6C") == []


def test_tab_offers_the_next_line_s_start() -> None:
    log = LiveLog()
    assert _offers(log, "[P") == ['[Players "']
    assert log.feed(SET_UP[0]).accepted
    assert _offers(log, "h") == ["hand 1", "help"]
    assert log.feed("hand 1").accepted
    assert _offers(log, "deal") == ["deal Ann: ", "deal Bob: "]
    assert _offers(log, "u") == ["undo"]
