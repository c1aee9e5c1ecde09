"""The web console's side of the controller: asking to pair and presenting a token (``pair``, ``auth``: the
socket that sent them is the handler's ``caller``), pairing by the box's gestures and by approval, seat names,
and what ``status`` adds while the web console runs (the browser side is :mod:`shooter.web`; the requests and
tokens :mod:`shooter.web.pairing`)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from . import beeps
from .errors import CommandError

if TYPE_CHECKING:
    from .access import Caller
    from .controller import Controller
    from .web.pairing import Grant, Pairing


def game_running(ctl: Controller) -> bool:
    """A game is on (dealt, played or being scored): the button's short press is a player's, never a pairing."""
    return ctl.table.game is not None and ctl.table.phase != "over"


def pair_press(ctl: Controller) -> bool:
    """A short press of the button pairs the ONE browser waiting, only while no game is running (then the
    press is nobody's and shoots nothing). During a game every press is served as it always is; the gesture
    is then the button held with the lid open (:func:`arm_pair_hold`) or an approval (:func:`pair_approve`)."""
    if ctl.pairing is None or not ctl.pairing.waiting or game_running(ctl):
        return False
    pair_by_box(ctl)
    return True


def arm_pair_hold(ctl: Controller) -> None:
    """After a press was served or refused: while a browser waits and the lid is open (a press with the lid open
    is refused, it shoots nothing), holding the button on for ``HOLD`` s pairs. Never before the press is served:
    pairing neither takes nor delays a player's press."""
    assert ctl.pairing is not None
    if ctl.pairing.waiting and ctl.hw.lid.is_open:
        from .web.pairing import HOLD  # only with the web console on (shooter.web stays unimported)
        ctl.hw.button.when_held(HOLD, partial(_held, ctl))


def _held(ctl: Controller) -> None:
    """The button has been held ``HOLD`` s: it pairs if the lid is still open and a browser still waits."""
    if ctl.pairing is not None and ctl.pairing.waiting and ctl.hw.lid.is_open:
        pair_by_box(ctl)


def pair_by_box(ctl: Controller) -> None:
    """The box's gesture: the ONE browser waiting is paired (a beep, every console told); with several
    waiting nobody is: a refusal beep, each request refused, every console told."""
    assert ctl.pairing is not None
    waiting = ctl.pairing.waiting_count
    grant = ctl.pairing.button_pressed()
    if grant is None:
        ctl.hw.beeper.play(beeps.PRESS_REFUSED)
        from .web.pairing import SEVERAL
        ctl.emit("pairing-refused", waiting=waiting, message=SEVERAL)
        return
    _granted(ctl, grant)


def _granted(ctl: Controller, grant: Grant) -> None:
    """A beep, ``paired`` to every console, and each token evicted to make room is an unpair like ``unpair``."""
    ctl.hw.beeper.play(beeps.PAIRED)
    ctl.emit("paired", id=grant.id, request=grant.request)
    for token_id in grant.evicted:
        ctl.emit("unpaired", id=token_id, reason="evicted")


def _pairing(ctl: Controller) -> Pairing:
    if ctl.pairing is None:
        raise CommandError("bad-argument", "the web console is off: no browser is paired")
    return ctl.pairing


def device_name(key: str, text: str) -> str:
    """``pair name=...``: the name a person typed for the asking device, as typed (case kept), shortened."""
    from .web.pairing import device_name  # only with the web console on (shooter.web stays unimported)
    return device_name(text)


def pair(ctl: Controller, name: str | None = None, *, caller: Caller) -> dict[str, Any]:
    """``pair [name=...]``: a request of the asking socket (limited per address); every console is told who
    asks. Granted, the socket holds the token (:meth:`~shooter.access.Caller.holds`) before it is told."""
    from .web.pairing import HOLD, WINDOW
    pairing = _pairing(ctl)
    req = pairing.request(caller, address=caller.address, device=caller.device, name=name, on_grant=caller.holds)
    # the people at the table see that someone asked (and who) before anyone says yes
    ctl.events.emit_event({"event": "pair-waiting", "label": req.label, "device": req.device, "name": req.name,
                           "request": req.number, "waiting": pairing.waiting_count})
    return {"seconds": WINDOW, "request": req.number, "hold": HOLD}


def auth(ctl: Controller, token: str, *, caller: Caller) -> dict[str, Any]:
    """``auth token=T``: the asking socket holds the token it presents, if it is paired."""
    token_id = _pairing(ctl).check(token)
    if token_id is None:
        raise CommandError("not-paired", "this token is unknown or was revoked; pair again")
    caller.holds(token_id)
    return {"id": token_id}


def pair_approve(ctl: Controller, request: int) -> dict[str, Any]:
    """A paired phone (or a console of the table's own) grants the request it names; the others keep waiting."""
    grant = _pairing(ctl).approve(request)
    _granted(ctl, grant)
    return {"request": request, "id": grant.id}


def pair_refuse(ctl: Controller, request: int) -> dict[str, Any]:
    """A paired phone (or a console of the table's own) turns the request it names down."""
    pairing = _pairing(ctl)
    pairing.refuse(request)
    from .web.pairing import REFUSED
    ctl.emit("pairing-refused", request=request, waiting=pairing.waiting_count, message=REFUSED)
    return {"request": request}


def web_status(ctl: Controller) -> dict[str, Any]:
    """Status fields while the web console runs: names, what undo takes back, who is paired."""
    if ctl.pairing is None:
        return {}
    return {"names": {str(s): n for s, n in sorted(ctl.names.items())},
            "undoes": ctl.table.history[-1]["command"] if ctl.table.history else None,
            "pairing": ctl.pairing.status()}


def unpair(ctl: Controller, id: int) -> None:
    _pairing(ctl).revoke(id)
    ctl.emit("unpaired", id=id)


def names(ctl: Controller, seats: list[str] | None = None) -> None:
    """Name the seats (forget them without ``seats=``); kept in the state directory like the game
    (:mod:`shooter.seat_names`): a failed write is announced, the names hold until a restart."""
    ctl.names = {i + 1: name for i, name in enumerate(seats or []) if name != "-"}
    ctl.emit("names", names={str(s): n for s, n in sorted(ctl.names.items())})
    saved = ctl.saved_names
    if saved is not None and saved.store is not None and (exc := saved.save(ctl.names)) is not None:
        ctl.emit("save-failed", path=str(saved.store.path), message=str(exc))
