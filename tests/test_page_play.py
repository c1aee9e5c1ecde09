"""Whole rounds played from the page alone, as a family plays them, in English and in Dutch: a new game over a
running one (confirmed, and nothing changed by a cancelled or refused one), an Uno Extreme round (a Hit 2, an
Extreme Hit, a jam, the last card), a classic round dealt and counted by the shooter to its end, the hands
tapped in, the round's result on the table, the score chart; the spoken cues the page queues; the controls'
names; a lost connection; the taps and scrolls of a turn, an Extreme Hit, a catch and a 7-card hand (the
figures in docs/page.md). Real server, headless Chromium at 390x844 (tests/page_rig.py).

The screenshots of docs/page.md are taken here, into docs/ only when asked (their bytes differ on every run, a
test run must not leave the tree changed): UNO_SHOOTER_SCREENSHOTS=1 python -m pytest tests/test_page_play.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from shooter.editions import lookup
from shooter.i18n import Messages
from tests.page_rig import (  # noqa: F401 - fixtures: the module's server, its phones and paired key
    DEAL,
    answered,
    button,
    chromium,
    expect,
    heading,
    phones,
    table,
    token,
)

pytestmark = pytest.mark.browser
try:   # axe-core (the test extra): tests/test_page_axe.py fails without it under .ci/run; here it is a bonus
    from axe_playwright_python.sync_playwright import Axe as AXE
except ImportError:  # pragma: no cover - the test extra installs it
    AXE = None
ROOT = Path(__file__).parent.parent
SHOTS = ROOT / "docs" if os.environ.get("UNO_SHOOTER_SCREENSHOTS") == "1" else None
NAMES = ("Anna", "Bram", "Cor")
# speechSynthesis as the page finds it, recording what it is asked to say (a headless browser has no voice)
SPEECH = """
window.spoken = [];
class Utterance { constructor(text) { this.text = text; this.lang = ""; } }
window.SpeechSynthesisUtterance = window.SpeechSynthesisUtterance || Utterance;
Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
  speak: (u) => window.spoken.push([u.lang, u.text]), cancel: () => {}, getVoices: () => []}});
"""


def shot(page, name: str, lang: str) -> None:
    """What the phone shows (one screen, 390x844): into docs/ when asked, else taken and dropped. Taken once the
    shooter stands still (not caught turning between two states)."""
    page.wait_for_function("() => !['aiming', 'firing', 'retracting']"
                           ".includes(window.shooterPage.status.shooter.state)")
    image = page.screenshot(path=str(SHOTS / f"page-{name}-{lang}.png") if SHOTS else None)
    assert image[:8] == b"\x89PNG\r\n\x1a\n"


class Words:
    """The page's words in one language: its catalogue and the names printed on the cards of each box."""

    def __init__(self, lang: str):
        self.lang, self.say = lang, Messages(lang)

    def __call__(self, key: str, **fields) -> str:
        return self.say(key, **fields)

    def card(self, variant: str, card: str) -> str:
        return lookup(variant).names[self.lang][card]


def spoken(page) -> list[str]:
    return [text for _, text in page.evaluate("() => window.spoken")]


