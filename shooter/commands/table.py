"""The command table of the console protocol: every command's shape, in one place.

Each entry is a :class:`~shooter.protocol.Spec` and what carries it out (a
:class:`~shooter.commands.dispatch.Handler`: a function and the part of the controller it is called with): the
controller's own (``Controller.cmd_*``: help, status, aim, press...), the table's
(:mod:`shooter.commands.game`), the simulator's (:mod:`shooter.commands.simulator`),
bring-up (:mod:`shooter.bringup.commands`) and the web console's
(:mod:`shooter.commands.pairing`). Each Spec also says who may run its command (its
``access``, :mod:`shooter.access`): every console asks here, none keeps a list of its own.
``help`` lists the usages from here, and the protocol doc's command and access tables are
checked against it.
"""

from __future__ import annotations

from .. import seat_names as saved_names
from ..access import Access
from ..bringup import commands as bringup
from ..bringup.commands import Bringup
from ..camera.pile_reports import PileReports
from ..controller import Controller
from ..editions.records import COLOURS
from ..errors import BadArgument
from ..protocol import Spec, any_text, choice, exact_text, integer, number, text_list
from ..table import args as table_args
from ..table.args import (
    CHALLENGE_RESULTS,
    DEFAULT_LIMIT,
    DIRECTIONS,
    EDITIONS,
    MAX_GIVE,
    SCORINGS,
    SEAT,
    SIDES,
    START_RULES,
    VARIANTS,
    choices,
)
from . import game, pairing as web, simulator as sim
from .dispatch import CommandTable, Handler
from .game import Desk
from .pairing import Web
from .simulator import SimulatedHardware


def seat_names(key: str, text: str) -> list[str]:
    """Seat names, comma-separated, as written (``-`` for a seat without a name)."""
    names = [item.strip() for item in text.split(",")]
    if len(names) > table_args.MAX_SEATS or not all(map(saved_names.is_seat_name, names)):
        raise BadArgument(f"{key}= must be up to {table_args.MAX_SEATS} names of "
                                           f"1-{saved_names.MAX_LENGTH} characters, comma-separated")
    return names



# who may run a command (shooter.access): anyone watching, anyone asking to pair on the web console, a paired
# phone or a console of the table's own, a console of the table's own only
WATCH, ASK, PAIRED, TABLE = Access.WATCH, Access.ASK, Access.PAIRED, Access.TABLE

