"""The web console's side of the controller: pairing by the button, seat names, and what
``status`` adds while the web console runs (the browser side is :mod:`shooter.web`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import beeps
from .errors import CommandError

if TYPE_CHECKING:
    from .controller import Controller


def pair_press(ctl: Controller) -> bool:
    """The button pairs the browsers waiting for it (not a player's press): beep, announce."""
    if ctl.pairing is None or not ctl.pairing.waiting:
        return False
    ctl.hw.beeper.play(beeps.PAIRED)
    for token_id in ctl.pairing.button_pressed():
        ctl.emit("paired", id=token_id)
    return True


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
    ctl.names = {i + 1: name for i, name in enumerate(seats or []) if name != "-"}
    ctl.emit("names", names={str(s): n for s, n in sorted(ctl.names.items())})
