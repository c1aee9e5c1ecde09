"""The command table holds the functions that carry the commands out (no names looked up at
run time), each able to take exactly what its command's shape lets through, each called with the one part of
the controller it runs on (never the whole controller, but for the controller's own commands)."""

from __future__ import annotations

import inspect

import pytest

from shooter.app import App
from shooter.commands import COMMANDS
from shooter.config import parse_config
from shooter.controller import Controller
from shooter.dispatch import Handler
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
