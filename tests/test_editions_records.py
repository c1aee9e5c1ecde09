"""The edition records (shooter/editions) as the one source: docs/rules.md's card tables checked against them,
no edition named anywhere else, every edition scored in every scoring it allows, and every rule option run
against every edition that has it.

Tables: ``tests.test_editions_engine.table`` deals a counting game (four seats, seat 1 deals, a ``5`` turned
up where the edition turns one up: seat 2 plays first); an Extreme table starts its round with a ``5``.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from shooter.editions import COUNTING, EXTREME, lookup, records
from shooter.editions.records import NUMBER, Edition, Effect
from shooter.errors import CommandError
from shooter.table import RuleOptions, Table
from shooter.table.cards import CARDS
from tests.test_editions_engine import deal, press, refused, table as counting_table

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text()
BUILT_IN = [r for r in records() if r.variant in ("extreme", "classic", "all-wild", "flip")]


# --- docs/rules.md's card tables --------------------------------------------------------------------

def rows(header: str) -> dict[str, dict[str, str]]:
    """The rows (by id) of the markdown table whose header line is `header`."""
    start = RULES.index(header + "\n")
    lines = RULES[start:].splitlines()
    names = [c.strip() for c in lines[0].strip("|").split("|")]
    out = {}
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        out[cells[0]] = dict(zip(names, cells, strict=True))
    return out


def points_of(cell: str) -> int | None:
    return None if cell.startswith("face") else int(cell)


def by_rule(record: Edition) -> dict[str, list[tuple[str | None, object]]]:
    """rule id -> [(side, card)] of the record."""
    out: dict[str, list] = {}
    for side in record.sides:
        for card in side.cards.values():
            out.setdefault(card.rule, []).append((side.name, card))
    return out


def matched(header: str, record: Edition) -> list[tuple[str, dict[str, str], list]]:
    """(id, the docs' row, the record's [(side, card)]) for every row of the table, which names exactly the
    record's rule ids."""
    table, cards = rows(header), by_rule(record)
    assert set(table) == set(cards), record.key
    return [(rid, row, cards[rid]) for rid, row in table.items()]


def test_the_extreme_card_table_in_the_docs_is_the_records():
    for edition in ("2016", "2010"):
        record = lookup("extreme", edition)
        for rid, row, ((_, card),) in matched("| id | card | 2016 | 2010 | effect | points |", record):
            assert (card.count, card.points) == (int(row[edition]), points_of(row["points"])), (edition, rid)
        assert sum(c.count or 0 for c in record.side().cards.values()) == record.deck_size == 112
        assert sum(record.side().digits.values()) == record.card(NUMBER).count


def test_the_classic_card_table_in_the_docs_is_the_records():
    record = lookup("classic")
    for rid, row, ((_, card),) in matched("| id | card | count | effect | points |", record):
        assert points_of(row["points"]) == card.points, rid
        if card.name == NUMBER:
            assert row["count"] == "4 zeros, 8 per digit" and dict(record.side().digits) == {0: 4, **{
                d: 8 for d in range(1, 10)}}
            assert card.count == sum(record.side().digits.values())
        else:
            assert int(row["count"]) == card.count, rid
    assert sum(c.count or 0 for c in record.side().cards.values()) == record.deck_size


def test_the_all_wild_card_table_in_the_docs_is_the_records():
    record = lookup("all-wild")
    for _rid, row, ((_, card),) in matched("| id | card | effect | points |", record):
        assert (row["card"].strip("`"), points_of(row["points"]), card.count) == (card.name, card.points, None)
    assert record.deck_points() == record.deck_size * 50  # AW-SCORE: 50 a card at the most


def test_the_flip_card_table_in_the_docs_is_the_records():
    record = lookup("flip")
    for rid, row, held in matched("| id | card | side | count | effect | points |", record):
        assert {side for side, _ in held} == ({"light", "dark"} if row["side"] == "both" else {row["side"]}), rid
        for _, card in held:
            assert (int(row["count"]), points_of(row["points"])) == (card.count, card.points), rid
    for side in record.sides:
        assert sum(c.count or 0 for c in side.cards.values()) == record.deck_size, side.name


def test_card_count_refuses_an_edition_no_record_holds():
    # no fallback to another edition's counts (the 2010 counts are a record of their own)
    assert CARDS["reverse"].count("2016") == 4 and CARDS["reverse"].count("2010") == 8
    with pytest.raises(KeyError, match="2020"):
        CARDS["reverse"].count("2020")


# --- no edition named outside the registry ----------------------------------------------------------

LITERAL = re.compile(r"""(["'])(extreme|classic|all-wild|flip|2016|2010)\1|VARIANTS\[\d*:|variant\s*[!=]=""")


