"""The table engine's share of a button press: microseconds per ``Table.press()``.

    python benchmarks/bench_table.py [presses] [rounds]

What the controller asks of the table for one press in a 4-player game, timed alone (no hardware,
no loop, no scheduler): in Uno Extreme ``press()`` is a draw press (the turn passes each time), on
its own and after an untimed play (the press then closes the play's windows, as in a real game); in
classic it is the current player's 1-card draw, which the shooter then serves (``count_shot``) and the
player passes (``pass_turn``), both untimed for the press figure and timed for their own; and one
trigger of the machine runner both the table and the launcher use (``shooter.fsm``): an internal
transition with one ``after`` callback, and a change of state with an ``on_enter`` (the launcher pulls
about nine a press). Each figure
is the best of ``rounds`` rounds of CPU time (``time.thread_time``), so other processes on a shared
machine do not distort it.

To compare two versions of the engine side by side, run this same file against each tree::

    PYTHONPATH=/path/to/other/tree python benchmarks/bench_table.py

(the module imports ``shooter`` from ``PYTHONPATH`` first when it is set, else from this tree).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH") and str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shooter.fsm import TableMachine  # noqa: E402
from shooter.table import Table  # noqa: E402

CPU_CLOCK = time.thread_time
PLAYERS = 4


def extreme_table() -> Table:
    """A 4-player Uno Extreme game with its first round on (a 5 turned up: seat 2 draws first)."""
    table = Table(rng=random.Random(1))
    table.new_game(PLAYERS, dealer=1)
    table.start_round("5")
    return table


def classic_table() -> Table:
    """A 4-player classic game dealt and turned up (a number card): the current seat may draw."""
    table = Table(rng=random.Random(1))
    table.new_game(PLAYERS, dealer=1, variant="classic")
    table.start_round()
    while table.game is not None and table.game.queue:  # the deal and the first card, counted in full
        head = table.game.queue[0]
        table.count_shot(head.cards or 1, head.cards or 1)
    table.first_card("5")
    return table


def time_extreme(presses: int) -> float:
    """CPU seconds for `presses` draw presses in one Extreme game."""
    table = extreme_table()
    press = table.press
    start = CPU_CLOCK()
    for _ in range(presses):
        press()
    return CPU_CLOCK() - start


def time_extreme_after_plays(presses: int) -> float:
    """CPU seconds for `presses` draw presses in one Extreme game, each after an untimed play of a 5
    (as in a real game: the press closes the play's Uno and wrong-card windows)."""
    table = extreme_table()
    spent = 0.0
    for _ in range(presses):
        table.play("5")
        t0 = CPU_CLOCK()
        table.press()
        spent += CPU_CLOCK() - t0
    return spent


def time_classic(presses: int) -> tuple[float, float]:
    """CPU seconds of (`presses` draw presses, the `count_shot` that serves each) in one classic game;
    each draw is followed by an untimed pass."""
    table = classic_table()
    pressing = counting = 0.0
    for _ in range(presses):
        t0 = CPU_CLOCK()
        table.press()
        t1 = CPU_CLOCK()
        table.count_shot(1, 1)
        t2 = CPU_CLOCK()
        table.pass_turn()
        pressing += t1 - t0
        counting += t2 - t1
    return pressing, counting


class _Model:
    """A machine's model whose callbacks do nothing: the runner's own cost."""

    def act(self) -> None:
        """An ``after`` callback."""

    def entered(self) -> None:
        """An ``on_enter`` callback."""


def time_triggers(pulls: int) -> tuple[float, float]:
    """CPU seconds of (`pulls` internal transitions, `pulls` changes of state), each pulled by its method."""
    model: Any = _Model()
    TableMachine(model, states=[{"name": "a", "on_enter": "entered"}, {"name": "b", "on_enter": "entered"}],
                 transitions=[{"trigger": "tick", "source": ["a", "b"], "dest": None, "after": "act"},
                              {"trigger": "go", "source": "a", "dest": "b", "after": "act"},
                              {"trigger": "go", "source": "b", "dest": "a", "after": "act"}], initial="a")
    tick, go = model.tick, model.go
    t0 = CPU_CLOCK()
    for _ in range(pulls):
        tick()
    t1 = CPU_CLOCK()
    for _ in range(pulls):
        go()
    return t1 - t0, CPU_CLOCK() - t1


def measure(presses: int = 2000, rounds: int = 7) -> dict[str, float]:
    """µs per call, best of `rounds`: ``extreme_press``, ``extreme_press_after_play``, ``classic_press``,
    ``classic_count_shot``, ``fsm_trigger`` (internal) and ``fsm_trigger_to_state``."""
    extreme, after_play, classic, counted, ticks, goes = [], [], [], [], [], []
    for _ in range(rounds):
        extreme.append(time_extreme(presses))
        after_play.append(time_extreme_after_plays(presses))
        pressed, shot = time_classic(presses)
        classic.append(pressed)
        counted.append(shot)
        ticked, went = time_triggers(10 * presses)
        ticks.append(ticked / 10)
        goes.append(went / 10)
    per = 1e6 / presses
    return {"extreme_press": round(min(extreme) * per, 2), "extreme_press_after_play": round(min(after_play) * per, 2),
            "classic_press": round(min(classic) * per, 2),
            "classic_count_shot": round(min(counted) * per, 2),
            "fsm_trigger": round(min(ticks) * per, 3), "fsm_trigger_to_state": round(min(goes) * per, 3)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    presses = int(args[0]) if args else 2000
    rounds = int(args[1]) if len(args) > 1 else 7
    import shooter

    result = measure(presses, rounds)
    print(json.dumps({"tree": str(Path(shooter.__file__).resolve().parents[1]), "us_per_call": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
