"""A refused line changes nothing (issue 31, item 1): every refusal of every command of the command table, from
every source (a console of the table's own, the camera, a paired phone, a browser that only watches), leaves the
table, the shooter, the owed queue, the pile's waiting reads and the saved files exactly as they were.

The controller runs on the simulator in virtual time and is driven into many reachable states (every edition of
the registry, the camera's three report modes with reads waiting, a phone paired, play wandered through at
random); then each command of the table (the list is the table's own: a command added to it is covered) is sent
with arguments likely to be refused, and a refusal must leave the deep view of tests/refusal_rig.py unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.commands import COMMANDS
from shooter.pile_reports import Report
from shooter.reads import Read

from .refusal_rig import SETUPS, Rig, command_names, line_for

PARSER = ("usage:", "unknown option", "missing ", "unexpected word")   # refused by the line's shape alone


def difference(before, after) -> str:
    """What changed, in a few words (the items of a list or a dict that differ)."""
    if isinstance(before, list) and isinstance(after, list):
        pairs = [(b, a) for b, a in zip(before, after, strict=False) if b != a]
        return repr(pairs or (before[len(after):], after[len(before):]))
    if isinstance(before, dict) and isinstance(after, dict):
        return repr({k: (before.get(k), after.get(k)) for k in {*before, *after} if before.get(k) != after.get(k)})
    return f"{before!r:.300} -> {after!r:.300}"


def probe(rig: Rig, line: str, caller) -> dict:
    """Send ``line`` from ``caller``; a refusal must have changed nothing. Returns the reply."""
    rig.settle()
    before = rig.view()
    reply = rig.send_now(line, caller)
    if reply.get("ok") is False:
        after = rig.view()
        changed = sorted(k for k in before if before[k] != after[k])
        assert not changed, f"{line!r} from {caller.link} refused ({reply['error']}: {reply['message']}) " \
                            f"changed {changed}: {difference(before[changed[0]], after[changed[0]])}"
    rig.settle()
    return reply


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), report=st.sampled_from(list(Report)), seed=st.integers(0, 10_000),
       steps=st.integers(0, 40))
def test_every_refusal_from_every_source_changes_nothing(tmp_path_factory, setup, report, seed, steps):
    rng = random.Random(seed)
    rig = Rig(tmp_path_factory.mktemp("state"), setup, report, seed)
    try:
        rig.start(rng)
        rig.wander(rng, steps)
        for spec, _ in COMMANDS:
            for _ in range(2):
                probe(rig, line_for(spec, rng, setup), rng.choice(rig.callers))
    finally:
        rig.close()


def test_the_sweep_covers_every_command_of_the_table_and_most_are_refused_by_the_rules(tmp_path: Path):
    """Deterministic: every edition, every report mode, a few wanders each; every command of the table many
    times from every source. Counts the refusals per command (printed with -s) and holds them to the table."""
    sent: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    by_rules: Counter[str] = Counter()   # refused past the line's shape: the rules, the shooter, the pile
    for n, (setup, report) in enumerate((s, r) for s in SETUPS for r in Report):
        rng = random.Random(n)
        rig = Rig(tmp_path / f"state-{n}", setup, report, n)
        try:
            rig.start(rng)
            for _ in range(3):
                rig.wander(rng, 12)
                if report is not Report.OFF:
                    rig.see(rig.random_read(rng))
                for spec, _ in COMMANDS:
                    name = " ".join(spec.words)
                    for caller in rig.callers:
                        reply = probe(rig, line_for(spec, rng, setup), caller)
                        sent[name] += 1
                        if reply.get("ok") is False:
                            refused[name] += 1
                            by_rules[name] += not reply["message"].startswith(PARSER)
        finally:
            rig.close()
    names = command_names()
    for name in names:
        print(f"{name:<20} sent {sent[name]:>4}  refused {refused[name]:>4}  by the rules {by_rules[name]:>4}")
    assert set(sent) == set(names) and len(names) == len(COMMANDS)
    assert all(refused[name] > 0 for name in names)
    assert sum(1 for name in names if by_rules[name] > 0) >= 0.8 * len(names)
    assert sum(refused.values()) > 0.4 * sum(sent.values())


def test_a_refused_tap_leaves_its_read_waiting_unconfirmed_and_the_next_card_plays_nothing_of_it(tmp_path: Path):
    """The issue's example: in ask mode a tap the rules refuse (presses owed) confirmed the read, swapped its card
    to the alternative picked and said the last card; the next card read then played the old read untapped."""
    from shooter.editions.records import default
    rig = Rig(tmp_path, default(), Report.ASK, 1)
    try:
        rig.send("game new players=3 dealer=3")
        rig.send("round start first=7")
        rig.send("play hit2 seat=1")                  # seat 2 owes 2 presses
        rig.see(Read("5", "red", alternatives=(("skip", "red", 0.2),)))
        before = rig.view()
        reply = rig.send_now("seen confirm id=1 pick=1 last", rig.phone)
        assert reply["error"] == "presses-owed"
        assert rig.view() == before
        [waiting] = rig.controller.pile.waiting
        assert (waiting.card, waiting.sure, rig.controller.pile.last) == ("5", False, None)
        rig.see(Read("7", "blue"))                    # the next card: it waits behind read 1, nothing is played
        game = rig.controller.table.status()
        assert game is not None and game["current"] == 3 and game["owed"]["presses"] == 2
        assert [w.id for w in rig.controller.pile.waiting] == [1, 2]
    finally:
        rig.close()


@pytest.mark.parametrize("name", command_names())
def test_every_command_of_the_table_is_probed(name):
    """The probes are built from the table: each command has a line (a new command is probed without a word
    of the tests changing)."""
    spec = next(spec for spec, _ in COMMANDS if " ".join(spec.words) == name)
    from shooter.editions.records import default
    assert line_for(spec, random.Random(0), default()).startswith(name)
