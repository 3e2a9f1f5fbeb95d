"""Group a stream of events into hands, each with the players, dealer and rules in force.

Tags apply to the hands after them. This stage resolves them (``Players``, ``Rules`` and the
option tags) and reports the problems that need only the tags: KC201-KC207.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, NamedTuple, final

from ..model.clip import clip
from ..model.codes import STOPS_READING, UNREADABLE
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import TRIVIA, Blocked, Event, HandStart, Reveal, Span, Tag, Turn, Value
from ..model.options import (
    DEFAULT_PRESET,
    OPTION_TAGS,
    OPTION_TAGS_BY_NAME,
    PRESETS_BY_NAME,
    Options,
    OptionTag,
    resolve,
)
from ..model.patterns import lazy_pattern
from ..model.words import did_you_mean, plural
from ..notation.lexicon import KEYWORDS, SUPPRESSION_MARK
from ..notation.reader import Item, Run, is_name

MAX_HAND_ITEMS = 20_000
"""A hand holding more lines and actions than this is not refereed past that point (KC505): no
real hand comes near it, and it bounds the memory one hand can take."""


MAX_OPTION_SETS = 64
"""How many sets of options in force a file's grouping remembers (tags change rarely; past that
number all are forgotten, and it remembers again those that come next)."""


MAX_TAG_NAMES = 64
"""A hand's record keeps the tags of at most this many names (the rules' own tags are read as
they come, whatever their number): a log of a million distinct tags stays in bounded memory."""


class Cut(NamedTuple):
    """The first line of a hand that cannot be judged (a syntax error, an unknown player, a
    set-up error...): the hand is replayed up to it, not past it."""

    line: int
    column: int
    code: str
    """The code of the error found there."""


@final
class HandRecord(Value):
    """One hand of a log with everything needed to judge it, compared by all its fields."""

    __match_args__ = ("path", "index", "start", "players", "dealer", "options", "rules", "tags", "events", "cut",
                      "marked")
    __slots__ = __match_args__
    _compared = __match_args__

    def __init__(self, path: str, index: int, start: HandStart, players: tuple[str, ...], dealer: int,
                 options: Options, rules: str, tags: tuple[Tag, ...], events: tuple[Event, ...],
                 cut: Cut | None = None, marked: tuple[Event, ...] = ()) -> None:
        self.path: Final = path
        self.index: Final = index
        """1-based position of the hand in its file."""
        self.start: Final = start
        self.players: Final = players
        """Names in seat order, P1 first."""
        self.dealer: Final = dealer
        """Seat index (0-based) of the dealer; the player after it plays first."""
        self.options: Final = options
        self.rules: Final = rules
        """The preset named by the ``Rules`` tag in force (``classic`` by default)."""
        self.tags: Final = tags
        """The tags in force for this hand, the latest of each name, in order of first appearance."""
        self.events: Final = events
        """The hand's events after its ``hand`` line, without comments and blank lines."""
        self.cut: Final = cut
        """The first line that cannot be judged, if any: the hand is replayed up to it only."""
        self.marked: Final = marked
        """The events among ``events`` whose comment holds :data:`~kcref.notation.lexicon.SUPPRESSION_MARK`,
        in order, set aside as they are read: the only ones whose suppressions are to be read."""

    @property
    def number(self) -> int | None:
        return self.start.number

    @property
    def valid(self) -> bool:
        """Every line of the hand can be judged: no syntax or set-up error, and players known."""
        return self.cut is None and bool(self.players)

    @property
    def playable(self) -> tuple[Event, ...]:
        """The events before the cut: those the referee judges."""
        if self.cut is None:
            return self.events
        return tuple(e for e in self.events if e.span.line < self.cut.line)

    def with_cut(self, cut: Cut) -> HandRecord:
        """This record cut at ``cut`` too (the earlier of two cuts wins)."""
        if self.cut is not None and (self.cut.line, self.cut.column) <= (cut.line, cut.column):
            return self
        return self.replace(cut=cut)

    def with_index(self, index: int) -> HandRecord:
        """This record as the hand at ``index`` of its file."""
        return self.replace(index=index)

    def with_event(self, event: Turn | Blocked | Reveal) -> HandRecord:
        """This record with the play line ``event`` after its events (and after its marked ones,
        when its comment holds the suppression mark)."""
        marked = (*self.marked, event) if SUPPRESSION_MARK in event.comment else self.marked
        return self.replace(events=(*self.events, event), marked=marked)

    def seat(self, ref: str) -> int | None:
        """The 0-based seat of a player written as a seat tag (``P2``) or a listed name."""
        return resolve_player(ref, self.players)


