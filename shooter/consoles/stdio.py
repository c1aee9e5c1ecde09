"""The console on standard input/output: a sink writing straight to a stream (virtual time).

The real-time stdio console (raw file descriptors, a reader thread, a :class:`~.sinks.QueuedSink`)
is put together by the CLI from :func:`~.lines.read_lines` and :class:`~.sinks.QueuedSink`.
"""

from __future__ import annotations

from typing import Any, BinaryIO

from .base import Sink
from .sinks import encoder


def stream_sink(stream: BinaryIO, fmt: str = "json") -> Sink:
    """A sink writing one line per object to a binary stream, at once (virtual time: the loop and
    the output are one thread; real time uses a :class:`QueuedSink`)."""
    encode = encoder(fmt)

    def write(obj: dict[str, Any]) -> None:
        stream.write(encode(obj))
        stream.flush()
    return write
