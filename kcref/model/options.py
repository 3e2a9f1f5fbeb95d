"""Rule variants as data: one frozen options record, named presets, and the tags that set them.

A log picks a preset with ``[Rules "NAME"]`` and overrides single options with one tag each
(``[Draw "start"]``). Behaviour that differs between variants is looked up from these values by
the engine; nothing compares preset names.
"""

import enum
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .systems import CHIPS, NONE, PENALTY, SYSTEMS, ScoringSystem, UnknownSystem, system


class DrawTime(enum.Enum):
    """When a player takes the top card of the stock."""

    END = "end"        # 001, 000, 003: at the end of the turn
    START = "start"    # 004, 001 "draw first": the turn's first action
    STUCK = "stuck"    # 004 variant: only when the player cannot make a play


class LayoutKings(enum.Enum):
    """What happens to Kings turned up in the layout."""

    STAY = "stay"      # 001, 000: they stay; any player may move that pile to a corner
    CORNER = "corner"  # 004, 001 "immediate corners": to a corner at once, replaced from the stock


class ForcedKings(enum.Enum):
    """Whether a King must go to a corner at the first chance, and what failing costs."""

    OFF = "off"        # 001 base, 004
    ERROR = "error"    # 001 "mandatory Kings" without chips: holding a King is a rule error
    CHIPS = "chips"    # 000: holding a King past the first chance costs chips


class DrawnKing(enum.Enum):
    """What happens to a King drawn from the stock."""

    HAND = "hand"      # 001, 004: it goes to hand like any other card
    PLACE = "place"    # 000, 003: placed at once in an empty corner; the turn ends, no new draw


class CompletedPiles(enum.Enum):
    """What happens to a pile that runs complete from King to Ace."""

    STAY = "stay"      # every source's base rule
    REMOVE = "remove"  # 004 option: cleared from the table (out of play for the rest of the hand)


class Options(NamedTuple):
    """Every rule option; the defaults are the ``classic`` preset."""

    draw: DrawTime = DrawTime.END
    layout_kings: LayoutKings = LayoutKings.STAY
    forced_kings: ForcedKings = ForcedKings.OFF
    drawn_king: DrawnKing = DrawnKing.HAND
    completed: CompletedPiles = CompletedPiles.STAY
    scoring: ScoringSystem = NONE
    """The scoring system (:mod:`kcref.model.systems`)."""
    target: int | None = None
    """Points that end a game (chips: highest first to reach it; penalty systems: anyone reaching it)."""
    hands: int | None = None
    """Hands in a game, where a game is an agreed number of hands (dutch)."""
    chips: int = 80
    """Chips shared out at the start of each hand (scoring ``chips``)."""
    stack: int = 50
    """Each player's starting stack, kept between hands (scoring ``stacks``)."""
    ante: int = 1
    no_play_chips: int = 1
    """Paid by a player whose turn has no play."""
    missed_draw_chips: int = 1
    """Paid for not drawing while the stock has cards (where chips are played; else an error)."""
    king_held_chips: int = 3
    """Paid once per King held past its first chance (forced Kings ``chips``)."""
    card_chips: int = 1
    """Paid per card left in hand when someone goes out."""
    king_chips: int = 1
    """Paid per King left in hand when someone goes out (10 in the 004 chip variant)."""


class Preset(NamedTuple):
    name: str
    options: Options
    source: str
    summary: str


PRESETS: tuple[Preset, ...] = (
    Preset("classic", Options(), "seed 001 (Italian)",
           "draw at the end of the turn, Kings stay in hand, no scoring: count hands won"),
    Preset("commercial", Options(forced_kings=ForcedKings.CHIPS, drawn_king=DrawnKing.PLACE,
                                 scoring=CHIPS, target=100),
           "seeds 000 (English/Spanish) and 003 (Dutch)",
           "forced Kings, 80 chips shared out each hand, pot to the winner, first to 100"),
    Preset("family", Options(draw=DrawTime.START, layout_kings=LayoutKings.CORNER,
                             scoring=PENALTY, target=25),
           "seed 004 (Dutch)",
           "draw at the start of the turn, layout Kings to corners, penalty points to 25"),
)
PRESETS_BY_NAME: dict[str, Preset] = {p.name: p for p in PRESETS}
DEFAULT_PRESET = "classic"


class OptionTag(NamedTuple):
    """How one option is written as a log tag."""

    tag: str
    field: str
    accepted: str | Callable[[], str]
    """The accepted values, in words (or how to list them when asked, for a registry that may
    grow): see :attr:`values`."""
    parse: Callable[[str], object]
    source: str
    description: str

    @property
    def values(self) -> str:
        """The accepted values, in words, for help text and error messages."""
        return self.accepted if isinstance(self.accepted, str) else self.accepted()

    @property
    def choices(self) -> tuple[str, ...]:
        """The accepted values one by one, where they are a list of words (``end | start``);
        none where they are described (``a whole number``)."""
        words = self.values.split(" | ")
        return tuple(words) if all(w.isidentifier() for w in words) else ()


def _enum_parser(cls: type[enum.Enum]) -> Callable[[str], object]:
    def parse(text: str) -> object:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"expected one of {', '.join(m.value for m in cls)}") from None
    return parse


