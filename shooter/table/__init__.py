"""The table rules engine: whose turn it is, where the shooter points, what is owed, the score.

A pure model of docs/rules.md (no hardware, no clock, no I/O). The controller calls
:class:`Table` from its control loop, turns the returned events into protocol
events (adding ``t``), and reads :attr:`Table.aim_seat` and
:meth:`Table.press_owner` to aim and to attribute shots.

Modules: ``cards`` and ``editions`` (the look-ups of the edition records' card
tables, :mod:`shooter.editions`), ``options`` (rule choices the seed leaves
open, with defaults), ``state`` (the game as data), ``machine`` (the phases,
one declared transitions table per rules family, drawable with :func:`table_diagram`),
``turns``, ``penalties``, ``exact``, ``scoring`` (the rules), ``families`` (the
Extreme and the counting family: each command as the game's family carries it out),
``core`` (the plumbing every command goes through), ``table`` (the commands),
``persist`` (the JSON document).

Decisions where the seed is silent (the configurable ones are RuleOptions,
see ``options.py``):

* Default dealer of a new game: seat 1, so seat 2 starts (``default_dealer``).
* Dealer rotation: clockwise, skipping eliminated seats (``dealer_rotation``).
* First card Extreme Hit: an ordinary first turn (``first_extreme_hit``); a
  first blank is always a wild.
* With two seats a first Reverse and a first Skip both let the dealer start:
  first-card rules read literally and the two-player rules (dealer as the
  card's player) agree. A first Hit 2/4 makes the non-dealer press and skips them, so
  the dealer starts too. A Reverse with two seats still flips ``direction``.
* A blank plays as a wild (``blank_as``); a last Hit 2/4 is still carried out
  (``last_hit_counts``); a last Extreme Hit always is (the seed says so).
* Penalty presses go to the front of the owed queue, behind earlier penalties
  (``penalty_queue``): the shooter turns to the penalised seat at once, then
  the interrupted presses and the turn go on where they were.
* Extreme Hit: the queue entry's ``seat`` is the target (receives the cards,
  the shooter points there); its ``by`` is the card's player, who presses.
* Uno window: opens when a seat's play is accepted (not on a ``last`` card),
  closes at the next play, a draw press, or a press paying a Hit 2/4/start
  entry; the card's player's own Extreme Hit presses and penalty presses do
  not close it; ``penalty wrong-card`` closes it. ``uno`` by the current seat
  before it plays makes the coming play safe. ``catch`` after a call, or with
  the window closed, is ``too-late``; so is ``uno`` with nothing to call for.
* ``penalty wrong-card`` is ``too-late`` unless S's play is the last thing that
  happened apart from Uno calls (no press, play, catch, penalty, set or
  report since); it may take back a last card from phase scoring.
* Reports: every seat still in except the round's winner reports in all three
  variants; the winner cannot report (``bad-argument``); a second report for a
  seat replaces the first; number cards in ``hand`` need their value; a hand
  the edition's deck could not hold is refused; ``score`` is 0 up to the
  points of a whole deck. Lowest-wins scoring: a tie for lowest plays another round.
* ``round-scored`` ``points`` is the sum of the reported hands (in lowest-wins
  and elimination scoring too); under elimination the event also lists the seats put ``out``.
* Status: ``winner`` is the game's winner (null until phase over);
  ``round_winner`` is the round's. Queue entries carry ``by`` as well.
* Undo: ``set`` is undoable too; a press outside phase play changes nothing
  and keeps the history; undo returns the restored ``owed`` head or ``turn``.
* Events: see ``turns.py`` (``owed`` with presses 0 when an entry is paid off;
  ``turn`` only when a seat may act, i.e. nothing is owed).
"""

from .cards import CARDS
from .machine import table_diagram
from .options import RuleOptions
from .table import Table

__all__ = ["CARDS", "RuleOptions", "Table", "table_diagram"]
