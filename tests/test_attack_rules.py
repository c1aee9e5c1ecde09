"""Uno Attack (variant=attack, docs/rules.md AT-*): one test or more per rule id, on the table and through the
console; its card table in the docs checked against the record; a whole game by bots on the simulator."""

from __future__ import annotations

import pathlib

import pytest

from shooter.editions import lookup
from shooter.editions.records import EXTREME_CARD_REASONS, EXTREME_TURN_REASONS
from shooter.errors import CommandError
from shooter.table import Table
from tests.conftest import run_console
from tests.test_editions_records import by_rule, points_of, rows

ROOT = pathlib.Path(__file__).resolve().parent.parent


def attack(players: int = 3, first: str = "5", edition: str | None = None) -> Table:
    t = Table()
    t.new_game(players, dealer=1, variant="attack", edition=edition)
    t.start_round(first=first)
    return t


def owed(t: Table) -> list[tuple[int, int, str]]:
    return [(o.seat, o.presses, o.reason) for o in t.game.queue]


# --- the card table, both printings -------------------------------------------------------------------------

def test_the_attack_card_table_in_the_docs_is_the_records():
    header = "| id | card | 1998 | 106 | effect | points |"
    for edition, size in (("1998", 112), ("106", 106)):
        record = lookup("attack", edition)
        for rid, row, held in matched_or_absent(header, record):
            count = sum(card.count for _, card in held)
            points = held[0][1].points if held else points_of(row["points"])
            assert (count, points) == (int(row[edition]), points_of(row["points"])), (edition, rid)
        assert sum(c.count or 0 for c in record.side().cards.values()) == record.deck_size == size
        assert sum(record.side().digits.values()) == record.card("number").count == 72


def matched_or_absent(header, record):
    """The docs' rows with the record's cards; a row the printing lacks (count 0 in the docs) has none."""
    table, cards = rows(header), by_rule(record)
    assert set(cards) <= set(table)
    return [(rid, row, cards.get(rid, [])) for rid, row in table.items()]


def test_at_106_the_later_printing_has_neither_trade_hands_nor_hit_fire_and_refuses_them():
    t = attack(edition="106")
    assert t.record.deck_size == 106 and "trade-hands" not in t.record.side().pad
    with pytest.raises(CommandError, match="trade-hands"):
        t.play("trade-hands", target=3)
    with pytest.raises(CommandError):
        t.play("wild-hit-fire")
    assert lookup("attack") is lookup("attack", "1998")  # the 112-card box is the default


# --- the cards' effects -----------------------------------------------------------------------------------

def test_at_hit2_the_next_presses_twice_and_loses_the_turn():
    t = attack()
    t.play("hit2")
    assert owed(t) == [(3, 2, "hit2")] and t.game.current == 1


def test_at_skip_and_at_rev():
    t = attack()
    t.play("skip")
    assert t.game.current == 1
    t.play("reverse")
    assert t.game.direction == "ccw" and t.game.current == 3


def test_at_dall_is_a_play_whose_turn_passes_on():
    t = attack()
    t.play("discard-all")
    assert t.game.current == 3 and not t.game.queue


def test_at_trade_needs_its_target_and_passes_the_turn_on():
    t = attack()
    with pytest.raises(CommandError, match="needs target"):
        t.play("trade-hands")
    with pytest.raises(CommandError, match="cannot be the target"):
        t.play("trade-hands", target=2)  # the player itself
    t.play("trade-hands", target=1)
    assert t.game.current == 3 and not t.game.queue
    with pytest.raises(CommandError, match="target= goes only with"):
        t.play("5", target=1)


def test_at_allhit_every_other_seat_presses_once_in_turn_from_the_players_left():
    t = attack(players=4)
    t.play("wild-all-hit")  # seat 2's
    assert owed(t) == [(3, 1, "wild-all-hit"), (4, 1, "wild-all-hit"), (1, 1, "wild-all-hit")]
    for seat in (3, 4, 1):
        assert t.game.head.seat == seat
        t.press(fired=False)
    assert not t.game.queue and t.game.current == 3  # the player's left plays next: it keeps its turn


