"""The web console's API through aiohttp's test client, on the simulator in virtual time.

The control loop runs on the test's own thread, pumped between aiohttp's steps; time is the
virtual clock's, so "refused after 30 s" is 30 virtual seconds, never a wait. (The 5 s in
``recv`` only turns a hang into a failure.)
"""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("aiohttp")
from aiohttp import ClientSession, TCPConnector, WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer

from shooter.app import App
from shooter.config import parse_config
from shooter.persist import Store
from shooter.web.pairing import HOLD, RATE_LIMIT, TOKENS_FILE, WINDOW, Pairing, token_hash
from shooter.web.server import WebConsole


class Web:
    """A simulated shooter with pairing, and the web console's app under aiohttp's test client."""

    def __init__(self, app: App, client: TestClient):
        self.app, self.client = app, client
        self.controller = app.controller
        self.sessions: dict[str, ClientSession] = {}   # a client session per loopback address (connect_from)

    async def pump(self):
        while True:  # the control loop between aiohttp's steps, on this one thread
            self.app.loop.run_until_quiet()
            await asyncio.sleep(0.001)

    async def connect(self, **headers):
        return await self.client.ws_connect("/ws", headers=headers)

    async def connect_from(self, address: str, **headers):
        """A socket from another client address (a loopback one, 127.0.0.2 ...): a client session bound to it."""
        if address not in self.sessions:
            self.sessions[address] = ClientSession(connector=TCPConnector(local_addr=(address, 0)))
        return await self.sessions[address].ws_connect(self.client.make_url("/ws"), headers=headers)

    @staticmethod
    async def recv(ws, match=lambda o: True) -> dict:
        while True:
            obj = json.loads((await ws.receive(timeout=5.0)).data)
            if match(obj):
                return obj

    async def send(self, ws, line: str) -> dict:
        """Send one line; the reply (events before it skipped)."""
        await ws.send_str(line)
        return await self.recv(ws, lambda o: "reply" in o)

    def button(self):
        self.app.world.press_button()  # the physical button, through the simulated pin

    async def pair(self, ws) -> dict:
        """Pair ``ws`` as with no game running: ``pair``, then a press of the shooter's button."""
        asked = await self.send(ws, "pair")
        assert asked == {"reply": "pair", "ok": True, "seconds": WINDOW, "request": asked["request"], "hold": HOLD}
        self.button()
        return await self.recv(ws, lambda o: o.get("event") == "pair-granted")


def run_web(body, *, state_dir=None, max_connections: int = 16, config: dict | None = None):
    """Build a Web rig (of ``config``, a config file's tables), run the async ``body(web)``, tear everything down."""
    async def main():
        app = App(parse_config(config or {}), sim=True, virtual=True, seed=1, log=lambda m: None)
        store = Store(state_dir, name=TOKENS_FILE) if state_dir else None
        app.controller.web.open(Pairing(app.clock, store))
        console = WebConsole(app.controller, post=app.loop.post, max_connections=max_connections)
        client = TestClient(TestServer(console.make_app()))
        await client.start_server()
        web = Web(app, client)
        pump = asyncio.ensure_future(web.pump())
        try:
            await body(web)
        finally:
            pump.cancel()
            for session in web.sessions.values():
                await session.close()
            await client.close()
            app.close()
    asyncio.run(main())


def test_the_page_and_its_catalogues_are_served():
    async def body(web):
        page = await web.client.get("/")
        assert page.status == 200 and "<html" in (await page.text())
        assert page.headers["X-Frame-Options"] == "DENY"
        nl = await (await web.client.get("/i18n/nl.json")).json()
        assert nl["setup.variant"] == "Welke Uno"
        assert (await web.client.get("/i18n/xx.json")).status == 404
        assert (await web.client.get("/static/app.js")).status == 200
    run_web(body)


def test_the_tables_options_are_served_as_json_with_the_pages_headers():
    from shooter.table import RuleOptions
    from shooter.web.options import document
    from shooter.web.server import SECURITY_HEADERS

    async def body(web):
        got = await web.client.get("/options.json")
        assert got.status == 200 and got.content_type == "application/json"
        assert await got.json() == document(players=4, rules=RuleOptions())
        assert {key: got.headers[key] for key in SECURITY_HEADERS} == SECURITY_HEADERS
    run_web(body)