def new_game_over_the_running_one(page, table, w: Words, variant: str) -> None:
    """The Game tab: 3 players named, dealer seat 1, `variant`; a game is running, so the page asks first."""
    page.get_by_role("tab", name=w("tab.setup")).click()
    page.get_by_label(w("setup.players")).select_option("3")
    for seat, name in enumerate(NAMES, 1):
        page.get_by_role("textbox", name=w("seat.name", n=seat), exact=True).fill(name)
    page.get_by_label(w("setup.dealer")).select_option("1")
    page.get_by_label(w("setup.variant")).select_option(variant)
    button(page, w("btn.new_game")).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(re.compile(re.escape(w("confirm.text", names="")[:12])))
    expect(dialog).to_contain_text(w("confirm.totals", totals="")[:5])
    button(page, w("confirm.yes")).click()   # a confirmation that says what it confirms
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("tab", name=w("tab.table"))).to_have_attribute("aria-selected", "true")


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_an_extreme_round_played_from_the_page_alone(table, phones, token, lang):
    w = Words(lang)
    card = lambda name: button(page, w.card("extreme", name))   # noqa: E731 - a card of the pad by its printed name
    page = phones(key=token, lang=lang, init=[SPEECH])
    answered(table, "names", "names")   # the seats unnamed: the page names them
    answered(table, "game new players=4 force", "game")
    answered(table, "round start first=5", "round")
    heading(page, w("turn.line", who=w("seat.name", n=2)))

    # cues are off until this phone turns them on: nothing said so far
    page.get_by_role("tab", name=w("tab.setup")).click()
    cues = page.get_by_label(w("cues.toggle"))
    expect(cues).not_to_be_checked()
    cues.check()
    assert spoken(page) == [w("cue.on")]
    page.reload()   # this phone remembers it (and the speech stub starts afresh)
    page.get_by_role("tab", name=w("tab.setup")).click()
    expect(page.get_by_label(w("cues.toggle"))).to_be_checked()

    new_game_over_the_running_one(page, table, w, "extreme")
    heading(page, w("turn.deal", who="Anna"))
    page.get_by_label(w("setup.first")).select_option("5")
    button(page, w("btn.start_round")).click()
    heading(page, w("turn.line", who="Bram"))
    shot(page, "turn", lang)

    card("hit2").click()
    heading(page, w("owed.line", who="Cor", n=2, reason=w("reason.hit2")))
    expect(button(page, "Cor (2×)")).to_have_attribute("aria-current", "true")   # the ring marks the presser
    shot(page, "owed", lang)
    button(page, w("btn.press")).click()
    heading(page, w("owed.line", who="Cor", n=1, reason=w("reason.hit2")))
    button(page, w("btn.press")).click()
    heading(page, w("turn.line", who="Anna"))
    assert spoken(page) == [w("cue.press_twice", who="Cor")]   # said once, not again for each press

    card("extreme-hit").click()
    expect(page.locator("#mode-text")).to_have_text(w("pad.target", card=w.card("extreme", "extreme-hit")))
    shot(page, "target", lang)
    button(page, "Bram").click()
    heading(page, w("owed.line_by", who="Bram", by="Anna", n=2, reason=w("reason.extreme-hit")))
    expect(button(page, "Anna")).to_have_attribute("aria-current", "true")   # Anna presses, the shooter aims at Bram

    for left in (1, None):
        button(page, w("btn.press")).click()
        heading(page, w("owed.line_by", who="Bram", by="Anna", n=left, reason=w("reason.extreme-hit")) if left
                else w("turn.line", who="Bram"))

    # Bram plays his last card: the hands, tapped in on the edition's cards, or their points typed
    page.get_by_label(w("pad.last")).check()
    card("number").click()
    heading(page, w("ev.round-over", who="Bram"))
    hand = page.get_by_role("group", name=w("hand.title", who="Anna"))
    for face in ("5", "5", "9", "1"):
        hand.get_by_role("button", name=face, exact=True).click()
    for name in ("skip", "reverse", "wild"):
        hand.get_by_role("button", name=w.card("extreme", name), exact=True).click()
    expect(page.locator("#hand-sum")).to_have_text(w("hand.sum", who="Anna", n=7, points=110))
    hand.get_by_role("button", name=w("hand.less", card="1", n=1)).click()   # one too many: taken off again
    hand.get_by_role("button", name="1", exact=True).click()
    shot(page, "hands", lang)
    button(page, f"{w('btn.report')}: Anna").click()
    expect(page.get_by_role("group", name=w("hand.title", who="Cor"))).to_be_visible()   # Cor's turn to report
    page.get_by_label(w("hand.direct")).fill("12")
    button(page, f"{w('btn.report')}: Cor").click()

    # the round's result stands on the table until the next round starts
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-title")).to_have_text(w("result.round", n=1, who="Bram"))
    expect(page.locator("#result-table tr.winner")).to_have_text(re.compile(r"^Bram\s*\+122\s*122$"))
    expect(button(page, w("btn.start_round"))).to_be_visible()
    shot(page, "result", lang)
    assert spoken(page)[-1] == w("cue.round", who="Bram")

    page.get_by_role("tab", name=w("tab.scores")).click()
    chart = page.get_by_role("img", name=re.compile(re.escape(w("chart.title"))))
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(3)
    expect(chart.locator("desc")).to_have_text(re.compile(re.escape(w("chart.line", who="Bram", totals="122"))))
    expect(page.locator("#score-table tr").last).to_have_text(re.compile(r"0\s*122\s*0$"))
    # two more rounds of the evening, from the table's console: the chart draws each total as it went
    for hand in ("9,skip", "hit4,hit2"):
        answered(table, "round start first=5", "round")
        answered(table, "play 5 last", "play")
        for seat in status_of(table)["game"]["waiting_for"]:
            answered(table, f"hand seat={seat} cards={hand}", "hand")
    rounds = status_of(table)["game"]["rounds"]
    running = {name: [sum(r["points"].get(str(seat), 0) for r in rounds[:i + 1]) for i in range(3)]
               for seat, name in enumerate(NAMES, 1)}
    expect(chart.locator("desc")).to_have_text("; ".join(
        w("chart.line", who=name, totals=", ".join(map(str, totals))) for name, totals in running.items()))
    expect(chart.locator("text", has_text=re.compile("^3$"))).to_have_count(1)   # the third round on its axis
    shot(page, "chart", lang)