def resolve_player(ref: str, players: tuple[str, ...]) -> int | None:
    """Seat index of ``ref`` among ``players``: a seat tag ``P1``..``P6`` (any case) or an exact name."""
    if ref in players:
        return players.index(ref)
    if len(ref) == 2 and ref[0] in "Pp" and ref[1] in "123456":
        n = int(ref[1])
        if n <= len(players):
            return n - 1
    return None


# --- tags ---------------------------------------------------------------------------------------

def is_seat_tag(text: str) -> bool:
    """``text`` is a seat tag, ``P1`` to ``P6`` (any case)."""
    return len(text) == 2 and text[0] in "Pp" and text[1] in "123456"


_date_re = lazy_pattern(r"\d{4}-\d{2}-\d{2}")


RESERVED_NAMES = frozenset(KEYWORDS)


class Defaults(NamedTuple):
    """What a log's tags default to (a configuration file's ``rules`` and ``options``): its own
    ``Rules`` and option tags win."""

    rules: str = DEFAULT_PRESET
    """The preset of a log without a ``Rules`` tag (a name of ``PRESETS_BY_NAME``)."""
    options: tuple[tuple[str, str], ...] = ()
    """Option tags and their values (already checked), for a log without those tags."""


NO_DEFAULTS = Defaults()


class _Context:
    """What the tags seen so far say; mutated only while grouping one file."""

    def __init__(self, defaults: Defaults = NO_DEFAULTS) -> None:
        self.tags: dict[str, Tag] = {}
        self.players: tuple[str, ...] | None = None
        self.players_seen = False
        self.rules = defaults.rules
        self.defaults = {tag.lower(): value for tag, value in defaults.options}
        self.overrides: dict[str, Tag] = {}
        self._options: dict[tuple[object, ...], Options] = {}

    def options(self) -> Options:
        """The options in force: the preset, then the defaults, then each option tag (memoised:
        tags change rarely)."""
        key = (self.rules, tuple((k, t.value) for k, t in self.overrides.items()))
        cached = self._options.get(key)
        if cached is None:
            if len(self._options) >= MAX_OPTION_SETS:
                self._options.clear()  # a log of ever new option values stays in bounded memory
            values = {**self.defaults, **{k: t.value for k, t in self.overrides.items()}}
            cached = self._options[key] = resolve(self.rules, values)
        return cached


def _is_date(text: str) -> bool:
    """A real calendar date written YYYY-MM-DD (``2026-02-30`` is not one)."""
    if not _date_re().fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def split_players(value: str) -> list[str]:
    """The names of a ``Players`` tag value, in seat order."""
    return [n.strip() for n in value.split(",")]


def _check_players(tag: Tag) -> list[Diagnostic]:
    names = split_players(tag.value)
    where = (tag.span.path, tag.span.line, tag.span.col)
    out: list[Diagnostic] = []
    if not 2 <= len(names) <= 6:
        out.append(diagnostic(*where, "KC202", f"Players lists {plural(len(names), 'player')};"
                                               " Kings in the Corner takes 2 to 6"))
    seen: set[str] = set()
    for name in names:
        if not name or not is_name(name):
            out.append(diagnostic(*where, "KC204", f"'{clip(name)}' is not a usable player name: a name is letters, "
                                                   "digits, _ ' . - and single spaces"))
        elif is_seat_tag(name) or name.split(" ", 1)[0].lower() in RESERVED_NAMES:
            out.append(diagnostic(*where, "KC204", f"'{clip(name)}' cannot be a player name: it reads as a seat tag "
                                                   "or a keyword"))
        elif name in seen:
            out.append(diagnostic(*where, "KC203", f"'{clip(name)}' is listed twice in Players"))
        seen.add(name)
    return out


