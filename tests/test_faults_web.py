"""The fault suite (issue 15): slow and half-sent HTTP clients against the web console of the real command under
the unit's ``LimitNOFILE=256``, while the game is changed and saved over the TCP console throughout.

Every 25 hostile clients a game change (``game new players=N force``, N going round) goes over the TCP console: it must
be answered ok, without a ``save-failed`` event, and be on disk before the next; its loss is data lost. Loopback
only (the clients come from 127.0.0.2 ... 127.0.0.21), a bounded number of clients, each wait bounded.
"""

import json
import random
import socket
import time

import pytest

from tests.fault_runners import FaultResult
from tests.test_faults import record
from tests.test_web_connections import LIMIT, Limited, ask, read_to_end

pytestmark = pytest.mark.faults

KINDS = ("half-sent", "trickle", "idle keep-alive", "never reads", "malformed", "connect-close", "reset",
         "page")
BAD = (b"GARBAGE / HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\nBad Header: x\r\n\r\n",
       b"GET /" + b"x" * 10000 + b" HTTP/1.1\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n")


def _client(rng: random.Random, port: int, kind: str, source: str, held: list[socket.socket]) -> bool:
    """One hostile (or plain) client; False when the web console failed it (a page not served while it had room)."""
    try:
        conn = socket.create_connection(("127.0.0.1", port), timeout=LIMIT, source_address=(source, 0))
    except OSError:
        return True   # refused at the accept: the cap holds
    try:
        if kind == "half-sent":
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        elif kind == "trickle":
            conn.sendall(b"GET / HTTP/1.1\r\n" + b"X-Trickle: 1\r\n" * rng.randint(1, 20))
        elif kind == "idle keep-alive":
            conn.sendall(b"GET /options.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        elif kind == "never reads":
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            conn.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 4)
        elif kind == "malformed":
            conn.sendall(rng.choice(BAD))
        elif kind == "reset":
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            conn.close()
            return True
        elif kind == "page":   # a phone loading the page: served, or refused whole (the cap), never half
            conn.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            reply = read_to_end(conn)
            conn.close()
            return reply == b"" or reply.startswith(b"HTTP/1.1 200")
        else:   # connect-close
            conn.close()
            return True
    except OSError:   # refused (reset) while sending: the cap holds
        conn.close()
        return True
    held.append(conn)
    return True


def test_2000_slow_and_half_sent_http_clients_while_the_game_is_saved(tmp_path):
    rng = random.Random(23)
    shooter = Limited(tmp_path)
    held: list[socket.socket] = []
    kinds = dict.fromkeys(KINDS, 0)
    n, every = 2000, 25
    survived = lost = saves = pages_failed = slowest = 0
    started = time.monotonic()
    try:
        for i in range(n):
            kind = rng.choice(KINDS)
            kinds[kind] += 1
            ok = _client(rng, shooter.web, kind, f"127.0.0.{2 + rng.randrange(20)}", held)
            pages_failed += not ok
            survived += ok
            if len(held) > 400:   # the flood lets go of some, as a real one does
                for conn in rng.sample(held, 100):
                    held.remove(conn)
                    conn.close()
            if (i + 1) % every == 0:
                players = 2 + (i // every) % 9
                asked = time.monotonic()
                said = ask(shooter.tcp, [f"game new players={players} force"])
                slowest = max(slowest, time.monotonic() - asked)
                saved = json.loads((tmp_path / "game.json").read_text())["game"]["players"]
                answered = [o for o in said if "reply" in o] == [{"reply": "game", "ok": True}]
                failed = any(o.get("event") == "save-failed" for o in said)
                saves += 1
                if not answered or failed or saved != players:
                    lost += 1
                    survived -= every   # the clients since the last good save broke it
        assert ask(shooter.tcp, ["version"])[0]["ok"]   # the TCP console still answers
    finally:
        for conn in held:
            conn.close()
        log = shooter.stop()
    lines = log.splitlines()
    r = record(FaultResult("slow/half-sent HTTP, LimitNOFILE 256", n, max(survived, 0), lost, {
        **kinds, "saves": saves, "saves lost": lost, "pages failed": pages_failed,
        "slowest save s": round(slowest, 3), "log lines": len(lines), "tracebacks": log.count("Traceback"),
        "run s": round(time.monotonic() - started, 1)}))
    assert r.survived == r.tried and r.lost == 0
    assert "Too many open files" not in log and "Traceback" not in log, log[-3000:]
    assert len(lines) < 20, log[-3000:]   # one line per kind of problem a minute