COMMANDS = CommandTable([
    (Spec(("help",), access=WATCH, usage="help", summary="lists the commands"),
     Handler(Controller, Controller.cmd_help)),
    (Spec(("version",), access=WATCH, usage="version", summary="the software and protocol version"),
     Handler(Controller, Controller.cmd_version)),
    (Spec(("status",), access=WATCH, usage="status", summary="the whole state"),
     Handler(Controller, Controller.cmd_status)),
    (Spec(("game", "new"), access=PAIRED, required={"players": table_args.PLAYERS},
          optional={"dealer": any_text, "edition": table_args.EDITION,
                    "scoring": table_args.SCORING, "limit": table_args.LIMIT,
                    "variant": table_args.VARIANT, "start": table_args.START},
          flags=("force",),
          usage=f"game new players=N [dealer=S|random] [variant={choices(VARIANTS)}] [edition={choices(EDITIONS)}] "
                f"[start={choices(START_RULES)}] [scoring={choices(SCORINGS)}] [limit={DEFAULT_LIMIT}] [force]",
          summary="starts a game; all totals 0; phase deal; while a game is running (not over) it needs "
                  "force"), Handler(Desk, game.game_new)),
    (Spec(("round", "start"), access=PAIRED,
          optional={"first": any_text, "dealer": SEAT, "cards": table_args.DECK_CARDS},
          usage="round start first=CARD [dealer=S] | round start [dealer=S] [cards=N]",
          summary="extreme: the dealer turned up CARD; the first-card rules apply; phase play. "
                  "Exact variants: the shuffled deck of N cards (112) is loaded and dealt"),
     Handler(Desk, game.round_start)),
    (Spec(("first",), access=PAIRED, args=1, usage="first CARD",
          summary="classic, flip: the card the dealer turned up; a void card gets one more"),
     Handler(Desk, game.first)),
    (Spec(("draw",), access=PAIRED, optional={"seat": SEAT}, usage="draw [seat=S]",
          summary="exact variants: the current player's 1-card draw"), Handler(Desk, game.draw)),
    (Spec(("pass",), access=PAIRED, optional={"seat": SEAT}, usage="pass [seat=S]",
          summary="exact variants: after a draw, the turn ends"), Handler(Desk, game.pass_turn)),
    (Spec(("challenge",), access=PAIRED, required={"seat": SEAT, "result": table_args.CHALLENGE_RESULT},
          usage=f"challenge seat=S result={choices(CHALLENGE_RESULTS)}",
          summary="classic, flip: S challenged the wild draw card played on it"), Handler(Desk, game.challenge)),
    (Spec(("colour-found",), access=PAIRED, optional={"seat": SEAT}, usage="colour-found [seat=S]",
          summary="flip: the draw-until-the-colour at the head ends"), Handler(Desk, game.colour_found)),
    (Spec(("give",), access=PAIRED, required={"seat": SEAT, "cards": table_args.GIVE_CARDS},
          usage="give seat=S cards=N",
          summary=f"exact variants: N (1..{MAX_GIVE}) cards owed to S, like a penalty"), Handler(Desk, game.give)),
    (Spec(("play",), access=PAIRED, args=1, optional={"seat": SEAT, "target": SEAT,
                                                      "discarded": table_args.DISCARDED}, flags=("last",),
          usage="play CARD [seat=S] [target=T] [discarded=N] [last]",
          summary="the current player played CARD"), Handler(Desk, game.play)),
    (Spec(("press",), access=PAIRED, usage="press", summary="exactly what a press of the shooter's button does"),
     Handler(Controller, Controller.cmd_press)),
    (Spec(("uno",), access=PAIRED, required={"seat": SEAT}, usage="uno seat=S", summary="S called Uno"),
     Handler(Desk, game.uno)),
    (Spec(("catch",), access=PAIRED, required={"seat": SEAT}, usage="catch seat=S",
          summary="S was caught not calling Uno: 2 presses at S"), Handler(Desk, game.catch)),
    (Spec(("penalty", "advice"), access=PAIRED, required={"seat": SEAT}, usage="penalty advice seat=S",
          summary="4 presses at S"), Handler(Desk, game.penalty_advice)),
    (Spec(("penalty", "wrong-card"), access=PAIRED, required={"seat": SEAT}, usage="penalty wrong-card seat=S",
          summary="S's last play is taken back, 2 presses at S, S's turn is over"), Handler(Desk, game.penalty_wrong)),
    (Spec(("hand",), access=PAIRED, required={"seat": SEAT, "cards": text_list},
          usage="hand seat=S cards=CARD,CARD,...",
          summary="in phase scoring: the cards left in S's hand"), Handler(Desk, game.hand)),
    (Spec(("score",), access=PAIRED, required={"seat": SEAT, "points": table_args.POINTS},
          usage="score seat=S points=P",
          summary="in phase scoring: the points of S's hand"), Handler(Desk, game.score)),
    (Spec(("undo",), access=PAIRED, usage="undo",
          summary="takes back the last play, uno, catch, penalty, hand, score or round start"),
     Handler(Desk, game.undo)),
    (Spec(("set",), access=PAIRED,
          optional={"current": SEAT, "direction": table_args.DIRECTION, "side": table_args.SIDE,
                    "seat": SEAT, "hand": table_args.HAND_COUNT},
          usage=f"set [current=S] [direction={choices(DIRECTIONS)}] [side={choices(SIDES)}] [seat=S hand=N]",
          summary="corrects the controller"), Handler(Desk, game.set_state)),
    (Spec(("aim",), access=PAIRED, optional={"seat": SEAT, "angle": number(-360.0, 360.0)}, usage="aim seat=S|angle=A",
          summary="turns the shooter to S without shooting; angle=A: to the raw servo angle A in degrees "
                  "(bring-up, calibration)"), Handler(Controller, Controller.cmd_aim)),
    (Spec(("calibrate",), access=TABLE, required={"seat": SEAT}, usage="calibrate seat=S",
          summary="the servo's current angle is seat S's for the current number of players: stored in the "
                  "calibration file, which overrides the config"), Handler(Bringup, bringup.calibrate_seat)),
    (Spec(("magazine",), access=PAIRED, required={"cards": integer(0, 500)}, usage="magazine cards=N",
          summary="the magazine now holds N cards (after loading it): the shooter counts down from there "
                  "and knows when it is empty"), Handler(Controller, Controller.cmd_magazine)),
    (Spec(("sim", "button"), access=TABLE, optional={"hold": number(0.0, 60.0)}, usage="sim button [hold=X]",
          summary="simulated hardware only: a press of the physical button (held X seconds)"),
     Handler(SimulatedHardware, sim.sim_button)),
    (Spec(("sim", "lid", "open"), access=TABLE, usage="sim lid open",
          summary="simulated hardware only: opens the lid"),
     Handler(SimulatedHardware, sim.sim_lid_open)),
    (Spec(("sim", "lid", "close"), access=TABLE, usage="sim lid close",
          summary="simulated hardware only: closes the lid"),
     Handler(SimulatedHardware, sim.sim_lid_close)),
    (Spec(("sim", "jam"), access=TABLE, usage="sim jam", summary="simulated hardware only: the next burst jams"),
     Handler(SimulatedHardware, sim.sim_jam)),
    (Spec(("sim", "load"), access=TABLE, required={"cards": integer(1, 500)}, usage="sim load cards=N",
          summary="simulated hardware only: puts N cards in the magazine"), Handler(SimulatedHardware, sim.sim_load)),
    (Spec(("sim", "wait"), access=TABLE, required={"seconds": number(0.0, 86400.0)}, usage="sim wait seconds=X",
          summary="simulated hardware only: lets X seconds of (virtual) time pass"),
     Handler(SimulatedHardware, sim.sim_wait)),
    (Spec(("sim", "pile"), access=TABLE, args=1, optional={"colour": choice(*COLOURS)},
          usage="sim pile CARD [colour=C]",
          summary="simulated hardware only: a card of the game's deck put on the discard pile (what the simulated "
                  "camera sees)"), Handler(SimulatedHardware, sim.sim_pile)),
    # the web console's: pair and auth are any socket's way to be paired (a console of the table's own needs neither)
    (Spec(("pair",), access=ASK, caller=True, optional={"name": web.device_name}, usage="pair [name=NAME]",
          summary="web console: asks to be paired; a person at the table says yes"), Handler(Web, web.pair)),
    (Spec(("auth",), access=ASK, caller=True, required={"token": exact_text}, usage="auth token=T",
          summary="web console: this socket presents the token it was granted"), Handler(Web, web.auth)),
    (Spec(("names",), access=PAIRED, optional={"seats": seat_names}, usage="names [seats=NAME,NAME,...]",
          summary="names the seats in order (- for none); without seats= forgets them"), Handler(Web, web.names)),
    (Spec(("unpair",), access=PAIRED, required={"id": integer(1)}, usage="unpair id=N",
          summary="revokes paired browser N (status lists them under pairing)"), Handler(Web, web.unpair)),
    (Spec(("pair", "approve"), access=PAIRED, required={"request": integer(1)}, usage="pair approve request=R",
          summary="pairs the browser waiting with request R (status lists them under pairing)"),
     Handler(Web, web.pair_approve)),
    (Spec(("pair", "refuse"), access=PAIRED, required={"request": integer(1)}, usage="pair refuse request=R",
          summary="turns down the browser waiting with request R"), Handler(Web, web.pair_refuse)),
    # the camera over the discard pile (shooter.camera.pile_reports): a read that waits is confirmed with one tap
    (Spec(("seen", "confirm"), access=PAIRED, required={"id": integer(1)},
          optional={"pick": integer(0, 2), "target": SEAT, "colour": choice(*COLOURS)}, flags=("last",),
          usage="seen confirm id=N [pick=K] [target=T] [colour=C] [last]",
          summary="camera: the card of read N was played (pick=K: its K-th alternative); an aimed card's "
                  "target, a wild's colour, the player's last card"), Handler(PileReports, PileReports.confirm)),
    (Spec(("seen", "reject"), access=PAIRED, required={"id": integer(1)}, usage="seen reject id=N",
          summary="camera: read N was no card played"), Handler(PileReports, PileReports.reject)),
    (Spec(("seen",), access=PAIRED, required={"colour": choice(*COLOURS)}, optional={"id": integer(1)},
          usage="seen colour=C [id=N]", summary="camera: the colour the wild's player named"),
     Handler(PileReports, PileReports.colour)),
    (Spec(("seen", "last"), access=PAIRED, usage="seen last",
          summary="camera: the current player's card now read (or waiting) is their last"),
     Handler(PileReports, PileReports.last_card)),
])

