"""axe-core on every view of the phone page, in English and in Dutch: no violations.

axe-core's script comes with the test extra ``axe-playwright-python`` (MIT; it bundles axe-core, MPL-2.0, with its
licence header), injected into the page by Playwright: nothing from a CDN, nothing in the page's own static files.
The page runs on the real server (tests/test_web_browser.py's ``Server``: the program with its stdio console in
the test's hands); each view is opened as a person would, the table's state set from the console.

``VIEWS`` is the list to extend: a name and how to open that view from the one before it (a page engineer who
adds a view adds a line). Stable handles only: element ids, the console's commands, the catalogue's words.
Under ``UNO_SHOOTER_REQUIRE_BROWSER=1`` (.ci/run) a missing axe-core fails instead of skipping.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from shooter.i18n import catalogue
from tests.test_web_browser import (  # noqa: F401 - fixtures: Chromium
    REQUIRED,
    Server,
    browser,
    expect,
    phone,
)

pytestmark = pytest.mark.browser
if REQUIRED:
    from axe_playwright_python.sync_playwright import Axe
else:
    Axe = pytest.importorskip("axe_playwright_python.sync_playwright",
                              reason="no axe-playwright-python (pip install '.[test]')").Axe

DEAL = 30_000   # ms: the simulated shooter deals a Flip game in real time
READ = 60_000   # ms: the simulated camera's first read waits for the deck learned from rendered cards
SEED = 3        # the simulated world's (a failure replays: `uno-shooter run --sim --seed 3`)


@pytest.fixture
def server(tmp_path):
    """The real program, with the simulated camera asking every read (the sheet of what it saw is a view too;
    only `sim pile` puts a card where it looks)."""
    config = tmp_path / "config.toml"
    # the learning scene (steady light, no hands passing): the sheet is what axe looks at, the same in any light;
    # how the camera reads in the held-out light, hands passing, is measured by `cards bench` and tests/test_vision*
    config.write_text('[camera]\nbackend = "sim"\nreport = "ask"\n\n[sim]\nscene = "learning"\n')
    s = Server(("--config", str(config), "--seed", str(SEED)))
    # the camera watches once its deck is learned (its first frame is taken before): a game begun within a quarter
    # second of its first frame takes a card put down just after for part of the pile (docs/vision.md, limits)
    s.wait_for_log("the camera reads", timeout=READ / 1000)
    yield s
    s.close()
LOCALES = {"en": "en-US", "nl": "nl-NL"}


def tapped(element: str) -> Callable:
    def step(page, server, lang):
        page.locator(element).click()
    return step


def console(*lines: str, shows: str | None = None, timeout: float = 5_000) -> Callable:
    """Lines typed at the table's console; then the page shows ``shows`` (an element id) before axe runs."""
    def step(page, server, lang):
        for line in lines:
            server.send(line)
        if shows is not None:
            expect(page.locator(shows)).to_be_visible(timeout=timeout)
    return step


def card(name: str) -> Callable:
    """A card of the pad tapped (it opens the seat pick for an Extreme Hit)."""
    def step(page, server, lang):
        page.locator(f'#pad button[data-card="{name}"]').click()
        expect(page.locator("#mode")).to_be_visible()
    return step


def paired(page, server, lang):
    server.wait_for(1, event="pair-waiting")   # the request is in: a press before it would pair nobody
    server.send("sim button")   # no game: a press of the shooter's button pairs the phone that asks
    said = re.escape(catalogue(lang)["pair.paired"]).replace(re.escape("{id}"), r"\d+")
    expect(page.locator("#pair-text")).to_have_text(re.compile(said))


def flip(page, server, lang):
    """A Flip game over the running one, dealt by the shooter once its lid has settled shut (a line sent before that
    is refused): each line waits for its answer."""
    server.send("sim lid close")
    server.wait_for(1, event="lid", state="closed")
    for line, answer in (("game new players=3 variant=flip force", "game"), ("round start", "round")):
        done = sum(o.get("reply") == answer and o["ok"] for _, o in server.out)
        server.send(line)
        server.wait_for(done + 1, reply=answer, ok=True)
    expect(page.locator("#report-first")).to_be_visible(timeout=DEAL)


