"""What a file said, fit for one line of a log or of an error: a config value or a state file's problem is
echoed shortened and escaped, so a 5,000-character value does not make a 5,000-character line and a control
character in it (an escape sequence that clears the terminal, a newline that forges a second log line) is
never printed raw.
"""

from __future__ import annotations

import reprlib

LINE = 300      # characters of one error or log line at most (a path and a key fit; a pasted blob does not)
CLIENT = 160    # characters of a client's text in a log line at most

_REPR = reprlib.Repr()
_REPR.maxstring = 60        # a string value: its start and its end, "..." between
_REPR.maxother = 60
_REPR.maxlevel = 3          # an array nested 1,000 deep is shown as [[[...]]]
_REPR.maxlist = _REPR.maxdict = _REPR.maxtuple = 6
_REPR.maxlong = 40          # a 4,000-digit number is shown by its first and last digits


def value(v: object) -> str:
    """A value read from a file, as Python writes it (``'text'``, ``[1, 2]``), shortened; the escapes of
    ``repr`` keep every control character and every other unprintable character visible as ``\\x1b``.

        >>> value("x" * 5000)
        "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
        >>> value("\\x1b[2J")
        "'\\\\x1b[2J'"
    """
    try:
        return _REPR.repr(v)
    except (RecursionError, ValueError):   # ValueError: an int beyond the interpreter's digits limit
        return f"a {type(v).__name__} that cannot be shown"


def one_line(text: str, limit: int = LINE) -> str:
    """``text`` as one printable line of at most ``limit`` characters: unprintable characters escaped.

        >>> one_line("a\\nb\\x1bc")
        'a\\\\nb\\\\x1bc'
        >>> len(one_line("y" * 5000))
        300
    """
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit * 2])
    if len(escaped) > limit or len(text) > limit * 2:
        escaped = escaped[:limit - 14] + " ... (cut off)"
    return escaped


def flat(text: object, limit: int = CLIENT) -> str:
    """A client's text (a malformed request, an exception it caused) for one log line: whitespace runs made one
    space, then :func:`one_line`, cut shorter (``limit``) since a client may send it at will.

        >>> flat("Invalid method:\\n\\n    b'\\x1b[2J'\\n   ^")
        "Invalid method: b'\\\\x1b[2J' ^"
        >>> len(flat("x" * 5000))
        160
    """
    return one_line(" ".join(str(text).split()), limit)