def _check_tag(tag: Tag, ctx: _Context) -> list[Diagnostic]:
    """Validate a known tag and fold it into the context; unknown tags are kept as they are."""
    check = _TAG_CHECKS.get(tag.name)
    if check is not None:
        return check(tag, ctx)
    key = tag.name.lower()
    spec = OPTION_TAGS_BY_NAME.get(key)
    if spec is not None:
        return _option_tag(tag, spec, ctx)
    if key in _TAG_SPELLING:
        return [_wrong_case(tag, _TAG_SPELLING[key])]
    if tag.name not in _FREE_TAGS:
        hint = did_you_mean(tag.name, _KNOWN_TAGS, cutoff=NEAR_TAG)
        if hint:
            return [_tag_error(tag, f"unknown tag [{clip(tag.name)} ...]: it sets nothing{hint}")]
    return []


def _players_tag(tag: Tag, ctx: _Context) -> list[Diagnostic]:
    problems = _check_players(tag)
    ctx.players_seen = True
    ctx.players = None if problems else tuple(split_players(tag.value))
    return problems


def _rules_tag(tag: Tag, ctx: _Context) -> list[Diagnostic]:
    if tag.value.strip().lower() not in PRESETS_BY_NAME:
        names = ", ".join(PRESETS_BY_NAME)
        return [_tag_error(tag, f"unknown rules preset '{clip(tag.value)}': expected one of {names}"
                                               f"{did_you_mean(tag.value.lower(), PRESETS_BY_NAME)}")]
    ctx.rules = tag.value.strip().lower()
    return []


def _date_tag(tag: Tag, ctx: _Context) -> list[Diagnostic]:
    if _is_date(tag.value.strip()):
        return []
    return [_tag_error(tag, f"Date '{clip(tag.value)}' is not a date written YYYY-MM-DD")]


def _option_tag(tag: Tag, spec: OptionTag, ctx: _Context) -> list[Diagnostic]:
    if tag.name != spec.tag:
        return [_wrong_case(tag, spec.tag)]
    try:
        spec.parse(tag.value)
    except ValueError as exc:
        return [_tag_error(tag, f"{spec.tag} '{clip(tag.value)}': {exc}")]
    ctx.overrides[tag.name.lower()] = tag
    return []


def _tag_error(tag: Tag, message: str) -> Diagnostic:
    """The KC206 of a tag that sets nothing as written, at the tag."""
    return diagnostic(tag.span.path, tag.span.line, tag.span.col, "KC206", message)


def _wrong_case(tag: Tag, name: str) -> Diagnostic:
    return _tag_error(tag, f"tag names are case-sensitive: write [{name} ...], not [{tag.name} ...]")


_TAG_CHECKS: dict[str, Callable[[Tag, _Context], list[Diagnostic]]] = {
    "Players": _players_tag, "Rules": _rules_tag, "Date": _date_tag,
}
"""The tags that are not rule options, by their exact name."""
_TAG_SPELLING = {name.lower(): name for name in _TAG_CHECKS}
_FREE_TAGS = frozenset({"Event", "Site", "Round"})
"""Tags kcref reads but does not check (a report shows them); a name near no tag is kept unread."""
_KNOWN_TAGS = (*_TAG_CHECKS, *sorted(_FREE_TAGS), *(t.tag for t in OPTION_TAGS))
"""Every tag kcref reads: an unknown tag whose name is near one of them is taken for a misspelling."""
NEAR_TAG = 0.75
"""How near (difflib's ratio) an unknown tag's name must be to a known one to be taken for its
misspelling: a letter missing, added or swapped, not another word of the same length."""


# --- grouping -------------------------------------------------------------------------------------


def iter_hands(items: Iterable[Item], path: str,
               defaults: Defaults = NO_DEFAULTS) -> Iterator[HandRecord | Diagnostic | Tag]:
    """Group a file's events into hands (``defaults``: the rules and options of a log without
    those tags).

    Yields, in file order: diagnostics (syntax errors passed through, tag problems), every Tag
    (so that reports can show Event, Date, Site...), and one HandRecord per hand. Comments and
    blank lines are dropped. A hand is cut at its first syntax error (``HandRecord.cut``).
    """
    return _Grouping(path, defaults).run(items)


_Found = Iterator[HandRecord | Diagnostic | Tag]


