"""Play a hand by the rules: start it, judge and apply each action, end turns, settle chips.

A turn is ``begin_turn`` (whose turn is it?), any number of ``apply`` calls, then ``end_turn``.
Each refuses what the rules forbid by raising :class:`~kcref.engine.faults.IllegalAction`; penalties
that the rules price in chips are paid at once and reported as :class:`~kcref.engine.table.Note`
records in ``table.notes``. After an ``IllegalAction`` the table is not reliable any more.

Judging a legal action is a few direct checks; :func:`legal_actions` builds the full list
only for bots, and it accepts exactly what :func:`apply` accepts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..model.cards import CORNERS, DECK, FOUNDATIONS, HAND_SIZE, Card, Pile
from ..model.events import PASS, Action, Draw, MovePile, Pass, PlayCard
from ..model.options import Options
from ..model.words import names_list, noun, plural
from .faults import (
    IllegalAction,
    bad_move,
    bad_play,
    not_held,
    seen_twice,
    where_is,
)
from .moves import (
    CORNER_SET,
    KING,
    KINGS,
    card_plays,
    first_play,
    in_order,
    may_move,
    pile_moves,
    placeable,
)
from .policy import Fault
from .table import Closed, Holding, Note, Table, Unchecked
from .values import chip_value, hand_value

# --- chips -----------------------------------------------------------------------------------


def _pay(t: Table, seat: int, chips: int, code: str, message: str, step: int | None) -> None:
    """Move ``chips`` from a player's stack to the pot; report a debt the first time."""
    stacks = t.stacks
    assert stacks is not None
    stacks[seat] -= chips
    t.pot += chips
    if code:
        t.notes.append(Note(code, seat, chips, message, step))
    if stacks[seat] < 0 and seat not in t.debtors:
        t.debtors.add(seat)
        t.notes.append(Note("KC503", seat, 0, f"{t.names[seat]} is in debt: the stack is down to "
                                               f"{stacks[seat]}", step))


# --- starting a hand -------------------------------------------------------------------------


def start_hand(options: Options, names: Sequence[str], dealer: int,
               deals: Mapping[int, Sequence[Card]], layout: Sequence[tuple[Pile, Card]], *,
               stacks: Sequence[int] | None = None, pot: int = 0,
               deck: Sequence[Card] | None = None) -> Table:
    """The table when play starts.

    ``deals`` maps seats to their seven dealt cards (a seat left out has an unknown hand);
    ``layout`` is the table's first cards, corners included where layout Kings went there.
    Where chips are played, ``stacks`` are the players' chips before the ante (default: the
    scoring system's starting stacks) and ``pot`` chips already lie in the pot. ``deck`` is
    the stock's order, top card first, when it is known (self-play). Raises
    :class:`IllegalAction` for a layout the rules forbid, with ``step`` the entry's index.
    """
    t = Table(options, names, dealer, stock=len(DECK) - HAND_SIZE * len(names) - len(layout))
    _deal(t, deals)
    _lay_out(t, layout)
    if deck is not None:
        if len(deck) != t.stock:
            raise ValueError(f"the stock should hold {t.stock} cards, not {len(deck)}")
        t.deck = list(reversed(deck))
    if t.policy.chips:
        _ante(t, options, stacks, pot)
    return t


def _deal(t: Table, deals: Mapping[int, Sequence[Card]]) -> None:
    """Give each seat its dealt cards, or a hand of unknown cards where the deal is not known."""
    for seat, hand in enumerate(t.holdings):
        cards = deals.get(seat)
        if cards is None:
            hand.unknown = HAND_SIZE
        else:
            hand.known.update(cards)
            t.dealt_kings[seat] = KINGS.intersection(cards)
            t.seen.update(cards)


def _lay_out(t: Table, layout: Sequence[tuple[Pile, Card]]) -> None:
    """Turn up the layout's cards, refusing an entry the rules forbid (``step``: its index)."""
    to_corner = t.policy.layout_kings_to_corner
    for i, (pile, card) in enumerate(layout):
        if pile in CORNER_SET:
            _check_layout_corner(t, to_corner, i, pile, card)
        elif to_corner and card.rank is KING:
            raise IllegalAction("KC323", f"a King turned up in the layout goes to a corner at once: "
                                         f"{card} cannot stay at {pile}", i)
        t.piles[pile].append(card)
        t.seen.add(card)


