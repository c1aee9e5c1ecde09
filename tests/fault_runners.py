"""Fault runners for the fault suite (``python -m pytest -m faults``; tests/test_faults.py).

Each runner injects one kind of fault many times into the real code (the simulator in virtual time,
real sockets, a real pty, real processes) and returns a :class:`FaultResult`: how many were tried,
how many the controller survived (it kept its promises afterwards), and how much data was lost.

The lid and jam runners here drive the launcher on the simulator directly and account for every card;
``tests.faults_hw`` runs the same faults through the whole controller stack (tests/test_faults_hw.py, and
a row of its own in the suite).
"""

from __future__ import annotations

import io
import json
import os
import random
import select
import socket
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from shooter.app import App
from shooter.config import parse_config
from shooter.consoles import SerialConsole, TcpConsole, stream_sink
from shooter.launcher import Shot
from shooter.protocol import MAX_LINE_BYTES, is_comment

LIMIT = 20.0   # s; only a guard against a hang


@dataclass
class FaultResult:
    kind: str
    tried: int
    survived: int
    lost: int                          # data lost: game state, answered commands, cards
    figures: dict = field(default_factory=dict)

    def row(self) -> str:
        extra = ", ".join(f"{k} {v}" for k, v in self.figures.items())
        return f"{self.kind:<34} tried {self.tried:>7}  survived {self.survived:>7}  data lost {self.lost:>3}  {extra}"



# ---- the shooter: lid and jams (virtual time) ----

def lid_openings(n: int, seed: int = 7) -> FaultResult:
    """``n`` lid openings at random instants while bursts are served back to back (owed presses)."""
    from tests.conftest import Rig
    from tests.test_launcher import Bench
    rng = random.Random(seed)
    rig = Rig(cards=0)
    bench = Bench(rig, cards=None)
    max_on = rig.hw.settings.motor.max_on_time
    survived = mid_burst = 0
    try:
        for _ in range(n):
            rig.world.load(36)
            bench.launcher.load(36)
            for _ in range(3):   # three presses owed: served back to back
                bench.launcher.enqueue(Shot(seat=None, reason="hit2", planned=rng.randint(1, 12)))
            rig.wait(rng.uniform(0.0, 4.0))
            mid_burst += bench.launcher.state in ("firing", "retracting")
            rig.world.open_lid()
            rig.settle()
            off = not rig.motor_pins_on()
            rig.world.close_lid()
            rig.settle()
            survived += off and bench.launcher.state in ("ready", "empty") and not bench.launcher.queue
        lost = 0 if rig.world.accounted() else 1
        return FaultResult("lid opened during back-to-back bursts", n, survived, lost, {
            "mid-burst": mid_burst, "motor-on-with-lid-open s": round(rig.world.unsafe_time(), 6),
            "longest run s": round(rig.world.longest_motor_run, 3), "max_on_time s": max_on})
    finally:
        rig.hw.close()


def jams(n: int, seed: int = 3) -> FaultResult:
    """``n`` jams, each detected, refused presses while jammed, cleared by a lid cycle."""
    from tests.conftest import Rig
    from tests.test_launcher import Bench
    rng = random.Random(seed)
    rig = Rig(cards=0)
    bench = Bench(rig, cards=None)
    survived = 0
    try:
        for _ in range(n):
            rig.world.load(12)
            bench.launcher.load(12)
            rig.world.arm_jam()
            bench.launcher.enqueue(Shot(seat=None, reason="draw", planned=rng.randint(1, 12)))
            rig.settle()
            detected = bench.launcher.state == "jammed" and not rig.motor_pins_on()
            refused = bench.launcher.refusal(owed=False) is not None
            rig.world.open_lid()
            rig.settle()
            rig.world.close_lid()
            rig.settle()
            survived += detected and refused and bench.launcher.state == "ready"
        return FaultResult("jams", n, survived, 0 if rig.world.accounted() else 1, {
            "jam events": bench.names().count("jam"), "longest run s": round(rig.world.longest_motor_run, 3),
            "max_on_time s": rig.hw.settings.motor.max_on_time})
    finally:
        rig.hw.close()


# ---- fuzzed console lines ----

