"""Events to every console: one broadcast the controller and the launcher both emit into.

While a command is being carried out its events are held back, so that a console sees the
command's one reply first and then the events it caused, in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hal import Clock

Event = dict[str, Any]
Sink = Callable[[Event], None]


def stamp(seconds: float) -> float:
    """An event's time ``t``: seconds to the microsecond. (``round(seconds, 6)`` rounds the decimal
    digits exactly but takes four times as long, on every event; the two differ only on a tie at
    half a microsecond, by one microsecond.)

        >>> stamp(0.65), stamp(1 / 3), stamp(2.0000004)
        (0.65, 0.333333, 2.0)
    """
    return round(seconds * 1e6) / 1e6


class Broadcast:
    """The consoles' sinks, and the events held back while a reply is pending."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._sinks: tuple[Sink, ...] = ()  # a new tuple on every change: sending needs no copy
        self._held: list[Event] | None = None

    def add(self, sink: Sink) -> None:
        self._sinks = (*self._sinks, sink)

    def remove(self, sink: Sink) -> None:
        if sink in self._sinks:
            sinks = list(self._sinks)
            sinks.remove(sink)
            self._sinks = tuple(sinks)

    def emit(self, name: str, **fields: Any) -> None:
        """An event to every console (held back while a command's reply is pending)."""
        event = {"event": name, "t": stamp(self._clock.now()), **fields}
        if self._held is not None:
            self._held.append(event)
        else:
            self._send(event)

    def emit_event(self, event: Event) -> None:
        """A rule's event (``{"event": name, **fields}``, as the table reports it) to every console,
        stamped with the time like :meth:`emit`."""
        stamped = {"event": event["event"], "t": stamp(self._clock.now())}
        stamped.update(event)
        if self._held is not None:
            self._held.append(stamped)
        else:
            self._send(stamped)

    @property
    def holding(self) -> bool:
        """A command's reply is pending: events are held back."""
        return self._held is not None

    def mark(self) -> int:
        """Where the next event would go among those held back (0 when none are held)."""
        return 0 if self._held is None else len(self._held)

    def emit_at(self, at: int, name: str, **fields: Any) -> None:
        """An event that goes ahead of the events held back since :meth:`mark` said ``at`` (a reply that
        every console gets: the camera's line, answered before the events it caused); at once if none are."""
        event = {"event": name, "t": stamp(self._clock.now()), **fields}
        if self._held is not None:
            self._held.insert(at, event)
        else:
            self._send(event)

    def hold(self) -> None:
        """Hold events back from now on (a command's reply is pending)."""
        self._held = []

    def release(self) -> None:
        """Stop holding events back and send those held, in order."""
        held, self._held = self._held, None
        for event in held or ():
            self._send(event)

    def _send(self, event: Event) -> None:
        for sink in self._sinks:
            sink(event)
