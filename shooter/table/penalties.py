"""Penalties: calling and catching Uno, advice, a wrong card (P-*).

:class:`PenaltyRules` is a mixin of :class:`shooter.table.Table`; its methods
are ``after`` callbacks of ``machine.TRANSITIONS`` and run only after the
command was validated (the checks that decide ``too-late`` are here too, as
pure predicates the table calls while validating).

The Uno catch window is ``game.uno_window`` = {seat, called}:

* it opens when a seat's play is accepted (not for a ``last`` card: a seat
  that went out holds nothing to call Uno for);
* it closes when the next player plays a card or presses the button: any
  later play, a draw press, or a press that pays a Hit 2 / Hit 4 / start
  entry (the victim's lost turn), or a press the player up makes for a
  penalty of their own (``GameState.seat_up``: the victim while it owes its
  lost turn's presses, else the current player). The card's player's own Extreme Hit presses and
  penalty presses do not close it. A ``penalty wrong-card`` closes the
  window of the player before, because the next player's turn has happened;
* ``uno seat=S`` makes S safe: for the window that is open for S, or, when S is
  the current player and nothing is owed, for the card S is about to play
  (called ahead, as people do while putting the card down). Otherwise it is
  ``too-late``;
* ``catch seat=S`` needs S's open window without a call; after a call it is
  ``too-late`` with a message saying S called Uno.
"""

from __future__ import annotations

from typing import Any

from ..vocabulary import Reason
from .base import Snapshot, TableBase, began_turn
from .cards import PENALTY_PRESSES
from .loader import load_snapshot
from .state import PENALTY_REASONS, GameState, Owed, without_last_play


class PenaltyRules(TableBase):
    """The P-* rules (mixin of Table)."""

    # --- the rule windows: opened and closed in this one place ----------------
    # P-UNO: forget to call Uno and get caught: 2 presses. The catch is valid
    # once the card has reached the discard pile and until the next player has
    # played or pressed; calling it yourself first makes you safe.
    # penalty wrong-card: a play can be taken back while it is the last thing that
    # happened apart from Uno calls (``last_play``).
    # Table._run calls _move_windows after every command's trigger, with the command's arguments; no rule
    # method opens, closes or marks a window itself (an uno call is only that: it has no rule callback).
    def _move_windows(self, trigger: str, was: GameState | None, before: Snapshot | None,
                      args: dict[str, Any]) -> None:
        """Uno Extreme's windows (the Extreme family's ``move_windows``): open and close the Uno window, the
        Uno-ahead call and the wrong-card window as the command fired by `trigger` (a machine trigger) says;
        `was` is the game as it was before the command (the copy ``Table._run`` would roll back to), `before`
        its snapshot (undoable commands only), `args` the command's arguments (the trigger's keyword arguments:
        a play's ``last``, the seat of an ``uno`` or a ``catch``)."""
        g = self.game
        if g is None or was is None:
            return  # a new game starts with every window closed
        ahead = was.uno_ahead
        began = began_turn(was)
        if trigger == "play_card":
            assert before is not None, "a play (an undoable command) comes with the snapshot before it"
            played = was.current_seat
            g.last_play = {"seat": played, "before": without_last_play(before)}  # one level only
            # the window opens for the card's player (not for a last card: nothing left to call for),
            # replacing the one before; a call made ahead covers it
            g.uno_window = None if args["last"] else {"seat": played, "called": ahead == played}
            g.uno_ahead = None
            return
        if trigger == "call_uno":
            # `uno seat=S` makes S safe for the window open for S, or, when S is up and nothing is owed,
            # for the card S is about to play (called while putting the card down; with two players
            # after a Skip or Reverse S is both the last and the next to play). A call is no play:
            # the wrong-card window stays.
            seat = args["seat"]
            window = g.uno_window
            if window and window["seat"] == seat:
                window["called"] = True
            if seat == g.current and not g.queue:
                g.uno_ahead = seat
        else:
            g.last_play = None  # something else happened since the last play
        if (trigger == "serve_press" and began) or trigger in ("catch_uno", "take_back_wrong_card", "begin_round"):
            # (a wrong card taken back: the next player's turn has happened)
            g.uno_window = None
        if trigger == "take_back_wrong_card":
            g.uno_ahead = ahead  # a call made ahead by the player now up stays good for their coming card
        if g.uno_ahead is not None and g.uno_ahead != g.current:
            g.uno_ahead = None  # a call made ahead covers only the current player's coming card

    def _uno_problem(self, seat: int) -> str | None:
        """Why `uno seat=S` is too late, or None."""
        g = self._game
        if (g.uno_window and g.uno_window["seat"] == seat) or (seat == g.current and not g.queue):
            return None
        return f"Seat {seat} has no card to call Uno for: their catch window is closed and it is not their turn."

    def _catch_problem(self, seat: int) -> str | None:
        """Why `catch seat=S` is too late, or None."""
        window = self._game.uno_window
        if not window or window["seat"] != seat:
            return (f"Seat {seat} can no longer be caught: the next player has played or pressed, "
                    f"or seat {seat} did not just play.")
        if window["called"]:
            return f"Seat {seat} called Uno and cannot be caught for that card."
        return None

    def _apply_catch(self, seat: int) -> None:
        self._owe_penalty(seat, PENALTY_PRESSES[Reason.UNO], Reason.UNO)

    # --- advice and wrong card ------------------------------------------------
    def _apply_advice(self, seat: int) -> None:
        # P-ADVICE: telling another player what to play: 4 presses.
        self._owe_penalty(seat, PENALTY_PRESSES[Reason.ADVICE], Reason.ADVICE)

    def _wrong_card_problem(self, seat: int) -> str | None:
        """Why `penalty wrong-card seat=S` is too late, or None."""
        last = self._game.last_play
        if not last or last["seat"] != seat:
            return f"Seat {seat}'s play can no longer be taken back: it is not the last thing that happened."
        return None

    def _apply_wrong_card(self, seat: int) -> None:
        # P-WRONG: the card goes back with all its effects (direction, skip,
        # owed hits, the end of the round), the player presses 2 times and
        # loses this turn: the turn goes to the next seat in the restored direction.
        last = self._game.last_play
        assert last is not None, "a wrong card was taken back without its play"  # _wrong_card_problem
        restored, _ = load_snapshot(last["before"])
        self.game = restored
        restored.current = restored.next_seat(seat)
        self._owe_penalty(seat, PENALTY_PRESSES[Reason.WRONG_CARD], Reason.WRONG_CARD)

    def _owe_penalty(self, seat: int, presses: int, reason: str) -> None:
        # Penalty presses point the shooter at the penalised player; afterwards
        # play continues where it was. RuleOptions.penalty_queue: "front" puts
        # them ahead of the game's owed presses (behind earlier penalties),
        # "back" behind everything owed.
        queue = self._game.queue
        position = len(queue)
        if self.options.penalty_queue == "front":
            position = next((i for i, o in enumerate(queue) if o.reason not in PENALTY_REASONS), len(queue))
        queue.insert(position, Owed(seat, presses, reason, seat))
