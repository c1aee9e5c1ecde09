"""Console lines: how a byte stream becomes protocol lines (the line rules every transport shares)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from ..protocol import MAX_LINE_BYTES

EOL = re.compile(rb"\r\n|\r|\n")  # LF, CRLF and a bare CR (screen, minicom, phone apps) each end a line


def read_lines(read: Callable[[int], bytes], *, partial: bool = True) -> Iterator[bytes]:
    """Split a byte stream into lines without ever holding more than one line.

    LF, CRLF and a bare CR each end a line (a CR that ends one chunk and an LF that starts the
    next are one CRLF). An overlong line is yielded cut at MAX_LINE_BYTES + 1 bytes (so the parser
    answers ``line-too-long``) and the rest of it is skipped. At the end of the stream an
    unterminated last line is yielded only with ``partial`` (a file on stdin may lack its last
    newline; a network client that hangs up mid-line has not finished that line).
    """
    buffer = b""
    skipping = False
    after_cr = False
    while True:
        chunk = read(4096)
        if not chunk:
            if buffer and not skipping and partial:
                yield buffer
            return
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        after_cr = False
        buffer += chunk
        while True:
            end = EOL.search(buffer)
            if end is None:
                if len(buffer) > MAX_LINE_BYTES and not skipping:
                    yield buffer[:MAX_LINE_BYTES + 1]
                    skipping = True
                if skipping:
                    buffer = b""
                break
            after_cr = end.group() == b"\r" and end.end() == len(buffer)
            line, buffer = buffer[:end.start()], buffer[end.end():]
            if skipping:
                skipping = False
                continue
            yield line