def test_at_hitfire_the_next_presses_until_the_shooter_fires_and_loses_the_turn():
    t = attack()
    t.play("wild-hit-fire")
    assert owed(t) == [(3, 1, "wild-hit-fire")] and t.game.current == 1
    for _ in range(3):
        events = t.press(fired=False)  # nothing came out: still owed
        assert owed(t) == [(3, 1, "wild-hit-fire")]
        assert {"event": "owed", "seat": 3, "presses": 1, "reason": "wild-hit-fire"} in strip(events)
    t.press(fired=True)
    assert not t.game.queue and t.game.current == 1


def test_a_hit2_is_paid_by_presses_that_fire_nothing_unlike_a_hit_fire():
    t = attack()
    t.play("hit2")
    t.press(fired=False)
    t.press(fired=False)
    assert not t.game.queue


def strip(events):
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


# --- first cards ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("first", ["discard-all", "trade-hands", "wild"])
def test_at_first_ordinary(first):
    t = attack(first=first)
    assert t.game.current == 2 and not t.game.queue


def test_at_first_wild_all_hit_every_player_presses_from_the_dealers_left():
    t = attack(first="wild-all-hit")
    assert [(s, r) for s, _, r in owed(t)] == [(2, "wild-all-hit"), (3, "wild-all-hit"), (1, "wild-all-hit")]
    assert t.game.current == 2


def test_at_first_wild_hit_fire_the_dealers_left_presses_until_fired_and_is_skipped():
    t = attack(first="wild-hit-fire")
    assert owed(t) == [(2, 1, "wild-hit-fire")] and t.game.current == 3
    t.press(fired=False)
    assert owed(t) == [(2, 1, "wild-hit-fire")]


# --- press, Uno, score, undo, resume ---------------------------------------------------------------------

def test_at_press_a_draw_is_one_press_and_ends_the_turn():
    t = attack()
    t.press(fired=True)
    assert t.game.current == 3 and not t.game.queue


def test_at_press_a_caught_uno_costs_two_presses():
    t = attack()
    t.play("5")  # seat 2, to 1 card (the table counts none: the catch is the table's word)
    t.catch(2)
    assert owed(t) == [(2, 2, "uno")]


def test_at_score_the_winner_scores_the_others_hands_with_the_attack_points():
    t = attack()
    t.play("7", last=True)
    t.hand(1, ["trade-hands", "discard-all", "wild-hit-fire", "hit2", "9"])  # 30 + 30 + 50 + 20 + 9
    t.hand(3, ["wild-all-hit"])
    status = t.status()
    assert status["totals"]["2"] == 139 + 50 and status["limit"] == 500


def test_the_attack_reasons_are_the_registrys():
    assert {"wild-all-hit", "wild-hit-fire"} <= set(EXTREME_CARD_REASONS)
    assert "wild-hit-fire" in EXTREME_TURN_REASONS and "wild-all-hit" not in EXTREME_TURN_REASONS


def test_undo_takes_back_a_wild_all_hit_and_its_owed_presses():
    t = attack(players=4)
    before = t.status()
    t.play("wild-all-hit")
    assert len(t.game.queue) == 3
    t.undo()
    assert t.status() == before and not t.game.queue
    t.play("wild-hit-fire")
    t.press(fired=False)
    with pytest.raises(CommandError, match="press"):
        t.undo()  # a press cannot be taken back, whatever it shot (as in Uno Extreme)


def test_a_game_of_attack_resumes_after_a_pulled_plug_with_its_hit_fire_owed():
    t = attack()
    t.play("wild-hit-fire")
    t.press(fired=False)
    restored = Table.from_dict(t.to_dict())
    assert restored.status() == t.status() and restored.record is lookup("attack", "1998")
    restored.press(fired=False)
    assert owed(restored) == [(3, 1, "wild-hit-fire")]
    restored.press(fired=True)
    assert not restored.game.queue


# --- through the console and by bots ---------------------------------------------------------------------

