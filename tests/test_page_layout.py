"""Everything of a turn on one screen: at 360x640, 390x844 and 430x932 portrait and a tablet on its side, for each
view of a turn, the turn line, the circle with every seat, Press, the pad's first row and the actions (Uno,
Catch, the penalties, Undo) lie inside the viewport and nothing scrolls; a toast and the seat pick overlay the page
and move nothing; a refused target keeps the pick open. Real server, headless Chromium (tests/page_rig.py)."""

from __future__ import annotations

import pytest

from tests.page_rig import (  # noqa: F401 - fixtures: the module's server, its phones and paired key
    DEAL,
    PHONE,
    VIEWPORTS,
    answered,
    button,
    chromium,
    expect,
    geometry,
    heading,
    outside,
    phones,
    table,
    token,
)

pytestmark = pytest.mark.browser


def fits(page, view: str) -> None:
    """At every viewport: nothing scrolls and every part of the turn lies inside the screen."""
    problems = []
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        seen = geometry(page)
        size = f"{viewport['width']}x{viewport['height']}"
        for name in ("turn line", "circle", "press", "pad", "seats", "actions"):
            if not seen["boxes"][name] and not (name == "pad" and view.startswith("alarm")):
                problems.append(f"{view} at {size}: no {name} shown")
        problems += [f"{view} at {size}: {what}" for what in outside(seen)]
        if seen["scrolls"]:
            problems.append(f"{view} at {size}: the page scrolls")
    page.set_viewport_size(PHONE)
    assert not problems, "\n".join(problems)


def extreme_game(page, table, players=4, names="Anna,Bram,Cor,Dirk"):
    answered(table, f"names seats={names}", "names")
    answered(table, f"game new players={players} dealer=1 force", "game")
    answered(table, "round start first=5", "round")
    heading(page, f"{names.split(',')[1]} to play")


def test_every_view_of_an_extreme_turn_fits_the_screen(table, phones, token):
    page = phones(key=token)
    extreme_game(page, table)
    fits(page, "a turn")
    button(page, "Hit 2").click()
    heading(page, "Cor presses 2× (Hit 2)")
    fits(page, "presses owed")
    button(page, "Press").click()
    button(page, "Cor (1×)").wait_for()
    button(page, "Press").click()
    heading(page, "Dirk to play")
    button(page, "Extreme Hit").click()
    expect(page.locator("#mode")).to_be_visible()
    fits(page, "the Extreme Hit's target")   # every seat in view: the pick happens on the circle
    page.locator("#mode-cancel").click()
    table.send("sim lid open")
    expect(page.locator("#alarm")).to_contain_text("Close the lid.")
    expect(button(page, "Press")).to_be_disabled()
    expect(page.locator("#cta")).to_have_text("Close the lid.")   # why Press cannot act
    fits(page, "alarm: the lid open")
    table.send("sim lid close")
    expect(page.locator("#alarm")).to_be_hidden()
    expect(button(page, "Press")).to_be_enabled()
    button(page, "More").click()   # the pad's second page: the cards played less often
    expect(button(page, "Hit 4")).to_be_visible()
    fits(page, "the pad's second page")
    button(page, "Back").click()


def test_ten_seats_fit_the_circle_and_the_screen(table, phones, token):
    page = phones(key=token)
    extreme_game(page, table, players=10, names="Anna,Bram,Cor,Dirk,Eva,Femke,Gijs,Hanna,Ingrid,Joost")
    button(page, "Extreme Hit").click()
    fits(page, "ten seats, the Extreme Hit's target")
    boxes = geometry(page)["boxes"]["seats"]
    for i, a in enumerate(boxes):   # no seat covers another: each can be tapped
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    page.locator("#mode-cancel").click()


def test_a_classic_turn_fits_the_screen(table, phones, token):
    page = phones(key=token)
    answered(table, "names seats=Anna,Bram,Cor", "names")
    answered(table, "game new players=3 dealer=1 variant=classic force", "game")
    answered(table, "round start", "round")
    expect(button(page, "Report the first card")).to_be_visible(timeout=DEAL)
    answered(table, "first 5")
    heading(page, "Bram to play")
    fits(page, "a classic turn")
    button(page, "Draw Two").click()
    heading(page, "Cor gets 2 cards (Draw Two)")
    fits(page, "a classic draw owed")


def test_a_toast_and_the_pick_overlay_the_page_and_a_refused_target_keeps_the_pick(table, phones, token):
    page = phones(key=token)
    extreme_game(page, table)
    still = {"circle": "#circle", "press": "#press", "pad": "#pad button", "seats": "#seats button",
             "actions": "#actions > :not([hidden])"}
    before = geometry(page, still)["boxes"]
    button(page, "Catch").click()
    expect(page.locator("#mode")).to_be_visible()
    assert geometry(page, still)["boxes"] == before   # the pick overlays the turn line
    button(page, "Anna").click()   # nobody played yet: too late to catch Anna
    expect(page.get_by_role("alert")).to_be_visible()
    assert geometry(page, still)["boxes"] == before   # the toast overlays too
    expect(page.locator("#mode")).to_be_visible()     # the pick stays open to tap again
    page.locator("#mode-cancel").click()
    # an Extreme Hit at its own player is refused: the pick stays open; another seat is taken
    button(page, "Extreme Hit").click()
    button(page, "Bram").click()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.locator("#mode")).to_be_visible()
    button(page, "Dirk").click()
    expect(page.locator("#mode")).to_be_hidden()
    expect(page.get_by_role("heading", level=2)).to_have_text("Bram presses 2× for Dirk (Extreme Hit)")
    assert geometry(page, still)["boxes"]["circle"] == before["circle"]