def _check_layout_corner(t: Table, to_corner: bool, i: int, pile: Pile, card: Card) -> None:
    """Refuse the layout entry ``i`` that starts the corner ``pile`` unless a layout King may go there."""
    if not to_corner:
        raise IllegalAction("KC324", f"layout Kings stay where they are turned up: the layout "
                                     f"cannot start the corner {pile} ({card})", i)
    if t.piles[pile]:
        raise IllegalAction("KC324", f"the corner {pile} is named twice in the layout", i)
    if card.rank is not KING:
        raise IllegalAction("KC303", f"only a King may start an empty corner ({pile}:{card})", i)


def _ante(t: Table, options: Options, stacks: Sequence[int] | None, pot: int) -> None:
    """Set out the chips (``stacks`` before the ante, else the starting stacks of the scoring
    system of ``options``; ``pot`` chips already in the pot) and have everyone pay the ante,
    left of the dealer first: the ante is no penalty, so only a stack it puts in debt is noted."""
    chips = options.scoring.chips
    assert chips is not None
    t.stacks = list(stacks) if stacks is not None else chips.start(options, t.n, t.dealer)
    t.ante = t.policy.ante
    t.pot = pot
    for k in range(1, t.n + 1):
        _pay(t, (t.dealer + k) % t.n, t.ante, "", "", None)


# --- the turn's phase ------------------------------------------------------------------------

def _empty_corner(t: Table, pile: Pile) -> bool:
    """True when ``pile`` is a corner with no card: where a drawn or forced King goes."""
    return pile in CORNER_SET and not t.piles[pile]


def _empty_corners(t: Table) -> list[Pile]:
    return [c for c in CORNERS if not t.piles[c]]


def _closed_error(t: Table, closed: Closed) -> IllegalAction:
    winner = t.names[t.winner] if t.winner is not None else ""
    return IllegalAction(closed.code, closed.message.format(winner=winner))


def _could_be_drawn_king(t: Table, action: Action) -> bool:
    """True when ``action`` may be placing an unknown drawn card that was a King."""
    if type(action) is not PlayCard:
        return False
    card, pile = action.card, action.pile
    return (card.rank is KING and _empty_corner(t, pile)
            and card not in t.seen and t.holding.unknown > 0)


def _phase(t: Table, action: Action) -> bool:
    """Refuse ``action`` when the turn's phase forbids it.

    Returns True when the action places a drawn King that had to be placed at once.
    """
    king = t.pending_king
    if king is not None:
        if type(action) is PlayCard and action.card == king:
            if _empty_corner(t, action.pile):
                return True
            raise IllegalAction("KC317", f"the drawn King {king} must go to an empty corner, "
                                         f"not {action.pile}")
        raise IllegalAction("KC317", f"{king} was drawn: it must be placed in an empty corner "
                                     f"before anything else")
    if t.maybe_king:
        t.maybe_king = False
        # An unseen King placed in an empty corner right after an unseen draw is taken to be the
        # drawn card, whenever the draw came (docs/rules.md, ruling 17).
        if _could_be_drawn_king(t, action):
            return True
        if t.closed is None:
            t.mark_unchecked(Unchecked.DRAWN_KINGS, t.player)
    if t.closed is not None:
        if t.closed is Closed.KING_PLACED and _places_held_king(t, action):
            return False
        raise _closed_error(t, t.closed)
    if t.policy.draw_first and not t.drawn and t.stock and type(action) is not Draw:
        raise _draw_first_error(t)
    return False


def _draw_first_error(t: Table) -> IllegalAction:
    return IllegalAction("KC314", f"the turn must start with the draw: the stock has {plural(t.stock, 'card')}")


def _places_held_king(t: Table, action: Action) -> bool:
    """True when ``action`` places a King from hand in an empty corner under forced Kings:
    that stays allowed after a placed drawn King ended the turn (else drawing first could
    make a dealt King's fault unavoidable)."""
    return (t.policy.forced_dealt and type(action) is PlayCard and action.card.rank is KING
            and _empty_corner(t, action.pile))


# --- actions ---------------------------------------------------------------------------------


def begin_turn(t: Table, seat: int) -> None:
    """Check that ``seat`` may take the next turn now."""
    if t.winner is not None:
        raise IllegalAction("KC320", f"the hand is over: {t.names[t.winner]} went out", -1)
    if t.blocked:
        raise IllegalAction("KC320", "the hand is over: it is blocked", -1)
    if seat != t.player:
        raise IllegalAction("KC310", f"it is {t.name}'s turn, not {t.names[seat]}'s", -1)


