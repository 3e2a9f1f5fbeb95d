"""What ``kcref record`` shows: the prompt, the compact view of the table after each line, the
penalties as they fall due, the settlement at the end of a hand and the running standings,
and the completions that Tab offers. Everything here reads a :class:`~kcref.referee.live.LiveLog`
and returns text; every piece of text from the log is made safe for a terminal."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine.faults import IllegalAction
from ...engine.moves import card_targets
from ...engine.table import PILES, Table
from ...engine.turns import apply, legal_actions
from ...model.cards import Pile, parse_card
from ...model.diagnostics import Diagnostic
from ...model.events import Action, Deal, Tag
from ...notation.reader import read_text
from ...notation.writer import action_text, event_text
from ...referee.live import Expect, Judgement, LiveLog
from ...referee.replay import Position
from ...referee.verdict import HandVerdict
from ...render.cells import terminal, terminal_diagnostic
from ...render.diagnostic_lines import format_text
from ...render.settlement import settlement_text
from ...render.table_view import DEFAULT_VIEW, Located, ViewStyle, card_face, draw_table

COMMANDS: dict[str, str] = {
    "show": "draw the whole table (every pile, every hand)",
    "undo": "take back the last line written (from the log file too)",
    "help": "this list",
    "quit": "stop recording (Ctrl-D too); the log keeps every line written",
}
"""The recorder's own words, which are never log lines."""

HELP = "\n".join([
    "Type the lines of the log, one at a time: a tag, 'hand', 'deal PLAYER: CARDS', 'layout N:.. E:.. S:.. W:..',",
    "a turn ('Ann: 5H->E; draw'; while a turn is expected its actions alone do: '5H->E; draw'),",
    "'blocked', 'reveal PLAYER: CARDS', a '# comment'. Each line is judged at once: a line kcref check",
    "would find an error in is refused and never written. Tab completes what may come next",
    "(the legal actions of a player whose hand is known; after a card, the piles it may go on).",
    "Ctrl-C drops the line being typed.",
    *(f"  {word:<5} {what}" for word, what in COMMANDS.items()),
]) + "\n"


def prompt_text(log: LiveLog) -> str:
    """``Bob> `` while Bob is to play, else what the log expects next (``deal> ``, ``hand> ``...)."""
    expect = log.expect
    word = log.turn if expect is Expect.TURN and log.turn is not None else expect.value
    return f"{terminal(word)}> "


def tag_line(name: str, value: str) -> str:
    """The canonical line of the tag ``[name "value"]``."""
    return event_text(Tag(name, value))


# --- after a line --------------------------------------------------------------------------------


def compact_view(log: LiveLog, style: ViewStyle = DEFAULT_VIEW) -> str:
    """The table in three lines: each pile's top card and the stock; each player's card count
    (and chips, and the pot, where chips are played); who plays next."""
    t = log.table
    if t is None:
        return f"next: {prompt_text(log)[:-2]}\n"
    piles = "  ".join(f"{p.value} {_top(t, p, style)}" for p in PILES)
    lines = [f"{piles}  | stock {t.stock}"]
    seats = []
    for seat, name in enumerate(t.names):
        chips = f" ({t.stacks[seat]} chips)" if t.stacks is not None else ""
        seats.append(f"{terminal(name)} {len(t.holdings[seat])}{chips}")
    pot = f"  | pot {t.pot}" if t.stacks is not None else ""
    lines.append("cards: " + ", ".join(seats) + pot)
    if not t.over:
        lines.append(f"next: {terminal(t.name)}")
    return "\n".join(lines) + "\n"


def _top(t: Table, pile: Pile, style: ViewStyle) -> str:
    card = t.top(pile)
    if card is None:
        return "-" if style.ascii else "—"
    return card_face(card, style).styled


def diagnostic_lines(diagnostics: Sequence[Diagnostic], show_source: bool = True) -> str:
    """Diagnostics as ``kcref check`` prints them; a penalty as its sentence alone."""
    out = []
    for d in diagnostics:
        if d.code.startswith("KC4"):
            out.append(f"  {terminal(d.message)}")
        else:
            out.append(format_text(terminal_diagnostic(d), show_source))
    return "".join(line + "\n" for line in out)


def settlement(verdict: HandVerdict) -> str:
    """How a hand ended (:func:`kcref.render.settlement.settlement_text`), every name made safe for a terminal."""
    return settlement_text(verdict, [terminal(n) for n in verdict.players])


def standings(log: LiveLog) -> str:
    """The running standings, as ``kcref score`` prints them for the log so far."""
    from ..score import score_reports

    report = log.report()
    if not report.hands:
        return ""
    return score_reports([report]).out


