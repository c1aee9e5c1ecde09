"""Log lines at a rate: one line per kind of problem per minute at most, with a count.

A problem a client can cause at will (a malformed HTTP request, a connection over the cap, an accept that
fails because the descriptors ran out) must not write a line, let alone a traceback, each time: 2,000 bad
requests would fill the journal and hide the one line that matters. :class:`LogRate` writes the first line
of a kind at once, holds back the ones that follow within the window and counts them, and says how many it
held back with the next line of that kind once the window has passed.

Time is the controller's one clock (``now``), so a test moves it instead of waiting. Callers sit on several
threads (aiohttp's loop, the TCP console's accept loop): the counts are kept under a lock.

>>> t = [0.0]
>>> lines = []
>>> rate = LogRate(lines.append, lambda: t[0])
>>> for _ in range(1000):
...     rate("bad-request", "bad request from 10.0.0.7")
>>> t[0] = 61.0
>>> rate("bad-request", "bad request from 10.0.0.7")
>>> lines
['bad request from 10.0.0.7', 'bad request from 10.0.0.7 (and 999 more like it in the last 61 s)']
"""

from __future__ import annotations

import threading
from collections.abc import Callable

WINDOW = 60.0     # s: at most one line per kind in this time


class LogRate:
    """``rate(kind, message)``: log ``message`` unless a line of ``kind`` went out less than ``window`` s ago."""

    def __init__(self, log: Callable[[str], None], now: Callable[[], float], *, window: float = WINDOW):
        self._log = log
        self._now = now
        self.window = window
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}     # kind -> when its last line went out
        self.held: dict[str, int] = {}        # kind -> lines held back since then

    def __call__(self, kind: str, message: str) -> None:
        now = self._now()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.window:
                self.held[kind] = self.held.get(kind, 0) + 1
                return
            held = self.held.pop(kind, 0)
            self._last[kind] = now
        if held:
            message += f" (and {held} more like it in the last {now - last:.0f} s)"  # type: ignore[operator]
        self._log(message)
