"""The command table of the console protocol: every command's shape, in one place.

Each entry is a :class:`~shooter.protocol.Spec` and the name of the
:class:`~shooter.controller.Controller` method that carries it out. ``help``
lists the usages from here, and the README's command table is checked against it.
"""

from __future__ import annotations

from .errors import CommandError
from .protocol import Line, Spec, any_text, choice, integer, number, text_list

SEAT = integer(1, 10)

COMMANDS: list[tuple[Spec, str]] = [
    (Spec(("help",), usage="help", summary="lists the commands"), "cmd_help"),
    (Spec(("version",), usage="version", summary="the software and protocol version"), "cmd_version"),
    (Spec(("status",), usage="status", summary="the whole state"), "cmd_status"),
    (Spec(("game", "new"), required={"players": integer(2, 10)},
          optional={"dealer": any_text, "edition": choice("2016", "2010"),
                    "scoring": choice("winner", "lowest", "elimination"), "limit": integer(1, 100000)},
          flags=("force",),
          usage="game new players=N [dealer=S|random] [edition=2016|2010] "
                "[scoring=winner|lowest|elimination] [limit=500] [force]",
          summary="starts a game; all totals 0; phase deal; while a game is running (not over) it needs "
                  "force"), "cmd_game_new"),
    (Spec(("round", "start"), required={"first": any_text}, optional={"dealer": SEAT},
          usage="round start first=CARD [dealer=S]",
          summary="the dealer turned up CARD; the first-card rules apply; phase play"), "cmd_round_start"),
    (Spec(("play",), args=1, optional={"seat": SEAT, "target": SEAT}, flags=("last",),
          usage="play CARD [seat=S] [target=T] [last]",
          summary="the current player played CARD"), "cmd_play"),
    (Spec(("press",), usage="press", summary="exactly what a press of the shooter's button does"), "cmd_press"),
    (Spec(("uno",), required={"seat": SEAT}, usage="uno seat=S", summary="S called Uno"), "cmd_uno"),
    (Spec(("catch",), required={"seat": SEAT}, usage="catch seat=S",
          summary="S was caught not calling Uno: 2 presses at S"), "cmd_catch"),
    (Spec(("penalty", "advice"), required={"seat": SEAT}, usage="penalty advice seat=S",
          summary="4 presses at S"), "cmd_penalty_advice"),
    (Spec(("penalty", "wrong-card"), required={"seat": SEAT}, usage="penalty wrong-card seat=S",
          summary="S's last play is taken back, 2 presses at S, S's turn is over"), "cmd_penalty_wrong"),
    (Spec(("hand",), required={"seat": SEAT, "cards": text_list}, usage="hand seat=S cards=CARD,CARD,...",
          summary="in phase scoring: the cards left in S's hand"), "cmd_hand"),
    (Spec(("score",), required={"seat": SEAT, "points": integer(0, 100000)}, usage="score seat=S points=P",
          summary="in phase scoring: the points of S's hand"), "cmd_score"),
    (Spec(("undo",), usage="undo", summary="takes back the last play, uno, catch, penalty, hand, score "
                                           "or round start"), "cmd_undo"),
    (Spec(("set",), optional={"current": SEAT, "direction": choice("cw", "ccw")},
          usage="set [current=S] [direction=cw|ccw]", summary="corrects the controller"), "cmd_set"),
    (Spec(("aim",), required={"seat": SEAT}, usage="aim seat=S",
          summary="turns the shooter to S without shooting"), "cmd_aim"),
    (Spec(("magazine",), required={"cards": integer(0, 500)}, usage="magazine cards=N",
          summary="the magazine now holds N cards (after loading it): the shooter counts down from there "
                  "and knows when it is empty"), "cmd_magazine"),
    (Spec(("sim", "button"), usage="sim button",
          summary="simulated hardware only: a press of the physical button"), "cmd_sim_button"),
    (Spec(("sim", "lid", "open"), usage="sim lid open", summary="simulated hardware only: opens the lid"),
     "cmd_sim_lid_open"),
    (Spec(("sim", "lid", "close"), usage="sim lid close", summary="simulated hardware only: closes the lid"),
     "cmd_sim_lid_close"),
    (Spec(("sim", "jam"), usage="sim jam", summary="simulated hardware only: the next burst jams"), "cmd_sim_jam"),
    (Spec(("sim", "load"), required={"cards": integer(1, 500)}, usage="sim load cards=N",
          summary="simulated hardware only: puts N cards in the magazine"), "cmd_sim_load"),
    (Spec(("sim", "wait"), required={"seconds": number(0.0, 86400.0)}, usage="sim wait seconds=X",
          summary="simulated hardware only: lets X seconds of (virtual) time pass"), "cmd_sim_wait"),
]


def lookup(line: Line) -> tuple[Spec, str]:
    """The command a line names (its longest matching leading words)."""
    best = None
    for spec, handler in COMMANDS:
        n = len(spec.words)
        if tuple(line.words[:n]) == spec.words and (best is None or n > len(best[0].words)):
            best = (spec, handler)
    if best is None:
        family = [s.usage for s, _ in COMMANDS if s.words[0] == line.name]
        if family:
            raise CommandError("bad-argument", f"usage: {' | '.join(family)}")
        raise CommandError("unknown-command", f"unknown command {line.name!r}; try help")
    return best
