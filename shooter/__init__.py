"""uno-shooter: the controller of an Uno Extreme card shooter on a Raspberry Pi."""

__version__ = "0.1.0"
