"""One exception tree for the controller.

Every error a person can cause through the console is a :class:`CommandError`
carrying one of the protocol's error codes (docs/protocol.md). Raising it means the
command was rejected and nothing changed.
"""


class ShooterError(Exception):
    """Base of every error the controller raises on purpose."""


class CommandError(ShooterError):
    """A console command was rejected; ``code`` is the protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"CommandError({self.code!r}, {self.message!r})"


class ConfigError(ShooterError):
    """The config file is invalid; the message names the key and the problem."""


class StateFileError(ShooterError):
    """A saved game state file is corrupt or foreign."""


class InstallError(ShooterError):
    """The controller is installed wrongly (e.g. it may not read or write its state directory):
    a person must fix it; the program stops instead of discarding anything."""
