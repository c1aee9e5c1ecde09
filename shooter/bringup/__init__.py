"""Bring-up: the tools that get a freshly built shooter working, together.

``bench`` (the hardware layer alone, without the game), ``selftest`` (every part, one after the other) and
``calibrate`` (the seat angles, the motor's timing, the servo's speed) are the bring-up commands of the CLI;
``calibration`` is the file they write (laid over the config at every start); ``commands`` is bring-up on the
console (``aim angle=A``, ``calibrate seat=S``, what ``status`` adds about the hardware in use). Nothing is
imported here: each tool loads when its command runs.
"""
