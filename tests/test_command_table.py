"""The command table holds the functions that carry the commands out (no names looked up at
run time), each able to take exactly what its command's shape lets through."""

from __future__ import annotations

import inspect

import pytest

from shooter.commands import COMMANDS
from shooter.seats import Seats, spread_angles
from shooter.table import Table


@pytest.mark.parametrize("spec,handler", COMMANDS, ids=[" ".join(spec.words) for spec, _ in COMMANDS])
def test_every_command_is_carried_out_by_a_function_that_takes_its_whole_shape(spec, handler):
    assert inspect.isfunction(handler), f"{spec.usage}: {handler!r} is not a function"
    signature = inspect.signature(handler)
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
