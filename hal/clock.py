"""The one clock: the time every layer reads and the timers every layer sets.

There is a single :class:`Clock` per running controller. On the Pi it is a
:class:`MonotonicClock`; in the simulator and the tests it is a
:class:`VirtualClock` whose time only moves when the control loop moves it, so a
whole game runs in milliseconds and no test waits on the wall clock.

A clock keeps timers but never runs them by itself: the control loop calls
:meth:`Clock.run_due` (and, for virtual time, :meth:`VirtualClock.advance_to`).
That keeps every timer callback on the loop's thread. Nothing here sleeps.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable


class Timer:
    """A callback due at ``deadline`` on a :class:`Clock`; cancel it at will.

    ``idle`` timers (watchdog pings, slow housekeeping) do not keep the loop
    busy: a loop "at quiescence" may still have idle timers pending.
    """

    __slots__ = ("deadline", "callback", "idle", "cancelled", "name", "_clock")

    def __init__(self, deadline: float, callback: Callable[[], None], idle: bool, name: str,
                 clock: Clock | None = None):
        self.deadline = deadline
        self.callback = callback
        self.idle = idle
        self.cancelled = False
        self.name = name
        self._clock = clock  # told when a busy timer stops being pending

    def cancel(self) -> None:
        """Stop the timer from firing; safe to call more than once."""
        if not self.cancelled:
            self.cancelled = True
            if not self.idle and self._clock is not None:
                self._clock._busy -= 1

    @property
    def active(self) -> bool:
        return not self.cancelled

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else f"at {self.deadline:.6f}"
        return f"<Timer {self.name or self.callback!r} {state}>"


class Clock:
    """Time in seconds since the clock started, and timers on that time."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Timer]] = []
        self._seq = itertools.count()
        self._busy = 0  # pending timers that are not idle (so quiescence is known without a scan)

    def now(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def call_at(self, deadline: float, callback: Callable[[], None], *,
                idle: bool = False, name: str = "") -> Timer:
        """Run ``callback`` (on the loop's thread) once ``now() >= deadline``."""
        timer = Timer(float(deadline), callback, idle, name, self)
        if not idle:
            self._busy += 1
        heapq.heappush(self._heap, (timer.deadline, next(self._seq), timer))
        return timer

    def call_later(self, delay: float, callback: Callable[[], None], *,
                   idle: bool = False, name: str = "") -> Timer:
        """Run ``callback`` ``delay`` seconds from now (at once, on the next run, if ``delay`` <= 0)."""
        return self.call_at(self.now() + (delay if delay > 0.0 else 0.0), callback, idle=idle, name=name)

    def _prune(self) -> None:
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)

    def next_deadline(self, *, include_idle: bool = True) -> float | None:
        """The earliest pending deadline (of busy timers only, if asked)."""
        self._prune()
        heap = self._heap
        if include_idle:
            return heap[0][0] if heap else None
        if not self._busy:
            return None
        if not heap[0][2].idle:
            return heap[0][0]
        return min(t.deadline for (_, _, t) in heap if not t.cancelled and not t.idle)

    def due(self) -> bool:
        """Some timer's deadline has come."""
        heap = self._heap
        while heap:
            deadline, _, timer = heap[0]
            if not timer.cancelled:
                return deadline <= self.now()
            heapq.heappop(heap)
        return False

    def pending(self) -> list[Timer]:
        """Pending timers, earliest first (for status and tests)."""
        return [t for (_, _, t) in sorted(self._heap) if not t.cancelled]

    def run_due(self) -> int:
        """Run every timer whose deadline has come, earliest first; return how many ran.

        A timer set by a callback for a time already reached runs in the same call.
        """
        ran = 0
        now = self.now()
        heap = self._heap
        while True:
            while heap and heap[0][2].cancelled:
                heapq.heappop(heap)
            if not heap or heap[0][0] > now:
                return ran
            _, _, timer = heapq.heappop(heap)
            timer.cancel()  # fired: a later cancel() is a no-op
            timer.callback()
            ran += 1


class MonotonicClock(Clock):
    """Real time from ``time.monotonic``, counted from the clock's creation."""

    def __init__(self) -> None:
        super().__init__()
        self._start = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self._start


class VirtualClock(Clock):
    """Time that moves only when the loop advances it (simulation, tests)."""

    def __init__(self, start: float = 0.0) -> None:
        super().__init__()
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance_to(self, t: float) -> None:
        """Move time forward to ``t`` (never backward). Timers are run by run_due()."""
        if t > self._now:
            self._now = float(t)
