"""Guards of pairing's protocol events (docs/protocol.md, "Events" and "Web console"): ``pair-waiting``,
``paired``, ``unpaired``, ``names``, ``pairing-refused`` to every console; ``pair-granted`` and ``pair-refused`` to
the asking socket; the ``pair`` reply, the rate limit's wait and ``status``'s requests.

Written for the mutants mutation testing found alive (docs/mutation.md, the sixth run): no in-process test read
these events field by field. The web console's part of the controller (:class:`shooter.commands.pairing.Web`) runs
here on the loop's virtual clock with a recording beeper, button and lid, and callers that record their news, as a
WebSocket sends it to its browser.
"""

from __future__ import annotations

from typing import Any

import pytest

from shooter import beeps
from shooter.access import Caller, Link
from shooter.commands import pairing as commands
from shooter.errors import CommandError
from shooter.events import Broadcast
from shooter.persist import Store
from shooter.seat_names import NAMES_FILE, SavedNames
from shooter.table import Table
from shooter.web.pairing import RATE_LIMIT, REFUSED, REPLACED, SEVERAL, TOKENS_FILE, WINDOW, Pairing, Request
from tests.test_rules_guard_pairing import Clock


class Box:
    """The shooter's beeper, button and lid, recording what they were asked (the holds armed, not run)."""

    def __init__(self) -> None:
        self.played: list[Any] = []
        self.is_open = False
        self.holds: list[tuple[float, Any]] = []

    def play(self, tune: Any) -> None:
        self.played.append(tune)

    def when_held(self, seconds: float, then: Any) -> None:
        self.holds.append((seconds, then))


class Socket(Caller):
    """A browser's WebSocket: what it alone is told."""

    def __init__(self, address: str, device: str = "iPhone") -> None:
        super().__init__(Link.WEB, address=address, device=device)
        self.news: list[dict[str, Any]] = []

    def __call__(self, news: dict[str, Any]) -> None:
        self.news.append(news)


def console(saved_names: SavedNames | None = None) -> tuple[commands.Web, list[dict[str, Any]], Box, Clock]:
    """The web console's part, on; every console's events; the box; the clock."""
    clock = Clock()
    events = Broadcast(clock)
    seen: list[dict[str, Any]] = []
    events.add(seen.append)
    box = Box()
    web = commands.Web(table=Table(), events=events, beeper=box, button=box, lid=box, saved_names=saved_names)
    web.open(Pairing(clock))
    return web, seen, box, clock


def refusal(call) -> tuple[str, str]:
    with pytest.raises(CommandError) as info:
        call()
    return info.value.code, info.value.message


def test_pair_replies_its_window_and_every_console_sees_who_asks():
    web, seen, _, clock = console()
    clock.advance(1.25)
    assert commands.pair(web, "Ann", caller=Socket("a")) == {"seconds": WINDOW, "request": 1, "hold": 2.0}
    assert commands.pair(web, caller=Socket("b", "Mac")) == {"seconds": 30.0, "request": 2, "hold": 2.0}
    assert seen == [
        {"event": "pair-waiting", "t": 1.25, "label": "Ann (iPhone)", "device": "iPhone", "name": "Ann",
         "request": 1, "waiting": 1},
        {"event": "pair-waiting", "t": 1.25, "label": "Mac", "device": "Mac", "name": None, "request": 2,
         "waiting": 2},
    ]


def test_the_box_pairs_the_one_browser_waiting_paired_to_every_console_the_token_to_the_asker_alone():
    web, seen, box, clock = console()
    asker = Socket("a")
    commands.pair(web, caller=asker)
    clock.advance(4)
    assert commands.pair_press(web) is True
    assert seen[-1] == {"event": "paired", "t": 4.0, "id": 1, "request": 1}
    assert box.played == [beeps.PAIRED]
    [granted] = asker.news
    assert {k: granted[k] for k in ("event", "t", "id")} == {"event": "pair-granted", "t": 4.0, "id": 1}
    assert asker.token_id == 1 and web.pairing is not None and web.pairing.check(granted["token"]) == 1


def test_several_waiting_the_box_pairs_nobody_and_every_console_gets_pairing_refused_with_the_count():
    web, seen, box, clock = console()
    a, b = Socket("a"), Socket("b")
    commands.pair(web, caller=a)
    commands.pair(web, caller=b)
    clock.advance(2)
    assert commands.pair_press(web) is True          # the press was the gesture: it shoots nothing
    assert seen[-1] == {"event": "pairing-refused", "t": 2.0, "waiting": 2, "message": SEVERAL}
    assert box.played == [beeps.PRESS_REFUSED]
    several = {"event": "pair-refused", "t": 2.0, "reason": "several", "message": SEVERAL}
    assert a.news == [several] and b.news == [several]
    assert a.token_id is None and b.token_id is None


