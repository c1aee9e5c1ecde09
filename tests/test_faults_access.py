"""The fault suite's access forgery (issue 16, item 4): sockets that may not act try every command of the table.

Real WebSockets on loopback through the web console (tests/test_web_api.py's rig, virtual time), during a game
a console of the table's own set up. An unpaired socket and one whose token was revoked send lines built from
every command's Spec (seeded, bounded): in any letter case, with tabs for blanks, broken options, guessed
tokens, and the approval of their own pairing request. Survived: the line was answered as its declared access
says (anyone's commands carried out, every other one ``not-paired``). Data lost: the game, the magazine or
the paired tokens changed.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("aiohttp")

from shooter.access import Access
from shooter.commands.table import COMMANDS
from tests.fault_runners import FaultResult
from tests.test_access import WORDS, accepted
from tests.test_faults import record
from tests.test_web_api import run_web
from tests.test_web_hardening import _local

pytestmark = pytest.mark.faults

LINES = 2_000   # forged lines, from the two sockets together


def forged(rng: random.Random, request: int | None) -> tuple[str, Access]:
    """A line of a random command of the table, dressed up; its command's declared access."""
    spec, _ = rng.choice(COMMANDS)
    if request is not None and rng.random() < 0.05:   # approve its own pairing request
        spec = next(s for s, _ in COMMANDS if s.words == ("pair", "approve"))
        return f"pair approve request={request}", spec.access
    options = {key: rng.choice(accepted(convert, key)) for key, convert in spec.required.items()}
    options |= {key: rng.choice(accepted(convert, key)) for key, convert in spec.optional.items()
                if rng.random() < 0.5}
    if spec.words == ("auth",):
        options["token"] = rng.choice(["", "x", "A" * 32]) or "guess"
    tokens = [*spec.words, *[rng.choice(WORDS) for _ in range(spec.args)],
              *[f"{k}={v}" for k, v in options.items()], *[f for f in spec.flags if rng.random() < 0.5]]
    if rng.random() < 0.2:
        tokens.append("extra=1")   # a broken shape: still refused for its access first
    words = [t.upper() if rng.random() < 0.3 else t for t in tokens]
    return rng.choice([" ", "\t", "  "]).join(words), spec.access


def test_forged_lines_from_sockets_that_may_not_act_during_a_game():
    result: dict = {}

    async def body(web):
        watcher, revoked = await web.connect(), await web.connect()
        granted = await web.pair(revoked)   # before the game: a press pairs then
        assert _local(web, f"unpair id={granted['id']}")["ok"]
        assert _local(web, "game new players=4")["ok"] and _local(web, "round start first=7")["ok"]
        ctl = web.controller
        before = ctl.table.to_dict(), ctl.launcher.cards, [t["id"] for t in ctl.pairing.status()["paired"]]
        rng = random.Random(16)
        request = None
        survived = wrong = 0
        for i in range(LINES):
            ws = (watcher, revoked)[i % 2]
            line, access = forged(rng, request)
            answer = await web.send(ws, line)
            if answer.get("reply") == "pair" and answer["ok"] and "request" in answer:
                request = answer["request"]
            refused = answer.get("error") == "not-paired"
            expected = access not in (Access.WATCH, Access.ASK) or (line.split()[0].lower() == "auth")
            if refused == expected or (access is Access.ASK and answer.get("error") in ("bad-argument",
                                                                                       "rate-limited")):
                survived += 1
            else:
                wrong += 1
            web.app.loop.run_for(0.5)   # requests age out, so the limit per address lets some through
        after = ctl.table.to_dict(), ctl.launcher.cards, [t["id"] for t in ctl.pairing.status()["paired"]]
        result.update(survived=survived, wrong=wrong, changed=int(after != before),
                      paired=len(after[2]))

    run_web(body)
    record(FaultResult("access forgery (unpaired, revoked)", LINES, result["survived"], result["changed"], {
        "answered against the table": result["wrong"], "paired now": result["paired"]}))
    assert result["survived"] == LINES and result["changed"] == 0 and result["paired"] == 0
