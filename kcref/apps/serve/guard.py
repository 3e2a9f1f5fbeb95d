"""Nobody let in, nothing too big: the secrets of a table, the limits on what a client sends,
and the headers every answer carries.

Each table has two secrets (:func:`secrets.token_urlsafe`): the write key, in the URL the
players open, and the view key, in the link for spectators. Every request must carry one (in
the ``key`` query parameter, the ``X-Kcref-Key`` header, or the cookie the page sets when it is
first opened), else 403. A write must carry the write key in the header: a page on another
site can make a browser send the cookie, never a custom header (without a CORS pre-flight,
which this server never grants), so it cannot post into the game.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from typing import NamedTuple

from starlette.requests import HTTPConnection

KEY_HEADER = "x-kcref-key"
KEY_QUERY = "key"
KEY_COOKIE = "kcref_key"
MAX_LINE = 4096
"""Bytes of one line of the log, at most (UTF-8)."""
MAX_BODY = 64 * 1024
"""Bytes of a request's body, at most."""
MAX_WRITES = 20
"""Writes a second from one client, at most."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The page's Content-Security-Policy: nothing from elsewhere, no inline script nor handler."""
SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
"""The table's picture carries its own style sheet, and runs nothing (it is shown as an image)."""
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
              "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
"""The report page's own policy (its style sheet and script are inline, made by kcref; every text
of the log in it is escaped), with nothing more allowed."""
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the URL holds the secret
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}


class Access(NamedTuple):
    """What a request may do."""

    read: bool
    write: bool


NONE = Access(False, False)


class Keys(NamedTuple):
    """A table's secrets."""

    write: str
    view: str

    @classmethod
    def new(cls) -> Keys:
        return cls(secrets.token_urlsafe(24), secrets.token_urlsafe(24))

    def access(self, conn: HTTPConnection) -> Access:
        """What ``conn`` may do: read with either key anywhere; write with the write key in the header."""
        header = conn.headers.get(KEY_HEADER, "")
        given = [header, conn.query_params.get(KEY_QUERY, ""), *_cookies(conn)]
        write = _same(header, self.write)
        read = write or any(_same(k, self.write) or _same(k, self.view) for k in given if k)
        return Access(read, write)

    def cookie_for(self, conn: HTTPConnection) -> str | None:
        """The key the page was opened with, to be kept in the cookie (so that its style
        sheet, script and picture load without the key in their URL)."""
        key = conn.query_params.get(KEY_QUERY, "")
        return key if key and (_same(key, self.write) or _same(key, self.view)) else None


def _cookies(conn: HTTPConnection) -> list[str]:
    """Every key cookie the request carries. A browser that opened the night's page (its cookie
    at ``/``) and a table's (at ``/t/N/``) sends both under one name, and ``conn.cookies`` keeps
    only the last, the night's: the table's page would lose its style sheet, script and picture."""
    found = []
    for chunk in conn.headers.get("cookie", "").split(";"):
        name, equals, value = chunk.partition("=")
        if equals and name.strip() == KEY_COOKIE:
            found.append(value.strip().strip('"'))
    return found


def _same(given: str, key: str) -> bool:
    return secrets.compare_digest(given.encode("utf-8", "replace"), key.encode())


class RateLimit:
    """At most :data:`MAX_WRITES` writes in any second from one client."""

    def __init__(self, most: int = MAX_WRITES, window: float = 1.0) -> None:
        self.most, self.window = most, window
        self._times: dict[str, deque[float]] = {}

    def allow(self, client: str, now: float | None = None) -> bool:
        """Whether ``client`` may write now (and, if so, count the write)."""
        now = time.monotonic() if now is None else now
        times = self._times.setdefault(client, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.most:
            return False
        times.append(now)
        if len(self._times) > 1024:  # forget clients that are quiet
            for name in [c for c, t in self._times.items() if not t or now - t[-1] >= self.window]:
                del self._times[name]
        return True


def same_origin(conn: HTTPConnection) -> bool:
    """A WebSocket opened by this server's own page: its Origin is the host it connects to
    (browsers always send the Origin of a WebSocket, and a page cannot forge it)."""
    origin, host = conn.headers.get("origin"), conn.headers.get("host")
    return origin is not None and host is not None and origin in (f"http://{host}", f"https://{host}")