def test_a_refused_request_is_told_and_every_console_gets_pairing_refused_naming_it():
    web, seen, _, clock = console()
    a, b = Socket("a"), Socket("b")
    commands.pair(web, caller=a)
    asked = commands.pair(web, caller=b)
    clock.advance(3)
    assert commands.pair_refuse(web, asked["request"]) == {"request": 2}
    assert seen[-1] == {"event": "pairing-refused", "t": 3.0, "request": 2, "waiting": 1, "message": REFUSED}
    assert b.news == [{"event": "pair-refused", "t": 3.0, "reason": "refused", "message": REFUSED}]
    assert commands.pair_approve(web, 1) == {"request": 1, "id": 1}
    assert seen[-1] == {"event": "paired", "t": 3.0, "id": 1, "request": 1}


def test_unpair_tells_every_console_without_a_reason_and_the_token_pairs_no_more():
    web, seen, _, _ = console()
    asker = Socket("a")
    commands.pair(web, caller=asker)
    commands.pair_press(web)
    token = asker.news[0]["token"]
    commands.unpair(web, 1)
    assert seen[-1] == {"event": "unpaired", "t": 0.0, "id": 1}
    assert refusal(lambda: commands.auth(web, token, caller=Socket("a"))) == (
        "not-paired", "this token is unknown or was revoked; pair again")
    assert refusal(lambda: commands.unpair(web, 1)) == (
        "gone", "paired browser 1 is gone: it was unpaired (paired: none)")


def test_auth_replies_the_id_of_the_browser_whose_token_the_socket_presents():
    # docs/protocol.md: `auth token=T` is answered {"reply": "auth", "ok": true, "id": N}, N the paired browser
    # (the eleventh run: the reply's `id` misspelt survived)
    web, _, _, _ = console()
    tokens = []
    for address in ("a", "b"):
        asker = Socket(address)
        commands.pair(web, caller=asker)
        commands.pair_press(web)
        tokens.append(asker.news[0]["token"])
    again = Socket("c")
    assert commands.auth(web, tokens[1], caller=again) == {"id": 2}
    assert again.token_id == 2


def test_names_are_announced_by_seat_in_order_a_dash_leaves_a_seat_unnamed_and_none_forgets_them(tmp_path):
    store = Store(tmp_path, NAMES_FILE)
    web, seen, _, _ = console(SavedNames(store, {}))
    commands.names(web, ["Ann", "-", "Cy", "Dirk"])
    assert seen[-1] == {"event": "names", "t": 0.0, "names": {"1": "Ann", "3": "Cy", "4": "Dirk"}}
    assert list(seen[-1]["names"]) == ["1", "3", "4"]
    assert web.names == {1: "Ann", 3: "Cy", 4: "Dirk"}
    assert SavedNames.restore(tmp_path, writable=True, log=print)[1] == {1: "Ann", 3: "Cy", 4: "Dirk"}
    commands.names(web)
    assert seen[-1] == {"event": "names", "t": 0.0, "names": {}}
    assert SavedNames.restore(tmp_path, writable=True, log=print)[1] == {}
    assert [e["event"] for e in seen] == ["names", "names"]   # both written: no save-failed


def test_a_names_write_that_fails_is_announced_naming_the_file_and_the_names_hold(tmp_path):
    store = Store(tmp_path, NAMES_FILE)
    (tmp_path / NAMES_FILE).mkdir()                # a directory where the file goes: the write fails
    web, seen, _, _ = console(SavedNames(store, {}))
    commands.names(web, ["Ann"])
    assert [e["event"] for e in seen] == ["names", "save-failed"]
    assert seen[-1]["path"] == str(store.path) and "Is a directory" in seen[-1]["message"]   # the OSError's words
    assert web.names == {1: "Ann"}


def test_a_newer_request_from_the_same_address_refuses_the_older_with_the_documented_event():
    p = Pairing(clock := Clock())
    first: list[dict[str, Any]] = []
    p.request(first.append, address="10.0.0.7")
    clock.advance(2.5)
    p.request(lambda news: None, address="10.0.0.7")
    assert first == [{"event": "pair-refused", "t": 2.5, "reason": "replaced", "message": REPLACED}]
    assert p.waiting_count == 1
    clock.advance(60)
    assert len(first) == 1                           # its window was closed: no pair-expired after


def test_the_rate_limit_says_how_long_to_wait_at_least_a_second():
    p = Pairing(clock := Clock())
    for _ in range(RATE_LIMIT):
        clock.advance(3)
        p.request(lambda news: None, address="a")    # at 3, 6, ..., 15 s
    assert refusal(lambda: p.request(lambda news: None, address="a")) == (
        "rate-limited", "too many pairing requests from this address; try again in 48 s")   # the first's 60 s: 63
    clock.advance(62.4 - clock.now())
    assert refusal(lambda: p.request(lambda news: None, address="a")) == (
        "rate-limited", "too many pairing requests from this address; try again in 1 s")    # 0.6 s, said as 1
    p.request(lambda news: None, address="b")        # another address may still ask
    clock.advance(63 - clock.now())
    p.request(lambda news: None, address="a")        # the first request is a minute old: one more may come