def apply(t: Table, action: Action) -> None:
    """Judge ``action`` for the player whose turn it is and, when legal, carry it out.

    Raises :class:`IllegalAction` with the rule it breaks otherwise.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not an action: {action!r}")
    handler(t, action)
    t.step += 1


def _play_card(t: Table, action: PlayCard) -> None:
    placing = _phase(t, action) if t.phase_may_refuse else False
    card, pile = action.card, action.pile
    if card not in placeable(t, pile):
        raise _play_error(t, card, pile)
    hand = t.holdings[t.player]
    try:
        hand.known.remove(card)
    except KeyError:
        if _cannot_hold(t, card):
            raise not_held(t, card) from None
        hand.unknown -= 1
        t.seen.add(card)
        t.mark_unchecked(Unchecked.HELD, t.player)
    dest = t.piles[pile]
    dest.append(card)
    t.plays += 1
    if placing:
        t.pending_king = None
        if t.policy.drawn_king_ends_turn:
            t.close(Closed.KING_PLACED)
    if len(dest) == 13 or not hand.known:
        _after_play(t, hand, pile)


def _after_play(t: Table, hand: Holding, pile: Pile) -> None:
    """After a card played onto ``pile`` that completed it or was the last known card in hand:
    clear the pile where completed piles are removed; the hand is over if the player holds no
    card any more."""
    if len(t.piles[pile]) == 13 and t.policy.remove_completed:
        _clear(t, pile)
    if not hand.known and not hand.unknown:
        t.winner = t.player
        t.out_step = t.step
        t.close(Closed.WENT_OUT)


def _play_error(t: Table, card: Card, pile: Pile) -> IllegalAction:
    """Why playing ``card`` on ``pile`` is refused: not holding it comes first."""
    return not_held(t, card) if _cannot_hold(t, card) else bad_play(t, card, pile)


def _cannot_hold(t: Table, card: Card) -> bool:
    """True when the player whose turn it is cannot hold ``card``: it is not among the cards
    known to be held, and no unknown card can be it (there is none, or the card is seen)."""
    hand = t.holding
    return card not in hand.known and (not hand.unknown or card in t.seen)


def _move_pile(t: Table, action: MovePile) -> None:
    if t.phase_may_refuse:
        _phase(t, action)
    source, target = action.source, action.target
    if not may_move(t, source, target):
        raise bad_move(t, source, target)
    src, dst = t.piles[source], t.piles[target]
    dst.extend(src)
    src.clear()
    t.plays += 1
    if len(dst) == 13 and t.policy.remove_completed:
        _clear(t, target)


def _clear(t: Table, pile: Pile) -> None:
    """Take a completed K..A pile out of play (option ``CompletedPiles "remove"``)."""
    cards = t.piles[pile]
    t.removed.append(tuple(cards))
    if pile in CORNER_SET:
        t.removed_corners.add(cards[0])
    cards.clear()


def _draw(t: Table, action: Draw) -> None:
    pol = t.policy
    if t.phase_may_refuse:
        _phase(t, action)
    if t.drawn:
        raise IllegalAction("KC315", "only one draw per turn")
    if not t.stock:
        raise IllegalAction("KC312", "the stock is empty: there is nothing to draw")
    if pol.draw_when_stuck:
        _check_stuck(t)
    card = action.card
    deck = t.deck
    if deck is not None:
        card = _stock_top(t, card)
    elif card is not None and card in t.seen:
        raise seen_twice(t, card)
    if pol.draw_ends_turn:
        _judge_dealt_kings(t, t.step)  # "before the draw when drawing at the end"
    if deck is not None:
        deck.pop()
    t.stock -= 1
    _take_drawn(t, card)
    t.drawn = True
    t.draw_step = t.step
    if pol.draw_ends_turn:
        t.close(Closed.DRAWN)


def _check_stuck(t: Table) -> None:
    """Drawing only when stuck: refuse the draw when the player could play."""
    play = first_play(t)
    if play is not None:
        raise IllegalAction("KC316", f"{t.name} may draw only when unable to play, and could play {play}")
    if t.holding.unknown:
        t.mark_unchecked(Unchecked.STUCK, t.player)


def _stock_top(t: Table, card: Card | None) -> Card:
    """The card drawn when the stock's order is known: its top card, which ``card`` must name if given."""
    assert t.deck is not None
    top = t.deck[-1]
    if card is not None and card != top:
        raise IllegalAction("KC309", f"{card} is not the top card of the stock ({top} is)")
    return top