def _system_names() -> str:
    return " | ".join(SYSTEMS)


def _parse_system(text: str) -> ScoringSystem:
    try:
        return system(text)
    except UnknownSystem:
        raise ValueError(f"expected one of {', '.join(SYSTEMS)}") from None


def _count(text: str) -> int:
    t = text.strip()
    try:
        # ASCII digits only: str.isdigit() also takes digits int() refuses ('²', '①'), and int()
        # takes other scripts' digits ('١٢'), which no reader of the log would.
        if t.isascii() and t.isdigit():
            return int(t)
    except ValueError:  # more digits than Python reads
        pass
    raise ValueError("expected a whole number")


def _count_or_none(text: str) -> int | None:
    return None if text.strip().lower() in ("none", "off", "") else _count(text)


OPTION_TAGS: tuple[OptionTag, ...] = (
    OptionTag("Draw", "draw", "end | start | stuck", _enum_parser(DrawTime), "001, 000, 004",
              "when to draw: end of turn, start of turn, or only when unable to play"),
    OptionTag("LayoutKings", "layout_kings", "stay | corner", _enum_parser(LayoutKings), "000, 001, 004",
              "Kings turned up in the layout stay there, or go to a corner at once"),
    OptionTag("ForcedKings", "forced_kings", "off | error | chips", _enum_parser(ForcedKings), "000, 001, 003",
              "a King must go to a corner at the first chance: not at all, on pain of an error, or of chips"),
    OptionTag("DrawnKing", "drawn_king", "hand | place", _enum_parser(DrawnKing), "000, 003",
              "a drawn King goes to hand, or is placed at once and ends the turn"),
    OptionTag("CompletedPiles", "completed", "stay | remove", _enum_parser(CompletedPiles), "004",
              "a pile complete from King to Ace stays, or is cleared from the table"),
    OptionTag("Scoring", "scoring", _system_names, _parse_system,
              "000, 001, 003, 004", "the scoring system"),
    OptionTag("Target", "target", "a whole number, or none", _count_or_none, "000, 001, 004",
              "the score that ends a game"),
    OptionTag("Hands", "hands", "a whole number, or none", _count_or_none, "003",
              "the number of hands in a game"),
    OptionTag("Chips", "chips", "a whole number", _count, "000", "chips shared out at the start of each hand"),
    OptionTag("Stack", "stack", "a whole number", _count, "004", "each player's starting stack (scoring stacks)"),
    OptionTag("Ante", "ante", "a whole number", _count, "000, 004", "chips each player puts in at the start of a hand"),
    OptionTag("NoPlayChips", "no_play_chips", "a whole number", _count, "000, 004",
              "chips paid for a turn with no play"),
    OptionTag("MissedDrawChips", "missed_draw_chips", "a whole number", _count, "000",
              "chips paid for not drawing"),
    OptionTag("KingHeldChips", "king_held_chips", "a whole number", _count, "000",
              "chips paid per King held past its first chance"),
    OptionTag("CardChips", "card_chips", "a whole number", _count, "000, 004",
              "chips paid per card left in hand when someone goes out"),
    OptionTag("KingChips", "king_chips", "a whole number", _count, "004",
              "chips paid per King left in hand when someone goes out"),
)
OPTION_TAGS_BY_NAME: dict[str, OptionTag] = {t.tag.lower(): t for t in OPTION_TAGS}

assert {t.field for t in OPTION_TAGS} == set(Options._fields), "every option has a tag"


def preset(name: str) -> Options:
    """The options of a named preset (case-insensitive). Raises ``KeyError`` for an unknown name."""
    return PRESETS_BY_NAME[name.strip().lower()].options


def with_scoring(options: Options, scoring: ScoringSystem) -> Options:
    """Switch the scoring system, taking that system's default target and the options it implies."""
    changes: dict[str, Any] = {"scoring": scoring, "target": scoring.default_target, **scoring.implies}
    return options._replace(**changes)


def resolve(rules: str, tags: Mapping[str, str]) -> Options:
    """The options of preset ``rules`` with option tags applied (``{"Draw": "start"}``; tag names
    in any case). ``Scoring`` is applied first, so that a ``Target`` tag overrides its default.

    Raises ``ValueError`` naming the unknown preset, the unknown option or the bad value.
    """
    if rules.strip().lower() not in PRESETS_BY_NAME:
        raise ValueError(f"unknown preset '{rules}': expected one of {', '.join(PRESETS_BY_NAME)}")
    opts = preset(rules)
    changes: dict[str, Any] = {}
    for tag, value in tags.items():
        spec = OPTION_TAGS_BY_NAME.get(tag.lower())
        if spec is None:
            raise ValueError(f"unknown option '{tag}': expected one of {', '.join(t.tag for t in OPTION_TAGS)}")
        try:
            parsed = spec.parse(value)
        except ValueError as exc:
            raise ValueError(f"{spec.tag} '{value}': {exc}") from None
        if isinstance(parsed, ScoringSystem):
            opts = with_scoring(opts, parsed)
        else:
            changes[spec.field] = parsed
    return opts._replace(**changes)