def test_the_options_defaults_are_this_controllers_config():
    async def body(web):
        got = await (await web.client.get("/options.json")).json()
        assert got["defaults"] == {"players": 6, "dealer": "random", "start": "apply"}
    run_web(body, config={"table": {"default_seats": 6},
                          "rules": {"default_dealer": "random", "classic_first_card": "apply"}})


def test_anyone_may_watch_status_and_events_without_pairing():
    async def body(web):
        ws = await web.connect()
        status = await web.send(ws, "status")
        assert status["ok"] and status["shooter"]["state"] == "ready" and status["pairing"]["paired"] == []
        web.button()  # no one waits to pair: an ordinary press, which every socket hears
        press = await web.recv(ws, lambda o: o.get("event") == "press")
        assert press["source"] == "button"
    run_web(body)


def test_an_unpaired_socket_gets_not_paired_for_commands_and_nothing_changes():
    async def body(web):
        ws = await web.connect()
        for line in ("game new players=4", "press", "sim button", "unpair id=1"):
            answer = await web.send(ws, line)
            assert answer["ok"] is False and answer["error"] == "not-paired", answer
        assert web.controller.table.status() is None
        assert (await web.send(ws, "auth token=forged"))["error"] == "not-paired"
    run_web(body)


def test_a_button_press_within_30_s_pairs_and_does_nothing_else(tmp_path):
    async def body(web):
        ws, watcher = await web.connect(), await web.connect()
        cards = web.controller.launcher.cards
        assert (await web.send(ws, "pair"))["ok"]
        web.app.loop.run_for(WINDOW - 1)
        web.button()
        granted = await web.recv(ws, lambda o: o.get("event") == "pair-granted")
        announced = await web.recv(watcher, lambda o: o.get("event") in ("paired", "pair-granted", "press"))
        assert announced == {"event": "paired", "t": announced["t"], "id": granted["id"],  # no token for others
                             "request": announced["request"]}
        assert web.controller.launcher.cards == cards and not web.controller.launcher.queue  # nothing shot
        assert (await web.send(ws, "game new players=4"))["ok"]
        stored = json.loads((tmp_path / TOKENS_FILE).read_text())
        assert stored["tokens"][0]["hash"] == token_hash(granted["token"])
        assert granted["token"] not in (tmp_path / TOKENS_FILE).read_text()
    run_web(body, state_dir=tmp_path)


def test_the_pairing_press_beeps_to_confirm():
    from shooter import beeps

    async def body(web):
        ws = await web.connect()
        played = []
        web.controller.hw.beeper.play = lambda pattern: played.append(pattern)
        await web.pair(ws)
        assert played == [beeps.PAIRED]
    run_web(body)


def test_a_press_after_30_s_is_a_players_press_and_pairs_nobody():
    async def body(web):
        ws = await web.connect()
        assert (await web.send(ws, "pair"))["ok"]
        web.app.loop.run_for(WINDOW + 0.5)
        expired = await web.recv(ws, lambda o: o.get("event") in ("pair-expired", "pair-granted"))
        assert expired["event"] == "pair-expired"
        web.button()
        press = await web.recv(ws, lambda o: o.get("event") in ("press", "paired", "pair-granted"))
        assert press["event"] == "press"
        assert (await web.send(ws, "press"))["error"] == "not-paired"
    run_web(body)


def test_a_token_works_on_a_new_socket_until_it_is_revoked():
    async def body(web):
        first = await web.connect()
        granted = await web.pair(first)
        again = await web.connect()
        assert (await web.send(again, "press"))["error"] == "not-paired"
        assert (await web.send(again, f"auth token={granted['token']}")) == \
            {"reply": "auth", "ok": True, "id": granted["id"]}
        assert (await web.send(again, "aim seat=2"))["ok"]
        status = await web.send(again, "status")
        assert [p["id"] for p in status["pairing"]["paired"]] == [granted["id"]]
        assert (await web.send(again, f"unpair id={granted['id']}"))["ok"]
        for ws in (first, again):
            assert (await web.send(ws, "aim seat=3"))["error"] == "not-paired"
        assert (await web.send(again, f"auth token={granted['token']}"))["error"] == "not-paired"
        assert (await web.send(again, "status"))["pairing"]["paired"] == []
    run_web(body)


