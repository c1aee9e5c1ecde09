"""The table rules engine: whose turn it is, where the shooter points, what is owed, the score.

A pure model of RULES.md (no hardware, no clock, no I/O). The controller calls
:class:`Table` from its control loop and turns the returned events into
protocol events; it reads :attr:`Table.aim_seat` and :meth:`Table.press_owner`
to aim and attribute shots.

Modules: ``cards`` (the card table), ``options`` (rule choices the seed leaves
open), ``state`` (the game as data), ``machine`` (the phases), ``turns``,
``penalties``, ``scoring`` (the rules), ``table`` (the commands), ``persist``
(the JSON document).
"""

from .cards import CARDS
from .machine import table_diagram
from .options import RuleOptions
from .table import Table

__all__ = ["CARDS", "RuleOptions", "Table", "table_diagram"]
