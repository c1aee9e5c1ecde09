"""A shot in flight when the controller stopped: the one uncertainty of a resumed exact game.

The counting dealer's table is saved after every accepted command and after every counted shot, so the
counted cards are on disk at the end of every shot (of every owed entry too). What is not on disk is how
many cards of a shot that was still coming out had left the shooter when the power went. So the table
records each exact shot as it starts (``Table.shot``: the seat, the reason, the cards planned, the cards
counted to that entry and the seat's hand before it), saved before the cards are counted. A table read
back with such a record reports it as *interrupted* (``Table.interrupted``: the ``interrupted`` event and
``status`` field) until it is resolved:

* the table confirms the hand, ``set seat=S hand=N``: the cards N holds beyond the saved count (at most the
  shot's planned cards) are counted to the interrupted entry, as the exit sensor would have; whatever the
  entry still owes is owed on, and a press serves it;
* or the shooter finishes the entry: the next accepted press (or ``draw``) serves what is owed now, in full
  (no card of the shot had come out, or the table has counted them with ``set`` first);
* or the entry is no longer owed at all (``colour-found``, a new game).
"""

from __future__ import annotations

from ..vocabulary import Reason
from .state import GameState, ShotOut


def shot_record(game: GameState, seat: int, reason: str, planned: int) -> ShotOut:
    """The record of an exact shot starting now for the head entry of ``game``."""
    head = game.head
    assert head is not None and (head.seat, head.reason) == (seat, reason), "a shot is for the head entry"
    return {"seat": seat, "reason": reason, "planned": planned, "counted": head.served,
            "hand": game.counted[seat]}


def still_owed(game: GameState | None, shot: ShotOut) -> bool:
    """The interrupted shot's entry is still in the owed queue (else there is nothing left to resolve)."""
    return game is not None and any((o.seat, o.reason) == (shot["seat"], shot["reason"]) for o in game.queue)


def cards_to_count(game: GameState, shot: ShotOut, seat: int, hand: int) -> int:
    """``set seat=S hand=N`` of the interrupted seat: the cards of the shot to count to its entry (the head):
    those N holds beyond the saved count, at most the shot's planned cards; 0 for any other seat, a
    dealer's first card (it goes to the pile, no hand shows it) or an entry no longer at the head."""
    head = game.head
    if seat != shot["seat"] or head is None or (head.seat, head.reason) != (seat, shot["reason"]):
        return 0
    if head.reason == Reason.FIRST:
        return 0
    return max(0, min(hand - game.counted[seat], shot["planned"]))