def hands(page, server, lang):
    """The round ends; two cards tapped into the first hand (their counts and their minus buttons shown)."""
    tapped("#mode-cancel")(page, server, lang)
    console("play 5 last", shows="#hands")(page, server, lang)
    for _ in range(2):
        page.locator("#hands .tally .add").first.click()
    expect(page.locator("#hands .less")).to_have_count(1)


def seen(page, server, lang):
    """A card put on the simulated pile: the camera's read asks (``report = "ask"``) and its sheet opens over the
    table, one button per reading and "Not this card"."""
    before = sum(o.get("event") == "seen" for _, o in server.out)
    server.send("sim pile 7 colour=red")
    server.wait_for(before + 1, timeout=READ / 1000, event="seen")   # the camera's read (else: its log says why)
    expect(page.locator("#seen-options button").first).to_be_visible()
    expect(page.locator("#seen-reject")).to_be_visible()


def seen_rejected(page, server, lang):
    """ "Not this card": the sheet closes and nothing is played (the next views go on from the same turn)."""
    page.locator("#seen-reject").click()
    expect(page.locator("#seen")).to_be_hidden()


def disconnected(page, server, lang):
    """The WebSocket cut, and every new one refused: the page says it reconnects, over the board dimmed."""
    page.route_web_socket("**/ws", lambda ws: ws.close())
    page.evaluate("() => window.shooterPage.ws.close()")
    expect(page.locator("#conn")).to_be_visible()


# (view, how to open it from the view before): the page's every view, in the order a game goes
VIEWS: list[tuple[str, Callable]] = [
    ("watching, no game", lambda page, server, lang: None),
    ("pairing: press the button", tapped("#pair")),
    ("paired, no game", paired),
    ("new-game form", tapped("#tab-setup")),
    ("scores, none yet", tapped("#tab-scores")),
    ("table, a round on", lambda page, server, lang: (
        console("names seats=Anna,Bram,Cor,Dirk", "game new players=4", "round start first=5")(page, server, lang),
        tapped("#tab-table")(page, server, lang), expect(page.locator("#play-panel")).to_be_visible())),
    ("the camera's sheet: what it saw", seen),
    ("presses owed", lambda page, server, lang: (
        seen_rejected(page, server, lang), console("play hit2", shows="#seats .badge")(page, server, lang))),
    ("the pad's second page", lambda page, server, lang: (
        console("undo")(page, server, lang), tapped("#pad-more")(page, server, lang))),
    ("a penalty's kind to choose", lambda page, server, lang: (
        tapped("#pad-more")(page, server, lang), tapped("#penalty")(page, server, lang),
        expect(page.locator("#choose")).to_be_visible())),
    ("Extreme Hit: the seat pick", lambda page, server, lang: (
        tapped("#choose-cancel")(page, server, lang), card("extreme-hit")(page, server, lang))),
    ("hands pad", hands),
    ("round result", lambda page, server, lang: (
        console("score seat=1 points=10", "score seat=3 points=20", "score seat=4 points=5",
                shows="#result")(page, server, lang))),
    ("scores and their chart", lambda page, server, lang: (
        tapped("#tab-scores")(page, server, lang), expect(page.locator("#chart svg")).to_be_visible())),
    ("a new game over a running one: the confirmation", lambda page, server, lang: (
        tapped("#tab-setup")(page, server, lang), tapped("#new-game")(page, server, lang),
        expect(page.locator("#confirm")).to_be_visible())),
    ("lid open alarm", lambda page, server, lang: (
        tapped("#confirm-no")(page, server, lang), tapped("#tab-table")(page, server, lang),
        console("sim lid open", shows="#alarm")(page, server, lang))),
    ("Flip: light side", flip),
    ("disconnected", disconnected),
]


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_view_has_no_accessibility_violations(server, browser, lang):
    axe = Axe()
    page = phone(browser, server.url, locale=LOCALES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    found = []
    for name, open_view in VIEWS:
        open_view(page, server, lang)
        found += [f"{name} ({lang}): {v['id']} ({v['impact']}) at {', '.join(str(n['target']) for n in v['nodes'])}"
                  for v in axe.run(page).response["violations"]]
    assert not found, "\n".join(found)
