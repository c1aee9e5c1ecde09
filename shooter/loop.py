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

import gc
import os
import select
import signal
import threading
import weakref
from collections import deque
from collections.abc import Callable

from hal.clock import Clock, VirtualClock


def _close_fds(*fds: int) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


class ControlLoop:
    """Runs posted callables and clock timers on one thread."""

    def __init__(self, clock: Clock):
        self.clock = clock
        self.virtual = isinstance(clock, VirtualClock)
        self._queue: deque[Callable[[], None]] = deque()
        self._stopped = False
        self.on_error: Callable[[BaseException], None] | None = None
        if self.virtual:
            # One thread moves virtual time: nobody sleeps, so a post needs no wake-up (no pipe).
            self._wake_r = self._wake_w = -1
        else:
            # Real time: the loop sleeps in select() on a pipe until a timer is due or a byte arrives.
            # Posts write a byte; so do signals (signal.set_wakeup_fd, see run_forever). Writing to a
            # pipe takes no lock, so stop() and post() are safe from a signal handler too.
            self._wake_r, self._wake_w = os.pipe()
            os.set_blocking(self._wake_r, False)
            os.set_blocking(self._wake_w, False)
            weakref.finalize(self, _close_fds, self._wake_r, self._wake_w)
        self._wake_pending = False  # a byte is already on its way: no need for another

    # ---- from any thread ----
    def post(self, fn: Callable[[], None]) -> None:
        """Queue ``fn`` to run on the loop. Safe from any thread and from a signal handler; never
        blocks."""
        self._queue.append(fn)
        self._wake()

    def stop(self) -> None:
        """Ask :meth:`run_forever` to return (from any thread or a signal handler)."""
        self._stopped = True
        self._wake()

    def _wake(self) -> None:
        if self._wake_w < 0 or self._wake_pending:
            return
        self._wake_pending = True
        try:
            os.write(self._wake_w, b"\0")
        except (BlockingIOError, OSError):
            pass  # the pipe is full (the loop will wake anyway) or the loop is gone

    # ---- on the loop's thread ----
    def run_pending(self) -> int:
        """Run everything queued and every due timer; returns how many ran. (In real time a timer that
        falls due meanwhile waits for the next round: the loop does not sleep while one is due.)"""
        ran = 0
        queue, clock = self._queue, self.clock
        while True:
            while queue:
                fn = queue.popleft()
                ran += 1
                try:
                    fn()
                except Exception as exc:  # the fail-safe decides; the loop keeps serving
                    if self.on_error is None:
                        raise
                    self.on_error(exc)
            # run_due runs every due timer (also those its callbacks set for now) and returns 0 when
            # none is due; an exception stops it there and the rest stay queued for the caller's next round
            try:
                fired = clock.run_due()
            except Exception as exc:
                if self.on_error is None:
                    raise
                self.on_error(exc)
                fired = 1
            ran += fired
            if not fired or not queue:
                return ran

    @property
    def busy(self) -> bool:
        """Something is queued or a non-idle timer is pending."""
        return bool(self._queue) or self.clock.next_deadline(include_idle=False) is not None

    def run_until_quiet(self, limit: float = 3600.0) -> None:
        """Virtual time: run until only idle timers are left (quiescence).

        ``limit`` (virtual seconds) guards against a model that never settles.
        """
        clock = self._need_virtual()
        end = clock.now() + limit
        while True:
            self.run_pending()
            nxt = clock.next_deadline(include_idle=False)
            if nxt is None:
                return
            if nxt > end:
                raise RuntimeError(f"the loop did not settle within {limit} virtual seconds")
            # to the earliest timer: idle timers due before the next busy one run on the way
            first = clock.next_deadline()  # never None here: a busy timer is pending
            clock.advance_to(nxt if first is None else first)

    def run_for(self, seconds: float) -> None:
        """Virtual time: let ``seconds`` pass, running everything that falls due."""
        clock = self._need_virtual()
        end = clock.now() + max(0.0, seconds)
        while True:
            self.run_pending()
            nxt = clock.next_deadline()
            if nxt is None or nxt > end:
                clock.advance_to(end)
                self.run_pending()
                return
            clock.advance_to(nxt)

    def run_until(self, done: Callable[[], object], timeout: float) -> bool:
        """Serve the queue and the timers until ``done()`` or ``timeout`` seconds on the one clock have passed
        (virtual time jumps, real time sleeps until a post or the next timer); returns ``done()``. For the
        bring-up tools (selftest, calibrate), which wait for a person or a part."""
        end = self.clock.now() + max(0.0, timeout)
        virtual = self.clock if isinstance(self.clock, VirtualClock) else None
        poller = None
        if virtual is None:
            poller = select.poll()
            poller.register(self._wake_r, select.POLLIN)
        while True:
            if poller is not None:
                self._drain_wake()
            self.run_pending()
            if done():
                return True
            now = self.clock.now()
            if now >= end:
                return False
            nxt = self.clock.next_deadline()
            target = end if nxt is None else min(nxt, end)
            if virtual is not None:
                virtual.advance_to(target)
            elif poller is not None and not self._queue:
                self._sleep(poller, max(0.0, target - now))

    def run_forever(self) -> None:
        """Real time: serve the queue and the timers until :meth:`stop`.

        Between them the loop sleeps until the next timer is due or something wakes it (a post, a
        stop, a signal): no polling. Run on the main thread, it also routes signals to its wake-up
        pipe, so a signal delivered to any thread wakes it at once and its Python handler runs.
        Objects alive once the loop starts (the start-up's modules, devices, tables) are moved out
        of the garbage collector's way (``gc.freeze``): full collections stay short all day.
        """
        if self.virtual:
            raise RuntimeError("run_forever needs a real clock; use run_until_quiet/run_for")
        main = threading.current_thread() is threading.main_thread()
        old_fd = signal.set_wakeup_fd(self._wake_w, warn_on_full_buffer=False) if main else -1
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        gc.collect()
        gc.freeze()
        try:
            while not self._stopped:
                self._drain_wake()
                self.run_pending()
                if self._stopped:
                    break
                nxt = self.clock.next_deadline()
                timeout = None if nxt is None else max(0.0, nxt - self.clock.now())
                if timeout != 0.0 and not self._queue:
                    self._sleep(poller, timeout)
            self.run_pending()
        finally:
            gc.unfreeze()
            if main:
                signal.set_wakeup_fd(old_fd)

    def _sleep(self, poller: select.poll, timeout: float | None) -> None:
        """Wait for the wake-up pipe at most ``timeout`` seconds (None: until woken)."""
        poller.poll(None if timeout is None else max(1, int(timeout * 1000 + 0.999)))

    def _drain_wake(self) -> None:
        try:
            while os.read(self._wake_r, 512):
                pass
        except (BlockingIOError, InterruptedError):
            pass
        self._wake_pending = False  # from here, a new post writes a new byte

    def _need_virtual(self) -> VirtualClock:
        if not isinstance(self.clock, VirtualClock):
            raise RuntimeError("this needs a virtual clock")
        return self.clock
