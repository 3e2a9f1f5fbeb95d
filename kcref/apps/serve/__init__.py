"""``kcref serve``: the game on the players' phones. A small web server (Starlette on uvicorn)
serves one page per table; each tap builds the next line of the log, which the same
:class:`~kcref.referee.live.LiveLog` as ``kcref record`` judges before it is written (and
fsync'd), and every connected page hears of each accepted line at once (a WebSocket).

The pieces: :mod:`.room` (one table's log: judge, write, undo, broadcast), :mod:`.page_state`
(what the page is told of the table), :mod:`.guard` (the secrets, the limits, the security
headers), :mod:`.web` (the routes), :mod:`.qr` (the URL as a QR code in the terminal),
:mod:`.tables` (a club night: several tables and the standings across them) and :mod:`.run`
(open the logs, print the URLs, run the server). Starlette, uvicorn, wsproto and segno are the
optional extra ``kcref[serve]``, imported only here.
"""
