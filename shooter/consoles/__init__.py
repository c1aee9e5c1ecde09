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

from .base import Console, ConsoleHost, ConsolePortError, Post, Sink
from .lines import EOL, read_lines
from .serial import SerialConsole
from .sinks import QueuedSink, encoder
from .stdio import StdioConsole, stream_sink
from .tcp import HTTP, TcpConsole, http_refusal

__all__ = ["EOL", "HTTP", "Console", "ConsoleHost", "ConsolePortError", "Post", "QueuedSink", "SerialConsole",
           "Sink", "StdioConsole", "TcpConsole", "encoder", "http_refusal", "read_lines", "stream_sink"]
