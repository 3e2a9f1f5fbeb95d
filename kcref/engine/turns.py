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
from typing import Any

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
    FITS_ON,
    KING,
    card_plays,
    first_play,
    in_order,
    may_move,
    pile_moves,
)
from .policy import Fault
from .table import PILES, Closed, Holding, Note, Table, Unchecked
from .values import chip_value, hand_value

KINGS: frozenset[Card] = frozenset(c for c in DECK if c.rank is KING)
_NO_KINGS: frozenset[Card] = frozenset()
_DRAWN = Closed.DRAWN
"""Read on every draw: a module global reads many times faster than an Enum's member (Python 3.11)."""
_STARTS: Mapping[Pile, frozenset[Card]] = {p: KINGS if p in CORNER_SET else frozenset(DECK) - KINGS for p in PILES}
"""The cards that may start each empty pile with nothing more to judge: a King a corner, any
other card a foundation (a dealt King on a foundation may still owe a corner under forced Kings,
judged at the end of the turn)."""
_PLAIN_DRAWS: frozenset[Card] = frozenset(DECK) - KINGS
"""The written draws that need no more than putting the card in hand (a drawn King may have to
be placed at once; ``draw`` with no card is a card unknown)."""


# --- chips -----------------------------------------------------------------------------------


def _pay(t: Table, seat: int, chips: int, code: str, message: str, step: int | None) -> None:
    """Move ``chips`` from a player's stack to the pot; report a debt the first time."""
    stacks = t.stacks
    assert stacks is not None
    stacks[seat] -= chips
    t.pot += chips
    if code:
        # tuple.__new__, not Note's own __new__ (a Python function): a log may hold a penalty on every turn.
        t.notes.append(tuple.__new__(Note, (code, seat, chips, message, step)))
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
    if options.scoring.chips is not None:
        _ante(t, stacks, pot)
    return t


def _deal(t: Table, deals: Mapping[int, Sequence[Card]]) -> None:
    """Give each seat its dealt cards, or a hand of unknown cards where the deal is not known."""
    holdings, dealt_kings, seen = t.holdings, t.dealt_kings, t.seen
    for seat in range(t.n):
        cards = deals.get(seat)
        hand = holdings[seat]  # the new table's empty holding, filled in place
        if cards is None:
            hand.unknown = HAND_SIZE
        else:
            # The cards are hashed once, into the holding; set-to-set operations reuse those hashes.
            known = hand.known
            known.update(cards)
            # Most deals hold no King: those share one empty set instead of making their own.
            dealt_kings[seat] = _NO_KINGS if KINGS.isdisjoint(known) else KINGS.intersection(known)
            seen.update(known)


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


def _ante(t: Table, stacks: Sequence[int] | None, pot: int) -> None:
    """Set out the chips (``stacks`` before the ante, else the scoring system's starting stacks;
    ``pot`` chips already in the pot) and have everyone pay the ante, left of the dealer first."""
    options = t.options
    chips = options.scoring.chips
    assert chips is not None
    t.stacks = own = list(stacks) if stacks is not None else chips.start(options, t.n, t.dealer)
    t.ante = ante = options.ante
    n, first = t.n, t.dealer + 1
    if own and min(own) >= ante:  # nobody goes into debt (nearly every hand): no note, whatever the order
        own[:] = [s - ante for s in own]
        t.pot = pot + ante * n
        return
    for k in range(n):
        seat = (first + k) % n
        if own[seat] >= ante:  # the ante is no penalty: a note only for a stack it puts in debt
            own[seat] -= ante
            pot += ante
        else:
            t.pot = pot
            _pay(t, seat, ante, "", "", None)
            pot = t.pot
    t.pot = pot


# --- the turn's phase ------------------------------------------------------------------------

def _closed_error(t: Table, closed: Closed) -> IllegalAction:
    winner = t.names[t.winner] if t.winner is not None else ""
    return IllegalAction(closed.code, closed.message.format(winner=winner))


