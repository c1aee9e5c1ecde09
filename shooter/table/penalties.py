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
  entry (the victim's lost turn), or a press the current player makes for a
  penalty of their own. The card's player's own Extreme Hit presses and
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

from .state import PENALTY_REASONS, Owed, load_snapshot

UNO_PRESSES = 2
ADVICE_PRESSES = 4
WRONG_CARD_PRESSES = 2


class PenaltyRules:
    """The P-* rules (mixin of Table)."""

    # --- the Uno window -------------------------------------------------------
    # P-UNO: forget to call Uno and get caught: 2 presses. The catch is valid
    # once the card has reached the discard pile and until the next player has
    # played or pressed; calling it yourself first makes you safe. The window
    # opens here, closes in _close_uno_window (called from turns.py and below).
    def _open_uno_window(self, player: int, last: bool):
        g = self.game
        g.uno_window = None if last else {"seat": player, "called": g.uno_ahead == player}
        g.uno_ahead = None

    def _close_uno_window(self):
        self.game.uno_window = None

    def _uno_problem(self, seat: int) -> str | None:
        """Why `uno seat=S` is too late, or None."""
        g = self.game
        if (g.uno_window and g.uno_window["seat"] == seat) or (seat == g.current and not g.queue):
            return None
        return f"Seat {seat} has no card to call Uno for: their catch window is closed and it is not their turn."

    def _catch_problem(self, seat: int) -> str | None:
        """Why `catch seat=S` is too late, or None."""
        window = self.game.uno_window
        if not window or window["seat"] != seat:
            return (f"Seat {seat} can no longer be caught: the next player has played or pressed, "
                    f"or seat {seat} did not just play.")
        if window["called"]:
            return f"Seat {seat} called Uno and cannot be caught for that card."
        return None

    def _apply_uno(self, seat: int):
        g = self.game
        if g.uno_window and g.uno_window["seat"] == seat:
            g.uno_window["called"] = True
        if seat == g.current and not g.queue:
            g.uno_ahead = seat  # called while putting the card down: safe for the next play too
            # (with two players after a Skip or Reverse, S is both the last and the next to play)

    def _apply_catch(self, seat: int):
        self._close_uno_window()
        self.game.last_play = None
        self._owe_penalty(seat, UNO_PRESSES, "uno")

    # --- advice and wrong card ------------------------------------------------
    def _apply_advice(self, seat: int):
        # P-ADVICE: telling another player what to play: 4 presses.
        self.game.last_play = None
        self._owe_penalty(seat, ADVICE_PRESSES, "advice")

    def _wrong_card_problem(self, seat: int) -> str | None:
        """Why `penalty wrong-card seat=S` is too late, or None."""
        last = self.game.last_play
        if not last or last["seat"] != seat:
            return f"Seat {seat}'s play can no longer be taken back: it is not the last thing that happened."
        return None

    def _apply_wrong_card(self, seat: int):
        # P-WRONG: the card goes back with all its effects (direction, skip,
        # owed hits, the end of the round), the player presses 2 times and
        # loses this turn: the turn goes to the next seat in the restored direction.
        called_ahead = self.game.uno_ahead
        restored, _ = load_snapshot(self.game.last_play["before"])
        self.game = restored
        restored.uno_window = None  # the next player's turn has happened (see module docstring)
        restored.current = restored.next_seat(seat)
        # a call made ahead by the player now up stays good for their coming card
        restored.uno_ahead = called_ahead if called_ahead == restored.current else None
        self._owe_penalty(seat, WRONG_CARD_PRESSES, "wrong-card")

    def _owe_penalty(self, seat: int, presses: int, reason: str):
        # Penalty presses point the shooter at the penalised player; afterwards
        # play continues where it was. RuleOptions.penalty_queue: "front" puts
        # them ahead of the game's owed presses (behind earlier penalties),
        # "back" behind everything owed.
        queue = self.game.queue
        position = len(queue)
        if self.options.penalty_queue == "front":
            position = next((i for i, o in enumerate(queue) if o.reason not in PENALTY_REASONS), len(queue))
        queue.insert(position, Owed(seat, presses, reason, seat))
