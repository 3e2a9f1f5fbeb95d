"""Hypothesis strategies: random events, and random (messy but valid) ways to write them."""

from __future__ import annotations

from hypothesis import strategies as st

from kcref.model.cards import DECK, Card, Pile, Rank
from kcref.model.events import (
    PASS,
    Assertion,
    Blank,
    Blocked,
    Claim,
    Comment,
    Deal,
    Draw,
    HandStart,
    Layout,
    MovePile,
    PlayCard,
    Quantity,
    Reveal,
    Tag,
    Turn,
)

NAMES = ("Ann", "Bob", "Cy", "Mary Jo", "O'Neil", "P1", "P2", "p3", "Zoë")
cards = st.sampled_from(DECK)
piles = st.sampled_from(list(Pile))
names = st.sampled_from(NAMES)
comments = st.one_of(st.just(""), st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                                          max_size=12).map(lambda t: ("#" + t).rstrip()))
actions = st.one_of(
    st.builds(PlayCard, cards, piles),
    st.builds(MovePile, piles, piles),
    st.builds(Draw, st.none() | cards),
    st.just(PASS),
)
amounts = st.integers(-999_999_999, 999_999_999)
player_quantities = st.sampled_from([q for q in Quantity if q is not Quantity.POT])
assertions = st.one_of(
    st.builds(Assertion, player_quantities,
              st.lists(st.builds(Claim, names, amounts), min_size=1, max_size=4).map(tuple), comment=comments),
    st.builds(Assertion, st.just(Quantity.POT), st.builds(Claim, st.none(), amounts).map(lambda c: (c,)),
              comment=comments),
)
tag_values = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=15)
events = st.one_of(
    st.builds(Tag, st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}", fullmatch=True), tag_values, comment=comments),
    st.builds(HandStart, st.none() | st.integers(0, 999), st.none() | names, comment=comments),
    st.builds(Deal, names, st.lists(cards, min_size=1, max_size=8).map(tuple), comment=comments),
    st.builds(Reveal, names, st.lists(cards, min_size=1, max_size=8).map(tuple), comment=comments),
    st.builds(Layout, st.lists(st.tuples(piles, cards), min_size=1, max_size=6).map(tuple), comment=comments),
    st.builds(Turn, names, st.lists(actions, min_size=1, max_size=6).map(tuple), comment=comments),
    st.builds(Blocked, comment=comments),
    assertions,
    st.builds(Comment, comments.filter(bool)),
    st.builds(Blank),
)
logs = st.lists(events, max_size=25)


# --- messy writing: every spelling the base notation allows (grammar/README.md) ---------------

SYMBOLS = {"S": "♠♤", "H": "♥♡", "D": "♦♢", "C": "♣♧"}


@st.composite
def messy_card(draw: st.DrawFn, card: Card) -> str:
    rank = card.rank.text(draw(st.sampled_from(["10", "T", "t"]))) if card.rank is Rank.R10 else card.rank.text()
    rank = draw(st.sampled_from([rank, rank.lower()]))
    letter = card.suit.value
    suit = draw(st.sampled_from([letter, letter.lower(), *SYMBOLS[letter]]))
    if len(suit.encode()) > 1 and draw(st.booleans()):
        suit += "\ufe0f"
    return rank + suit


def _case(draw: st.DrawFn, word: str) -> str:
    return draw(st.sampled_from([word, word.upper(), word.capitalize()]))


@st.composite
def messy_line(draw: st.DrawFn, event: object) -> str:
    sp = lambda: draw(st.sampled_from([" ", "  ", "\t", " \t"]))  # noqa: E731
    opt = lambda: draw(st.sampled_from(["", " ", "\t"]))  # noqa: E731
    comment = getattr(event, "comment", "")
    tail = (sp() + comment) if comment else opt()
    if isinstance(event, Comment):
        return opt() + event.text
    if isinstance(event, Blank):
        return draw(st.sampled_from(["", " ", "\t "]))
    if isinstance(event, Tag):
        value = event.value.replace("\\", "\\\\").replace('"', '\\"')
        return f'{opt()}[{event.name}{sp()}"{value}"]{tail}'
    if isinstance(event, HandStart):
        body = _case(draw, "hand")
        if event.number is not None:
            body += sp() + str(event.number)
        if event.dealer is not None:
            body += sp() + _case(draw, "dealer") + sp() + event.dealer
        return opt() + body + tail
    if isinstance(event, (Deal, Reveal)):
        word = "deal" if isinstance(event, Deal) else "reveal"
        cards_text = sp().join(draw(messy_card(c)) for c in event.cards)
        return f"{opt()}{_case(draw, word)}{sp()}{event.player}{opt()}:{opt()}{cards_text}{tail}"
    if isinstance(event, Layout):
        entries = sp().join(
            f"{_case(draw, p.value)}{opt()}:{opt()}{draw(messy_card(c))}" for p, c in event.piles)
        return f"{opt()}{_case(draw, 'layout')}{sp()}{entries}{tail}"
    if isinstance(event, Turn):
        parts = []
        for a in event.actions:
            arrow = opt() + draw(st.sampled_from(["->", "→"])) + opt()
            if isinstance(a, PlayCard):
                parts.append(draw(messy_card(a.card)) + arrow + _case(draw, a.pile.value))
            elif isinstance(a, MovePile):
                parts.append(_case(draw, a.source.value) + arrow + _case(draw, a.target.value))
            elif isinstance(a, Draw):
                parts.append(_case(draw, "draw") + ("" if a.card is None else sp() + draw(messy_card(a.card))))
            else:
                parts.append(_case(draw, "pass"))
        sep = ";" + opt()
        trailing = draw(st.sampled_from(["", ";"]))
        return f"{event.player}{opt()}:{opt()}{sep.join(parts)}{trailing}{tail}"
    if isinstance(event, Assertion):
        claims = (opt() + "," + opt()).join(
            str(c.amount) if c.player is None else f"{c.player}{sp()}{c.amount}" for c in event.claims)
        return f"{opt()}{_case(draw, event.quantity.value)}{sp()}{claims}{tail}"
    assert isinstance(event, Blocked)
    return opt() + _case(draw, "blocked") + tail


@st.composite
def messy_logs(draw: st.DrawFn) -> tuple[list[object], str]:
    """Random events and a messy text that must read back as exactly those events."""
    evs = draw(logs)
    lines = [draw(messy_line(e)) for e in evs]
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return evs, bom + newline.join(lines) + (newline if lines and draw(st.booleans()) else "")
