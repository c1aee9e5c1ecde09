"""Commands as a table of callables: a :class:`~shooter.protocol.Spec` (the command's shape and who may run
it) and its :class:`Handler`: the function that carries it out and the part of the controller it runs on (the
table's desk, bring-up, the web console's side, the simulator, or the controller itself), which it is called
with first, then the line's arguments, options and flags (and, if its Spec asks, ``caller=``). A handler gets
the part it needs, never the whole controller. Nothing is looked up by a name built at run time."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, overload

from ..access import Access, Caller, may, refusal
from ..errors import BadArgument, CommandError, UnknownCommand
from ..protocol import Line, Spec

Reply = dict[str, Any]                    # a reply's fields (besides "reply" and "ok")


class Handler(NamedTuple):  # a NamedTuple, not a dataclass: a fifth of the time to make at start-up
    """What carries a command out: ``run(part, *arguments, **options and flags)`` -> the reply's fields or None,
    where ``part`` is the controller's part of class ``part`` (None where it has none: no simulator)."""

    part: type
    run: Callable[..., Reply | None]


Command = tuple[Spec, Handler]
Parts = Mapping[type, object]             # the controller's parts by their class


class CommandTable(Sequence[Command]):
    """The commands in their order (``help`` lists them so), each family (the commands that share a first
    word: ``penalty advice``, ``penalty wrong-card``) indexed by that word when the table is built, so that a
    line is looked up among its own family only, not the whole table."""

    def __init__(self, commands: Iterable[Command]):
        self._commands = tuple(commands)
        families: dict[str, list[Command]] = {}
        for command in self._commands:
            families.setdefault(command[0].words[0], []).append(command)
        self._families = {word: tuple(family) for word, family in families.items()}

    def family(self, word: str) -> tuple[Command, ...]:
        """The commands whose first word is ``word``, in the table's order (none: an unknown word)."""
        return self._families.get(word, ())

    def __len__(self) -> int:
        return len(self._commands)

    @overload
    def __getitem__(self, index: int) -> Command: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Command, ...]: ...
    def __getitem__(self, index: int | slice) -> Command | tuple[Command, ...]:
        return self._commands[index]


def find(commands: CommandTable, line: Line) -> Command:
    """The command a line names (its longest matching leading words), among those of its first word."""
    family = commands.family(line.name)
    best = None
    for spec, handler in family:
        n = len(spec.words)
        if tuple(line.words[:n]) == spec.words and (best is None or n > len(best[0].words)):
            best = (spec, handler)
    if best is None:
        if family:
            raise BadArgument(f"usage: {' | '.join(spec.usage for spec, _ in family)}")
        raise UnknownCommand(f"unknown command {line.name!r}; try help")
    return best


def run(parts: Parts, commands: CommandTable, line: Line, caller: Caller,
        valid: Callable[[int | None], bool]) -> Reply | None:
    """Carry ``line`` out for ``caller``: the command it names, if its Spec lets this caller run it, with the
    line's values. A refused line never reaches its handler and so changes nothing; a caller who may only watch
    learns nothing more of a line the table does not know (``not-paired``, as for a command it may not run)."""
    try:
        spec, handler = find(commands, line)
    except CommandError:
        if not may(Access.PAIRED, caller, valid):
            raise refusal(line.name, Access.PAIRED) from None
        raise
    if not may(spec.access, caller, valid):
        raise refusal(" ".join(spec.words), spec.access)
    args, options, flags = spec.bind(line)
    if spec.caller:
        options["caller"] = caller
    return handler.run(parts[handler.part], *args, **options, **{f: True for f in flags})