def play_numbers_until_someone_is_out(page, w: Words) -> None:
    """Each player in turn plays a number card until one hand is empty (the shooter counts them)."""
    number = button(page, w.card("classic", "number"))
    while page.locator("#hands").is_hidden():
        before = page.evaluate("() => JSON.stringify(window.shooterPage.status.game.hands)")
        number.click()
        page.wait_for_function("(b) => JSON.stringify(window.shooterPage.status.game.hands) !== b || "
                               "window.shooterPage.status.game.phase !== 'play'", arg=before)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_classic_round_dealt_counted_and_scored_from_the_page_alone(table, phones, token, lang):
    w = Words(lang)
    page = phones(key=token, lang=lang, init=[SPEECH])
    answered(table, "game new players=3 force", "game")
    page.get_by_role("tab", name=w("tab.setup")).click()
    page.get_by_label(w("cues.toggle")).check()
    new_game_over_the_running_one(page, table, w, "classic")
    button(page, w("btn.deal")).click()
    expect(button(page, w("btn.first"))).to_be_visible(timeout=DEAL)
    page.get_by_label(w("setup.first")).select_option("5")
    button(page, w("btn.first")).click()
    heading(page, w("turn.line", who="Bram"))
    expect(button(page, w("btn.draw"))).to_have_count(0)   # one draw action: the shooter's press
    expect(page.locator("#cta")).to_have_text(w("cta.draw", who="Bram"))
    button(page, w("btn.give")).click()   # a house rule: five cards for Anna, from the page
    page.get_by_role("dialog").get_by_role("button", name="5", exact=True).click()
    button(page, f"Anna, {w('seat.hand', n=7)}").click()
    heading(page, w("owed.cards", who="Anna", n=5, reason=w("reason.give")))

    # the shot jams: a full-width alarm says what to do, Press says why it cannot act; the lid cycled clears it
    answered(table, "sim jam", "sim")
    button(page, w("btn.press")).click()
    expect(page.locator("#alarm")).to_have_text(f"{w('state.jammed')} {w('cta.jammed')}", timeout=DEAL)
    expect(button(page, w("btn.press"))).to_be_disabled()
    expect(page.locator("#cta")).to_have_text(w("cta.jammed"))
    shot(page, "jam", lang)
    table.send("sim lid open")
    table.send("sim lid close")
    expect(page.locator("#alarm")).to_be_hidden()
    assert w("cue.jammed") in spoken(page) and w("cue.lid-open") not in spoken(page)   # the lid opened as asked
    anna = button(page, f"Anna, {w('seat.hand', n=12)}")
    while not anna.is_visible():   # the cards the jam held back: a press shoots the rest of the entry
        expect(button(page, w("btn.press"))).to_be_enabled()
        button(page, w("btn.press")).click()
        expect(page.locator("#machine-state")).to_have_text(w("state.ready"), timeout=DEAL)
    heading(page, w("turn.line", who="Bram"))

    play_numbers_until_someone_is_out(page, w)
    heading(page, w("ev.round-over", who="Bram"))   # Bram played first: his seven went first
    assert w("cue.uno", who="Bram") in spoken(page)   # one card left: said aloud
    anna = page.get_by_role("group", name=w("hand.title", who="Anna"))
    expect(page.locator("#hand-sum")).to_have_text(w("hand.sum_none", who="Anna"))
    for _ in range(6):   # the shooter counted six left in Anna's hand (12 less the six she played): each tapped
        anna.get_by_role("button", name="7", exact=True).click()
    expect(page.locator("#hand-sum")).to_have_text(w("hand.sum_of", who="Anna", n=6, of=6, points=42))
    button(page, f"{w('btn.report')}: Anna").click()
    expect(page.get_by_role("group", name=w("hand.title", who="Cor"))).to_be_visible()
    page.get_by_label(w("hand.direct")).fill("30")
    button(page, f"{w('btn.report')}: Cor").click()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-title")).to_have_text(w("result.round", n=1, who="Bram"))
    expect(page.locator("#result-table tr.winner")).to_have_text(re.compile(r"^Bram\s*\+72\s*72$"))
    expect(button(page, w("btn.deal"))).to_be_visible()


