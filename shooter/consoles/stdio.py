"""The console on standard input/output: in real time a reader thread on the raw file
descriptors and a queued writer (:class:`StdioConsole`); in virtual time a sink writing straight
to a stream (:func:`stream_sink`), the loop and the output being one thread."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, BinaryIO

from ..access import Caller, Link
from .base import ConsoleHost, Post, Sink
from .formats import encoder
from .lines import read_lines
from .sinks import QueuedSink


def stream_sink(stream: BinaryIO, fmt: str = "json") -> Sink:
    """A sink writing one line per object to a binary stream, at once (virtual time: the loop and
    the output are one thread; real time uses a :class:`QueuedSink`)."""
    encode = encoder(fmt)

    def write(obj: dict[str, Any]) -> None:
        stream.write(encode(obj))
        stream.flush()
    return write


def read_fd(fd: int, n: int) -> bytes:
    """Read from a file descriptor; an interrupted or vanished input is its end."""
    try:
        return os.read(fd, n)
    except OSError:
        return b""


def write_fd(fd: int) -> Callable[[bytes], None]:
    """A writer of whole byte strings to a file descriptor."""
    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    return write


class StdioConsole:
    """The protocol on standard input/output in real time; end of input posts ``on_end``.

    Raw file descriptors, not sys.stdin/stdout: a daemon thread blocked inside a buffered
    object's lock at exit aborts the interpreter ("_enter_buffered_busy", seen on Ctrl-C).
    The sink is added at once (before the loop runs); :meth:`close` lets what was answered get out.
    """

    def __init__(self, *, post: Post, controller: ConsoleHost, on_end: Callable[[], None], fmt: str = "json",
                 stdin_fd: int = 0, stdout_fd: int = 1) -> None:
        self._sink = QueuedSink(write_fd(stdout_fd), name="stdout-writer", encode=encoder(fmt))
        controller.add_sink(self._sink)
        sink = self._sink
        caller = Caller(Link.STDIO)   # a console of the table's own

        def read_stdin() -> None:
            for line in read_lines(lambda n: read_fd(stdin_fd, n)):
                post(partial(controller.handle_line, line, sink, caller))
            post(on_end)
        threading.Thread(target=read_stdin, name="stdio-console", daemon=True).start()

    def close(self) -> None:
        self._sink.close(wait=5.0)  # what was answered gets out
