"""shooter.fsm runs a transitions table with transitions' own meaning (queued, no auto transitions)."""

import itertools

import pytest
from transitions import Machine

from shooter.fsm import MachineError, TableMachine
from shooter.launcher import IGNORED_ELSEWHERE, STATE_TABLE, STATES, TRANSITIONS

CONDITIONS = sorted({c for t in TRANSITIONS for key in ("conditions", "unless")
                     for c in ([t[key]] if isinstance(t.get(key), str) else t.get(key) or [])})
CALLBACKS = sorted({c for t in TRANSITIONS for key in ("before", "after")
                    for c in ([t[key]] if isinstance(t.get(key), str) else t.get(key) or [])}
                   | {s["on_enter"] for s in STATE_TABLE if "on_enter" in s})
TRIGGERS = sorted({t["trigger"] for t in TRANSITIONS})


class Recorder:
    """A model whose conditions return what a test sets and whose callbacks only record their names."""

    def __init__(self, truth):
        self.calls = []
        for name in CONDITIONS:
            setattr(self, name, lambda name=name: truth[name])
        for name in CALLBACKS:
            setattr(self, name, lambda name=name: self.calls.append(name))


def _by_transitions(state, trigger, truth):
    model = Recorder(truth)
    Machine(model=model, states=STATE_TABLE, transitions=TRANSITIONS, initial=state,
            auto_transitions=False, queued=True)
    try:
        getattr(model, trigger)()
    except MachineError:
        return "invalid", model.calls
    return model.state, model.calls


def _by_table_machine(state, trigger, truth):
    model = Recorder(truth)
    model.state = state
    TableMachine(model, states=STATE_TABLE, transitions=TRANSITIONS, initial=state)
    try:
        getattr(model, trigger)()
    except MachineError:
        return "invalid", model.calls
    return model.state, model.calls


@pytest.mark.parametrize("state", STATES)
def test_every_trigger_in_every_state_does_what_transitions_does(state):
    for trigger in TRIGGERS:
        for values in itertools.product([False, True], repeat=len(CONDITIONS)):
            truth = dict(zip(CONDITIONS, values, strict=True))
            assert _by_table_machine(state, trigger, truth) == _by_transitions(state, trigger, truth), \
                (state, trigger, truth)


class Chain:
    """A model whose callbacks pull further triggers, to check the queueing order."""

    def __init__(self):
        self.log = []

    def enter_b(self):
        self.log.append("enter b")
        self.go_c()                     # pulled while go_b runs: queued
        self.log.append(f"after pulling go_c, state {self.state}")

    def after_b(self):
        self.log.append("after b")

    def enter_c(self):
        self.log.append("enter c")


CHAIN_STATES = [{"name": "a"}, {"name": "b", "on_enter": "enter_b"}, {"name": "c", "on_enter": "enter_c"}]
CHAIN = [{"trigger": "go_b", "source": "a", "dest": "b", "after": "after_b"},
         {"trigger": "go_c", "source": "b", "dest": "c"}]


@pytest.mark.parametrize("runner", ["transitions", "fsm"])
def test_a_trigger_pulled_in_a_callback_runs_after_the_current_one(runner):
    model = Chain()
    if runner == "transitions":
        Machine(model=model, states=CHAIN_STATES, transitions=CHAIN, initial="a", auto_transitions=False,
                queued=True)
    else:
        TableMachine(model, states=CHAIN_STATES, transitions=CHAIN, initial="a")
    model.go_b()
    assert model.log == ["enter b", "after pulling go_c, state b", "after b", "enter c"]
    assert model.state == "c"


def test_a_hardware_report_in_a_state_that_does_not_declare_it_changes_nothing():
    model = Chain()
    TableMachine(model, states=CHAIN_STATES, transitions=CHAIN, initial="a", ignore_elsewhere=["go_c"])
    model.go_c()
    assert model.state == "a" and model.log == []
    with pytest.raises(MachineError):
        model.go_b(), model.go_b()


def test_an_exception_in_a_callback_empties_the_queue():
    class Boom(Chain):
        def after_b(self):
            raise RuntimeError("boom")
    model = Boom()
    machine = TableMachine(model, states=CHAIN_STATES, transitions=CHAIN, initial="a")
    with pytest.raises(RuntimeError):
        model.go_b()
    assert model.state == "b" and not machine._queue and not machine._running  # go_c dropped, as in transitions


def test_a_table_naming_an_unknown_state_is_refused():
    with pytest.raises(ValueError, match="unknown state 'x'"):
        TableMachine(Chain(), states=CHAIN_STATES, transitions=[{"trigger": "go", "source": "a", "dest": "x"}],
                     initial="a")


def test_the_launcher_ignores_only_hardware_reports_and_waiting_requests():
    assert set(IGNORED_ELSEWHERE) <= set(TRIGGERS)
    assert {"fire", "aim", "stalled", "retracted", "booted"}.isdisjoint(IGNORED_ELSEWHERE)
