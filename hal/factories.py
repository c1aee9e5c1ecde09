"""Choosing the real pin factory (the simulator's lives in ``sim``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpiozero.pins import Factory


def real_pin_factory(name: str = "auto") -> Factory:
    """The gpiozero pin factory for real pins: ``lgpio`` (Pi 5, current kernels),
    ``rpigpio`` (Pi 1-4), ``native`` (fallback), or ``auto`` (gpiozero's own choice,
    honouring ``GPIOZERO_PIN_FACTORY``)."""
    if name == "auto":
        from gpiozero import Device
        if Device.pin_factory is None:
            Device.pin_factory = Device._default_pin_factory()
        return Device.pin_factory
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory
        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory
        return RPiGPIOFactory()
    if name == "native":
        from gpiozero.pins.native import NativeFactory
        return NativeFactory()
    from .errors import InvalidValueError
    raise InvalidValueError("pin_factory", f"unknown pin factory {name!r} (known: auto, lgpio, rpigpio, native)")
