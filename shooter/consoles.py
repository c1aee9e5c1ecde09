"""Consoles: one protocol over many transports.

A console reads lines on its own thread and only *posts* them to the control
loop; replies and events come back through a sink the controller calls on the
loop's thread. Transports: standard input/output, TCP on loopback, and pyserial
ports (Bluetooth ``/dev/rfcomm0``, USB gadget ``/dev/ttyGS0``, the UART), which
are reopened when the link comes back.
"""

from __future__ import annotations

import errno
import os
import queue
import re
import socket
import struct
import threading
from typing import BinaryIO, Callable, Iterator

from .protocol import MAX_LINE_BYTES, dumps

Sink = Callable[[dict], None]


EOL = re.compile(rb"\r\n|\r|\n")  # LF, CRLF and a bare CR (screen, minicom, phone apps) each end a line


def read_lines(read: Callable[[int], bytes], *, partial: bool = True) -> Iterator[bytes]:
    """Split a byte stream into lines without ever holding more than one line.

    LF, CRLF and a bare CR each end a line (a CR that ends one chunk and an LF that starts the
    next are one CRLF). An overlong line is yielded cut at MAX_LINE_BYTES + 1 bytes (so the parser
    answers ``line-too-long``) and the rest of it is skipped. At the end of the stream an
    unterminated last line is yielded only with ``partial`` (a file on stdin may lack its last
    newline; a network client that hangs up mid-line has not finished that line).
    """
    buffer = b""
    skipping = False
    after_cr = False
    while True:
        chunk = read(4096)
        if not chunk:
            if buffer and not skipping and partial:
                yield buffer
            return
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        after_cr = False
        buffer += chunk
        while True:
            end = EOL.search(buffer)
            if end is None:
                if len(buffer) > MAX_LINE_BYTES and not skipping:
                    yield buffer[:MAX_LINE_BYTES + 1]
                    skipping = True
                if skipping:
                    buffer = b""
                break
            after_cr = end.group() == b"\r" and end.end() == len(buffer)
            line, buffer = buffer[:end.start()], buffer[end.end():]
            if skipping:
                skipping = False
                continue
            yield line


def encoder(fmt: str = "json") -> Callable[[dict], bytes]:
    """One output line for a reply or an event: JSON, or the readable form for a terminal
    (:mod:`shooter.terminal`; nothing at all for what it need not say twice)."""
    if fmt == "human":
        from .terminal import encode_human
        return encode_human()

    def encode(obj: dict) -> bytes:
        return (dumps(obj) + "\n").encode("utf-8")
    return encode


def stream_sink(stream: BinaryIO, fmt: str = "json") -> Sink:
    """A sink writing one line per object to a binary stream, at once (virtual time: the loop and
    the output are one thread; real time uses a :class:`QueuedSink`)."""
    encode = encoder(fmt)

    def write(obj: dict) -> None:
        stream.write(encode(obj))
        stream.flush()
    return write


class QueuedSink:
    """A sink that never blocks the loop: lines go into a bounded queue that a writer thread of
    this connection empties.

    A client that stops reading (a phone out of range) fills its queue. Then either ``recover``
    builds a notice from the number of lines dropped: the backlog is dropped, the notice and the
    new line are queued and the console carries on (a serial link: the client stays); or, without
    ``recover``, ``on_overflow`` is called once (drop the client) and further lines are discarded.
    A write that fails calls ``on_error`` (the writer goes on with the next line). ``on_exit`` runs on the writer's
    thread once it is done (after :meth:`close`, everything queued before it has been written).
    """

    def __init__(self, write: Callable[[bytes], None], *, name: str, limit: int = 1000,
                 on_overflow: Callable[[], None] = lambda: None, on_error: Callable[[Exception], None] = None,
                 encode: Callable[[dict], bytes] = lambda obj: dumps(obj).encode("utf-8") + b"\n",
                 recover: Callable[[int], dict] | None = None, on_exit: Callable[[], None] = lambda: None):
        self._write = write
        self._encode = encode
        self._queue: queue.Queue = queue.Queue(maxsize=limit)
        self._on_overflow = on_overflow
        self._on_error = on_error or (lambda exc: None)
        self._recover = recover
        self._on_exit = on_exit
        self.alive = True
        self.dropped = 0
        self._thread = threading.Thread(target=self._drain, name=name, daemon=True)
        self._thread.start()

    def __call__(self, obj: dict) -> None:
        if not self.alive:
            self.dropped += 1
            return
        data = self._encode(obj)
        try:
            self._queue.put_nowait(data)
            return
        except queue.Full:
            pass
        if self._recover is None:
            self.dropped += 1
            self.alive = False
            self._on_overflow()
            return
        lost = self._clear()   # the backlog; this line goes out after the notice
        self.dropped += lost
        for item in (self._encode(self._recover(lost)), data):
            try:
                self._queue.put_nowait(item)
            except queue.Full:  # pragma: no cover - the queue was just emptied
                pass

    def _clear(self) -> int:
        """Drop what is queued; returns how many lines."""
        n = 0
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return n
            if item is None:  # keep the end mark
                self._queue.put_nowait(None)
                return n
            n += 1

    def _drain(self) -> None:
        try:
            while True:
                data = self._queue.get()
                if data is None:
                    return
                try:
                    self._write(data)
                except Exception as exc:  # the transport is gone or timed out; the owner decides
                    self._on_error(exc)
        finally:
            self._on_exit()

    def close(self, wait: float | None = None) -> None:
        """No more lines; what is queued is still written. With ``wait``, give the writer that
        long to do it. A client that does not read loses its backlog rather than keep the writer."""
        self.alive = False
        try:
            self._queue.put(None, timeout=wait) if wait else self._queue.put_nowait(None)
        except queue.Full:
            self._clear()
            try:
                self._queue.put_nowait(None)
            except queue.Full:  # pragma: no cover
                pass
        if wait:
            self._thread.join(wait)

    @property
    def running(self) -> bool:
        """The writer thread has not ended."""
        return self._thread.is_alive()


