"""What every console shares: the sink it answers through, what it needs of the controller,
the one small interface a transport offers (:class:`Console`), and the error for a port that
cannot be used. Each console says what it is with every line it posts (a
:class:`~shooter.access.Caller` of its :class:`~shooter.access.Link`): the command table decides
what that kind of console may run, never the console."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from hal import Clock

from ..access import Caller

Sink = Callable[[dict[str, Any]], None]
Post = Callable[[Callable[[], None]], object]   # the control loop's post: run this on the loop


class ConsoleHost(Protocol):
    """What a console needs of the controller (on the loop's thread only, through ``post``)."""

    clock: Clock

    def add_sink(self, sink: Sink) -> None: ...

    def remove_sink(self, sink: Sink) -> None: ...

    def handle_line(self, raw: bytes | str, respond: Sink, caller: Caller) -> None: ...


class Console(Protocol):
    """A transport's console: reads lines on its own thread, posts them to the loop; ``close`` stops it."""

    def close(self) -> None: ...


class ConsolePortError(OSError):
    """A console's port cannot be used (in use, not allowed); the message names it."""
