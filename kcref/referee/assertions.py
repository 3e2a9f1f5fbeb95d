"""Check the assertions of a log against the referee's own count (KC601-KC604).

A log may state what the table believed at the end of a hand, like a ledger's balance
assertions: ``score Ann 12, Bob 3`` (each player's score for the hand, in the hand's scoring
system), ``chips Ann 25`` (a stack after the hand), ``paid Bob 3`` (chips Bob paid into the pot
during the hand) and ``pot 17`` (the pot at the end of play, what the winner took). Each figure
is compared with what kcref counts; a mismatch is an error at the figure, with both numbers.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..engine.carry import ChipCarry
from ..model.diagnostics import Diagnostic, diagnostic
from ..model.events import Assertion, Blocked, Claim, Quantity, Span, Turn
from ..model.patterns import lazy_pattern
from .grouping import HandRecord, unknown_player
from .hand_score import chips_paid, unknown_value
from .verdict import HandVerdict

CHIP_QUANTITIES = frozenset({Quantity.CHIPS, Quantity.PAID, Quantity.POT})
_NUMBER = lazy_pattern(r"-?[0-9]+")


def _split_claims(words: list[str], players: tuple[str, ...]) -> list[tuple[str, str]] | None:
    """``Ann 42 Bob`` read as claims run together, ``[("Ann", "42"), ("Bob", "")]``, where each
    name is a player's; None when the words cannot be read so. Where several readings exist,
    the one with the shortest names first.

    Worked out from the last word back, each position once: a line of many words (a log's line
    may be 64 KiB long) takes time in proportion to its length, and no recursion."""
    sizes = sorted({name.count(" ") + 1 for name in players})
    count = len(words)
    # step[i]: the number of words of the first name of the reading of words[i:], 0 where none.
    step = [0] * (count + 1)
    for i in range(count - 1, -1, -1):
        for size in sizes:
            end = i + size
            if end > count:
                break
            if " ".join(words[i:end]) not in players:
                continue
            if end == count or (end + 1 <= count and _NUMBER().fullmatch(words[end]) and step[end + 1]):
                step[i] = size
                break
    if not step[0]:
        return None
    claims: list[tuple[str, str]] = []
    i = 0
    while i < count:
        end = i + step[i]
        claims.append((" ".join(words[i:end]), words[end] if end < count else ""))
        i = end + 1
    return claims


def _missing_commas(line: Assertion, claim: Claim, players: tuple[str, ...]) -> str:
    """The hint for a claim whose player reads as claims run together (``chips Ann 42 Bob 17``):
    the commas between them are missing; the line as it was meant."""
    assert claim.player is not None
    if _split_claims(claim.player.split(" "), players) is None or claim.player in players:
        return ""
    written: list[str] = []
    for each in line.claims:
        who = each.player or ""
        parts = _split_claims(who.split(" "), players) or [(who, "")]
        written.extend(f"{name} {amount or each.amount}" for name, amount in parts)
    return f"; a comma is missing between claims: write '{line.quantity.value} {', '.join(written)}'"


def check_assertions(record: HandRecord, verdict: HandVerdict) -> list[Diagnostic]:
    """Every problem with the assertion lines of one hand, in line order."""
    events = record.events
    if not record.players or Assertion not in map(type, events):  # most hands assert nothing
        return []
    plays = [(i, e) for i, e in enumerate(events) if isinstance(e, (Turn, Blocked))]
    found: list[Diagnostic] = []
    for i, event in enumerate(events):
        if isinstance(event, Assertion):
            play_after = plays[-1][1] if plays and i < plays[-1][0] else None
            found.extend(_check_line(record, verdict, event, play_after))
    return found


def _check_line(record: HandRecord, verdict: HandVerdict, line: Assertion,
                play_after: Turn | Blocked | None) -> Iterator[Diagnostic]:
    """The problems of one assertion line; ``play_after`` is a turn or blocked line after it."""
    span = line.span
    path = span.path or record.path
    seats: list[int | None] = []
    for claim, col in zip(line.claims, line.cols):
        seat = None if claim.player is None else record.seat(claim.player)
        if claim.player is not None and seat is None:
            found = unknown_player(claim.player, record.players, Span(path, span.line, col))
            yield found.replace(message=found.message + _missing_commas(line, claim, record.players))
        seats.append(seat)
    if play_after is not None:
        yield diagnostic(path, span.line, span.col, "KC603",
                         f"an assertion states the end of the hand: write it after the hand's last turn "
                         f"(line {play_after.span.line} comes after it)")
        return
    scoring = record.options.scoring
    if line.quantity in CHIP_QUANTITIES and not scoring.plays_chips:
        yield diagnostic(path, span.line, span.col, "KC602",
                         f"'{line.quantity.value}' states chips, but no chips are played in this hand "
                         f"(Scoring \"{scoring.name}\")")
        return
    if not record.valid or not verdict.valid or verdict.errors:
        return  # a hand with a rule error is not judged past it: nothing reliable to compare with
    if not verdict.finished:
        yield diagnostic(path, span.line, span.col, "KC604",
                         f"'{line.quantity.value}' cannot be checked: the hand is unfinished")
        return
    for claim, seat, col in zip(line.claims, seats, line.amount_cols):
        if claim.player is not None and seat is None:
            continue
        unknown = _unknown_figure(verdict, line.quantity, seat)
        if unknown:
            yield diagnostic(path, span.line, col, "KC604", unknown)
            continue
        problem = _mismatch(verdict, line.quantity, claim, seat)
        if problem:
            yield diagnostic(path, span.line, col, "KC601", problem)


def _unknown_figure(v: HandVerdict, quantity: Quantity, seat: int | None) -> str:
    """The KC604 message for a figure that depends on cards nobody recorded, or "" when it can
    be checked: the cards left of a player (their value), the chips a player may have owed
    for a penalty kcref could not judge (:attr:`HandVerdict.unpriced`), or chips carried in
    from an earlier hand that such cards decided (:attr:`HandVerdict.inexact_stacks`)."""
    left = _depends_on(v, quantity, seat, unknown_value(v))
    owed = _depends_on(v, quantity, seat, tuple(v.players[s] for s in v.unpriced))
    carried = _carried(v, quantity, seat)
    if not (left or owed or carried):
        return ""
    reasons = []
    if left:
        reasons.append(f"the cards {' and '.join(left)} had left, which are unknown (a reveal line would show them)")
    if owed:
        reasons.append(f"chips {' and '.join(owed)} may have owed that kcref could not charge, as cards nobody "
                       "recorded decide them (the note at the hand line says which)")
    if carried:
        reasons.append(f"{' and '.join(carried)} carried in from an earlier hand, which cards nobody recorded "
                       "decided there")
    return f"'{quantity.value}' cannot be checked: it depends on " + ", and on ".join(reasons)


def _carried(v: HandVerdict, quantity: Quantity, seat: int | None) -> tuple[str, ...]:
    """What of the chips carried into the hand, not exact, the figure holds: a player's stack
    (a stack figure), the pot (the pot, and what the winner took)."""
    carried: list[str] = []
    if quantity is Quantity.CHIPS and seat in v.inexact_stacks:
        carried.append(f"the stack {v.players[seat]}")
    takes_pot = quantity is Quantity.POT or (seat is not None and seat == v.winner and quantity is not Quantity.PAID)
    if v.inexact_pot and takes_pot:
        carried.append("the pot")
    return tuple(carried)


def inexact_after(v: HandVerdict) -> tuple[frozenset[str], bool]:
    """The players whose stack at the end of the hand is not exact, as cards nobody recorded
    decided it (in this hand or one before it carried in), and whether the pot left is not;
    for :meth:`kcref.engine.carry.ChipCarry.after`."""
    if not v.options.scoring.keeps_stacks or v.stacks_end is None:
        return frozenset(), False
    unknown = (*unknown_value(v), *(v.players[s] for s in v.unpriced))
    names = {v.players[s] for s in v.inexact_stacks}
    for seat, name in enumerate(v.players):
        if _depends_on(v, Quantity.CHIPS, seat, unknown) or (v.inexact_pot and seat == v.winner):
            names.add(name)
    pot = v.pot_left > 0 and (v.inexact_pot or bool(_depends_on(v, Quantity.POT, None, unknown)))
    return frozenset(names), pot


def carried_in(v: HandVerdict, carry: ChipCarry) -> HandVerdict:
    """``v`` knowing which of the chips ``carry`` brought into its hand are not exact (see
    :attr:`kcref.engine.carry.ChipCarry.inexact`): call it before :func:`check_assertions`."""
    if not (carry.inexact or carry.inexact_pot) or v.stacks_start is None:
        return v
    return v.replace(inexact_stacks=tuple(s for s, name in enumerate(v.players) if name in carry.inexact),
                     inexact_pot=carry.inexact_pot)


def carry_on(carry: ChipCarry, v: HandVerdict) -> None:
    """Carry the chips of the hand judged ``v`` on to the next hand, and which of them are not
    exact; a hand with a rule error is void for the chips carried."""
    if v.valid:
        carry.after(v.options, v.players, v.stacks_end, v.pot_left, *inexact_after(v))


def _depends_on(v: HandVerdict, quantity: Quantity, seat: int | None, unknown: tuple[str, ...]) -> tuple[str, ...]:
    """Those of the players ``unknown`` (whose cards left, or whose chips owed, are unknown) that
    the figure depends on (none: it can be checked)."""
    if not unknown:
        return ()
    own = tuple(n for n in unknown if seat is not None and n == v.players[seat])
    scoring = v.options.scoring
    if not scoring.plays_chips:
        return own
    if quantity is Quantity.POT:
        return unknown
    if seat is not None and seat == v.winner:
        # The winner's score and stack hold the pot; what the winner paid is the winner's own.
        return own if quantity is Quantity.PAID else unknown
    if quantity is Quantity.SCORE and scoring.scorer.only_winner:
        return ()  # a loser's score is 0 whatever the cards left
    return own


def _mismatch(v: HandVerdict, quantity: Quantity, claim: Claim, seat: int | None) -> str:
    """The KC601 message for a claim that kcref counts differently, or "" when it agrees."""
    who = claim.player or ""
    said = claim.amount
    if quantity is Quantity.SCORE:
        assert seat is not None
        scorer = v.options.scoring.scorer
        actual = scorer.score(v)[seat]
        assert actual is not None, "a figure that depends on unknown cards is not compared"
        # Seed 001 writes penalty points as negative numbers; they count the same (docs/rules.md, ruling 28).
        agrees = said == actual or (scorer.negated and -said == actual)
        if agrees:
            return ""
        return f"the log says {who} scored {said}; kcref counts {actual}{scorer.why(v, seat)}"
    if quantity is Quantity.CHIPS:
        assert seat is not None and v.stacks_end is not None
        actual = v.stacks_end[seat]
        return "" if said == actual else (f"the log says {who} has {_chips(said)} after the hand; "
                                          f"kcref counts {actual}")
    if quantity is Quantity.PAID:
        assert seat is not None
        actual = chips_paid(v, seat)
        assert actual is not None
        if said == actual:
            return ""
        fines = sum(p.chips for p in v.penalties if p.seat == seat)
        return (f"the log says {who} paid {_chips(said)}; kcref counts {actual} "
                f"(ante {v.ante}, penalties and cards left {fines})")
    return "" if said == v.pot else f"the log says the pot was {said}; kcref counts {v.pot}"


def _chips(n: int) -> str:
    return f"{n} chip" if n in (1, -1) else f"{n} chips"
