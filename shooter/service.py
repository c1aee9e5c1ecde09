"""systemd integration without a dependency: sd_notify over $NOTIFY_SOCKET."""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``READY=1``) to systemd; False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode("utf-8"))
    return True


def watchdog_interval() -> float | None:
    """Half the watchdog period systemd asked for, in seconds, or None."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2e6
    except ValueError:
        return None
