"""The table's options for the phone page (``GET /options.json``), built from their one definition each.

The page repeats none of these facts: it reads this document before it builds its new-game form and its card
pads. Where each comes from:

- ``seats``, ``variants``, ``editions``, ``scorings``, ``starts``, ``limit``, ``give``: :mod:`shooter.table.args`
  ``variant_scorings``: the scorings
  each variant allows (:data:`shooter.table.table.VARIANT_SCORINGS`);
- ``name_length``: :data:`shooter.seat_names.MAX_LENGTH`; ``languages``: :data:`shooter.i18n.LANGUAGES`;
- ``pads``: per pad (Extreme's editions, the exact variants, Flip's two sides) its ``cards`` (the edition's or
  variant's card table, :mod:`shooter.table.cards` and :mod:`shooter.table.editions`, in the pad's order
  :data:`PAD_ORDER`), its ``digits`` (the faces of its number cards) and the cards that are ``targeted`` (the
  player taps a seat: their effect aims, :data:`shooter.table.editions.AIMED_EFFECTS`);
- ``defaults``: the form's first choices, this controller's own: ``players`` its seats without a game
  (``[table] default_seats``), ``dealer`` and ``start`` its rule options (``[rules] default_dealer``,
  ``classic_first_card``), which a console's ``game new`` without them gets too.

Only the pad's order is defined here: the card tables keep docs/rules.md's order, the pad groups the cards as a
player looks for them (numbers, skips and reverse, then draws and wilds). Needs nothing outside the standard
library and the table (no aiohttp).
"""

from __future__ import annotations

from typing import Any

from shooter import i18n, seat_names
from shooter.errors import CommandError
from shooter.table import args
from shooter.table.cards import CARDS, parse_card
from shooter.table.editions import AIMED_EFFECTS, DIGITS, deck
from shooter.table.options import RuleOptions
from shooter.table.table import VARIANT_SCORINGS

# The order of each pad's buttons. Extreme's two editions share one order (2010 lacks Hit 4 and the blanks).
PAD_ORDER: dict[str, tuple[str, ...]] = {
    "extreme": ("number", "skip", "reverse", "discard-all", "wild", "hit2", "hit4", "extreme-hit", "blank"),
    "classic": ("number", "skip", "reverse", "draw-two", "wild", "wild-draw-four", "wild-shuffle", "blank"),
    "all-wild": ("wild", "skip", "skip-two", "reverse", "draw-two", "draw-four", "targeted-draw-two", "forced-swap"),
    "flip-light": ("number", "skip", "reverse", "draw-one", "flip", "wild", "wild-draw-two"),
    "flip-dark": ("number", "skip-everyone", "reverse", "draw-five", "flip", "wild", "wild-draw-colour"),
}



def decks() -> dict[str, tuple[str, list[int], dict[str, str]]]:
    """Per pad: (its order in PAD_ORDER, the digits of its number cards, card name -> effect), from the card
    tables."""
    out = {edition: ("extreme", extreme_digits(edition),
                     {name: card.effect for name, card in CARDS.items() if card.count(edition) > 0})
           for edition in args.EDITIONS}
    for variant in args.VARIANTS[1:]:
        for side in args.SIDES if variant == "flip" else (None,):
            key = f"{variant}-{side}" if side else variant
            out[key] = (key, list(DIGITS[variant]), {name: card.effect for name, card in deck(variant, side).items()})
    return out


def extreme_digits(edition: str) -> list[int]:
    """The faces Extreme's number cards carry: the digits its card parser takes (cards.py names no range)."""
    digits = []
    for digit in range(10):
        try:
            parse_card(str(digit), edition)
        except CommandError:
            continue
        digits.append(digit)
    return digits


def pads() -> dict[str, dict[str, list[Any]]]:
    """Per pad: its cards in the pad's order, the digits of its number cards and its targeted cards."""
    out: dict[str, dict[str, list[Any]]] = {}
    for key, (order_key, digits, effects) in decks().items():
        order = PAD_ORDER[order_key]
        # a card the order does not know yet still gets its button, last (a test keeps the order complete)
        cards = [name for name in order if name in effects] + [name for name in effects if name not in order]
        out[key] = {"cards": cards, "digits": digits,
                    "targeted": [name for name in cards if effects[name] in AIMED_EFFECTS]}
    return out


def document(*, players: int, rules: RuleOptions) -> dict[str, Any]:
    """The options document the page reads (plain JSON data); ``players`` and ``rules``: the controller's seats
    without a game and its rule options (the form's defaults)."""
    return {
        "seats": {"min": args.MIN_SEATS, "max": args.MAX_SEATS},
        "variants": list(args.VARIANTS),
        "editions": list(args.EDITIONS),
        "scorings": list(args.SCORINGS),
        "variant_scorings": {variant: list(VARIANT_SCORINGS[variant]) for variant in args.VARIANTS},
        "starts": list(args.START_RULES),
        "limit": {"min": args.MIN_LIMIT, "max": args.MAX_LIMIT, "default": args.DEFAULT_LIMIT},
        "give": {"min": args.MIN_GIVE, "max": args.MAX_GIVE},
        "name_length": seat_names.MAX_LENGTH,
        "languages": list(i18n.LANGUAGES),
        "pads": pads(),
        "defaults": {"players": players, "dealer": str(rules.default_dealer), "start": rules.classic_first_card},
    }
