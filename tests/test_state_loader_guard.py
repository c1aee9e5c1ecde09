"""The saved game's loader (shooter/table/loader.py ``_Loader``), field by field: each bad field of a saved
game is refused in one sentence naming the field and what it must be (the controller sets the file aside with
that line), and good saved games, edge values included, are taken in as written. Written for the survivors of
the mutation run over the loader (docs/mutation.md)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from shooter.errors import StateFileError
from shooter.table import Table
from shooter.table.loader import load_snapshot
from shooter.table.state import EXACT_CARDS, EXACT_REASONS, snapshot
from tests.test_table_state import DELETE, busy_table, exact_snapshot_with_a_challenge, scored_table, set_at

LAST_PLAY = object()  # an edit that puts a real last play (of another game) there

Edits = list[tuple[tuple[Any, ...], Any]]


def rows(*rounds: tuple[int, int, int]) -> list[dict[str, Any]]:
    """Score sheet rows (round, winner, the winner's points)."""
    return [{"round": r, "winner": w, "points": {str(w): p}} for r, w, p in rounds]


def _new(players: int = 3, **kw: Any) -> Table:
    t = Table(rng=random.Random(9))
    t.new_game(players, **kw)
    return t


def saved_games() -> dict[str, dict[str, Any]]:
    """Saved games in each phase and family, by name."""
    games = {}
    t = scored_table()
    games["scoring"] = snapshot(t.game, t.phase)    # seat 2 went out, seat 1 reported
    t.score(3, 10)
    games["over"] = snapshot(t.game, t.phase)       # won by seat 2, one row on the score sheet
    t = _new(scoring="elimination", limit=50)
    t.start_round("5")
    t.play("5", last=True)
    t.score(1, 60)
    t.score(3, 10)
    games["between"] = snapshot(t.game, t.phase)    # round 2 to deal, seat 1 out
    t.start_round("5")
    games["between-play"] = snapshot(t.game, t.phase)
    t = busy_table()
    games["busy"] = snapshot(t.game, t.phase)       # 5 seats, owed presses, an Uno window
    t = _new()
    t.start_round("5")
    t.play("7")
    games["last"] = snapshot(t.game, t.phase)       # a last play a wrong-card penalty can take back
    games["classic"] = exact_snapshot_with_a_challenge()
    t = _new(variant="attack")
    t.start_round("5")
    games["attack"] = snapshot(t.game, t.phase)     # AT-HANDS: an Extreme-family game that counts the hands
    return games


GAMES = saved_games()


def edited(maker: str, edits: Edits) -> dict[str, Any]:
    data = copy.deepcopy(GAMES[maker])
    for path, value in edits:
        set_at(data, path, copy.deepcopy(GAMES["last"]["extreme"]["last_play"]) if value is LAST_PLAY else value)
    return data


REFUSED = [
    ('variant-unknown', 'over', [(('variant',), 'spin')],
     "Saved table state: game.variant must be one of extreme, classic, all-wild, flip, attack, not 'spin'."),
    ('a-field-missing', 'over', [(('limit',), DELETE)],
     'Saved table state: game.limit is missing.'),
    ('a-field-unknown', 'over', [(('colour',), 'red')],
     "Saved table state: game.colour is not a field of the state of a game of variant extreme."),
    ('family-part-not-an-object', 'over', [(('extreme',), [])],
     'Saved table state: game.extreme must be an object with edition, hands, last_play.'),
    ('family-part-a-field-short', 'classic', [(('counting', 'deck'), DELETE)],
     'Saved table state: game.counting must be an object with challenge, deck, drawn, hands, side, start, '
     'uno_penalty, uno_windows.'),
    ('points-not-whole', 'over', [(('totals', '2'), 70.5)],
     'Saved table state: game.totals.2 must be whole points from 0 to 10000000.'),
    ('totals-seat-missing', 'over', [(('totals', '3'), DELETE)],
     'Saved table state: game.totals must map the seats 1..3 (as strings) to points.'),
    ('rounds-not-a-list', 'over', [(('rounds',), {})],
     'Saved table state: game.rounds must be a list of at most 1 rows (one per round so far).'),
    ('rounds-too-many', 'over', [(('rounds',), rows((1, 2, 0), (1, 2, 0)))],
     'Saved table state: game.rounds must be a list of at most 1 rows (one per round so far).'),
    ('row-not-an-object', 'over', [(('rounds', 0), [1])],
     'Saved table state: game.rounds[0] must be an object with points, round, winner.'),
    ('row-out-outside-elimination', 'over', [(('rounds', 0, 'out'), [])],
     'Saved table state: game.rounds[0] must be an object with points, round, winner.'),
    ('row-of-an-unsettled-round', 'between', [(('rounds', 0, 'round'), 2)],
     'Saved table state: game.rounds[0].round must be a settled round (round 2 is not settled yet).'),
    ('rows-out-of-order', 'over', [(('round',), 3), (('rounds',), rows((2, 2, 0), (1, 2, 0)))],
     'Saved table state: game.rounds[1].round must come after round 2 (the rows are in order).'),
    ('rows-the-same-round', 'over', [(('round',), 3), (('rounds',), rows((2, 2, 0), (2, 2, 0)))],
     'Saved table state: game.rounds[1].round must come after round 2 (the rows are in order).'),
    ('row-winner-without-points', 'over', [(('rounds', 0, 'points'), {'1': 0})],
     'Saved table state: game.rounds[0].winner must be one of the seats in points.'),
    ('row-winner-not-a-seat', 'over', [(('rounds', 0, 'winner'), 4)],
     'Saved table state: game.rounds[0].winner must be a whole number from 1 to 3, not 4.'),
    ('row-points-beyond-the-seats', 'over', [(('rounds', 0, 'points', '4'), 0)],
     'Saved table state: game.rounds[0].points must map the seats 1..3 (as strings) to points.'),
    ('row-out-not-distinct', 'between', [(('rounds', 0, 'out'), [1, 1])],
     'Saved table state: game.rounds[0].out must list distinct seats of 1..3, leaving at least one in the game.'),
    ('row-of-an-elimination-game-without-out', 'between', [(('rounds', 0, 'out'), DELETE)],
     'Saved table state: game.rounds[0] must be an object with out, points, round, winner.'),
    ('queue-not-a-list', 'busy', [(('queue',), {})],
     'Saved table state: game.queue must be a list.'),
    ('queue-entry-not-an-object', 'busy', [(('queue', 0), 1)],
     'Saved table state: game.queue[0] must be an object with by, presses, reason, seat.'),
    ('queue-entry-a-counting-field', 'busy', [(('queue', 0, 'cards'), 2)],
     'Saved table state: game.queue[0] must be an object with by, presses, reason, seat.'),
    ('queue-entry-presses-too-many', 'classic', [(('queue', 0, 'presses'), 2)],
     'Saved table state: game.queue[0].presses must be a whole number from 1 to 1, not 2.'),
    ('queue-entry-an-extreme-reason', 'classic', [(('queue', 0, 'reason'), 'hit2')],
     f"Saved table state: game.queue[0].reason must be one of {', '.join((*EXACT_REASONS, *EXACT_CARDS))}, "
     "not 'hit2'."),
    ('queue-entry-served-beyond', 'classic', [(('queue', 0, 'served'), -1)],
     'Saved table state: game.queue[0].served must be a whole number from 0 to 500, not -1.'),
    ('queue-entry-an-out-seat', 'between-play', [(('queue',), [{'seat': 1, 'presses': 1, 'reason': 'hit2', 'by': 2}])],
     'Saved table state: game.queue names a seat that is out of the game.'),
    ('out-not-a-list', 'between', [(('out',), 1)],
     'Saved table state: game.out must list distinct seats of 1..3, leaving at least one in the game.'),
    ('out-everyone', 'between', [(('out',), [1, 2, 3])],
     'Saved table state: game.out must list distinct seats of 1..3, leaving at least one in the game.'),
    ('out-outside-elimination', 'over', [(('out',), [1])],
     'Saved table state: game.out must be empty unless scoring is elimination.'),
    ('out-current', 'between-play', [(('current',), 1)],
     'Saved table state: game.current is a seat that is out of the game.'),
    ('uno-window-not-an-object', 'busy', [(('uno_window',), [])],
     'Saved table state: game.uno_window must be null or an object with seat and called (true/false).'),
    ('uno-window-called-not-a-bool', 'busy', [(('uno_window', 'called'), 0)],
     'Saved table state: game.uno_window must be null or an object with seat and called (true/false).'),
    ('uno-window-seat', 'busy', [(('uno_window', 'seat'), 6)],
     'Saved table state: game.uno_window.seat must be a whole number from 1 to 5, not 6.'),
    ('reports-of-the-winner', 'scoring', [(('reports', '2'), 5)],
     'Saved table state: game.reports names a seat that does not report this round.'),
    ('reports-in-play', 'busy', [(('reports',), {'1': 5})],
     'Saved table state: game.reports does not fit phase play.'),
    ('winner-in-play', 'busy', [(('winner',), 2)],
     'Saved table state: game.winner does not fit phase play.'),
    ('uno-ahead-in-deal', 'between', [(('uno_ahead',), 2)],
     'Saved table state: game.uno_ahead does not fit phase deal.'),
    ('last-play-not-an-object', 'last', [(('extreme', 'last_play'), [])],
     'Saved table state: game.extreme.last_play must be null or an object with seat and before (one level only).'),
    ('last-play-seat-other', 'last', [(('extreme', 'last_play', 'seat'), 3)],
     'Saved table state: game.extreme.last_play does not match the state before that play.'),
    ('last-play-nested', 'last', [(('extreme', 'last_play', 'before', 'extreme', 'last_play'),
                                   {'seat': 1, 'before': {}})],
     'Saved table state: game.extreme.last_play.before.extreme.last_play must be null or an object with seat and '
     'before (one level only).'),
    ('last-play-before-not-in-play', 'last', [(('extreme', 'last_play', 'before', 'phase'), 'deal'),
                                               (('extreme', 'last_play', 'before', 'current'), None)],
     'Saved table state: game.extreme.last_play does not match the state before that play.'),
    ('last-play-in-deal', 'between', [(('extreme', 'last_play'), LAST_PLAY)],
     'Saved table state: game.last_play does not fit phase deal.'),
    ('hands-not-all-seats', 'classic', [(('counting', 'hands', '4'), DELETE)],
     'Saved table state: game.counting.hands must map the seats 1..4 (as strings) to card counts.'),
    ('hands-not-whole', 'classic', [(('counting', 'hands', '4'), 7.0)],
     'Saved table state: game.counting.hands must map the seats 1..4 (as strings) to card counts.'),
    ('hands-too-many', 'classic', [(('counting', 'hands', '4'), 1000000)],
     'Saved table state: game.counting.hands must map the seats 1..4 (as strings) to card counts.'),
    ('challenge-not-an-object', 'classic', [(('counting', 'challenge'), [])],
     'Saved table state: game.counting.challenge must be null or an object with seat, by and card.'),
    ('challenge-a-card-that-is-not', 'classic', [(('counting', 'challenge', 'card'), 'hit2')],
     'Saved table state: game.counting.challenge must be null or an object with seat, by and card.'),
    ('uno-windows-not-a-list', 'classic', [(('counting', 'uno_windows'), {})],
     'Saved table state: game.counting.uno_windows must be a list.'),
    ('uno-penalty-beyond', 'classic', [(('counting', 'uno_penalty'), 5)],
     'Saved table state: game.counting.uno_penalty must be a whole number from 2 to 4, not 5.'),
    ('deck-below', 'classic', [(('counting', 'deck'), -1)],
     'Saved table state: game.counting.deck must be a whole number from 0 to 500, not -1.'),
    ('drawn-beyond', 'classic', [(('counting', 'drawn'), 5)],
     'Saved table state: game.counting.drawn must be a whole number from 1 to 4, not 5.'),
    ('start-unknown', 'classic', [(('counting', 'start'), 'x')],
     "Saved table state: game.counting.start must be one of redraw, apply, not 'x'."),
    ('edition-unknown', 'over', [(('extreme', 'edition'), 2020)],
     'Saved table state: game.extreme.edition must be one of 2016, 2010, not 2020.'),
    ('no-variant', 'over', [(('variant',), DELETE)],
     'Saved table state: game.variant is missing.'),
    ('challenge-without-card', 'classic', [(('counting', 'challenge'), {'seat': 3, 'by': 2})],
     'Saved table state: game.counting.challenge must be null or an object with seat, by and card.'),
    ('out-a-string', 'between', [(('out',), ['1'])],
     'Saved table state: game.out must list distinct seats of 1..3, leaving at least one in the game.'),
    ('out-seat-0', 'between', [(('out',), [0])],
     'Saved table state: game.out must list distinct seats of 1..3, leaving at least one in the game.'),
    ('last-play-without-before', 'last', [(('extreme', 'last_play'), {'seat': 2})],
     'Saved table state: game.extreme.last_play must be null or an object with seat and before (one level only).'),
    ('current-in-deal', 'between', [(('current',), 2)],
     'Saved table state: game.current does not fit phase deal.'),
    ('queue-in-scoring', 'scoring', [(('queue',), [{'seat': 1, 'presses': 1, 'reason': 'hit2', 'by': 1}])],
     'Saved table state: game.queue does not fit phase scoring.'),
    ('going-out-without-queue', 'last', [(('going_out',), 2)],
     'Saved table state: game.going_out does not fit phase play.'),
    ('uno-window-in-deal', 'between', [(('uno_window',), {'seat': 2, 'called': False})],
     'Saved table state: game.uno_window does not fit phase deal.'),
    ('round-winner-in-play', 'busy', [(('round_winner',), 2)],
     'Saved table state: game.round_winner does not fit phase play.'),
    # AT-HANDS: an Attack game's counts may leave a seat out (not known), never name a seat the game lacks
    ('attack-hands-of-no-seat', 'attack', [(('extreme', 'hands', '4'), 7)],
     'Saved table state: game.extreme.hands must be null or map seats of 1..3 (as strings) to card counts.'),
]


@pytest.mark.parametrize("maker, edits, sentence", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_a_saved_game_with_a_bad_field_is_refused_in_one_sentence_naming_it(maker, edits, sentence):
    with pytest.raises(StateFileError) as refused:
        load_snapshot(edited(maker, edits))
    assert str(refused.value) == sentence


ACCEPTED = [
    ('rows-in-order', 'over', [(('round',), 3), (('rounds',), rows((1, 1, 0), (3, 2, 70)))]),
    ('challenge-seats-at-their-lower-bound', 'classic',
     [(('counting', 'challenge', 'by'), 1), (('counting', 'challenge', 'seat'), 1)]),
    ("a-challenge-of-seat-1-s-card", "classic", [(("counting", "challenge", "by"), 1)]),
    ("served-up-to-the-bound", "classic", [(("queue", 0, "served"), 3)]),
    ('limit-1', 'between', [(('limit',), 1)]),
    ('uno-windows-one', 'classic', [(('counting', 'uno_windows'), [{'seat': 2, 'called': False}])]),
    ('out-last-seat', 'between', [(('out',), [3]), (('rounds', 0, 'out'), [3])]),
    ('going-out-owing', 'busy', [(('going_out',), 2)]),
    ("points-at-their-bound", "over", [(("totals", "1"), 10_000_000)]),
    ("attack-hands-some-seats-not-known", "attack", [(("extreme", "hands", "2"), DELETE)]),
    ("attack-hands-not-known", "attack", [(("extreme", "hands"), None)]),
]


@pytest.mark.parametrize("maker, edits", [c[1:] for c in ACCEPTED] + [(name, []) for name in GAMES],
                         ids=[c[0] for c in ACCEPTED] + list(GAMES))
def test_a_good_saved_game_is_taken_in_as_written(maker, edits):
    data = edited(maker, edits)
    game, phase = load_snapshot(copy.deepcopy(data))
    assert snapshot(game, phase) == data


@pytest.mark.parametrize("data", [[], "game", None])
def test_a_saved_game_that_is_not_an_object_is_refused_saying_so(data):
    with pytest.raises(StateFileError) as refused:
        load_snapshot(data)
    assert str(refused.value) == "Saved table state: game is not an object."


def _reversed(seats: dict[str, int]) -> dict[str, int]:
    return dict(reversed(list(seats.items())))


def test_a_ten_seat_game_s_totals_and_reports_are_taken_in_in_seat_order_whatever_the_file_s_order():
    # seat 10 after seat 9, not after seat 1 as its name sorts; the file's order and the points do not matter
    t = _new(10)
    t.start_round("5")
    t.play("5", last=True)
    data = snapshot(t.game, t.phase)
    data["totals"] = _reversed({str(s): 100 - s for s in range(1, 11)})
    data["reports"] = _reversed({str(s): 20 - s for s in range(1, 11) if s != t.game.round_winner})
    game, _ = load_snapshot(data)
    seats = list(range(1, 11))
    assert list(game.totals) == seats
    assert list(game.reports) == [s for s in seats if s != t.game.round_winner]


def test_a_ten_seat_counting_game_s_hands_are_taken_in_in_seat_order_whatever_the_file_s_order():
    from tests.test_editions_engine import table

    t = table("classic", players=10)
    data = snapshot(t.game, t.phase)
    data["counting"]["hands"] = _reversed({str(s): 15 - s for s in range(1, 11)})   # 95 of the 112 cards
    game, _ = load_snapshot(data)
    assert game.hands is not None
    assert list(game.hands) == list(range(1, 11))
    assert game.hands[10] == 5