WORDS = ["sim", "lid", "open", "close", "load", "wait", "jam", "aim", "press", "status", "game", "new", "play",
         "round", "start", "uno", "catch", "penalty", "advice", "wrong-card", "hand", "score", "undo", "set",
         "magazine", "help", "version", "force", "last", "skip", "wild", "blank", "hit2", "7"]
OPTIONS = ["seat", "cards", "seconds", "players", "dealer", "first", "target", "points", "current", "direction",
           "edition", "scoring", "limit", "x", ""]
VALUES = ["1", "3", "11", "0", "-1", "٣", "３", "1_0", "1e3", "nan", "inf", "random", "cw", "x" * 40, "", "=",
          "9" * 30, "2016", "0.5"]
JUNK = ["\x00", "\x01", "\x1f", "\x7f", "\u0085", "\u2028", "\t", "#", "\ufeff", "\udcff", "é", "GET ", "="]


def fuzz_line(rng: random.Random) -> bytes:
    """One line without a line end: commands, options, numbers and junk mixed."""
    parts = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.45:
            parts.append(rng.choice(WORDS))
        elif r < 0.8:
            parts.append(f"{rng.choice(OPTIONS)}={rng.choice(VALUES)}")
        else:
            parts.append(rng.choice(JUNK) + rng.choice(WORDS))
    text = rng.choice([" ", "  ", "\t"]).join(parts)
    data = text.encode("utf-8", "surrogateescape")
    r = rng.random()
    if r < 0.03:
        data = bytes(rng.randrange(256) for _ in range(rng.randint(1, 30)))
    elif r < 0.04:
        data = b"status " + b"x" * (MAX_LINE_BYTES + rng.randint(0, 600))
    # never "game new ... force" (a wiped game is no fault) and never a line end inside
    return data.replace(b"\n", b" ").replace(b"\r", b" ").replace(b"force", b"farce")


def answered(line: bytes) -> bool:
    """The line rules: does this line get a reply?"""
    return not is_comment(line) and line.strip(b" \t") != b""


def _fingerprint(app) -> str:
    status = app.controller.cmd_status()
    return json.dumps([status, app.controller.table.to_dict()], sort_keys=True)


def console_lines_in_process(n: int, seed: int = 11) -> FaultResult:
    """``n`` fuzzed lines through the stdio console's path in virtual time: one reply each, and a
    rejected line changes nothing (the whole status and the table's saved form, compared)."""
    rng = random.Random(seed)
    out = io.BytesIO()
    crashes = changed = wrong_count = 0
    with tempfile.TemporaryDirectory() as state_dir, \
            App(parse_config({}), sim=True, virtual=True, seed=seed, state_dir=Path(state_dir),
                log=lambda m: None) as app:
        sink = stream_sink(out)
        got = []
        app.controller.add_sink(lambda obj: got.append(obj) if "event" in obj else None)
        app.loop.run_until_quiet()
        for line in [b"game new players=4 dealer=1", b"round start first=7"]:
            app.loop.post(lambda line=line: app.controller.handle_line(line, sink))
            app.loop.run_until_quiet()
        for _ in range(n):
            line = fuzz_line(rng)
            before = _fingerprint(app)
            replies: list[dict] = []
            app.loop.post(lambda line=line, replies=replies: app.controller.handle_line(line, replies.append))
            app.loop.run_until_quiet()
            if len(replies) != (1 if answered(line) else 0):
                wrong_count += 1
            if replies and not replies[0]["ok"]:
                if replies[0]["error"] == "internal":
                    crashes += 1
                elif replies[0]["error"] != "lid-open" and _fingerprint(app) != before:
                    changed += 1
            if app.world.lid_open and rng.random() < 0.5:
                app.world.close_lid()
                app.loop.run_until_quiet()
        faults = sum(1 for e in got if e.get("event") == "fault")
    return FaultResult("fuzzed lines, stdio path (in-process)", n, n - crashes - changed - wrong_count, changed, {
        "crashes": crashes, "state changes from rejected lines": changed, "not exactly one reply": wrong_count,
        "fault events": faults})