def test_status_lists_each_request_with_its_seconds_left_to_a_tenth():
    p = Pairing(clock := Clock())
    p.request(lambda news: None, address="a", device="iPad", name="Bo")
    clock.advance(10.06)
    assert p.status()["requests"] == [{"request": 1, "label": "Bo (iPad)", "device": "iPad", "name": "Bo",
                                       "seconds": 19.9}]
    late = Request(lambda news: None, 7, "b", "Mac", None, deadline=5.0)
    assert late.public(6.0) == {"request": 7, "label": "Mac", "device": "Mac", "name": None, "seconds": 0.0}
    assert late.public(4.75)["seconds"] == 0.2       # 0.25, to a tenth


def test_a_hold_is_armed_only_while_a_browser_waits_and_the_lid_is_open():
    web, _, box, _ = console()
    box.is_open = True
    commands.arm_pair_hold(web)                      # nobody waits
    assert box.holds == []
    commands.pair(web, caller=Socket("a"))
    box.is_open = False
    commands.arm_pair_hold(web)                      # the lid is shut: a press shoots, it pairs nobody
    assert box.holds == []
    box.is_open = True
    commands.arm_pair_hold(web)
    assert [seconds for seconds, _ in box.holds] == [2.0]


def test_a_hold_that_ends_pairs_only_if_the_lid_is_still_open_and_a_browser_still_waits():
    web, seen, box, _ = console()
    asker = Socket("a")
    commands.pair(web, caller=asker)
    box.is_open = True
    commands.arm_pair_hold(web)
    [(_, held)] = box.holds
    box.is_open = False
    held()                                           # the lid was shut during the hold
    assert [e["event"] for e in seen] == ["pair-waiting"] and asker.news == [] and box.played == []
    box.is_open = True
    web.pairing.cancel(asker)                        # the browser went away during the hold
    held()
    assert [e["event"] for e in seen] == ["pair-waiting"] and box.played == []
    commands.pair(web, caller=asker)
    held()
    assert seen[-1]["event"] == "paired" and box.played == [beeps.PAIRED]


def test_an_expired_request_is_told_the_time_to_the_microsecond():
    p = Pairing(clock := Clock())
    clock.advance(1.25)
    news: list[dict[str, Any]] = []
    p.request(news.append, address="a")
    clock.advance(WINDOW)
    assert news == [{"event": "pair-expired", "t": 31.25}]


def test_a_request_at_its_deadline_waits_no_more_even_before_its_timer_ran():
    p = Pairing(clock := Clock())
    p.request(lambda news: None, address="a")
    clock.advance_to(WINDOW)                         # the window's end, its timer not run yet
    assert p.status()["requests"] == []
    assert refusal(lambda: p.approve(1)) == ("gone", "request 1 is gone: it was granted, refused, replaced or timed "
                                                     "out, or asked before a restart (waiting: none)")
    assert refusal(lambda: p.approve(2)) == ("bad-argument", "no request 2 is waiting (waiting: none)")


def test_a_pairings_file_set_aside_is_logged_saying_nobody_is_paired(tmp_path):
    (tmp_path / TOKENS_FILE).write_text("{not json")
    lines: list[str] = []
    p = Pairing(Clock(), Store(tmp_path, TOKENS_FILE), log=lines.append)
    assert len(lines) == 1 and lines[0].endswith("; nobody is paired: pair again")
    assert p.status()["paired"] == []


def test_status_adds_the_names_what_undo_takes_back_and_the_pairing_while_the_web_console_runs():
    clock = Clock()
    table = Table()
    box = Box()
    web = commands.Web(table=table, events=Broadcast(clock), beeper=box, button=box, lid=box, names={2: "Bo", 1: "Al"})
    assert commands.web_status(web) == {}            # the web console is off
    web.open(Pairing(clock))
    assert commands.web_status(web) == {"names": {"1": "Al", "2": "Bo"}, "undoes": None,
                                        "pairing": {"paired": [], "waiting": 0, "requests": []}}
    table.new_game(4, dealer=1)
    table.start_round("5")
    table.play("7")
    table.penalty("advice", seat=3)
    assert [h["command"] for h in table.history] == ["round start", "play", "penalty"]
    assert commands.web_status(web)["undoes"] == "penalty"   # the last level
    assert list(commands.web_status(web)["names"]) == ["1", "2"]


def test_a_browser_asking_again_replaces_its_own_request_without_being_refused():
    p = Pairing(Clock())
    asker = Socket("a")                              # the socket itself is what its news is delivered to
    p.request(asker, address="a")
    again = p.request(asker, address="a")
    assert asker.news == [] and [r["request"] for r in p.status()["requests"]] == [again.number]
