"""What the page is told of a table: a plain, JSON-ready snapshot of a
:class:`~kcref.referee.live.LiveLog`, the same for every device (so it is built once per change
and sent to all), and a diagnostic as the page shows it.

Every text here comes from the log (names, tags, comments) and is hostile: the page puts it in
the document as text (``textContent``), never as markup.
"""

from __future__ import annotations

from typing import Any

from ...engine.moves import in_order
from ...engine.table import PILES
from ...model.codes import BY_CODE
from ...model.diagnostics import Diagnostic
from ...model.events import Deal
from ...notation.writer import action_text
from ...referee.live import LiveLog
from ..record.view import settlement, standings

RECENT = 40
"""The last lines of the log a page shows (and is sent when it joins)."""

JSON = dict[str, Any]


def diagnostic_json(d: Diagnostic) -> JSON:
    """A diagnostic as the page shows it: its code, severity, sentence and the code's summary (the hint)."""
    info = BY_CODE.get(d.code)
    return {"code": d.code, "severity": d.severity.value, "message": d.message, "line": d.line,
            "column": d.column, "hint": info.summary if info is not None else ""}


def snapshot(log: LiveLog, version: int, name: str) -> JSON:
    """The table as the page draws it after the change numbered ``version`` of table ``name``."""
    record, t, verdict = log.record, log.table, log.verdict
    state: JSON = {
        "table": name, "version": version, "lines": log.lines, "expect": log.expect.value, "turn": log.turn,
        "players": list(log.players), "next_hand": log.next_number,
        "waiting": log.unwritten.count("\n"),
        "recent": list(log.last_lines(RECENT)),
        "seen": [str(c) for c in in_order(log.seen_cards())],
        "dealt": [e.player for e in record.events if isinstance(e, Deal)] if record is not None else [],
        "legal": [action_text(a) for a in log.legal_actions()],
        "board": None, "end": None, "reveal": [],
    }
    if t is not None:
        state["board"] = {
            "piles": {p.value: [str(c) for c in t.piles[p]] for p in PILES},
            "stock": t.stock,
            "pot": t.pot if t.stacks is not None else None,
            "chips": list(t.stacks) if t.stacks is not None else None,
            "cards": [len(h) for h in t.holdings],
            "hand": None if t.over else {"known": [str(c) for c in in_order(t.holding.known)],
                                          "unknown": t.holding.unknown},
        }
    if verdict is not None and verdict.finished:
        state["end"] = {"settlement": settlement(verdict), "standings": standings(log)}
        state["reveal"] = [verdict.players[s] for s in verdict.unvalued]
    return state