def console_lines_stdio_process(n: int, seed: int = 12) -> FaultResult:
    """``n`` fuzzed lines into the real command's standard input (virtual clock): it exits 0 and
    answers each answerable line exactly once."""
    import subprocess
    import sys
    rng = random.Random(seed)
    lines = [fuzz_line(rng) for _ in range(n)]
    data = b"".join(line + rng.choice([b"\n", b"\r\n", b"\r"]) for line in lines)
    want = sum(answered(line) for line in lines)
    proc = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--clock",
                           "virtual", "--seed", str(seed)], input=data, capture_output=True, timeout=1800)
    objs = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    replies = [o for o in objs if "reply" in o]
    internal = sum(1 for r in replies if r.get("error") == "internal")
    ok = proc.returncode == 0 and b"Traceback" not in proc.stderr
    return FaultResult("fuzzed lines, stdio (real process)", n,
                       n if ok and len(replies) == want and not internal else 0, 0,
                       {"exit": proc.returncode, "replies": len(replies), "expected": want, "internal": internal})


def _served(**options):
    app = App(parse_config({}), sim=True, seed=1, log=lambda m: None)
    thread = threading.Thread(target=app.loop.run_forever, name="fault-loop", daemon=True)
    thread.start()
    console = TcpConsole(0, post=app.loop.post, controller=app.controller, **options)

    def close():
        console.close()
        app.loop.stop()
        thread.join(LIMIT)
        app.close()
    return app, console, close


