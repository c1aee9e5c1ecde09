"""One exception tree for the controller, like gpiozero's: a base :class:`ShooterError`, and under it
:class:`CommandError` with one named subclass per protocol error code.

Every error a person can cause through the console is a :class:`CommandError` carrying one of the protocol's
error codes (:class:`ErrorCode`, the wire values of docs/protocol.md's tables, which a test compares with the
enum). Raising it means the command was rejected and nothing changed. Raise the named error (``BadArgument(
"seat= must be ...")``); where the code is data (a state's refusal, a count's problem), :func:`command_error`
builds the named error for it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar


class ErrorCode(StrEnum):
    """The protocol's error codes (``"error"`` of a refused reply, ``error`` of a ``refused`` event)."""

    UNKNOWN_COMMAND = "unknown-command"
    BAD_ARGUMENT = "bad-argument"
    NO_GAME = "no-game"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    PRESSES_OWED = "presses-owed"
    TOO_LATE = "too-late"
    CANNOT_UNDO = "cannot-undo"
    LID_OPEN = "lid-open"
    JAMMED = "jammed"
    BUSY = "busy"
    LINE_TOO_LONG = "line-too-long"
    NOT_SIMULATED = "not-simulated"
    EMPTY = "empty"
    FAULT = "fault"
    INTERNAL = "internal"
    NOT_PAIRED = "not-paired"
    RATE_LIMITED = "rate-limited"
    GONE = "gone"
    # the counting family's (docs/protocol.md, exact variants)
    NO_EXIT_SENSOR = "no-exit-sensor"
    ALREADY_DRAWN = "already-drawn"
    MUST_DRAW = "must-draw"
    BAD_COUNT = "bad-count"


class ShooterError(Exception):
    """Base of every error the controller raises on purpose."""


class CommandError(ShooterError):
    """A console command was rejected; ``code`` is the protocol error code."""

    def __init__(self, code: ErrorCode | str, message: str) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)   # a code the protocol does not have is a bug: ValueError
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.code)!r}, {self.message!r})"


class _Named(CommandError):
    """A command error of one code: raised with its message alone."""

    CODE: ClassVar[ErrorCode]

    def __init__(self, message: str) -> None:
        super().__init__(self.CODE, message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class UnknownCommand(_Named):
    CODE = ErrorCode.UNKNOWN_COMMAND


class BadArgument(_Named):
    CODE = ErrorCode.BAD_ARGUMENT


class NoGame(_Named):
    CODE = ErrorCode.NO_GAME


class WrongPhase(_Named):
    CODE = ErrorCode.WRONG_PHASE


class NotYourTurn(_Named):
    CODE = ErrorCode.NOT_YOUR_TURN


class PressesOwed(_Named):
    CODE = ErrorCode.PRESSES_OWED


class TooLate(_Named):
    CODE = ErrorCode.TOO_LATE


class CannotUndo(_Named):
    CODE = ErrorCode.CANNOT_UNDO


class LidOpen(_Named):
    CODE = ErrorCode.LID_OPEN


class Jammed(_Named):
    CODE = ErrorCode.JAMMED


class Busy(_Named):
    CODE = ErrorCode.BUSY


class LineTooLong(_Named):
    CODE = ErrorCode.LINE_TOO_LONG


class NotSimulated(_Named):
    CODE = ErrorCode.NOT_SIMULATED


class Empty(_Named):
    CODE = ErrorCode.EMPTY


class Fault(_Named):
    CODE = ErrorCode.FAULT


class Internal(_Named):
    CODE = ErrorCode.INTERNAL


class NotPaired(_Named):
    CODE = ErrorCode.NOT_PAIRED


class RateLimited(_Named):
    CODE = ErrorCode.RATE_LIMITED


class Gone(_Named):
    """A tap for an id given before that no longer waits (shooter.tap_ids): a read, a request, a paired browser."""

    CODE = ErrorCode.GONE


class NoExitSensor(_Named):
    CODE = ErrorCode.NO_EXIT_SENSOR


class AlreadyDrawn(_Named):
    CODE = ErrorCode.ALREADY_DRAWN


class MustDraw(_Named):
    CODE = ErrorCode.MUST_DRAW


class BadCount(_Named):
    CODE = ErrorCode.BAD_COUNT


# each code's named error (every code has one: tests/test_vocabulary.py)
NAMED: dict[ErrorCode, type[_Named]] = {cls.CODE: cls for cls in _Named.__subclasses__()}


def command_error(code: ErrorCode | str, message: str) -> CommandError:
    """The named error of ``code`` (a code held as data: a state's refusal, a count's problem)."""
    return NAMED[ErrorCode(code)](message)


class ConfigError(ShooterError):
    """The config file is invalid; the message names the key and the problem."""


class StateFileError(ShooterError):
    """A saved game state file is corrupt or foreign."""


class InstallError(ShooterError):
    """The controller is installed wrongly (e.g. it may not read or write its state directory):
    a person must fix it; the program stops instead of discarding anything."""