def after_line(log: LiveLog, judged: Judgement, style: ViewStyle = DEFAULT_VIEW) -> str:
    """What follows an accepted line: what it brought (penalties, warnings; a ``hand`` line
    brings the warning that the hand it closes is unfinished), then the settlement and standings
    when it ended a hand (or revealed cards of one), else the compact view once the table is laid out."""
    parts = [diagnostic_lines(judged.diagnostics, show_source=False)]
    if judged.verdict is not None:
        parts += [settlement(judged.verdict), standings(log)]
    elif log.table is not None and judged.text and not judged.text.startswith("#"):
        parts.append(compact_view(log, style))
    return "".join(parts)


def full_table(log: LiveLog, style: ViewStyle = DEFAULT_VIEW) -> str:
    """The whole table, as ``kcref show`` draws it."""
    record, t = log.record, log.table
    if record is None or t is None:
        return f"No table yet: the log expects {prompt_text(log)[:-2]}.\n"
    return draw_table(Located(record, None, 0, None), Position(t, None), style)


# --- Tab -------------------------------------------------------------------------------------------


def completions(log: LiveLog, before: str) -> tuple[int, list[str]]:
    """What Tab offers for the text ``before`` the cursor: how many characters at its end the
    offers replace, and the offers (whole words: ``5H->E``, ``draw``, ``hand 3``, ``undo``...).

    While a turn is expected, the legal actions come first (with those typed before on the line
    played on a copy of the table), then the recorder's words."""
    stripped = before.lstrip()
    offers = _turn_offers(log, before)
    if ":" not in stripped and ";" not in stripped:
        wanted = stripped.lower()
        offers += [w for w in [*_line_starts(log), *COMMANDS] if w.lower().startswith(wanted)]
        return len(stripped), offers
    fragment = before.rpartition(";")[2].rpartition(":")[2].lstrip()
    return len(fragment), offers


def _turn_offers(log: LiveLog, before: str) -> list[str]:
    """The legal next actions of the player to play that start as the last word of ``before``."""
    t, player = log.table, log.turn
    if t is None or player is None:
        return []
    return turn_offers(t, player, before)


def turn_offers(t: Table, player: str, before: str) -> list[str]:
    """The legal next actions of ``player`` (to play on table ``t``) that start as the last word
    of ``before``, a turn line typed so far (with or without the player's name and ':')."""
    head, _, fragment = before.rpartition(";")
    done = head.split(":", 1)[1] if ":" in head.split(";")[0] else head
    if ":" in fragment:
        fragment = fragment.split(":", 1)[1]
    earlier = typed_actions(player, done)
    if earlier is None:
        return []
    return action_offers(t, earlier, fragment.lstrip())


def _line_starts(log: LiveLog) -> list[str]:
    """The starts of the lines the log expects now."""
    expect, players = log.expect, log.players
    record = log.record
    if expect is Expect.TAG:
        return ['[Players "', '[Rules "']
    if expect is Expect.HAND:
        return [f"hand {log.next_number}"]
    if expect in (Expect.DEAL, Expect.LAYOUT) and record is not None:
        dealt = {e.player for e in record.events if isinstance(e, Deal)}
        return [f"deal {p}: " for p in players if p not in dealt] + ["layout "]
    verdict = log.verdict
    if expect is Expect.REVEAL and verdict is not None:
        return [f"reveal {verdict.players[s]}: " for s in verdict.unvalued] + [f"hand {log.next_number}"]
    return []


def typed_actions(player: str, text: str) -> list[Action] | None:
    """The actions already typed on the line, read as the reader reads them (``None``: they do not read)."""
    if not text.strip():
        return []
    items = list(read_text(f"{player}: {text}"))
    if len(items) != 1 or isinstance(items[0], Diagnostic):
        return None
    return list(getattr(items[0], "actions", ()))


def action_offers(t: Table, earlier: list[Action], fragment: str) -> list[str]:
    """The legal next actions after ``earlier`` that start as ``fragment``; where the player's
    hand is unknown, after a card typed, the piles it may go on."""
    trial = t.copy()
    try:
        for action in earlier:
            apply(trial, action)
    except IllegalAction:
        return []
    offers = [action_text(a) for a in legal_actions(trial)]
    card_text = fragment.split("-", 1)[0].strip()
    if card_text:
        try:
            card = parse_card(card_text)
        except ValueError:
            card = None
        if card is not None and card not in trial.holding.known and trial.holding.unknown:
            offers += [f"{card}->{p.value}" for p in card_targets(trial, card)]
    wanted = fragment.strip().lower()
    seen: set[str] = set()
    found = []
    for offer in offers:
        if offer.lower().startswith(wanted) and offer not in seen:
            seen.add(offer)
            found.append(offer)
    return found

