"""``uno-shooter cards``: learn the deck's faces from the camera or from photos, measure the recogniser
(docs/vision.md).

The parser is built here without numpy or OpenCV; the commands import ``shooter.vision`` (the vision extra)
only when they run, so a shooter without it still starts as fast, and says in one line what to install.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import BadArgument, ConfigError
from .words import CARD_STYLES, EXPOSURES, CardStyle, Exposure

if TYPE_CHECKING:
    from ..config import Config
    from ..editions import Edition
    from ..vision.synthetic import FaceSpec
    from ..vision.templates import Deck

NEEDS_EXTRA = "the cards commands need the vision extra (OpenCV and numpy): pip install '.[vision]'"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(add_help=False)
    from ..table.args import VARIANTS
    common.add_argument("--variant", choices=list(VARIANTS),
                        help="the deck (default: the table's default; bench: every edition)")
    from ..editions import editions_of
    several = "; ".join(f"{variant}: {', '.join(str(e.edition) for e in editions_of(variant))}, the first by default"
                        for variant in VARIANTS if len(editions_of(variant)) > 1)
    common.add_argument("--edition", metavar="E", help=f"the variant's edition ({several})")
    common.add_argument("--config", type=Path, metavar="PATH", help="config file (its [camera] and state.dir)")
    common.add_argument("--state-dir", type=Path, metavar="DIR",
                        help="where card-templates.json is kept (default: the config's state.dir; with --sim none)")
    common.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the simulated scenes (default 1)")
    common.add_argument("--json", action="store_true", help="one JSON object instead of the summary")
    cards = sub.add_parser("cards", help="learn the deck's faces from the camera or photos; measure the recogniser",
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           description="The camera over the discard pile (docs/vision.md): learn each face of "
                                       "your deck once (through the camera, or from a folder of photos), then "
                                       "measure how well the cards are read.",
                           epilog="Examples:\n"
                                  "  uno-shooter cards learn                      # show each card the terminal names\n"
                                  "  uno-shooter cards learn ~/deck               # photos: red-7.jpg, wild_2.jpg\n"
                                  "  uno-shooter cards learn --sim --state-dir /tmp/s   # the simulated owner shows\n"
                                  "  uno-shooter cards test ~/photos              # red-7.jpg, wild-hit4.png, ...\n"
                                  "  uno-shooter cards test ~/photos --json --report ~/sheet   # + index.html\n"
                                  "  uno-shooter cards test --sim --seed 3        # a rendered held-out set\n"
                                  "  uno-shooter cards bench --sim --json         # every edition, one JSON object")
    what = cards.add_subparsers(dest="cards_command", required=True, metavar="WHAT")
    learn = what.add_parser("learn", parents=[common], help="show each face once to the camera, or learn from photos; "
                                                            "keep the templates",
                            description="The terminal names each face of the deck in turn: put that card on the "
                                        "pile and leave it still until the next is named. DIR: learn from a folder "
                                        "of photos instead, named as cards test names them (red-7.jpg, "
                                        "wild-hit4.png, red-7_2.jpg for another photo of a face; Flip: "
                                        "dark-wild.jpg), at least one photo of every face and of every colour. "
                                        "The templates go to card-templates.json in the state directory (other "
                                        "decks learned are kept). --sim: the simulated owner shows rendered cards.")
    learn.add_argument("directory", type=Path, nargs="?", metavar="DIR",
                       help="a folder of photos named by card (instead of the camera)")
    learn.add_argument("--sim", action="store_true", help="learn from the simulated camera's rendered cards")
    test = what.add_parser("test", parents=[common], help="accuracy and time per frame on photos or rendered frames",
                           description="DIR: every photo in it (.jpg, .png, .bmp), named by the card it shows "
                                       "(red-7.jpg, wild-hit4.png, blue-draw-two_2.jpg), read with the learned "
                                       "templates; --json adds the confusion (per face shown: what it was read "
                                       "as, how many times). --sim: the deck learned from rendered cards, then a "
                                       "held-out set rendered under conditions the learning never saw.")
    test.add_argument("directory", type=Path, nargs="?", metavar="DIR", help="a folder of photos named by card")
    test.add_argument("--sim", action="store_true", help="rendered frames instead of photos")
    test.add_argument("--report", type=Path, metavar="OUT",
                      help="with DIR: write OUT/index.html, a contact sheet of every photo read wrong or unsure "
                           "or with no card found (what was read, how sure), to see which to retake")
    test.add_argument("--cards", type=int, default=100, metavar="N", help="with --sim: cards put down (default 100)")
    bench = what.add_parser("bench", parents=[common], help="the held-out benchmark over every edition's faces",
                            description="Learn each edition from rendered cards, then read a held-out set per "
                                        "edition (another seed, wider camera heights, tilts, light, glare, blur and "
                                        "noise): reads, correct, wrong, unsure, missed, ms per frame.")
    bench.add_argument("--sim", action="store_true", required=True, help="rendered frames (the only kind yet)")
    bench.add_argument("--cards", type=int, default=200, metavar="N", help="cards per edition (default 200)")
    bench.add_argument("--held-out-seed", type=int, metavar="N",
                       help="seed of the held-out set (default: --seed + 1000); never the learning's --seed")
    bench.add_argument("--exposure", choices=EXPOSURES, default=Exposure.SET.value,
                       help="set: the camera takes the exposure the recogniser asks for (darker, to look again at "
                            "a card whose white it clipped), as the table's camera does (default); own: the camera "
                            "keeps its own, as one whose exposure cannot be set")
    bench.add_argument("--latency-cards", type=int, default=40, metavar="N",
                       help="cards per edition timed from at rest on the pile, in view, to their play, through "
                            "the frame pump at the table's frame rate on the virtual clock (a card a hand passes "
                            "over before its read: from the hand's going, and counted apart; default 40; 0: none)")
    bench.add_argument("--style", choices=CARD_STYLES, default=CardStyle.PLAIN.value,
                       help="how the rendered cards are printed: plain, the simulator's own (a white symbol with a "
                            "black outline; default), or printed, drawn like the printed cards (a tilted white "
                            "ellipse, the symbol in the card's colour, wood, felt and cloth tables, JPEG frames)")


def run(args: argparse.Namespace) -> int:
    try:
        import cv2  # noqa: F401  (the extra is there: say so once, here, not deep in a traceback)
        import numpy  # noqa: F401
    except ImportError:
        print(f"uno-shooter: {NEEDS_EXTRA}", file=sys.stderr)
        return 2
    from ..config import load_config
    from ..editions import choose, default, records
    try:
        config = load_config(args.config)
        record = choose(args.variant or default().variant, args.edition)
        if getattr(args, "cards", 1) < 1:
            raise ConfigError(f"--cards {args.cards}: must be at least 1")
        if getattr(args, "latency_cards", 0) < 0:
            raise ConfigError(f"--latency-cards {args.latency_cards}: must be 0 or more")
        if args.cards_command == "bench":
            from ..vision.bench import held_out_seed
            held_out_seed(args.seed, args.held_out_seed)   # refused here, in one line, before any work
        if args.cards_command == "test" and (args.directory is None) == (not args.sim):
            raise ConfigError("cards test needs a DIR of photos or --sim (one of them)")
        if args.cards_command == "learn" and args.directory is not None and args.sim:
            raise ConfigError("cards learn takes a DIR of photos or --sim, not both")
        if args.cards_command == "test" and args.report is not None and args.sim:
            raise ConfigError("--report is for a DIR of photos, not --sim")
    except (ConfigError, BadArgument) as exc:
        print(f"uno-shooter: {exc}", file=sys.stderr)
        return 2
    state_dir = args.state_dir if (args.state_dir or args.sim) else config.state_dir
    if args.cards_command == "bench":
        from ..vision.bench import bench
        chosen = [record] if args.variant or args.edition else records()
        return _print(bench(chosen, args.seed, args.cards, args.held_out_seed, exposure=args.exposure,
                            style=args.style, latency_cards=args.latency_cards), args.json, sys.stdout)
    if args.cards_command == "learn":
        return _learn(args, config, record, state_dir)
    if args.sim:
        from ..vision.bench import bench
        return _print(bench([record], args.seed, args.cards), args.json, sys.stdout)
    return _photos(args, record, state_dir)


def _print(result: dict[str, object], as_json: bool, out: TextIO) -> int:
    if as_json:
        print(json.dumps(result), file=out)
        return 0
    for key in ("cards", "reads", "correct", "wrong", "unsure", "missed", "ms_per_frame", "ms_per_read_frame"):
        print(f"{key:18} {result.get(key)}", file=out)
    waits = dict(result.get("latency") or {})  # type: ignore[call-overload]
    if waits.get("played"):
        print(f"{'latency':18} median {waits['median_s']} s, 90 % within {waits['p90_s']} s, most {waits['max_s']} s "
              f"({waits['played']} cards played, {100 * waits['within_goal']:.1f} % within {waits['goal_s']} s; "
              f"{waits['covered']} a hand passed over, timed from its going: most {waits['max_from_put_s']} s "
              f"from being put down)", file=out)
    for key, figures in dict(result.get("editions") or {}).items():  # type: ignore[call-overload]
        print(f"  {key:14} correct {figures['correct']}/{figures['cards']}, wrong {figures['wrong']}, "
              f"unsure {figures['unsure']}, missed {figures['missed']}", file=out)
    for line in list(result.get("mistakes") or []):  # type: ignore[call-overload]
        print(f"  wrong: {line}", file=out)
    if result.get("report"):
        print(f"report             {result['report']}", file=out)
    return 0


def _deck(record: Edition, state_dir: Path | None) -> Deck:
    from ..vision.templates import load
    if state_dir is None:
        raise ConfigError("no state directory: --state-dir DIR (where cards learn kept the templates)")
    return load(state_dir, log=lambda line: print(line, file=sys.stderr)).deck(record.key)


def _photos(args: argparse.Namespace, record: Edition, state_dir: Path | None) -> int:
    from ..vision.photos import PhotoError, named_photos, test_photos
    from ..vision.report import ContactSheet
    try:
        sheet = None if args.report is None else ContactSheet(args.report, f"cards test {args.directory}: the "
                                                                         f"photos not read right")
        named_photos(args.directory, record)   # the folder and every name, before the templates are read
        result = test_photos(args.directory, _deck(record, state_dir), record,
                             None if sheet is None else sheet.add)
        if sheet is not None:
            result["report"] = str(sheet.write(result))
    except (ConfigError, KeyError, PhotoError) as exc:
        print(f"uno-shooter: {str(exc).strip(chr(39))}", file=sys.stderr)
        return 2
    return _print(result, args.json, sys.stdout)


def _learn(args: argparse.Namespace, config: Config, record: Edition, state_dir: Path | None) -> int:
    from ..vision.templates import load, save
    learned_from = ""
    missed: list[FaceSpec]
    if args.directory is not None:
        from ..vision.photos import PhotoError, learn_photos
        try:
            deck, used = learn_photos(record, args.directory, warn=lambda line: print(f"uno-shooter: {line}",
                                                                                     file=sys.stderr))
        except PhotoError as exc:
            print(f"uno-shooter: {exc}; nothing was learned", file=sys.stderr)
            return 2
        missed, learned_from = [], f" from {used} photo{'s' if used != 1 else ''}"
    elif args.sim:
        from ..vision.learn import learn_sim
        deck, missed = learn_sim(record, args.seed, every_colour=True)
    else:
        from ..vision.live import learn_live
        if config.camera is None:
            print("uno-shooter: no [camera] in the config (docs/vision.md); --sim learns from the simulator",
                  file=sys.stderr)
            return 2
        try:
            deck, missed = learn_live(record, config.camera, sys.stdout)
        except KeyboardInterrupt:
            print("\nuno-shooter: interrupted; nothing was saved", file=sys.stderr)
            return 130
    shown = f"{deck.face_count()} faces of {record.title} learned{learned_from}"
    if missed:
        print(f"uno-shooter: {shown}; not seen: {', '.join(f.name for f in missed)}", file=sys.stderr)
    if state_dir is None:
        print(f"{shown}; not kept (no --state-dir)")
        return 0 if not missed else 1
    templates = load(state_dir, log=lambda line: print(line, file=sys.stderr))
    templates.decks[record.key] = deck
    print(f"{shown}; kept in {save(state_dir, templates)}")
    return 0 if not missed else 1
