"""The one control loop: it owns all state and is the only thread that touches it.

GPIO callbacks, console readers and signal handlers only :meth:`ControlLoop.post`
a callable; the loop runs posted callables and due timers of the one clock, in
order. With a :class:`~hal.clock.VirtualClock` the loop also moves time: when
nothing is queued it jumps to the next timer, so a simulated game runs in
milliseconds and the same input gives the same output.

An exception in a handler never leaves the motor running: ``on_error`` (the
controller's fail-safe) runs first, then the loop goes on. If ``on_error`` itself
fails, the loop stops and the exception propagates (the caller closes the hardware).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Callable

from hal.clock import Clock, VirtualClock


class ControlLoop:
    """Runs posted callables and clock timers on one thread."""

    # Real time: the longest the loop sleeps without looking up. A signal the kernel delivered to
    # another thread runs its Python handler only once this thread runs bytecode again.
    MAX_WAIT = 0.5

    def __init__(self, clock: Clock):
        self.clock = clock
        self.virtual = isinstance(clock, VirtualClock)
        self._queue: deque[Callable[[], None]] = deque()
        self._wake = threading.Event()
        self._stopped = False
        self.on_error: Callable[[BaseException], None] | None = None

    # ---- from any thread ----
    def post(self, fn: Callable[[], None]) -> None:
        """Queue ``fn`` to run on the loop. Safe from any thread (not from a signal handler on the
        loop's thread, see :meth:`stop`); never blocks."""
        self._queue.append(fn)
        self._wake.set()

    def stop(self) -> None:
        """Ask :meth:`run_forever` to return (from any thread, but not from a signal handler
        running on the loop's thread: the wake-up Event's lock may be held there)."""
        self._stopped = True
        self._wake.set()

    # ---- on the loop's thread ----
    def _call(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except Exception as exc:  # the fail-safe decides; the loop keeps serving
            if self.on_error is None:
                raise
            self.on_error(exc)

    def run_pending(self) -> int:
        """Run everything queued and every due timer until neither is left; returns how many ran."""
        ran = 0
        while True:
            progressed = False
            while self._queue:
                self._call(self._queue.popleft())
                ran += 1
                progressed = True
            due = self.clock.next_deadline()
            if due is not None and due <= self.clock.now():
                self._call(self._run_one_due)
                ran += 1
                progressed = True
            if not progressed:
                return ran

    def _run_one_due(self) -> None:
        # run_due runs every due timer; an exception stops it there, the rest stay queued
        self.clock.run_due()

    @property
    def busy(self) -> bool:
        """Something is queued or a non-idle timer is pending."""
        return bool(self._queue) or self.clock.next_deadline(include_idle=False) is not None

    def run_until_quiet(self, limit: float = 3600.0) -> None:
        """Virtual time: run until only idle timers are left (quiescence).

        ``limit`` (virtual seconds) guards against a model that never settles.
        """
        self._need_virtual()
        end = self.clock.now() + limit
        while True:
            self.run_pending()
            nxt = self.clock.next_deadline(include_idle=False)
            if nxt is None:
                return
            if nxt > end:
                raise RuntimeError(f"the loop did not settle within {limit} virtual seconds")
            # Idle timers due before the next busy one run on the way.
            self._advance(nxt)

    def run_for(self, seconds: float) -> None:
        """Virtual time: let ``seconds`` pass, running everything that falls due."""
        self._need_virtual()
        end = self.clock.now() + max(0.0, seconds)
        while True:
            self.run_pending()
            nxt = self.clock.next_deadline()
            if nxt is None or nxt > end:
                self.clock.advance_to(end)
                self.run_pending()
                return
            self.clock.advance_to(nxt)

    def _advance(self, target: float) -> None:
        while True:
            nxt = self.clock.next_deadline()
            if nxt is None or nxt >= target:
                self.clock.advance_to(target)
                return
            self.clock.advance_to(nxt)
            self.run_pending()

    def run_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Serve the queue and the timers until ``done()`` or ``timeout`` seconds on the one clock have passed
        (virtual time jumps, real time waits for a post or the next timer); returns ``done()``. For the
        bring-up tools (selftest, calibrate), which wait for a person or a part."""
        end = self.clock.now() + max(0.0, timeout)
        while True:
            self.run_pending()
            if done():
                return True
            now = self.clock.now()
            if now >= end:
                return False
            nxt = self.clock.next_deadline()
            target = end if nxt is None else min(nxt, end)
            if self.virtual:
                self.clock.advance_to(target)
            else:
                self._wake.wait(min(self.MAX_WAIT, max(0.0, target - now)))
                self._wake.clear()

    def run_forever(self) -> None:
        """Real time: serve the queue and the timers until :meth:`stop`."""
        if self.virtual:
            raise RuntimeError("run_forever needs a real clock; use run_until_quiet/run_for")
        while not self._stopped:
            self.run_pending()
            if self._stopped:
                break
            nxt = self.clock.next_deadline()
            timeout = self.MAX_WAIT if nxt is None else min(self.MAX_WAIT, max(0.0, nxt - self.clock.now()))
            self._wake.wait(timeout)
            self._wake.clear()
        self.run_pending()

    def _need_virtual(self) -> None:
        if not self.virtual:
            raise RuntimeError("this needs a virtual clock")
