"""The phone page in a real browser: headless Chromium (Debian's chromium) driven by Playwright.

The real server runs as a subprocess, as the README says:
``uno-shooter run --sim --clock real --console stdio --web 127.0.0.1:PORT``; its standard input
is the stdio console, so ``sim button`` written there is the physical press that pairs.
At 390x844 the page is played like a phone: pair, a 4-player game, a Hit 2 and its presses, an
Extreme Hit at seat 4 taken back, a round ended and its hands reported, Dutch; the exact variants
dealt by the shooter (classic: first card, Draw Two served in one press, draw, pass; Flip: the side and its pad;
All Wild: a seat picked for a targeted draw and a forced swap); the table's score sheet on a reloaded and a
fresh phone. The one-screen layout, whole rounds played from the page alone and the screenshots of docs/page.md
are tests/test_page_layout.py's and tests/test_page_play.py's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from shooter.config import Config
from shooter.editions import editions_of, lookup, records
from shooter.i18n import catalogue
from shooter.seat_names import MAX_LENGTH
from shooter.table import RuleOptions, args
from shooter.table.cards import CARDS
from shooter.table.table import VARIANT_SCORINGS
from shooter.web.options import document, pads

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
REQUIRED = os.environ.get("UNO_SHOOTER_REQUIRE_BROWSER") == "1"  # .ci/run: no silent skip
if not os.path.exists(CHROMIUM):
    if REQUIRED:
        raise RuntimeError(f"UNO_SHOOTER_REQUIRE_BROWSER=1 but there is no {CHROMIUM}")
    pytest.skip("no chromium (Debian: apt-get install chromium)", allow_module_level=True)
if REQUIRED:
    from playwright import sync_api
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="no playwright (pip install '.[test]')")
expect = sync_api.expect

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
PHONE = {"width": 390, "height": 844}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The real program in real time, with its stdio console in our hands."""

    def __init__(self, args: tuple[str, ...] = ()):
        self.port = free_port()
        exe = Path(sys.executable).with_name("uno-shooter")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "shooter"]
        # the checkout's code, not the copy `pip install .` put in site-packages (the entry point's sys.path
        # starts at its own bin/, so an edit since the install would otherwise go untested)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        self.proc = subprocess.Popen(
            cmd + ["run", "--sim", "--clock", "real", "--console", "stdio", "--web", f"127.0.0.1:{self.port}", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        line = self.proc.stderr.readline().decode()  # returns once it listens (or it died)
        assert "web console on" in line, line + self.proc.stderr.read().decode()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.out: list[tuple[float, dict]] = []
        self.said: list[str] = []   # its log (stderr), line by line, drained so that the pipe never fills
        self.seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_log, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            with self.seen:
                self.out.append((time.time() * 1000, json.loads(raw)))
                self.seen.notify_all()

    def _read_log(self):
        for raw in self.proc.stderr:
            with self.seen:
                self.said.append(raw.decode())
                self.seen.notify_all()

    def wait_for_log(self, text: str, timeout: float = 30) -> None:
        """Returns once the program has logged a line holding ``text`` (woken by each line, no polling)."""
        with self.seen:
            assert self.seen.wait_for(lambda: any(text in line for line in self.said), timeout), \
                f"no log line with {text!r}: {self.said}"

    def wait_for(self, count: int, timeout: float = 30, **line) -> None:
        """Returns once the console has printed `count` lines with these fields, e.g. event="round-scored"
        (woken by each line it prints, no polling)."""
        def seen():
            return sum(all(o.get(k) == v for k, v in line.items()) for _, o in self.out) >= count
        with self.seen:
            assert self.seen.wait_for(seen, timeout), f"fewer than {count} lines {line}\n{self.story()}"

    def story(self, lines: int = 20) -> str:
        """The program's last log lines and console lines, for a failure's message (what it did meanwhile: the
        camera's words, a refusal, an error)."""
        with self.seen:
            said, out = self.said[-lines:], self.out[-lines:]
        return ("its log, last lines:\n" + "".join(said) + "its console, last lines:\n"
                + "\n".join(json.dumps(o)[:300] for _, o in out))

    def send(self, line: str) -> float:
        """A line on the stdio console; returns when it was sent (ms since the epoch)."""
        sent = time.time() * 1000
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return sent

    def close(self):
        self.proc.stdin.close()  # end of input ends the program
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


@pytest.fixture
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def phone(browser, url, before=None, **options):
    """A phone's page of `url`; `before(page)` runs before it loads (e.g. to route a request)."""
    options = {"locale": "en-US", **options}
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **options)
    page = context.new_page()
    if before is not None:
        before(page)
    page.goto(url)
    return page


