"""Consoles: one protocol over many transports.

A console reads lines on its own thread and only *posts* them to the control
loop; replies and events come back through a sink the controller calls on the
loop's thread. Transports: standard input/output, TCP on loopback, and pyserial
ports (Bluetooth ``/dev/rfcomm0``, USB gadget ``/dev/ttyGS0``, the UART), which
are reopened when the link comes back.
"""

from __future__ import annotations

import queue
import socket
import threading
from typing import BinaryIO, Callable, Iterator

from .protocol import MAX_LINE_BYTES, dumps

Sink = Callable[[dict], None]


def read_lines(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """Split a byte stream into lines without ever holding more than one line.

    An overlong line is yielded cut at MAX_LINE_BYTES + 1 bytes (so the parser
    answers ``line-too-long``) and the rest of it is skipped.
    """
    buffer = b""
    skipping = False
    while True:
        chunk = read(4096)
        if not chunk:
            if buffer and not skipping:
                yield buffer
            return
        buffer += chunk
        while True:
            nl = buffer.find(b"\n")
            if nl < 0:
                if len(buffer) > MAX_LINE_BYTES and not skipping:
                    yield buffer[:MAX_LINE_BYTES + 1]
                    skipping = True
                if skipping:
                    buffer = b""
                break
            line, buffer = buffer[:nl], buffer[nl + 1:]
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
    this connection empties. A client that stops reading (a phone out of range) fills its queue;
    then ``on_overflow`` is called once (drop the client) and further lines are discarded."""

    def __init__(self, write: Callable[[bytes], None], *, name: str, limit: int = 1000,
                 on_overflow: Callable[[], None] = lambda: None, on_error: Callable[[Exception], None] = None,
                 encode: Callable[[dict], bytes] = lambda obj: dumps(obj).encode("utf-8") + b"\n"):
        self._write = write
        self._encode = encode
        self._queue: queue.Queue = queue.Queue(maxsize=limit)
        self._on_overflow = on_overflow
        self._on_error = on_error or (lambda exc: None)
        self.alive = True
        self.dropped = 0
        self._thread = threading.Thread(target=self._drain, name=name, daemon=True)
        self._thread.start()

    def __call__(self, obj: dict) -> None:
        if not self.alive:
            self.dropped += 1
            return
        try:
            self._queue.put_nowait(self._encode(obj))
        except queue.Full:
            self.dropped += 1
            self.alive = False
            self._on_overflow()

    def _drain(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                return
            try:
                self._write(data)
            except Exception as exc:  # the transport is gone or timed out
                self._on_error(exc)

    def close(self, wait: float | None = None) -> None:
        """No more lines; with ``wait``, give the writer that long to send what is queued."""
        self.alive = False
        try:
            self._queue.put(None, timeout=wait or 0.0) if wait else self._queue.put_nowait(None)
        except queue.Full:
            pass
        if wait:
            self._thread.join(wait)


class TcpConsole:
    """The protocol on a TCP port of the loopback interface only."""

    def __init__(self, port: int, *, post: Callable, controller, host: str = "127.0.0.1"):
        self._post = post
        self._controller = controller
        self._server = socket.create_server((host, port), reuse_port=False)
        self.port = self._server.getsockname()[1]
        self._stop = threading.Event()
        threading.Thread(target=self._accept, name="tcp-console", daemon=True).start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        def hang_up(*_):
            try:
                conn.shutdown(socket.SHUT_RDWR)  # ends the reader below too
            except OSError:
                pass

        sink = QueuedSink(conn.sendall, name="tcp-writer", on_overflow=hang_up, on_error=hang_up)
        self._post(lambda: self._controller.add_sink(sink))
        try:
            for line in read_lines(conn.recv):
                self._post(lambda line=line: self._controller.handle_line(line, sink))
        except OSError:
            pass
        finally:
            sink.close()
            self._post(lambda: self._controller.remove_sink(sink))
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._server.close()


class SerialConsole:
    """The protocol on a pyserial port; reopened when the link comes back."""

    def __init__(self, device: str, *, baudrate: int, post: Callable, controller, reopen_interval: float = 2.0,
                 log: Callable[[str], None] = lambda m: None):
        self.device = device
        self._baudrate = baudrate
        self._post = post
        self._controller = controller
        self._interval = reopen_interval
        self._log = log
        self._stop = threading.Event()
        threading.Thread(target=self._run, name=f"serial {device}", daemon=True).start()

    def _run(self) -> None:
        import serial  # pyserial

        while not self._stop.is_set():
            try:
                # a write that cannot go out within 2 s (link gone) is dropped by the writer thread
                port = serial.Serial(self.device, self._baudrate, timeout=None, write_timeout=2.0)
            except (OSError, serial.SerialException) as exc:
                self._log(f"uno-shooter: console {self.device}: {exc}; retrying")
                self._stop.wait(self._interval)
                continue
            self._log(f"uno-shooter: console {self.device} open")
            sink = QueuedSink(port.write, name=f"serial-writer {self.device}")
            self._post(lambda: self._controller.add_sink(sink))
            try:
                for line in read_lines(lambda n: port.read(1) + port.read(min(n, port.in_waiting))):
                    self._post(lambda line=line: self._controller.handle_line(line, sink))
            except (OSError, serial.SerialException) as exc:
                self._log(f"uno-shooter: console {self.device} lost: {exc}")
            finally:
                sink.close()
                self._post(lambda sink=sink: self._controller.remove_sink(sink))
                try:
                    port.close()
                except Exception as exc:
                    self._log(f"uno-shooter: console {self.device}: closing it failed: {exc}")
            self._stop.wait(self._interval)

    def close(self) -> None:
        self._stop.set()
