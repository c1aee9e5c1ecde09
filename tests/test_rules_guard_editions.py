"""Guards for the Extreme and Attack records (shooter/editions/builtin.py, the eighth mutation run).

builtin.py's ``_extreme`` and ``_attack`` build their records at import time, before mutmut switches a mutant on,
so mutmut never sees one of them (docs/mutation.md, the eighth run). These rows pin every field a play reads:
rule id (C-*, AT-*), copies, points, effect, presses a hit owes (C-HIT2, C-HIT4, C-XHIT, AT-ALLHIT, AT-HITFIRE)
and whether the card is wild (no colour: the simulator's deck and the bots' colour read it). A row differs from
the record: a mutant, or a change docs/rules.md's card tables must show too (tests/test_editions_records.py
checks those tables).
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from shooter.editions import lookup

ROWS = {
    ("extreme", "2016"): [
        ("C-NUM", "number", 72, None, "PLAIN", 0, False), ("C-HIT2", "hit2", 8, 20, "HIT", 2, False),
        ("C-REV", "reverse", 4, 20, "REVERSE", 0, False), ("C-SKIP", "skip", 8, 20, "SKIP", 0, False),
        ("C-DALL", "discard-all", 8, 30, "PLAIN", 0, False), ("C-WILD", "wild", 4, 50, "PLAIN", 0, True),
        ("C-XHIT", "extreme-hit", 4, 50, "EXTREME_HIT", 2, True), ("C-HIT4", "hit4", 1, 40, "HIT", 4, True),
        ("C-BLANK", "blank", 3, 50, "PLAIN", 0, True)],
    ("extreme", "2010"): [
        ("C-NUM", "number", 72, None, "PLAIN", 0, False), ("C-HIT2", "hit2", 8, 20, "HIT", 2, False),
        ("C-REV", "reverse", 8, 20, "REVERSE", 0, False), ("C-SKIP", "skip", 8, 20, "SKIP", 0, False),
        ("C-DALL", "discard-all", 8, 30, "PLAIN", 0, False), ("C-WILD", "wild", 4, 50, "PLAIN", 0, True),
        ("C-XHIT", "extreme-hit", 4, 50, "EXTREME_HIT", 2, True), ("C-HIT4", "hit4", 0, 40, "HIT", 4, True),
        ("C-BLANK", "blank", 0, 50, "PLAIN", 0, True)],
    ("attack", "1998"): [
        ("AT-NUM", "number", 72, None, "PLAIN", 0, False), ("AT-HIT2", "hit2", 8, 20, "HIT", 2, False),
        ("AT-REV", "reverse", 8, 20, "REVERSE", 0, False), ("AT-SKIP", "skip", 8, 20, "SKIP", 0, False),
        ("AT-DALL", "discard-all", 4, 30, "DISCARD_ALL", 0, False),
        ("AT-TRADE", "trade-hands", 4, 30, "SWAP", 0, False), ("AT-WILD", "wild", 4, 50, "PLAIN", 0, True),
        ("AT-ALLHIT", "wild-all-hit", 2, 50, "ALL_HIT", 1, True),
        ("AT-HITFIRE", "wild-hit-fire", 2, 50, "HIT_FIRE", 1, True)],
    ("attack", "106"): [
        ("AT-NUM", "number", 72, None, "PLAIN", 0, False), ("AT-HIT2", "hit2", 8, 20, "HIT", 2, False),
        ("AT-REV", "reverse", 8, 20, "REVERSE", 0, False), ("AT-SKIP", "skip", 8, 20, "SKIP", 0, False),
        ("AT-DALL", "discard-all", 4, 30, "DISCARD_ALL", 0, False), ("AT-WILD", "wild", 4, 50, "PLAIN", 0, True),
        ("AT-ALLHIT", "wild-all-hit", 2, 50, "ALL_HIT", 1, True)],
}


@pytest.mark.parametrize("key", list(ROWS), ids=["-".join(k) for k in ROWS])
def test_every_card_row_of_the_extreme_and_attack_records(key: tuple[str, str]) -> None:
    record = lookup(*key)
    got = [(c.rule, c.name, c.count, c.points, c.effect.name, c.presses, c.wild) for c in record.cards().values()]
    assert got == ROWS[key]
    assert dict(record.side().digits) == {d: 8 for d in range(1, 10)}  # C-NUM: 8 of each face 1-9 (and no 0)


EXTREME_PAD = ("number", "skip", "reverse", "discard-all", "wild", "hit2", "hit4", "extreme-hit", "blank")
PADS = {
    ("extreme", "2016"): EXTREME_PAD,
    ("extreme", "2010"): EXTREME_PAD,  # Extreme's pad is the box's, whatever the printing holds
    ("attack", "1998"): ("number", "skip", "reverse", "hit2", "discard-all", "trade-hands", "wild", "wild-all-hit",
                         "wild-hit-fire"),
    ("attack", "106"): ("number", "skip", "reverse", "hit2", "discard-all", "wild", "wild-all-hit"),
}


@pytest.mark.parametrize("key", list(PADS), ids=["-".join(k) for k in PADS])
def test_the_phone_pad_of_each_printing(key: tuple[str, str]) -> None:
    """Attack's pad has no button for a card its printing lacks (AT-106: no Trade Hands, no Hit Fire)."""
    record = lookup(*key)
    assert record.side().pad == PADS[key]
    assert (record.variant, record.edition, record.family) == (key[0], key[1], "extreme")


def test_the_records_built_again_as_under_mutmut_are_the_same_objects_and_equal() -> None:
    """tests/mutmut_editions.py's rebuild (run by mutmut only) leaves an unmutated registry as it was."""
    from tests import mutmut_editions
    records = importlib.import_module("shooter.editions.records")
    before = [(r, dataclasses.replace(r)) for r in records.records()]
    version, views = records._REGISTRY.version, (list(records.VARIANTS), list(records.EXTREME_CARD_REASONS))
    mutmut_editions.rebuild()
    assert [r for r, _copy in before] == records.records()
    assert all(a is b for (a, _copy), b in zip(before, records.records(), strict=True))
    assert all(r == copy and r.side().cards == copy.side().cards for r, copy in before)
    assert records._REGISTRY.version > version
    assert (list(records.VARIANTS), list(records.EXTREME_CARD_REASONS)) == views
