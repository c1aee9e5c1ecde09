"""The seat names (``names seats=Ann,Bob,-,Dirk``) kept in the state directory, so that a restart or a
pulled plug does not turn Ann back into "seat 1" in the middle of a game.

They have a file of their own, ``seat-names.json`` next to the game's ``game.json``, written atomically by
the same :class:`~shooter.persist.Store` (temporary file, fsync, rename, directory fsync) when ``names``
changes them, and read back at start. Not inside the game's file: the names change only by ``names``
(never by a game command; ``game new`` keeps them: the same people sit at the table), so the game's file,
its format and its save after every command stay as they were, a state directory without this file (an
older one) starts with no names, and a bad names file costs the names, never the game.

Format::

    {"format": "uno-shooter/seat-names", "version": 1, "names": {"1": "Ann", "2": "Bob", "4": "Dirk"}}

Reading checks every field and raises :class:`StateFileError` naming it; at start such a file is kept
aside (``seat-names.json.bad-*``, like a bad game file) and the controller starts with no names.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import StateFileError
from .persist import Store
from .table.args import MAX_SEATS
from .table.persist import check_envelope

NAMES_FILE = "seat-names.json"
FORMAT = "uno-shooter/seat-names"
VERSION = 1
KEYS = {"format", "version", "names"}
MAX_LENGTH = 16     # names seats= takes up to MAX_SEATS names of 1 to this many characters


def is_seat_name(text: object) -> bool:
    """One seat's name as ``names seats=`` takes it: 1-16 printable characters, no comma, no space around."""
    return (isinstance(text, str) and 0 < len(text) <= MAX_LENGTH and text.isprintable()
            and text == text.strip() and "," not in text)


def names_to_dict(names: dict[int, str]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "names": {str(s): n for s, n in sorted(names.items())}}


def names_from_dict(data: object) -> dict[int, str]:
    """Seat -> name from :func:`names_to_dict` data; raises StateFileError naming what is wrong."""
    data = check_envelope(data, fmt=FORMAT, version=VERSION, keys=KEYS, what="Saved seat names")
    if not isinstance(data["names"], dict):
        raise StateFileError("Saved seat names: names must be an object of seat number -> name.")
    names = {}
    for seat, name in data["names"].items():
        if seat not in {str(n) for n in range(1, MAX_SEATS + 1)}:
            raise StateFileError(f"Saved seat names: names.{seat[:20]!r}: the key must be a seat, 1..{MAX_SEATS}.")
        if not is_seat_name(name) or name == "-":
            raise StateFileError(f"Saved seat names: names.{seat}: must be a name of 1-{MAX_LENGTH} printable "
                                 f"characters without a comma (not '-'), not {str(name)[:40]!r}.")
        names[int(seat)] = name
    return names


class SavedNames:
    """The seat names' file, written only when the names changed since the last successful write."""

    def __init__(self, store: Store | None, names: dict[int, str]) -> None:
        self.store = store              # None: kept in memory only (no state directory, or it cannot be written)
        self._saved = dict(names)

    @classmethod
    def restore(cls, state_dir: Path | None, *, writable: bool, log: Callable[[str], None]) -> tuple[
            SavedNames, dict[int, str]]:
        """The file in ``state_dir`` and the names saved in it (none if there is no file). A file that cannot
        be read is kept aside (said in the log) and the names start empty; ``writable`` False (the game is held
        in memory only): the names are read but never written."""
        if state_dir is None:
            return cls(None, {}), {}
        store = Store(state_dir, NAMES_FILE)
        names = store.load_or_set_aside(names_from_dict, log=log, fresh="started without seat names") or {}
        return cls(store if writable else None, names), names

    def save(self, names: dict[int, str]) -> OSError | None:
        """Write ``names`` if they changed; the error if the write failed (the next ``names`` tries again)."""
        if self.store is None or names == self._saved:
            return None
        try:
            self.store.save(names_to_dict(names))
        except OSError as exc:
            return exc
        self._saved = dict(names)
        return None
