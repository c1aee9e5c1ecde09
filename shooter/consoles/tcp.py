"""The console on a TCP port of the loopback interface."""

from __future__ import annotations

import errno
import ipaddress
import re
import socket
import struct
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from ..access import Caller, Link
from ..lograte import LogRate
from ..protocol import dumps
from ..vocabulary import EventName
from .base import ConsoleHost, ConsolePortError, Post
from .lines import read_lines
from .sinks import QueuedSink

HTTP = re.compile(rb"(GET|POST|PUT|HEAD|DELETE|OPTIONS|PATCH|CONNECT|TRACE|PRI) ")

class TcpConsole:
    """The protocol on a TCP port of the loopback interface only: whoever connects is logged in on the
    controller's machine, so it is a console of the table's own (``host`` must be a loopback address).

    At most ``max_clients`` connections (more get a one-line refusal). Each connection has a reader
    (this class) and a writer (its :class:`QueuedSink`); the socket is closed by whichever ends last.
    A line cut off by the client's close is not carried out; after a half-close every line sent
    still gets its reply; a line that starts like an HTTP request ends the connection. An accept that
    fails (no descriptor left: EMFILE, ENFILE) backs off up to a second and is logged one line per kind
    a minute, with a count, however long it lasts.
    """

    SEND_TIMEOUT = 10.0     # s a write may block on a client that does not read, then it is dropped

    def __init__(self, port: int, *, post: Post, controller: ConsoleHost, host: str = "127.0.0.1",
                 max_clients: int = 8, queue_limit: int = 1000, log: Callable[[str], None] = lambda m: None,
                 wait: Callable[[float], bool] | None = None) -> None:
        self._post = post
        self._controller = controller
        self._max = max_clients
        self._queue_limit = queue_limit
        self._log = log
        self._rate = LogRate(log, controller.clock.now)   # the accept loop's problems, a line a minute each
        if not loopback(host):
            raise ConsolePortError(errno.EACCES, f"the TCP console listens on loopback only, not on {host}: "
                                                 f"it is a console of the table's own")
        try:
            self._server = socket.create_server((host, port), reuse_port=False)
        except OSError as exc:
            why: dict[int | None, str] = {errno.EADDRINUSE: "is in use",
                                          errno.EACCES: "is not allowed (a privileged port?)"}
            reason = why.get(exc.errno, f"cannot be used: {exc.strerror}")
            raise ConsolePortError(exc.errno, f"TCP port {port} {reason}") from None
        self.port = self._server.getsockname()[1]
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._lock = threading.Lock()
        self.clients = 0
        self.accept_errors = 0
        # seams for tests: what accepting and starting a thread mean
        self.accept: Callable[[], tuple[socket.socket, Any]] = self._server.accept
        self.start_thread: Callable[[Callable[..., None], tuple[Any, ...], str], None] = (
            lambda target, args, name: threading.Thread(target=target, args=args, name=name, daemon=True).start())
        self._thread = threading.Thread(target=self._accept, name="tcp-console", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        backoff = 0.05
        while not self._stop.is_set():
            try:
                conn, _ = self.accept()
            except OSError as exc:
                if self._stop.is_set():
                    return
                if exc.errno in (errno.EBADF, errno.EINVAL):  # the server socket was closed
                    return
                self.accept_errors += 1
                name = errno.errorcode.get(exc.errno or 0, "error")
                self._rate(f"accept:{name}", f"uno-shooter: TCP console {self.port}: accept failed: {exc}; "
                                             f"retrying every {backoff:g} to 1 s")
                self._wait(backoff)
                backoff = min(backoff * 2, 1.0)
                continue
            with self._lock:
                full = self.clients >= self._max
                if not full:
                    self.clients += 1
            if full:
                self._refuse(conn, f"too many connections (at most {self._max}); try again later")
                continue
            try:
                self.start_thread(self._serve, (conn,), "tcp-console-reader")
            except RuntimeError as exc:  # can't start new thread
                with self._lock:
                    self.clients -= 1
                self.accept_errors += 1
                self._rate("threads", f"uno-shooter: TCP console {self.port}: {exc}; connection refused, "
                                      f"retrying every {backoff:g} to 1 s")
                self._refuse(conn, "the controller is out of threads; try again later")
                self._wait(backoff)
                backoff = min(backoff * 2, 1.0)
                continue
            backoff = 0.05

    def _refuse(self, conn: socket.socket, message: str) -> None:
        try:
            conn.settimeout(1.0)
            conn.sendall((dumps({"event": EventName.REFUSED, "t": round(self._controller.clock.now(), 6),
                                 "source": "tcp", "error": "busy", "message": message}) + "\n").encode())
            conn.shutdown(socket.SHUT_WR)
            conn.recv(65536, socket.MSG_DONTWAIT)  # drop what it sent already: a close would reset
        except OSError:
            pass
        finally:
            conn.close()

    def _serve(self, conn: socket.socket) -> None:
        ends = [2]   # the reader and the writer: the last one out closes the socket
        lock = threading.Lock()

        def release() -> None:
            with lock:
                ends[0] -= 1
                last = ends[0] == 0
            if last:
                conn.close()
                with self._lock:
                    self.clients -= 1

        def hang_up(*_: object) -> None:
            try:
                conn.shutdown(socket.SHUT_RDWR)  # ends the reader and a blocked write too
            except OSError:
                pass

        def writer_done() -> None:
            try:
                conn.shutdown(socket.SHUT_WR)  # the client reads to the end, then sees the end
            except OSError:
                pass
            release()

        secs = int(self.SEND_TIMEOUT)
        try:  # struct timeval: two C longs (4 or 8 bytes each, as the platform has them)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                            struct.pack("ll", secs, int((self.SEND_TIMEOUT - secs) * 1e6)))
        except OSError as exc:
            self._log(f"uno-shooter: TCP console {self.port}: no send timeout ({exc}); a client that does not "
                      f"read is dropped when its backlog is full")
        sink = QueuedSink(conn.sendall, name="tcp-writer", limit=self._queue_limit, on_overflow=hang_up,
                          on_error=hang_up, on_exit=writer_done)
        controller = self._controller
        caller = Caller(Link.TCP)
        self._post(lambda: controller.add_sink(sink))
        def finish() -> None:  # on the loop, after every line this connection posted has been answered
            controller.remove_sink(sink)
            sink.close()

        def refuse(line: bytes) -> None:  # on the loop: an HTTP request is answered, then the connection ends
            sink(http_refusal(line))
            finish()
        try:
            for line in read_lines(conn.recv, partial=False):
                if HTTP.match(line):
                    self._post(partial(refuse, line))
                    # nothing after it runs; what the client still sends is read and dropped (closing a
                    # socket with unread input would reset it before the client read the reply)
                    for _, _ in zip(range(16), iter(lambda: conn.recv(4096), b""), strict=False):
                        pass
                    break
                self._post(partial(controller.handle_line, line, sink, caller))
        except OSError:
            pass
        finally:
            self._post(finish)
            release()

    def close(self) -> None:
        self._stop.set()
        try:
            self._server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._server.close()


def loopback(host: str) -> bool:
    """``host`` is a loopback address (or ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_refusal(line: bytes) -> dict[str, Any]:
    """The one reply to a line that starts like an HTTP request (a browser, ``curl``): nothing
    after it on that connection is carried out, the connection is closed."""
    method = line.split(b" ", 1)[0].decode("ascii").lower()
    return {"reply": method, "ok": False, "error": "unknown-command",
            "message": "this is the uno-shooter console (one command per line), not an HTTP server; closing"}