class _Grouping:
    """The hand being gathered and what the file has said so far: one handler per kind of item."""

    def __init__(self, path: str, defaults: Defaults = NO_DEFAULTS) -> None:
        self.path = path
        self.ctx = _Context(defaults)
        self.current: HandStart | None = None
        self.events: list[Event] = []
        self.marked: list[Event] = []
        """The events of ``events`` with a suppression mark (see :attr:`HandRecord.marked`)."""
        self.cut: Cut | None = None
        self.size = 0
        """Lines and actions of the current hand so far (KC505 past MAX_HAND_ITEMS)."""
        self.index = 0
        self.dealer: int | None = None
        self.record_ctx: tuple[tuple[str, ...], Options, str, tuple[Tag, ...]] | None = None
        """The players, options, rules and tags in force when the current hand started."""
        self.next_ctx: tuple[tuple[str, ...], Options, str, tuple[Tag, ...]] | None = None
        """Those in force now, once a hand has asked (None again after any tag)."""
        self.reported_no_players = False
        self.unreadable = False
        """The reading stopped (or never started): a file that holds no hand may hold one unread."""
        self.previous_players: tuple[str, ...] | None = None
        self.first_line = 0
        """The first line that is neither blank nor a comment (0: none yet), where KC004 points."""
        self.handlers: dict[type, Callable[[Any], _Found]] = {
            Diagnostic: self.diagnostic, Tag: self.tag, HandStart: self.hand_start,
            **dict.fromkeys(TRIVIA, self.trivia),
        }

    def run(self, items: Iterable[Item | Run]) -> _Found:
        yield from self.take(items)
        done = self.flush()
        if done is not None:
            yield done
        elif self.index == 0 and not self.unreadable:
            # At the log's first line, not line 1: blank lines and comments above it (which fmt
            # may drop or which hold a comment alone) must not decide what silences it.
            yield diagnostic(self.path, self.first_line or 1, 1, "KC004",
                             "the file holds no hand (a hand starts with a 'hand' line)")

    def take(self, items: Iterable[Item | Run]) -> _Found:
        """Take the items in: the lines of the hand under way, a new hand, a tag..."""
        handlers, limit = self.handlers, MAX_HAND_ITEMS
        # The lines of a hand, the bulk of a log, are kept here with the hand's state in locals
        # (no call per line); a handler may change that state, so it is saved and read again.
        events, size, open_hand = self.events, self.size, self.current is not None
        for item in items:
            kind = type(item)
            if kind is Run:
                # A run of a hand's lines (see kcref.notation.reader.Run): all kept, in one step,
                # when no line of it can reach the limit; else line by line, as below.
                run: list[Event] = item.events  # type: ignore[union-attr]
                grown = size + len(run) + item.actions  # type: ignore[union-attr,operator]
                if open_hand and grown < limit:
                    events += run
                    size = grown
                    if item.marked:  # type: ignore[union-attr]
                        self.marked += item.marked  # type: ignore[union-attr]
                    continue
                self.size = size
                yield from self.take(run)
                events, size, open_hand = self.events, self.size, self.current is not None
                continue
            handler = handlers.get(kind)
            if handler is not None:
                self.size = size
                yield from handler(item)
                events, size, open_hand = self.events, self.size, self.current is not None
            elif open_hand and size < limit:
                size += 1 + len(item.actions) if kind is Turn else 1  # type: ignore[union-attr,arg-type]
                events.append(item)  # type: ignore[arg-type]
                if SUPPRESSION_MARK in item.comment:  # type: ignore[union-attr]
                    self.marked.append(item)  # type: ignore[arg-type]
                if size >= limit:
                    self.size = size
                    yield self.too_long(item)  # type: ignore[arg-type]
            else:
                found = self.not_kept(item)  # type: ignore[arg-type]
                if found is not None:
                    yield found
        self.size = size

    def flush(self) -> HandRecord | None:
        """The record of the hand gathered so far, if any."""
        current = self.current
        if current is None:
            return None
        players, options, rules, tags = self.record_ctx  # type: ignore[misc]
        at = self.cut
        if not players and at is None:
            at = Cut(current.span.line, current.span.col, "KC201")
        return HandRecord(path=self.path, index=self.index, start=current, players=players, dealer=self.dealer or 0,
                          options=options, rules=rules, tags=tags, events=tuple(self.events), cut=at,
                          marked=tuple(self.marked))

    def diagnostic(self, item: Diagnostic) -> _Found:
        self.unreadable = self.unreadable or item.code in UNREADABLE or item.code in STOPS_READING
        if not self.first_line and item.line > 0:
            self.first_line = item.line
        if self.current is not None and item.is_error and self.cut is None:
            self.cut = Cut(item.line, item.column, item.code)
        yield item

    def tag(self, item: Tag) -> _Found:
        self.next_ctx = None  # the next hand works out its context afresh
        if not self.first_line:
            self.first_line = item.span.line
        ctx = self.ctx
        yield from _check_tag(item, ctx)
        if item.name in ctx.tags or len(ctx.tags) < MAX_TAG_NAMES:
            ctx.tags[item.name] = item
        yield item

    def trivia(self, item: Event) -> _Found:
        yield from ()

    def hand_start(self, item: HandStart) -> _Found:
        done = self.flush()
        if done is not None:
            yield done
        self.index += 1
        self.current, self.events, self.marked, self.cut, self.size = item, [], [], None, 0
        ctx = self.ctx
        players = ctx.players or ()
        if not ctx.players_seen and not self.reported_no_players:
            self.reported_no_players = True
            yield diagnostic(self.path, item.span.line, item.span.col, "KC201",
                             "no Players tag before the first hand: write [Players \"Ann, Bob, ...\"] "
                             "at the top of the log")
        wrong = self.set_dealer(item, players)
        if wrong is not None:
            yield wrong
        self.previous_players = players
        # The context stays as it is from hand to hand until a tag changes it (see tag).
        if self.next_ctx is None:
            self.next_ctx = (players, ctx.options(), ctx.rules, tuple(ctx.tags.values()))
        self.record_ctx = self.next_ctx

    def set_dealer(self, item: HandStart, players: tuple[str, ...]) -> Diagnostic | None:
        """Set the hand's dealer; return KC205 for a dealer who is not a player, KC216 when the
        one written is not the one the deal passed to."""
        found = _dealer(item, players, self.dealer, self.path)
        if isinstance(found, Diagnostic):
            self.dealer, self.cut = None, Cut(found.line, found.column, found.code)
            return found
        dealer = self.dealer
        self.dealer = found
        passed_to = None if dealer is None or self.previous_players != players else (dealer + 1) % len(players)
        if item.dealer is not None and passed_to is not None and found is not None and found != passed_to:
            return diagnostic(self.path, item.span.line, item.dealer_col, "KC216",
                              f"the deal passes left, to {players[passed_to]}, not to "
                              f"{players[found]}: the turns are judged from {players[found]}'s left "
                              f"as written")
        return None

    def too_long(self, item: Event) -> Diagnostic:
        """KC505 at the line that takes a hand to MAX_HAND_ITEMS lines and actions: it is cut there."""
        self.cut = self.cut or Cut(item.span.line, 1, "KC505")
        return diagnostic(self.path, item.span.line, 1, "KC505",
                          f"this hand is too long to referee: it is not refereed past line "
                          f"{item.span.line} (more than {MAX_HAND_ITEMS:,} lines and actions)")

    def not_kept(self, item: Event) -> Diagnostic | None:
        """A line of a hand past MAX_HAND_ITEMS (nothing to say), or before any hand (KC207)."""
        if self.current is not None:
            return None
        if not self.first_line:
            self.first_line = item.span.line
        return diagnostic(self.path, item.span.line, item.span.col, "KC207",
                          f"this {_kind(item)} line stands before the first 'hand' line")