def button(page, name, exact=True):
    return page.get_by_role("button", name=name, exact=exact)


def values(page, select):
    """The values a select offers, in order."""
    return page.locator(f"{select} option").evaluate_all("options => options.map(o => o.value)")


def pair(page, server, game=False):
    """Pair the phone at the shooter: with no game a press of its button; during a game (a short press is then a
    player's, never a pairing) the lid opened and the button held 2 s, as the page says."""
    button(page, "Pair").click()
    if game:
        expect(page.locator("#pair-how")).to_contain_text("open the shooter's lid and hold its button for 2 s")
        server.send("sim lid open")
        server.send("sim button hold=2.5")
    else:
        expect(page.get_by_text("Press the button on the shooter")).to_be_visible()
        server.send("sim button")
    expect(page.locator("#pair-text")).to_have_text(re.compile(r"Paired \(phone \d+\)"))
    if game:
        server.send("sim lid close")


def turn_line(page, text):
    """The turn line at the top: who acts and, while something is owed, why."""
    expect(page.get_by_role("heading", name=text, exact=True)).to_be_visible()


def test_the_page_played_on_a_phone(server, browser):
    page = phone(browser, server.url)
    button(page, "Pair")  # anyone may watch: the page is up before pairing
    expect(page.get_by_text("Watching only. Pair this phone to play.")).to_be_visible()
    expect(button(page, "Press")).to_be_disabled()  # watching: the controls say they are off
    pair(page, server)

    # Wi-Fi drops: the page reconnects by itself and is still paired
    expect(page.locator("body")).to_have_attribute("data-connects", "1")
    page.evaluate("() => window.shooterPage.ws.close()")
    expect(page.locator("body")).to_have_attribute("data-connects", "2")
    expect(page.locator("#pair-text")).to_have_text(re.compile(r"Paired \(phone \d+\)"))
    expect(page.locator("#conn")).to_be_hidden()

    # a 4-player game
    page.get_by_role("tab", name="Game").click()
    page.get_by_label("Players").select_option("4")
    page.get_by_role("textbox", name="Seat 1", exact=True).fill("Ann")
    page.get_by_role("textbox", name="Seat 1", exact=True).fill("")
    button(page, "New game").click()
    expect(button(page, "Start round")).to_be_visible()
    page.get_by_label("First card").select_option("5")
    button(page, "Start round").click()
    turn_line(page, "Seat 2 to play")
    for card in ("Number", "Skip", "Reverse", "Discard All", "Wild", "Hit 2", "Extreme Hit"):
        expect(button(page, card)).to_be_visible()
    for name in ("Press", "Uno", "Catch", "Penalty"):
        expect(button(page, name)).to_be_visible()
    button(page, "More").click()   # the cards played least, one tap away
    expect(button(page, "Hit 4")).to_be_visible()
    expect(button(page, "Hit 2")).to_be_hidden()
    button(page, "Back").click()

    # seat 2 plays a Hit 2: seat 3 owes two presses; two presses pay them. The heading, read first, names who
    # presses while something is owed (the table's turn is already seat 4's: said below it), then whose turn it is
    button(page, "Hit 2").click()
    turn_line(page, "Seat 3 presses 2× (Hit 2)")
    expect(page.locator("#direction")).to_have_text("Round 1 · clockwise · then Seat 4 to play")
    expect(button(page, "Seat 3 (2×)")).to_be_visible()
    expect(button(page, "Seat 3 (2×)")).to_have_attribute("aria-current", "true")   # the ring marks the presser
    button(page, "Press").click()
    expect(button(page, "Seat 3 (1×)")).to_be_visible()
    turn_line(page, "Seat 3 presses 1× (Hit 2)")
    button(page, "Press").click()
    turn_line(page, "Seat 4 to play")
    expect(page.locator("#direction")).to_have_text("Round 1 · clockwise")

    # seat 4 plays a number; seat 1 an Extreme Hit at seat 4, taken back
    button(page, "Number").click()
    turn_line(page, "Seat 1 to play")
    button(page, "Extreme Hit").click()
    expect(page.locator("#mode-text")).to_have_text("Extreme Hit: tap the seat the shooter turns to")
    button(page, "Seat 4").click()
    # the card's player presses, the shooter points at seat 4
    turn_line(page, "Seat 1 presses 2× for Seat 4 (Extreme Hit)")
    expect(button(page, "Seat 1")).to_have_attribute("aria-current", "true")
    expect(button(page, "Undo", exact=False)).to_have_text("Undo: the play")
    button(page, "Undo", exact=False).click()
    turn_line(page, "Seat 1 to play")

    # a refused command is said in words: seat 1 cannot be caught (no Uno window for it)
    button(page, "Catch").click()
    button(page, "Seat 3").click()
    expect(page.get_by_role("alert")).to_be_visible()

    # seat 1 plays its last card: the round ends; the hands are tapped in (or their points typed)
    page.locator("#mode-cancel").click()
    page.get_by_label("Last card").check()
    button(page, "Number").click()
    hand = page.get_by_role("group", name="Seat 2: cards left in hand")
    expect(hand).to_be_visible()
    hand.get_by_role("button", name="5", exact=True).click()
    hand.get_by_role("button", name="Skip", exact=True).click()
    expect(page.locator("#hand-sum")).to_have_text("Seat 2: 2 cards, 25 points")
    button(page, "Report hand: Seat 2").click()
    expect(hand).to_have_count(0)
    page.get_by_label("Or its points, counted already").fill("42")
    button(page, "Report hand: Seat 3").click()
    page.get_by_role("group", name="Seat 4: cards left in hand").get_by_role("button", name="Wild").click()
    button(page, "Report hand: Seat 4").click()
    expect(button(page, "Start round")).to_be_visible()
    expect(page.locator("#result")).to_contain_text("Round 1: Seat 1 won")   # on the table, until the next round
    page.get_by_role("tab", name="Scores").click()
    expect(page.locator("#score-table")).to_contain_text("Round 1")
    expect(page.locator("#score-table tr").last.locator("th").nth(1)).to_have_text("117")  # 25 + 42 + 50

    # Dutch: the same table in the box's own words
    page.get_by_role("tab", name="Table").click()
    button(page, "Nederlands").click()
    expect(page.get_by_role("tab", name="Tafel")).to_be_visible()
    page.get_by_label("Eerste kaart").select_option("7")
    button(page, "Ronde starten").click()
    turn_line(page, "Plaats 3 is aan de beurt")
    button(page, "Druk 2 keer").click()
    turn_line(page, "Plaats 4 drukt 2× (Druk 2 keer)")
    for card in ("Cijferkaart", "Sla over", "Keer om", "Alles afleggen", "Kleurkeuze", "Schieterkeuze"):
        expect(button(page, card)).to_be_visible()
    expect(button(page, "Schieterknop")).to_be_visible()   # the shooter's button: no "Druk" beside "Druk 2 keer"
    button(page, "Ongedaan maken", exact=False).click()
    button(page, "Betrapt").click()
    button(page, "Plaats 2").click()
    expect(page.get_by_role("alert")).to_be_visible()
    # in Dutch with its detail, not only the error code's sentence (static/details.js)
    expect(page.get_by_role("alert")).to_have_text(re.compile(r"^Plaats 2 kan niet meer betrapt worden: "))


def test_a_dutch_phone_gets_the_page_in_dutch(server, browser):
    page = phone(browser, server.url, locale="nl-NL")
    expect(button(page, "Koppelen")).to_be_visible()
    expect(page.get_by_role("heading", name="Geen spel")).to_be_visible()
    button(page, "English").click()
    expect(button(page, "Pair")).to_be_visible()


def test_two_phones_see_every_event_within_100_ms(server, browser):
    phones = [phone(browser, server.url, bypass_csp=True) for _ in range(2)]  # CSP: wait_for_function evals
    # One at a time: a press with two phones asking pairs neither. The second press may come while the
    # simulated finger still holds the first one down: it then presses again once it has let go.
    for page in phones:
        button(page, "Pair").click()
        expect(page.get_by_text("Press the button on the shooter")).to_be_visible()
        server.send("sim button")
        expect(page.locator("#pair-text")).to_have_text(re.compile(r"Paired \(phone \d+\)"))
    sent = []
    for _ in range(20):
        sent.append(server.send("names"))  # an event at once, to every console
    for page in phones:
        page.wait_for_function("() => window.shooterPage.events.filter(e => e[1].event === 'names').length >= 20")
    delays = []
    for page in phones:
        got = [ms for ms, ev in page.evaluate("window.shooterPage.events") if ev["event"] == "names"]
        delays += [g - s for g, s in zip(got, sent, strict=False)]
    seen = [[ev for _, ev in page.evaluate("window.shooterPage.events") if ev["event"] != "pair-granted"]
            for page in phones]
    first = min(i for i, ev in enumerate(seen[1]) if ev["event"] == "names")
    start = seen[0].index(seen[1][first])
    assert seen[0][start:] == seen[1][first:]  # every event, in the same order, on both phones
    print(f"\ntwo phones: event from the controller's console to the page: median "
          f"{statistics.median(delays):.1f} ms, max {max(delays):.1f} ms over {len(delays)} events")
    assert statistics.median(delays) < 100
    assert max(delays) < 500  # loosely: a shared CI machine has hiccups


DEAL = 30_000  # ms: the real shooter deals 7 cards to each of 3 seats (about 5 s on the simulator, slower when busy)


def new_exact_game(page, server, variant):
    """Pair, then a 3-player game of `variant` from the Game tab, dealt by the shooter, the first card a 5
    (All Wild has none)."""
    pair(page, server)
    page.get_by_role("tab", name="Game").click()
    page.get_by_label("Players").select_option("3")
    page.get_by_label("Which Uno").select_option(variant)
    expect(page.get_by_label("Edition")).to_be_hidden()  # Extreme's decks only
    start_rule = page.get_by_label("An action card turned up first")  # classic's first-card rule
    expect(start_rule).to_be_visible() if variant == "classic" else expect(start_rule).to_be_hidden()
    button(page, "New game").click()
    expect(page.get_by_text("the shooter deals 7 cards to every seat", exact=False)).to_be_visible()
    expect(page.get_by_label("First card")).to_be_hidden()  # the shooter deals before the card is turned up
    button(page, "Deal").click()
    if variant == "all-wild":  # no first card: the play starts once the deal is done
        expect(page.get_by_role("heading", name="Seat 2 to play", exact=True)).to_be_visible(timeout=DEAL)
        return
    expect(page.get_by_text("The shooter is dealing…")).to_be_visible()  # no first card before the deal is done
    expect(page.locator("#turn")).to_have_text(re.compile(r"^Seat [1-3] gets [1-7] cards? \(deal\)$"))  # dealt to
    expect(button(page, "Report the first card")).to_be_hidden()
    expect(button(page, "Report the first card")).to_be_visible(timeout=DEAL)
    turn_line(page, "Seat 1 turns up the first card")
    for seat in (1, 2, 3):
        expect(button(page, f"Seat {seat}, 7 cards")).to_be_visible()
    page.get_by_label("First card").select_option("5")
    button(page, "Report the first card").click()
    turn_line(page, "Seat 2 to play")


def test_a_classic_game_dealt_and_played_on_a_phone(server, browser):
    page = phone(browser, server.url)
    new_exact_game(page, server, "classic")
    for card in ("Number", "Skip", "Reverse", "Draw Two", "Wild", "Wild Draw Four", "Wild Shuffle Hands",
                 "Wild Customizable"):
        expect(button(page, card)).to_be_visible()
    for name in ("Press", "Give", "Uno", "Catch"):
        expect(button(page, name)).to_be_visible()
    expect(button(page, "Draw")).to_have_count(0)  # one draw action: the shooter's press
    expect(button(page, "Pass")).to_be_hidden()    # until a card was drawn
    expect(button(page, "Discard All")).to_have_count(0)  # Extreme's, not classic's
    expect(button(page, "Penalty")).to_be_hidden()  # Extreme's penalties
    expect(page.get_by_label("Last card")).to_be_hidden()  # the shooter counts the hands

    # seat 2 plays a Draw Two: seat 3 is owed 2 cards; one press shoots both, counted
    button(page, "Draw Two").click()
    turn_line(page, "Seat 3 gets 2 cards (Draw Two)")
    expect(button(page, "Seat 3 (+2), 7 cards")).to_be_visible()
    expect(button(page, "Seat 2, 6 cards")).to_be_visible()
    expect(page.locator("#cta")).to_have_text("Seat 3: one press shoots 2 cards.")
    button(page, "Press").click()
    expect(button(page, "Seat 3, 9 cards")).to_be_visible(timeout=DEAL)
    turn_line(page, "Seat 1 to play")  # seat 3 lost its turn
    expect(page.locator("#machine-state")).to_have_text("Ready")

    # seat 1 draws one card (the shooter's press), then passes
    expect(page.locator("#cta")).to_have_text("Seat 1: play a card, or press to draw one.")
    button(page, "Press").click()
    expect(button(page, "Seat 1, 8 cards")).to_be_visible(timeout=DEAL)
    expect(page.locator("#cta")).to_have_text("Seat 1: play the drawn card, or pass.")
    expect(button(page, "Press")).to_be_disabled()   # drawn already: play it or pass
    # the shooter is ready again, and the page says so: no stale "Shooting" after a draw
    expect(page.locator("#machine-state")).to_have_text("Ready")
    button(page, "Pass").click()
    turn_line(page, "Seat 2 to play")
    expect(button(page, "Pass")).to_be_hidden()


def test_a_flip_game_turns_its_side_on_the_phone(server, browser):
    page = phone(browser, server.url)
    new_exact_game(page, server, "flip")
    expect(page.locator("#side")).to_have_text("Light side up")
    for card in ("Draw One", "Wild Draw Two", "Flip", "Skip"):
        expect(button(page, card)).to_be_visible()

    # seat 2 plays a Flip: the dark side is up, and so is its pad
    button(page, "Flip").click()
    expect(page.locator("#side")).to_have_text("Dark side up")
    for card in ("Draw Five", "Skip Everyone", "Wild Draw Colour", "Flip", "Reverse"):
        expect(button(page, card)).to_be_visible()
    for card in ("Draw One", "Wild Draw Two", "Skip"):
        expect(button(page, card)).to_have_count(0)
    turn_line(page, "Seat 3 to play")

    # seat 3 plays a Wild Draw Colour at seat 1: it may be challenged; seat 1 draws until the colour comes
    button(page, "Wild Draw Colour").click()
    turn_line(page, "Seat 1 draws until the colour (Wild Draw Colour)")
    expect(page.locator("#challenge-text")).to_have_text("Seat 1 may challenge the Wild Draw Colour of Seat 3")
    expect(button(page, "Challenge: rejected")).to_be_visible()
    button(page, "Press").click()
    expect(button(page, "Seat 1 (+?), 8 cards")).to_be_visible(timeout=DEAL)  # 1 card; more until the colour
    expect(page.locator("#challenge-box")).to_be_hidden()  # too late once the first card came
    button(page, "Colour found").click()
    turn_line(page, "Seat 2 to play")


def score_a_round(server, others):
    """From the console: the first player goes out at once; the `others` hold a 5 and a wild (55 points)."""
    for line in ("round start first=7", "play number last", f"hand seat={others[0]} cards=5",
                 f"hand seat={others[1]} cards=wild"):
        server.send(line)


def test_the_score_table_survives_a_reload_and_knows_a_new_game(server, browser):
    page = phone(browser, server.url)
    expect(page.locator("body")).to_have_attribute("data-connects", "1")  # it sees the events from now on
    server.send("game new players=3 dealer=3")
    score_a_round(server, (2, 3))  # dealer 3: seat 1 wins
    page.get_by_role("tab", name="Scores").click()
    expect(page.locator("#score-table")).to_contain_text("Round 1")
    page.reload()  # the rows come from the table (status), not from the phone
    page.get_by_role("tab", name="Scores").click()
    expect(page.locator("#score-table tr").nth(1)).to_have_text("Round 1" + "55 ★" + "0" + "0")

    # a new game started elsewhere (the `game` event tells every phone): its table starts empty, no reload
    server.send("game new players=3 force")
    expect(page.locator("#score-table")).to_contain_text("No round scored yet.")


def test_a_fresh_paired_phone_sees_every_round_the_table_scored(server, browser):
    server.send("game new players=3 dealer=3")
    score_a_round(server, (2, 3))  # dealer 3: seat 1 wins
    score_a_round(server, (1, 3))  # dealer 1: seat 2 wins
    server.wait_for(2, event="round-scored")
    page = phone(browser, server.url)  # a new context: no storage of its own, never saw a round
    expect(button(page, "Start round")).to_be_visible()  # the page knows a game is on
    pair(page, server, game=True)
    # a second phone asks with a name; the paired phone approves it by its request number
    other = phone(browser, server.url)
    other.get_by_label("Name this phone (optional)").fill("Bob's phone")
    button(other, "Pair").click()
    expect(other.locator("#pair-request")).to_have_text(re.compile(r"Request \d+: a phone already paired"))
    number = re.search(r"\d+", other.locator("#pair-request").inner_text()).group()
    expect(page.locator("#pair-requests")).to_contain_text(f"Bob's-phone (Linux PC) asks to pair: request {number}")
    page.locator("#pair-requests").get_by_role("button", name="Approve").click()
    expect(other.locator("#pair-text")).to_have_text(re.compile(r"Paired \(phone \d+\)"))
    expect(page.locator("#pair-requests")).to_be_hidden()
    page.get_by_role("tab", name="Scores").click()
    expect(page.locator("#score-table tr").nth(1)).to_have_text("Round 1" + "55 ★" + "0" + "0")
    expect(page.locator("#score-table tr").nth(2)).to_have_text("Round 2" + "0" + "55 ★" + "0")
    expect(page.locator("#score-table tr").last).to_have_text("Total" + "55" + "55" + "0")
    expect(page.locator("#score-table")).not_to_contain_text("No round scored yet.")


def test_an_all_wild_targeted_draw_two_and_forced_swap_pick_their_seat(server, browser):
    page = phone(browser, server.url)
    new_exact_game(page, server, "all-wild")
    for card in ("Wild", "Wild Skip", "Wild Skip Two", "Wild Reverse", "Wild Draw Two", "Wild Draw Four",
                 "Wild Targeted Draw Two", "Wild Forced Swap"):
        expect(button(page, card)).to_be_visible()
    expect(button(page, "Number")).to_have_count(0)
    button(page, "Wild Targeted Draw Two").click()
    expect(page.locator("#mode-text")).to_have_text("Wild Targeted Draw Two: tap the seat the shooter turns to")
    button(page, "Seat 1, 7 cards").click()
    turn_line(page, "Seat 1 gets 2 cards (Wild Targeted Draw Two)")
    button(page, "Press").click()
    expect(button(page, "Seat 1, 9 cards")).to_be_visible(timeout=DEAL)
    turn_line(page, "Seat 3 to play")  # the target keeps its turn; play goes on after the card's player
    button(page, "Wild Forced Swap").click()
    button(page, "Seat 1, 9 cards").click()
    expect(button(page, "Seat 3, 9 cards")).to_be_visible()  # seat 3 played one of its 7, then swapped
    expect(button(page, "Seat 1, 6 cards")).to_be_visible()


# The phone page repeats none of the table's facts: it builds its form and its pads from /options.json, which the
# server builds from the Python definitions (tests/test_web_options.py checks that document against them).

def test_the_new_game_form_offers_exactly_what_the_table_takes(server, browser):
    page = phone(browser, server.url)
    pair(page, server)  # a watching phone's form is disabled
    page.get_by_role("tab", name="Game").click()
    players = page.get_by_label("Players")
    expect(players).to_have_value(str(Config().default_seats))  # the form is built, with the defaults
    expect(page.get_by_label("Dealer")).to_have_value(str(RuleOptions().default_dealer))
    assert page.locator("#start").input_value() == RuleOptions().classic_first_card
    assert values(page, "#players") == [str(n) for n in range(args.MIN_SEATS, args.MAX_SEATS + 1)]
    assert values(page, "#variant") == list(args.VARIANTS)
    assert values(page, "#edition") == editions(args.VARIANTS[0])  # the chosen box's editions only
    assert values(page, "#scoring") == list(args.SCORINGS)
    page.get_by_label("Which Uno").select_option("classic")
    assert values(page, "#start") == list(args.START_RULES)
    en = catalogue("en")  # in the page's words, from the catalogue, and the boxes' names from the records
    for select, kind, choices in (("#scoring", "scoring", args.SCORINGS), ("#start", "start", args.START_RULES)):
        assert page.locator(f"{select} option").all_inner_texts() == [en[f"{kind}.{c}"] for c in choices]
    assert page.locator("#variant option").all_inner_texts() == [lookup(v).names["en"][""] for v in args.VARIANTS]
    scoring = page.get_by_label("Scoring")
    page.get_by_label("Which Uno").select_option(args.VARIANTS[0])
    scoring.select_option(args.SCORINGS[-1])  # elimination: Extreme's only
    for variant in (*args.VARIANTS[1:], args.VARIANTS[0]):  # each variant offers the scorings it allows
        page.get_by_label("Which Uno").select_option(variant)
        enabled = page.locator("#scoring option:not([disabled])").evaluate_all("options => options.map(o => o.value)")
        assert enabled == list(VARIANT_SCORINGS[variant]), variant
        assert scoring.input_value() in VARIANT_SCORINGS[variant], variant  # a refused one is not kept chosen
        if editions(variant):  # and its own editions (a year, a printing), none of another box's
            assert values(page, "#edition") == editions(variant), variant
        expect(page.locator("#edition-row")).to_be_visible(visible=bool(editions(variant)))
    limit = page.get_by_label("Limit")
    expect(limit).to_have_value(str(args.DEFAULT_LIMIT))
    expect(limit).to_have_attribute("min", "1")
    expect(limit).to_have_attribute("max", str(args.MAX_LIMIT))
    players.select_option(str(args.MAX_SEATS))
    names = page.locator("#names input")
    expect(names).to_have_count(args.MAX_SEATS)
    assert names.evaluate_all("inputs => inputs.map(i => i.maxLength)") == [MAX_LENGTH] * args.MAX_SEATS


def test_a_limit_beyond_the_tables_max_sends_nothing_and_the_max_itself_starts_the_game(server, browser):
    page = phone(browser, server.url)
    pair(page, server)
    page.get_by_role("tab", name="Game").click()
    limit = page.get_by_label("Limit")
    limit.fill(str(args.MAX_LIMIT + 1))
    button(page, "New game").click()
    assert limit.evaluate("input => input.validity.rangeOverflow")
    expect(page.locator("#view-setup")).to_be_visible()  # still the form
    limit.fill(str(args.MAX_LIMIT))
    button(page, "New game").click()
    expect(button(page, "Start round")).to_be_visible()
    server.wait_for(1, event="game")
    server.send("status")
    server.wait_for(1, reply="status")
    seen = [o for _, o in server.out]
    # the lines of a click arrive in order: had the first click sent its `game new`, its `game` event came
    # first; the names follow the game the controller took (a refused game changes no name)
    assert [o["event"] for o in seen if o.get("event") in ("names", "game")] == ["game", "names"]
    assert next(o for o in seen if o.get("reply") == "status")["game"]["limit"] == args.MAX_LIMIT