def _take_drawn(t: Table, card: Card | None) -> None:
    """Put the drawn card (``None``: unknown) in the player's hand; a King may have to be placed at once."""
    hand = t.holdings[t.player]
    place_king = t.policy.place_drawn_king
    if card is None:
        hand.unknown += 1
        t.maybe_king = place_king and not t.seen >= KINGS
        if t.maybe_king:
            t.phase_may_refuse = True
    else:
        hand.known.add(card)
        t.seen.add(card)
        if card in KINGS and place_king:
            t.pending_king = card
            t.phase_may_refuse = True


def _pass(t: Table, action: Pass) -> None:
    if t.step:
        raise IllegalAction("KC322", "pass must be the only action of its turn")
    # A pass ends the turn: it is legal exactly when ending the turn now is.
    err = _end_error(t)
    if err is not None:
        err.step = None
        raise err
    t.close(Closed.PASSED)


_HANDLERS: Final[Mapping[type, Callable[[Table, Any], None]]] = {
    PlayCard: _play_card, MovePile: _move_pile, Draw: _draw, Pass: _pass,
}
"""The engine's judge for each kind of action, by its type."""


# --- end of turn -----------------------------------------------------------------------------


def _draw_due(t: Table) -> bool | None:
    """Whether the player owes a draw they have not made; ``None`` when unknowable (drawing
    only when stuck, with unknown cards in hand and no play in sight)."""
    if t.drawn or not t.stock or t.winner is not None:
        return False
    if not t.policy.draw_when_stuck:
        return True
    if first_play(t) is not None:
        return False
    return None if t.holding.unknown else True


def _missed_draw_error(t: Table) -> IllegalAction | None:
    """The error for a turn ending without its due draw, where that is an error."""
    if not _draw_due(t):
        return None
    if t.policy.draw_first:
        return _draw_first_error(t)
    if t.policy.missed_draw is Fault.ERROR:
        return IllegalAction("KC313", f"{t.name} did not draw, and the stock has {plural(t.stock, 'card')}")
    return None


def _held_dealt_kings(t: Table) -> list[Card]:
    """The dealt Kings of the player that are not in a corner, when forced Kings judge them
    now: still in hand, or played onto a foundation (which does not meet the duty)."""
    seat = t.player
    dealt = t.dealt_kings[seat]
    if not t.policy.forced_dealt or t.kings_judged[seat] or not dealt:
        return []
    piles = t.piles
    # A corner completed and cleared (CompletedPiles "remove") took its King out of play there.
    cornered = {piles[c][0] for c in CORNERS if piles[c]} | t.removed_corners
    if dealt <= cornered:
        return []  # the usual case: each went to a corner
    return [k for k in in_order(dealt) if k not in cornered]


def _where_king(t: Table, king: Card) -> str:
    """How a dealt King that is not in a corner is described: held, or played onto a pile."""
    if king in t.holding.known:
        return f"still holds the dealt King {king}"
    pile = next((p for p in FOUNDATIONS if king in t.piles[p]), None)
    return f"played the dealt King {king} onto {pile.value if pile else 'a foundation'}, not into a corner"


def _kings_held_error(t: Table, held: list[Card], step: int) -> IllegalAction:
    if all(k in t.holding.known for k in held):
        kings = names_list([str(k) for k in held])
        what = f"still holds the dealt {noun(len(held), 'King')} {kings}"
    else:
        what = names_list([_where_king(t, k) for k in held])
    return IllegalAction("KC318", f"{t.name} {what}: Kings must go to a corner on the first turn", step)


def _judge_dealt_kings(t: Table, step: int) -> None:
    """Forced Kings: at the end of the owner's first turn each dealt King not in a corner is a fault."""
    seat = t.player
    if not t.policy.forced_dealt or t.kings_judged[seat]:
        return
    held = _held_dealt_kings(t)
    t.kings_judged[seat] = True
    if t.dealt_kings[seat] is None:
        t.mark_unchecked(Unchecked.DEALT_KINGS, seat)
    if not held:
        return
    if t.policy.king_fault is Fault.ERROR:
        raise _kings_held_error(t, held, step)
    chips = t.policy.king_held_chips
    for k in held:
        what = f"held the dealt King {k} past the first turn" if k in t.holding.known else _where_king(t, k)
        _pay(t, seat, chips, "KC403", f"{t.name} {what}: pays {plural(chips, 'chip')}", step)