def test_tokens_survive_a_restart_through_the_state_directory(tmp_path):
    tokens = []

    async def pair(web):
        tokens.append((await web.pair(await web.connect()))["token"])

    async def reuse(web):
        ws = await web.connect()
        assert (await web.send(ws, f"auth token={tokens[0]}"))["ok"]
    run_web(pair, state_dir=tmp_path)
    run_web(reuse, state_dir=tmp_path)


def test_replies_come_before_their_events_and_every_socket_gets_the_events():
    async def body(web):
        actor, watcher = await web.connect(), await web.connect()
        await web.pair(actor)
        assert (await web.send(actor, "game new players=4"))["ok"]
        await actor.send_str("round start first=5")
        first = await web.recv(actor, lambda o: o.get("reply") == "round" or o.get("event") == "turn")
        assert first["reply"] == "round" and first["ok"]
        assert (await web.recv(actor, lambda o: "event" in o and o["event"] == "turn"))["seat"] == 2
        assert (await web.recv(watcher, lambda o: o.get("event") == "turn"))["seat"] == 2
    run_web(body)


def test_a_websocket_from_another_origin_is_refused():
    async def body(web):
        with pytest.raises(WSServerHandshakeError) as refused:
            await web.connect(Origin="http://evil.example")
        assert refused.value.status == 403
        host = f"{web.client.host}:{web.client.port}"
        ws = await web.connect(Origin=f"http://{host}")
        assert (await web.send(ws, "version"))["ok"]
    run_web(body)


def test_connections_beyond_the_cap_are_refused():
    async def body(web):
        kept = [await web.connect() for _ in range(3)]
        with pytest.raises(WSServerHandshakeError) as refused:
            await web.connect()
        assert refused.value.status == 503
        await kept[0].close()  # returns once the server has answered the close
        ws = await web.connect()
        assert (await web.send(ws, "version"))["ok"]
    run_web(body, max_connections=3)


def test_pairing_requests_are_rate_limited():
    async def body(web):
        ws = await web.connect()
        answers = [await web.send(ws, "pair") for _ in range(RATE_LIMIT + 1)]
        assert all(a["ok"] for a in answers[:RATE_LIMIT])
        assert answers[-1]["error"] == "rate-limited"
        web.app.loop.run_for(61)
        assert (await web.send(ws, "pair"))["ok"]
    run_web(body)


def test_a_token_file_that_cannot_be_written_does_not_stop_the_pairing(tmp_path):
    from hal import VirtualClock
    store = Store(tmp_path, name=TOKENS_FILE)
    logged = []
    pairing = Pairing(VirtualClock(), store, log=logged.append)
    store.path.mkdir()  # a directory where the file should be: every save fails
    got = []
    pairing.request(got.append)
    grant = pairing.button_pressed()
    assert grant is not None and grant.id == 1
    assert got[0]["event"] == "pair-granted" and pairing.check(got[0]["token"]) == 1
    assert logged and "cannot save the paired browsers" in logged[0]


def test_an_unreadable_token_file_is_set_aside_and_nobody_is_paired(tmp_path):
    (tmp_path / TOKENS_FILE).write_text("{not json")
    logged = []
    from hal import VirtualClock
    pairing = Pairing(VirtualClock(), Store(tmp_path, name=TOKENS_FILE), log=logged.append)
    assert pairing.status()["paired"] == []
    assert not (tmp_path / TOKENS_FILE).exists() and "pair again" in logged[0]


def test_sockets_opening_at_once_do_not_pass_the_cap():
    async def body(web):
        results = await asyncio.gather(*[web.connect() for _ in range(6)], return_exceptions=True)
        opened = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, WSServerHandshakeError)]
        assert len(opened) == 3 and len(refused) == 3 and all(r.status == 503 for r in refused)
    run_web(body, max_connections=3)
