"""A fifth edition in data alone (tests/house_decks.py: the two-colour counting deck ``duo``, and Uno Extreme's
``1999`` counts): registered from the test, played through the console protocol, seen in /options.json and on
the phone page's pad, scored, resumed after a restart. Nothing outside shooter/editions' registry and tests/
knows them.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil

import pytest

from shooter.config import Config
from shooter.editions import EDITIONS, VARIANTS, lookup
from shooter.errors import CommandError
from shooter.table import RuleOptions, Table
from shooter.web import options
from tests import house_decks
from tests.conftest import run_console
from tests.test_editions_console import Played

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def house():
    duo, extreme = house_decks.register_all()
    yield duo, extreme
    house_decks.unregister_all()


def duo_session(lines, players=3, first="3"):
    setup = [f"game new players={players} dealer=1 variant=duo", "round start", f"first {first}"]
    played = Played(run_console([*setup, *lines, "status"]))
    for reply, _ in played.groups[:len(setup)]:
        assert reply["ok"], reply
    return played


# --- the counting family's fifth edition ------------------------------------------------------------------

def test_the_fifth_edition_is_an_edition_of_the_table_once_registered(house):
    duo, _ = house
    assert "duo" in VARIANTS and lookup("duo") is duo and duo.counting
    house_decks.unregister_all()
    assert "duo" not in VARIANTS
    with pytest.raises(CommandError, match="variant= must be one of"):
        Table().new_game(3, variant="duo")
    house_decks.register_all()


def test_the_fifth_edition_deals_its_own_hand_and_plays_its_own_card_through_the_console():
    # D-DEAL with a hand of 5; its Wild Draw Three: the next seat owes 3, may challenge (rejected: 3 + 2 more)
    p = duo_session(["play wild-draw-three", "challenge seat=3 result=rejected", "press"])
    deal = p.all_events("deal")
    assert deal and deal[0]["hand"] == 5 and set(deal[0]["hands"].values()) == {5}
    assert p.all_events("owed")[0] == {"event": "owed", "seat": 3, "presses": 1, "reason": "wild-draw-three",
                                       "cards": 3}
    assert p.hands == {"1": 5, "2": 4, "3": 10} and p.game["current"] == 1
    shots = [(e["seat"], e["planned"], e["reason"]) for e in p.all_events("shot")][-1:]
    assert shots == [(3, 5, "wild-draw-three")]


def test_the_fifth_editions_cards_are_its_own():
    p = duo_session(["play 7", "play hit2", "play draw-two"])
    assert [g[0]["ok"] for g in p.groups[3:6]] == [False, False, True]
    assert p.groups[3][0]["error"] == "bad-argument" and "duo has no card '7'" in p.groups[3][0]["message"]


def test_the_fifth_edition_void_first_card_is_its_record():
    p = duo_session([], first="wild-draw-three")
    assert p.game["phase"] == "first"  # void: one more card to the dealer


def test_a_whole_game_of_the_fifth_edition_played_by_bots_through_the_console():
    from shooter.bots.simulate_exact import play_exact_games
    (game,) = play_exact_games(1, variant="duo", players=3, seed=3, limit=60)
    assert game.winner in (1, 2, 3) and max(game.totals.values()) >= 60 and game.rounds >= 1
    assert game.stats["plays"] > 0 and game.stats["rounds"] == game.rounds
    assert {reason for reason, *_ in game.shots} >= {"deal", "first"}


def test_the_fifth_edition_is_scored_by_its_own_table():
    t = Table()
    t.new_game(3, dealer=1, variant="duo", scoring="lowest", limit=500)
    t.start_round()
    while t.dealt_next():
        _seat, _reason, cards = t.due()
        t.count_shot(min(cards, 7), min(cards, 7))
    t.first_card("3")
    while t.dealt_next():
        t.count_shot(1, 1)
    t.set(seat=2, hand=1)
    t.play("4", last=True)
    with pytest.raises(CommandError):
        t.hand(1, ["6"] * 5)  # the deck holds 4 of each digit
    t.hand(1, ["6", "wild-draw-three", "skip"])  # 6 + 50 + 20
    top = lookup("duo").deck_points()
    assert top == 4 * sum(range(1, 7)) + 4 * 20 * 3 + 2 * 50 * 2
    with pytest.raises(CommandError):
        t.score(3, top + 1)
    events = t.score(3, top)
    scored = next(e for e in events if e["event"] == "round-scored")
    assert scored["totals"] == {"1": 76, "2": 0, "3": top}


def test_the_fifth_edition_is_in_options_json_with_its_pad_and_its_names():
    doc = options.document(players=Config().default_seats, rules=RuleOptions())
    assert "duo" in doc["variants"] and doc["variant_scorings"]["duo"] == ["winner", "lowest"]
    box = doc["boxes"]["duo"]
    assert box == {"family": "counting", "counting": True, "hand": 5, "editions": [], "starts": [], "sides": [],
                   "names": {"en": "Uno Duo", "nl": "Uno Duo"}, "pads": {"": "duo"}}
    pad = doc["pads"]["duo"]
    assert pad["cards"] == ["number", "skip", "reverse", "draw-two", "wild", "wild-draw-three"]
    assert pad["digits"] == [1, 2, 3, 4, 5, 6] and pad["targeted"] == []
    assert pad["names"]["nl"]["wild-draw-three"] == "+3 keuzekaart"


def test_the_fifth_edition_is_served_in_options_json():
    pytest.importorskip("aiohttp")
    from tests.test_web_api import run_web

    async def body(web):
        doc = await (await web.client.get("/options.json")).json()
        assert doc["boxes"]["duo"]["names"]["en"] == "Uno Duo" and "duo" in doc["pads"]
        assert "1999" in doc["editions"] and doc["pads"]["1999"]["cards"].count("hit4") == 1
    run_web(body)


def test_a_game_of_the_fifth_edition_resumes_after_a_restart():
    t = Table()
    t.new_game(3, dealer=1, variant="duo")
    t.start_round()
    while t.dealt_next():
        t.count_shot(min(t.due()[2], 7), min(t.due()[2], 7))
    t.first_card("3")
    while t.dealt_next():
        t.count_shot(1, 1)
    t.play("draw-two")
    restored = Table.from_dict(t.to_dict())
    assert restored.status() == t.status() and restored.record is lookup("duo")
    restored.press()
    assert restored.game.head.reason == "draw-two"


# --- a variant of the Extreme family: Uno Extreme 1999 ---------------------------------------------------------

def test_the_extreme_familys_new_edition_is_a_record_not_a_fallback(house):
    _, extreme = house
    assert "1999" in EDITIONS and lookup("extreme", "1999") is extreme
    from shooter.table.cards import CARDS
    assert CARDS["hit4"].count("1999") == 2 and CARDS["reverse"].count("1999") == 6
    assert sum(c.count("1999") for c in CARDS.values()) == 112


def test_a_whole_extreme_1999_game_through_the_console_scored_and_resumed():
    from shooter.bots.simulate import play_games
    (game,) = play_games(1, players=3, seed=2, limit=200, edition="1999")
    assert game.winner in (1, 2, 3) and max(game.totals.values()) >= 200
    replies = [o for o in run_console(["game new players=3 dealer=1 edition=1999", "round start first=hit4",
                                       "status"]) if "reply" in o]
    assert replies[0]["ok"] and replies[1]["ok"] and replies[-1]["game"]["edition"] == "1999"
    assert replies[-1]["game"]["owed"] == {"seat": 2, "presses": 4, "reason": "start", "by": 2}  # F-HIT: a Hit 4
    t = Table()
    t.new_game(3, dealer=1, edition="1999")
    t.start_round("5")
    t.play("5", last=True)
    with pytest.raises(CommandError, match="holds only 2 of card hit4"):
        t.hand(1, ["hit4"] * 3)
    t.hand(1, ["hit4", "hit4"])
    restored = Table.from_dict(t.to_dict())  # an Extreme game resumes today
    assert restored.status() == t.status() and restored.record is lookup("extreme", "1999")
    restored.hand(3, ["reverse"])
    assert restored.game.totals[2] == 80 + 20


# --- the page's pad, in a browser --------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed")
def test_the_page_builds_the_fifth_editions_form_and_pad(monkeypatch):
    pytest.importorskip("playwright")
    from playwright.sync_api import expect, sync_playwright

    from tests import test_web_browser as web
    site = ROOT / "tests" / "house_site"
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("UNO_SHOOTER_HOUSE_DECKS", "1")
    server = web.Server()  # the real program, started with the house decks registered
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=web.CHROMIUM, args=web.ARGS)
            page = web.phone(browser, server.url)
            web.pair(page, server)
            page.get_by_role("tab", name="Game").click()
            variant = page.get_by_label("Which Uno")
            expect(variant.locator("option[value=duo]")).to_have_text("Uno Duo")  # the box's name, from the record
            variant.select_option("duo")
            expect(page.get_by_label("Edition")).to_be_hidden()
            page.get_by_label("Players").select_option("3")
            web.button(page, "New game").click()
            expect(page.get_by_text("the shooter deals 5 cards to every seat", exact=False)).to_be_visible()
            server.send("sim load cards=40")
            server.send("round start")
            expect(web.button(page, "Report the first card")).to_be_visible(timeout=web.DEAL)
            expect(page.locator("#first option")).to_have_text(["Number 1", "Number 2", "Number 3", "Number 4",
                                                                 "Number 5", "Number 6", "Skip", "Reverse",
                                                                 "Draw Two", "Wild", "Wild Draw Three"])
            server.send("first 3")
            web.turn_line(page, "Seat 2 to play")
            expect(page.locator("#pad button")).to_have_text(["Number", "Skip", "Reverse", "Draw Two", "Wild",
                                                              "Wild Draw Three"])
            browser.close()
    finally:
        server.close()


def test_nothing_in_the_package_names_the_house_decks():
    # the files the fifth edition needed: tests/house_decks.py (and this test); shooter/ knows nothing of it
    for path in [*(ROOT / "shooter").rglob("*.py"), *(ROOT / "shooter" / "web" / "static").glob("*.js")]:
        assert not re.search(r"\bduo\b|\b1999\b", path.read_text()), path