def refuse_every_game_new(ws) -> None:
    """Between the page and the controller: each `game new` the page sends gets an option the controller refuses
    (bad-argument), every other line and answer as it is."""
    server = ws.connect_to_server()
    ws.on_message(lambda line: server.send(f"{line} bogus=1" if line.startswith("game new") else line))
    server.on_message(ws.send)


def status_of(table) -> dict:
    answered(table, "status")
    return next(o for _, o in reversed(table.out) if o.get("reply") == "status")


def test_a_cancelled_or_refused_new_game_changes_nothing_not_even_the_names(table, phones, token):
    page = phones(key=token,
                 before=lambda p: p.route_web_socket("**/ws", refuse_every_game_new))
    answered(table, "names seats=Anna,Bram,Cor", "names")
    answered(table, "game new players=3 force", "game")
    answered(table, "round start first=5", "round")
    heading(page, "Bram to play")
    page.get_by_role("tab", name="Game").click()
    expect(page.get_by_role("textbox", name="Seat 1", exact=True)).to_have_value("Anna")   # the table's names
    page.get_by_role("textbox", name="Seat 1", exact=True).fill("Zoë")
    button(page, "New game").click()
    expect(page.get_by_role("dialog")).to_contain_text("End the game of Anna, Bram, Cor?")
    expect(page.get_by_role("dialog")).to_contain_text("Totals: Anna 0, Bram 0, Cor 0")
    button(page, "Keep playing this game").click()   # cancelled: nothing sent
    names_events = sum(o.get("event") == "names" for _, o in table.out)
    assert status_of(table)["names"] == {"1": "Anna", "2": "Bram", "3": "Cor"}
    button(page, "New game").click()
    button(page, "End this game and start the new one").click()   # confirmed, but the controller refuses it
    expect(page.get_by_role("alert")).to_contain_text("bogus")   # its refusal, in words
    status = status_of(table)
    assert status["names"] == {"1": "Anna", "2": "Bram", "3": "Cor"}   # not Zoë: names follow an accepted game
    assert status["game"]["phase"] == "play" and status["game"]["round"] == 1
    assert sum(o.get("event") == "names" for _, o in table.out) == names_events
    expect(page.get_by_role("tab", name="Game")).to_have_attribute("aria-selected", "true")   # still the form


