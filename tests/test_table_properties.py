"""Properties of the table over random command sequences (hypothesis).

* A rejected command raises CommandError with a protocol error code and
  leaves ``to_dict()`` exactly as it was.
* After every command the state is JSON data that round-trips through
  ``from_dict``, and the status agrees with ``aim_seat`` and ``press_owner``.
* An accepted undoable command is taken back exactly by ``undo``.
"""

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.errors import CommandError
from shooter.table import RuleOptions, Table
from shooter.table.possible import table_impossible

PROTOCOL_CODES = {
    "unknown-command", "bad-argument", "no-game", "wrong-phase", "not-your-turn", "presses-owed", "too-late",
    "cannot-undo", "lid-open", "jammed", "busy", "line-too-long", "not-simulated",
}
UNDOABLE = {"start_round", "play", "uno", "catch", "penalty", "hand", "score", "set"}

seat = st.one_of(st.integers(1, 5), st.integers(1, 5), st.sampled_from([0, 11, "3", "x", None]))
good_seat = st.integers(1, 5)
card = st.sampled_from(
    ["number", "5", "skip", "reverse", "hit2", "hit4", "discard-all", "wild", "extreme-hit", "blank", "Wild", "0"]
)
good_card = st.sampled_from(["5", "hit2", "skip", "reverse", "wild", "hit4"])
rarely = st.sampled_from([False, False, False, True])

command = st.one_of(
    st.tuples(st.just("new_game"), st.sampled_from([2, 3, 4, 1, 11]), st.sampled_from([None, "random", 2, 9]),
              st.sampled_from(["2016", "2010"]), st.sampled_from(["winner", "lowest", "elimination", "most"]),
              st.sampled_from([20, 60, 0])),
    st.tuples(st.just("start_round"), card, st.one_of(st.none(), seat)),
    st.tuples(st.just("play"), card, st.one_of(st.none(), seat), st.one_of(st.none(), seat), st.booleans()),
    st.tuples(st.just("play"), good_card, st.none(), st.none(), rarely),
    st.tuples(st.just("play"), good_card, st.none(), st.none(), rarely),
    st.tuples(st.just("play"), st.just("extreme-hit"), st.none(), good_seat, rarely),
    st.just(("press",)),
    st.just(("press",)),
    st.just(("press",)),
    st.tuples(st.just("uno"), good_seat),
    st.tuples(st.just("catch"), good_seat),
    st.tuples(st.just("penalty"), st.sampled_from(["advice", "wrong-card", "wrong-card", "bribe"]), seat),
    st.tuples(st.just("hand"), seat,
              st.lists(st.sampled_from(["3", "9", "wild", "skip", "number", "hit4"]), max_size=3)),
    st.tuples(st.just("score"), good_seat, st.sampled_from([0, 7, 25, 60, -1, "x"])),
    st.tuples(st.just("score-waiting"), st.sampled_from([0, 7, 25])),
    st.tuples(st.just("score-waiting"), st.sampled_from([0, 7, 25])),
    st.tuples(st.just("play-current"), card, rarely),
    st.just(("undo",)),
    st.tuples(st.just("set"), st.one_of(st.none(), seat), st.sampled_from([None, "cw", "ccw", "up"])),
)

options = st.builds(
    RuleOptions,
    blank_as=st.sampled_from(["wild", "extreme-hit", "hit4", "reverse"]),
    first_extreme_hit=st.sampled_from(["wild", "hit2"]),
    last_hit_counts=st.booleans(),
    penalty_queue=st.sampled_from(["front", "back"]),
    dealer_rotation=st.sampled_from(["clockwise", "winner"]),
)


