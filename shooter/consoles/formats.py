"""How a reply or an event becomes an output line: JSON, or the readable form for a person at a terminal
(:mod:`.terminal`, loaded only when asked for). Apart from the sinks, which the terminal's own console writes
through, so that neither imports the other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol import dumps


def encoder(fmt: str = "json") -> Callable[[dict[str, Any]], bytes]:
    """One output line for a reply or an event: JSON, or the readable form for a terminal
    (:mod:`shooter.consoles.terminal`; nothing at all for what it need not say twice)."""
    if fmt == "human":
        from .terminal import encode_human
        return encode_human()

    def encode(obj: dict[str, Any]) -> bytes:
        return (dumps(obj) + "\n").encode("utf-8")
    return encode
