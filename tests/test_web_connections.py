"""The web console's connections against real sockets on loopback (issue 15, items 3, 5, 9 and 10): requests whose
headers never end, idle keep-alive, the caps in all and per client address, malformed requests in the log, the
security headers on every status, and the descriptors a flood leaves for saving the game.

aiohttp serves on its own thread as in the real command; the shooter is simulated in virtual time (nothing here
needs its loop but the save, which the subprocess test runs for real). No test sleeps: each waits for a reply or an
end of file, with a limit that only guards against a hang. Clients come from several loopback addresses
(127.0.0.2, 127.0.0.3, ...: all of 127/8 is this machine) to be several clients.
"""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("aiohttp")

from shooter.app import App
from shooter.config import parse_config
from shooter.web.pairing import Pairing
from shooter.web.server import SECURITY_HEADERS, WebConsole
from tests.fault_runners import _read_to_end as read_to_end

LIMIT = 20.0   # s; only a guard against a hang


class Served:
    """A simulated shooter (virtual time) and its web console on a free loopback port, serving on its thread."""

    def __init__(self, **options):
        self.app = App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None)
        self.app.controller.web.open(Pairing(self.app.clock, None))
        self.logged: list[str] = []
        self.web = WebConsole(self.app.controller, post=self.app.loop.post, port=0, log=self.logged.append,
                              **options)
        self.web.start()

    def connect(self, client: int = 2) -> socket.socket:
        """A connection from 127.0.0.<client>."""
        return socket.create_connection(("127.0.0.1", self.web.port), timeout=LIMIT,
                                        source_address=(f"127.0.0.{client}", 0))

    def request(self, raw: bytes, client: int = 2) -> tuple[int, dict[str, str], bytes]:
        """One request on a connection of its own: the status, the headers and the body of its response."""
        with self.connect(client) as conn:
            conn.sendall(raw)
            return parse_response(read_to_end(conn))

    def wait_open(self, n: int) -> None:
        """Until aiohttp's thread counts ``n`` connections open."""
        gate = self.web.gate
        with gate.changed:   # notified by every admit and leave: no polling, no sleep
            assert gate.changed.wait_for(lambda: gate.open == n, timeout=LIMIT), f"{gate.open} open, not {n}"

    def close(self):
        self.web.close()
        self.app.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def parse_response(data: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return (int(lines[0].split()[1]) if lines[0] else 0), headers, body


def get(path: str = "/", host: str = "127.0.0.1", extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}\r\n".encode()


def closed_by_server(conn: socket.socket) -> bool:
    """The server closed this connection (an end of file or a reset) before the guard's limit."""
    conn.settimeout(LIMIT)
    try:
        return conn.recv(65536) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_request_whose_headers_never_end_is_closed_and_so_is_an_idle_keep_alive():
    with Served(idle_timeout=0.3) as served:
        half = served.connect()
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")   # and nothing more
        trickle = served.connect(3)
        trickle.sendall(b"GET / HTTP/1.1\r\n")
        kept = served.connect(4)
        kept.sendall(b"GET /options.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")   # keep-alive: HTTP/1.1's default
        assert kept.recv(65536).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        for _ in range(3):   # a header line now and then never makes the headers whole
            trickle.sendall(b"X-Trickle: 1\r\n")
        assert closed_by_server(half) and closed_by_server(trickle) and closed_by_server(kept)
        assert time.monotonic() - started < LIMIT / 2
        served.wait_open(0)   # their places are given back
        assert served.request(get())[0] == 200


def test_connections_over_the_cap_per_address_and_in_all_are_closed_at_once_and_logged_once():
    with Served(connections=6, per_address=3) as served:
        held = [served.connect(2) for _ in range(3)]
        for conn in held:
            conn.sendall(b"GET / HTTP/1.1\r\n")   # half-sent, kept open
        served.wait_open(3)
        for _ in range(20):   # the same client again and again: refused, the others are not
            assert closed_by_server(served.connect(2))
        assert served.request(get(), client=3)[0] == 200
        held += [served.connect(3) for _ in range(3)]
        served.wait_open(6)
        assert closed_by_server(served.connect(4))   # a new client, but all places are taken
        refused = [m for m in served.logged if "refused" in m]
        assert len(refused) == 1 and "at most 3 connections from one address" in refused[0], served.logged
        for conn in held:
            conn.close()
        served.wait_open(0)
        assert served.request(get(), client=4)[0] == 200
        assert served.web.gate.refused == 21


def test_2000_malformed_requests_write_a_line_per_kind_and_then_their_count():
    bad = [b"GARBAGE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",               # not a method
           b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n",  # a space in a header name
           b"GET /" + b"x" * 10000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # a request line too long
           b"GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",                   # no such version
           b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"]        # TLS on the HTTP port
    with Served() as served:
        statuses = set()
        for i in range(2000):
            status, headers, _body = served.request(bad[i % len(bad)], client=2 + i % 50)
            statuses.add(status)
            assert all(headers.get(k) == v for k, v in SECURITY_HEADERS.items()), headers
        assert statuses == {400}
        lines = list(served.logged)
        assert 1 <= len(lines) <= len(bad), lines
        assert all("\n" not in m and "Traceback" not in m and len(m) < 300 for m in lines), lines
        assert all("\x1b" not in m and "\x16" not in m for m in lines), lines   # a client's bytes escaped
        served.app.clock.advance_to(61.0)   # a minute later the next of a kind says how many were held back
        served.request(bad[0])
        assert re.search(r"\(and \d{3} more like it in the last 61 s\)", served.logged[-1]), served.logged[-1]
        assert sum(len(m) for m in served.logged) < 2000


def test_every_status_carries_the_security_headers():
    with Served(max_connections=0) as served:
        port = served.web.port
        asked = {
            200: get("/"),
            404: get("/nothing-here"),
            403: get("/", host="attacker.example"),
            405: b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            503: get("/ws", host=f"127.0.0.1:{port}", extra="Upgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
            400: b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n",
        }
        for want, raw in asked.items():
            status, headers, _ = served.request(raw)
            assert status == want, (want, status)
            missing = {k: v for k, v in SECURITY_HEADERS.items() if headers.get(k) != v}
            assert not missing, (want, missing)


# ---- the descriptors: a flood of half-sent requests against the real command under LimitNOFILE=256 ----

NOFILE = 256   # the unit's LimitNOFILE


def _limited():
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))


class Limited:
    """``uno-shooter run`` with a TCP and a web console under the unit's descriptor limit: its two ports, and its
    log read on a thread of its own (a full pipe would stall it)."""

    def __init__(self, state_dir):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
        self.proc = subprocess.Popen([sys.executable, "-m", "shooter", "run", "--sim", "--console", "tcp:0",
                                      "--web", "127.0.0.1:0", "--state-dir", str(state_dir)], preexec_fn=_limited,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, env=env)
        self.lines: list[str] = []
        ports: dict[str, int] = {}
        up = threading.Event()

        def drain():
            for line in self.proc.stderr:
                self.lines.append(line)
                for kind, pattern in (("tcp", r"TCP console on 127\.0\.0\.1:(\d+)"),
                                      ("web", r"web console on http://127\.0\.0\.1:(\d+)/")):
                    if m := re.search(pattern, line):
                        ports[kind] = int(m[1])
                if len(ports) == 2:
                    up.set()
            up.set()   # it ended
        self._drain = threading.Thread(target=drain, name="limited-log", daemon=True)
        self._drain.start()
        assert up.wait(LIMIT) and len(ports) == 2, f"the consoles did not come up: {self.lines}"
        self.tcp, self.web = ports["tcp"], ports["web"]

    def stop(self) -> str:
        """SIGTERM; its whole log."""
        self.proc.terminate()
        self.proc.wait(LIMIT)
        self._drain.join(LIMIT)
        return "".join(self.lines)


def ask(port: int, lines: list[str]) -> list[dict]:
    """Lines to the TCP console; their replies and the events between them."""
    with socket.create_connection(("127.0.0.1", port), timeout=LIMIT) as conn:
        conn.sendall("".join(f"{line}\n" for line in lines).encode())
        conn.shutdown(socket.SHUT_WR)
        return list(map(json.loads, read_to_end(conn).decode().splitlines()))


def half_sent(port: int, n: int, per_client: int = 20) -> list[socket.socket]:
    """``n`` requests whose headers never end, ``per_client`` from each of 127.0.0.2, 127.0.0.3, ...; those
    the server refused are closed (their ends)."""
    held = []
    for i in range(n):
        conn = socket.create_connection(("127.0.0.1", port), timeout=LIMIT,
                                        source_address=(f"127.0.0.{2 + i // per_client}", 0))
        try:
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        except OSError:   # refused at once
            conn.close()
            continue
        held.append(conn)
    return held


def test_300_half_sent_requests_leave_the_saves_and_the_tcp_console_working(tmp_path):
    shooter = Limited(tmp_path)
    tcp = shooter.tcp
    held: list[socket.socket] = []
    try:
        assert ask(tcp, ["version"])[0]["ok"]   # up and serving
        held = half_sent(shooter.web, 300)
        assert len(held) >= 100   # the flood got in as far as the cap lets it
        said = ask(tcp, ["game new players=4", "round start first=7", "status"])
        replies = [o for o in said if "reply" in o]
        assert [r["ok"] for r in replies] == [True] * 3, said
        assert not [o for o in said if o.get("event") == "save-failed"], said
        saved = json.loads((tmp_path / "game.json").read_text())["game"]   # every accepted change is on disk
        assert (saved["phase"], saved["current"]) == ("play", replies[-1]["game"]["current"])
    finally:
        for conn in held:
            conn.close()
        err = shooter.stop()
    assert "save-failed" not in err and "Too many open files" not in err and "Traceback" not in err, err[-2000:]
    assert len(err.splitlines()) < 10, err[-2000:]
