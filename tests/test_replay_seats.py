"""The referee keeps the seats of player references from hand to hand only while the players
are the same: a name that changes seat with the next [Players] tag is seated afresh."""

from __future__ import annotations

from kcref.engine.bots import play_log
from kcref.referee.pipeline import check_text


def _swapped(text: str) -> str:
    """The same hand with Ann and Bob trading names (so each keeps the other's seat)."""
    return text.replace("Ann", "\0").replace("Bob", "Ann").replace("\0", "Bob")


def test_a_name_that_changes_seat_is_seated_afresh() -> None:
    log = "".join(play_log(["Ann", "Bob"], seed=5))
    first = log[log.index("hand "):]  # from the hand line on, without the tags
    text = f'[Players "Ann, Bob"]\n\n{first}\n[Players "Bob, Ann"]\n\n{_swapped(first)}'
    report = check_text(text)
    assert report.errors == 0
    one, two = report.hands
    assert one.valid and two.valid
    assert two.players == ("Bob", "Ann")
    assert one.winner == two.winner and one.cards_left == two.cards_left
    assert two.winner_name == _swapped(one.winner_name or "")
