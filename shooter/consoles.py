"""Consoles: one protocol over many transports.

A console reads lines on its own thread and only *posts* them to the control
loop; replies and events come back through a sink the controller calls on the
loop's thread. Transports: standard input/output, TCP on loopback, and pyserial
ports (Bluetooth ``/dev/rfcomm0``, USB gadget ``/dev/ttyGS0``, the UART), which
are reopened when the link comes back.
"""

from __future__ import annotations

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


def human(obj: dict) -> str:
    """A one-line human-readable form of a reply or an event (terminals only)."""
    def fmt(value) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k} {fmt(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(fmt(v) for v in value) + "]"
        return "-" if value is None else str(value)
    if "event" in obj:
        rest = {k: v for k, v in obj.items() if k not in ("event", "t")}
        return f"[{obj['t']:9.3f}] {obj['event']}: " + " ".join(f"{k}={fmt(v)}" for k, v in rest.items())
    if not obj.get("ok"):
        return f"{obj['reply']}: error {obj['error']}: {obj['message']}"
    rest = {k: v for k, v in obj.items() if k not in ("reply", "ok")}
    if not rest:
        return f"{obj['reply']}: ok"
    def field(key, value) -> str:
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return f"  {key}:\n" + "\n".join(f"    {v}" for v in value)  # e.g. help's commands
        return f"  {key}: {fmt(value)}"
    return f"{obj['reply']}: ok\n" + "\n".join(field(k, v) for k, v in rest.items())


def stream_sink(stream: BinaryIO, fmt: str = "json") -> Sink:
    """A sink writing one line per object to a binary stream."""
    def write(obj: dict) -> None:
        text = human(obj) if fmt == "human" else dumps(obj)
        stream.write(text.encode("utf-8") + b"\n")
        stream.flush()
    return write


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
        conn.settimeout(None)
        lock = threading.Lock()
        alive = [True]

        def sink(obj: dict) -> None:
            if not alive[0]:
                return
            try:
                with lock:
                    conn.settimeout(2.0)  # a stuck client must not stall the loop for long
                    conn.sendall(dumps(obj).encode("utf-8") + b"\n")
            except OSError:
                alive[0] = False

        self._post(lambda: self._controller.add_sink(sink))
        try:
            for line in read_lines(conn.recv):
                self._post(lambda line=line: self._controller.handle_line(line, sink))
        except OSError:
            pass
        finally:
            alive[0] = False
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
                port = serial.Serial(self.device, self._baudrate, timeout=None)
            except (OSError, serial.SerialException) as exc:
                self._log(f"uno-shooter: console {self.device}: {exc}; retrying")
                self._stop.wait(self._interval)
                continue
            self._log(f"uno-shooter: console {self.device} open")
            lock = threading.Lock()

            def sink(obj: dict, port=port) -> None:
                try:
                    with lock:
                        port.write(dumps(obj).encode("utf-8") + b"\n")
                except (OSError, serial.SerialException):
                    pass

            self._post(lambda: self._controller.add_sink(sink))
            try:
                for line in read_lines(lambda n: port.read(1) + port.read(min(n, port.in_waiting))):
                    self._post(lambda line=line: self._controller.handle_line(line, sink))
            except (OSError, serial.SerialException) as exc:
                self._log(f"uno-shooter: console {self.device} lost: {exc}")
            finally:
                self._post(lambda: self._controller.remove_sink(sink))
                try:
                    port.close()
                except Exception:
                    pass
            self._stop.wait(self._interval)

    def close(self) -> None:
        self._stop.set()