def test_the_controls_have_names_a_person_can_drive_the_page_by(table, phones, token):
    watcher = phones()
    expect(button(watcher, "Pair")).to_be_visible()
    page = phones(key=token)
    answered(table, "names seats=Anna,Bram", "names")
    answered(table, "game new players=3 edition=2016 force", "game")
    answered(table, "round start first=5", "round")
    heading(page, "Bram to play")
    expect(button(page, "Undo", exact=False)).to_have_text("Undo: the round start")   # and what it takes back
    for name in ("Press", "Uno", "Catch", "Penalty", "Number", "Skip", "Reverse", "Discard All", "Wild",
                 "Hit 2", "Extreme Hit", "More", "Anna", "Bram", "Seat 3"):
        expect(button(page, name)).to_have_count(1)
    expect(page.get_by_role("checkbox", name="Last card")).to_have_count(1)
    button(page, "More").click()
    for name in ("Hit 4", "Blank", "Back"):
        expect(button(page, name)).to_be_visible()
    button(page, "Back").click()
    button(page, "Penalty").click()
    for name in ("Advice penalty", "Wrong card", "Cancel"):
        expect(page.get_by_role("dialog").get_by_role("button", name=name, exact=True)).to_be_visible()
    button(page, "Cancel").click()
    page.get_by_role("tab", name="Game").click()
    expect(button(page, "New game")).to_have_count(1)
    button(page, "New game").click()
    expect(button(page, "End this game and start the new one")).to_be_visible()
    button(page, "Keep playing this game").click()


def test_a_lost_connection_says_so_over_the_board_and_comes_back_paired(table, phones, token):
    page = phones(key=token)
    answered(table, "game new players=3 force", "game")
    cut = {"on": True}
    page.route_web_socket("**/ws", lambda ws: ws.close() if cut["on"] else ws.connect_to_server())
    page.evaluate("() => window.shooterPage.ws.close()")
    expect(page.locator("#conn")).to_have_text("Connection lost, reconnecting…")
    expect(page.locator("body")).to_have_class(re.compile("offline"))
    expect(page.locator("#pairing")).to_be_hidden()   # still paired: not asked to pair again
    expect(page.locator("#app")).to_have_js_property("inert", True)   # the board out of reach while it is lost
    cut["on"] = False
    expect(page.locator("#conn")).to_be_hidden(timeout=10_000)
    expect(page.locator("#pairing")).to_be_hidden()
    expect(button(page, "Start round")).to_be_visible()


# ---- taps and scrolls ----

class Thumb:
    """Taps a phone's controls and counts them: a tap, and a scroll when the control was not on screen."""

    def __init__(self, page):
        self.page, self.taps, self.scrolls = page, 0, 0

    def tap(self, locator) -> None:
        box, size = locator.bounding_box(), self.page.viewport_size
        if box is None or box["y"] < 0 or box["y"] + box["height"] > size["height"]:
            self.scrolls += 1
        locator.click()
        self.taps += 1


AFTER = re.compile(r"^\| (?P<what>[^|]+?) \| [^|]+ \| (?P<taps>\d+) taps?, (?P<scrolls>no|\d+) scrolls? \|$", re.M)


