"""The console protocol, version 1 (docs/protocol.md): reading lines, writing JSON.

A line is parsed into a :class:`Line` (words and ``key=value`` options) and
checked against the command's :class:`Spec` before anything runs, so a rejected
line changes nothing. Replies and events are JSON objects, one per line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .access import Access
from .errors import BadArgument, CommandError, ErrorCode, LineTooLong, UnknownCommand

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 512
BLANKS = " \t"  # the only characters that separate words; every other control character is refused
_SEPARATORS = re.compile(f"[{BLANKS}]+")
# every control character but the tab: Unicode's category Cc (C0, DEL and C1), which is these 65 code points and
# will stay so (Unicode's stability policy); one search of the line instead of a look-up per character
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")

# the wire values of every error code, in the enum's order (docs/protocol.md, Error codes: a test compares them)
ERROR_CODES = tuple(code.value for code in ErrorCode)


class Line(NamedTuple):  # not a dataclass: a fifth of the time to make at start-up
    """One command line: its words (lower-cased) and options (keys lower-cased)."""

    words: list[str]
    options: dict[str, str]

    @property
    def name(self) -> str:
        return self.words[0] if self.words else ""


def reply_name(text: str) -> str:
    """The ``reply`` field for a line: its first word, lower case."""
    words = _words(text)
    # only printable characters: a control character or a line separator in a reply would split it
    return "".join(c for c in words[0].lower()[:64] if c.isprintable()) if words else ""


def _words(text: str) -> list[str]:
    return [w for w in _SEPARATORS.split(text) if w]


def is_comment(raw: bytes) -> bool:
    """A ``#`` line (after blanks): never answered, whatever bytes follow (valid UTF-8 or not)."""
    return raw.lstrip(BLANKS.encode()).startswith(b"#")


def parse(raw: bytes | str) -> Line | None:
    """Parse one input line; None for a blank line or a comment. Raises CommandError.

    The line rules (docs/protocol.md, "Input"), the same on every console: blanks are spaces and
    tabs; any other control character anywhere in the line refuses it; a ``#`` line is a comment.
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    if raw.endswith(b"\r\n"):
        raw = raw[:-2]
    elif raw.endswith((b"\n", b"\r")):
        raw = raw[:-1]
    if is_comment(raw):
        return None
    if len(raw) > MAX_LINE_BYTES:
        raise LineTooLong(f"a line may have at most {MAX_LINE_BYTES} bytes, this one has {len(raw)}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadArgument("the line is not valid UTF-8") from None
    bad = CONTROL.search(text)
    if bad is not None:
        raise BadArgument(f"the line contains the control character U+{ord(bad.group()):04X}")
    words: list[str] = []
    options: dict[str, str] = {}
    for token in _words(text):
        if "=" in token:
            key, _, value = token.partition("=")
            key = key.lower()
            if not key or not value:
                raise BadArgument(f"option {token!r} needs the form key=value")
            if key in options:
                raise BadArgument(f"option {key}= is given twice")
            options[key] = value
        else:
            words.append(token.lower())  # flags such as `last` may stand before or after the options
    if not words and not options:
        return None  # a blank line
    if not words:
        raise UnknownCommand("a line must start with a command word")
    return Line(words, options)


# ---- argument types: each turns text into a value or raises bad-argument ----

Convert = Callable[[str, str], Any]  # (key, text) -> value; raises CommandError("bad-argument")

WHOLE = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: int() would take "٣" and "1_0"
DECIMAL = re.compile(r"[+-]?([0-9]{1,9}(\.[0-9]{0,9})?|\.[0-9]{1,9})")


def whole_number(text: str) -> int:
    """A whole number as typed on a console: ASCII digits, an optional sign. Raises ValueError."""
    if not WHOLE.fullmatch(text):
        raise ValueError(text)
    return int(text, 10)


def integer(lo: int, hi: int | None = None) -> Callable[[str, str], int]:
    def convert(key: str, text: str) -> int:
        try:
            value = whole_number(text)
        except ValueError:
            raise BadArgument(f"{key}= must be a whole number, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            bound = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            raise BadArgument(f"{key}= must be {bound}, got {value}")
        return value
    return convert


def number(lo: float, hi: float) -> Callable[[str, str], float]:
    def convert(key: str, text: str) -> float:
        if not DECIMAL.fullmatch(text):
            raise BadArgument(f"{key}= must be a number, got {text!r}")
        value = float(text)
        if not lo <= value <= hi:  # also refuses nan
            raise BadArgument(f"{key}= must be between {lo} and {hi}, got {text}")
        return value
    return convert


def choice(*values: str) -> Callable[[str, str], str]:
    def convert(key: str, text: str) -> str:
        if text.lower() not in values:
            raise BadArgument(f"{key}= must be one of {', '.join(values)}, got {text!r}")
        return text.lower()
    return convert


def text_list(key: str, text: str) -> list[str]:
    items = [item.strip().lower() for item in text.split(",")]
    if any(not item for item in items):
        raise BadArgument(f"{key}= must be a comma-separated list without empty items")
    return items


def any_text(key: str, text: str) -> str:
    return text.lower()


def exact_text(key: str, text: str) -> str:
    """Text kept as typed (a token: its case is part of it)."""
    return text


@dataclass(frozen=True)
class Spec:
    """A command's shape: its words, its required and optional options, its flags, and who may run it.

    ``access`` has no default: every command states who may run it (:mod:`shooter.access`). With ``caller``
    the handler is also given who sent the line (``caller=``, a :class:`~shooter.access.Caller`)."""

    words: tuple[str, ...]                       # e.g. ("sim", "lid") ; the leading words
    required: dict[str, Convert] = field(default_factory=dict)
    optional: dict[str, Convert] = field(default_factory=dict)
    args: int = 0                                # extra positional words (e.g. the card of play)
    flags: tuple[str, ...] = ()                  # positional words allowed after the args (e.g. last)
    usage: str = ""
    summary: str = ""
    access: Access = field(kw_only=True)
    caller: bool = False                         # the handler takes caller= (the pairing commands)

    def bind(self, line: Line) -> tuple[list[str], dict[str, Any], set[str]]:
        """Check ``line`` against the spec; returns (args, options, flags)."""
        rest = line.words[len(self.words):]
        args, extra = rest[:self.args], rest[self.args:]
        if len(args) < self.args:
            raise BadArgument(f"usage: {self.usage}")
        flags: set[str] = set()
        for word in extra:
            if word not in self.flags or word in flags:
                raise BadArgument(f"unexpected word {word!r}; usage: {self.usage}")
            flags.add(word)
        values: dict[str, Any] = {}
        for key, text in line.options.items():
            convert = self.required.get(key) or self.optional.get(key)
            if convert is None:
                raise BadArgument(f"unknown option {key}=; usage: {self.usage}")
            values[key] = convert(key, text)
        missing = [k for k in self.required if k not in values]
        if missing:
            raise BadArgument(f"missing {missing[0]}=; usage: {self.usage}")
        return args, values, flags


def reply(name: str, **fields: Any) -> dict[str, Any]:
    return {"reply": name, "ok": True, **fields}


def error_reply(name: str, error: CommandError) -> dict[str, Any]:
    return {"reply": name, "ok": False, "error": error.code, "message": error.message}


def dumps(obj: dict[str, Any]) -> str:
    """One JSON line: compact, UTF-8 (no ASCII escapes), no trailing newline."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
