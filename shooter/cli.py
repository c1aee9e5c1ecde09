"""The ``uno-shooter`` command."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from . import __version__
from .errors import ConfigError, InstallError

# The rest is imported where it is used: a command loads only what it needs (start-up time), and what this module
# imports is loaded before main() can hold the collector off (see main)
if TYPE_CHECKING:
    from typing import TypeAlias

    from .app import App
    from .config import Config

    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

DESCRIPTION = """\
uno-shooter: the controller of an Uno Extreme card shooter on a Raspberry Pi.

Examples:
  uno-shooter run                                  # the service: consoles from the config
  uno-shooter run --sim --console stdio            # simulated shooter, type commands
  echo status | uno-shooter run --sim --console stdio --clock virtual --seed 1
  uno-shooter check-config /etc/uno-shooter/config.toml
  uno-shooter diagram launcher                     # the shooter's state machine (mermaid)
  uno-shooter simulate --games 10 --players 4      # bots play whole games on the simulator
  uno-shooter selftest                             # bring-up: every part, pass or fail
  uno-shooter calibrate                            # bring-up: seat angles, motor timing
  uno-shooter cards bench --sim --json             # the camera's recogniser on rendered frames
"""


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. When ``argv`` starts with a command, only that command's parser is built (the
    others cost the start-up several ms and cannot be reached: every word after the command is that command's);
    otherwise (``--help``, ``--version``, no or an unknown command) all, so that the help lists every command and
    an error names the choices."""
    from .protocol import PROTOCOL_VERSION
    p = argparse.ArgumentParser(prog="uno-shooter", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"uno-shooter {__version__} (protocol {PROTOCOL_VERSION})")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    first = (sys.argv[1:] if argv is None else argv)[:1]
    only = [add for names, add in _COMMANDS if first and first[0] in names]
    for add in only or [add for _, add in _COMMANDS]:
        add(sub)
    return p


def _run_parser(sub: Subparsers) -> None:
    run = sub.add_parser("run", help="run the controller",
                         description="Run the controller. One command per line on each console; "
                                     "replies and events come back as JSON lines (docs/protocol.md).")
    run.add_argument("--config", type=Path, metavar="PATH",
                     help="config file (default /etc/uno-shooter/config.toml if it exists, else built-in defaults)")
    run.add_argument("--sim", action="store_true", help="simulated hardware instead of GPIO pins")
    run.add_argument("--clock", choices=("real", "virtual"), default="real",
                     help="virtual: simulated time, every line carried out to quiescence (needs --sim)")
    run.add_argument("--seed", type=int, metavar="N", help="seed of every random choice (replayable runs)")
    run.add_argument("--console", action="append", metavar="KIND",
                     help="stdio, tcp:PORT or serial:DEVICE; repeatable; replaces the config's consoles")
    run.add_argument("--state-dir", type=Path, metavar="DIR",
                     help="where the game state is kept (default: the config's state.dir; "
                          "with --sim none unless given)")
    run.add_argument("--format", choices=("auto", "json", "human"), default="auto",
                     help="stdio output: auto = human on a terminal, JSON otherwise")
    run.add_argument("--no-exit-sensor", action="store_true", help="run without the card-exit sensor")
    run.add_argument("--web", metavar="HOST:PORT",
                     help="serve the phone page and its WebSocket console here (e.g. 0.0.0.0:8080), or off; "
                          "replaces the config's web.listen (needs the [web] extra: aiohttp)")


def _check_config_parser(sub: Subparsers) -> None:
    check = sub.add_parser("check-config", help="validate a config file and exit",
                           description="Validate a config file; exit status 0 if it is valid, 2 if not.")
    check.add_argument("path", type=Path, nargs="?", help="config file (default /etc/uno-shooter/config.toml)")


def _simulate_parser(sub: Subparsers) -> None:
    from .bots.cli import add_parser
    add_parser(sub)


def _bringup_parsers(sub: Subparsers) -> None:
    """The bring-up commands: selftest and calibrate (shooter/bringup/cli.py)."""
    from .bringup.cli import add_parsers
    add_parsers(sub)


