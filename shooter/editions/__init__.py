"""Every Uno the table can play, as data: the registry of edition records (``records.py``) and the
editions it knows out of the box (``builtin.py``, registered on import). See :mod:`shooter.editions.records`."""

from . import builtin
from .records import (
    AIMED_EFFECTS,
    COUNTING,
    EDITIONS,
    EXTREME,
    SCORINGS_OF,
    START_RULES,
    VARIANTS,
    DeckCard,
    Edition,
    Side,
    choose,
    default,
    editions_of,
    family_of,
    lookup,
    records,
    register,
    unregister,
)

__all__ = ["AIMED_EFFECTS", "COUNTING", "EDITIONS", "EXTREME", "SCORINGS_OF", "START_RULES", "VARIANTS",
           "DeckCard", "Edition", "Side", "builtin", "choose", "default", "editions_of", "family_of", "lookup",
           "records", "register", "unregister"]
