"""Consoles: one protocol over many transports, one module per transport behind one small
console interface (:class:`~.base.Console`).

A console reads lines on its own thread and only *posts* them to the control
loop; replies and events come back through a sink the controller calls on the
loop's thread. Transports: standard input/output (:mod:`.stdio`), TCP on loopback
(:mod:`.tcp`), and pyserial ports (:mod:`.serial`: Bluetooth ``/dev/rfcomm0``, USB
gadget ``/dev/ttyGS0``, the UART), which are reopened when the link comes back.
What they share: the line rules (:mod:`.lines`) and the sinks (:mod:`.sinks`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .base import Console, ConsoleHost, ConsolePortError, Post, Sink
from .formats import encoder
from .lines import EOL, read_lines
from .sinks import QueuedSink

if TYPE_CHECKING:
    from .serial import SerialConsole
    from .stdio import StdioConsole, stream_sink
    from .tcp import HTTP, TcpConsole, http_refusal

# Each transport's module loads when one of its names is first asked for, so that a start-up loads the
# consoles it runs and no other (``uno-shooter run --console stdio`` never loads the TCP or serial console).
TRANSPORTS = {"StdioConsole": "stdio", "stream_sink": "stdio", "SerialConsole": "serial",
              "TcpConsole": "tcp", "HTTP": "tcp", "http_refusal": "tcp"}


def __getattr__(name: str) -> Any:
    module = TRANSPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)

__all__ = ["EOL", "HTTP", "Console", "ConsoleHost", "ConsolePortError", "Post", "QueuedSink", "SerialConsole",
           "Sink", "StdioConsole", "TcpConsole", "encoder", "http_refusal", "read_lines", "stream_sink"]