def apply(table, cmd):
    """Carry out one generated command; "score-waiting" and "play-current" pick their seats from the status."""
    name, *args = cmd
    status = table.status() or {}
    if name == "score-waiting":
        return table.score((status.get("waiting_for") or [1])[0], args[0])
    if name == "play-current":
        current = status.get("current")
        others = [s for s in range(1, status.get("players", 2) + 1) if s != current and s not in status["out"]]
        return table.play(args[0], seat=current, target=others[0] if "extreme" in args[0] else None, last=args[1])
    if name == "new_game":
        players, dealer, edition, scoring, limit = args
        return table.new_game(players, dealer=dealer, edition=edition, scoring=scoring, limit=limit)
    if name == "play":
        card_, seat_, target, last = args
        return table.play(card_, seat=seat_, target=target, last=last)
    if name == "set":
        return table.set(current=args[0], direction=args[1])
    return getattr(table, name)(*args)


def check_consistent(table):
    assert table_impossible(table) is None   # a possible game of its edition: a save of it is resumed
    status = table.status()
    json.dumps(status)
    owner_seat, reason = table.press_owner()
    if status is None or status["phase"] != "play":
        assert (owner_seat, reason) == (None, "draw")
        return
    assert status["current"] is not None and status["current"] not in status["out"]
    if status["owed"]:
        assert table.aim_seat == status["owed"]["seat"] == owner_seat and reason == status["owed"]["reason"]
        assert all(o["presses"] > 0 for o in status["queue"])
    else:
        assert table.aim_seat == status["current"] == owner_seat and reason == "draw"


opening = st.tuples(
    st.integers(2, 5), st.sampled_from(["winner", "lowest", "elimination"]), st.sampled_from(["2016", "2010"]),
    st.sampled_from(["5", "skip", "reverse", "hit2", "wild", "extreme-hit"]), st.sampled_from([20, 60]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options, opening=opening, commands=st.lists(command, min_size=10, max_size=100),
       seed=st.integers(0, 10))
def test_random_commands_keep_the_table_sound(options, opening, commands, seed):
    table = Table(options=options, rng=random.Random(seed))
    players, scoring, edition, first, limit = opening
    table.new_game(players, dealer="random", scoring=scoring, edition=edition, limit=limit)
    table.start_round(first)
    for cmd in commands:
        before = table.to_dict()
        try:
            events = apply(table, cmd)
        except CommandError as exc:
            assert exc.code in PROTOCOL_CODES
            assert exc.message and "\n" not in exc.message
            assert table.to_dict() == before, f"{cmd} was refused but changed the table"
            continue
        assert all("event" in e and "t" not in e for e in events)
        json.dumps(events)
        data = json.loads(json.dumps(table.to_dict()))
        assert Table.from_dict(data, rng=random.Random(seed)).to_dict() == data
        check_consistent(table)
        if cmd[0] in UNDOABLE:
            copy_ = Table.from_dict(data)
            copy_.undo()
            assert copy_.to_dict()["game"] == before["game"], f"undo of {cmd} did not restore the table"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6),
       scoring=st.sampled_from(["winner", "lowest", "elimination"]))
def test_whole_games_played_sensibly_end_with_a_winner(seed, players, scoring):
    """Bots play legal moves until someone wins; the game always ends."""
    rng = random.Random(seed)
    table = Table(rng=random.Random(seed))
    table.new_game(players, dealer="random", scoring=scoring, limit=60)
    for _ in range(2000):
        status = table.status()
        if status["phase"] == "over":
            break
        if status["phase"] == "deal":
            table.start_round(rng.choice(["5", "skip", "reverse", "hit2", "hit4", "wild", "extreme-hit"]))
        elif status["phase"] == "scoring":
            table.score(status["waiting_for"][0], rng.choice([0, 5, 20, 40]))
        elif status["owed"] or rng.random() < 0.3:
            table.press()
        else:
            card_ = rng.choice(["5", "skip", "reverse", "hit2", "hit4", "wild", "extreme-hit", "discard-all"])
            others = [s for s in range(1, players + 1) if s != status["current"] and s not in status["out"]]
            target = rng.choice(others) if card_ == "extreme-hit" else None
            table.play(card_, seat=status["current"], target=target, last=rng.random() < 0.05)
        check_consistent(table)
    status = table.status()
    assert status["phase"] == "over" and status["winner"] not in status["out"]
