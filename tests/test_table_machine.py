"""The table's phases run on shooter.fsm.TableMachine with transitions' own meaning for this table."""

import itertools
import random

import pytest
from transitions import Machine, MachineError

from shooter.fsm import TableMachine
from shooter.table import Table
from shooter.table.machine import MACHINE_ARGS, STATES, TRANSITIONS, build_machine


def _names(value):
    return [] if value is None else [value] if isinstance(value, str) else list(value)


TRIGGERS = sorted({t["trigger"] for t in TRANSITIONS})
CALLBACKS = sorted({c for t in TRANSITIONS for c in _names(t.get("after")) + _names(t.get("before"))})
CONDITIONS = sorted({c for t in TRANSITIONS for c in _names(t.get("conditions")) + _names(t.get("unless"))})


def _conditions(trigger):
    return sorted({c for t in TRANSITIONS if t["trigger"] == trigger
                   for c in _names(t.get("conditions")) + _names(t.get("unless"))})


class Recorder:
    """A stand-in Table: conditions answer what the test says, callbacks record their name and arguments."""

    @staticmethod
    def _answer(value):
        return lambda **kwargs: value

    def __init__(self, truth):
        self.calls = []
        for name in CONDITIONS:
            setattr(self, name, self._answer(truth.get(name, False)))
        for name in CALLBACKS:
            setattr(self, name, lambda name=name, **kwargs: self.calls.append((name, kwargs)))


def _run(runner, phase, trigger, truth, kwargs):
    model = Recorder(truth)
    if runner == "transitions":
        machine = Machine(model=model, initial=phase, **MACHINE_ARGS)
    else:
        machine = build_machine(model, phase)
    try:
        if runner == "transitions":
            machine.events[trigger].trigger(model, **kwargs)
        else:
            machine.trigger(trigger, **kwargs)
    except MachineError:
        return "invalid", model.calls
    return model.phase, model.calls


@pytest.mark.parametrize("phase", STATES)
def test_every_trigger_in_every_phase_does_what_transitions_does(phase):
    kwargs = {"seat": 2, "card": "5"}
    for trigger in TRIGGERS:
        conditions = _conditions(trigger)
        for values in itertools.product([False, True], repeat=len(conditions)):
            truth = dict(zip(conditions, values, strict=True))
            ours = _run("fsm", phase, trigger, truth, kwargs)
            assert ours == _run("transitions", phase, trigger, truth, kwargs), (phase, trigger, truth)


@pytest.mark.parametrize("phase", STATES)
def test_a_command_is_valid_in_a_phase_exactly_where_transitions_lists_its_trigger(phase):
    table = Table()
    drawn = Machine(model=Recorder({}), initial=phase, **MACHINE_ARGS)
    table.machine.set_state(phase)
    assert {t for t in TRIGGERS if table.machine.may(t, phase)} == set(drawn.get_triggers(phase))


def test_a_trigger_named_like_a_table_command_leaves_the_command_alone():
    table = Table(rng=random.Random(1))
    assert table.pass_turn.__func__ is Table.pass_turn   # `pass` the command, not the pass_turn trigger
    table.new_game(2, dealer=1, variant="classic")
    assert table.phase == "deal"


def test_the_table_declares_every_trigger_the_machine_makes_a_method_of_it():
    # TableMachine binds each trigger the table has no method of that name for; the table's declarations
    # of them (for type checkers) name exactly those, and each is a method of a table once built.
    declared = {name for name, kind in Table.__annotations__.items() if kind == "Callable[..., bool]"}
    assert declared == {t for t in TRIGGERS if not callable(getattr(Table, t, None))}
    table = Table()
    assert all(getattr(table, name).__name__ == name for name in declared)


def test_keyword_arguments_reach_conditions_and_callbacks():
    class Model:
        def __init__(self):
            self.seen = []

        def big(self, n):
            return n > 3

        def note(self, n):
            self.seen.append(n)
    model = Model()
    machine = TableMachine(model, states=[{"name": "a"}, {"name": "b"}], initial="a", model_attribute="where",
                           transitions=[{"trigger": "go", "source": "a", "dest": "b", "conditions": "big",
                                         "after": "note"}])
    model.go(n=2)
    assert model.where == "a" and model.seen == []
    machine.trigger("go", n=5)
    assert model.where == "b" and model.seen == [5]


def test_a_draw_press_does_not_pull_end_round_but_a_last_cards_paid_press_ends_the_round():
    table = Table(rng=random.Random(1))
    table.new_game(3, dealer=1)
    table.start_round("5")
    pulled = []
    end_round = table.end_round
    table.end_round = lambda **kwargs: pulled.append(table.phase) or end_round(**kwargs)
    table.press()                                   # seat 2 draws: nobody went out
    assert pulled == []
    table.play("hit2", last=True)                   # seat 3 goes out on a hit 2, seat 1 owes two presses
    table.press()
    table.press()
    assert pulled == ["play"] * 3 and table.phase == "scoring"   # after the play and each press
