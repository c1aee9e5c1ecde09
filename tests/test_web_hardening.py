"""The web console under attack and under load: pairing when several ask, floods, slow sockets, Hosts.

Same rig as tests/test_web_api.py (the control loop pumped on the test's thread, virtual time).
"""

from __future__ import annotations

import asyncio
import socket

import pytest

pytest.importorskip("aiohttp")
from aiohttp import WSMsgType, WSServerHandshakeError

from shooter import beeps
from shooter.web import pairing, server
from tests.test_web_api import Web, run_web


class Held:
    """The control loop of a Web rig held still (the loop busy elsewhere): the posts a socket makes stay
    queued, so their count is what it left for the loop; and the console's log."""

    def __init__(self, web: Web):
        self.loop = web.app.loop
        self.console = web.controller.pairing.on_revoke.__self__  # the WebConsole serving this rig
        self.logged: list[str] = []
        self.console._log = self.logged.append

    def hold(self) -> None:
        self.loop.run_until_quiet = lambda: 0  # the rig's pump runs nothing

    def release(self) -> None:
        del self.loop.run_until_quiet

    @property
    def queued(self) -> int:
        return len(self.loop._queue)


def _local(web, line: str) -> dict:
    """One line from a local console (the owner's terminal), on the loop; its reply."""
    out: list[dict] = []
    web.controller.handle_line(line, out.append)
    return out[-1]


def _is(*names):
    return lambda o: o.get("event") in names


def test_a_press_with_two_browsers_waiting_pairs_nobody_and_says_so():
    async def body(web):
        owner, attacker, watcher = await web.connect(), await web.connect_from("127.0.0.2"), await web.connect()
        played = []
        web.controller.hw.beeper.play = lambda pattern: played.append(pattern)
        assert (await web.send(owner, "pair"))["ok"]
        assert (await web.send(attacker, "pair"))["ok"]
        web.button()
        for ws in (owner, attacker):
            got = await web.recv(ws, _is("pair-granted", "pair-refused"))
            assert got["event"] == "pair-refused" and got["message"] == pairing.SEVERAL
        told = await web.recv(watcher, _is("pairing-refused", "paired"))
        assert told["event"] == "pairing-refused" and told["waiting"] == 2
        assert played == [beeps.PRESS_REFUSED]
        assert web.controller.pairing.status() == {"paired": [], "waiting": 0, "requests": []}
        assert (await web.send(attacker, "game new players=4"))["error"] == "not-paired"
        # asked again one at a time, the owner pairs
        assert (await web.pair(owner))["event"] == "pair-granted"
    run_web(body)


IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"


def test_a_waiting_request_is_shown_on_every_console_in_words_never_by_its_user_agent():
    async def body(web):
        asker, watcher = await web.connect(**{"User-Agent": IPHONE}), await web.connect()
        asked = await web.send(asker, "pair name=Eve")
        shown = await web.recv(watcher, _is("pair-waiting"))
        assert shown == {"event": "pair-waiting", "t": shown["t"], "label": "Eve (iPhone)", "device": "iPhone",
                         "name": "Eve", "request": asked["request"], "waiting": 1}
        crafted = await web.connect(**{"User-Agent": "<script>alert(1)</script> Android Mobile \u00e9\u00e9"})
        await web.send(crafted, "pair")
        assert (await web.recv(watcher, _is("pair-waiting")))["label"] == "Android phone"
    run_web(body)


def test_a_press_while_presses_are_owed_serves_them_and_the_request_keeps_waiting():
    async def body(web):
        asker, watcher = await web.connect(), await web.connect()
        assert _local(web, "game new players=4")["ok"]
        assert _local(web, "round start first=7")["ok"]
        assert _local(web, "penalty advice seat=2")["ok"]
        assert (await web.send(asker, "pair"))["ok"]
        web.button()
        got = await web.recv(watcher, _is("press", "paired", "pairing-refused"))
        assert got["event"] == "press" and got["reason"] != "draw" and got["seat"] == 2
        assert web.controller.pairing.waiting_count == 1
    run_web(body)


