"""The lexical rules of the log notation: the regexes of its tokens and its reserved words.

They are plain strings, so this module costs nothing to import: the reader's fast path compiles
them with :mod:`re`, and the pyparsing grammar (:mod:`kcref.notation.grammar`, built only when a
line needs it) is made of them too. This module imports nothing; a test keeps it in step with
the spellings of :mod:`kcref.model.cards`.
"""

from __future__ import annotations

RANK_RE = r"(?:10|[2-9AaTtJjQqKk])"
SUIT_RE = r"(?:[SHDCshdc]|[♠♥♦♣♤♡♢♧]\ufe0f?)"
CARD_RE = RANK_RE + SUIT_RE + r"(?![\w\ufe0f])"
PILE_RE = r"(?:[Nn][EeWw]?|[Ss][EeWw]?|[Ee]|[Ww])(?!\w)"
NAME_WORD_RE = r"[\w'.\-]+"
NAME_RE = NAME_WORD_RE + r"(?: " + NAME_WORD_RE + r")*"
ARROW_RE = r"(?:->|→)"
KEYWORDS = ("hand", "dealer", "deal", "layout", "draw", "pass", "blocked", "reveal")
PLAYER_ASSERTION_WORDS = ("score", "chips", "paid")
ASSERTION_WORDS = (*PLAYER_ASSERTION_WORDS, "pot")
"""The words that start an assertion line. They are not reserved: a line whose first name is
followed by ':' is a turn, so a player may be called Pot (``Pot: pass``)."""
AMOUNT_RE = r"-?\d{1,9}(?!\w)"  # bounded like a hand number
SUPPRESSION_MARK = "kcref:"
"""What a comment must hold to be a suppression (``# kcref: ignore[KC216]``; see
:mod:`kcref.referee.suppression`): the reader sets aside the lines whose comment holds it."""