HTTP = re.compile(rb"(GET|POST|PUT|HEAD|DELETE|OPTIONS|PATCH|CONNECT|TRACE|PRI) ")


class ConsolePortError(OSError):
    """A console's port cannot be used (in use, not allowed); the message names it."""


class TcpConsole:
    """The protocol on a TCP port of the loopback interface only.

    At most ``max_clients`` connections (more get a one-line refusal). Each connection has a reader
    (this class) and a writer (its :class:`QueuedSink`); the socket is closed by whichever ends last.
    A line cut off by the client's close is not carried out; after a half-close every line sent
    still gets its reply; a line that starts like an HTTP request ends the connection.
    """

    SEND_TIMEOUT = 10.0     # s a write may block on a client that does not read, then it is dropped

    def __init__(self, port: int, *, post: Callable, controller, host: str = "127.0.0.1",
                 max_clients: int = 8, queue_limit: int = 1000, log: Callable[[str], None] = lambda m: None,
                 wait: Callable[[float], bool] | None = None):
        self._post = post
        self._controller = controller
        self._max = max_clients
        self._queue_limit = queue_limit
        self._log = log
        try:
            self._server = socket.create_server((host, port), reuse_port=False)
        except OSError as exc:
            why = {errno.EADDRINUSE: "is in use", errno.EACCES: "is not allowed (a privileged port?)"}
            raise ConsolePortError(exc.errno, f"TCP port {port} {why.get(exc.errno, f'cannot be used: {exc.strerror}')}") from None
        self.port = self._server.getsockname()[1]
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._lock = threading.Lock()
        self.clients = 0
        self.accept_errors = 0
        # seams for tests: what accepting and starting a thread mean
        self.accept = self._server.accept
        self.start_thread = lambda target, args, name: threading.Thread(
            target=target, args=args, name=name, daemon=True).start()
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
                self._log(f"uno-shooter: TCP console {self.port}: accept failed: {exc}; retrying in {backoff:g} s")
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
                self._log(f"uno-shooter: TCP console {self.port}: {exc}; connection refused, retrying in {backoff:g} s")
                self._refuse(conn, "the controller is out of threads; try again later")
                self._wait(backoff)
                backoff = min(backoff * 2, 1.0)
                continue
            backoff = 0.05

    def _refuse(self, conn: socket.socket, message: str) -> None:
        try:
            conn.settimeout(1.0)
            conn.sendall((dumps({"event": "refused", "t": round(self._controller.clock.now(), 6),
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

        def release():
            with lock:
                ends[0] -= 1
                last = ends[0] == 0
            if last:
                conn.close()
                with self._lock:
                    self.clients -= 1

        def hang_up(*_):
            try:
                conn.shutdown(socket.SHUT_RDWR)  # ends the reader and a blocked write too
            except OSError:
                pass

        def writer_done():
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
        self._post(lambda: controller.add_sink(sink))
        def finish():  # on the loop, after every line this connection posted has been answered
            controller.remove_sink(sink)
            sink.close()
        try:
            for line in read_lines(conn.recv, partial=False):
                if HTTP.match(line):
                    self._post(lambda line=line: (sink(http_refusal(line)), finish()))
                    # nothing after it runs; what the client still sends is read and dropped (closing a
                    # socket with unread input would reset it before the client read the reply)
                    for _, _ in zip(range(16), iter(lambda: conn.recv(4096), b"")):
                        pass
                    break
                self._post(lambda line=line: controller.handle_line(line, sink))
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


def http_refusal(line: bytes) -> dict:
    """The one reply to a line that starts like an HTTP request (a browser, ``curl``): nothing
    after it on that connection is carried out, the connection is closed."""
    method = line.split(b" ", 1)[0].decode("ascii").lower()
    return {"reply": method, "ok": False, "error": "unknown-command",
            "message": "this is the uno-shooter console (one command per line), not an HTTP server; closing"}


class SerialConsole:
    """The protocol on a pyserial port; reopened when the link comes back.

    A missing device is tried again with a growing pause (``reopen_interval`` doubling up to
    ``max_interval``), logged once per change of what is wrong. A client that stops reading loses
    the backlog, not the console: the next line it gets is a ``dropped`` event saying how many lines
    it missed. A write that fails (the link is gone) reopens the port.
    """

    def __init__(self, device: str, *, baudrate: int, post: Callable, controller, reopen_interval: float = 2.0,
                 max_interval: float = 60.0, log: Callable[[str], None] = lambda m: None,
                 write_timeout: float = 2.0, queue_limit: int = 1000, wait: Callable[[float], bool] | None = None):
        self.device = device
        self._baudrate = baudrate
        self._post = post
        self._controller = controller
        self._interval = reopen_interval
        self._max_interval = max(max_interval, reopen_interval)
        self._log = log
        self._write_timeout = write_timeout
        self._queue_limit = queue_limit
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self.opened = 0          # how many times the port was opened
        self._thread = threading.Thread(target=self._run, name=f"serial {device}", daemon=True)
        self._thread.start()

    def _dropped(self, lines: int) -> dict:
        return {"event": "dropped", "t": round(self._controller.clock.now(), 6), "lines": lines}

    def _run(self) -> None:
        import serial  # pyserial

        pause = self._interval
        last_problem = None
        while not self._stop.is_set():
            try:
                # a write that cannot go out within write_timeout (link gone) reopens the port
                port = serial.Serial(self.device, self._baudrate, timeout=None, write_timeout=self._write_timeout)
            except (OSError, serial.SerialException) as exc:
                problem = str(exc)
                if problem != last_problem:
                    self._log(f"uno-shooter: console {self.device}: {problem}; retrying (at most every "
                              f"{self._max_interval:g} s)")
                    last_problem = problem
                if self._wait(pause):
                    return
                pause = min(pause * 2, self._max_interval)
                continue
            if self._stop.is_set():
                port.close()
                return
            self.opened += 1
            pause = self._interval
            last_problem = None
            self._log(f"uno-shooter: console {self.device} open")
            broken = threading.Event()

            def write_failed(exc, port=port, broken=broken):
                if broken.is_set():
                    return
                broken.set()
                self._log(f"uno-shooter: console {self.device}: write failed ({exc}); reopening")
                try:
                    port.cancel_read()
                except Exception as cancel_exc:  # the port is already closed
                    self._log(f"uno-shooter: console {self.device}: {cancel_exc}")

            sink = QueuedSink(port.write, name=f"serial-writer {self.device}", limit=self._queue_limit,
                              on_error=write_failed, recover=self._dropped)
            self._post(lambda sink=sink: self._controller.add_sink(sink))

            def read(n, port=port, broken=broken):
                if broken.is_set() or self._stop.is_set():
                    return b""
                first = port.read(1)
                if not first or broken.is_set():
                    return b""
                return first + port.read(min(n, port.in_waiting))
            try:
                for line in read_lines(read, partial=False):
                    self._post(lambda line=line, sink=sink: self._controller.handle_line(line, sink))
            except (OSError, serial.SerialException) as exc:
                self._log(f"uno-shooter: console {self.device} lost: {exc}")
            finally:
                sink.close()
                self._post(lambda sink=sink: self._controller.remove_sink(sink))
                try:
                    port.close()
                except Exception as exc:
                    self._log(f"uno-shooter: console {self.device}: closing it failed: {exc}")
            if self._wait(self._interval):
                return

    def close(self) -> None:
        self._stop.set()
