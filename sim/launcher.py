"""The card path: a magazine of cards, a friction roller and the exit slot.

Event-driven in virtual time: on every change of the motor pins the model
integrates where the cards are, then schedules the next thing that will happen
(the roller gripping, a card reaching the beam, a card leaving). Nothing is
stepped in tiny fixed increments.

Where a card can be: in the magazine (the top one possibly part-fed into the
throat), in the exit beam (passing), stuck half out (the roller stopped while it
was passing), jammed in the beam, or out on the table. Every card is always in
exactly one place: ``loaded == magazine + in_beam + out + forgotten``. Anonymous cards
wait in the magazine as a count until they come out (:mod:`sim.magazine`).

The table remembers the last :attr:`Launcher.out_limit` cards lying on it one by one
(``out``, oldest first); older ones are only counted (``forgotten``), so a day-long
session that never takes its cards off the table does not grow with every card.
Players pick cards up with :meth:`Launcher.take` (the oldest first) or sweep the
table with :meth:`Launcher.take_out`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from hal.clock import Clock, Timer

from .cards import TableCard
from .magazine import Magazine
from .params import SimParams


class Launcher:
    """Magazine, roller and exit slot of the simulated shooter."""

    #: how many of the cards lying on the table are remembered one by one (None: all of them)
    out_limit: int | None = 1000

    def __init__(self, clock: Clock, params: SimParams, on_beam: Callable[[bool], None]):
        self._clock = clock
        self._p = params
        self._on_beam = on_beam       # beam broken (True) or whole again (False)
        self.magazine = Magazine()    # the top card (next out) is the last one
        self.out: deque[TableCard] = deque()   # cards that left the shooter and lie on the table, oldest first
        self.forgotten = 0            # cards lying on the table beyond ``out_limit``: counted, not kept
        self.loaded = 0               # cards put in and not taken off the table since
        self.feed = 0.0               # top card's progress into the throat, 0..1
        self.in_beam: TableCard | None = None
        self.pass_progress = 0.0      # in_beam card's progress through the beam, 0..1
        self.stuck = False            # in_beam card is half out and the roller let go of it
        self.jammed = False           # in_beam card is wedged: nothing moves until the lid opens
        self.jam_next = False         # armed by ``sim jam``: the next card to reach the beam wedges
        self.speed = 0.0              # motor command: + forward, - backward, fraction of full
        self._grips_at: float | None = None
        self._updated = clock.now()
        self._timer: Timer | None = None
        self._take_timer: Timer | None = None

    # ---- the outside world ----
    def load(self, cards: int | Iterable[TableCard]) -> None:
        """Put cards in the magazine, under those already there: ``n`` anonymous cards or these cards
        (the first of them comes out first)."""
        if isinstance(cards, int):
            self.magazine.add_anonymous(cards)   # made one by one as they come out (sim.magazine)
            self.loaded += cards
        else:
            for card in cards:
                self.loaded += 1
                self.magazine.appendleft(card)
        self._reschedule()

    def set_motor(self, speed: float) -> None:
        """The H-bridge changed: ``speed`` in [-1, 1] (0 = off or braked)."""
        self._integrate()
        if speed == self.speed:
            return
        if speed == 0.0 or self.speed == 0.0 or (speed > 0) != (self.speed > 0):
            self._grips_at = None if speed == 0.0 else self._clock.now() + self._p.spin_up
        self.speed = speed
        if speed <= 0.0 and self.in_beam is not None and not self.jammed:
            self._leave_stuck()
        elif speed > 0.0 and self._take_timer is not None and self.stuck:
            pass  # the roller may still push it out once it grips again
        self._reschedule()

    def clear_jam(self) -> None:
        """The lid was opened: a wedged card drops back onto the magazine."""
        self._integrate()
        if self.jammed and self.in_beam is not None:
            self.magazine.append(self.in_beam)
            self.in_beam = None
            self.jammed = False
            self.pass_progress = 0.0
            self._on_beam(False)
        self._reschedule()

    def unload(self) -> list[TableCard]:
        """Take every card out of the magazine (the lid is open): the top card first."""
        cards = list(reversed(self.magazine))
        self.magazine.clear()
        self.feed = 0.0
        self.loaded -= len(cards)
        return cards

    def take(self, n: int) -> list[TableCard]:
        """A player picks up the ``n`` oldest cards lying on the table (fewer if fewer lie there);
        they leave the count."""
        out = self.out
        cards = [out.popleft() for _ in range(min(n, len(out)))]
        self.loaded -= len(cards)
        return cards

    def take_out(self) -> list[TableCard]:
        """Every card lying on the table, taken off it (into hands); they leave the count. Returns
        the remembered ones (all of them unless more than ``out_limit`` lay there)."""
        cards = list(self.out)
        self.out.clear()
        self.loaded -= len(cards) + self.forgotten
        self.forgotten = 0
        return cards

    @property
    def on_table(self) -> int:
        """Cards that came out and lie on the table (remembered or only counted)."""
        return len(self.out) + self.forgotten

    # ---- the model ----
    def _gripping(self, at: float) -> bool:
        return self._grips_at is not None and at >= self._grips_at

    def _integrate(self) -> None:
        """Move the cards from the last update until now at the current speed."""
        now = self._clock.now()
        start = max(self._updated, self._grips_at if self._grips_at is not None else now)
        self._updated = now
        if self.speed == 0.0 or self.jammed or not self._gripping(now) or now <= start:
            return
        dt = now - start
        if self.speed > 0:
            if self.magazine:
                self.feed = min(1.0, self.feed + dt * self.speed / self._p.feed_time)
            if self.in_beam is not None:
                self.pass_progress = min(1.0, self.pass_progress + dt * self.speed / self._p.pass_time)
        else:
            self.feed = max(0.0, self.feed + dt * self.speed / self._p.feed_time)

    def _reschedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = self._clock.now()
        if self.speed == 0.0 or self.jammed:
            return
        if not self._gripping(now):
            assert self._grips_at is not None   # the motor runs (speed != 0): it grips at a time
            self._timer = self._clock.call_at(self._grips_at, self._step, name="roller-grip")
            return
        times = []
        if self.speed > 0:
            if self.in_beam is not None:
                times.append((1.0 - self.pass_progress) * self._p.pass_time / self.speed)
            if self.magazine and self.in_beam is None:
                times.append((1.0 - self.feed) * self._p.feed_time / self.speed)
            elif self.magazine and self.feed < 1.0:
                # the next card feeds meanwhile, but may enter the beam only once it is clear
                times.append((1.0 - self.feed) * self._p.feed_time / self.speed)
        elif self.feed > 0.0:
            times.append(self.feed * self._p.feed_time / -self.speed)
        if times:
            self._timer = self._clock.call_at(now + max(0.0, min(times)), self._step, name="roller")

    def _step(self) -> None:
        self._timer = None
        self._integrate()
        eps = 1e-9
        if self.in_beam is not None and self.pass_progress >= 1.0 - eps and self.speed > 0:
            self._card_out()
        if self.in_beam is None and self.magazine and self.feed >= 1.0 - eps and self.speed > 0:
            self._card_into_beam()
        if self.feed <= eps:
            self.feed = 0.0
        self._reschedule()

    def _card_into_beam(self) -> None:
        self.in_beam = self.magazine.pop()
        self.feed = 0.0
        self.pass_progress = 0.0
        self.stuck = False
        if self.jam_next:
            self.jam_next = False
            self.jammed = True
        self._on_beam(True)

    def _card_out(self) -> None:
        assert self.in_beam is not None
        self.out.append(self.in_beam)
        if self.out_limit is not None and len(self.out) > self.out_limit:
            self.out.popleft()        # still on the table, no longer remembered which card it is
            self.forgotten += 1
        self.in_beam = None
        self.pass_progress = 0.0
        self.stuck = False
        if self._take_timer is not None:
            self._take_timer.cancel()
            self._take_timer = None
        self._on_beam(False)

    def _leave_stuck(self) -> None:
        """The roller let go of a card in the beam: it sticks out; a player pulls it soon."""
        self.stuck = True
        if self._take_timer is None:
            self._take_timer = self._clock.call_later(self._p.take_delay, self._take_stuck,
                                                      name="take-stuck-card")

    def _take_stuck(self) -> None:
        self._take_timer = None
        self._integrate()
        if self.in_beam is not None and self.stuck and not self.jammed:
            self._card_out()

    # ---- accounting ----
    @property
    def in_shooter(self) -> int:
        return len(self.magazine) + (1 if self.in_beam is not None else 0)

    def accounted(self) -> bool:
        """Every card loaded and not taken is in exactly one place (the forgotten ones counted)."""
        places = self.magazine.made() + list(self.out) + ([self.in_beam] if self.in_beam is not None else [])
        counted = len(places) + self.magazine.unmade + self.forgotten
        return counted == self.loaded and len({id(c) for c in places}) == len(places)
