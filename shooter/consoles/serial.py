"""The console on a pyserial port (Bluetooth ``/dev/rfcomm0``, USB gadget ``/dev/ttyGS0``, the UART)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from ..access import Caller, Link
from ..vocabulary import EventName
from .base import ConsoleHost, Post
from .lines import read_lines
from .sinks import QueuedSink


class SerialConsole:
    """The protocol on a pyserial port; reopened when the link comes back.

    A missing device is tried again with a growing pause (``reopen_interval`` doubling up to
    ``max_interval``), logged once per change of what is wrong. A client that stops reading loses
    the backlog, not the console: the next line it gets is a ``dropped`` event saying how many lines
    it missed. A write that fails (the link is gone) reopens the port.
    """

    def __init__(self, device: str, *, baudrate: int, post: Post, controller: ConsoleHost,
                 reopen_interval: float = 2.0, max_interval: float = 60.0, log: Callable[[str], None] = lambda m: None,
                 write_timeout: float = 2.0, queue_limit: int = 1000,
                 wait: Callable[[float], bool] | None = None) -> None:
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

    def _dropped(self, lines: int) -> dict[str, Any]:
        return {"event": EventName.DROPPED, "t": round(self._controller.clock.now(), 6), "lines": lines}

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

            def write_failed(exc: Exception, port: serial.Serial = port, broken: threading.Event = broken) -> None:
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
            self._post(partial(self._controller.add_sink, sink))
            caller = Caller(Link.SERIAL)   # a console of the table's own: a cable or a Bluetooth pairing

            def read(n: int, port: serial.Serial = port, broken: threading.Event = broken) -> bytes:
                if broken.is_set() or self._stop.is_set():
                    return b""
                first: bytes = port.read(1)
                if not first or broken.is_set():
                    return b""
                rest: bytes = port.read(min(n, port.in_waiting))
                return first + rest
            try:
                for line in read_lines(read, partial=False):
                    self._post(partial(self._controller.handle_line, line, sink, caller))
            except (OSError, serial.SerialException) as exc:
                self._log(f"uno-shooter: console {self.device} lost: {exc}")
            finally:
                sink.close()
                self._post(partial(self._controller.remove_sink, sink))
                try:
                    port.close()
                except Exception as exc:
                    self._log(f"uno-shooter: console {self.device}: closing it failed: {exc}")
            if self._wait(self._interval):
                return

    def close(self) -> None:
        self._stop.set()
