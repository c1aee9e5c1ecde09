"""Bots playing whole games of the exact variants with real cards (sim/exact_bots.py, shooter/simulate_exact.py).

The bots fail loudly if a move they make is refused, if a card is lost or doubled (magazine + slot + hands +
pile + laid aside = the deck) or if the controller's hand counts differ from the real hands, after every line.
"""

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from shooter.simulate import play_games
from shooter.simulate_exact import real_deck
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
