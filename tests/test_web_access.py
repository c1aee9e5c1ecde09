"""Who may do what, through the real web console (aiohttp's test client, the rig of tests/test_web_api.py):
every command of the table from an unpaired socket and from a paired one, answered as its declared access
says; the box's stand-ins and bring-up are the table's own consoles' only; a socket's pairing is set by the
pair and auth commands, never by a frame it is sent.
"""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp")

from shooter.commands.table import COMMANDS
from tests.test_web_api import run_web
from tests.test_web_hardening import _local


def _first_valid_line(spec) -> str:
    """The command's words, its args and every required option with the first value its converter takes."""
    from tests.test_access import WORDS, accepted
    options = [f"{key}={accepted(convert, key)[0]}" for key, convert in spec.required.items()]
    return " ".join([*spec.words, *[WORDS[0]] * spec.args, *options])


def test_every_command_from_an_unpaired_and_a_paired_socket_is_answered_as_declared():
    from shooter.access import Access

    refused_to = {Access.WATCH: set(), Access.ASK: set(), Access.PAIRED: {"unpaired"},
                  Access.TABLE: {"unpaired", "paired"}}

    async def body(web):
        watcher, phone = await web.connect(), await web.connect()
        granted = await web.pair(phone)
        assert (await web.send(phone, f"auth token={granted['token']}"))["ok"]
        for spec, _ in COMMANDS:
            line = _first_valid_line(spec)
            if not web.controller.pairing.valid(granted["id"]):   # `unpair id=1` revoked the phone: pair it again
                asked = await web.send(phone, "pair")
                assert _local(web, f"pair approve request={asked['request']}")["ok"]
                granted = await web.recv(phone, lambda o: o.get("event") == "pair-granted")
            for who, ws in (("unpaired", watcher), ("paired", phone)):
                answer = await web.send(ws, line)
                refused = who in refused_to[spec.access]
                got = (answer["reply"], answer.get("error") == "not-paired")
                if spec.words == ("auth",) and not refused:   # the handler's own answer to an unknown token
                    continue
                assert got == (spec.words[0], refused), (who, line, answer)
    run_web(body)


@pytest.mark.parametrize("line", ["sim lid open", "sim button", "sim jam", "sim load cards=5",
                                  "sim wait seconds=5", "calibrate seat=1"])
def test_a_paired_phone_may_not_drive_the_simulated_box_or_calibrate(line):
    """The simulator's box stands in for hands on the shooter (its button pairs) and calibrate rewrites the
    seats' angles for good: a console of the table's own only. Nothing changes."""
    async def body(web):
        phone = await web.connect()
        await web.pair(phone)
        assert (await web.send(phone, "aim angle=90"))["ok"]   # a phone may turn the shooter within its range
        before = web.controller.hw.lid.is_open, web.controller.launcher.cards, web.app.clock.now()
        answer = await web.send(phone, line)
        assert (answer["ok"], answer.get("error")) == (False, "not-paired"), answer
        assert (web.controller.hw.lid.is_open, web.controller.launcher.cards, web.app.clock.now()) == before
        assert _local(web, line)["ok"]   # the table's own console may
    run_web(body)


def test_a_frame_a_socket_is_sent_never_pairs_it():
    """The paired state is the socket's own, set by what pair and auth did: an event that looks like a grant
    (whatever sends one to every console) pairs nobody."""
    async def body(web):
        owner, watcher = await web.connect(), await web.connect()
        granted = await web.pair(owner)
        web.controller.events.emit_event({"event": "pair-granted", "id": granted["id"], "token": "x"})
        await web.recv(watcher, lambda o: o.get("event") == "pair-granted")
        assert (await web.send(watcher, "press")).get("error") == "not-paired"
        assert (await web.send(owner, "press"))["ok"]
    run_web(body)
