"""The grammar's lexical regexes agree with the spellings of kcref.model.cards.

kcref.notation.grammar imports nothing from kcref, so it keeps its own copy of the lexical rules
(RANK_RE, SUIT_RE, PILE_RE, CARD_RE). These tests hold the two copies together: each regex
matches exactly the spellings listed in kcref.model.cards, in every case, with U+FE0F after a suit
symbol, and nothing else in all of Unicode; and every such spelling reads as the card or pile
kcref.model.cards says.
"""

from __future__ import annotations

import itertools
import re
import string

import pytest

from kcref.model.cards import (
    RANK_SPELLINGS,
    SUIT_SPELLINGS,
    VARIATION_SELECTOR,
    Card,
    Pile,
    parse_card,
    parse_pile,
)
from kcref.notation import grammar

RANK = re.compile(grammar.RANK_RE)
SUIT = re.compile(grammar.SUIT_RE)
PILE = re.compile(grammar.PILE_RE)
CARD = re.compile(grammar.CARD_RE)

EVERY_CHAR = tuple(chr(i) for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF)
ASCII_PAIRS = tuple(a + b for a, b in itertools.product(string.ascii_letters + string.digits, repeat=2))


def case_variants(spelling: str) -> set[str]:
    """Every way of writing ``spelling`` with each letter in upper or lower case."""
    choices = [{ch.lower(), ch.upper()} if ch.isascii() else {ch} for ch in spelling]
    return {"".join(p) for p in itertools.product(*choices)}


SYMBOLS = {s for s in SUIT_SPELLINGS if not s.isascii()}
RANK_TEXTS = {v for k in RANK_SPELLINGS for v in case_variants(k)}
SUIT_TEXTS = {v for k in SUIT_SPELLINGS for v in case_variants(k)} | {s + VARIATION_SELECTOR for s in SYMBOLS}
PILE_TEXTS = {v for p in Pile for v in case_variants(p.value)}


def _suit_of(text: str) -> str:
    return text.removesuffix(VARIATION_SELECTOR).lower()


def test_the_spelling_tables_are_what_notation_md_lists() -> None:
    assert sorted(RANK_SPELLINGS) == sorted(["a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "t", "j", "q", "k"])
    assert set("♠♥♦♣♤♡♢♧") == SYMBOLS
    assert len(RANK_TEXTS) == 9 + 5 * 2 and len(SUIT_TEXTS) == 8 + 8 + 8 and len(PILE_TEXTS) == 4 * 2 + 4 * 4


def test_rank_re_matches_exactly_the_rank_spellings() -> None:
    candidates = EVERY_CHAR + ASCII_PAIRS + ("100", "1O", "l0")
    assert {c for c in candidates if RANK.fullmatch(c)} == RANK_TEXTS


def test_suit_re_matches_exactly_the_suit_spellings() -> None:
    candidates = EVERY_CHAR + tuple(c + VARIATION_SELECTOR for c in EVERY_CHAR) + ASCII_PAIRS
    candidates += tuple(s + VARIATION_SELECTOR * 2 for s in SYMBOLS)
    assert {c for c in candidates if SUIT.fullmatch(c)} == SUIT_TEXTS


def test_pile_re_matches_exactly_the_pile_names() -> None:
    candidates = EVERY_CHAR + ASCII_PAIRS + tuple(a + b for a in "NnSs" for b in "EeWwſ\u212a") + ("NEW", "SEW")
    assert {c for c in candidates if PILE.fullmatch(c)} == PILE_TEXTS


@pytest.mark.parametrize("rank", sorted(RANK_TEXTS))
def test_every_card_spelling_reads_as_cards_says(rank: str) -> None:
    for suit in sorted(SUIT_TEXTS):
        text = rank + suit
        assert CARD.fullmatch(text), text
        assert parse_card(text) == Card(RANK_SPELLINGS[rank.lower()], SUIT_SPELLINGS[_suit_of(suit)]), text


def test_every_pile_spelling_reads_as_cards_says() -> None:
    for text in PILE_TEXTS:
        assert parse_pile(text) == Pile(text.upper()), text


def test_a_card_ends_where_a_word_would_go_on() -> None:
    """CARD_RE refuses a card glued to a word character or to an extra U+FE0F."""
    for text in ("8Hx", "8H8", "K♠Q", "8H" + VARIATION_SELECTOR, "K♠" + VARIATION_SELECTOR * 2, "10H_", "TSé"):
        assert not CARD.fullmatch(text), text
    for text in ("8H-", "K♠;", "K♠" + VARIATION_SELECTOR + "#", "10h ", "TS'"):
        assert CARD.match(text) and not CARD.fullmatch(text), text


def test_parse_card_is_never_stricter_than_the_grammar() -> None:
    """Every text CARD_RE accepts reads as a card; parse_card's only extra leniencies are listed.

    parse_card is only ever given text that CARD_RE matched, so its leniencies do not reach a
    log; they are pinned down here so that a change to either side is seen.
    """
    alphabet = "0123456789AaTtJjQqKkSsHhDdCcXxNn ♠♥♦♣♤♡♢♧\ufe0fſ\u212a"
    for n in (1, 2, 3):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            try:
                card: Card | None = parse_card(text)
            except ValueError:
                card = None
            if CARD.fullmatch(text):
                assert card is not None, text
                continue
            if card is not None:
                lenient = (text != text.strip() or "\u212a" in text
                           or (text.endswith(VARIATION_SELECTOR) and text[-2].isascii()))
                assert lenient, f"parse_card accepts {text!r} for an unlisted reason"
