"""One game of an arena: its bots seated, the deal played through the engine's own loop
(:func:`kcref.engine.bots.play_hand`), and what came of it: the statistics' record, the log,
and each ``exec:`` bot's standard error.

A game depends on nothing but its :class:`Setup` and :class:`~kcref.engine.duplicate.Seating`,
so it plays the same in this process, in a worker process or on a Dask worker.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.bots import Bot, PlayedHand, play_hand
from ...engine.dealing import deal_from_deck
from ...engine.duplicate import Seating, deal_deck, game_rng
from ...engine.outcome import hand_scores, places
from ...engine.seats import Forfeit, ForfeitReason, SeatPlayer
from ...model.events import HandStart, Tag
from ...model.options import OPTION_TAGS_BY_NAME, resolve
from ...notation.writer import event_text
from ...scoring.arena_stats import ArenaGame
from .entrants import Entrant, seat_bot_factory
from .protocol import ExecBot, hello_message


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of an arena shares."""

    entrants: tuple[Entrant, ...]
    players: int
    rules: str
    options: tuple[tuple[str, str], ...]
    """Option tags as given (``("Draw", "start")``), in order."""
    seed: int
    move_time: float = 1.0
    game_time: float = 60.0


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game played: its record for the statistics, its log, and per seat the standard error
    of an ``exec:`` bot (empty for the others)."""

    game: ArenaGame
    seating: Seating
    log: str
    stderr: tuple[str, ...]
    forfeit_detail: str = ""


EVENT_LINE = event_text(Tag("Event", "kcref arena"))


def header(setup: Setup, seating: Seating) -> list[str]:
    """The tag lines of a game's log: the players (the entrants' names), the rules, the options,
    and which deal and which bots."""
    deal = Tag("Round", f"deal {seating.deal}, game {seating.rotation + 1}")
    return [EVENT_LINE, event_text(deal), *_lineup_header(setup, seating.lineup)]


@functools.lru_cache(maxsize=256)
def _lineup_header(setup: Setup, lineup: tuple[int, ...]) -> tuple[str, ...]:
    """The tag lines after ``Round``: the same in every game of an arena that seats ``lineup``,
    so written once for them all."""
    names = [setup.entrants[e].name for e in lineup]
    tags = [Tag("Players", ", ".join(names)), Tag("Rules", setup.rules.lower()),
            *(Tag(OPTION_TAGS_BY_NAME[k.lower()].tag, v) for k, v in setup.options), Tag("Seed", str(setup.seed))]
    tags += [Tag("Bot", _printable(f"{setup.entrants[e].name} = {setup.entrants[e].spec}")) for e in lineup]
    return tuple(event_text(tag) for tag in tags)


def _printable(text: str, most: int = 200) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= most else text[:most - 3] + "..."


def play_game(setup: Setup, seating: Seating) -> GameResult:
    """Play one game; every program started for it has ended when this returns or raises."""
    options = resolve(setup.rules, dict(setup.options))
    names = tuple(setup.entrants[e].name for e in seating.lineup)
    dealer = len(names) - 1
    rng = game_rng(setup.seed, seating.deal, seating.rotation)
    execs: list[ExecBot | None] = [None] * len(names)
    stderr = [""] * len(names)
    deck = deal_deck(setup.seed, seating.deal)
    try:
        seats: list[Bot] = []
        try:
            for seat, e in enumerate(seating.lineup):
                seats.append(_seat_player(setup, seating, seat, e, names, dealer, execs))
        except Forfeit as early:
            dealt = deal_from_deck(options, names, dealer, deck)
            played = PlayedHand(list(dealt.events()), dealt.table, forfeit=early)
        else:
            played = play_hand(options, names, dealer, seats, rng, deck=deck, hide_stock=True)
    finally:
        for seat, bot in enumerate(execs):
            if bot is not None:
                stderr[seat] = bot.close()
    t, forfeit = played.table, played.forfeit
    hand = HandStart(1, names[dealer])
    if forfeit is None:
        game = ArenaGame(seating.deal, seating.lineup, places(t), hand_scores(t, played.pot_won))
    else:
        note = _printable(f"{names[forfeit.seat]} forfeits ({forfeit.reason.value}): {forfeit.detail}")
        # The hand stops where the bot forfeited: unfinished on purpose, which the log says.
        hand = HandStart(1, names[dealer], comment=f"# kcref: ignore[KC501] {note}")
        game = ArenaGame(seating.deal, seating.lineup, places(t, forfeit.seat), None,
                         (forfeit.seat, forfeit.reason.name))
    lines = [*header(setup, seating), "", event_text(hand),
             *(event_text(e) for e in played.events)]
    return GameResult(game, seating, "\n".join(lines) + "\n", tuple(stderr),
                      forfeit.detail if forfeit is not None else "")


def _seat_player(setup: Setup, seating: Seating, seat: int, entrant: int, names: Sequence[str], dealer: int,
                 execs: list[ExecBot | None]) -> SeatPlayer:
    command = setup.entrants[entrant].command
    if command is None:
        try:
            bot = seat_bot_factory(setup.entrants[entrant].spec)()
            return SeatPlayer(seat, bot, time.monotonic, setup.move_time, setup.game_time)
        except Exception as exc:
            raise Forfeit(seat, ForfeitReason.START, f"cannot be made: {type(exc).__name__}: {exc}") from None
    # A program is held to its times as it is read (kcref.apps.arena.protocol).
    exec_bot = execs[seat] = ExecBot(command, seat, setup.move_time, setup.game_time)
    exec_bot.greet(hello_message(seat, names, dealer, setup.rules.lower(), dict(setup.options),
                                 _bot_seed(setup, seating, seat), setup.move_time, setup.game_time))
    return SeatPlayer(seat, exec_bot)


def _bot_seed(setup: Setup, seating: Seating, seat: int) -> int:
    """A seed for an ``exec:`` bot's own choices: the same for the same game and seat."""
    rng = game_rng(setup.seed, seating.deal, seating.rotation)
    for _ in range(seat):
        rng.random()
    return int(rng.random() * 2**32)
