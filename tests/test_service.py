"""The real-time controller as the service runs it: TCP console, SIGTERM, systemd notify, the unit file."""

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def start(args, env=None):
    return subprocess.Popen([sys.executable, "-m", "shooter", "run", "--sim", "--seed", "1", *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1", **(env or {})})


def terminate(proc) -> int:
    """SIGTERM, and the exit status; a process that hangs is made to dump its threads' stacks."""
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
        proc.wait()
        pytest.fail("no exit 10 s after SIGTERM:\n" + proc.stderr.read().decode()[-6000:])


def tcp_port(proc) -> int:
    line = proc.stderr.readline().decode()
    assert "TCP console on 127.0.0.1:" in line, line
    return int(line.rsplit(":", 1)[1])


def test_tcp_console_on_loopback_answers_and_sigterm_ends_the_service_cleanly():
    proc = start(["--console", "tcp:0"])
    try:
        port = tcp_port(proc)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            f = conn.makefile("rwb")
            f.write(b"status\nversion\n")
            f.flush()
            status = json.loads(f.readline())
            version = json.loads(f.readline())
            assert status["reply"] == "status" and status["shooter"]["state"] == "ready"
            assert version == {"reply": "version", "ok": True, "version": version["version"], "protocol": 1}
        assert terminate(proc) == 0
    finally:
        proc.kill()
        proc.wait()


def test_every_tcp_client_gets_the_events():
    proc = start(["--console", "tcp:0"])
    try:
        port = tcp_port(proc)
        a = socket.create_connection(("127.0.0.1", port), timeout=10).makefile("rwb")
        b = socket.create_connection(("127.0.0.1", port), timeout=10).makefile("rwb")
        b.write(b"version\n")
        b.flush()
        json.loads(b.readline())  # b is registered
        a.write(b"sim lid open\n")
        a.flush()
        assert json.loads(a.readline())["reply"] == "sim"
        assert json.loads(a.readline())["event"] == "lid"
        assert json.loads(b.readline()) == {"event": "lid", "t": pytest.approx(0, abs=60), "state": "open"}
    finally:
        assert terminate(proc) == 0


def test_the_service_tells_systemd_it_is_ready(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(20)
    proc = start(["--console", "tcp:0"], env={"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "2000000"})
    try:
        messages = {sock.recv(100).decode() for _ in range(2)}
        assert messages == {"READY=1", "WATCHDOG=1"}
        assert terminate(proc) == 0
        assert sock.recv(100) in (b"STOPPING=1", b"WATCHDOG=1")
    finally:
        proc.kill()
        proc.wait()
        sock.close()


def test_the_unit_file_has_what_the_design_asks_for():
    unit = (ROOT / "systemd" / "uno-shooter.service").read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "SupplementaryGroups=gpio dialout",
                 "StateDirectory=uno-shooter", "User=uno-shooter", "DeviceAllow=char-gpiochip rw"):
        assert line in unit


def test_serial_console_on_a_pseudo_terminal_answers():
    import pty
    import select
    import tty
    master, slave = pty.openpty()
    tty.setraw(slave)
    device = os.ttyname(slave)
    proc = start(["--console", f"serial:{device}"])
    try:
        assert proc.stderr.readline().decode().strip() == f"uno-shooter: console {device} open"
        os.write(master, b"version\n")
        data = b""
        while b"\n" not in data:
            ready, _, _ = select.select([master], [], [], 20)
            assert ready, "no reply on the serial console"
            data += os.read(master, 4096)
        reply = json.loads(data.split(b"\n")[0])
        assert reply["reply"] == "version" and reply["protocol"] == 1
    finally:
        assert terminate(proc) == 0
        os.close(master)
        os.close(slave)