def test_no_module_outside_the_registry_names_an_edition_or_a_variant():
    # the registry (shooter/editions) is the one place; the table, the page, the simulator and its bots read it
    sources = [p for d in ("shooter", "sim") for p in (ROOT / d).rglob("*.py") if "editions" not in p.parts]
    sources += sorted((ROOT / "shooter" / "web" / "static").glob("*.js"))   # the page's scripts, every one
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in sources
             for n, line in enumerate(path.read_text().splitlines(), 1) if LITERAL.search(line)]
    assert found == []


def test_the_grep_finds_what_it_looks_for():
    assert LITERAL.search('if variant != "flip":') and LITERAL.search("for v in VARIANTS[1:]:")
    assert LITERAL.search("edition == '2016'") and not LITERAL.search('"flip-light"')


# --- every edition scored in every scoring it allows --------------------------------------------------

def plain_card(record: Edition) -> str:
    """A card of the first side that only passes the turn: a number, else a plain wild."""
    return "5" if record.side().digits else next(n for n, c in record.side().cards.items() if c.effect == "plain")


def round_to_scoring(record: Edition, scoring: str, winner: int = 2, players: int = 3) -> Table:
    """A game of `record` and `scoring` (seat 1 dealt) whose round is over: `winner` went out."""
    if record.counting:
        t = counting_table(record.variant, players=players, scoring=scoring, limit=10_000)
        t.set(current=winner, seat=winner, hand=1)
    else:
        t = Table()
        t.new_game(players, dealer=1, edition=record.edition, scoring=scoring, limit=10_000)
        t.start_round("5")
        t.set(current=winner)
    t.play(plain_card(record), last=True)
    assert t.phase == "scoring" and t.game.round_winner == winner, record.key
    return t


CASES = [(r, s) for r in BUILT_IN for s in r.scorings]
# The most points one hand can hold: a whole deck (side), from docs/rules.md's tables (numbers: 8 of each 1..9 =
# 360; classic's zeros add nothing), All Wild: 112 cards at 50 at the most (AW-SCORE).
MOST = {
    "extreme-2016": 360 + 8 * 20 + 4 * 20 + 8 * 20 + 8 * 30 + 4 * 50 + 4 * 50 + 1 * 40 + 3 * 50,  # 1590
    "extreme-2010": 360 + 8 * 20 + 8 * 20 + 8 * 20 + 8 * 30 + 4 * 50 + 4 * 50,  # 1480
    "classic": 360 + 8 * 20 * 3 + 4 * 50 + 4 * 50 + 1 * 50 + 3 * 50,  # 1440
    "all-wild": 112 * 50,
    "flip": 360 + 8 * 20 + 8 * 20 + 4 * 40 + 8 * 20 + 8 * 30 + 4 * 60,  # the dark side: 1480
}


@pytest.mark.parametrize(("record", "scoring"), CASES, ids=[f"{r.key}-{s}" for r, s in CASES])
def test_every_edition_scores_in_every_scoring_it_allows(record, scoring):
    t = round_to_scoring(record, scoring)
    most = MOST[record.key]
    assert record.deck_points() == most
    # score: 0 up to the most a hand of this deck holds (Edition.deck_points, the bound Table.score
    # checks in every family), not one more
    refused(lambda: t.score(1, most + 1), "bad-argument")
    hand = [f"{d}" for d in sorted(record.side(t.game.side).digits)[:2]] or ["skip"]
    t.hand(1, hand)
    events = t.score(3, most)
    scored = next(e for e in events if e["event"] == "round-scored")
    own = sum(int(c) if c.isdigit() else record.card(c, t.game.side).points for c in hand)
    assert scored["points"] == own + most
    totals = {int(s): p for s, p in scored["totals"].items()}
    if scoring == "winner":
        assert totals == {1: 0, 2: own + most, 3: 0}
    else:  # lowest, elimination: everyone adds their own hand
        assert totals == {1: own, 2: 0, 3: most}
    assert t.game.rounds[-1]["points"] == {"1": totals[1], "2": totals[2], "3": totals[3]}


@pytest.mark.parametrize("record", BUILT_IN, ids=[r.key for r in BUILT_IN])
def test_every_edition_refuses_the_scorings_it_does_not_allow(record):
    t = Table()
    for scoring in ("winner", "lowest", "elimination"):
        def new(scoring=scoring):
            return t.new_game(3, variant=record.variant, edition=record.edition, scoring=scoring)
        if scoring in record.scorings:
            new()
        else:
            refused(new, "bad-argument")


# --- every rule option against every edition that has it ----------------------------------------------

COUNTING_EDITIONS = [r for r in BUILT_IN if r.family == COUNTING]
EXTREME_EDITIONS = [r for r in BUILT_IN if r.family == EXTREME]


def last_draw_card(record: Edition) -> str:
    """A draw card of the edition's first side that hits the next seat."""
    return next(n for n, c in record.side().cards.items() if c.cards and c.effect in (Effect.DRAW, Effect.WILD_DRAW))


