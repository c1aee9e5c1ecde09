"""Whole games played by bots with real cards through the console protocol (sim/bots.py).

The bots fail loudly if any move they make is refused, or if a card is ever lost or doubled
(magazine + slot + hands + pile = the deck, checked after every line)."""

import json
import subprocess
import sys

import pytest

from shooter.bots.simulate import deck_counts, play_games
from shooter.editions.records import lookup
from sim import make_deck
from sim.bots import BotError


@pytest.mark.parametrize("players, scoring, edition", [
    (2, "winner", "2016"), (3, "lowest", "2016"), (4, "elimination", "2016"), (4, "winner", "2010"),
    (6, "winner", "2016"), (10, "lowest", "2010"), (5, "elimination", "2010"),
])
def test_bots_play_whole_games_to_a_winner_without_losing_a_card(players, scoring, edition):
    limit = 500 if scoring == "winner" else 250
    for result in play_games(2, players=players, scoring=scoring, edition=edition, limit=limit, seed=players):
        assert 1 <= result.winner <= players
        totals = result.totals.values()
        if scoring == "winner":
            assert max(totals) >= limit and result.totals[str(result.winner)] == max(totals)
        elif scoring == "lowest":
            assert max(totals) >= limit and result.totals[str(result.winner)] == min(totals)
        assert result.stats["cards shot"] > 0


def test_a_game_is_replayed_exactly_with_the_same_seed():
    assert play_games(1, seed=7) == play_games(1, seed=7)


def test_the_deck_has_the_editions_cards():
    new, old = lookup("extreme", "2016"), lookup("extreme", "2010")
    assert len(make_deck(deck_counts(new))) == len(make_deck(deck_counts(old))) == 112
    faces = [c.face for c in make_deck(deck_counts(lookup("extreme", "2010")))]
    assert "hit4" not in faces and "blank" not in faces and faces.count("reverse") == 8


def on_the_fifth_turn(mocker, tamper):
    """Bots whose fifth turn begins with ``tamper(bots, seat)``."""
    from sim.bots import BotTable
    original = BotTable._turn
    calls = []

    def turn(self, seat):
        calls.append(seat)
        if len(calls) == 5:
            tamper(self, seat)
        original(self, seat)
    mocker.patch.object(BotTable, "_turn", turn)


def test_a_lost_card_is_noticed(mocker):
    """The card check can fail: a card that vanishes from the magazine stops the game loudly."""
    on_the_fifth_turn(mocker, lambda bots, seat: bots.world.launcher.magazine.pop())
    with pytest.raises(BotError, match="cards lost"):
        play_games(1, seed=3)


def test_a_card_in_two_places_is_noticed_even_when_the_count_is_right(mocker):
    """The card check compares the cards, not only their number: a card that vanishes from the magazine
    while another card shows up twice (in a hand and on the pile) stops the game loudly."""
    def double_a_card(bots, seat):
        bots.world.launcher.magazine.pop()
        bots.hands[seat].append(bots.pile[-1])
    on_the_fifth_turn(mocker, double_a_card)
    with pytest.raises(BotError, match="cards lost or doubled"):
        play_games(1, seed=3)


@pytest.mark.parametrize("options", [
    {"players": 2, "wrong_card": 0.2, "jam": 0.1, "forget_uno": 0.8, "catch": 1.0},
    {"players": 5, "scoring": "elimination", "limit": 200},
    {"players": 3, "edition": "2010", "wrong_card": 0.3},
])
def test_the_bots_follow_a_round_by_its_events_as_the_status_gives_it(mocker, options):
    """The bots ask for no status during a round: what the table's events told them (whose move, presses owed,
    the round's end) is, before every move, what the whole status says."""
    from sim.bots import BotTable
    original = BotTable._follow
    looks = []

    def follow(self):
        original(self)
        game = self._send("status")["game"]   # (not a line of the bots': nothing changes, no time passes)
        looks.append(game["phase"])
        if game["phase"] == "deal":   # the look before a round starts: the round before is over, nothing to follow
            return
        if self.round_over:
            assert game["phase"] == "scoring", game
        else:
            assert game["phase"] == "play" and bool(game["owed"]) == self.owing, (game, self.owing)
            assert self.owing or game["current"] == self.turn, (game, self.turn)
    mocker.patch.object(BotTable, "_follow", follow)
    results = play_games(2, seed=11, **options)
    assert looks.count("scoring") >= sum(r.rounds for r in results) - len(results)   # every round's end seen
    assert sum(r.stats["owed presses"] for r in results) > 0 and looks.count("play") > 100


def test_simulate_json_prints_one_json_line_per_game():
    out = subprocess.run([sys.executable, "-m", "shooter", "simulate", "--games", "2", "--players", "3", "--json"],
                         capture_output=True, timeout=60)
    assert out.returncode == 0
    games = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert [g["seed"] for g in games] == [1, 2] and all(g["winner"] for g in games)