def _dealer(start: HandStart, players: tuple[str, ...], previous: int | None, path: str) -> int | Diagnostic | None:
    """The dealer's seat: as written, else passed left from the previous hand, else the last seat."""
    if not players:
        return None
    if start.dealer is not None:
        seat = resolve_player(start.dealer, players)
        if seat is None:
            return unknown_player(start.dealer, players, Span(path, start.span.line, start.dealer_col))
        return seat
    if previous is None:
        return len(players) - 1
    return (previous + 1) % len(players)


def unknown_player(ref: str, players: tuple[str, ...], span: Span) -> Diagnostic:
    """KC205 for a player reference that names nobody, with a suggestion where one is close."""
    folded = {p.lower(): p for p in players}
    hint = ""
    if ref.lower() in folded:
        hint = f"; names are case-sensitive: did you mean '{folded[ref.lower()]}'?"
    elif is_seat_tag(ref):
        hint = f"; there are only {len(players)} seats (P1..P{len(players)})"
    else:
        hint = did_you_mean(ref, players)
    listed = ", ".join(players)
    return diagnostic(span.path, span.line, span.col, "KC205",
                      f"'{clip(ref)}' is not a player here (Players: {listed}){hint}")


def _kind(event: Event) -> str:
    return type(event).__name__.lower().replace("handstart", "hand")
