"""A minimal Kings in the Corner referee, written with the Python standard library only.

    python bench/plain_referee.py [-v] LOG

This is a yardstick for the benchmarks, not a product. Issue 27 asks that `kcref check --quiet`
be measured against "a minimal stdlib referee measured in the same run": this file is that
referee, written the way a competent programmer would write one in an afternoon, with plain
classes, dicts and sets, and with neither tricks for speed nor deliberate slowness. It imports
nothing of kcref. `bench/run.py` runs it as a process (:func:`plain_referee_seconds`, or the
command line :func:`plain_referee_argv`).

It reads a full-information log as `kcref play` writes it (every deal and every drawn card
written down) and judges every hand under the `classic` or `commercial` preset of
docs/rules.md:

- the set-up: `Players` and `Rules` tags, seven cards dealt to each player, N E S W in the
  layout, no card seen twice (deals, layout, draws);
- the turn order, and that nothing is played after a player goes out or the hand is blocked;
- every action: the card is held; it is one rank lower and the opposite colour of the pile's
  top card; only a King starts an empty corner; any card fills an empty foundation; a whole
  foundation pile moves onto a pile its bottom card fits, or with a King at its bottom to an
  empty corner; corner piles never move; nothing goes on an Ace;
- drawing at the end of the turn: one draw, nothing after it, a missed draw (an error under
  `classic`, one chip under `commercial`), `pass` only alone and only where ending the turn is
  legal;
- `commercial`'s forced Kings: each dealt King not in a corner when its owner's first turn ends
  (before the draw) costs 3 chips; a drawn King must be placed in an empty corner by the next
  action, which ends the turn (Kings from hand may still go to empty corners), or costs 3 chips;
- a blocked hand: a full round of turns that start with the stock empty and make no play;
- `commercial`'s chips: 80 chips shared out (the extra ones to the first seats after the
  dealer), an ante of 1 each, 1 chip for a turn without a play, and when someone goes out every
  other player pays 1 chip a card left; the winner takes the pot. A debt is a warning.

It prints each error and warning, then one summary line in the form of kcref's
(`1 file, 3 hands, 0 errors, 0 warnings, 12 penalties, 0 notes`), and exits 1 if it found
an error, else 0. `-v` also prints each penalty.

Where it follows kcref's rulings (docs/rules.md): a hand is not judged past its first error
(ruling 22); a `blocked` line is optional but must be true (2); dealt Kings are judged at the
end of the owner's first turn, before the draw, and one played onto a foundation is not in a
corner (18); a hand that stops before anyone goes out is a warning (22), and so are a dealer
other than the one the deal passes to (30) and a hand number out of sequence.

What it does not do: other presets (`family`) and option tags; unknown cards (a missing deal,
`draw` without its card, `reveal`); assertions (`score`, `chips`, `paid`, `pot`); suppression
comments; scoring across hands. Each of these is an error rather than ignored; another preset
or an option tag ends the check there.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass
from typing import NamedTuple, TextIO

# --- cards and piles -----------------------------------------------------------------------

RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "T": 10,
         "J": 11, "Q": 12, "K": 13}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUITS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
         "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
RED_SUITS = frozenset("HD")
ACE, KING = 1, 13
FOUNDATIONS = ("N", "E", "S", "W")
CORNERS = ("NE", "NW", "SE", "SW")
PILES = frozenset(FOUNDATIONS + CORNERS)
HAND_SIZE = 7
DECK_SIZE = 52


class Card(NamedTuple):
    rank: int
    suit: str

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return RANK_NAMES.get(self.rank, str(self.rank)) + self.suit


def fits(card: Card, top: Card) -> bool:
    """True when ``card`` may go on ``top``: one rank lower and the opposite colour."""
    return card.rank == top.rank - 1 and card.red != top.red


class LogError(Exception):
    """A line that breaks the rules or cannot be read: the hand is not judged past it."""


class Unsupported(LogError):
    """Rules this referee does not know: the rest of the log is not judged."""


def parse_card(text: str) -> Card:
    """``8H``, ``10h``, ``TH``, ``K♠`` (any case, a suit symbol optionally followed by U+FE0F)."""
    word = text.upper().removesuffix("\ufe0f")
    rank, suit = RANKS.get(word[:-1]), SUITS.get(word[-1:])
    if rank is None or suit is None:
        raise LogError(f"not a card: {text!r}")
    return Card(rank, suit)


def parse_pile(text: str) -> str:
    pile = text.upper()
    if pile not in PILES:
        raise LogError(f"not a pile: {text!r}")
    return pile


# --- actions -------------------------------------------------------------------------------


class Play(NamedTuple):
    card: Card
    pile: str


class Move(NamedTuple):
    source: str
    target: str


class Draw(NamedTuple):
    card: Card


class Pass(NamedTuple):
    pass


Action = Play | Move | Draw | Pass


def parse_action(text: str) -> Action:
    """One action of a turn: ``8H->N``, ``N->NE``, ``draw 5C`` or ``pass``."""
    words = text.split()
    keyword = words[0].lower()
    if keyword == "pass" and len(words) == 1:
        return Pass()
    if keyword == "draw":
        if len(words) == 1:
            raise LogError("a draw without its card: this referee needs every drawn card written")
        if len(words) == 2:
            return Draw(parse_card(words[1]))
    left, arrow, right = text.replace("→", "->").partition("->")
    if not arrow:
        raise LogError(f"not an action: {text!r}")
    left, target = left.strip(), parse_pile(right.strip())
    if left.upper() in PILES:
        return Move(left.upper(), target)
    return Play(parse_card(left), target)


def parse_actions(text: str) -> list[Action]:
    """The actions of a turn line, separated by ``;`` (one trailing ``;`` allowed)."""
    parts = [part.strip() for part in text.split(";")]
    if len(parts) > 1 and not parts[-1]:
        parts.pop()
    if not all(parts):
        raise LogError("an empty action in the turn")
    return [parse_action(part) for part in parts]


# --- rules ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The rule options of a preset that this referee knows."""

    name: str
    forced_kings: bool
    """Dealt Kings must be in a corner by the end of the owner's first turn, and a drawn King
    must be placed in an empty corner at once."""
    drawn_king_ends_turn: bool
    chips: bool
    """Faults cost chips (else the ones that can cost chips are errors)."""


