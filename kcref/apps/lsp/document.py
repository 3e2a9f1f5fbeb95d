"""An open document: its text as the editor has it, and its latest judgement, judged again from
the edited hand on (:func:`~.judging.rejudge`) when asked after an edit."""

from __future__ import annotations

import os
import threading
from urllib.parse import unquote, urlparse

from ...files.config import Config, ConfigError, Finder
from .judging import Judged, judge, rejudge


def uri_path(uri: str) -> str:
    """The file a ``file:`` URI names (the URI itself for another scheme): what diagnostics and
    the configuration search use, as ``kcref check PATH`` would."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return uri
    return unquote(parsed.path)


def config_for(path: str) -> Config | None:
    """The configuration ``kcref check`` uses for the file at ``path`` (found upwards from its
    folder); none for a document that is no file, or whose configuration cannot be read."""
    if not os.path.isabs(path):
        return None
    try:
        return Finder().for_path(path)
    except (ConfigError, OSError):
        return None


class Document:
    """One open document. Judging is serialised: one judgement at a time, each from the one before."""

    def __init__(self, uri: str, text: str, version: int | None = None) -> None:
        self.uri = uri
        self.path = uri_path(uri)
        self.text = text
        self.version = version
        self.config = config_for(self.path)
        self._judged: Judged | None = None
        self._lock = threading.Lock()

    def update(self, text: str, version: int | None) -> None:
        """The editor's text changed."""
        self.text, self.version = text, version

    def judged(self) -> Judged:
        """The judgement of the text as it is now (judged now if it is not yet)."""
        with self._lock:
            text, old = self.text, self._judged
            if old is not None and old.text == text:
                return old
            judged = judge(text, self.path, self.config) if old is None else rejudge(old, text, self.path, self.config)
            self._judged = judged
            return judged

    @property
    def latest(self) -> Judged | None:
        """The last judgement made, of whatever text (None before the first)."""
        return self._judged
