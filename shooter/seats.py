"""The seats at the table and where the shooter points for each one: how many seats there are
now (the game's players, else the configured default) and each seat's servo angle (evenly
spread over the servo's range unless the config or the calibration file says otherwise)."""

from __future__ import annotations

from collections.abc import Callable

from .table import Table

SeatAngles = Callable[[int], list[float]]   # players -> the servo angle of seats 1..players


def spread_angles(players: int, lo: float, hi: float) -> list[float]:
    """Seat angles for ``players`` seats spread evenly from ``lo`` to ``hi`` (seat 1 at ``lo``)."""
    if players == 1:
        return [0.0]
    step = (hi - lo) / (players - 1)
    return [round(lo + i * step, 3) for i in range(players)]


def spread_between(lo: float, hi: float) -> SeatAngles:
    """Seat angles spread evenly over the servo's range ``lo``..``hi`` for any number of players."""
    return lambda players: spread_angles(players, lo, hi)


class Seats:
    """The seats of ``table`` and their angles: read on every aim and shot (no status built).

    The launcher asks this, not the controller, how many seats there are and where one is."""

    def __init__(self, table: Table, angles: SeatAngles, default: int) -> None:
        self._table = table
        self._angles = angles
        self.default = default

    def count(self) -> int:
        """Seats at the table now: the game's players, else the default."""
        game = self._table.game
        return game.players if game is not None else self.default

    def angles(self) -> list[float]:
        """The servo angle of each seat (seat 1 first) for the seats there are now."""
        return self._angles(self.count())

    def angle_of(self, seat: int) -> float:
        """The servo angle of ``seat`` (1-based)."""
        return self.angles()[seat - 1]
