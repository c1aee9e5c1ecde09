"""Start-up loads what the configured consoles need and nothing else (the benchmark's start-up figure).

Each run is the real command in a child process; ``-X importtime`` lists every module it imported, in
the order it imported them.
"""

import gc
import re
import subprocess
import sys

import pytest

# Loaded only for what needs them: a config file (tomllib), a refused trigger or a diagram (transitions,
# with its logging), a mistyped profile key (difflib), a TCP or serial console, pyserial, the web console, a
# camera (its reads), the parser of another command (cards_cli: the cards commands').
ONLY_WHEN_NEEDED = ("tomllib", "transitions", "difflib", "shooter.consoles.tcp", "shooter.consoles.serial", "serial",
                    "shooter.web", "aiohttp", "shooter.camera.reads", "shooter.vision", "shooter.camera.cards_cli")


def imported(args: list[str], stdin: str = "version\n") -> set[str]:
    """The modules ``uno-shooter ARGS`` imported, having answered ``stdin``."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "shooter", *args], input=stdin.encode(),
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    assert b'"reply": "version"' in out.stdout
    return set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", out.stderr.decode(), re.MULTILINE))


def test_a_simulated_shooter_on_stdio_loads_no_other_console_no_config_reader_and_no_transitions():
    modules = imported(["run", "--sim", "--console", "stdio", "--clock", "virtual"])
    assert {"shooter.controller", "shooter.consoles.stdio", "gpiozero"} <= modules   # the method sees imports
    assert not modules & set(ONLY_WHEN_NEEDED), sorted(modules & set(ONLY_WHEN_NEEDED))


def test_the_real_time_stdio_console_loads_neither_the_tcp_nor_the_serial_console():
    modules = imported(["run", "--sim", "--console", "stdio"])
    assert "shooter.consoles.stdio" in modules
    assert not modules & {"shooter.consoles.tcp", "shooter.consoles.serial", "serial"}


def test_a_config_file_loads_its_reader(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[table]\ndefault_seats = 3\n")
    modules = imported(["run", "--sim", "--console", "stdio", "--clock", "virtual", "--config", str(config)])
    assert "tomllib" in modules and "shooter.consoles.tcp" not in modules


@pytest.fixture
def collector():
    """The collector as a test found it, given back afterwards (main freezes what start-up made)."""
    was = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if was else gc.disable)()


def test_the_collector_is_off_while_a_run_starts_and_on_again_when_it_serves(collector, monkeypatch):
    from shooter import app, cli
    seen = {}

    class App(app.App):
        def __init__(self, *args, **kwargs):
            seen["building"] = gc.isenabled()
            super().__init__(*args, **kwargs)

    def serve(_app, _fmt):
        seen["serving"], seen["frozen"] = gc.isenabled(), gc.get_freeze_count()
        return 0
    monkeypatch.setattr(app, "App", App)
    monkeypatch.setattr(cli, "_run_virtual", serve)
    gc.enable()
    assert cli.main(["run", "--sim", "--console", "stdio", "--clock", "virtual"]) == 0
    assert seen["building"] is False and seen["serving"] is True and seen["frozen"] > 0
    assert gc.isenabled()


def test_a_command_runs_with_the_collector_and_a_caller_without_it_keeps_it_off(collector, monkeypatch, capsys):
    from shooter import cli, launcher
    seen = []
    monkeypatch.setattr(launcher, "launcher_diagram", lambda: seen.append(gc.isenabled()) or "diagram")
    gc.enable()
    assert cli.main(["diagram", "launcher"]) == 0 and gc.isenabled()
    gc.disable()
    assert cli.main(["diagram", "launcher"]) == 0 and not gc.isenabled()
    assert seen == [True, False] and capsys.readouterr().out == "diagram\ndiagram\n"
    assert cli.main(["run", "--sim", "--clock", "virtual", "--console", "tcp:0"]) == 2 and not gc.isenabled()
