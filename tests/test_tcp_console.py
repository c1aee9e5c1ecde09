"""The TCP console against real sockets, with the controller on its loop in real time (issue 7, item 6).

No test sleeps: each waits for a reply, an end of file or a thread's end, with a limit that only
guards against a hang.
"""

import errno
import json
import socket
import subprocess
import sys
import threading

import pytest

from shooter.app import App
from shooter.config import parse_config
from shooter.consoles import TcpConsole

LIMIT = 20.0  # s; only a guard against a hang


class Served:
    """A simulated shooter on its real-time loop, with a TCP console on a free port."""

    def __init__(self, **console_options):
        self.app = App(parse_config({}), sim=True, seed=1, log=lambda m: None)
        self.logged: list[str] = []
        self.thread = threading.Thread(target=self.app.loop.run_forever, name="test-loop", daemon=True)
        self.thread.start()
        self.console = TcpConsole(0, post=self.app.loop.post, controller=self.app.controller,
                                  log=self.logged.append, **console_options)

    def connect(self) -> socket.socket:
        conn = socket.create_connection(("127.0.0.1", self.console.port), timeout=LIMIT)
        return conn

    def ask(self, line: str) -> dict:
        with self.connect() as conn:
            conn.sendall(line.encode() + b"\n")
            return replies(read_all(conn, shut=True))[0]

    def close(self):
        self.console.close()
        self.app.loop.stop()
        self.thread.join(LIMIT)
        self.app.close()


def read_all(conn: socket.socket, shut: bool = False) -> bytes:
    if shut:
        conn.shutdown(socket.SHUT_WR)
    data = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk


def replies(data: bytes) -> list[dict]:
    return [o for o in map(json.loads, data.decode().splitlines()) if "reply" in o]


@pytest.fixture
def served():
    s = Served()
    yield s
    s.close()


def test_after_a_half_close_every_line_already_sent_gets_its_reply(served):
    with served.connect() as conn:
        conn.sendall(b"status\n" * 300 + b"version\n")
        got = replies(read_all(conn, shut=True))
    assert len(got) == 301 and got[-1]["reply"] == "version"


def test_a_line_cut_off_by_the_clients_close_is_not_carried_out(served):
    with served.connect() as conn:
        conn.sendall(b"version\nsim lid open")
        got = replies(read_all(conn, shut=True))
    assert [r["reply"] for r in got] == ["version"]
    assert served.ask("status")["shooter"]["lid"] == "closed"


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "HEAD", "DELETE", "OPTIONS"])
def test_an_http_request_closes_the_connection_and_nothing_after_it_runs(served, method):
    # what `curl --data-binary @script 127.0.0.1:PORT` sends
    body = b"sim lid open\n"
    with served.connect() as conn:
        conn.sendall(f"{method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                     + body)
        got = replies(read_all(conn))   # the controller closes it: no half-close needed
    assert len(got) == 1 and got[0]["ok"] is False and "HTTP" in got[0]["message"]
    assert served.ask("status")["shooter"]["lid"] == "closed"


def test_connections_beyond_the_cap_get_a_one_line_refusal():
    served = Served(max_clients=3)
    try:
        held = [served.connect() for _ in range(3)]
        for conn in held:  # each is being served
            conn.sendall(b"version\n")
            assert b'"version"' in conn.recv(4096)
        with served.connect() as extra:
            lines = read_all(extra).decode().splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["error"] == "busy" and "at most 3" in lines[0]
        held.pop().close()
        # a place is free again once the closed one is cleaned up
        for _ in range(200):
            with served.connect() as again:
                try:
                    again.sendall(b"version\n")
                    if replies(read_all(again, shut=True)):
                        break
                except ConnectionResetError:  # refused while "version" was on its way
                    continue
        else:
            pytest.fail("no place freed after a client left")
        for conn in held:
            conn.close()
    finally:
        served.close()


def test_the_accept_loop_survives_emfile_and_keeps_serving():
    pauses = []
    served = Served(wait=lambda s: pauses.append(s) or False)
    try:
        real_accept = served.console.accept
        failures = [OSError(errno.EMFILE, "Too many open files"), OSError(errno.ENFILE, "Too many open files")]

        def accept():
            if failures:
                raise failures.pop(0)
            return real_accept()
        served.console.accept = accept
        assert served.ask("version")["ok"]   # accepted by the accept already waiting
        assert served.ask("version")["ok"]   # accepted after two failures
        assert pauses == [0.05, 0.1]
        assert sum("Too many open files" in m for m in served.logged) == 2
    finally:
        served.close()


def test_the_accept_loop_survives_thread_exhaustion_with_a_refusal():
    served = Served(wait=lambda s: False)
    try:
        real_start = served.console.start_thread
        calls = []

        def start_thread(target, args, name):
            calls.append(name)
            if len(calls) == 2:
                raise RuntimeError("can't start new thread")
            return real_start(target, args, name)
        served.console.start_thread = start_thread
        assert served.ask("version")["ok"]  # accepted before the seam was in place
        with served.connect() as refused:
            line = read_all(refused).decode()
        assert "out of threads" in line and json.loads(line)["error"] == "busy"
        assert served.ask("version")["ok"]
        assert served.console.clients == 0 or served.console.clients <= 1
    finally:
        served.close()


def test_no_writer_thread_leaks_when_a_non_reading_client_is_dropped():
    served = Served(queue_limit=4)
    try:
        before = {t for t in threading.enumerate() if t.name == "tcp-writer"}
        conn = socket.socket()
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.connect(("127.0.0.1", served.console.port))
        conn.settimeout(LIMIT)
        conn.sendall(b"version\n")
        assert b'"version"' in conn.recv(4096)
        writers = [t for t in threading.enumerate() if t.name == "tcp-writer" and t not in before]
        assert len(writers) == 1
        sent = 0
        try:
            while sent < 20000:   # help replies, never read: the queue overflows, the client is dropped
                conn.sendall(b"help\n" * 100)
                sent += 100
        except OSError:
            pass   # dropped while still sending
        writers[0].join(LIMIT)
        assert not writers[0].is_alive()
        conn.close()
        assert served.ask("version")["ok"]   # and the console goes on
    finally:
        served.close()


@pytest.mark.parametrize("port, says", [("70000", "port 70000"), ("80", "port 80"), ("x1", "tcp:x1")])
def test_a_bad_or_privileged_tcp_port_exits_2_with_one_line_naming_it(port, says):
    out = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", f"tcp:{port}"],
                         capture_output=True, timeout=60)
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and says in lines[0], out.stderr


def test_a_tcp_port_in_use_exits_2_with_one_line_naming_it():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", f"tcp:{port}"],
                             capture_output=True, timeout=60)
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and f"port {port} is in use" in lines[0], out.stderr
    assert "Traceback" not in out.stderr.decode()


def test_a_bare_cr_client_on_tcp_gets_one_reply_per_line(served):
    with served.connect() as conn:
        conn.sendall(b"version\rstatus\r\n# note\rpress\x1f\r")
        got = replies(read_all(conn, shut=True))
    assert [r["reply"] for r in got] == ["version", "status", "press"] and got[2]["error"] == "bad-argument"