def _could_be_drawn_king(t: Table, action: Action) -> bool:
    """True when ``action`` may be placing an unknown drawn card that was a King."""
    if type(action) is not PlayCard:
        return False
    card, pile = action.card, action.pile
    return (card.rank is KING and pile in CORNER_SET and not t.piles[pile]
            and card not in t.seen and t.holding.unknown > 0)


def _phase(t: Table, action: Action) -> bool:
    """Refuse ``action`` when the turn's phase forbids it.

    Returns True when the action places a drawn King that had to be placed at once.
    """
    king = t.pending_king
    if king is not None:
        if type(action) is PlayCard and action.card == king:
            if action.pile in CORNER_SET and not t.piles[action.pile]:
                return True
            raise IllegalAction("KC317", f"the drawn King {king} must go to an empty corner, "
                                         f"not {action.pile}")
        raise IllegalAction("KC317", f"{king} was drawn: it must be placed in an empty corner "
                                     f"before anything else")
    if t.maybe_king:
        t.maybe_king = False
        if t.closed is not None:
            # After the draw at the end of the turn only the drawn King may be placed.
            if _could_be_drawn_king(t, action):
                return True
        else:
            t.mark_unchecked(Unchecked.DRAWN_KINGS, t.player)
    if t.closed is not None:
        if t.closed is Closed.KING_PLACED and _places_held_king(t, action):
            return False
        raise _closed_error(t, t.closed)
    if t.policy.draw_first and not t.drawn and t.stock and type(action) is not Draw:
        raise IllegalAction("KC314", f"the turn must start with the draw: the stock has "
                                     f"{plural(t.stock, 'card')}")
    return False


def _places_held_king(t: Table, action: Action) -> bool:
    """True when ``action`` places a King from hand in an empty corner under forced Kings:
    that stays allowed after a placed drawn King ended the turn (else drawing first could
    make a dealt King's fault unavoidable)."""
    return (t.policy.forced_dealt and type(action) is PlayCard and action.card.rank is KING
            and action.pile in CORNER_SET and not t.piles[action.pile])


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
    _handler(action)(t, action)
    t.step += 1


def play_turn(t: Table, seat: int, actions: Sequence[Action]) -> None:  # noqa: C901 (the fast paths, inline: see below)
    """A whole turn line: :func:`begin_turn` for ``seat``, :func:`apply` each action in order,
    then :func:`end_turn`. When an :class:`IllegalAction` is raised, ``t.step`` is the index of
    the action refused (``len(actions)`` for a fault found at the end of the turn)."""
    if t.winner is not None or t.blocked or seat != t.player:
        begin_turn(t, seat)  # refuses the turn
    piles = t.piles
    hand = t.holdings[seat]
    known = hand.known
    # The fast paths below carry out the most common actions of a log in an open turn (nothing
    # pending, nothing closed) exactly as their judges would: a held card played where it fits,
    # a known card that is no King drawn from a stock of unknown order, a foundation moved onto
    # a pile it fits. Anything else, or any doubt, goes to the full judge (_HANDLERS).
    # What the loop changes most (the step, the plays, whether the phase must judge) it keeps in
    # locals, written back to the table before anything else reads them: a judge, the end of the turn.
    step, plays, guarded = t.step, t.plays, t.guarded
    for action in actions:
        kind = type(action)
        if not guarded:
            if kind is PlayCard:  # as _play_card
                card, pile = action  # type: ignore[misc]  # (kind is the narrowing mypy does not see)
                dest = piles[pile]
                if card in (FITS_ON[dest[-1]] if dest else _STARTS[pile]):
                    try:
                        known.remove(card)  # held: the one lookup in hand (no ``card in known`` first)
                    except KeyError:
                        pass  # not known to be held: _play_card judges it
                    else:
                        dest.append(card)
                        plays += 1
                        if len(dest) == 13 or not known:
                            t.step = step
                            _after_play(t, hand, pile)
                            guarded = t.guarded
                        step += 1
                        continue
            elif kind is Draw:  # as _draw
                card = action[0]  # type: ignore[misc]
                if card in _PLAIN_DRAWS and not t.drawn and t.stock and t.deck is None and card not in t.seen:
                    pol = t.policy
                    if not pol.draw_when_stuck:
                        if pol.draw_ends_turn and pol.forced_dealt and not t.kings_judged[seat]:
                            t.step, t.plays = step, plays
                            _judge_dealt_kings(t, step)  # "before the draw when drawing at the end"
                        t.stock -= 1
                        known.add(card)
                        t.seen.add(card)
                        t.drawn = True
                        t.draw_step = step
                        if pol.draw_ends_turn:
                            t.closed = _DRAWN
                            t.guarded = guarded = True
                        step += 1
                        continue
            elif kind is MovePile:  # as _move_pile
                source, target = action  # type: ignore[misc]
                src, dst = piles[source], piles[target]  # type: ignore[index]
                if (src and dst and source is not target and source not in CORNER_SET
                        and src[0] in FITS_ON[dst[-1]]):
                    dst.extend(src)
                    src.clear()
                    plays += 1
                    if len(dst) == 13 and t.policy.remove_completed:
                        _clear(t, target)
                    step += 1
                    continue
        handler = _HANDLERS.get(kind)
        if handler is None:
            handler = _handler(action)
        t.step, t.plays = step, plays
        handler(t, action)
        step, plays, guarded = t.step + 1, t.plays, t.guarded
    t.step, t.plays = step, plays
    if (plays and t.drawn and t.winner is None and t.pending_king is None and not t.maybe_king
            and (t.kings_judged[seat] or not t.policy.forced_dealt)):
        # The usual end of a turn, with a play and the draw made and nothing owed: as end_turn
        # ends it, without judging what cannot be owed.
        t.idle = 0
        t.turns += 1
        t.new_turn((seat + 1) % t.n)
    else:
        end_turn(t)


