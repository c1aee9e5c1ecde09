"""Who may run what: the kinds of console (:class:`Link`), the access each command declares in its
:class:`~shooter.protocol.Spec` (:class:`Access`), and the one rule that joins them (:func:`refusal`).

The consoles of the table's own (standard input/output, a serial port, TCP on loopback, code in the
controller's own process: the simulator, the benchmarks, and the camera over the discard pile) are reached
only by someone at the table, so they may do everything. The web console lets anyone on the network watch;
acting needs a paired socket (the token a person at the table said yes to, :mod:`shooter.web.pairing`). A
console never keeps its own list of commands: it says what it is (its :class:`Caller`) and the dispatcher asks
the command's Spec.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from .errors import BadArgument, CommandError, NotPaired


class Access(StrEnum):
    """Who may run a command (declared by every command of the table)."""

    WATCH = "watch"     # anyone watching: reads the state and changes nothing (status, help, version)
    ASK = "ask"         # anyone on the web console, to become paired (pair, auth): a table's console needs none
    PAIRED = "paired"   # a paired phone or a console of the table's own: the game and the shooter
    TABLE = "table"     # a console of the table's own only: the box's stand-ins (sim) and bring-up (calibrate)


class Link(StrEnum):
    """What a console is."""

    STDIO = "stdio"
    SERIAL = "serial"     # Bluetooth, the USB gadget, the UART
    TCP = "tcp"           # on loopback only: someone logged in on the Pi
    PROCESS = "process"   # code in the controller's own process (the simulator, the benchmarks, tests)
    CAMERA = "camera"     # the camera over the discard pile (shooter.camera.pile_reports): it plays what it saw
    WEB = "web"           # a WebSocket: anyone who can reach the page


# the camera is the table's own: it is fitted to the shooter and reports only what lies on the table's pile
OWN_LINKS = frozenset({Link.STDIO, Link.SERIAL, Link.TCP, Link.PROCESS, Link.CAMERA})

NOT_PAIRED = ("this browser may only watch: pair it (press the shooter's button when asked) "
              "to send commands")


class Caller:
    """Who sent a line: the kind of console and, on the web console, the token its socket holds (set by the
    ``auth`` and ``pair`` handlers, dropped when the token is revoked). One per console connection; the web
    console's sockets are callers themselves (:class:`shooter.web.server.Socket`)."""

    def __init__(self, link: Link, *, address: str = "", device: str = "") -> None:
        self.link = link
        self.address = address   # the client's address (web): pairing requests are limited per address
        self.device = device     # the kind of device in words (web), never its raw User-Agent
        self.token_id: int | None = None

    @property
    def own(self) -> bool:
        """A console of the table's own."""
        return self.link in OWN_LINKS

    def holds(self, token_id: int | None) -> None:
        """This console now holds paired token ``token_id`` (None: none any more)."""
        self.token_id = token_id

    def __call__(self, news: dict[str, Any]) -> None:
        """News for this console alone (its pairing request's end). A console of the table's own asks for
        nothing, so it gets none; a web socket sends it to its browser."""


IN_PROCESS = Caller(Link.PROCESS)   # the default of Controller.handle_line: holds no token, needs none


def may(access: Access, caller: Caller, valid: Callable[[int | None], bool]) -> bool:
    """Whether ``caller`` may run a command declaring ``access``; ``valid`` says whether a token id is still
    paired (a revoked token pairs nobody, whatever the socket was told)."""
    if access is Access.WATCH:
        return True
    if access is Access.ASK:
        return not caller.own
    if caller.own:
        return True
    return access is Access.PAIRED and valid(caller.token_id)


def refusal(words: str, access: Access) -> CommandError:
    """The one-line answer to a command its caller may not run (:func:`may` said no): the command's ``access``
    says which caller that was (a console of the table's own for ``ASK``, the web console for the others)."""
    if access is Access.ASK:
        return BadArgument(f"{words} is the web console's: a console of the table's own "
                                            f"needs no pairing")
    if access is Access.TABLE:
        return NotPaired(f"{words} is for a console of the table's own (stdio, serial, TCP on "
                                          f"loopback), not the web console")
    return NotPaired(NOT_PAIRED)
