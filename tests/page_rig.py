"""What the browser tests of the one-screen page share: one real server and one Chromium per test module, a phone
paired once (its key handed to every phone the module opens, as a phone keeps it across reloads), and the
geometry of what a phone shows without scrolling.

The server is tests/test_web_browser.py's ``Server``: the program in real time with its stdio console in the
test's hands (``sim button``, ``sim lid open`` are the shooter's own button and lid)."""

from __future__ import annotations

import json

import pytest

from tests.test_web_browser import ARGS, CHROMIUM, Server, button, expect, pair, sync_api

LOCALES = {"en": "en-US", "nl": "nl-NL"}
PHONE = {"width": 390, "height": 844}
# the phones the page is laid out for, portrait, and a tablet on its side
VIEWPORTS = [{"width": 360, "height": 640}, PHONE, {"width": 430, "height": 932}, {"width": 1024, "height": 768}]
DEAL = 30_000   # ms: the simulated shooter deals 7 cards to each of 3 seats in real time (slower on a busy machine)


@pytest.fixture(scope="module")
def table():
    """The real program, one for the module: each test starts its own game (over the last one, forced)."""
    server = Server()
    yield server
    server.close()


@pytest.fixture(scope="module")
def chromium():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def token(table, chromium):
    """A paired phone's key, paired once as during a game: the lid open and the shooter's button held."""
    page = phone(chromium, table.url)
    answered(table, "game new players=2 force", "game")
    pair(page, table, game=True)
    table.wait_for(1, event="lid", state="closed")
    key = page.evaluate("() => localStorage.getItem('token')")
    page.context.close()
    return key


@pytest.fixture
def phones(table, chromium):
    """Opens phones on the module's server (see :func:`phone`), each closed when the test ends: the server takes
    4 WebSockets from one address, and every phone here comes from 127.0.0.1."""
    opened = []

    def open_phone(**options):
        page = phone(chromium, table.url, **options)
        opened.append(page)
        return page
    yield open_phone
    for page in opened:
        page.context.close()


def phone(browser, url, *, key=None, lang="en", viewport=PHONE, init=(), before=None):
    """A phone's page: in `lang`, holding the paired `key` if given; `init` scripts run before the page's own,
    `before(page)` before it loads (e.g. to route its WebSocket)."""
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale=LOCALES[lang])
    if key is not None:
        context.add_init_script(f"localStorage.setItem('token', {json.dumps(key)})")
    for script in init:
        context.add_init_script(script)
    page = context.new_page()
    if before is not None:
        before(page)
    page.goto(url)
    expect(page.locator("#conn")).to_be_hidden()
    if key is not None:
        expect(page.locator("#pairing")).to_be_hidden()   # paired: the strip that asks to pair is gone
    return page


def answered(table, line: str, reply: str | None = None) -> None:
    """A console line, waited for until the console has its answer (ok or not)."""
    name = reply or line.split(maxsplit=1)[0]
    done = sum(o.get("reply") == name for _, o in table.out)
    table.send(line)
    table.wait_for(done + 1, reply=name)


# The boxes of what the page shows, as the phone's viewport has them (no scrolling): each name's visible elements.
GEOMETRY = """(selectors) => {
  const main = document.getElementById("main");
  const visible = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
  const boxes = {};
  for (const [name, selector] of Object.entries(selectors)) {
    boxes[name] = [...document.querySelectorAll(selector)].filter(visible).map((n) => {
      const r = n.getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom];
    });
  }
  const scrolls = document.scrollingElement.scrollHeight > innerHeight + 1 || main.scrollHeight > main.clientHeight + 1;
  return {boxes, width: innerWidth, height: innerHeight, scrolls};
}"""
TURN = {"turn line": "#turn", "circle": "#circle", "press": "#press", "pad": "#pad button", "seats": "#seats button",
        "actions": "#actions > :not([hidden])"}


def geometry(page, selectors=TURN) -> dict:
    return page.evaluate(GEOMETRY, selectors)


def first_row(pad_boxes: list) -> list:
    """The pad's first row: the buttons level with its first."""
    return [b for b in pad_boxes if abs(b[1] - pad_boxes[0][1]) < 2] if pad_boxes else []


def outside(seen: dict, names=None) -> list[str]:
    """The names (and boxes) of what lies outside the viewport, in part or whole."""
    wrong = []
    for name, boxes in seen["boxes"].items():
        if names is not None and name not in names:
            continue
        for left, top, right, bottom in (first_row(boxes) if name == "pad" else boxes):
            if left < -0.5 or top < -0.5 or right > seen["width"] + 0.5 or bottom > seen["height"] + 0.5:
                wrong.append(f"{name} at {left:.0f},{top:.0f}..{right:.0f},{bottom:.0f}")
    return wrong


def heading(page, text):
    expect(page.get_by_role("heading", name=text, exact=True)).to_be_visible()


__all__ = ["DEAL", "LOCALES", "PHONE", "TURN", "VIEWPORTS", "answered", "button", "chromium", "expect", "first_row",
           "geometry", "heading", "outside", "phone", "phones", "table", "token"]
