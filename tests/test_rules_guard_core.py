"""Guards of the table's run of a command (shooter/table/core.py ``TableCore._run``; the mutant mutmut left,
docs/mutation.md, "The eleventh run").

A command that would leave the card counts broken is refused in its one sentence, "Refused, nothing changed:" and
the count's problem, and changes nothing: not the game, not its phase, not the undo history.
"""

from __future__ import annotations

import pytest

from shooter.errors import BadCount
from tests.test_editions_engine import table as counting_table


def test_d_hands_a_command_breaking_the_counts_is_refused_in_its_sentence_and_leaves_the_undo_history_alone():
    t = counting_table("classic", players=3)  # 7 cards in every hand, in play
    t.set(seat=3, hand=8)  # an undo level of its own
    before, phase, history = t.to_dict(), t.phase, list(t.history)
    with pytest.raises(BadCount) as refused:
        t.set(seat=1, hand=98)  # 98 + 7 + 8 of the 112
    assert refused.value.code == "bad-count"
    assert refused.value.message == (
        "Refused, nothing changed: the hands would hold 113 cards together, more than the 112 there are."
    )
    assert t.to_dict() == before and t.phase == phase and t.history == history
    t.undo()  # the level the refusal left is the correction before it
    assert t.game is not None and t.game.hands == {1: 7, 2: 7, 3: 7}
