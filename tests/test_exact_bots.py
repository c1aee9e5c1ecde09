"""Bots playing whole games of the exact variants with real cards (sim/exact_bots.py, shooter/bots/simulate_exact.py).

The bots fail loudly if a move they make is refused, if a card is lost or doubled (magazine + slot + hands +
pile + laid aside = the deck) or if the controller's hand counts differ from the real hands, after every line.
"""

import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import pytest

from shooter.bots.simulate import play_games
from shooter.bots.simulate_exact import card_points, real_deck
from shooter.table.editions import CLASSIC
from sim.bots import BotError
from sim.cards import FlipCard


@pytest.mark.parametrize("variant, players, scoring", [
    ("classic", 3, "winner"), ("classic", 5, "lowest"), ("all-wild", 4, "winner"), ("all-wild", 6, "winner"),
    ("flip", 3, "lowest"), ("flip", 6, "winner"), ("classic", 2, "winner"), ("flip", 2, "winner"),
])
def test_bots_play_whole_exact_games_without_losing_a_card_or_a_count(variant, players, scoring):
    for result in play_games(2, players=players, scoring=scoring, limit=300, seed=players, variant=variant):
        assert 1 <= result.winner <= players and result.stats["cards shot"] >= 7 * players
        assert max(result.totals.values()) >= 300


def test_the_classic_deck_has_its_112_cards():
    faces = Counter(c.face for c in real_deck("classic", random.Random(1)))
    values = Counter(c.value for c in real_deck("classic", random.Random(1)) if c.face == "number")
    assert sum(faces.values()) == 112 and faces["wild-shuffle"] == 1 and values[0] == 4 and values[9] == 8


def test_the_flip_deck_is_two_sided_with_each_sides_cards():
    cards = real_deck("flip", random.Random(1))
    assert len(cards) == 112 and all(isinstance(c, FlipCard) for c in cards)
    assert Counter(c.dark.face for c in cards)["wild-draw-colour"] == 4
    assert Counter(c.light.face for c in cards)["draw-one"] == 8



def test_a_card_table_row_without_points_is_refused_not_scored_as_none():
    assert card_points("classic", "7", "light") == 7 and card_points("classic", "draw-two", "light") == 20
    with pytest.raises(ValueError, match="no points for 'number'"):
        card_points("classic", "number", "light")


def test_a_card_table_without_a_count_is_refused_before_a_deck_is_built():
    from shooter.editions import Side, lookup, register, unregister
    classic = lookup("classic")
    cards = tuple(replace(c, count=None) if c.name == "reverse" else c for c in CLASSIC.values())
    uncounted = register(replace(classic, variant="classic-uncounted",
                                 sides=(Side.of(None, cards, classic.side().digits, classic.side().pad),)))
    try:
        with pytest.raises(ValueError, match="no count for reverse"):
            real_deck("classic-uncounted", random.Random(1))
    finally:
        unregister(uncounted)

def test_a_lost_card_is_caught_by_the_bots(monkeypatch):
    import sim.exact_bots as bots
    real_collect = bots.ExactBotTable._collect_shots

    def lose_one(self):
        real_collect(self)
        if self.pile and self.lines == 20:
            self.pile.pop()
    monkeypatch.setattr(bots.ExactBotTable, "_collect_shots", lose_one)
    with pytest.raises(BotError, match="lost or doubled"):
        play_games(1, players=3, variant="classic")


def test_a_wrong_hand_count_is_caught_by_the_bots(monkeypatch):
    import sim.exact_bots as bots
    real_collect = bots.ExactBotTable._collect_shots

    def move_one(self):
        real_collect(self)
        if self.lines == 20 and self.hands[1]:
            self.hands[2].append(self.hands[1].pop())
    monkeypatch.setattr(bots.ExactBotTable, "_collect_shots", move_one)
    with pytest.raises(BotError, match="hand counts differ"):
        play_games(1, players=3, variant="classic")


def test_simulate_passes_the_variant_through():
    out = subprocess.run([sys.executable, "-m", "shooter", "simulate", "--games", "1", "--players", "3",
                          "--variant", "flip", "--limit", "200", "--json"], capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.decode().splitlines()[0])
    assert result["stats"]["cards shot"] > 21


def exact_game(shots, rounds=1, lines=10, **stats):
    from shooter.bots.simulate_exact import ExactGameResult
    return ExactGameResult(seed=1, winner=1, totals={"1": 0}, rounds=rounds, lines=lines, virtual_seconds=0.0,
                           stats=stats, variant="classic", shots=shots)


def test_the_exact_summary_counts_cards_and_shots_by_reason_not_by_profile():
    from shooter.bots.summary import ExactSummary, summarise, text
    from shooter.scheduler import PROFILES
    games = [exact_game([("deal", 7, 7, None), ("deal", 7, 7, None), ("first", 1, 1, None),
                         ("draw-two", 2, 1, "jam"), ("draw-two", 1, 1, None), ("draw", 1, 1, None)],
                        lines=12, draws=1, plays=3),
             exact_game([("deal", 7, 7, None), ("wild-draw-four", 4, 4, None)], lines=5, plays=1, surplus=0)]
    s = summarise(games, PROFILES["original"])
    assert isinstance(s, ExactSummary)
    assert (s.cards["deal"], s.cards["draw-two"], s.shots["draw-two"], s.cards_shot) == (21, 2, 2, 29)
    assert s.short == Counter({"jam": 1}) and s.lines == 17 and s.moves["plays"] == 4
    assert s.cards_per_play_shot == (2 + 1 + 4) / 4
    out = text(s)
    assert out.startswith("variant classic: 2 games, 2 rounds")
    assert "cards shot     29 (dealt 21, first cards 1, in play 7)" in out
    assert "short shots    1 (jam 1)" in out
    assert "    draw-two                2       2   1.00 | " in out
    assert "checked after each of 17 lines" in out and "presses" not in out


def test_the_json_line_of_an_exact_game_is_the_extreme_one():
    from dataclasses import fields

    from shooter.bots.simulate import GameResult
    keys = {f.name for f in fields(GameResult)} - {"planned", "ejected", "vision", "error"}   # (--vision only)
    assert set(exact_game([("deal", 7, 7, None)]).json()) == keys


def test_simulate_summarises_an_exact_variant_by_its_counted_shots():
    from shooter.bots.summary import summarise
    from shooter.scheduler import PROFILES
    games = play_games(2, players=3, limit=200, seed=5, variant="flip")
    s = summarise(games, PROFILES["original"])
    assert s.cards_shot == sum(g.stats["cards shot"] for g in games)  # every counted card, once
    assert s.cards["deal"] == 7 * 3 * sum(g.rounds for g in games)   # jammed deal shots are finished later
    assert s.shots["first"] >= sum(g.rounds for g in games) and s.cards["draw"] == s.moves["draws"]
    out = subprocess.run([sys.executable, "-m", "shooter", "simulate", "--games", "1", "--players", "3",
                          "--variant", "classic", "--limit", "200"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("variant classic: 1 games") and "0 presses" not in out.stdout
