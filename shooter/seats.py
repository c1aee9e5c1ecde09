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
        self._known: tuple[int, list[float]] | None = None   # (seats, their angles) as last asked

    def forget(self) -> None:
        """The angles changed (``calibrate seat=S``): ask again on the next aim."""
        self._known = None

    def count(self) -> int:
        """Seats at the table now: the game's players, else the default."""
        game = self._table.game
        return game.players if game is not None else self.default

    def angles(self) -> list[float]:
        """The servo angle of each seat (seat 1 first) for the seats there are now."""
        return list(self._current())

    def angle_of(self, seat: int) -> float:
        """The servo angle of ``seat`` (1-based)."""
        return self._current()[seat - 1]

    def _current(self) -> list[float]:
        # worked out once per number of seats, not on every aim (until forget())
        seats, known = self.count(), self._known
        if known is None or known[0] != seats:
            known = self._known = (seats, self._angles(seats))
        return known[1]
