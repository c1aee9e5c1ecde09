"""Commands as a table of callables: a :class:`~shooter.protocol.Spec` (the command's shape)
and the function that carries it out, called with the controller first, then the line's
arguments, options and flags. Nothing is looked up by a name built at run time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import CommandError
from .protocol import Line, Spec

Reply = dict[str, Any]                    # a reply's fields (besides "reply" and "ok")
Handler = Callable[..., Reply | None]     # (controller, *arguments, **options and flags) -> fields or None
Command = tuple[Spec, Handler]


def find(commands: Sequence[Command], line: Line) -> Command:
    """The command a line names (its longest matching leading words)."""
    best = None
    for spec, handler in commands:
        n = len(spec.words)
        if tuple(line.words[:n]) == spec.words and (best is None or n > len(best[0].words)):
            best = (spec, handler)
    if best is None:
        family = [s.usage for s, _ in commands if s.words[0] == line.name]
        if family:
            raise CommandError("bad-argument", f"usage: {' | '.join(family)}")
        raise CommandError("unknown-command", f"unknown command {line.name!r}; try help")
    return best
