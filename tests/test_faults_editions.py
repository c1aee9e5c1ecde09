"""The fault suite for the edition registry (issue 16): the counting dealer's race (tests/test_faults_dealer.py)
played with the fifth edition, defined in data alone (tests/house_decks.py: a two-colour deck, a hand of 5, a
challengeable Wild Draw Three), so a deck no built-in edition has is raced against its shots like the others.
"""

from __future__ import annotations

import pytest

from tests import house_decks, test_faults_dealer
from tests.test_faults import record

pytestmark = pytest.mark.faults


def test_commands_raced_against_the_fifth_editions_dealer_lose_no_card(monkeypatch):
    house_decks.register_all()
    try:
        monkeypatch.setattr(test_faults_dealer, "VARIANTS", ("duo",))
        r = test_faults_dealer.dealer_race(4_000, seed=16, budget=40.0)
        r.kind = "dealer race, a house deck (duo)"
        record(r)
    finally:
        house_decks.unregister_all()
    assert r.lost == 0, r.problems  # type: ignore[attr-defined]
    assert r.survived == r.tried and r.tried >= 1_000
    assert r.figures["rounds duo"] >= 3 and r.figures["commands while a shot was out"] >= 100
    assert r.figures["uncounted"] == 0 and r.figures.get("reply internal", 0) == 0