def _cards_parser(sub: Subparsers) -> None:
    from .camera.cards_cli import add_parser
    add_parser(sub)


def _diagram_parser(sub: Subparsers) -> None:
    diagram = sub.add_parser("diagram", help="print a state machine as a mermaid diagram")
    diagram.add_argument("machine", choices=("launcher", "table"))


def _consoles(args: argparse.Namespace, config: Config) -> list[str]:
    kinds: list[str]
    if args.console:
        kinds = args.console
    else:
        kinds = (["stdio"] if config.console.stdio else []) + \
                ([f"tcp:{config.console.tcp_port}"] if config.console.tcp_port else []) + \
                [f"serial:{d}" for d in config.console.serial]
    for kind in kinds:
        if kind != "stdio" and not kind.startswith(("tcp:", "serial:")):
            raise ConfigError(f"--console {kind}: must be stdio, tcp:PORT or serial:DEVICE")
        if kind.startswith("tcp:") and not (kind[4:].isascii() and kind[4:].isdigit()):
            raise ConfigError(f"--console {kind}: the port must be a number")
        if kind.startswith("tcp:") and not (int(kind[4:]) == 0 or 1024 <= int(kind[4:]) <= 65535):
            raise ConfigError(f"--console {kind}: port {int(kind[4:])} is not 1024..65535 "
                              f"(0 picks a free one; below 1024 are privileged ports)")
    return kinds


def _standard_streams() -> None:
    """A standard stream the caller closed (``<&-``, ``>&-``) is /dev/null: otherwise sys.stdin is None (an
    AttributeError in every command that asks the terminal) and the first file the program opens takes
    descriptor 0 or 1, so that the stdio console would read, or write its replies into, a state file."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
        except OSError:
            devnull = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))  # noqa: SIM115 (for the whole run)


def main(argv: list[str] | None = None) -> int:
    # Start-up makes tens of thousands of objects (modules, classes, functions, tables) that live as long as the
    # program: the collector would walk them some 45 times before the first reply (about 12 ms of the start) and
    # find no garbage. So it is held off until the command has started, and what start-up made is then frozen
    # out of every later collection too (gc.freeze: they would find nothing there either, and a collection of a
    # long run need not walk them). A caller already running without the collector keeps it off.
    held = gc.isenabled()
    gc.disable()
    started = _started if held else _still_off
    try:
        _standard_streams()
        return _main(argv, started)
    except BrokenPipeError:
        # the reader went away (uno-shooter simulate | head): exit quietly, the recipe of Python's docs
        # (signal module, "Note on SIGPIPE"): what is still buffered for stdout goes to /dev/null
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    finally:
        started()


def _started() -> None:
    """Start-up is over (see main): its objects leave the collector's generations, which runs again."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _still_off() -> None:
    """Start-up is over for a caller without the collector (see main): it stays off."""


