"""Reading a file a person or a previous run put in place (the config, a state file), whatever is there
instead: a FIFO must not block the start, ``/dev/zero`` must not be read until memory runs out. One
reader, so the config and every state file hold the same rule.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotAFile(ValueError):
    """Not a regular file (a FIFO, a device, a directory), or larger than the reader takes."""


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them. Raises OSError as ``os.open``
    does (FileNotFoundError, PermissionError, ...), :class:`NotAFile` for anything else in its place."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # O_NONBLOCK: a FIFO without a writer does not block
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotAFile("not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise NotAFile(f"larger than {limit} bytes")
    return b"".join(chunks)
