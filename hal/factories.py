"""Choosing the real pin factory (the simulator's lives in ``sim``); see :mod:`hal.backends`."""

from __future__ import annotations

from .backends import choose_pin_factory


def real_pin_factory(name: str = "auto"):
    """The gpiozero pin factory for real pins: ``lgpio`` (Pi 5, current kernels), ``rpigpio``
    (Pi 1-4), ``pigpio`` (Pi 1-4, hardware-timed PWM), ``native`` (fallback), or ``auto``
    (the first that loads, honouring ``GPIOZERO_PIN_FACTORY``)."""
    return choose_pin_factory(name)[0]