@pytest.mark.parametrize("counts", [True, False])
@pytest.mark.parametrize("record", COUNTING_EDITIONS, ids=[r.key for r in COUNTING_EDITIONS])
def test_last_hit_counts_in_every_counting_edition(record, counts):
    # D-LAST: a last draw card is still served unless last_hit_counts = false: then the round ends at once
    t = counting_table(record.variant, options={"last_hit_counts": counts})
    card = last_draw_card(record)
    t.set(seat=2, hand=1)
    t.play(card, last=True)
    if counts:
        assert t.phase == "play" and t.game.head.seat == 3 and t.game.head.reason == card
        while t.game.queue:
            press(t)
        assert t.game.hands[3] == 7 + record.card(card).cards
    else:
        assert not t.game.queue and t.game.hands[3] == 7
    assert t.phase == "scoring" and t.game.round_winner == 2


@pytest.mark.parametrize("counts", [True, False])
@pytest.mark.parametrize("record", EXTREME_EDITIONS, ids=[r.key for r in EXTREME_EDITIONS])
def test_last_hit_counts_in_every_extreme_edition(record, counts):
    t = Table(options=RuleOptions(last_hit_counts=counts))
    t.new_game(3, dealer=1, edition=record.edition)
    t.start_round("5")
    t.play("hit2", last=True)
    assert (t.phase, bool(t.game.queue)) == (("play", True) if counts else ("scoring", False))


@pytest.mark.parametrize("rule", ["skip", "reverse"])
@pytest.mark.parametrize("record", COUNTING_EDITIONS, ids=[r.key for r in COUNTING_EDITIONS])
def test_two_player_reverse_in_every_counting_edition(record, rule):
    # CL-2P, AW-2P, FL-2P: with two players a Reverse acts as a Skip (the card's player again), or passes on
    assert any(c.effect == Effect.REVERSE for c in record.side().cards.values())
    t = counting_table(record.variant, players=2, options={"two_player_reverse": rule})
    player = t.game.current
    t.play("reverse")
    assert t.game.current == (player if rule == "skip" else t.game.next_seat(player))


@pytest.mark.parametrize("penalty", [2, 3, 4])
@pytest.mark.parametrize("record", COUNTING_EDITIONS, ids=[r.key for r in COUNTING_EDITIONS])
def test_uno_penalty_in_every_counting_edition(record, penalty):
    t = counting_table(record.variant, options={"uno_penalty": penalty})
    t.set(seat=2, hand=2)
    t.play(plain_card(record))
    t.catch(2)
    head = t.game.head
    assert (head.seat, head.reason, head.cards) == (2, "uno", penalty)


@pytest.mark.parametrize("queue", ["front", "back"])
@pytest.mark.parametrize("record", COUNTING_EDITIONS, ids=[r.key for r in COUNTING_EDITIONS])
def test_penalty_queue_in_every_counting_edition(record, queue):
    # a give (queued like a penalty) goes ahead of a draw card's entry that is not being shot, or behind it
    t = counting_table(record.variant, options={"penalty_queue": queue})
    t.play(last_draw_card(record))
    t.give(4, 2)
    order = [(o.seat, o.reason) for o in t.game.queue]
    assert order[0 if queue == "front" else 1] == (4, "give")


@pytest.mark.parametrize("rotation", ["clockwise", "winner"])
@pytest.mark.parametrize("record", BUILT_IN, ids=[r.key for r in BUILT_IN])
def test_dealer_rotation_in_every_edition(record, rotation):
    t = round_to_scoring(record, "winner", winner=3)
    t.options = RuleOptions(dealer_rotation=rotation)  # (read when the next dealer is chosen)
    t.hand(1, [])
    t.hand(2, [])
    assert t.phase == "deal" and t.game.round == 2
    assert t.game.dealer == (3 if rotation == "winner" else 2)


@pytest.mark.parametrize("record", [r for r in BUILT_IN if r.start_rules], ids=lambda r: r.key)
def test_the_first_card_rule_in_every_edition_that_has_one(record):
    for rule in record.start_rules:
        t = Table(options=RuleOptions(classic_first_card=rule))
        t.new_game(4, dealer=1, variant=record.variant)
        assert t.game.start == rule
        t.start_round()
        deal(t)
        skip = next(n for n, c in record.side().cards.items() if c.effect == Effect.SKIP)
        t.first_card(skip)
        assert t.phase == ("first" if rule == "redraw" else "play"), rule


def test_an_edition_without_start_rules_refuses_start():
    for record in BUILT_IN:
        if not record.start_rules:
            with pytest.raises(CommandError, match="start= goes only with"):
                Table().new_game(3, variant=record.variant, edition=record.edition, start="apply")

