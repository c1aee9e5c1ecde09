"""Scoring a round and deciding the game (the three scoring variants), and the next deal.

:func:`settle_round` is pure: it computes what the reported hands do to the
totals without changing anything, so the phase machine can use it both as a
condition (is the game decided?) and, in the ``after`` callback, to apply it.
:class:`ScoringRules` is the mixin of :class:`shooter.table.Table` with those
callbacks.

Who reports (``hand`` or ``score``): every seat still in the game except the
round's winner, in all three variants (winner-takes: the winner scores the
others' hands; lowest-wins / elimination: the winner's own hand counts 0
automatically). A second
report for the same seat replaces the first (until the last one settles the
round; after that, ``undo`` corrects).
"""

from __future__ import annotations

from typing import NamedTuple

from ..vocabulary import EventName
from .args import ELIMINATION, LOWEST, WINNER
from .base import TableBase
from .state import GameState, RoundRow


class Settlement(NamedTuple):  # not a dataclass: a fifth of the time to make at start-up
    """What a fully reported round does."""

    points: int  # points counted this round (sum of the reported hands)
    totals: dict[int, int]
    newly_out: list[int]  # seats eliminated by this round
    winner: int | None  # the game's winner, None while the game goes on


def reporters(game: GameState) -> list[int]:
    """Seats that must report their hand this round."""
    return [s for s in game.in_game if s != game.round_winner]


def settle_round(game: GameState) -> Settlement:
    """Apply the game's scoring variant to the reported hands (pure)."""
    return SCORING[game.scoring](game, dict(game.totals), sum(game.reports.values()))


def _winner_scores(game: GameState, totals: dict[int, int], points: int) -> Settlement:
    # G-WIN: the round's winner scores the points of all cards left in the
    # other hands; the first to reach the limit (500) wins the game.
    winner = game.round_winner
    assert winner is not None, "a round is settled with its winner"
    totals[winner] += points
    decided = totals[winner] >= game.limit
    return Settlement(points, totals, [], winner if decided else None)


def _lowest_wins(game: GameState, totals: dict[int, int], points: int) -> Settlement:
    # G-LOW: everyone adds the points of their own hand; when someone reaches
    # the limit, the lowest total wins. Several seats sharing the lowest total:
    # the game goes on for another round until one seat is lowest alone.
    for seat, own in game.reports.items():
        totals[seat] += own
    seats = game.in_game
    lowest = min(totals[s] for s in seats)
    holders = [s for s in seats if totals[s] == lowest]
    decided = max(totals[s] for s in seats) >= game.limit and len(holders) == 1
    return Settlement(points, totals, [], holders[0] if decided else None)


def _elimination(game: GameState, totals: dict[int, int], points: int) -> Settlement:
    # G-ELIM: everyone adds their own hand points; whoever reaches the limit is
    # out; the last two play on under the two-player rules (GameState.two_left
    # makes them apply); the last one left wins. The round's winner adds 0
    # and was below the limit, so someone is always left.
    for seat, own in game.reports.items():
        totals[seat] += own
    newly_out = [s for s in game.in_game if totals[s] >= game.limit]
    left = [s for s in game.in_game if s not in newly_out]
    return Settlement(points, totals, newly_out, left[0] if len(left) == 1 else None)


SCORING = {WINNER: _winner_scores, LOWEST: _lowest_wins, ELIMINATION: _elimination}


class ScoringRules(TableBase):
    """Reports, settlement and the next deal (mixin of Table)."""

    def _record_report(self, seat: int, points: int, count: int | None = None) -> None:
        g = self._game
        g.reports[seat] = points  # a second report for a seat replaces the first
        if count is not None and g.hands is not None:
            g.hands[seat] = count  # the reported hand is the truth

    def _all_reported(self) -> bool:
        g = self._game
        return set(g.reports) >= set(reporters(g))

    def _game_decided(self) -> bool:
        return settle_round(self._game).winner is not None

    def _apply_settlement(self) -> None:
        g = self._game
        result = settle_round(g)
        g.rounds = [*g.rounds, score_row(g, result)]  # a new list: copies of the game share the old one
        g.totals = result.totals
        g.out = g.out + result.newly_out
        g.winner = result.winner
        fields: dict[str, object] = {"winner": g.round_winner, "points": result.points, "totals": _public(g.totals)}
        if g.scoring == ELIMINATION:
            fields["out"] = list(result.newly_out)
        self._emit(EventName.ROUND_SCORED, **fields)

    def _end_game(self) -> None:
        g = self._game
        self._emit(EventName.GAME_OVER, winner=g.winner, totals=_public(g.totals))

    def _next_round(self) -> None:
        g = self._game
        g.dealer = self._next_dealer()
        g.round += 1
        g.round_winner, g.reports, g.first = None, {}, None
        g.direction = "cw"


def score_row(game: GameState, result: Settlement) -> RoundRow:
    """The score sheet's row of the round `result` settles: what each seat in the game scored in it."""
    winner = game.round_winner
    assert winner is not None, "a round is settled with its winner"
    row: RoundRow = {"round": game.round, "winner": winner,
                     "points": {str(s): result.totals[s] - game.totals[s] for s in game.in_game}}
    if game.scoring == ELIMINATION:
        row["out"] = list(result.newly_out)
    return row


def _public(totals: dict[int, int]) -> dict[str, int]:
    return {str(s): p for s, p in totals.items()}