def _main(argv: list[str] | None, started: Callable[[], None]) -> int:
    args = _parser(argv).parse_args(argv)
    if args.command != "run":
        started()  # the other commands' start-up is not timed, and some run long (simulate, calibrate)
    if args.command == "diagram":
        if args.machine == "launcher":
            from .launcher import launcher_diagram
            print(launcher_diagram())
        else:
            from .table import table_diagram
            print(table_diagram())
        return 0
    if args.command == "cards":
        from .camera.cards_cli import run as cards
        return cards(args)
    from .config import load_config
    if args.command == "simulate":
        from .bots.cli import run as simulate
        return simulate(args)
    if args.command in ("selftest", "calibrate"):
        from .bringup.cli import run as bringup
        return bringup(args)
    if args.command == "check-config":
        return _check_config(args)
    try:
        config = load_config(args.config)
        consoles = _consoles(args, config)
        if args.clock == "virtual" and not args.sim:
            raise ConfigError("--clock virtual needs --sim: real hardware runs in real time")
        if args.clock == "virtual" and consoles != ["stdio"]:
            raise ConfigError("--clock virtual runs exactly one console: --console stdio")
        web = _web_listen(args, config)
    except ConfigError as exc:
        print(f"uno-shooter: {exc}", file=sys.stderr)
        return 2
    if not consoles:
        print(f"uno-shooter: {NO_CONSOLE}", file=sys.stderr)
        return 2
    from .config import config_warnings
    for warning in config_warnings(config):
        print(f"uno-shooter: warning: {warning}", file=sys.stderr)
    state_dir = args.state_dir if (args.state_dir or args.sim) else config.state_dir
    from .app import App
    try:
        app = App(config, sim=args.sim, virtual=args.clock == "virtual", seed=args.seed,
                  state_dir=state_dir, exit_sensor=not args.no_exit_sensor)
    except InstallError as exc:
        print(f"uno-shooter: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        from hal.backends import NoPinFactoryError
        hint = "" if args.sim or isinstance(exc, NoPinFactoryError) else \
            " (no GPIO here? --sim runs the simulator; on a Pi, install the [pi5] or [pi4] extra)"
        print(f"uno-shooter: cannot start: {exc}{hint}", file=sys.stderr)
        return 1
    started()
    with app:
        fmt = args.format
        if fmt == "auto":
            fmt = "human" if (sys.stdin.isatty() and sys.stdout.isatty()) else "json"
        if args.clock == "virtual":
            return _run_virtual(app, fmt)
        return _run_real(app, consoles, config, fmt, web)


NO_CONSOLE = "no console configured (console.stdio, console.tcp_port or console.serial in the config, or --console)"


def _check_config(args: argparse.Namespace) -> int:
    """What ``run`` would say about the config, without starting: the same errors, and warnings."""
    from .config import config_warnings, load_config
    try:
        config = load_config(args.path)
        if not _consoles(argparse.Namespace(console=None), config):
            raise ConfigError(NO_CONSOLE)
    except ConfigError as exc:
        print(f"uno-shooter: config: {exc}", file=sys.stderr)
        return 2
    for warning in config_warnings(config):
        print(f"uno-shooter: warning: {warning}", file=sys.stderr)
    print(f"uno-shooter: config {args.path or 'defaults'} is valid")
    return 0


def _run_virtual(app: App, fmt: str) -> int:
    """One stdio console in virtual time: each line to quiescence, EOF ends with 0."""
    from .access import Caller, Link
    from .consoles.lines import read_lines
    from .consoles.stdio import stream_sink
    sink = stream_sink(sys.stdout.buffer, fmt)
    caller = Caller(Link.STDIO)
    controller, loop = app.controller, app.loop
    controller.add_sink(sink)
    loop.run_until_quiet()
    for line in read_lines(sys.stdin.buffer.read1 if hasattr(sys.stdin.buffer, "read1") else sys.stdin.buffer.read):
        loop.post(partial(controller.handle_line, line, sink, caller))
        loop.run_until_quiet()
    return 0


def _person_at_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _stop_when_idle(app: App) -> None:
    """End of input ends the program, once what the input started is over (bursts, turns)."""
    if app.loop.busy:
        app.clock.call_later(0.05, lambda: _stop_when_idle(app), idle=True, name="stop-when-idle")
    else:
        app.loop.stop()


def _web_listen(args: argparse.Namespace, config: Config) -> tuple[str, int] | None:
    """Where the web console listens (--web, else the config's web.listen), None for off."""
    from .config import parse_listen
    listen = parse_listen("--web" if args.web else "web.listen", args.web or config.web.listen)
    if listen is not None and args.clock == "virtual":
        raise ConfigError("--clock virtual runs exactly one console: --console stdio (no --web)")
    return listen


def _run_real(app: App, consoles: list[str], config: Config, fmt: str, web: tuple[str, int] | None = None) -> int:
    """Real time: consoles on their threads, the loop on this one, until EOF on
    stdio, SIGTERM or SIGINT. The motor is stopped and every device closed on the way out."""
    from .service import notify, watchdog_interval
    loop, controller = app.loop, app.controller
    log = app.log
    closers = []
    # Console threads inherit this mask: SIGTERM and SIGINT then reach the loop's thread, which
    # they wake at once (a signal that lands on another thread waits for the loop's next look).
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    for kind in consoles:
        if kind == "stdio" and fmt == "human" and _person_at_terminal():
            from .consoles import terminal
            closers.append(terminal.start(post=loop.post, controller=controller, version=__version__,
                                          on_end=lambda: _stop_when_idle(app)))
        elif kind == "stdio":
            from .consoles.stdio import StdioConsole  # each kind of console loads only when configured
            closers.append(StdioConsole(post=loop.post, controller=controller, fmt=fmt,
                                        on_end=lambda: _stop_when_idle(app), stdin_fd=sys.stdin.fileno(),
                                        stdout_fd=sys.stdout.fileno()).close)
        elif kind.startswith("tcp:"):
            from .consoles.base import ConsolePortError
            from .consoles.tcp import TcpConsole
            try:
                tcp = TcpConsole(int(kind[4:]), post=loop.post, controller=controller,
                                 max_clients=config.console.max_clients, log=log)
            except ConsolePortError as exc:
                for close in closers:
                    close()
                print(f"uno-shooter: --console {kind}: {exc.strerror}", file=sys.stderr)
                return 2
            log(f"uno-shooter: TCP console on 127.0.0.1:{tcp.port}")
            closers.append(tcp.close)
        else:
            from .consoles.serial import SerialConsole
            serial_console = SerialConsole(kind[7:], baudrate=config.console.baudrate, post=loop.post,
                                           controller=controller, reopen_interval=config.console.reopen_interval,
                                           log=log)
            closers.append(serial_console.close)
    if web is not None:
        try:
            closers.append(app.start_web(*web, max_connections=config.web.max_connections))
        except (ImportError, OSError, InstallError) as exc:  # InstallError: the tokens file may not be read
            # an install or config error, like a TCP port in use: exit 2 (systemd does not restart on it),
            # the consoles already started closed and the signals let through again
            for close in closers:
                close()
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
            if isinstance(exc, ImportError):
                log(f"uno-shooter: the web console needs aiohttp ({exc}): install the [web] extra, "
                    f"e.g. pip install 'uno-shooter[web]'")
            elif isinstance(exc, InstallError):
                log(f"uno-shooter: {exc}")
            else:
                log(f"uno-shooter: web console on {web[0]}:{web[1]}: {exc}")
            return 2

    stopped_by = []

    def halt() -> None:
        app.hw.motor.emergency_stop()  # at once, even if the loop is busy
        loop.stop()  # the loop returns, the with-block closes the hardware

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stopped_by.append(signum)
        # The handler runs on the loop's own thread, possibly while that thread holds the motor's lock
        # (in the middle of switching it on): taking that lock here could deadlock. A thread does it.
        threading.Thread(target=halt, name="halt", daemon=True).start()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    interval = watchdog_interval()
    if interval and config.watchdog:
        def ping() -> None:
            notify("WATCHDOG=1")
            app.clock.call_later(interval, ping, idle=True, name="watchdog")
        ping()
    notify("READY=1")
    try:
        loop.run_forever()
    finally:
        app.hw.safe_stop()
        notify("STOPPING=1")
        for close in closers:
            close()
    if stopped_by:
        name = signal.Signals(stopped_by[0]).name
        saved = ("game saved" if app.store is not None else
                 "the game was in memory only" if app.storage is not None else "no state file")
        log(f"uno-shooter: stopped by {name}: motor off, {saved}")
        if stopped_by[0] == signal.SIGINT:
            return 130  # a shell's convention for Ctrl-C
    return 0


# The commands in the order the help lists them: the names each entry adds -> the function adding their parsers
_COMMANDS: tuple[tuple[tuple[str, ...], Callable[[Subparsers], None]], ...] = (
    (("run",), _run_parser), (("check-config",), _check_config_parser), (("simulate",), _simulate_parser),
    (("selftest", "calibrate"), _bringup_parsers), (("cards",), _cards_parser), (("diagram",), _diagram_parser))

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