PRESETS = {
    "classic": Rules("classic", forced_kings=False, drawn_king_ends_turn=False, chips=False),
    "commercial": Rules("commercial", forced_kings=True, drawn_king_ends_turn=True, chips=True),
}
OPTION_TAGS = frozenset(["draw", "layoutkings", "forcedkings", "drawnking", "completedpiles", "scoring", "target",
                         "hands", "chips", "stack", "ante", "noplaychips", "misseddrawchips", "kingheldchips",
                         "cardchips", "kingchips"])
SHARED_CHIPS = 80
ANTE = 1
NO_PLAY_CHIPS = 1
MISSED_DRAW_CHIPS = 1
KING_HELD_CHIPS = 3
CARD_CHIPS = 1
KING_CHIPS = 1


# --- what was found ------------------------------------------------------------------------


class HandResult(NamedTuple):
    """The verdict on one hand."""

    number: int | None
    valid: bool
    winner: int | None
    blocked: bool
    penalties: int
    stacks_end: tuple[int, ...] | None


class Tally:
    """Counts what the referee finds, and prints errors and warnings (and penalties if asked)."""

    def __init__(self, path: str, out: TextIO | None, verbose: bool = False) -> None:
        self.path = path
        self.out = out
        self.verbose = verbose
        self.line = 0
        self.hands = 0
        self.errors = 0
        self.warnings = 0
        self.penalties = 0
        self.found: list[tuple[int, str]] = []
        """Each error: its line and message."""
        self.results: list[HandResult] = []

    def say(self, kind: str, message: str) -> None:
        if self.out is not None:
            print(f"{self.path}:{self.line}: {kind}: {message}", file=self.out)

    def error(self, message: str) -> None:
        self.errors += 1
        self.found.append((self.line, message))
        self.say("error", message)

    def warning(self, message: str) -> None:
        self.warnings += 1
        self.say("warning", message)

    def penalty(self, message: str) -> None:
        self.penalties += 1
        if self.verbose:
            self.say("penalty", message)

    def summary(self) -> str:
        return (f"1 file, {self.hands} hands, {self.errors} errors, {self.warnings} warnings, "
                f"{self.penalties} penalties, 0 notes")