def _end_error(t: Table) -> IllegalAction | None:
    """The error ending the turn now would be, if any."""
    if t.winner is not None:
        return None
    last = t.step - 1
    king = t.pending_king
    if king is not None and t.policy.king_fault is Fault.ERROR:
        return IllegalAction("KC317", f"{king} was drawn and not placed in an empty corner at once",
                             t.draw_step)
    err = _missed_draw_error(t)
    if err is not None:
        err.step = last
        return err
    if t.policy.king_fault is Fault.ERROR:
        held = _held_dealt_kings(t)
        if held:
            return _kings_held_error(t, held, last)
    return None


def can_end_turn(t: Table) -> bool:
    """True when the player whose turn it is may end it now without a rule error (penalties
    in chips may still be due)."""
    return not t.blocked and _end_error(t) is None


def end_turn(t: Table) -> None:
    """End the turn of the player whose turn it is: judge what was owed (the draw, the
    placing of Kings), charge penalties, detect a blocked hand, and pass the turn on."""
    if t.winner is not None:
        return  # going out ends the hand: nothing more is owed
    seat, pol = t.player, t.policy
    if (t.pending_king is not None or t.maybe_king or (not t.drawn and t.stock)
            or (pol.forced_dealt and not t.kings_judged[seat])):
        _judge_owed(t)
    if t.plays:
        t.idle = 0
    else:
        if pol.chips:
            chips = pol.no_play_chips
            _pay(t, seat, chips, "KC401", _no_play_message(t.names[seat], chips), -1)
        if t.started_empty:
            t.idle += 1
            if t.idle >= t.n:
                t.blocked = True
        else:
            t.idle = 0
    t.turns += 1
    t.new_turn((seat + 1) % t.n)


def _judge_owed(t: Table) -> None:
    """The end of a turn that may owe something: a drawn King not placed, the draw, the
    placing of dealt Kings. Refuses a rule error, else pays the penalties due."""
    err = _end_error(t)
    if err is not None:
        raise err
    seat, pol, last = t.player, t.policy, t.step - 1
    king = t.pending_king
    if king is not None:
        chips = pol.king_held_chips
        _pay(t, seat, chips, "KC403", f"{t.name} did not place the drawn King {king} at once: "
                                      f"pays {plural(chips, 'chip')}", t.draw_step)
    if t.maybe_king:
        t.mark_unchecked(Unchecked.DRAWN_KINGS, seat)
    due = _draw_due(t)
    if due is None:
        t.mark_unchecked(Unchecked.STUCK, seat)
    elif due:
        chips = pol.missed_draw_chips
        _pay(t, seat, chips, "KC402", f"{t.name} did not draw, and the stock has "
                                      f"{plural(t.stock, 'card')}: pays {plural(chips, 'chip')}", last)
    _judge_dealt_kings(t, last)


# --- the legal actions -----------------------------------------------------------------------


def _draw_action(t: Table) -> Draw:
    return Draw(t.deck[-1] if t.deck else None)


def legal_actions(t: Table) -> list[Action]:
    """Every action :func:`apply` accepts now, for the player whose turn it is.

    With the deck known, the draw is written with its card. Ending the turn is not an action:
    see :func:`can_end_turn` and :func:`end_turn`.
    """
    if t.over:
        return []
    king = t.pending_king
    if king is not None:
        return [PlayCard(king, c) for c in _empty_corners(t)]
    if t.closed is not None:
        return _closed_actions(t)
    pol = t.policy
    if pol.draw_first and not t.drawn and t.stock:
        return [_draw_action(t)]
    actions: list[Action] = [*card_plays(t), *pile_moves(t)]
    if not t.drawn and t.stock:
        if pol.draw_when_stuck:
            if not actions:
                actions.append(_draw_action(t))
        elif not (pol.draw_ends_turn and _held_dealt_kings(t) and pol.king_fault is Fault.ERROR):
            actions.append(_draw_action(t))
    if not t.step and _end_error(t) is None:
        actions.append(PASS)
    return actions


