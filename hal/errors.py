"""Exceptions raised by the hardware layer."""


class HalError(Exception):
    """Base of the hardware layer's errors."""


class LidOpenError(HalError):
    """The motor was asked to run while the lid is open (H-LID)."""


class DeviceClosedError(HalError):
    """A part was used after :meth:`close`."""
