"""Start-up loads what the configured consoles need and nothing else (the benchmark's start-up figure).

Each run is the real command in a child process; ``-X importtime`` lists every module it imported, in
the order it imported them.
"""

import re
import subprocess
import sys

# Loaded only for what needs them: a config file (tomllib), a refused trigger or a diagram (transitions,
# with its logging), a mistyped profile key (difflib), a TCP or serial console, pyserial, the web console.
ONLY_WHEN_NEEDED = ("tomllib", "transitions", "difflib", "shooter.consoles.tcp", "shooter.consoles.serial", "serial",
                    "shooter.web", "aiohttp")


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
