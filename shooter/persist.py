"""Game state that survives a crash or a pulled plug.

After every accepted command the table's state is written atomically: to a
temporary file in the same directory, flushed and fsynced, renamed over the
old file, and the directory fsynced. A reader therefore sees the old state or
the new one, never half of either. A file that cannot be read back (corrupt,
truncated, foreign) is moved aside under a name that says so, with a clear
message, and the controller starts fresh: never a crash loop.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from .errors import StateFileError

STATE_FILE = "game.json"


class Store:
    """The game state file in ``directory`` (created if missing)."""

    def __init__(self, directory: Path | str, name: str = STATE_FILE):
        self.directory = Path(directory)
        self.path = self.directory / name
        self.directory.mkdir(parents=True, exist_ok=True)

    def save(self, state: dict) -> None:
        data = json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
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

    def load(self) -> dict | None:
        """The saved state, None if there is none. Raises StateFileError if it is unreadable."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StateFileError(f"{self.path}: cannot be read: {exc}") from None
        try:
            state = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise StateFileError(f"{self.path}: not a valid state file ({exc})") from None
        if not isinstance(state, dict):
            raise StateFileError(f"{self.path}: not a valid state file (not a JSON object)")
        return state

    def set_aside(self) -> Path:
        """Move the bad file out of the way, keeping it for a person to look at."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{os.getpid()}")
        os.replace(self.path, target)
        return target