def _closed_actions(t: Table) -> list[Action]:
    """What may still be played once the turn is closed: a drawn card that may be a King, or
    (forced Kings, after a placed drawn King) a King from hand, into an empty corner."""
    if t.maybe_king:
        return [PlayCard(k, c) for k in in_order(KINGS - t.seen) for c in _empty_corners(t)]
    if t.closed is Closed.KING_PLACED and t.policy.forced_dealt:
        return [PlayCard(k, c) for k in in_order(t.holding.known & KINGS) for c in _empty_corners(t)]
    return []


# --- the end of the hand ---------------------------------------------------------------------


def declare_blocked(t: Table) -> None:
    """Check a ``blocked`` line: the hand must be blocked by now."""
    if t.blocked:
        return
    if t.winner is not None:
        raise IllegalAction("KC321", f"the hand is not blocked: {t.names[t.winner]} went out")
    if t.stock:
        raise IllegalAction("KC321", f"the hand is not blocked: the stock still has {plural(t.stock, 'card')}")
    raise IllegalAction("KC321", f"the hand is not blocked: it takes {t.n} turns in a row with the stock "
                                 f"empty and no play, and there {'has' if t.idle == 1 else 'have'} been "
                                 f"{t.idle}")


def reveal(t: Table, seat: int, cards: Sequence[Card]) -> None:
    """Check and record a ``reveal``: the cards left in a player's hand. ``step`` of an error
    is the index of the card to blame, or ``None`` for the line."""
    hand = t.holdings[seat]
    name = t.names[seat]
    for i, c in enumerate(cards):
        if c not in hand.known and c in t.seen:
            raise IllegalAction("KC326", f"{name} cannot hold {c}: {where_is(t, c)}", i)
    missing = hand.known.difference(cards)
    if missing:
        shown = names_list([str(c) for c in in_order(missing)])
        raise IllegalAction("KC326", f"the reveal leaves out {shown}, which {name} is known to hold", None)
    if len(cards) != len(hand):
        raise IllegalAction("KC325", f"{name} has {plural(len(hand), 'card')} left, and the reveal shows "
                                     f"{len(cards)}", None)
    hand.known = set(cards)
    hand.unknown = 0
    t.seen.update(cards)


# The penalty messages of every hand (KC401, KC404) are cached: a log repeats the same few texts
# hand after hand.


@functools.lru_cache(maxsize=1024)
def _no_play_message(name: str, chips: int) -> str:
    return f"{name} made no play: pays {plural(chips, 'chip')}"


@functools.lru_cache(maxsize=4096)
def _cards_left_message(name: str, known: int, unknown: int, kings: int, card: int, king: int, chips: int) -> str:
    """``Bob has 5 cards left, a King among them counts 10: pays 14 chips``: why cards left
    (``known`` and ``unknown`` of them, ``kings`` the known Kings among them) cost what they
    do, ``card`` chips a card and ``king`` a King."""
    text = f"{name} has {plural(known + unknown, 'card')} left"
    if card != 1:
        text += f" at {plural(card, 'chip')} each"
    if kings and king != card:
        text += f", {'a King' if kings == 1 else f'{kings} Kings'} among them count{'s' if kings == 1 else ''} {king}"
    if unknown:
        text += (f", {unknown} of them unknown" if known else ", all unknown")
        if king != card:
            text += " (counted at the least they can be worth)"
    return f"{text}: pays {plural(chips, 'chip')}"


def settle(t: Table) -> int:
    """The end of a hand where chips are played: when someone went out, the others pay for
    the cards they have left and the winner takes the pot. Returns the pot won (0 if none)."""
    if t.winner is None or t.stacks is None:
        return 0
    pol = t.policy
    value = chip_value(pol)
    for k in range(1, t.n):
        seat = (t.winner + k) % t.n
        hand = t.holdings[seat]
        if len(hand) == 0:
            continue
        chips = hand_value(t, seat, value)
        if chips is None:
            t.mark_unchecked(Unchecked.CARDS_LEFT, seat)
            chips = hand_value(t, seat, value, lower_bound=True)
            assert chips is not None
        kings = len(KINGS.intersection(hand.known))
        message = _cards_left_message(t.names[seat], len(hand.known), hand.unknown, kings,
                                      pol.card_chips, pol.king_chips, chips)
        _pay(t, seat, chips, "KC404", message, None)
    pot = t.pot
    t.stacks[t.winner] += pot
    t.pot = 0
    return pot