# --- one hand ------------------------------------------------------------------------------

KING_PLACED = "the turn ended when the drawn King was placed"


@dataclass
class Turn:
    """The turn in progress."""

    seat: int
    started_empty: bool
    actions: int = 0
    plays: int = 0
    drawn: bool = False
    closed: str = ""
    """Why nothing more may happen this turn ("" while it is open)."""
    pending_king: Card | None = None
    """A drawn King that the next action must place in an empty corner."""


class Hand:
    """One hand: its set-up, then the table as play goes on."""

    def __init__(self, rules: Rules, players: list[str], dealer: int, number: int | None, tally: Tally) -> None:
        self.rules = rules
        self.players = players
        self.n = len(players)
        self.dealer = dealer
        self.number = number
        self.tally = tally
        self.deals: dict[int, list[Card]] = {}
        self.layout: dict[str, Card] | None = None
        self.started = False
        self.failed = False
        self.penalties = 0
        self.held: list[set[Card]] = []
        self.piles: dict[str, list[Card]] = {pile: [] for pile in FOUNDATIONS + CORNERS}
        self.seen: set[Card] = set()
        self.stock = 0
        self.dealt_kings: list[set[Card]] = []
        self.kings_judged = [False] * self.n
        self.turn = Turn(seat=(dealer + 1) % self.n, started_empty=False)
        self.idle = 0
        """Turns in a row that started with the stock empty and made no play."""
        self.winner: int | None = None
        self.blocked = False
        self.declared_blocked = False
        self.stacks: list[int] | None = None
        self.pot = 0
        self.debtors: set[int] = set()

    # --- set-up

    def deal(self, seat: int, cards: list[Card]) -> None:
        if self.started:
            raise LogError("a deal after the first turn")
        if seat in self.deals:
            raise LogError(f"{self.players[seat]}'s deal is written twice")
        if len(cards) != HAND_SIZE:
            raise LogError(f"a deal holds {HAND_SIZE} cards, not {len(cards)}")
        self.see(cards)
        self.deals[seat] = cards

    def lay_out(self, entries: dict[str, Card]) -> None:
        if self.started:
            raise LogError("a layout after the first turn")
        if self.layout is not None:
            raise LogError("a second layout")
        if sorted(entries) != sorted(FOUNDATIONS):
            raise LogError("the layout must name N, E, S and W once each, and no corner")
        self.see(list(entries.values()))
        self.layout = entries

    def start(self) -> None:
        """Check the set-up and put out the cards (and the chips) for the first turn."""
        self.started = True
        if self.layout is None:
            raise LogError("the hand has no layout")
        missing = [name for seat, name in enumerate(self.players) if seat not in self.deals]
        if missing:
            raise LogError(f"no deal written for {', '.join(missing)}: this referee needs every deal")
        for seat in range(self.n):
            self.held.append(set(self.deals[seat]))
            self.dealt_kings.append({card for card in self.deals[seat] if card.rank == KING})
        for pile, card in self.layout.items():
            self.piles[pile].append(card)
        self.stock = DECK_SIZE - HAND_SIZE * self.n - len(self.layout)
        self.turn = Turn(seat=(self.dealer + 1) % self.n, started_empty=self.stock == 0)
        if self.rules.chips:
            self.share_out_chips()

    def see(self, cards: list[Card]) -> None:
        for card in cards:
            if card in self.seen:
                raise LogError(f"{card} is seen twice in the hand")
            self.seen.add(card)

    def share_out_chips(self) -> None:
        """80 chips as evenly as possible, the extra ones to the first seats after the dealer; then the ante."""
        base, extra = divmod(SHARED_CHIPS, self.n)
        self.stacks = [base] * self.n
        for k in range(extra):
            self.stacks[(self.dealer + 1 + k) % self.n] += 1
        for k in range(1, self.n + 1):
            self.pay((self.dealer + k) % self.n, ANTE)

    # --- chips

    def pay(self, seat: int, chips: int) -> None:
        assert self.stacks is not None
        self.stacks[seat] -= chips
        self.pot += chips
        if self.stacks[seat] < 0 and seat not in self.debtors:
            self.debtors.add(seat)
            self.tally.warning(f"{self.players[seat]} is in debt: the stack is down to {self.stacks[seat]}")

    def fine(self, seat: int, chips: int, why: str) -> None:
        """A penalty paid into the pot."""
        self.pay(seat, chips)
        self.penalties += 1
        self.tally.penalty(f"{self.players[seat]} {why}: pays {chips}")

    # --- play

    @property
    def over(self) -> bool:
        return self.winner is not None or self.blocked

    def play_turn(self, seat: int, actions: list[Action]) -> None:
        if not self.started:
            self.start()
        if self.winner is not None:
            raise LogError(f"the hand is over: {self.players[self.winner]} went out")
        if self.blocked:
            raise LogError("the hand is over: it is blocked")
        if seat != self.turn.seat:
            raise LogError(f"it is {self.players[self.turn.seat]}'s turn, not {self.players[seat]}'s")
        for action in actions:
            if isinstance(action, Play):
                self.play_card(action.card, action.pile)
            elif isinstance(action, Move):
                self.move_pile(action.source, action.target)
            elif isinstance(action, Draw):
                self.draw(action.card)
            else:
                self.pass_turn()
            self.turn.actions += 1
        self.end_turn()

    def check_open(self) -> None:
        """Refuse any action but placing the drawn King while one is pending, and any action once the turn is closed."""
        turn = self.turn
        if turn.pending_king is not None:
            raise LogError(f"{turn.pending_king} was drawn: it must be placed in an empty corner before anything else")
        if turn.closed:
            raise LogError(turn.closed)

    def empty_corner(self, pile: str) -> bool:
        return pile in CORNERS and not self.piles[pile]

    def play_card(self, card: Card, pile: str) -> None:
        turn = self.turn
        placing_drawn_king = turn.pending_king == card and self.empty_corner(pile)
        placing_held_king = (turn.closed == KING_PLACED and self.rules.forced_kings and card.rank == KING
                             and self.empty_corner(pile))
        if not (placing_drawn_king or placing_held_king):
            self.check_open()
        hand = self.held[turn.seat]
        if card not in hand:
            raise LogError(f"{self.players[turn.seat]} does not hold {card}")
        cards = self.piles[pile]
        if cards and cards[-1].rank == ACE:
            raise LogError(f"nothing can be played on an Ace ({cards[-1]} at {pile})")
        if cards and not fits(card, cards[-1]):
            raise LogError(f"{card} cannot go on {cards[-1]} at {pile}")
        if not cards and pile in CORNERS and card.rank != KING:
            raise LogError(f"only a King may start an empty corner ({pile})")
        hand.remove(card)
        cards.append(card)
        turn.plays += 1
        if placing_drawn_king:
            turn.pending_king = None
            if self.rules.drawn_king_ends_turn:
                turn.closed = KING_PLACED
        if not hand:
            self.winner = turn.seat
            turn.closed = f"{self.players[turn.seat]} has gone out: the hand is over"

    def move_pile(self, source: str, target: str) -> None:
        self.check_open()
        if source in CORNERS:
            raise LogError(f"corner piles never move ({source})")
        if source == target:
            raise LogError(f"a pile cannot move onto itself ({source})")
        src, dst = self.piles[source], self.piles[target]
        if not src:
            raise LogError(f"{source} is empty: there is no pile to move")
        if dst and not fits(src[0], dst[-1]):
            raise LogError(f"{source} cannot move onto {target}: {src[0]} does not fit on {dst[-1]}")
        if not dst and target in FOUNDATIONS:
            raise LogError(f"no pile may move onto an empty foundation ({target})")
        if not dst and src[0].rank != KING:
            raise LogError(f"only a King may start an empty corner ({target})")
        dst.extend(src)
        src.clear()
        self.turn.plays += 1

    def draw(self, card: Card) -> None:
        self.check_open()
        turn = self.turn
        if turn.drawn:
            raise LogError("only one draw per turn")
        if not self.stock:
            raise LogError("the stock is empty: there is nothing to draw")
        if card in self.seen:
            raise LogError(f"{card} cannot be drawn: it is seen already")
        self.judge_dealt_kings()  # drawing at the end: "before the draw"
        self.stock -= 1
        self.seen.add(card)
        self.held[turn.seat].add(card)
        if card.rank == KING and self.rules.forced_kings:
            turn.pending_king = card
        turn.drawn = True
        turn.closed = "nothing may follow the draw"

    def pass_turn(self) -> None:
        if self.turn.actions:
            raise LogError("pass must be the only action of its turn")
        self.check_missed_draw()
        self.turn.closed = "pass must be the only action of its turn"

    def check_missed_draw(self) -> None:
        """Without chips, ending a turn without the draw while the stock has cards is an error."""
        if not self.rules.chips and self.owes_draw():
            raise LogError(f"{self.players[self.turn.seat]} did not draw, and the stock has {self.stock} cards")

    def owes_draw(self) -> bool:
        return not self.turn.drawn and self.stock > 0 and self.winner is None

    def judge_dealt_kings(self) -> None:
        """Forced Kings: each dealt King not in a corner at the end of its owner's first turn costs chips."""
        seat = self.turn.seat
        if not self.rules.forced_kings or self.kings_judged[seat]:
            return
        self.kings_judged[seat] = True
        cornered = {self.piles[corner][0] for corner in CORNERS if self.piles[corner]}
        for king in sorted(self.dealt_kings[seat] - cornered):
            self.fine(seat, KING_HELD_CHIPS, f"did not put the dealt King {king} in a corner on the first turn")

    def end_turn(self) -> None:
        turn = self.turn
        if self.winner is not None:
            return
        self.check_missed_draw()
        if turn.pending_king is not None:
            self.fine(turn.seat, KING_HELD_CHIPS, f"did not place the drawn King {turn.pending_king} at once")
        if self.owes_draw():
            self.fine(turn.seat, MISSED_DRAW_CHIPS, f"did not draw, and the stock has {self.stock} cards")
        self.judge_dealt_kings()
        if turn.plays:
            self.idle = 0
        else:
            if self.rules.chips:
                self.fine(turn.seat, NO_PLAY_CHIPS, "made no play")
            self.idle = self.idle + 1 if turn.started_empty else 0
            if self.idle >= self.n:
                self.blocked = True
        next_seat = (turn.seat + 1) % self.n
        self.turn = Turn(seat=next_seat, started_empty=self.stock == 0)

    def declare_blocked(self) -> None:
        if not self.started:
            self.start()
        if self.declared_blocked:
            raise LogError("the hand is over: it was declared blocked already")
        if not self.blocked:
            raise LogError("the hand is not blocked")
        self.declared_blocked = True

    def finish(self) -> None:
        """The end of the hand: when someone went out, the others pay for their cards left, and
        the winner takes the pot."""
        if self.failed:
            return
        if not self.started:
            self.start()
        if not self.over:
            self.tally.warning("the hand stops before anyone goes out, and it is not blocked")
        if self.winner is None or self.stacks is None:
            return
        for k in range(1, self.n):
            seat = (self.winner + k) % self.n
            left = self.held[seat]
            if left:
                chips = sum(KING_CHIPS if card.rank == KING else CARD_CHIPS for card in left)
                self.fine(seat, chips, f"has {len(left)} cards left")
        self.stacks[self.winner] += self.pot
        self.pot = 0

    def result(self) -> HandResult:
        stacks = tuple(self.stacks) if self.stacks is not None else None
        return HandResult(self.number, not self.failed, self.winner, self.blocked, self.penalties, stacks)


