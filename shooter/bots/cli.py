"""``uno-shooter simulate``: bots play whole games on the simulated shooter (shooter/bots/simulate.py,
shooter/bots/simulate_exact.py), and their summary (shooter/bots/summary.py).

The parser needs nothing of the games: they load only when the command runs."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import ConfigError
from ..shown import one_line

if TYPE_CHECKING:
    from ..config import Config
    from ..scheduler import Profile


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``simulate``'s parser."""
    from ..table.args import DEFAULT_LIMIT, EDITIONS, MAX_LIMIT, MAX_SEATS, MIN_SEATS, SCORINGS, VARIANTS
    simulate = sub.add_parser("simulate", help="bots play whole games on the simulated shooter",
                              description="Bots deal real cards, play, press and score whole games through the "
                                          "console protocol, on simulated hardware in virtual time. For Uno "
                                          "Extreme a summary of the scheduler profile shows how it behaves: fire "
                                          "rate, burst sizes, blank runs, cards per press, presses per round; for "
                                          "the exact variants (--variant) a summary of the counted shots: cards "
                                          "dealt and shot, shots by reason, short shots. --json: one JSON line per "
                                          "game instead. Every card is accounted for after every line, and the "
                                          "controller's hand counts are checked against the bots' real hands.")
    simulate.add_argument("--games", type=whole(1, 1_000_000), default=1, metavar="N",
                          help="how many games (default 1)")
    simulate.add_argument("--players", type=int, default=4, choices=range(MIN_SEATS, MAX_SEATS + 1),
                          metavar=f"{MIN_SEATS}..{MAX_SEATS}", help="seats at the table (default 4)")
    simulate.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the first game (then +1, ...)")
    simulate.add_argument("--scoring", choices=SCORINGS, default="winner",
                          help="how a game is won (default winner; the exact variants allow fewer)")
    simulate.add_argument("--limit", type=whole(1, MAX_LIMIT), default=DEFAULT_LIMIT, metavar="P",
                          help=f"points that end a game (1..{MAX_LIMIT}, default {DEFAULT_LIMIT})")
    simulate.add_argument("--edition", choices=EDITIONS, default=None,
                          help="the variant's card set (default: its first, Uno Extreme's 2016)")
    simulate.add_argument("--variant", choices=VARIANTS, default=VARIANTS[0],
                          help="the Uno played: extreme, or an exact variant (the shooter deals and counts)")
    simulate.add_argument("--config", type=Path, metavar="PATH", help="config file (scheduler profile, rules)")
    simulate.add_argument("--profile", metavar="NAME",
                          help="scheduler profile: original, uniform or one from [scheduler.profiles.NAME] of --config "
                               "(default: the config's scheduler.profile)")
    simulate.add_argument("--json", action="store_true",
                          help="one JSON line per game instead of the summary")
    simulate.add_argument("--svg", type=Path, metavar="FILE", help="also write the summary as an SVG picture")
    simulate.add_argument("--progress", action="store_true",
                          help="show progress (games done, rate, time left) even when stderr is not a terminal")
    simulate.add_argument("--vision", action="store_true",
                          help="the bots never report a play: they put their cards on the simulated pile, and the "
                               "table learns each one from the simulated camera's frames (report auto; an unsure "
                               "read is confirmed with one tap). Each JSON line adds \"vision\": reads, correct, "
                               "wrong, unsure, missed, and \"error\" (null: the game stayed in step with the "
                               "cards). Needs the vision extra; slow: an Extreme game took about 20 s of CPU time here "
                               "(docs/vision.md)")


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number in lo..hi, checked as a console line's numbers are (argparse turns
    the error into one clear line)."""
    from ..table.args import whole_in

    def check(text: str) -> int:
        try:
            return whole_in(text, lo, hi)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return check


def run(args: argparse.Namespace) -> int:
    """``uno-shooter simulate``: the games, their summary or JSON lines; 2 and one line for bad options."""
    from dataclasses import replace

    from ..config import load_config, parse_config
    from ..scheduler import PROFILES, profile_from_config
    from ..table.table import VARIANT_SCORINGS
    if args.scoring not in VARIANT_SCORINGS[args.variant]:
        print(f"uno-shooter: --scoring {args.scoring}: variant {args.variant} scores "
              f"{', '.join(VARIANT_SCORINGS[args.variant])}", file=sys.stderr)
        return 2
    if args.vision:
        try:
            import cv2  # noqa: F401  (the vision extra: said once, here, not deep in a traceback)
        except ImportError:
            print("uno-shooter: simulate --vision needs the vision extra (OpenCV and numpy): pip install '.[vision]'",
                  file=sys.stderr)
            return 2
    try:
        config = load_config(args.config) if args.config else parse_config({})
        name = args.profile or config.scheduler_profile
        if name not in PROFILES and name not in config.scheduler_profiles:
            raise ConfigError(f"--profile {name}: no such profile (built in: {', '.join(PROFILES)}; "
                              f"in the config: {', '.join(config.scheduler_profiles) or 'none'})")
        config = replace(config, scheduler_profile=name)
        profile = PROFILES.get(name) or profile_from_config(name, config.scheduler_profiles[name])
        picture = _output(args.svg, "--svg") if args.svg else None   # before the games, not after them all
    except ConfigError as exc:
        print(f"uno-shooter: {one_line(str(exc))}", file=sys.stderr)
        return 2
    try:
        return _play(args, config, profile, picture)
    finally:
        if picture is not None:
            picture.close()


def _output(path: Path, option: str) -> TextIO:
    """``path`` opened for writing now, so that a path that cannot be written is refused at once: a
    ConfigError naming the option. O_NONBLOCK: a FIFO nobody reads is refused, it does not block."""
    import fcntl
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o644)
    except (OSError, ValueError) as exc:   # ValueError: a NUL byte in the name
        raise ConfigError(f"{option} {path}: cannot be written: {getattr(exc, 'strerror', None) or exc}") from None
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    return os.fdopen(fd, "w", encoding="utf-8")


def _play(args: argparse.Namespace, config: Config, profile: Profile, picture: TextIO | None) -> int:
    """The games of ``simulate``, their summary on stdout and in ``picture``."""
    import json
    import time

    from .simulate import iter_games
    from .summary import Progress, summarise, svg, text, vision_text
    start = time.perf_counter()
    progress = Progress(args.games, sys.stderr, time.perf_counter) \
        if (args.progress or sys.stderr.isatty()) and not args.json else None
    results = []
    try:
        for result in iter_games(args.games, players=args.players, seed=args.seed, scoring=args.scoring,
                                 limit=args.limit, edition=args.edition, config=config,
                                 variant=args.variant, vision=args.vision):
            results.append(result)
            if args.json:
                print(json.dumps(result.json()), flush=True)
            if progress:
                progress.step()
    except ConfigError as exc:
        print(f"uno-shooter: {exc}", file=sys.stderr)
        return 2
    if progress:
        progress.end()
    summary = summarise(results, profile)
    if not args.json:
        print(text(summary), end="")
        if args.vision:
            print(vision_text(results))
    if picture is not None:
        picture.write(svg(summary))
    print(f"uno-shooter: {args.games} games in {time.perf_counter() - start:.2f} s of wall time", file=sys.stderr)
    return 0
