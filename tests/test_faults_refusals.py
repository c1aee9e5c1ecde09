"""The fault suite's row for refused lines (issue 31, item 1): the sweep of tests/refusal_rig.py (every command of
the table from every source, in every edition and report mode, in the situations a table meets) run with several
seeds; every refusal tried must leave the table, the shooter, the owed queue, the pile's waiting reads and the
saved files exactly as they were."""

from __future__ import annotations

import pytest

from tests.fault_runners import FaultResult
from tests.refusal_rig import Tally, sweep
from tests.refusal_sites import messages, reached
from tests.test_faults import record
from tests.test_refusals_change_nothing import assert_every_refusal_message_given

pytestmark = pytest.mark.faults

SEEDS = range(1, 5)


def test_refused_lines_of_every_command_from_every_source_change_nothing(tmp_path):
    tally = Tally()
    for seed in SEEDS:
        tally.merge(sweep(tmp_path / str(seed), seed))
    lost = len(tally.problems)
    given = set().union(*tally.codes.values())
    record(FaultResult("refused lines (every command, source)", tally.refusals, tally.refusals - lost, lost, {
        "lines": sum(tally.sent.values()), "commands": len(tally.sent), "codes": len(given),
        "messages": f"{len(reached(tally.messages))} of {len(messages())}", "internal errors": len(tally.internal)}))
    assert lost == 0, "\n".join(tally.problems[:5])
    # a line that hits a bug is no refusal (the motor is stopped, a fault said): none may
    assert not tally.internal, tally.internal[:3]
    assert_every_refusal_message_given(tally)