# --- the log -------------------------------------------------------------------------------


class Referee:
    """Reads a log line by line and referees its hands."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.rules = PRESETS["classic"]
        self.players: list[str] = []
        self.seats: dict[str, int] = {}
        self.hand: Hand | None = None
        self.last_dealer: int | None = None
        self.last_number: int | None = None
        self.skipping = False
        """The current hand is not judged past an error: its lines are skipped up to the next hand."""

    def read(self, lines: list[str] | TextIO) -> None:
        for number, line in enumerate(lines, start=1):
            self.tally.line = number
            try:
                self.read_line(line)
            except Unsupported as error:
                self.tally.error(f"{error}: the rest of the log is not judged")
                break
            except LogError as error:
                self.tally.error(str(error))
                self.skipping = True
                if self.hand is not None:
                    self.hand.failed = True
        self.end_hand()

    def read_line(self, line: str) -> None:
        text = line.strip()
        if text.startswith("["):
            self.read_tag(text)
            return
        words = line.partition("#")[0].split()
        if not words or (self.skipping and words[0].lower() != "hand"):
            return
        text = " ".join(words)
        head, colon, body = text.partition(":")
        head = head.strip()
        if colon and head in self.seats:
            self.current_hand().play_turn(self.seats[head], parse_actions(body))
            return
        keyword = words[0].lower()
        if keyword == "hand":
            self.start_hand(words[1:])
        elif keyword == "deal" and colon:
            self.current_hand().deal(self.seat_of(head[len("deal"):]), [parse_card(w) for w in body.split()])
        elif keyword == "layout":
            self.current_hand().lay_out(self.parse_layout(text[len("layout"):]))
        elif keyword == "blocked" and len(words) == 1:
            self.current_hand().declare_blocked()
        else:
            raise LogError(f"this referee cannot read the line: {text!r}")

    def read_tag(self, text: str) -> None:
        name, _, value = text[1:].partition(" ")
        value = value.strip()
        end = value.rfind('"]')
        if not name or not value.startswith('"') or end < 1:
            raise LogError(f"not a tag: {text!r}")
        value = value[1:end].replace('\\"', '"').replace("\\\\", "\\")
        if name == "Players":
            self.set_players([player.strip() for player in value.split(",")])
        elif name == "Rules":
            if value.strip().lower() not in PRESETS:
                raise Unsupported(f"this referee knows only the presets {', '.join(PRESETS)}, not {value!r}")
            self.rules = PRESETS[value.strip().lower()]
        elif name.lower() in OPTION_TAGS:
            raise Unsupported(f"this referee does not read option tags ({name})")

    def set_players(self, names: list[str]) -> None:
        self.players, self.seats = [], {}
        if not 2 <= len(names) <= 6 or len(set(names)) != len(names) or not all(names):
            raise LogError("Players must list 2 to 6 different names")
        self.players = [" ".join(name.split()) for name in names]
        self.seats = {name: seat for seat, name in enumerate(self.players)}
        self.seats.update({f"P{seat + 1}": seat for seat in range(len(names))})
        self.seats.update({f"p{seat + 1}": seat for seat in range(len(names))})
        self.last_dealer = None

    def seat_of(self, name: str) -> int:
        seat = self.seats.get(" ".join(name.split()))
        if seat is None:
            raise LogError(f"{name.strip()!r} is not in Players")
        return seat

    def parse_layout(self, text: str) -> dict[str, Card]:
        entries: dict[str, Card] = {}
        for word in re.sub(r"\s*:\s*", ":", text).split():
            pile, colon, card = word.partition(":")
            if not colon:
                raise LogError(f"not a layout entry: {word!r}")
            if parse_pile(pile) in entries:
                raise LogError(f"{pile} is named twice in the layout")
            entries[parse_pile(pile)] = parse_card(card)
        return entries

    def current_hand(self) -> Hand:
        if self.hand is None:
            raise LogError("a line of a hand before the first hand line")
        return self.hand

    def start_hand(self, words: list[str]) -> None:
        if not self.players:
            raise LogError("no Players tag before the hand")
        n = len(self.players)
        passed_to = n - 1 if self.last_dealer is None else (self.last_dealer + 1) % n
        number, dealer = self.parse_hand_line(words, passed_to)
        self.end_hand()
        self.skipping = False
        self.tally.hands += 1
        self.hand = Hand(self.rules, self.players, dealer, number, self.tally)
        if number is not None and self.last_number is not None and number != self.last_number + 1:
            self.tally.warning(f"hand {number} follows hand {self.last_number}")
        self.last_dealer, self.last_number = dealer, number
        if dealer != passed_to:
            self.tally.warning(f"the deal passes to {self.players[passed_to]}, not {self.players[dealer]}")

    def parse_hand_line(self, words: list[str], dealer: int) -> tuple[int | None, int]:
        """The number and the dealer of a hand line's words after ``hand`` (by default ``dealer``)."""
        words = list(words)
        number = int(words.pop(0)) if words and words[0].isdigit() else None
        if words:
            if words[0].lower() != "dealer" or len(words) < 2:
                raise LogError("a hand line is 'hand [NUMBER] [dealer PLAYER]'")
            dealer = self.seat_of(" ".join(words[1:]))
        return number, dealer

    def end_hand(self) -> None:
        hand = self.hand
        if hand is None:
            return
        self.hand = None
        try:
            hand.finish()
        except LogError as error:
            self.tally.error(str(error))
            hand.failed = True
        self.tally.results.append(hand.result())


