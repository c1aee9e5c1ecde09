"""The web console under attack and under load: pairing when several ask, floods, slow sockets, Hosts.

Same rig as tests/test_web_api.py (the control loop pumped on the test's thread, virtual time).
"""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp")
from shooter import beeps
from shooter.web import pairing
from tests.test_web_api import run_web


def _local(web, line: str) -> dict:
    """One line from a local console (the owner's terminal), on the loop; its reply."""
    out: list[dict] = []
    web.controller.handle_line(line, out.append)
    return out[-1]


def _is(*names):
    return lambda o: o.get("event") in names


def test_a_press_with_two_browsers_waiting_pairs_nobody_and_says_so():
    async def body(web):
        owner, attacker, watcher = await web.connect(), await web.connect(), await web.connect()
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
        assert web.controller.pairing.status() == {"paired": [], "waiting": 0}
        assert (await web.send(attacker, "game new players=4"))["error"] == "not-paired"
        # asked again one at a time, the owner pairs
        assert (await web.pair(owner))["event"] == "pair-granted"
    run_web(body)


def test_a_waiting_request_is_shown_on_every_console_with_its_label():
    async def body(web):
        asker, watcher = await web.connect(**{"User-Agent": "Eve's phone"}), await web.connect()
        assert (await web.send(asker, "pair"))["ok"]
        shown = await web.recv(watcher, _is("pair-waiting"))
        assert shown["label"] == "Eve's phone" and shown["waiting"] == 1
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


def test_a_draw_press_still_pairs_the_one_browser_waiting():
    async def body(web):
        asker = await web.connect()
        assert _local(web, "game new players=4")["ok"]
        assert _local(web, "round start first=7")["ok"]
        assert web.controller.table.press_owner()[1] == "draw"
        assert (await web.pair(asker))["event"] == "pair-granted"
    run_web(body)
