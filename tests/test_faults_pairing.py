"""The fault suite's pairing abuse (issue 15): hijack and block attempts against the web console's pairing.

Real WebSockets on loopback (other client addresses are other loopback addresses, 127.0.0.2 ...), the
controller on the simulator in virtual time (tests/test_web_api.py's rig). Bounded in count and time.

- hijack: watchers re-send ``pair`` from many addresses while a player presses the shooter's button all
  through a game: no press may pair anyone, every press must be served.
- block: one address floods ``pair`` while the owner asks from another: the owner is never rate-limited and
  a paired phone approves the owner's request by its number; the flooder is never paired.
"""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp")

from tests.fault_runners import FaultResult
from tests.test_faults import record
from tests.test_web_api import run_web
from tests.test_web_hardening import _is, _local
from tests.test_web_pairing import SPACED

pytestmark = pytest.mark.faults

PRESSES = 300       # a player's presses during the hijack attempt
WATCHERS = 12       # sockets asking to pair, each from an address of its own
ROUNDS = 40         # owner pairings during the block attempt
FLOOD = 25          # `pair` lines the flooder sends per round


class Seen:
    """Every event a console of the table's own hears (the whole run, in order)."""

    def __init__(self, web):
        self.events: list[dict] = []
        web.controller.add_sink(self._heard)

    def _heard(self, obj: dict) -> None:
        if "event" in obj:
            self.events.append(obj)

    def count(self, name: str, **fields) -> int:
        return sum(1 for e in self.events if e["event"] == name and all(e.get(k) == v for k, v in fields.items()))


def test_hijack_watchers_asking_from_many_addresses_while_a_game_is_played():
    result: dict = {}

    async def body(web):
        seen = Seen(web)
        watchers = [await web.connect_from(f"127.0.0.{n + 2}") for n in range(WATCHERS)]
        assert _local(web, "game new players=4")["ok"] and _local(web, "round start first=7")["ok"]
        assert _local(web, "sim load cards=500")["ok"]
        answers = {"ok": 0, "rate-limited": 0}
        for i in range(PRESSES):
            for ws in (watchers[i % WATCHERS], watchers[(i * 7 + 3) % WATCHERS]):
                got = await web.send(ws, "pair")
                answers["ok" if got["ok"] else got["error"]] += 1
            if web.controller.launcher.cards < 60:
                assert _local(web, "sim load cards=400")["ok"]
            web.button()
            web.app.loop.run_for(4.0)   # a burst served, the finger off the button, the next player's turn
        result.update(answers=answers, served=seen.count("press", source="button"),
                      refused=seen.count("refused", source="button"),
                      paired=seen.count("paired") + seen.count("pairing-refused"),
                      round=web.controller.table.status()["round"])

    run_web(body)
    lost = PRESSES - result["served"]
    survived = result["served"] if result["paired"] == 0 else 0
    record(FaultResult("pairing hijack (pair from 12 addr)", PRESSES, survived, lost, {
        "pair lines": sum(result["answers"].values()), "accepted": result["answers"]["ok"],
        "rate-limited": result["answers"]["rate-limited"], "presses served": result["served"],
        "presses refused": result["refused"], "pairings by a press": result["paired"]}))
    assert result["paired"] == 0 and result["refused"] == 0 and lost == 0
    assert result["answers"]["ok"] > PRESSES  # the watchers did keep requests waiting all along


def test_block_one_address_flooding_pair_while_the_owner_asks_from_another():
    result: dict = {"owner paired": 0, "owner rate-limited": 0, "flood lines": 0, "flood rate-limited": 0}

    async def body(web):
        seen = Seen(web)
        phone = await web.connect()
        assert (await web.pair(phone))["event"] == "pair-granted"   # the owner's first phone, before any game
        assert _local(web, "game new players=4")["ok"] and _local(web, "round start first=7")["ok"]
        state = web.controller.table.to_dict()
        flooder = await web.connect_from("127.0.0.2")
        for _ in range(ROUNDS):
            web.app.loop.run_for(SPACED)
            for _ in range(FLOOD):
                got = await web.send(flooder, "pair name=Owner")   # it even names itself like the owner
                result["flood lines"] += 1
                result["flood rate-limited"] += got.get("error") == "rate-limited"
            owner = await web.connect_from("127.0.0.3")
            asked = await web.send(owner, "pair name=Owner")
            if not asked["ok"]:
                result["owner rate-limited"] += asked["error"] == "rate-limited"
                await owner.close()
                continue
            approved = await web.send(phone, f"pair approve request={asked['request']}")
            granted = await web.recv(owner, _is("pair-granted", "pair-refused"))
            if approved["ok"] and granted["event"] == "pair-granted" and (await web.send(owner, "names"))["ok"]:
                result["owner paired"] += 1
                assert _local(web, f"unpair id={granted['id']}")["ok"]   # room for the next round's token
            await owner.close()
        result["flooder paired"] = int((await web.send(flooder, "names"))["ok"])
        result["game changed"] = web.controller.table.to_dict() != state
        result["granted"] = seen.count("paired")

    run_web(body)
    record(FaultResult("pairing block (pair flood, 1 addr)", ROUNDS, result["owner paired"],
                       int(result["game changed"]), {
                           "flood lines": result["flood lines"], "flood rate-limited": result["flood rate-limited"],
                           "owner rate-limited": result["owner rate-limited"],
                           "flooder paired": result["flooder paired"]}))
    assert result["owner paired"] == ROUNDS and result["owner rate-limited"] == 0
    assert result["flooder paired"] == 0 and not result["game changed"]
    assert result["granted"] == ROUNDS + 1 and result["flood rate-limited"] > 0
