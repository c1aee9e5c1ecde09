"""The web console's side of the controller: asking to pair and presenting a token (``pair``, ``auth``: the
socket that sent them is the handler's ``caller``), pairing by the box's gestures and by approval, seat names,
and what ``status`` adds while the web console runs (the browser side is :mod:`shooter.web`; the requests and
tokens :mod:`shooter.web.pairing`). The part they run on is :class:`Web`."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from .. import beeps
from ..errors import BadArgument, NotPaired
from ..vocabulary import EventName, PairingReason, Phase

if TYPE_CHECKING:
    from hal.interfaces import Beeper, Button, Lid

    from ..access import Caller
    from ..events import Broadcast
    from ..seat_names import SavedNames
    from ..table import Table
    from ..web.pairing import Grant, Pairing


class Web:
    """What the web console's commands and the box's pairing gestures reach: the pairing (None until the web
    console starts: :meth:`open`), the seat names and their file, the table (is a game on, what undo takes
    back), the button, lid and beeper, and the events."""

    def __init__(self, *, table: Table, events: Broadcast, beeper: Beeper, button: Button, lid: Lid,
                 saved_names: SavedNames | None = None, names: dict[int, str] | None = None) -> None:
        self.table = table
        self.events = events
        self.beeper = beeper
        self.button = button
        self.lid = lid
        self.saved_names = saved_names   # the names' file in the state directory (None: none is kept)
        self.names: dict[int, str] = dict(names or {})
        self.pairing: Pairing | None = None

    def open(self, pairing: Pairing) -> None:
        """The web console starts: from now on browsers ask to pair with ``pairing``."""
        self.pairing = pairing

    def emit(self, name: str, **fields: Any) -> None:
        self.events.emit(name, **fields)


def game_running(web: Web) -> bool:
    """A game is on (dealt, played or being scored): the button's short press is a player's, never a pairing."""
    return web.table.game is not None and web.table.phase != Phase.OVER


def pair_press(web: Web) -> bool:
    """A short press of the button pairs the ONE browser waiting, only while no game is running (then the
    press is nobody's and shoots nothing). During a game every press is served as it always is; the gesture
    is then the button held with the lid open (:func:`arm_pair_hold`) or an approval (:func:`pair_approve`)."""
    if web.pairing is None or not web.pairing.waiting or game_running(web):
        return False
    pair_by_box(web)
    return True


def arm_pair_hold(web: Web) -> None:
    """After a press was served or refused: while a browser waits and the lid is open (a press with the lid open
    is refused, it shoots nothing), holding the button on for ``HOLD`` s pairs. Never before the press is served:
    pairing neither takes nor delays a player's press."""
    assert web.pairing is not None
    if web.pairing.waiting and web.lid.is_open:
        from ..web.pairing import HOLD  # only with the web console on (shooter.web stays unimported)
        web.button.when_held(HOLD, partial(_held, web))


def _held(web: Web) -> None:
    """The button has been held ``HOLD`` s: it pairs if the lid is still open and a browser still waits."""
    if web.pairing is not None and web.pairing.waiting and web.lid.is_open:
        pair_by_box(web)


def pair_by_box(web: Web) -> None:
    """The box's gesture: the ONE browser waiting is paired (a beep, every console told); with several
    waiting nobody is: a refusal beep, each request refused, every console told."""
    assert web.pairing is not None
    waiting = web.pairing.waiting_count
    grant = web.pairing.button_pressed()
    if grant is None:
        web.beeper.play(beeps.PRESS_REFUSED)
        from ..web.pairing import SEVERAL
        web.emit(EventName.PAIRING_REFUSED, waiting=waiting, message=SEVERAL)
        return
    _granted(web, grant)


def _granted(web: Web, grant: Grant) -> None:
    """A beep, ``paired`` to every console, and each token evicted to make room is an unpair like ``unpair``."""
    web.beeper.play(beeps.PAIRED)
    web.emit(EventName.PAIRED, id=grant.id, request=grant.request)
    for token_id in grant.evicted:
        web.emit(EventName.UNPAIRED, id=token_id, reason=PairingReason.EVICTED)


def _pairing(web: Web) -> Pairing:
    if web.pairing is None:
        raise BadArgument("the web console is off: no browser is paired")
    return web.pairing


def device_name(key: str, text: str) -> str:
    """``pair name=...``: the name a person typed for the asking device, as typed (case kept), shortened."""
    from ..web.pairing import device_name  # only with the web console on (shooter.web stays unimported)
    return device_name(text)


def pair(web: Web, name: str | None = None, *, caller: Caller) -> dict[str, Any]:
    """``pair [name=...]``: a request of the asking socket (limited per address); every console is told who
    asks. Granted, the socket holds the token (:meth:`~shooter.access.Caller.holds`) before it is told."""
    from ..web.pairing import HOLD, WINDOW
    pairing = _pairing(web)
    req = pairing.request(caller, address=caller.address, device=caller.device, name=name, on_grant=caller.holds)
    # the people at the table see that someone asked (and who) before anyone says yes
    web.events.emit_event({"event": EventName.PAIR_WAITING, "label": req.label, "device": req.device, "name": req.name,
                           "request": req.number, "waiting": pairing.waiting_count})
    return {"seconds": WINDOW, "request": req.number, "hold": HOLD}


def auth(web: Web, token: str, *, caller: Caller) -> dict[str, Any]:
    """``auth token=T``: the asking socket holds the token it presents, if it is paired."""
    token_id = _pairing(web).check(token)
    if token_id is None:
        raise NotPaired("this token is unknown or was revoked; pair again")
    caller.holds(token_id)
    return {"id": token_id}


def pair_approve(web: Web, request: int) -> dict[str, Any]:
    """A paired phone (or a console of the table's own) grants the request it names; the others keep waiting."""
    grant = _pairing(web).approve(request)
    _granted(web, grant)
    return {"request": request, "id": grant.id}


def pair_refuse(web: Web, request: int) -> dict[str, Any]:
    """A paired phone (or a console of the table's own) turns the request it names down."""
    pairing = _pairing(web)
    pairing.refuse(request)
    from ..web.pairing import REFUSED
    web.emit(EventName.PAIRING_REFUSED, request=request, waiting=pairing.waiting_count, message=REFUSED)
    return {"request": request}


def web_status(web: Web) -> dict[str, Any]:
    """Status fields while the web console runs: names, what undo takes back, who is paired."""
    if web.pairing is None:
        return {}
    return {"names": {str(s): n for s, n in sorted(web.names.items())},
            "undoes": web.table.history[-1]["command"] if web.table.history else None,
            "pairing": web.pairing.status()}


def unpair(web: Web, id: int) -> None:
    _pairing(web).revoke(id)
    web.emit(EventName.UNPAIRED, id=id)


def names(web: Web, seats: list[str] | None = None) -> None:
    """Name the seats (forget them without ``seats=``); kept in the state directory like the game
    (:mod:`shooter.seat_names`): a failed write is announced, the names hold until a restart."""
    web.names = {i + 1: name for i, name in enumerate(seats or []) if name != "-"}
    web.emit(EventName.NAMES, names={str(s): n for s, n in sorted(web.names.items())})
    saved = web.saved_names
    if saved is not None and saved.store is not None and (exc := saved.save(web.names)) is not None:
        web.emit(EventName.SAVE_FAILED, path=str(saved.store.path), message=str(exc))
