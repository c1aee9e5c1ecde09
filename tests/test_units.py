"""The systemd units of the bring-up: the controller's exposure score, the Bluetooth serial unit, and the
serial console reopening /dev/rfcomm0 when the phone's link comes back (over pseudo-terminals)."""

import json
import os
import re
import select
import shutil
import subprocess
import sys
import tty
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
UNIT = ROOT / "systemd" / "uno-shooter.service"
RFCOMM = ROOT / "systemd" / "uno-shooter-rfcomm.service"


def unit_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_units_exposure_is_at_most_1_4():
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", str(UNIT)],
                         capture_output=True, text=True, timeout=60)
    score = float(re.search(r"Overall exposure level for \S+: ([0-9.]+)", out.stdout).group(1))
    assert score <= 1.4, out.stdout


def test_the_unit_keeps_the_web_consoles_lan_reachable():
    lines = unit_lines(UNIT)
    families = next(line for line in lines if line.startswith("RestrictAddressFamilies=")).split("=", 1)[1].split()
    assert set(families) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    allowed = " ".join(line.split("=", 1)[1] for line in lines if line.startswith("IPAddressAllow="))
    for net in ("localhost", "192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"):
        assert net in allowed.split()


def test_the_unit_has_the_limits_for_a_pi_zero_2():
    lines = unit_lines(UNIT)
    for line in ("PrivateMounts=yes", "RemoveIPC=yes", "UMask=0077"):
        assert line in lines
    memory = next(line for line in lines if line.startswith("MemoryMax="))
    assert int(memory.split("=")[1].rstrip("M")) <= 256  # a Pi Zero 2 W has 512 MB
    assert any(line.startswith("TasksMax=") for line in lines)
    assert any(line.startswith("LimitNOFILE=") for line in lines)


def test_the_units_documentation_points_where_the_readme_installs_it():
    readme = (ROOT / "docs" / "bringup.md").read_text()   # the install by hand
    for unit in (UNIT, RFCOMM):
        doc = next(line for line in unit_lines(unit) if line.startswith("Documentation="))
        for url in doc.split("=", 1)[1].split():
            path = url.removeprefix("file://")
            assert path.startswith("/opt/uno-shooter/src/")
            assert (ROOT / path.removeprefix("/opt/uno-shooter/src/")).exists()
    assert "| sudo tar -x -C /opt/uno-shooter/src" in readme


def test_the_bluetooth_unit_makes_the_pi_discoverable_and_binds_rfcomm0():
    lines = unit_lines(RFCOMM)
    assert "ExecStartPre=/usr/bin/bluetoothctl discoverable on" in lines
    assert "ExecStartPre=/usr/bin/sdptool add --channel=1 SP" in lines
    assert "ExecStart=/usr/bin/rfcomm watch /dev/rfcomm0 1" in lines
    assert "Restart=always" in lines


def _read_reply(master: int) -> dict:
    data = b""
    while b"\n" not in data:
        ready, _, _ = select.select([master], [], [], 20)
        assert ready, "no reply on the serial console"
        data += os.read(master, 4096)
    return json.loads(data.split(b"\n")[0])


def _link(path: Path) -> tuple[int, int]:
    """A new 'Bluetooth link': a pseudo-terminal whose slave the device path points at."""
    import pty
    master, slave = pty.openpty()
    tty.setraw(slave)
    if path.is_symlink():
        path.unlink()
    path.symlink_to(os.ttyname(slave))
    return master, slave


def test_the_serial_console_reopens_rfcomm0_when_the_link_returns(tmp_path):
    device = tmp_path / "rfcomm0"
    config = tmp_path / "config.toml"
    config.write_text("[console]\nreopen_interval = 0.1\n")
    master, slave = _link(device)
    proc = subprocess.Popen([sys.executable, "-m", "shooter", "run", "--sim", "--seed", "1", "--config", str(config),
                             "--console", f"serial:{device}"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert proc.stderr.readline().decode().strip() == f"uno-shooter: console {device} open"
        os.write(master, b"version\n")
        assert _read_reply(master)["reply"] == "version"
        os.close(master)          # the phone walks away: the link drops
        os.close(slave)
        device.unlink()           # rfcomm watch releases /dev/rfcomm0
        while True:               # the console notices and retries until the device is back
            line = proc.stderr.readline().decode()
            assert line, "the controller ended"
            if "retrying" in line:
                break
        master, slave = _link(device)   # the phone connects again
        while "open" not in (line := proc.stderr.readline().decode()):
            assert line, "the controller ended"
        os.write(master, b"status\n")
        assert _read_reply(master)["reply"] == "status"
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
        for fd in (master, slave):
            try:
                os.close(fd)
            except OSError:
                pass
