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
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.access import IN_PROCESS, Caller, Link, may, refusal
from shooter.camera.pile_reports import CAMERA, Report
from shooter.camera.reads import Read
from shooter.commands.table import COMMANDS
from shooter.errors import ErrorCode

from .refusal_rig import SETUPS, Rig, command_names, line_for, probe as rig_probe, source, sweep
from .refusal_sites import messages as refusal_messages, reached, unread


def probe(rig: Rig, line: str, caller) -> dict:
    """Send ``line`` from ``caller``; a refusal must have changed nothing. Returns the reply."""
    reply, problem = rig_probe(rig, line, caller)
    assert problem is None, problem
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


def test_the_sweep_gives_every_refusal_of_the_error_table_from_every_source_and_changes_nothing(tmp_path: Path):
    """Deterministic: every edition in every report mode, with no game, in play (reads waiting), with a shot under
    way, the lid open, a jam, an empty magazine, a fault, a pairing flood, the web console off, a round over; and a
    shooter without the exit sensor. Every command of the table from every source, and each line broken by a line
    rule; and the prepared states a refusal needs (a wild draw card waiting to be challenged, Flip's colour search,
    the counted hands, the aimed cards, a seat out, a read waiting, the first card due). What must be covered is
    derived, not listed: every code of the error table (but ``internal``, a bug, and ``not-simulated``, real
    hardware only), for each command the access refusal of each source its Spec turns away, and every refusal
    message written in shooter/ (tests/refusal_sites.py's scan of the raise sites) but the few of
    :data:`NOT_BY_A_LINE`."""
    tally = sweep(tmp_path, seed=1)
    assert not tally.problems, "\n".join(tally.problems[:5])
    assert not tally.internal, tally.internal[:3]
    given = set().union(*tally.codes.values())
    assert given == {code.value for code in ErrorCode} - {"internal", "not-simulated"}
    for spec, _ in COMMANDS:   # the access of the command's Spec: each source it turns away got that refusal
        name = " ".join(spec.words)
        assert tally.refused[name] > 0 and "bad-argument" in set().union(
            *(codes for (command, _), codes in tally.codes.items() if command == name)), name
        paired = Caller(Link.WEB)
        paired.holds(1)
        for caller in (IN_PROCESS, CAMERA, Caller(Link.WEB), paired):
            if not may(spec.access, caller, lambda token_id: token_id is not None):
                expected = refusal(name, spec.access).code
                assert expected in tally.codes.get((name, source(caller)), set()), (name, source(caller))
    assert_every_refusal_message_given(tally)


# The refusals no line can be given, each (code, message with {} for its fields) and why. Every other refusal
# message of shooter/ (tests/refusal_sites.py's scan) must come out of the sweep.
NOT_BY_A_LINE: dict[tuple[str, str], str] = {
    ("internal", "internal error: {}"): "a bug caught by the controller, never a refusal the rules give",
    ("not-simulated", "this command needs the simulated hardware (--sim)"): "real hardware only; the sweep runs on "
        "the simulator",
    ("bad-argument", "sim wait needs --clock virtual; in real time, just wait"): "real time only; the sweep runs in "
        "virtual time (one clock)",
    ("busy", "the shooter is starting"): "the launcher's first state: App starts it (Controller.start) before the "
        "loop reads any line",
    ("bad-count", "{} cards shot to seat {} ({}) are not counted: {}; correct the hand with set seat={} hand=N."):
        "the exit sensor's count of a shot, never a line's reply: said as an uncounted event (dealer.Dealer.count)",
    ("bad-argument", "{} is not a card name."): "the Table's Python API (bots, tests): a line's card is a word, "
        "never empty nor other than text",
    ("bad-argument", "cards must be a list of card names."): "the Table's Python API: a line's cards= is a list",
    ("bad-argument", "last must be true or false."): "the Table's Python API: a line's last is a flag",
    ("bad-argument", "A first {} goes back into the deck; turn up another card."): "the record's first_void, read "
        "in either family: no Extreme-family edition of the registry has a void first card (Flip's is counted)",
}

# the refusals made with a message written elsewhere (tests/refusal_sites.py, unread): each is scanned where made
PASSED_ON = {
    "access.py: NotPaired(NOT_PAIRED)": "NOT_PAIRED, a site of its own",
    "controller.py: command_error(*refusal)": "the launcher's refusals, (code, message) pairs",
    "dealer.py: command_error(*refusal)": "the launcher's refusals and the dealer's busy pair",
    "commands/game.py: command_error(*refusal)": "the launcher's refusals",
    "table/families.py: TooLate(problem)": "the *_problem functions' returns",
    "table/families.py: command_error(*problem)": "the exact Uno problems, (code, message) pairs",
    "table/table.py: NoExitSensor(problem)": "_sensor_problem's return",
}


def _pattern(code: str, text: str) -> tuple[str, str]:
    return code, ".*?".join(re.escape(part) for part in text.split("{}"))


def assert_every_refusal_message_given(tally) -> None:
    """Every refusal message written in shooter/ was given by the sweep, but those of :data:`NOT_BY_A_LINE`
    (which must still be sites, and not be given)."""
    assert sorted(set(unread())) == sorted(PASSED_ON), "a refusal whose message the scan cannot read"
    every = refusal_messages()
    exempt = {_pattern(code, text) for code, text in NOT_BY_A_LINE}
    assert exempt <= set(every), sorted(exempt - set(every))   # an entry of no refusal any more: take it out
    given = reached(tally.messages)
    assert not given & exempt, sorted(given & exempt)           # given after all: take it out of the list
    missing = set(every) - exempt - given
    print(f"refusal messages reached {len(given)} of {len(every)} ({len(exempt)} no line can be given)")
    assert not missing, "\n".join(f"{code}: {every[(code, p)][0].sample} ({every[(code, p)][0].where})"
                                    for code, p in sorted(missing))


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


def test_a_turn_named_outside_phase_play_is_refused_with_a_side_too(tmp_path: Path):
    """Found by the fault suite's sweep: ``set current=1 side=light`` in Flip's phase first was taken (the turn's
    phase check was made only for a turn alone), leaving a game no edition allows; the next ``undo`` then failed
    the possible-game check as an internal error and stopped the shooter."""
    from shooter.editions.records import lookup
    rig = Rig(tmp_path, lookup("flip"), Report.OFF, 1)
    try:
        rig.send("game new players=2 dealer=1 variant=flip")
        rig.send("sim load cards=200")
        rig.send("round start")
        assert rig.controller.table.phase == "first"
        reply = probe(rig, "set current=1 direction=ccw side=light", IN_PROCESS)
        assert (reply["error"], reply["message"]) == ("wrong-phase", "Cannot correct the turn in phase first.")
        assert rig.send("give seat=2 cards=1")["ok"] and rig.send("undo")["ok"]
    finally:
        rig.close()
