"""Exceptions raised by the hardware layer: one tree under :class:`HalError`."""


class HalError(Exception):
    """Base of the hardware layer's errors."""


class LidOpenError(HalError):
    """The motor was asked to run while the lid is open (H-LID)."""


class MotorRestingError(HalError):
    """The motor was asked to start during its rest after a run, or with its thermal budget spent."""


class DeviceClosedError(HalError):
    """A part was used after :meth:`close`."""


class InvalidValueError(HalError, ValueError):
    """A value out of its range (a setting, a duty, an angle). ``key`` names the setting or
    argument, so a config loader can point at the line that holds it."""

    def __init__(self, key: str, problem: str):
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem
