"""Bots that never report a play: they put their cards on the simulated discard pile (world.pile) and the table
learns every play from a reader of the pile's top card. The reader here is a TEST SEAM ONLY
(tests.pile_rig.top_card_reader: never wrong, always sure); the real path, camera frames through the
recogniser, is the glue step's. Whole games must stay in step with the cards actually played: the bots check
every card's place after every line, and (counting editions) the controller's hand counts against the hands."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest

from shooter.bots.simulate import deck_counts
from shooter.bots.simulate_exact import _Table, card_points, deck_facts, real_deck
from shooter.camera.reads import Read
from shooter.editions.records import lookup
from sim import make_deck
from sim.bots import BotError, BotTable
from sim.exact_bots import ExactBotTable

from .pile_rig import PileRig, top_card_reader


def extreme_bots(rig: PileRig, seed: int, players: int = 3) -> tuple[BotTable, list[str]]:
    table = _Table(rig.app)
    sent: list[str] = []

    def send(line: str) -> dict:
        sent.append(line)
        return table.send(line)
    wilds = {n for n, c in lookup("extreme", "2016").side().cards.items() if c.wild}
    assert rig.app.world is not None
    bots = BotTable(rig.app.world, send, table.events, make_deck(deck_counts(lookup("extreme", "2016")), wilds=wilds),
                    players,
                    random.Random(f"bots-{seed}"), wilds=wilds)
    return bots, sent


@pytest.mark.parametrize("seed", [1, 2])
def test_extreme_bots_in_pile_mode_play_whole_games_told_only_by_the_pile(seed):
    rig = PileRig("auto", seed=seed, sim_cards=0)
    try:
        bots, sent = extreme_bots(rig, seed)
        bots.pile_mode(top_card_reader(rig.app))
        game = bots.play_game(scoring="winner", limit=200, edition="2016")
        assert game["phase"] == "over" and game["winner"]
        assert not [line for line in sent if line.startswith("play")]          # nobody typed a play
        assert bots.stats["plays read"] > 10
        assert bots.stats["colours named"] + bots.stats["reads confirmed"] > 0   # wilds' colours, Extreme Hits'
        camera = rig.controller.pile.counts
        assert camera["played"] == bots.stats["plays read"] and camera["refused"] == 0
        assert all(card is not None for card in rig.app.world.pile)
    finally:
        rig.close()


@pytest.mark.parametrize("variant", ["classic", "all-wild", "flip"])
def test_counting_bots_in_pile_mode_stay_in_step_with_the_cards_played(variant):
    rig = PileRig("auto", seed=3, sim_cards=0)
    try:
        rng = random.Random(f"bots-{variant}-3")
        table = _Table(rig.app)
        sent: list[str] = []

        def send(line: str) -> dict:
            sent.append(line)
            return table.send(line)
        assert rig.app.world is not None
        bots = ExactBotTable(rig.app.world, send, table.events, real_deck(variant, rng), 3, rng,
                             deck_facts(variant), partial(card_points, variant))
        bots.pile_mode(top_card_reader(rig.app))
        game = bots.play_game(scoring="winner", limit=100)
        assert game["phase"] == "over"
        assert not [line for line in sent if line.startswith("play")]
        assert bots.stats["plays read"] == rig.controller.pile.counts["played"] > 20
    finally:
        rig.close()


def _misreading_game(misread: Callable[[str], str], seed: int = 3, undo: bool = True) -> ExactBotTable:
    """A game of classic whose reader names each card ``misread(name)`` (sure): the bots play it to its end
    (``undo`` False: the table refuses every undo, as it does once a misread's cards are out)."""
    rig = PileRig("auto", seed=seed, sim_cards=0)
    try:
        rng = random.Random(f"bots-classic-{seed}")
        table = _Table(rig.app)
        world, pile = rig.app.world, rig.controller.pile
        assert world is not None

        def misreads() -> None:
            face = world.face_up(world.pile[-1])
            rig.app.loop.post(partial(pile.take, Read(misread(face.name), face.colour)))
            rig.app.loop.run_until_quiet()
        def send(line: str) -> dict:
            if line == "undo" and not undo:
                return {"reply": "undo", "ok": False, "error": "cannot-undo", "message": "the cards are out"}
            return table.send(line)
        bots = ExactBotTable(world, send, table.events, real_deck("classic", rng), 3, rng,
                             deck_facts("classic"), partial(card_points, "classic"))
        bots.pile_mode(misreads)
        bots.play_game(scoring="winner", limit=500)
        return bots
    finally:
        rig.close()


def test_a_misread_played_is_taken_back_and_typed_by_its_player_and_the_game_stays_in_step():
    """A reader that takes every 7 for a 5: the table plays the 5 (a sure read), the player sees it, undoes it
    and types the 7, as at a real table; the hands are counted against the real cards after every line."""
    bots = _misreading_game(lambda name: "5" if name == "7" else name)
    assert bots.stats["reads undone"] > 3 and bots.stats["plays read"] > 20


def test_a_misread_that_cannot_be_taken_back_puts_the_game_out_of_step_and_the_bots_notice():
    """The check bites: a reader that takes every draw-two for a 5, at a table that cannot undo it, would leave
    the table a +2 short of the cards played; the bots stop the game at that card."""
    with pytest.raises(BotError, match=r"took it as 'play 5 seat=\d', not 'play draw-two .*cannot take it back"):
        _misreading_game(lambda name: "5" if name == "draw-two" else name, undo=False)


def test_the_pile_is_the_worlds_gathered_at_a_rounds_end_and_kept_but_its_top_on_a_refill():
    rig = PileRig("off", seed=1, sim_cards=0)
    try:
        world = rig.app.world
        assert world is not None
        cards = make_deck({"number": 8})
        for card in cards[:5]:
            world.put_on_pile(card)
        assert world.take_from_pile() is cards[4] and world.take_from_pile(cards[0]) is cards[0]
        assert world.take_pile(keep_top=True) == cards[1:3] and world.pile == [cards[3]]
        world.turn_pile_over()
        assert world.pile_side == "dark"
        assert world.take_pile(keep_top=False) == [cards[3]] and world.pile == [] and world.pile_side == "light"
        with pytest.raises(ValueError, match="empty"):
            world.take_from_pile()
    finally:
        rig.close()