def test_a_round_of_attack_through_the_console():
    lines = ["game new players=3 variant=attack dealer=1", "round start first=5", "play wild-all-hit seat=2",
             "press", "press", "play trade-hands target=1", "play 3 last", "hand seat=2 cards=9,wild",
             "hand seat=3 cards=hit2", "status"]
    out = run_console(lines)
    replies = [o for o in out if "reply" in o]
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    game = replies[-1]["game"]
    assert game["variant"] == "attack" and game["edition"] == "1998"
    assert game["totals"]["1"] == 9 + 50 + 20


def test_twenty_games_of_attack_by_bots_end_in_step():
    from shooter.bots.simulate import play_games
    for edition in ("1998", "106"):
        results = play_games(10, variant="attack", edition=edition, players=3, seed=1)
        assert all(max(r.totals.values()) >= 500 for r in results)
        assert sum(r.stats.get("owed presses", 0) for r in results) > 0


# --- a saved game of Uno Attack is a possible game (shooter/table/possible.py, derived from the record) ----------

def _possible(t: Table) -> None:
    from shooter.table.possible import table_impossible
    assert table_impossible(t) is None, owed(t)
    restored = Table.from_dict(t.to_dict())  # the one loader asks the validator too
    assert restored.status() == t.status()


def test_attack_games_with_all_hit_hit_fire_and_trade_hands_are_possible_saves():
    t = attack(players=4)
    t.play("wild-all-hit")  # three entries of wild-all-hit owed
    _possible(t)
    for _ in range(3):
        t.press(fired=False)
    t.play("trade-hands", target=1)  # seat 3 aims at seat 1
    _possible(t)
    t.play("wild-hit-fire")  # seat 4's: seat 1 owes until a press fires
    t.press(fired=False)
    _possible(t)
    assert owed(t) == [(1, 1, "wild-hit-fire")]
    first = attack(players=3, first="wild-all-hit")  # AT-FIRST: owed by the first card, named by it
    _possible(first)


def test_a_hit_fire_owed_in_a_game_of_the_106_printing_is_impossible():
    from shooter.table.possible import impossible
    t = attack(edition="106")
    t.play("hit2")
    game = t.game
    assert game is not None
    game.queue[0].reason = "wild-hit-fire"  # the 106 printing holds none (AT-106)
    assert "wild-hit-fire" in (impossible(game, t.phase) or "")


# --- AT-SHEETS: where the sheets differ, a rule option ---------------------------------------------------------

def test_at_trade_a_last_trade_hands_is_allowed_by_default_and_refused_by_the_rule_option():
    from shooter.table import RuleOptions
    t = attack()
    t.play("trade-hands", target=3, last=True)
    assert t.game.round_winner == 2
    strict = Table(options=RuleOptions(last_trade_hands="refused"))
    strict.new_game(3, dealer=1, variant="attack")
    strict.start_round(first="5")
    before = strict.status()
    with pytest.raises(CommandError, match=r"^Going out with trade-hands is refused \(rule option last_trade_hands"):
        strict.play("trade-hands", target=3, last=True)
    assert strict.status() == before   # nothing changed
    strict.play("trade-hands", target=3)   # not the last card: a trade as ever
    assert strict.game.current == 3
    with pytest.raises(ValueError, match="last_trade_hands"):
        RuleOptions(last_trade_hands="sometimes")


def test_a_target_refusal_names_the_cards_that_aim_in_a_sentence_in_each_printing():
    """The refusals of a misplaced or missing target= name this deck's aiming cards with their article; a deck
    with none (106) says so, instead of "an , not with 5"."""
    def message(t: Table, card: str, target: int | None = None) -> str:
        with pytest.raises(CommandError) as refused:
            t.play(card, target=target)
        return str(refused.value)
    t = attack()
    assert message(t, "trade-hands") == "A trade-hands needs target=S, the seat to aim at."
    assert message(t, "5", target=1) == "target= goes only with a trade-hands, not with 5."
    assert message(attack(edition="106"), "5", target=1) == \
        "target= goes with no card of this edition (none aims), not with 5."
