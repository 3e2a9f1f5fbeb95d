"""``kcref serve`` as one function: open and lock each log as ``kcref record`` does (same resume
rules, same tags, same canonical lines), print the URLs to open (and, on the network, their QR
code), and serve until Ctrl-C.

The listening socket is bound here, before the server starts, so that an address in use is
said plainly (exit status 2) and a port of 0 gets a free one, whose URL is printed.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from typing import TextIO

from ...files.logfile import Locked, LogFile
from ...model.status import ExitStatus
from ...render.cells import terminal
from ..record.session import add_tags, resumed_log
from .guard import KEY_QUERY, MAX_BODY, Keys, RateLimit
from .qr import qr_text
from .room import PROGRAM, Broadcast, TableRoom
from .web import Table, build_app

LOOPBACK = "127.0.0.1"


def network_address() -> str:
    """The machine's address on its local network: the one it would send from (no packet is
    sent: a datagram socket only picks its route), else the loopback address."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like any outside address, never reached
        return str(probe.getsockname()[0])
    except OSError:
        return LOOPBACK
    finally:
        probe.close()


def open_table(name: str, path: str, tags: Iterable[tuple[str, str]], files: ExitStack,
               err: TextIO, night: Broadcast | None = None) -> TableRoom | None:
    """The table ``name`` on the log at ``path``, locked (until ``files`` closes) and resumed, the
    ``tags`` not in force added; ``None`` after saying why it cannot be served. ``night`` hears
    of its changes (several tables)."""
    try:
        file = files.enter_context(LogFile(path))
    except Locked:
        err.write(f"{PROGRAM}: {terminal(path)} is being written by another kcref record or kcref serve "
                  f"(it holds the log's lock); finish that one first\n")
        return None
    except OSError as exc:
        err.write(f"{PROGRAM}: cannot open {terminal(path)}: {terminal(exc.strerror or str(exc))}\n")
        return None
    log = resumed_log(file, path, err, program=PROGRAM)
    if log is None or not add_tags(log, file, tags, err, program=PROGRAM):
        return None
    return TableRoom(name, log, file, night)


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (raises ``OSError``)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(logs: Sequence[tuple[str, str, Sequence[tuple[str, str]]]], host: str | None, port: int, lan: bool,
          view: bool, out: TextIO, err: TextIO) -> ExitStatus:
    """``kcref serve``: serve each log of ``logs`` (its table's name, its path, the tags to add)
    on ``host`` (else the network address with ``lan``, else the loopback) and ``port`` until
    Ctrl-C (which the server passes on as a ``KeyboardInterrupt`` once it has stopped: exit status
    130). USAGE (2) when a log cannot be opened or resumed, or the address cannot be listened on."""
    import uvicorn

    with ExitStack() as files:
        bind = host or (network_address() if lan else LOOPBACK)
        try:
            sock = files.enter_context(listen(bind, port))  # first: a log is written only when it can be served
        except OSError as exc:
            err.write(f"{PROGRAM}: cannot listen on {terminal(bind)} port {port}: "
                      f"{terminal(exc.strerror or str(exc))}\n")
            return ExitStatus.USAGE
        several = len(logs) > 1
        changes = Broadcast() if several else None
        rooms = []
        for name, path, tags in logs:
            room = open_table(name, path, tags, files, err, changes)
            if room is None:
                return ExitStatus.USAGE
            rooms.append(room)
        limit = RateLimit()
        tables = [Table(room, Keys.new(), limit, f"/t/{room.name}/" if several else "/") for room in rooms]
        shown = f"[{bind}]" if ":" in bind else bind
        base = f"http://{shown}:{sock.getsockname()[1]}"
        front = None
        if changes is not None:
            from .tables import Night

            night = Night(rooms, changes, Keys.new())
            front = night.routes()
            out.write(f"The standings across the tables: {base}/?{KEY_QUERY}={night.keys.view}\n")
        for table in tables:
            prefix = f"/t/{table.room.name}/" if several else "/"
            url = f"{base}{prefix}?{KEY_QUERY}={table.keys.write}"
            label = f"Table {table.room.name} " if several else ""
            out.write(f"{label}({terminal(table.room.file.path)}): open {url}\n")
            if lan:
                out.write(qr_text(url))
            if view:
                out.write(f"  spectators (no writing): {base}{prefix}?{KEY_QUERY}={table.keys.view}\n")
        out.write("Ctrl-C stops the server; every accepted line is on disk.\n")
        out.flush()
        # A page sends nothing on its WebSocket: a message is bounded as a request's body is.
        config = uvicorn.Config(build_app(tables, front), ws="wsproto", ws_max_size=MAX_BODY, lifespan="off",
                                log_level="warning", access_log=False, server_header=False)
        uvicorn.Server(config).run(sockets=[sock])
    return ExitStatus.OK
