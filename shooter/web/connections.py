"""The web console's connections: how many, from where, for how long, and what their problems write to the log.

Every connection holds a file descriptor, and the controller needs descriptors of its own: a save opens a
temporary file and the state directory, the TCP console's clients each hold one. aiohttp alone counts none of
this (a request whose headers never end is kept for an hour), so a LAN client that opens a few hundred
half-sent requests used to take every descriptor of the unit's ``LimitNOFILE=256``: each save then failed and
the game was lost at the next restart. Here:

- a connection has :data:`IDLE_TIMEOUT` seconds to send a whole request's headers, and as long again idle
  between two requests (keep-alive), then it is closed;
- the connections, WebSockets included, are counted in all and per client address by a :class:`Gate`; one over
  either cap is closed at once, before it is read;
- the cap in all is what the descriptor limit leaves after :data:`FD_RESERVE` for the rest of the controller
  (:func:`descriptor_budget`), so a save never fails because the network is busy;
- a malformed request or a refused connection is one line per kind of problem a minute (:mod:`shooter.lograte`),
  never a traceback each, and its error response carries the page's security headers like any other.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import resource
import socket
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from ..lograte import LogRate
from ..shown import flat as shown

FD_RESERVE = 48       # descriptors left to the rest of the controller: saves, the TCP console's clients, serial
BACKLOG = 64          # connections the kernel queues for the accept (a full queue drops a phone's SYN: it waits a
                      # second to try again), and accepted in one go
CONNECTIONS = 128     # HTTP connections at most, WebSockets included (fewer if the descriptors are short)
PER_ADDRESS = 24      # of them from one client address (a phone's browser opens about 6, and its WebSocket)
IDLE_TIMEOUT = 10.0   # s for a request's headers to arrive whole, and for a connection idle between requests
HANDLER_ARGS: Mapping[str, Any] = {   # aiohttp's RequestHandler: the limits of one connection
    "keepalive_timeout": IDLE_TIMEOUT,  # aiohttp arms it at the connect too: it is the headers' deadline
    "lingering_time": 2.0,   # s spent reading an unread request body after the reply, then closed
    "max_line_size": 4096, "max_field_size": 4096, "max_headers": 32,   # the page's requests are small
    "access_log": None,
}


def descriptor_budget(reserve: int = FD_RESERVE, backlog: int = BACKLOG) -> int:
    """How many connections the web console may hold: the soft ``RLIMIT_NOFILE`` less the descriptors open now
    and ``reserve`` for the rest of the controller (and ``backlog``: slack for what this count cannot see)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(1, soft - open_descriptors() - reserve - backlog)


def open_descriptors() -> int:
    for directory in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(directory)) - 1   # less the one listdir itself opened
        except OSError:
            continue
    return 0


def client_address(peer: object) -> str:
    """A connection's client address, an IPv4 client on an IPv6 socket by its IPv4 address."""
    if isinstance(peer, tuple | list) and peer:
        return str(peer[0]).lower().removeprefix("::ffff:")
    return str(peer or "unknown")


class Gate:
    """The connections open, in all and per client address; :meth:`admit` says why one may not open, if not.
    Changed on aiohttp's loop only; ``changed`` is notified after every change, so another thread (a test, a
    status) can wait for a count instead of polling it."""

    def __init__(self, total: int, per_address: int):
        self.total, self.per_address = total, per_address
        self.open = 0
        self.by_address: Counter[str] = Counter()
        self.refused = 0
        self.changed = threading.Condition()

    def admit(self, address: str) -> str | None:
        if self.open >= self.total:
            why = f"at most {self.total} connections in all"
        elif self.by_address[address] >= self.per_address:
            why = f"at most {self.per_address} connections from one address"
        else:
            with self.changed:
                self.open += 1
                self.by_address[address] += 1
                self.changed.notify_all()
            return None
        self.refused += 1
        return why

    def leave(self, address: str) -> None:
        with self.changed:
            self.open -= 1
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]
            self.changed.notify_all()


class Ticket:
    """One admitted connection's place at the :class:`Gate`, given back once (whichever end sees it go)."""

    __slots__ = ("_gate", "address")

    def __init__(self, gate: Gate, address: str):
        self._gate: Gate | None = gate
        self.address = address

    def leave(self) -> None:
        if self._gate is not None:
            self._gate.leave(self.address)
            self._gate = None


class Connection(web.RequestHandler):
    """aiohttp's handler of one admitted connection, which gives its place back when it ends, and whose error
    responses (a malformed request's 400, a fault's 500) carry ``headers`` too."""

    def __init__(self, manager: web.Server, *, ticket: Ticket, rate: LogRate, headers: Mapping[str, str],
                 **kwargs: Any):
        super().__init__(manager, logger=problem_logger(rate), **kwargs)
        self._ticket, self._headers = ticket, headers

    def connection_lost(self, exc: BaseException | None) -> None:
        self._ticket.leave()
        super().connection_lost(exc)

    def handle_error(self, request: web.BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)
        response.headers.update(self._headers)
        return response


OUT_OF_DESCRIPTORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
RETRY = 1.0   # s before accepting again once the descriptors ran out


