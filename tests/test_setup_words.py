"""KC210 says how a card seen twice was first seen: the set-up checks keep only a few facts per
card and put them in words for a message only (these texts are the ones before that change)."""

from __future__ import annotations

from kcref.referee.pipeline import check_text

LOG = """[Players "Ann, Bob"]
hand 1
deal Ann: QH 7H 6S 2C AD 9C 5D
deal Bob: 10H 9S 8D 7C 6H 5S QH
layout N:9D E:JS S:3C W:9D
Ann: draw 2H
Bob: draw 2H
reveal Ann: 2H 7H 9S
"""


def test_seen_twice_says_how_it_was_first_seen() -> None:
    found = [(d.line, d.column, d.message) for d in check_text(LOG, "x.log").diagnostics if d.code == "KC210"]
    assert found == [
        (4, 30, "QH appears twice in this hand: it was already dealt to Ann at line 3"),
        (5, 23, "9D appears twice in this hand: it was already in the layout at N at line 5"),
        (7, 6, "2H appears twice in this hand: it was already drawn by Ann at line 6"),
    ]  # 9S, revealed by Ann though dealt to Bob, is the replay's (KC326, ruling 19): not seen twice