def test_the_taps_and_scrolls_of_a_turn_an_extreme_hit_a_catch_and_a_hand_are_docs_figures(table, phones, token):
    page = phones(key=token)
    answered(table, "names seats=Anna,Bram,Cor,Dirk", "names")
    answered(table, "game new players=4 dealer=1 force", "game")
    answered(table, "round start first=5", "round")
    heading(page, "Bram to play")
    counted = {}

    def count(what, *steps):
        thumb = Thumb(page)
        for step in steps:
            step(thumb)
        counted[what] = (thumb.taps, thumb.scrolls)

    count("an ordinary turn", lambda th: th.tap(button(page, "Number")))
    heading(page, "Cor to play")
    count("an Extreme Hit", lambda th: th.tap(button(page, "Extreme Hit")), lambda th: th.tap(button(page, "Anna")))
    heading(page, "Cor presses 2× for Anna (Extreme Hit)")
    for left in ("1×", None):   # Cor's presses: the catch window of Cor's card stays open
        button(page, "Press").click()
        heading(page, f"Cor presses {left} for Anna (Extreme Hit)" if left else "Dirk to play")
    count("a catch", lambda th: th.tap(button(page, "Catch")), lambda th: th.tap(button(page, "Cor")))
    heading(page, "Cor presses 2× (no Uno called)")
    for left in ("1×", None):
        button(page, "Press").click()
        heading(page, f"Cor presses {left} (no Uno called)" if left else "Dirk to play")
    page.get_by_label("Last card").check()
    button(page, "Number").click()
    hand = page.get_by_role("group", name="Anna: cards left in hand")
    count("a 7-card hand", *[lambda th, c=c: th.tap(hand.get_by_role("button", name=c, exact=True))
                             for c in ("3", "3", "8", "Skip", "Hit 2", "Wild", "Extreme Hit")],
          lambda th: th.tap(button(page, "Report hand: Anna")))
    expect(page.get_by_role("group", name="Anna: cards left in hand")).to_have_count(0)
    print("\ntaps and scrolls at 390x844:", counted)
    doc = (ROOT / "docs" / "page.md").read_text(encoding="utf-8")
    figures = {m["what"]: (int(m["taps"]), 0 if m["scrolls"] == "no" else int(m["scrolls"]))
               for m in AFTER.finditer(doc)}
    assert figures == counted
    assert all(scrolls == 0 for _, scrolls in counted.values())


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_an_attack_round_played_from_the_page_alone(table, phones, token, lang):
    # Uno Attack (AT-*) from the form to the round's result: its pad in the page's language (the record's names),
    # a Wild All Hit (behind More: two copies), Trade Hands aimed at a seat to trade with, the last card
    w = Words(lang)
    card = lambda name: button(page, w.card("attack", name))   # noqa: E731 - a card of the pad by its printed name
    page = phones(key=token, lang=lang, init=[SPEECH])
    answered(table, "game new players=3 force", "game")
    new_game_over_the_running_one(page, table, w, "attack")
    assert status_of(table)["game"]["variant"] == "attack" and status_of(table)["game"]["edition"] == "1998"
    heading(page, w("turn.deal", who="Anna"))
    page.get_by_label(w("setup.first")).select_option("5")
    button(page, w("btn.start_round")).click()
    heading(page, w("turn.line", who="Bram"))
    for name in ("number", "hit2", "skip", "reverse", "discard-all", "trade-hands", "wild"):
        expect(card(name)).to_be_visible()   # the first page: the most copies

    button(page, w("pad.more")).click()
    card("wild-all-hit").click()   # Bram's: Cor, then Anna press once
    reason = w("reason.wild-all-hit")
    heading(page, w("owed.line_by", who="Cor", by="Bram", n=1, reason=reason))
    button(page, w("btn.press")).click()
    heading(page, w("owed.line_by", who="Anna", by="Bram", n=1, reason=reason))
    button(page, w("btn.press")).click()
    heading(page, w("turn.line", who="Cor"))   # the player's left plays: it pressed, its turn stands

    card("trade-hands").click()   # Cor trades with Anna: the page asks for a seat, not where the shooter turns
    expect(page.locator("#mode-text")).to_have_text(w("pad.pick", card=w.card("attack", "trade-hands")))
    page.keyboard.press("Escape")   # Escape closes the pick as Cancel does; nothing is sent
    expect(page.locator("#mode")).to_be_hidden()
    card("trade-hands").click()
    expect(page.locator("#mode-text")).to_have_text(w("pad.pick", card=w.card("attack", "trade-hands")))
    held = status_of(table)["game"]["hands"]   # AT-HANDS: each seat's count, shown at its seat
    button(page, f"Anna, {w('seat.hand', n=held['1'])}").click()
    heading(page, w("turn.line", who="Anna"))
    # the counts changed hands with the cards (Cor's less the Trade Hands it played)
    expect(button(page, f"Anna, {w('seat.hand', n=held['3'] - 1)}")).to_be_visible()
    expect(button(page, f"Cor, {w('seat.hand', n=held['1'])}")).to_be_visible()

    page.get_by_label(w("pad.last")).check()
    card("number").click()
    heading(page, w("ev.round-over", who="Anna"))
    for who, points in (("Bram", "20"), ("Cor", "30")):
        expect(page.get_by_role("group", name=w("hand.title", who=who))).to_be_visible()
        page.get_by_label(w("hand.direct")).fill(points)
        button(page, f"{w('btn.report')}: {who}").click()
    expect(page.locator("#result-title")).to_have_text(w("result.round", n=1, who="Anna"))
    expect(page.locator("#result-table tr.winner")).to_have_text(re.compile(r"^Anna\s*\+50\s*50$"))
    assert status_of(table)["game"]["totals"] == {"1": 50, "2": 0, "3": 0}


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_an_attack_discard_all_asks_how_many_more_cards_went_and_the_hand_count_follows(table, phones, token, lang):
    # AT-HANDS from the page: a Discard All asks how many more cards of its colour went with it (numbers up to
    # what the hand holds besides it), sends discarded=N, and the seat's count falls by N + 1; a refused count
    # leaves the numbers open to tap again
    w = Words(lang)
    page = phones(key=token, lang=lang)
    for line in ("names seats=Anna,Bram,Cor", "game new players=3 variant=attack force", "round start first=5"):
        answered(table, line)
    heading(page, w("turn.line", who="Bram"))
    held = status_of(table)["game"]["hands"]
    button(page, w.card("attack", "discard-all")).click()
    group = page.get_by_role("group", name=w("pad.discarded", card=w.card("attack", "discard-all")))
    expect(group).to_be_visible()
    expect(group.get_by_role("button")).to_have_count(min(held["2"] - 1, 9) + 1 + 1)  # 0..held-1, and Cancel
    for box in [b.bounding_box() for b in group.get_by_role("button").all()]:
        assert box["width"] >= 44 and box["height"] >= 44, box   # a thumb's target, each in the viewport
        assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    if lang == "en" and AXE is not None:   # axe-core, as tests/test_page_axe.py runs it on every view
        found = [f"{v['id']} ({v['impact']})" for v in AXE().run(page).response["violations"]]
        assert not found, found
    group.get_by_role("button", name="2", exact=True).click()
    heading(page, w("turn.line", who="Cor"))
    expect(group).to_be_hidden()
    assert status_of(table)["game"]["hands"]["2"] == held["2"] - 3

    button(page, w.card("attack", "discard-all")).click()   # Cor's: Cancel closes the numbers, nothing sent
    button(page, w("btn.cancel")).click()
    expect(group).to_be_hidden()
    button(page, w.card("attack", "discard-all")).click()   # Escape too
    page.keyboard.press("Escape")
    expect(group).to_be_hidden()
    button(page, w.card("attack", "discard-all")).click()
    answered(table, "set seat=3 hand=4")   # the count corrected under the open numbers: 6 more is now too many
    group.get_by_role("button", name="6", exact=True).click()
    expect(page.locator("#toast")).to_be_visible()
    expect(group).to_be_visible()          # refused: the numbers stay open
    assert status_of(table)["game"]["hands"]["3"] == 4
    group.get_by_role("button", name="1", exact=True).click()
    heading(page, w("turn.line", who="Anna"))
    assert status_of(table)["game"]["hands"]["3"] == 2


def test_an_extreme_discard_all_keeps_no_counts_and_plays_at_once(table, phones, token):
    # Uno Extreme's Discard All keeps no hand counts: the pad plays it at once, asking nothing
    w = Words("en")
    page = phones(key=token)
    for line in ("names seats=Anna,Bram,Cor", "game new players=3 variant=extreme force", "round start first=5"):
        answered(table, line)
    heading(page, w("turn.line", who="Bram"))
    button(page, w.card("extreme", "discard-all")).click()
    heading(page, w("turn.line", who="Cor"))
    expect(page.locator("#discard")).to_be_hidden()
    assert status_of(table)["game"]["hands"] is None