def _read_to_end(conn: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            chunk = conn.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def _ask(port: int, line: bytes) -> list[dict]:
    with socket.create_connection(("127.0.0.1", port), timeout=LIMIT) as conn:
        conn.sendall(line + b"\n")
        conn.shutdown(socket.SHUT_WR)
        return [o for o in map(json.loads, _read_to_end(conn).decode().splitlines()) if "reply" in o]


def console_lines_tcp(n: int, seed: int = 13, per_connection: int = 500) -> FaultResult:
    """``n`` fuzzed lines over TCP in real time, ``per_connection`` lines per half-closed connection:
    one reply each, no internal error, the console still answers."""
    rng = random.Random(seed)
    app, console, close = _served()
    wrong = internal = 0
    try:
        sent = 0
        while sent < n:
            lines = [fuzz_line(rng).replace(b"GET ", b"GOT ") for _ in range(min(per_connection, n - sent))]
            lines = [line for line in lines if not line.startswith((b"POST ", b"PUT ", b"HEAD "))]
            with socket.create_connection(("127.0.0.1", console.port), timeout=LIMIT) as conn:
                conn.sendall(b"".join(line + rng.choice([b"\n", b"\r\n", b"\r"]) for line in lines))
                conn.shutdown(socket.SHUT_WR)
                objs = [json.loads(x) for x in _read_to_end(conn).decode().splitlines()]
            replies = [o for o in objs if "reply" in o]
            wrong += abs(len(replies) - sum(answered(line) for line in lines))
            internal += sum(1 for r in replies if r.get("error") == "internal")
            sent += len(lines)
            app.loop.post(lambda: app.world.close_lid() if app.world.lid_open else None)
        alive = bool(_ask(console.port, b"version"))
    finally:
        close()
    return FaultResult("fuzzed lines, TCP (real time)", sent, sent if alive and not wrong and not internal else 0, 0,
                       {"reply count off by": wrong, "internal": internal})


# ---- TCP connections ----

def tcp_connections(n: int, seed: int = 17) -> FaultResult:
    """``n`` connects, disconnects, cut-off lines, half-closes and HTTP requests, at random."""
    rng = random.Random(seed)
    _app, console, close = _served()
    survived = 0
    kinds: dict[str, int] = {}
    try:
        for _ in range(n):
            kind = rng.choice(["connect-close", "cut-off", "half-close", "http", "reset"])
            kinds[kind] = kinds.get(kind, 0) + 1
            ok = True
            conn = socket.create_connection(("127.0.0.1", console.port), timeout=LIMIT)
            try:
                if kind == "connect-close":
                    pass
                elif kind == "cut-off":
                    conn.sendall(b"version\nsim lid open")
                    conn.shutdown(socket.SHUT_WR)
                    ok = len([x for x in _read_to_end(conn).splitlines() if b'"reply"' in x]) == 1
                elif kind == "half-close":
                    k = rng.randint(1, 40)
                    conn.sendall(b"status\n" * k)
                    conn.shutdown(socket.SHUT_WR)
                    ok = len([x for x in _read_to_end(conn).splitlines() if b'"reply"' in x]) == k
                elif kind == "http":
                    conn.sendall(rng.choice([b"GET", b"POST", b"PUT", b"HEAD"]) + b" / HTTP/1.1\r\nHost: x\r\n"
                                 b"Content-Length: 13\r\n\r\nsim lid open\n")
                    ok = len([x for x in _read_to_end(conn).splitlines() if b'"reply"' in x]) == 1
                elif kind == "reset":
                    conn.sendall(b"status\n" * 5)
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            finally:
                conn.close()
            survived += ok
        status = _ask(console.port, b"status")
        lid_closed = bool(status) and status[0]["shooter"]["lid"] == "closed"   # no cut-off or HTTP body ran
        per_connection = [t for t in threading.enumerate() if t.name in ("tcp-writer", "tcp-console-reader")]
        for t in per_connection:   # the last connection's may still be finishing: wait, with a limit
            t.join(LIMIT)
        threads = 1 + sum(t.is_alive() for t in per_connection)
    finally:
        close()
    return FaultResult("TCP connects/cut-offs/half-closes/HTTP", n, survived if lid_closed else 0, 0,
                       {**kinds, "lid still closed": lid_closed, "tcp threads left": threads - 1})


# ---- serial link drops and stalls over a pty ----

def serial_drops_and_stalls(n: int, seed: int = 19) -> FaultResult:
    """``n`` link drops (the pty goes away and comes back under the same name) and stalls (the
    client stops reading while events pour out, then reads again) on a serial console."""
    import pty
    import tty
    rng = random.Random(seed)
    app = App(parse_config({}), sim=True, seed=1, log=lambda m: None)
    thread = threading.Thread(target=app.loop.run_forever, name="fault-loop", daemon=True)
    thread.start()
    opened = threading.Semaphore(0)
    logged: list[str] = []

    def log(message):
        logged.append(message)
        if message.endswith(" open"):
            opened.release()
    tmp = tempfile.mkdtemp()
    device = os.path.join(tmp, "rfcomm0")

    def plug():
        master, slave = pty.openpty()
        tty.setraw(master)
        if os.path.lexists(device):
            os.unlink(device)
        os.symlink(os.ttyname(slave), device)
        os.close(slave)
        return master
    master = plug()
    console = SerialConsole(device, baudrate=115200, post=app.loop.post, controller=app.controller,
                            reopen_interval=0.01, max_interval=0.05, write_timeout=0.5, queue_limit=50, log=log)
    survived = drops = stalls = dropped_lines = 0
    try:
        for _ in range(n):
            assert opened.acquire(timeout=LIMIT), logged[-3:]
            if rng.random() < 0.5:
                drops += 1
                os.close(master)              # the link goes away ...
                master = plug()               # ... and comes back
            else:
                stalls += 1
                app.loop.post(lambda: [app.controller.emit("flood", i=i, pad="x" * 1000) for i in range(300)])
                os.write(master, b"version\r")
                seen = _read_until(master, b'"reply": "version"')
                dropped_lines += sum(json.loads(x).get("lines", 0) for x in seen.splitlines()
                                     if x.startswith(b'{"event": "dropped"'))
                survived += 1
                opened.release()   # still open: no reopen to wait for
                continue
            assert opened.acquire(timeout=LIMIT), logged[-3:]
            opened.release()
            os.write(master, b"version\r")
            _read_until(master, b'"reply": "version"')
            survived += 1
    finally:
        console.close()
        os.close(master)
        app.loop.stop()
        thread.join(LIMIT)
        app.close()
    return FaultResult("serial link drops and stalls (pty)", n, survived, 0, {
        "drops": drops, "stalls": stalls, "backlog lines dropped (announced)": dropped_lines,
        "opened": console.opened})


def _read_until(fd: int, needle: bytes) -> bytes:
    seen = b""
    while needle not in seen:
        ready, _, _ = select.select([fd], [], [], LIMIT)
        if not ready:
            raise AssertionError(f"no {needle!r}; got ...{seen[-200:]!r}")
        seen += os.read(fd, 65536)
    return seen
