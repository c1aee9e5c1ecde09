"""Pairing without ever taking a player's press (issue 15, items 5 and 6): the box's gestures, approval by a
paired phone, requests limited per client address, the asking device in words, token ids never given twice.

Same rig as tests/test_web_api.py (the control loop pumped on the test's thread, virtual time); other client
addresses are other loopback addresses (127.0.0.2, ...), real sockets bound to them.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("aiohttp")

from shooter import beeps
from shooter.web.pairing import (
    HOLD,
    MAX_TOKENS,
    NAME_LENGTH,
    RATE_LIMIT,
    RATE_PERIOD,
    REFUSED,
    REPLACED,
    TOKENS_FILE,
    Pairing,
)
from tests.test_web_api import Web, run_web
from tests.test_web_hardening import IPHONE, _is, _local

SPACED = RATE_PERIOD / RATE_LIMIT + 0.1   # s between two requests of one address that the limit lets through


def _game(web: Web, variant: str = "extreme") -> None:
    """A game running, the table's own console setting it up; presses go to seat 2's draw."""
    if variant == "extreme":
        assert _local(web, "game new players=4")["ok"]
        assert _local(web, "round start first=7")["ok"]
        assert web.controller.table.press_owner() == (2, "draw")
    else:  # an exact variant: the shooter deals, then seat 2 may draw
        assert _local(web, f"game new players=3 variant={variant}")["ok"]
        assert _local(web, "round start")["ok"]
        web.app.loop.run_for(60)
        assert _local(web, "first 5")["ok"]
        web.app.loop.run_for(10)
        assert web.controller.table.due() is None


async def _paired(web: Web, ws) -> dict:
    """Pair ``ws`` before any game (a short press), its pair-granted event."""
    return await web.pair(ws)


def _played(web: Web) -> list:
    played: list = []
    web.controller.hw.beeper.play = played.append
    return played


# ---- item 5: a player's press is never taken by pairing ----

@pytest.mark.parametrize("variant", ["extreme", "classic"])
def test_during_a_game_holding_the_button_with_the_lid_open_pairs_and_shoots_nothing(variant):
    async def body(web):
        asker, watcher = await web.connect(), await web.connect()
        _game(web, variant)
        cards, state = web.controller.launcher.cards, web.controller.table.to_dict()
        assert (await web.send(asker, "pair"))["ok"]
        web.app.world.open_lid()
        web.app.loop.run_for(0.5)
        played = _played(web)
        web.app.world.press_button(hold=HOLD + 0.5)
        web.app.loop.run_for(HOLD + 1)
        granted = await web.recv(asker, _is("pair-granted"))
        refused = await web.recv(watcher, _is("refused", "press"))
        assert refused["event"] == "refused" and refused["error"] == "lid-open"  # the press did nothing
        assert (await web.recv(watcher, _is("paired")))["id"] == granted["id"]
        assert played == [beeps.PRESS_REFUSED, beeps.PAIRED]
        assert web.controller.launcher.cards == cards and web.controller.table.to_dict() == state
        assert (await web.send(asker, "names seats=Ann"))["ok"]  # paired: it may act
    run_web(body)


def test_a_shorter_hold_or_a_hold_with_the_lid_shut_pairs_nobody():
    async def body(web):
        asker, watcher = await web.connect(), await web.connect()
        _game(web)
        assert (await web.send(asker, "pair"))["ok"]
        web.app.world.open_lid()
        web.app.loop.run_for(0.5)
        web.app.world.press_button(hold=HOLD - 0.1)   # let go just before
        web.app.loop.run_for(HOLD + 1)
        web.app.world.close_lid()
        web.app.loop.run_for(1)
        web.app.world.press_button(hold=HOLD + 1)     # a long press with the lid shut: a player's, served
        web.app.loop.run_for(HOLD + 2)
        got = await web.recv(watcher, _is("press", "paired"))
        assert got["event"] == "press" and got["seat"] == 2
        assert web.controller.pairing.status()["paired"] == [] and web.controller.pairing.waiting_count == 1
    run_web(body)


def test_with_no_game_a_short_press_pairs():
    async def body(web):
        asker = await web.connect()
        assert (await _paired(web, asker))["event"] == "pair-granted"
    run_web(body)


def test_the_pair_reply_says_its_request_and_how_long_to_hold():
    async def body(web):
        ws = await web.connect()
        asked = await web.send(ws, "pair")
        assert asked["request"] >= 1 and asked["hold"] == HOLD
        again = await web.send(ws, "pair")
        assert again["request"] == asked["request"] + 1  # request numbers are never given twice
    run_web(body)


# ---- approval by a phone already paired ----

def test_a_paired_phone_approves_the_request_it_names_while_another_waits():
    async def body(web):
        owner = await web.connect()
        await _paired(web, owner)
        _game(web)
        guest, eve = await web.connect_from("127.0.0.2"), await web.connect_from("127.0.0.3")
        asked = await web.send(guest, "pair name=Bob")
        assert (await web.send(eve, "pair name=Bob"))["ok"]  # a look-alike: the number tells them apart
        assert (await web.send(eve, f"pair approve request={asked['request']}"))["error"] == "not-paired"
        played = _played(web)
        approved = await web.send(owner, f"pair approve request={asked['request']}")
        granted = await web.recv(guest, _is("pair-granted"))
        assert approved == {"reply": "pair", "ok": True, "request": asked["request"], "id": granted["id"]}
        assert played == [beeps.PAIRED]
        assert (await web.send(guest, "press"))["ok"]
        assert (await web.send(eve, "press"))["error"] == "not-paired"
        assert web.controller.pairing.waiting_count == 1  # eve still waits, to be refused or to time out
        # granted already: gone (a second tap of the same request on a stale page)
        assert (await web.send(owner, f"pair approve request={asked['request']}"))["error"] == "gone"
    run_web(body)


def test_a_paired_phone_refuses_a_request_and_the_asker_is_told():
    async def body(web):
        owner, eve = await web.connect(), await web.connect_from("127.0.0.2")
        await _paired(web, owner)
        asked = await web.send(eve, "pair")
        refused = await web.send(owner, f"pair refuse request={asked['request']}")
        assert refused == {"reply": "pair", "ok": True, "request": asked["request"]}
        told = await web.recv(eve, _is("pair-refused", "pair-granted"))
        assert told["event"] == "pair-refused" and told["message"] == REFUSED
        seen = await web.recv(owner, _is("pairing-refused"))
        assert seen["request"] == asked["request"] and seen["waiting"] == 0
        web.button()  # nobody waits any more: an ordinary press
        assert (await web.recv(owner, _is("press", "paired")))["event"] == "press"
    run_web(body)


def test_the_table_console_may_approve_and_without_the_web_console_it_says_so():
    async def body(web):
        asker = await web.connect()
        asked = await web.send(asker, "pair")
        answer = _local(web, f"pair approve request={asked['request']}")
        assert answer["ok"] and (await web.recv(asker, _is("pair-granted")))["id"] == answer["id"]
        assert _local(web, "pair approve request=99")["error"] == "bad-argument"
        web.controller.web.pairing = None
        assert _local(web, "pair refuse request=1")["message"] == "the web console is off: no browser is paired"
    run_web(body)


# ---- requests limited per client address ----

def test_one_address_flooding_pair_does_not_rate_limit_another():
    """The block: 5 `pair` lines a minute from anyone used to lock out every browser."""
    async def body(web):
        eve, owner = await web.connect_from("127.0.0.2"), await web.connect()
        answers = [await web.send(eve, "pair") for _ in range(RATE_LIMIT + 3)]
        assert [a["ok"] for a in answers] == [True] * RATE_LIMIT + [False] * 3
        assert answers[-1]["error"] == "rate-limited"
        assert (await web.send(owner, "pair"))["ok"]
        assert web.controller.pairing.waiting_count == 2   # eve's flood holds one request, the owner's one
    run_web(body)


def test_a_second_request_from_the_same_address_replaces_the_first():
    async def body(web):
        first, second = await web.connect(), await web.connect()
        assert (await web.send(first, "pair"))["ok"]
        assert (await web.send(second, "pair"))["ok"]
        told = await web.recv(first, _is("pair-refused"))
        assert told["message"] == REPLACED and web.controller.pairing.waiting_count == 1
        web.button()
        assert (await web.recv(second, _is("pair-granted", "pair-refused")))["event"] == "pair-granted"
    run_web(body)


def test_addresses_remembered_for_the_limit_are_bounded():
    from hal import VirtualClock
    from shooter.web.pairing import MAX_ADDRESSES
    pairing = Pairing(VirtualClock())
    for n in range(MAX_ADDRESSES * 3):
        pairing.request(lambda news: None, address=f"10.0.{n // 256}.{n % 256}")
    assert len(pairing._recent) == MAX_ADDRESSES


# ---- the asking device's name ----

@pytest.mark.parametrize("line, error", [
    ("pair name=Ann\u202e", "U+202E"),          # a bidi override: refused, not shown turned around
    ("pair name=Ann\u200b", "U+200B"),          # a zero-width space
    ("pair colour=red", "usage: pair [name=NAME]"),
])
def test_a_bad_name_or_option_is_refused_in_one_line_and_nothing_waits(line, error):
    async def body(web):
        ws = await web.connect()
        answer = await web.send(ws, line)
        assert answer["ok"] is False and answer["error"] == "bad-argument" and error in answer["message"]
        assert web.controller.pairing.waiting_count == 0
    run_web(body)


def test_a_long_name_is_shortened_and_the_token_keeps_the_label_in_words():
    async def body(web):
        ws = await web.connect(**{"User-Agent": IPHONE})
        assert (await web.send(ws, "pair name=" + "A" * 100))["ok"]
        web.button()
        await web.recv(ws, _is("pair-granted"))
        label = (await web.send(ws, "status"))["pairing"]["paired"][0]["label"]
        assert label == "A" * NAME_LENGTH + " (iPhone)"
    run_web(body)


def test_the_longest_label_a_pairing_can_get_survives_a_restart(tmp_path):
    # the longest name typed, on the device with the longest kind: the tokens file's loader must take back
    # every label pairing gives (a label over its limit set the whole file aside: every phone unpaired)
    tablet = "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 Chrome/124 Safari/537.36"
    granted: list[dict] = []

    async def pair(web):
        ws = await web.connect(**{"User-Agent": tablet})
        assert (await web.send(ws, "pair name=" + "A" * 100))["ok"]
        web.button()
        granted.append(await web.recv(ws, _is("pair-granted")))

    async def reuse(web):
        ws = await web.connect()
        assert (await web.send(ws, f"auth token={granted[0]['token']}"))["ok"]

    run_web(pair, state_dir=tmp_path)
    run_web(reuse, state_dir=tmp_path)
    assert not list(tmp_path.glob("*.bad-*"))


@pytest.mark.parametrize("agent, kind", [
    ("Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15", "iPad"),
    ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124 Mobile Safari/537.36",
     "Android phone"),
    ("Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 Chrome/124 Safari/537.36", "Android tablet"),
    ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15", "Mac"),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124 Safari/537.36", "Windows PC"),
    ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Linux PC"),
    ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 Chrome/124 Safari/537.36", "Chromebook"),
    ("curl/8.5.0", "a browser"),
    ("", "a browser"),
])
def test_the_device_kind_from_the_user_agent(agent, kind):
    from shooter.web.pairing import device_kind
    assert device_kind(agent) == kind


# ---- item 6: token ids never given twice; eviction is an unpair ----

def test_the_21st_pairing_evicts_the_oldest_as_an_unpair_and_ids_never_repeat(tmp_path):
    ids: list[int] = []

    async def fill(web):
        oldest = await web.connect()
        first = await _paired(web, oldest)
        assert (await web.send(oldest, "aim seat=2"))["ok"]
        for _ in range(MAX_TOKENS):
            web.app.loop.run_for(SPACED)
            ws = await web.connect()
            ids.append((await _paired(web, ws))["id"])
            await ws.close()
        told = await web.recv(oldest, _is("unpaired"))
        assert told == {"event": "unpaired", "t": told["t"], "id": first["id"], "reason": "evicted"}
        answer = await web.send(oldest, "aim seat=3")
        assert answer["error"] == "not-paired"  # dropped to watching
        assert (await web.send(oldest, f"auth token={first['token']}"))["error"] == "not-paired"
        paired = [p["id"] for p in web.controller.pairing.status()["paired"]]
        assert len(paired) == MAX_TOKENS and first["id"] not in paired
        # a revoke, then a new pairing: a fresh id, not the revoked one again
        assert _local(web, f"unpair id={ids[-1]}")["ok"]
        web.app.loop.run_for(SPACED)
        ids.append((await _paired(web, await web.connect()))["id"])
        assert ids[-1] == ids[-2] + 1

    async def after_restart(web):
        ids.append((await _paired(web, await web.connect()))["id"])

    run_web(fill, state_dir=tmp_path)
    run_web(after_restart, state_dir=tmp_path)
    assert len(set(ids)) == len(ids) and ids == sorted(ids), ids
    assert json.loads((tmp_path / TOKENS_FILE).read_text())["next_id"] == ids[-1] + 1


def test_the_next_id_is_read_back_and_a_bad_one_is_ignored(tmp_path):
    from hal import VirtualClock
    from shooter.persist import Store
    store = Store(tmp_path, name=TOKENS_FILE)
    for stored, expected in ((9, 9), (True, 1), ("9", 1), (-3, 1), (2 ** 60, 1), (None, 1)):
        store.save({"tokens": [], "next_id": stored})
        pairing = Pairing(VirtualClock(), store)
        pairing.request(lambda news: None)
        grant = pairing.button_pressed()
        assert grant is not None and grant.id == expected, stored