def test_a_players_draw_press_during_a_game_is_served_and_pairs_nobody():
    """The hijack: a watcher keeps asking, and the next player's draw press used to pair it instead."""
    async def body(web):
        asker, watcher = await web.connect(), await web.connect()
        assert _local(web, "game new players=4")["ok"]
        assert _local(web, "round start first=7")["ok"]
        assert web.controller.table.press_owner() == (2, "draw")
        assert (await web.send(asker, "pair"))["ok"]
        web.button()
        got = await web.recv(watcher, _is("press", "paired", "pairing-refused"))
        assert got["event"] == "press" and (got["seat"], got["reason"]) == (2, "draw")
        assert web.controller.table.press_owner()[0] == 3  # the draw was served: the turn moved on
        assert web.controller.pairing.status()["paired"] == [] and web.controller.pairing.waiting_count == 1
    run_web(body)


def test_a_frame_is_one_command_line_and_a_line_break_inside_refuses_it_with_one_reply():
    async def body(web):
        ws = await web.connect()
        refused = await web.send(ws, "status\nstatus\nstatus")
        assert refused["ok"] is False and refused["error"] == "bad-argument" and "U+000A" in refused["message"]
        assert (await web.send(ws, "version"))["reply"] == "version"  # no status replies came in between
    run_web(body)


def test_a_flooding_socket_is_closed_and_cannot_queue_more_than_its_lines_in_flight():
    async def body(web):
        flooder, other = await web.connect(), await web.connect()
        held = Held(web)
        held.hold()  # nothing the flooder sends gets answered
        before = held.queued
        for _ in range(200):
            await flooder.send_str("status")
        closed = await flooder.receive(timeout=5.0)
        assert closed.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
        flood = held.queued - before
        assert flood <= server.IN_FLIGHT + 1  # its lines in flight (+ its own close), not 200
        assert any("without waiting for their replies" in m for m in held.logged)
        await other.send_str("version")
        while held.queued == before + flood:  # the other console's line reaches the loop's queue
            await asyncio.sleep(0)
        ahead = held.queued - 1 - before
        assert ahead <= server.IN_FLIGHT + 1  # so at most that many posts go before its reply
        held.release()
        assert (await web.recv(other, lambda o: "reply" in o))["reply"] == "version"
    run_web(body)


def test_a_console_that_waits_for_its_replies_is_never_cut_off():
    async def body(web):
        ws, held = await web.connect(), Held(web)
        for _ in range(3 * server.IN_FLIGHT):
            assert (await web.send(ws, "version"))["ok"]
        held.hold()
        for _ in range(server.IN_FLIGHT):  # as many at once as allowed
            await ws.send_str("version")
        held.release()
        for _ in range(server.IN_FLIGHT):
            assert (await web.recv(ws, lambda o: "reply" in o))["ok"]
        assert not held.logged
    run_web(body)


def test_a_socket_that_stops_reading_is_closed_and_the_others_carry_on():
    async def body(web):
        slow, held = await web.connect(), Held(web)
        assert (await web.send(slow, "version"))["ok"]
        (slow_sock,) = held.console._sockets
        other = await web.connect()
        assert (await web.send(other, "version"))["ok"]
        stuck = asyncio.get_running_loop().create_future()  # a phone that stopped reading: sends never finish

        async def never(text):
            await stuck
        slow_sock.ws.send_str = never
        for batch in range(6):  # 600 events, 100 at a time: the other socket reads each batch
            for i in range(100):
                web.controller.emit("names", names={"1": f"n{batch * 100 + i}"})
            got = [await web.recv(other, _is("names")) for _ in range(100)]
            assert got[-1]["names"] == {"1": f"n{batch * 100 + 99}"}
        closed = await slow.receive(timeout=5.0)
        assert closed.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
        assert closed.extra == "too slow"
        assert not slow_sock.alive
        assert (await web.send(other, "version"))["ok"]  # the loop and the other socket carry on
        stuck.cancel()
    run_web(body)


def test_a_foreign_host_header_is_refused_for_the_page_and_the_socket():
    async def body(web):
        port = web.client.port
        for host in (f"attacker.example:{port}", f"127.0.0.1:{port + 1}", "attacker.example"):
            for path in ("/", "/options.json", "/i18n/en.json", "/static/app.js"):
                page = await web.client.get(path, headers={"Host": host})
                assert page.status == 403, (host, path)
            with pytest.raises(WSServerHandshakeError) as refused:
                await web.client.ws_connect("/ws", headers={"Host": host, "Origin": f"http://{host}"})
            assert refused.value.status == 403
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"{socket.gethostname()}.local:{port}"):
            for path in ("/", "/options.json"):
                assert (await web.client.get(path, headers={"Host": host})).status == 200, (host, path)
        ws = await web.connect(Origin=f"http://localhost:{port}", Host=f"localhost:{port}")
        assert (await web.send(ws, "version"))["ok"]
    run_web(body)


