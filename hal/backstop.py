"""The motor's backstop: one thread on wall time that cuts the motor if a run outlasts its deadline,
whatever the control loop is doing (a stuck loop cannot stop the motor with its own timer).

It is started once and lives as long as the motor: arming it for a run only sets a deadline and wakes
the thread, so switching the motor on does not wait for a thread to be created (a
``threading.Timer`` per run did: about 90 µs on a laptop, several times that on a Pi Zero 2, on every
burst, before the motor pins were set). Only with a real clock: in virtual time nothing may run on
wall time (``hal.Hardware`` decides)::

    >>> import threading
    >>> from hal.backstop import Backstop
    >>> cut = threading.Event()
    >>> backstop = Backstop(cut.set)
    >>> backstop.arm(0.01)
    >>> cut.wait(5.0)
    True
    >>> backstop.close(); backstop.close()     # safe twice
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Backstop:
    """Calls ``cut()`` (on its own thread) once an armed deadline passes without a :meth:`disarm`."""

    def __init__(self, cut: Callable[[], object], *, name: str = "motor-backstop"):
        self._cut = cut
        self._wake = threading.Condition(threading.Lock())
        self._deadline: float | None = None   # time.monotonic() at which to cut; None: not armed
        self._closed = False
        self._thread = threading.Thread(target=self._watch, name=name, daemon=True)
        self._thread.start()

    def arm(self, seconds: float) -> None:
        """Cut ``seconds`` from now unless disarmed first (a new arm replaces the old deadline)."""
        with self._wake:
            self._deadline = time.monotonic() + seconds
            self._wake.notify()

    def disarm(self) -> None:
        """No cut (the run ended). The thread need not wake: at the old deadline it finds none."""
        with self._wake:
            self._deadline = None

    def close(self) -> None:
        """End the thread; safe twice. Nothing is cut after this."""
        with self._wake:
            self._closed = True
            self._deadline = None
            self._wake.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)

    def _watch(self) -> None:
        while True:
            with self._wake:
                while not self._closed:
                    if self._deadline is None:
                        self._wake.wait()
                        continue
                    left = self._deadline - time.monotonic()
                    if left <= 0:
                        self._deadline = None
                        break
                    self._wake.wait(left)
                else:
                    return
            # outside the lock: cut() takes the motor's lock, and the motor arms us holding it
            try:
                self._cut()
            except Exception:  # loud, but the thread lives on: the next run must still be watched
                log.exception("hal: the motor's backstop could not cut the motor")