def _handler(action: Action) -> Callable[[Table, Any], None]:
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise TypeError(f"not an action: {action!r}")
    return handler


def _play_card(t: Table, action: PlayCard) -> None:
    placing = _phase(t, action) if t.guarded else False
    card, pile = action
    dest = t.piles[pile]
    if dest:
        if card not in FITS_ON[dest[-1]]:
            raise _play_error(t, card, pile)
    elif pile in CORNER_SET and card.rank is not KING:
        raise _play_error(t, card, pile)
    player = t.player
    hand = t.holdings[player]
    known = hand.known
    try:
        known.remove(card)
    except KeyError:
        if not hand.unknown or card in t.seen:
            raise not_held(t, card) from None
        hand.unknown -= 1
        t.seen.add(card)
        t.mark_unchecked(Unchecked.HELD, player)
    dest.append(card)
    t.plays += 1
    if placing:
        t.pending_king = None
        if t.policy.drawn_king_ends_turn:
            t.close(Closed.KING_PLACED)
    if len(dest) == 13 or not known:
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
    hand = t.holding
    if card not in hand.known and (not hand.unknown or card in t.seen):
        return not_held(t, card)
    return bad_play(t, card, pile)


def _move_pile(t: Table, action: MovePile) -> None:
    if t.guarded:
        _phase(t, action)
    source, target = action
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
    t.removed.append(tuple(t.piles[pile]))
    t.piles[pile].clear()


def _draw(t: Table, action: Draw) -> None:
    pol = t.policy
    if t.guarded:
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
    if pol.draw_ends_turn and pol.forced_dealt and not t.kings_judged[t.player]:
        _judge_dealt_kings(t, t.step)  # "before the draw when drawing at the end"
    if deck is not None:
        deck.pop()
    t.stock -= 1
    if card is not None and card.rank is not KING:
        # Nearly every turn draws, most often a known card that is no King: it goes to hand
        # here, as _take_drawn would put it, without the call.
        t.holdings[t.player].known.add(card)
        t.seen.add(card)
    else:
        _take_drawn(t, card)
    t.drawn = True
    t.draw_step = t.step
    if pol.draw_ends_turn:
        t.closed, t.guarded = _DRAWN, True  # t.close(_DRAWN), inline for the same reason


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
            t.guarded = True
    else:
        hand.known.add(card)
        t.seen.add(card)
        if card.rank is KING and place_king:
            t.pending_king = card
            t.guarded = True


