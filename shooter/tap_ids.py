"""The ids a person taps, never given twice, across restarts too: a read of the camera that waits for a tap
(``seen confirm id=N``) and a browser's pairing request (``pair approve request=R``). A phone whose page still
shows read 1 of the last run must not confirm whatever read 1 is now: a tap for an id that is gone is refused
with ``gone`` (:class:`~shooter.errors.Gone`), one never given with ``bad-argument``. (The paired browsers' ids
are kept in their own file, ``web-tokens.json``, with the tokens.)

The next id of each kind is kept in ``tap-ids.json`` in the state directory, written by the same
:class:`~shooter.persist.Store` as the game (temporary file, fsync, rename) each time an id is given, before the
event or reply that shows it. Format::

    {"format": "uno-shooter/tap-ids", "version": 1, "next": {"read": 18, "request": 3}}

Reading checks every field (:func:`ids_from_dict`); at start a bad file is kept aside (one log line, like a bad
game file). Where the ids given before cannot be known (a bad file; no file beside the paired browsers of a
controller before this file: a phone of theirs may still show an id), ids start at the wall clock's
milliseconds: more than any run gave before, as no run gives a thousand ids a second. Otherwise a missing file
starts at 1 (no phone was ever paired here: pairing asks for a request id, which writes the file).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import StateFileError
from .persist import Store
from .table.persist import check_envelope

IDS_FILE = "tap-ids.json"
FORMAT = "uno-shooter/tap-ids"
VERSION = 1
KEYS = {"format", "version", "next"}
READ, REQUEST = "read", "request"
KINDS = (READ, REQUEST)
MAX_ID = 2 ** 53                        # an id a browser's JSON (a double) still holds exactly
TOKENS_FILE = "web-tokens.json"   # the paired browsers' (shooter.web.pairing): phones that may show an id;
                                  # named here, not imported: a start without the web console loads no shooter.web


def ids_to_dict(next_ids: Mapping[str, int]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "next": {kind: next_ids[kind] for kind in KINDS}}


def ids_from_dict(data: object) -> dict[str, int]:
    """The next id of each kind from :func:`ids_to_dict` data; raises StateFileError naming what is wrong."""
    data = check_envelope(data, fmt=FORMAT, version=VERSION, keys=KEYS, what="Saved tap ids")
    found = data["next"]
    if not isinstance(found, dict) or set(found) != set(KINDS):
        raise StateFileError(f"Saved tap ids: next must be an object of {', '.join(KINDS)}.")
    for kind, value in found.items():
        if type(value) is not int or not 1 <= value <= MAX_ID:
            raise StateFileError(f"Saved tap ids: next.{kind} must be a whole number 1..{MAX_ID}.")
    return dict(found)


class TapIds:
    """The next id of each kind (:data:`KINDS`), kept in ``store`` (None: in memory only)."""

    def __init__(self, store: Store | None = None, next_ids: Mapping[str, int] | None = None,
                 log: Callable[[str], None] = lambda m: None) -> None:
        self.store = store
        self._next = {kind: 1 for kind in KINDS} | dict(next_ids or {})
        self._log = log
        self._failed = False

    @classmethod
    def restore(cls, state_dir: Path | None, *, writable: bool, log: Callable[[str], None],
                wall: Callable[[], float] = time.time) -> TapIds:
        """The ids kept in ``state_dir`` (in memory only without one, or read-only: ``writable`` False)."""
        if state_dir is None:
            return cls()   # no store: nothing is ever saved, so nothing is logged
        store = Store(state_dir, IDS_FILE)
        existed = store.path.exists() or store.path.is_symlink()
        start = max(1, int(wall() * 1000))
        loaded = store.load_or_set_aside(ids_from_dict, log=log, fresh=f"the ids a person taps start at {start}")
        if loaded is None and not existed and (state_dir / TOKENS_FILE).exists():
            log(f"uno-shooter: no {IDS_FILE} beside the paired browsers of an older controller; "
                f"the ids a person taps start at {start}")
        elif loaded is None and not existed:
            start = 1   # no phone was ever paired here: none shows an id
        return cls(store if writable else None, loaded or {kind: start for kind in KINDS}, log)

    def give(self, kind: str) -> int:
        """A new id of ``kind``, on disk (as given) before it is returned to be shown."""
        n = self._next[kind]
        self._next[kind] = n + 1
        self.save()
        return n

    def given(self, kind: str, n: int) -> bool:
        """Whether ``n`` was given as an id of ``kind``, in this run or one before (ids only grow)."""
        return n < self._next[kind]

    def save(self) -> None:
        """Keep the next ids; a failure (a full disk) is logged once: ids then hold until a restart."""
        if self.store is None:
            return
        try:
            self.store.save(ids_to_dict(self._next))
        except OSError as exc:
            if not self._failed:
                self._log(f"uno-shooter: cannot save the tap ids in {self.store.path}: {exc}")
            self._failed = True
        else:
            self._failed = False
