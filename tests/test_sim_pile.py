"""`sim pile CARD [colour=C]`: a card of the game's deck put on the simulated discard pile (what the simulated
camera sees), and bad input refused with a one-line error that changes nothing."""

from __future__ import annotations

import pytest

from tests.pile_rig import PileRig


@pytest.fixture
def rig():
    rig = PileRig("ask")
    rig.send("game new players=3 force")
    rig.send("round start first=5")
    yield rig
    rig.close()


def test_a_card_lands_on_top_of_the_pile_as_printed(rig):
    assert rig.send("sim pile 7 colour=red")[0] == {"reply": "sim", "ok": True, "card": "7", "colour": "red",
                                                      "pile": 1}
    rig.send("sim pile wild")
    world = rig.app.world
    assert [(c.name, c.colour) for c in world.pile] == [("7", "red"), ("wild", None)]


@pytest.mark.parametrize("line, says", [
    ("sim pile 7", "7 needs colour= one of red, yellow, green, blue, got none"),
    ("sim pile wild colour=red", "wild is a wild: no colour is printed on it"),
    ("sim pile draw-two colour=red", "this deck has no card 'draw-two'"),
    ("sim pile 0 colour=red", "this deck has no number card 0"),
])
def test_a_card_the_deck_lacks_is_refused_and_the_pile_stays(rig, line, says):
    reply = rig.send(line)[0]
    assert not reply["ok"] and says in reply["message"]
    assert rig.app.world.pile == []