def _pass(t: Table, action: Pass) -> None:
    if t.step:
        raise IllegalAction("KC322", "pass must be the only action of its turn")
    # A pass ends the turn: it is legal exactly when ending the turn now is.
    err = _end_error(t)
    if err is not None:
        err.step = None
        raise err
    t.close(Closed.PASSED)


_HANDLERS: Mapping[type, Callable[[Table, Any], None]] = {
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
        return IllegalAction("KC314", f"the turn must start with the draw: the stock has "
                                      f"{plural(t.stock, 'card')}")
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
    cornered = {piles[c][0] for c in CORNERS if piles[c]}
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
    if t.dealt_kings[seat] is _NO_KINGS:  # a known deal with no King (most of them): nothing to judge
        t.kings_judged[seat] = True
        return
    held = _held_dealt_kings(t)
    t.kings_judged[seat] = True
    if t.dealt_kings[seat] is None:
        t.mark_unchecked(Unchecked.DEALT_KINGS, seat)
    if not held:
        return
    if t.policy.king_fault is Fault.ERROR:
        raise _kings_held_error(t, held, step)
    chips = t.options.king_held_chips
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
    if not t.drawn and t.stock:
        err = _missed_draw_error(t)
        if err is not None:
            err.step = last
            return err
    if t.policy.forced_dealt and t.policy.king_fault is Fault.ERROR and not t.kings_judged[t.player]:
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
            chips = t.options.no_play_chips
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
        chips = t.options.king_held_chips
        _pay(t, seat, chips, "KC403", f"{t.name} did not place the drawn King {king} at once: "
                                      f"pays {plural(chips, 'chip')}", t.draw_step)
    if t.maybe_king:
        t.mark_unchecked(Unchecked.DRAWN_KINGS, seat)
    if not t.drawn and t.stock:
        due = _draw_due(t)
        if due is None:
            t.mark_unchecked(Unchecked.STUCK, seat)
        elif due:
            chips = t.options.missed_draw_chips
            _pay(t, seat, chips, "KC402", f"{t.name} did not draw, and the stock has "
                                          f"{plural(t.stock, 'card')}: pays {plural(chips, 'chip')}", last)
    if pol.forced_dealt and not t.kings_judged[seat]:
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
        return [PlayCard(king, c) for c in CORNERS if not t.piles[c]]
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
        return [PlayCard(k, c) for k in in_order(KINGS - t.seen) for c in CORNERS if not t.piles[c]]
    if t.closed is Closed.KING_PLACED and t.policy.forced_dealt:
        return [PlayCard(k, c) for k in in_order(t.holding.known & KINGS) for c in CORNERS if not t.piles[c]]
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


# The penalty messages of every hand (KC401, KC404) are built by the two functions below, each
# cached: a log repeats the same few texts hand after hand, and building one costs more than the
# rest of the note.


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
    options = t.options
    card, king = options.card_chips, options.king_chips
    n, winner, holdings, names = t.n, t.winner, t.holdings, t.names
    stacks, notes, pot = t.stacks, t.notes, t.pot
    for k in range(1, n):
        seat = (winner + k) % n
        hand = holdings[seat]
        known = hand.known
        unknown = hand.unknown
        if not known and not unknown:
            continue
        kings = 0 if KINGS.isdisjoint(known) else len(KINGS.intersection(known))
        if unknown:
            value = chip_value(options)
            chips = hand_value(t, seat, value)
            if chips is None:
                t.mark_unchecked(Unchecked.CARDS_LEFT, seat)
                chips = hand_value(t, seat, value, lower_bound=True)
                assert chips is not None
        else:
            chips = card * (len(known) - kings) + king * kings  # what chip_value says, card by card
        message = _cards_left_message(names[seat], len(known), unknown, kings, card, king, chips)
        if stacks[seat] >= chips:  # no debt: what _pay does then, inline (three or so a hand)
            stacks[seat] -= chips
            pot += chips
            notes.append(tuple.__new__(Note, ("KC404", seat, chips, message, None)))
        else:
            t.pot = pot
            _pay(t, seat, chips, "KC404", message, None)
            pot = t.pot
    stacks[winner] += pot
    t.pot = 0
    return pot
