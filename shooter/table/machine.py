"""The table's phases as `transitions` state machines, declared as tables: one per rules family.

Phases: ``none`` (no game), ``deal`` (between rounds), ``first`` (the counting family: the first card is
awaited), ``play``, ``scoring`` (hands being reported) and ``over``. Each rules family (the Extreme family and
the counting family, ``families.py``) plays by its own table, :data:`FAMILY_TRANSITIONS`: the transitions
every game shares (a new game, the end of a round, the reports and the settlement) and its own. A table is
the one place that says which phase each of the family's commands is valid in and which phase it leads to;
the ``after`` callbacks and ``conditions`` are named rule methods of :class:`shooter.table.Table` (the
machine's model). One command, one trigger: ``play`` pulls ``play_card`` in either family, whose table names
the family's rule. Commands that do not change the phase are internal transitions (``dest: None``), so a
command is valid in a phase exactly when its trigger is declared for that phase.

The table runs on :class:`shooter.fsm.TableMachine`, the lean runner of
``transitions`` tables the launcher uses (a command costs a dict look-up, not
transitions' event objects and debug logging; ``tests/test_table_machine.py``
checks it does what ``transitions.Machine`` does with these tables). Keyword
arguments of a trigger reach its conditions and callbacks, as in transitions;
no callback pulls another trigger (the table pulls ``end_round`` and ``settle``
after its command's trigger returns). :func:`table_diagram` draws a family's
table with transitions, as mermaid text.
"""

from __future__ import annotations

from typing import Any

from ..editions.records import COUNTING, EXTREME
from ..fsm import TableMachine
from ..vocabulary import Phase

# plain strings: transitions names a state given as an Enum member by the member's name (PLAY), not its value
STATES = ["none", *(phase.value for phase in Phase)]

# Every family: a new game, the end of a round, the reports and the settlement.
SHARED: list[dict[str, Any]] = [
    # game new: from anywhere; totals 0, first round waits for its deal.
    {"trigger": "begin_game", "source": "*", "dest": "deal", "after": "_set_up_game"},
    # checked after every play and press: someone went out and nothing is owed (E-*).
    {"trigger": "end_round", "source": "play", "dest": "scoring",
     "conditions": ["_someone_went_out", "_nothing_owed"], "after": "_close_round"},
    # hand / score
    {"trigger": "report_hand", "source": "scoring", "dest": None, "after": "_record_report"},
    # checked after every report: the first transition whose conditions hold is taken.
    {"trigger": "settle", "source": "scoring", "dest": "over",
     "conditions": ["_all_reported", "_game_decided"], "after": ["_apply_settlement", "_end_game"]},
    {"trigger": "settle", "source": "scoring", "dest": "deal",
     "conditions": ["_all_reported"], "after": ["_apply_settlement", "_next_round"]},
]

# Uno Extreme: presses are owed and served (turns.py, penalties.py).
EXTREME_TRANSITIONS: list[dict[str, Any]] = [
    # round start first=CARD: the F-* rules.
    {"trigger": "begin_round", "source": "deal", "dest": "play", "after": "_turn_up_first_card"},
    # commands within a round
    {"trigger": "play_card", "source": "play", "dest": None, "after": "_apply_play"},
    {"trigger": "serve_press", "source": "play", "dest": None, "after": "_apply_press"},
    # uno seat=S has no rule callback: a call only moves the Uno window (PenaltyRules._move_windows).
    {"trigger": "call_uno", "source": "play", "dest": None},
    {"trigger": "catch_uno", "source": "play", "dest": None, "after": "_apply_catch"},
    {"trigger": "give_advice_penalty", "source": "play", "dest": None, "after": "_apply_advice"},
    {"trigger": "correct", "source": "play", "dest": None, "after": "_apply_set"},
    # penalty wrong-card may take back a last card, so it also leads back from scoring.
    {"trigger": "take_back_wrong_card", "source": ["play", "scoring"], "dest": "play",
     "after": "_apply_wrong_card"},
]

# The counting family (classic, all-wild, flip, ...; exact.py): the shooter deals and counts every card.
COUNTING_TRANSITIONS: list[dict[str, Any]] = [
    # round start: the deal is owed; an edition that turns up a first card waits for it, the others play.
    {"trigger": "begin_round", "source": "deal", "dest": "first", "conditions": "_turns_up_first",
     "after": "_deal"},
    {"trigger": "begin_round", "source": "deal", "dest": "play", "after": "_deal"},
    # first CARD: the card stands (phase play), or is void and one more card is owed.
    {"trigger": "turn_up", "source": "first", "dest": "play", "conditions": "_first_stands",
     "after": "_apply_first"},
    {"trigger": "turn_up", "source": "first", "dest": None, "after": "_void_first"},
    {"trigger": "serve_press", "source": ["first", "play"], "dest": None, "after": "_apply_exact_press"},
    {"trigger": "count_shot", "source": ["first", "play"], "dest": None, "after": "_count_shot"},
    {"trigger": "play_card", "source": "play", "dest": None, "after": "_apply_exact_play"},
    {"trigger": "pass_turn", "source": "play", "dest": None, "after": "_apply_pass"},
    {"trigger": "challenge_card", "source": "play", "dest": None, "after": "_apply_challenge"},
    {"trigger": "find_colour", "source": "play", "dest": None, "after": "_apply_colour_found"},
    {"trigger": "give_cards", "source": ["first", "play"], "dest": None, "after": "_apply_give"},
    {"trigger": "call_uno", "source": "play", "dest": None},  # the window only (_move_exact_windows)
    {"trigger": "catch_uno", "source": "play", "dest": None, "after": "_apply_exact_catch"},
    {"trigger": "correct", "source": ["first", "play"], "dest": None, "after": "_apply_hand_count"},
]

FAMILY_TRANSITIONS: dict[str, list[dict[str, Any]]] = {
    EXTREME: SHARED[:1] + EXTREME_TRANSITIONS + SHARED[1:],
    COUNTING: SHARED[:1] + COUNTING_TRANSITIONS + SHARED[1:],
}
TRANSITIONS = FAMILY_TRANSITIONS[EXTREME]  # the default game's (Uno Extreme)


def machine_args(family: str = EXTREME) -> dict[str, Any]:
    """A family's table as transitions.Machine's keyword arguments."""
    return {"states": STATES, "transitions": FAMILY_TRANSITIONS[family], "auto_transitions": False,
            "model_attribute": "phase"}


MACHINE_ARGS: dict[str, Any] = machine_args()


def build_machine(model: Any, initial: str, family: str = EXTREME) -> TableMachine:
    """Attach a family's phase machine to `model` (a Table), in phase ``initial``; the phase is ``model.phase``."""
    return TableMachine(model, states=[{"name": name} for name in STATES], transitions=FAMILY_TRANSITIONS[family],
                        initial=initial, model_attribute="phase")


def table_diagram(family: str = EXTREME) -> str:
    """Mermaid text (stateDiagram-v2) of a family's phases, drawn by transitions."""
    from transitions.extensions.diagrams import GraphMachine

    # the machine is its own model (transitions' default): the diagram needs only the names
    machine = GraphMachine(
        initial="none",
        graph_engine="mermaid",
        show_conditions=True,
        title="Table phases",
        **machine_args(family),
    )
    diagram: str = machine.get_graph().draw(None)
    return diagram
