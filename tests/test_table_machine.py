"""The table's phases run on shooter.fsm.TableMachine with transitions' own meaning for this table."""

import itertools
import random

import pytest
from transitions import Machine, MachineError

from shooter.editions import COUNTING, EXTREME
from shooter.fsm import TableMachine
from shooter.table import Table
from shooter.table.machine import FAMILY_TRANSITIONS, STATES, build_machine, machine_args

FAMILIES = sorted(FAMILY_TRANSITIONS)


def _names(value):
    return [] if value is None else [value] if isinstance(value, str) else list(value)


ALL = [t for table in FAMILY_TRANSITIONS.values() for t in table]
TRIGGERS = sorted({t["trigger"] for t in ALL})
CALLBACKS = sorted({c for t in ALL for c in _names(t.get("after")) + _names(t.get("before"))})
CONDITIONS = sorted({c for t in ALL for c in _names(t.get("conditions")) + _names(t.get("unless"))})


def _triggers(family):
    return sorted({t["trigger"] for t in FAMILY_TRANSITIONS[family]})


def _conditions(trigger, family):
    return sorted({c for t in FAMILY_TRANSITIONS[family] if t["trigger"] == trigger
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


def _run(runner, family, phase, trigger, truth, kwargs):
    model = Recorder(truth)
    if runner == "transitions":
        machine = Machine(model=model, initial=phase, **machine_args(family))
    else:
        machine = build_machine(model, phase, family)
    try:
        if runner == "transitions":
            machine.events[trigger].trigger(model, **kwargs)
        else:
            machine.trigger(trigger, **kwargs)
    except MachineError:
        return "invalid", model.calls
    return model.phase, model.calls


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("phase", STATES)
def test_every_trigger_in_every_phase_does_what_transitions_does(phase, family):
    kwargs = {"seat": 2, "card": "5"}
    for trigger in _triggers(family):
        conditions = _conditions(trigger, family)
        for values in itertools.product([False, True], repeat=len(conditions)):
            truth = dict(zip(conditions, values, strict=True))
            ours = _run("fsm", family, phase, trigger, truth, kwargs)
            assert ours == _run("transitions", family, phase, trigger, truth, kwargs), (family, phase, trigger)


def _table_of(family):
    table = Table(rng=random.Random(1))
    if family == COUNTING:
        table.new_game(3, variant="classic")
    return table


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("phase", STATES)
def test_a_command_is_valid_in_a_phase_exactly_where_transitions_lists_its_trigger(phase, family):
    table = _table_of(family)
    assert table.family.name == family
    drawn = Machine(model=Recorder({}), initial=phase, **machine_args(family))
    table.machine.set_state(phase)
    assert {t for t in TRIGGERS if table.machine.may(t, phase)} == set(drawn.get_triggers(phase))


def test_one_trigger_per_command_in_either_family():
    # the commands both families have pull the same trigger; each family's table names its own rule
    shared = set(_triggers(EXTREME)) & set(_triggers(COUNTING))
    assert {"play_card", "serve_press", "call_uno", "catch_uno", "correct", "begin_round"} <= shared
    assert not any(t.startswith(("play_exact", "call_exact", "catch_exact", "serve_exact")) for t in TRIGGERS)


def test_a_trigger_named_like_a_table_command_leaves_the_command_alone():
    table = Table(rng=random.Random(1))
    assert table.pass_turn.__func__ is Table.pass_turn   # `pass` the command, not the pass_turn trigger
    table.new_game(2, dealer=1, variant="classic")
    assert table.phase == "deal"


def test_the_table_pulls_every_trigger_through_its_familys_machine():
    # TableMachine binds each trigger the table has no method of that name for; the table takes them off
    # again, so no trigger of one family's machine can be pulled in a game of the other by name
    table = _table_of(COUNTING)
    table.new_game(3)
    assert [t for t in TRIGGERS if t in vars(table)] == []
    assert {t for t in TRIGGERS if callable(getattr(Table, t, None))} == {"end_round", "settle", "pass_turn",
                                                                           "count_shot"}


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
