"""A language client for the tests: pygls's own, over a real pipe to ``python -m kcref lsp``,
driven from the test's thread (its event loop runs in a thread of its own). Every wait is
bounded, and the server is stopped by its PID at the end."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from tests.util import ROOT

T = TypeVar("T")
WAIT = 30.0
"""Seconds any answer may take (the machine is shared; the answers take far less)."""


class Session:
    """One server process and its client: open documents, change them, ask, read the diagnostics."""

    def __init__(self, cwd: Path = ROOT) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.published: dict[str, list[lsp.PublishDiagnosticsParams]] = {}
        self.changed = threading.Condition()
        self.client = LanguageClient("kcref-tests", "1")
        self.versions: dict[str, int] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            with self.changed:
                self.published.setdefault(params.uri, []).append(params)
                self.changed.notify_all()

        @self.client.feature(lsp.WINDOW_SHOW_MESSAGE)
        def message(params: lsp.ShowMessageParams) -> None:
            self.messages.append(params.message)

        self.messages: list[str] = []
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.run(self.client.start_io(sys.executable, "-m", "kcref", "lsp", cwd=str(cwd), env=env))
        self.pid = self.client._server.pid  # type: ignore[union-attr]
        self.run(self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(),
                                                                   process_id=os.getpid())))
        self.client.initialized(lsp.InitializedParams())

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = WAIT) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def request(self, method: str, params: object) -> Any:
        """Any request, known or not: its answer, or the error it raises."""
        async def ask() -> Any:
            return await self.client.protocol.send_request_async(method, params)
        return self.run(ask())

    def call(self, function: Any, *args: Any) -> Any:
        """A notification sent from the client's own loop."""
        async def send() -> None:
            function(*args)
        self.run(send())

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.resolve().as_uri()
        self.versions[uri] = 1
        with self.changed:
            self.published.pop(uri, None)  # what an earlier opening of the same file published
        body = path.read_text(encoding="utf-8", errors="surrogateescape") if text is None else text
        self.call(self.client.text_document_did_open, lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "kcref", 1, body)))
        return uri

    def replace(self, uri: str, text: str) -> None:
        """The whole text replaced (as an editor's full sync sends it)."""
        self.versions[uri] += 1
        self.call(self.client.text_document_did_change, lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [lsp.TextDocumentContentChangeWholeDocument(text)]))

    def edit(self, uri: str, line: int, start: int, end: int, text: str) -> None:
        """Characters ``start`` to ``end`` of ``line`` replaced by ``text`` (an incremental change)."""
        self.versions[uri] += 1
        where = lsp.Range(lsp.Position(line, start), lsp.Position(line, end))
        self.call(self.client.text_document_did_change, lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [lsp.TextDocumentContentChangePartial(where, text)]))

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = WAIT) -> list[lsp.Diagnostic]:
        """The diagnostics published for ``uri`` (for its latest version, unless told which)."""
        wanted = self.versions.get(uri) if version is None else version

        def ready() -> bool:
            return any(p.version == wanted for p in self.published.get(uri, []))

        with self.changed:
            assert self.changed.wait_for(ready, timeout), f"no diagnostics for version {wanted} of {uri}"
            return [p for p in self.published[uri] if p.version == wanted][-1].diagnostics

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_async(None), timeout=10)
            self.call(self.client.exit, None)
            self.run(self.client.stop(), timeout=10)
        except Exception:
            pass
        finally:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