SHOOTER = {"shooter", "shooter.local", "0.0.0.0", "localhost", "127.0.0.1"}  # host_names("0.0.0.0") on a Pi "shooter"


def test_a_host_without_a_port_names_this_shooter_by_its_name_alone():
    # a browser leaves out its scheme's default port (80 for http, 443 for https), which the server, listening
    # on 8080, cannot know: reached through a TLS reverse proxy on 443 or a port forward from 80, the name decides
    local = ("127.0.0.1", 8080)
    assert server.own_host("shooter.local", SHOOTER, local)
    assert server.own_host("Shooter.Local", SHOOTER, local)
    assert server.own_host("127.0.0.1", SHOOTER, local)


def test_a_foreign_name_is_refused_with_or_without_a_port_and_an_own_name_on_another_port_too():
    local = ("127.0.0.1", 8080)
    for host in ("attacker.example", "attacker.example:8080", "attacker.example:80", "shooter.local.attacker.example",
                 "", ":8080", "shooter.local:8081", "shooter.local:80", "shooter.local:443", "shooter.local:x"):
        assert not server.own_host(host, SHOOTER, local), host


def test_a_page_behind_a_tls_proxy_gives_a_host_without_a_port_and_is_served():
    async def body(web):
        name = f"{socket.gethostname()}.local"
        for host in (name, "localhost"):
            assert (await web.client.get("/", headers={"Host": host})).status == 200, host
        ws = await web.connect(Host=name, Origin=f"https://{name}")  # the page of https://NAME/ opens wss://NAME/ws
        assert (await web.send(ws, "version"))["ok"]
        for origin in (f"https://{name}:8443", "https://attacker.example"):  # still its own origin only
            with pytest.raises(WSServerHandshakeError) as refused:
                await web.client.ws_connect("/ws", headers={"Host": name, "Origin": origin})
            assert refused.value.status == 403, origin
    run_web(body)


def test_the_page_may_connect_to_its_own_origin_only():
    async def body(web):
        csp = (await web.client.get("/")).headers["Content-Security-Policy"]
        assert "connect-src 'self';" in csp and "ws:" not in csp and "wss:" not in csp
    run_web(body)


def test_a_watcher_sees_the_paired_browsers_by_id_but_not_their_labels():
    async def body(web):
        owner = await web.connect(**{"User-Agent": IPHONE})
        assert (await web.send(owner, "pair name=Ann"))["ok"]
        web.button()
        granted = await web.recv(owner, _is("pair-granted"))
        watcher = await web.connect_from("127.0.0.2")
        assert (await web.send(watcher, "pair name=Eve"))["ok"]
        seen = (await web.send(watcher, "status"))["pairing"]
        asked = seen["requests"][0]["request"]
        assert seen == {"paired": [{"id": granted["id"]}], "waiting": 1,
                        "requests": [{"request": asked, "seconds": 30.0}]}
        own = (await web.send(owner, "status"))["pairing"]
        assert own["paired"] == [{"id": granted["id"], "label": "Ann (iPhone)"}]
        assert own["requests"] == [{"request": asked, "label": "Eve (a browser)", "device": "a browser",
                                    "name": "Eve", "seconds": 30.0}]
    run_web(body)


def test_one_client_address_cannot_hold_every_websocket_slot():
    import aiohttp

    async def body(web):
        kept = [await web.connect() for _ in range(server.SOCKETS_PER_ADDRESS)]
        with pytest.raises(WSServerHandshakeError) as refused:
            await web.connect()
        assert refused.value.status == 503
        # another client (another loopback address) still gets a slot: the cap of 16 is not reached
        other = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0)))
        try:
            host = f"127.0.0.1:{web.client.port}"
            ws = await other.ws_connect(f"http://{host}/ws", headers={"Host": host})
            assert (await web.send(ws, "version"))["ok"]
            await ws.close()
        finally:
            await other.close()
        await kept[0].close()   # a slot of its own given back, the first client gets one again
        assert (await web.send(await web.connect(), "version"))["ok"]
    run_web(body)
