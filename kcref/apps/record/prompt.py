"""The prompt of ``kcref record`` at a terminal: prompt_toolkit's line editing, history and
Tab completion (this module is the only one that imports prompt_toolkit, and only ``kcref
record`` at a terminal imports it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory

from ...referee.live import LiveLog
from .view import completions


class RecordCompleter(Completer):
    """Tab: what may come next in the log (see :func:`kcref.apps.record.view.completions`)."""

    def __init__(self, log: LiveLog) -> None:
        self.log = log

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        replaced, offers = completions(self.log, document.text_before_cursor)
        for offer in offers:
            yield Completion(offer, start_position=-replaced)


class PromptSource:
    """Lines typed at a prompt: Ctrl-C drops the line being typed, Ctrl-D ends."""

    interactive = True

    def __init__(self, log: LiveLog, **session: Any) -> None:
        """``session``: more arguments for prompt_toolkit's ``PromptSession`` (``input`` and
        ``output`` for tests)."""
        self.session: PromptSession[str] = PromptSession(history=InMemoryHistory(), completer=RecordCompleter(log),
                                                         complete_while_typing=False, **session)
        self.number = 0

    def read(self, prompt: str) -> tuple[str, int] | None:
        while True:
            try:
                text = self.session.prompt(prompt)
            except KeyboardInterrupt:
                continue
            except EOFError:
                return None
            self.number += 1
            return text, self.number
