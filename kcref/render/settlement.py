"""How a hand was settled, in words: who went out (or that the hand is blocked), the cards left,
the points, the chips. The one wording of a settlement: ``kcref record`` shows it in a few lines
when a hand ends (:func:`settlement`), ``kcref check`` in one line per hand that paid penalties
(:func:`settlement_line`).

Names are worded as given: the caller makes them safe for its output (``record`` each name with
:func:`~kcref.render.cells.terminal`, ``check`` the whole line as its text printer does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..model.words import plural

if TYPE_CHECKING:
    from ..referee.verdict import HandVerdict


def ending(verdict: HandVerdict, names: Sequence[str]) -> str:
    """``Eli went out``, ``the hand is blocked: nobody went out`` or ``the hand is unfinished``."""
    if verdict.winner is not None:
        return f"{names[verdict.winner]} went out"
    return "the hand is blocked: nobody went out" if verdict.blocked else "the hand is unfinished"


def cards_left(verdict: HandVerdict, names: Sequence[str], detail: bool = True) -> list[str]:
    """The cards each player but the winner had left: ``Fran 4 cards (4S 8S 3H 3D)`` (``Fran 4
    cards (unknown)`` where they were not recorded), or with ``detail`` off only ``Fran 4``."""
    left = []
    for seat, cards in enumerate(verdict.cards_left):
        if seat == verdict.winner:
            continue
        count = verdict.cards_left_count(seat)
        if not detail:
            left.append(f"{names[seat]} {count}")
        elif isinstance(cards, int):
            left.append(f"{names[seat]} {plural(cards, 'card')} (unknown)")
        else:
            shown = " ".join(str(c) for c in cards)
            left.append(f"{names[seat]} {plural(count, 'card')}" + (f" ({shown})" if shown else ""))
    return left


def points(verdict: HandVerdict, names: Sequence[str]) -> list[str]:
    """Each player's points for the cards left (``Fran 4``, ``Gus ?`` where unknown), where the
    scoring system values them; else nothing."""
    if verdict.points is None:
        return []
    return [f"{n} {'?' if p is None else p}" for n, p in zip(names, verdict.points)]


def pot(verdict: HandVerdict) -> str:
    """``the pot of 16``: what the winner took, or with nobody out what stays in the pot; empty
    where no chips are played, or nothing stays."""
    if verdict.stacks_end is None:
        return ""
    chips = verdict.pot if verdict.winner is not None else verdict.pot_left
    return f"the pot of {chips}" if chips or verdict.winner is not None else ""


def paid(verdict: HandVerdict, names: Sequence[str]) -> list[str]:
    """The penalties each player paid, summed, in seat order: ``Gus 7`` (players who paid none
    are left out)."""
    chips = [0] * len(names)
    for penalty in verdict.penalties:
        chips[penalty.seat] += penalty.chips
    return [f"{name} {n}" for name, n in zip(names, chips) if n]


def settlement_text(verdict: HandVerdict, names: Sequence[str]) -> str:
    """How a hand ended, in a few lines: who went out (or that it is blocked), the cards left,
    the points, and the chips with the pot (``kcref record``, at the end of a hand)."""
    said = ending(verdict, names)
    lines = [f"{said}: the hand is over." if verdict.winner is not None else said[0].upper() + said[1:] + "."]
    left = cards_left(verdict, names)
    if left:
        lines.append("cards left: " + ", ".join(left))
    scored = points(verdict, names)
    if scored:
        lines.append("points: " + ", ".join(scored))
    if verdict.stacks_end is not None:
        chips = ", ".join(f"{n} {s}" for n, s in zip(names, verdict.stacks_end))
        taken = f"; {names[verdict.winner]} took {pot(verdict)}" if verdict.winner is not None else ""
        lines.append(f"chips: {chips}{taken}")
    return "\n".join(lines) + "\n"


def settlement_line(verdict: HandVerdict) -> str:
    """How a hand ended, in one line (``kcref check``, for a hand that paid penalties):
    ``hand 1: Eli went out and took the pot of 16; cards left: Dora 2, Fran 4, Gus 6;
    chips paid: Dora 2, Fran 4, Gus 7``. The hand is named by the number written on its
    ``hand`` line, else by its place in the file; the unit paid is the scoring system's."""
    names = verdict.players
    number = verdict.index if verdict.number is None else verdict.number
    parts = [f"hand {number}: {ending(verdict, names)}"]
    chips_in = pot(verdict)
    if chips_in and verdict.winner is not None:
        parts[0] += f" and took {chips_in}"
    elif chips_in:
        parts.append(f"{chips_in} stays")
    left = cards_left(verdict, names, detail=False)
    if left:
        parts.append("cards left: " + ", ".join(left))
    scored = points(verdict, names)
    if scored:
        parts.append("points: " + ", ".join(scored))
    chips = paid(verdict, names)
    if chips:
        parts.append(f"{verdict.options.scoring.words.unit} paid: " + ", ".join(chips))
    return "; ".join(parts)
