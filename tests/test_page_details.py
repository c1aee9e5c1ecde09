"""The page says the controller's error messages as the terminal does (static/details.js on /i18n/details.json,
shooter.i18n.Messages.detail in Python): every message the controller can write, in every language, the same text;
and a refused command's toast names the seats and keeps its detail in Dutch."""

from __future__ import annotations

import re

import pytest

from shooter.i18n import LANGUAGES, Messages
from tests.test_i18n import error_sites
from tests.test_web_browser import browser, expect, phone, server  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser


def test_the_page_and_the_terminal_say_every_error_message_alike(server, browser):
    page = phone(browser, server.url)
    page.evaluate("() => window.shooterDetails.ready")
    messages = [text for _, text, _ in error_sites()]
    for lang in LANGUAGES:
        said = page.evaluate("([lang, messages]) => messages.map((m) => window.shooterDetails.say(lang, m, "
                             "(n) => `#${n}`))", [lang, messages])
        python = [Messages(lang).detail(code, text, seat=lambda n: f"#{n}") for code, text, _ in error_sites()]
        assert said == python, [(a, b) for a, b in zip(said, python, strict=True) if a != b][:5]
    assert page.evaluate("() => window.shooterDetails.say('nl', 'a message no template has', String)") is None


def test_a_refused_command_is_said_with_names_and_its_detail(server, browser):
    page = phone(browser, server.url, locale="nl-NL")
    page.locator("#pair").click()
    server.wait_for(1, event="pair-waiting")   # the request is in: a press before it would pair nobody
    server.send("sim button")   # no game: the press pairs the phone that asks
    expect(page.locator("#pair-text")).to_have_text(re.compile(r"Gekoppeld \(telefoon \d+\)"))
    for line in ("names seats=Anna,Bram,Cor", "game new players=3", "round start first=5"):
        server.send(line)
    server.wait_for(1, reply="round", ok=True)
    expect(page.locator("#turn")).to_have_text(re.compile("Bram"))
    page.locator("#catch").click()
    page.locator('#seats button[data-seat="1"]').click()   # Anna did not just play: too late to catch her
    expect(page.locator("#toast")).to_have_text(
        "Anna kan niet meer betrapt worden: de volgende speler heeft gelegd of gedrukt, of Anna legde net niet.")