def referee(path: str, out: TextIO | None = sys.stdout, verbose: bool = False) -> Tally:
    """Referee the log at ``path``, printing what is found to ``out`` (None: print nothing)."""
    tally = Tally(path, out, verbose)
    with open(path, encoding="utf-8-sig") as log:
        Referee(tally).read(log)
    return tally


def referee_text(text: str, path: str = "<string>", out: TextIO | None = None) -> Tally:
    """Referee a log held in a string."""
    tally = Tally(path, out)
    Referee(tally).read(text.splitlines())
    return tally


# --- for bench/run.py ----------------------------------------------------------------------


def plain_referee_argv(log: str) -> list[str]:
    """The command line that runs this referee on ``log`` as a process."""
    return [sys.executable, os.path.abspath(__file__), log]


def plain_referee_seconds(log: str, clock: str = "cpu") -> float:
    """One run of this referee on ``log`` as a process, start-up included, measured as bench/run.py
    measures kcref: CPU time (user + system) by default, or wall time with ``clock="wall"``."""
    # Imported here: the referee's own start-up does not pay for the benchmark's tools.
    from runner import run

    sample = run(plain_referee_argv(log))
    if sample.status != 0:
        raise RuntimeError(f"the plain referee found errors in {log} (exit status {sample.status})")
    return sample.wall if clock == "wall" else sample.cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="A minimal stdlib referee for Kings in the Corner (classic and commercial presets, "
                    "full-information logs): the benchmarks' yardstick, not a product.")
    parser.add_argument("log", help="a log as `kcref play` writes it")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every penalty too")
    args = parser.parse_args(argv)
    tally = referee(args.log, sys.stdout, args.verbose)
    print(tally.summary())
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
