"""Sinks: the queued writer that never blocks the loop (one per connection); how a reply or an event
becomes an output line is :mod:`.formats`."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from ..protocol import dumps


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
                 on_overflow: Callable[[], None] = lambda: None, on_error: Callable[[Exception], None] | None = None,
                 encode: Callable[[dict[str, Any]], bytes] = lambda obj: dumps(obj).encode("utf-8") + b"\n",
                 recover: Callable[[int], dict[str, Any]] | None = None,
                 on_exit: Callable[[], None] = lambda: None) -> None:
        self._write = write
        self._encode = encode
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=limit)
        self._on_overflow = on_overflow
        self._on_error = on_error or (lambda exc: None)
        self._recover = recover
        self._on_exit = on_exit
        self.alive = True
        self.dropped = 0
        self._thread = threading.Thread(target=self._drain, name=name, daemon=True)
        self._thread.start()

    def __call__(self, obj: dict[str, Any]) -> None:
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