def editions(variant: str) -> list[str]:
    """The editions of a variant, as the registry holds them (none for a one-deck variant)."""
    return [r.edition for r in editions_of(variant) if r.edition is not None]


@pytest.mark.parametrize("edition", args.EDITIONS)
def test_the_first_card_and_the_pad_offer_the_editions_cards(server, browser, edition):
    page = phone(browser, server.url)
    expect(page.locator("body")).to_have_attribute("data-connects", "1")  # it sees the events from now on
    pad = pads()[edition]
    deck = [name for name, card in CARDS.items() if card.count(edition) > 0]
    variant = next(r.variant for r in records() if r.edition == edition)
    server.send(f"game new players=3 variant={variant} edition={edition}")
    expect(page.get_by_label("First card")).to_be_visible()
    assert values(page, "#first") == [str(d) for d in pad["digits"]] + [c for c in pad["cards"] if c != "number"]
    server.send("round start first=5")
    turn_line(page, "Seat 2 to play")
    cards = page.locator("#pad button[data-card]").evaluate_all("buttons => buttons.map(b => b.dataset.card)")
    assert cards == pad["cards"] and sorted(cards) == sorted(deck)   # the More page's too
    assert page.locator("#pad button[data-card]").evaluate_all("bs => bs.map(b => b.textContent)") == \
        [pad["names"]["en"][c] for c in cards]


def test_the_page_builds_its_form_and_pad_from_the_servers_document(server, browser):
    # a document unlike the table's: a page that kept its own copy of a fact would show that copy
    doc = document(players=4, rules=RuleOptions())
    doc["seats"]["max"] = 6
    doc["defaults"] = {"players": 5, "dealer": "2", "start": "apply"}
    doc["scorings"] = ["lowest", "winner"]
    doc["limit"] = {"min": 1, "max": 900, "default": 250}
    doc["pads"]["2016"]["cards"] = ["wild", "number", "extreme-hit"]
    doc["pads"]["2016"]["targeted"] = []
    page = phone(browser, server.url, before=lambda p: p.route("**/options.json", lambda r: r.fulfill(json=doc)))
    page.get_by_role("tab", name="Game").click()
    expect(page.get_by_label("Limit")).to_have_value("250")
    expect(page.get_by_label("Limit")).to_have_attribute("max", "900")
    assert values(page, "#players") == ["2", "3", "4", "5", "6"]
    assert values(page, "#scoring") == ["lowest", "winner"]
    expect(page.get_by_label("Players")).to_have_value("5")
    expect(page.locator("#seats button")).to_have_count(5)  # the table without a game: the controller's seats
    assert page.locator("#start").input_value() == "apply"
    expect(page.get_by_label("Dealer")).to_have_value("2")
    pair(page, server)
    page.get_by_label("Dealer").select_option("random")
    server.send("game new players=3")
    expect(page.locator("#seats button")).to_have_count(3)  # rendered again: a random dealer stays chosen
    expect(page.get_by_label("Dealer")).to_have_value("random")
    page.get_by_role("tab", name="Table").click()
    server.send("round start first=5")
    turn_line(page, "Seat 2 to play")
    assert page.locator("#pad button").all_inner_texts() == ["Wild", "Number", "Extreme Hit"]
    button(page, "Extreme Hit").click()  # not targeted in this document: played at once, no seat asked
    expect(page.get_by_role("alert")).to_contain_text("target")  # the table wants one: refused, in words
    expect(page.locator("#mode")).to_be_hidden()
