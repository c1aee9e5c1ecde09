"""The web console's side of the controller: pairing by the button, seat names, and what
``status`` adds while the web console runs (the browser side is :mod:`shooter.web`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import beeps
from .errors import CommandError

if TYPE_CHECKING:
    from .controller import Controller


def pair_press(ctl: Controller) -> bool:
    """The button pairs the ONE browser waiting for it (not a player's press): beep, announce.

    Not while the table owes presses (those presses are served; the request keeps waiting); with
    several browsers waiting the press pairs nobody: a refusal beep, and every console is told.
    """
    if ctl.pairing is None or not ctl.pairing.waiting or presses_owed(ctl):
        return False
    waiting = ctl.pairing.waiting_count
    granted = ctl.pairing.button_pressed()
    if not granted:
        ctl.hw.beeper.play(beeps.PRESS_REFUSED)
        from .web.pairing import SEVERAL  # only with the web console on (shooter.web stays unimported)
        ctl.emit("pairing-refused", waiting=waiting, message=SEVERAL)
        return True
    ctl.hw.beeper.play(beeps.PAIRED)
    for token_id in granted:
        ctl.emit("paired", id=token_id)
    return True


def presses_owed(ctl: Controller) -> bool:
    """The table owes presses now (a hit, a penalty, the deal): the button serves them, never pairs."""
    due = ctl.table.due()
    reason = due[1] if due is not None else ctl.table.press_owner()[1]
    return reason != "draw"


def web_status(ctl: Controller) -> dict[str, Any]:
    """Status fields while the web console runs: names, what undo takes back, who is paired."""
    if ctl.pairing is None:
        return {}
    return {"names": {str(s): n for s, n in sorted(ctl.names.items())},
            "undoes": ctl.table.history[-1]["command"] if ctl.table.history else None,
            "pairing": ctl.pairing.status()}


def unpair(ctl: Controller, id: int) -> None:
    if ctl.pairing is None:
        raise CommandError("bad-argument", "the web console is off: no browser is paired")
    ctl.pairing.revoke(id)
    ctl.emit("unpaired", id=id)


def names(ctl: Controller, seats: list[str] | None = None) -> None:
    """Name the seats (forget them without ``seats=``); kept in the state directory like the game
    (:mod:`shooter.seat_names`): a failed write is announced, the names hold until a restart."""
    ctl.names = {i + 1: name for i, name in enumerate(seats or []) if name != "-"}
    ctl.emit("names", names={str(s): n for s, n in sorted(ctl.names.items())})
    saved = ctl.saved_names
    if saved is not None and saved.store is not None and (exc := saved.save(ctl.names)) is not None:
        ctl.emit("save-failed", path=str(saved.store.path), message=str(exc))