class Listener:
    """The listening sockets, accepted here rather than by asyncio's server: each connection is admitted by the
    :class:`Gate` as it is accepted, so the descriptors held are counted exactly (asyncio accepts a whole batch
    and creates their protocols ticks later, when a flood has long run the descriptors out), and one refused is
    closed before the next accept. A connection admitted is handed to aiohttp (``connect_accepted_socket``)."""

    def __init__(self, sockets: list[socket.socket], protocol: Callable[[Ticket], asyncio.Protocol], *,
                 gate: Gate, rate: LogRate):
        self.sockets = sockets
        self._protocol, self._gate, self._rate = protocol, gate, rate
        self._loop = asyncio.get_running_loop()
        self._retry: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[Any]] = set()   # held: the loop keeps only weak references to its tasks
        self._serve()

    def _serve(self) -> None:
        self._retry = None
        for sock in self.sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    def _accept(self, sock: socket.socket) -> None:
        for _ in range(BACKLOG):   # then the loop's other work gets its turn
            try:
                conn, peer = sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:
                name = errno.errorcode.get(exc.errno or 0, "error")
                self._rate(f"accept:{name}", f"uno-shooter: web console: accept failed: {exc}; "
                                             f"accepting again in {RETRY:g} s")
                if exc.errno in OUT_OF_DESCRIPTORS and self._retry is None:
                    for listening in self.sockets:   # a full accept queue stays readable: wait, do not spin
                        self._loop.remove_reader(listening.fileno())
                    self._retry = self._loop.call_later(RETRY, self._serve)
                return
            address = client_address(peer)
            why = self._gate.admit(address)
            if why is not None:
                conn.close()   # at once: its descriptor is free before the next accept
                self._rate("refused", f"uno-shooter: web console: a connection from {address} refused: {why}")
                continue
            ticket = Ticket(self._gate, address)
            conn.setblocking(False)
            task = self._loop.create_task(self._loop.connect_accepted_socket(partial(self._protocol, ticket), conn))
            self._tasks.add(task)
            task.add_done_callback(partial(self._handed, conn=conn, ticket=ticket))

    def _handed(self, task: asyncio.Task[Any], *, conn: socket.socket, ticket: Ticket) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is not None:   # never reached aiohttp: its place is free again
            ticket.leave()
            conn.close()

    def close(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
        for sock in self.sockets:
            self._loop.remove_reader(sock.fileno())
            sock.close()


def bind(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address ``host`` names (as asyncio's ``create_server`` binds them)."""
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in sorted(set(socket.getaddrinfo(
                host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE))):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:   # "::" and "0.0.0.0" both given: each its own socket
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


async def listen(runner: web.AppRunner, host: str, port: int, *, gate: Gate, rate: LogRate,
                 headers: Mapping[str, str], idle_timeout: float = IDLE_TIMEOUT) -> Listener:
    """Serve ``runner``'s application on host:port, each connection admitted by ``gate`` a :class:`Connection`."""
    server = runner.server
    assert server is not None, "runner.setup() first"
    loop = asyncio.get_running_loop()
    args = {**HANDLER_ARGS, "keepalive_timeout": idle_timeout}

    def connection(ticket: Ticket) -> Connection:
        return Connection(server, loop=loop, ticket=ticket, rate=rate, headers=headers, **args)
    return Listener(bind(host, port), connection, gate=gate, rate=rate)


class _ToRate(logging.Handler):
    """aiohttp's log records (a malformed request, a handler's fault) as rate-limited lines of one kind each."""

    def __init__(self, rate: LogRate):
        super().__init__(logging.DEBUG)
        self._rate = rate

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            self._rate(record.msg, f"uno-shooter: web console: {shown(record.getMessage())}")
            return
        kind = type(exc).__name__
        if isinstance(exc, HttpProcessingError):   # the client's fault: what it sent, in a line
            why = shown(exc.message)
        else:   # ours: where it happened, still in a line
            where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
            why = shown(exc) + "".join(f" (at {os.path.basename(f.filename)}:{f.lineno})" for f in where)
        self._rate(f"{record.msg}:{kind}", f"uno-shooter: web console: {shown(record.getMessage())}: {kind}: {why}")


def problem_logger(rate: LogRate) -> logging.Logger:
    """A logger for aiohttp's handlers, of this console only (not in logging's tree), writing through ``rate``.
    DEBUG is on: aiohttp logs garbage on a connection's first line (a scanner, TLS on the HTTP port) at DEBUG,
    and that too is counted."""
    logger = logging.Logger("uno-shooter.web", logging.DEBUG)
    logger.propagate = False
    logger.addHandler(_ToRate(rate))
    return logger


def loop_problems(rate: LogRate) -> Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None]:
    """aiohttp's event loop's exception handler: ``socket.accept() out of system resource`` (the descriptors ran
    out) and the like as rate-limited lines, not a traceback each."""
    def handle(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", "error"))
        exc = context.get("exception")
        detail = f": {type(exc).__name__}: {shown(exc)}" if exc is not None else ""
        rate(f"loop:{message}", f"uno-shooter: web console: {shown(message)}{detail}")
    return handle
