"""The bring-up commands of the CLI, ``selftest`` and ``calibrate``: their parsers, and their run on the bench.

The parsers need nothing of the tools: each loads when its command runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ConfigError, InstallError


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The bring-up commands: selftest and calibrate (shooter/bringup/: selftest.py, calibrate.py)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, metavar="PATH",
                        help="config file (default /etc/uno-shooter/config.toml if it exists)")
    common.add_argument("--sim", action="store_true",
                        help="the simulator instead of GPIO pins; the simulated world plays your part")
    common.add_argument("--state-dir", type=Path, metavar="DIR",
                        help="where calibration.json is kept (default: the config's state.dir; with --sim none)")
    common.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the simulated world")
    common.add_argument("--sim-fault", action="append", default=[], choices=("lid", "button", "exit_sensor"),
                        help="simulator only: this input's wire is broken (repeatable)")
    selftest = sub.add_parser(
        "selftest", parents=[common], help="test every part of the shooter, one after the other",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Test the parts one by one, a PASS or FAIL line each, then a summary: beeper (plays the "
                    "patterns), servo (turns to each seat), lid (open it, close it), button (press it), exit sensor "
                    "(pass a card through it), motor (lid closed: a short pulse each way, then one counted card). "
                    "Exit status 0 only when every part passed.",
        epilog="Examples:\n  uno-shooter selftest                      # on the Pi, you at the shooter\n"
               "  uno-shooter selftest --sim --yes          # the simulator plays your part\n"
               "  uno-shooter selftest --sim --yes --sim-fault lid   # a disconnected lid switch fails")
    selftest.add_argument("--yes", action="store_true",
                          help="answer the 'did you see / hear it' questions with yes (parts needing no hands "
                               "run unattended; lid, button and exit sensor still wait for you)")
    selftest.add_argument("--timeout", type=float, default=30.0, metavar="S",
                          help="seconds to wait for each thing you are asked to do (default 30)")
    calibrate = sub.add_parser(
        "calibrate", parents=[common], help="point the seats, measure the motor; results override the config",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Interactive calibration on the terminal. Seats: jog the servo with < and > (1 degree) or "
                    "<< and >> (10 degrees), =A for an angle, Enter to store the seat. Motor: shoots counted bursts "
                    "through the exit sensor and fits seconds_per_card and spin_up (least squares). Results go to "
                    "calibration.json in the state directory, which overrides the config (status shows the source).",
        epilog="Examples:\n  sudo -u uno-shooter uno-shooter calibrate --players 3,4\n"
               "  uno-shooter calibrate --sim --state-dir /tmp/cal --players 4")
    calibrate.add_argument("--players", default=None, metavar="N[,N...]",
                           help="numbers of players to point the seats for (default: table.default_seats and every "
                                "number with seat angles in the config or the calibration)")
    calibrate.add_argument("--skip-seats", action="store_true", help="do not point the seats")
    calibrate.add_argument("--skip-motor", action="store_true", help="do not measure the motor")


def run(args: argparse.Namespace) -> int:
    """``uno-shooter selftest`` or ``calibrate`` on the bench (the hardware layer alone): the exit status."""
    from ..config import load_config
    from .bench import Bench
    try:
        config = load_config(args.config)
        if args.sim_fault and not args.sim:
            raise ConfigError("--sim-fault needs --sim")
        if args.command == "calibrate":
            from .calibrate import parse_players
            players = parse_players(args.players)
    except ConfigError as exc:
        print(f"uno-shooter: {exc}", file=sys.stderr)
        return 2
    state_dir = args.state_dir if (args.state_dir or args.sim) else config.state_dir
    try:
        bench = Bench(config, sim=args.sim, seed=args.seed, faults=tuple(args.sim_fault), state_dir=state_dir)
    except InstallError as exc:   # the state directory or calibration.json: a person must fix it
        print(f"uno-shooter: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"uno-shooter: cannot start: {exc}", file=sys.stderr)
        return 1
    with bench:  # closing it stops the motor first, whatever happened
        try:
            if args.command == "selftest":
                from .selftest import run_selftest
                person = bench.person(out=sys.stdout, read_line=sys.stdin.readline, yes=args.yes)
                results = run_selftest(bench, person, sys.stdout, timeout=args.timeout)
                return 0 if all(r.ok for r in results) else 1
            from .calibrate import run_calibration
            return run_calibration(bench, sys.stdin, sys.stdout, players=players, seats=not args.skip_seats,
                                   motor=not args.skip_motor)
        except KeyboardInterrupt:
            bench.hw.safe_stop()
            print("\nuno-shooter: interrupted; the motor is off", file=sys.stderr)
            return 130
