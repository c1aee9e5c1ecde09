"""Game state that survives a crash or a pulled plug.

After every accepted command the table's state is written atomically: to a
temporary file in the same directory, flushed and fsynced, renamed over the
old file, and the directory fsynced. A reader therefore sees the old state or
the new one, never half of either. Temporary files of a save that was killed are removed at start.

Every state file (the game, the seat names, the calibration, the web console's tokens, and whatever
comes next) is read back by one loader with one policy, :meth:`Store.load_or_set_aside`: the file is
read (a regular file, at most :data:`MAX_STATE_BYTES`, one JSON object, finite numbers), then checked by
the file's own parse function. Whatever is wrong with its content (corrupt, truncated, foreign, an
unknown version, wrong types, 1e400, deep nesting, a FIFO or a device in its place) the file is moved
aside under a name that says so, one log line says why, and the controller starts without it: never a
crash loop. A permission error is an install error (:class:`InstallError`, exit status 2): nothing is
discarded.

A save's cost does not grow with the undo depth: the items of a *sealed* top-level list
(the game's ``history``: each undo snapshot is made once and never changed, only dropped)
are encoded once per object and reused while they stay in the list; the bytes written are
exactly ``json.dumps(state, sort_keys=True, separators=(",", ":"))``.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from .errors import InstallError, ShooterError, StateFileError
from .files import NotAFile, read_regular
from .shown import one_line

T = TypeVar("T")

STATE_FILE = "game.json"
MAX_STATE_BYTES = 4 * 1024 * 1024   # a real state file is a few hundred kB at most (50 undo levels)
# top-level lists whose items never change once saved, per file (shooter.table's undo history)
SEALED = {STATE_FILE: ("history",)}


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent; 1e400 is not a number a state file holds."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"the number {text[:40]} is out of range")
    return number


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a state file holds")


def _install_error(path: Path, exc: OSError) -> InstallError:
    return InstallError(f"{path}: {exc.strerror or exc}: an install error (the service's user must be able "
                        f"to read and write {path.parent}); nothing was changed")


class Store:
    """The game state file in ``directory`` (created if missing); ``name``: another file kept the same way
    (the calibration, the seat names, the web console's tokens)."""

    def __init__(self, directory: Path | str, name: str = STATE_FILE, sealed: Iterable[str] | None = None):
        self.directory = Path(directory)
        self.path = self.directory / name
        self.sealed = frozenset(SEALED.get(name, ()) if sealed is None else sealed)
        self._encoded: dict[int, tuple[object, str]] = {}   # id(item) -> (item, its JSON), sealed items
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except (PermissionError, FileExistsError, NotADirectoryError) as exc:  # a file where the directory goes
            raise _install_error(self.path, exc) from None
        self.leftovers = self._remove_leftovers()

    def _temp(self) -> Path:
        return self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")

    def _remove_leftovers(self) -> list[Path]:
        """Temporary files of saves that were killed before their rename; returns those removed."""
        removed = []
        for leftover in self.directory.glob(f".{self.path.name}.*.tmp"):
            try:
                leftover.unlink()
                removed.append(leftover)
            except FileNotFoundError:
                continue
            except OSError:  # a read-only card: load() and probe() say so
                break
        return removed

    def probe(self) -> None:
        """Check that the directory takes a new file. Raises InstallError on a permission error,
        OSError if it cannot be written for another reason (a read-only filesystem)."""
        tmp = self._temp()
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        except PermissionError as exc:
            raise _install_error(self.path, exc) from None
        os.close(fd)
        os.unlink(tmp)

    def encode(self, state: dict[str, Any]) -> bytes:
        """``state`` as the file's bytes; a sealed list's items already encoded are not encoded again."""
        lists = [key for key in self.sealed if isinstance(state.get(key), list) and state[key]]
        if not lists or not all(isinstance(key, str) for key in state):
            return _dumps(state).encode("utf-8")
        known, encoded = self._encoded, {}
        parts = []
        for key in sorted(state):
            value = state[key]
            if key in lists:
                items = []
                for item in value:
                    hit = known.get(id(item))
                    text = hit[1] if hit is not None and hit[0] is item else _dumps(item)
                    encoded[id(item)] = (item, text)   # the item is held: its id is not reused meanwhile
                    items.append(text)
                text = "[" + ",".join(items) + "]"
            else:
                text = _dumps(value)
            parts.append(_dumps(key) + ":" + text)
        self._encoded = encoded
        return ("{" + ",".join(parts) + "}").encode("utf-8")

    def save(self, state: dict[str, Any]) -> None:
        data = self.encode(state)
        tmp = self._temp()
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
            try:
                view = memoryview(data)
                while view:  # a short write (a full disk) must not leave half a file
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        dir_fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    def load_or_set_aside(self, parse: Callable[[dict[str, Any]], T], *, log: Callable[[str], None],
                          fresh: str, stuck: Callable[[str], None] | None = None) -> T | None:
        """The file's content as ``parse`` builds it from the JSON object; None if there is no file, or if
        its content is bad in any way (``parse`` raised anything): then the file is set aside and ONE line
        goes to ``log``, ending with ``fresh`` (what the controller starts with instead: "started without a
        game"). If it cannot even be moved (a read-only card), ``stuck`` gets the reason (by default it is
        logged). Raises InstallError only: the controller may not read or move the file (exit status 2)."""
        try:
            data = self.load()
            return None if data is None else parse(data)
        except InstallError:
            raise
        except Exception as exc:   # any bad content, whatever the parse function tripped on: never a crash
            problem = self._problem(exc)
        try:
            kept = self.set_aside()
        except OSError as move_exc:
            why = one_line(f"{problem}; it cannot be moved aside ({move_exc.strerror or move_exc})")
            (stuck or (lambda why: log(f"uno-shooter: {why}; {fresh}")))(why)
            return None
        log(f"uno-shooter: {problem}; kept it as {kept}; {fresh}")
        return None

    def _problem(self, exc: Exception) -> str:
        """What was wrong with the file, as one line naming it: a ShooterError's own words (the parse
        functions' StateFileError, the calibration's ConfigError), else what tripped and where."""
        deliberate = isinstance(exc, ShooterError)
        text = str(exc) if deliberate else f"not a valid state file ({type(exc).__name__}: {exc})"
        return one_line(text if text.startswith(str(self.path)) else f"{self.path}: {text}")

    def load(self) -> dict[str, Any] | None:
        """The saved state, None if there is none. Raises StateFileError if it is unreadable,
        InstallError if the controller may not read it. At start, read a state file with
        :meth:`load_or_set_aside`, which holds the policy for a bad one."""
        try:
            data = read_regular(self.path, MAX_STATE_BYTES)
        except FileNotFoundError:
            return None
        except PermissionError as exc:
            raise _install_error(self.path, exc) from None
        except OSError as exc:
            raise StateFileError(f"{self.path}: cannot be read: {exc}") from None
        except NotAFile as exc:
            raise StateFileError(f"{self.path}: not a valid state file ({exc})") from None
        try:
            state = json.loads(data.decode("utf-8"), parse_float=_finite, parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # ValueError: also a 5,000-digit number
            raise StateFileError(f"{self.path}: not a valid state file ({type(exc).__name__}: "
                                 f"{str(exc)[:200]})") from None
        if not isinstance(state, dict):
            raise StateFileError(f"{self.path}: not a valid state file (not a JSON object)")
        return state

    def set_aside(self) -> Path:
        """Move the bad file out of the way, keeping it for a person to look at. Raises OSError
        if it cannot be moved (a read-only filesystem)."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{os.getpid()}")
        try:
            os.replace(self.path, target)
        except PermissionError as exc:
            raise _install_error(self.path, exc) from None
        return target
