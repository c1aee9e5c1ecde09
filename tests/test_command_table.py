"""The command table holds the functions that carry the commands out (no names looked up at
run time), each able to take exactly what its command's shape lets through, each called with the one part of
the controller it runs on (never the whole controller, but for the controller's own commands)."""

from __future__ import annotations

import inspect

import pytest

from shooter.app import App
from shooter.commands.dispatch import Handler
from shooter.commands.table import COMMANDS
from shooter.config import parse_config
from shooter.controller import Controller
from shooter.seats import Seats, spread_angles
from shooter.table import Table


@pytest.mark.parametrize("spec,handler", COMMANDS, ids=[" ".join(spec.words) for spec, _ in COMMANDS])
def test_every_command_is_carried_out_by_a_function_that_takes_its_whole_shape(spec, handler):
    assert isinstance(handler, Handler) and inspect.isfunction(handler.run), f"{spec.usage}: {handler!r}"
    signature = inspect.signature(handler.run)
    controller = object()
    caller = {"caller": object()} if spec.caller else {}   # who sent the line, if the handler asks
    assert "caller" not in {*spec.required, *spec.optional, *spec.flags}, spec.usage
    everything = {key: None for key in [*spec.required, *spec.optional]} | {flag: True for flag in spec.flags}
    signature.bind(controller, *["word"] * spec.args, **everything, **caller)
    signature.bind(controller, *["word"] * spec.args, **{key: None for key in spec.required}, **caller)


def test_the_seats_follow_the_game_and_fall_back_to_the_default():
    table = Table()
    seats = Seats(table, lambda players: spread_angles(players, 0.0, 180.0), default=4)
    assert (seats.count(), seats.angle_of(4)) == (4, 180.0)
    table.new_game(3)
    assert (seats.count(), seats.angles(), seats.angle_of(2)) == (3, [0.0, 90.0, 180.0], 90.0)


def test_each_command_runs_on_a_part_of_the_controller_built_whole():
    """Every handler's part is one the controller built at construction (None only for the simulator's, off real
    hardware); only help, version, status, aim, magazine and press get the controller itself."""
    with App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        parts = app.controller.parts
        assert {handler.part for _, handler in COMMANDS} == set(parts)
        assert all(parts[part] is not None for part in parts)
        own = {" ".join(spec.words) for spec, handler in COMMANDS if handler.part is Controller}
        assert own == {"help", "version", "status", "aim", "magazine", "press"}


def test_a_line_finds_its_longest_command_among_those_of_its_first_word():
    """dispatch.find looks a line up in the table's index by first word: every command is found by its own
    words (``seen last`` and not ``seen``, which comes before it), a family's first word with no command of it is
    its family's usage, and a word no command starts with is unknown."""
    from shooter.commands.dispatch import CommandTable, find
    from shooter.errors import BadArgument, UnknownCommand
    from shooter.protocol import parse

    for spec, handler in COMMANDS:
        line = parse(" ".join([*spec.words, *["word"] * spec.args]))
        assert line is not None and find(COMMANDS, line) == (spec, handler), spec.usage
    seen = [" ".join(spec.words) for spec, _ in COMMANDS if spec.words[0] == "seen"]
    assert seen.index("seen") < seen.index("seen last")   # what makes the longest match matter here
    with pytest.raises(BadArgument) as refused:
        find(COMMANDS, parse("sim nothing"))
    assert refused.value.message == "usage: " + " | ".join(s.usage for s, _ in COMMANDS if s.words[0] == "sim")
    with pytest.raises(UnknownCommand, match="unknown command 'nothing'; try help"):
        find(COMMANDS, parse("nothing sim"))
    assert list(CommandTable(COMMANDS)) == list(COMMANDS) and len(COMMANDS) == len(list(COMMANDS))
    assert COMMANDS[0][0].words == ("help",) and COMMANDS.family("nothing") == ()
