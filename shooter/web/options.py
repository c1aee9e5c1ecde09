"""The table's options for the phone page (``GET /options.json``), built from their one definition each.

The page repeats none of these facts: it reads this document before it builds its new-game form and its card
pads. Where each comes from:

- ``seats``, ``scorings``, ``limit``, ``give``: :mod:`shooter.table.args`;
- ``variants``, ``editions``, ``starts``, ``variant_scorings`` and ``boxes``: the edition records
  (:mod:`shooter.editions`): per variant its family, the hand each seat is dealt, its editions, its start
  rules, its sides, whether the shooter counts its cards (``counting``), the name printed on its box per
  language and which pad plays it (``pads``: per edition, or per side, the key of its pad);
- ``name_length``: :data:`shooter.seat_names.MAX_LENGTH`; ``languages``: :data:`shooter.i18n.LANGUAGES`;
- ``pads``: per pad (each side of each edition's deck) its ``cards`` in the pad's order (the record's), its
  ``digits`` (the faces of its number cards), the cards that are ``targeted`` (the player taps a seat: their
  effect aims, :data:`shooter.editions.AIMED_EFFECTS`), of those the ``swaps`` (the player trades hands with the
  seat; the others turn the shooter there), the ``discards`` (a Discard All of an edition that keeps hand
  counts: the page asks how many more cards of the colour went with it), each card's ``copies`` in the deck
  (``null``: not known; the page puts the most played on its pad's first page) and ``points`` in a hand
  (``null``: a number card, its face value; the hands pad adds them up) and the ``names`` printed on them per language;
- ``defaults``: the form's first choices, this controller's own: ``players`` its seats without a game
  (``[table] default_seats``), ``dealer`` and ``start`` its rule options (``[rules] default_dealer``,
  ``classic_first_card``), which a console's ``game new`` without them gets too.

Needs nothing outside the standard library and the table (no aiohttp).
"""

from __future__ import annotations

from typing import Any

from .. import i18n, seat_names
from ..editions import AIMED_EFFECTS, SCORINGS_OF, Edition, Side, editions_of, records
from ..editions.records import Effect
from ..table import args
from ..table.options import RuleOptions


def pad_key(record: Edition, side: Side) -> str:
    """A pad's name: an edition's (Uno Extreme's year) or its variant's, and the side for a two-sided deck."""
    key = record.edition or record.variant
    return f"{key}-{side.name}" if len(record.sides) > 1 else key


def pads() -> dict[str, dict[str, Any]]:
    """Per pad: its cards in the pad's order, the digits of its number cards, its targeted cards, each card's
    copies in the deck and points in a hand, and the names printed on its cards per language."""
    out: dict[str, dict[str, Any]] = {}
    for record in records():
        for side in record.sides:
            held = [name for name, card in side.cards.items() if card.count != 0]
            # a card the order does not know still gets its button, last (a test keeps the order complete)
            cards = [name for name in side.pad if name in held] + [name for name in held if name not in side.pad]
            out[pad_key(record, side)] = {
                "cards": cards, "digits": sorted(side.digits),
                "targeted": [name for name in cards if side.cards[name].effect in AIMED_EFFECTS],
                # of those, the cards whose player trades hands with the seat (the shooter does not turn there)
                "swaps": [name for name in cards if side.cards[name].effect == Effect.SWAP],
                # AT-HANDS: the cards whose player says how many more of the colour went with it (discarded=),
                # in an edition that keeps hand counts (elsewhere the controller refuses discarded=)
                "discards": [name for name in cards if record.hand_counts
                             and side.cards[name].effect == Effect.DISCARD_ALL],
                "copies": {name: side.cards[name].count for name in cards},
                "points": {name: side.cards[name].points for name in cards},
                "names": {lang: {name: names.get(name, name) for name in cards}
                          for lang, names in record.names.items()},
            }
    return out


def boxes() -> dict[str, dict[str, Any]]:
    """Per variant: what the form asks for it and which pad plays it (see the module docstring)."""
    out: dict[str, dict[str, Any]] = {}
    for variant in args.VARIANTS:
        kin = editions_of(variant)
        first = kin[0]
        by = ({r.edition or "": pad_key(r, r.sides[0]) for r in kin} if first.edition is not None
              else {s.name or "": pad_key(first, s) for s in first.sides})
        out[variant] = {
            "family": first.family, "counting": first.counting, "hand": first.hand_size,
            "editions": [r.edition for r in kin if r.edition is not None],
            "starts": list(first.start_rules), "sides": list(first.side_names),
            "names": {lang: names[""] for lang, names in first.names.items() if "" in names},
            "pads": by,
        }
    return out


def document(*, players: int, rules: RuleOptions) -> dict[str, Any]:
    """The options document the page reads (plain JSON data); ``players`` and ``rules``: the controller's seats
    without a game and its rule options (the form's defaults)."""
    return {
        "seats": {"min": args.MIN_SEATS, "max": args.MAX_SEATS},
        "variants": list(args.VARIANTS),
        "editions": list(args.EDITIONS),
        "scorings": list(args.SCORINGS),
        "variant_scorings": {variant: list(SCORINGS_OF[variant]) for variant in args.VARIANTS},
        "starts": list(args.START_RULES),
        "limit": {"min": args.MIN_LIMIT, "max": args.MAX_LIMIT, "default": args.DEFAULT_LIMIT},
        "give": {"min": args.MIN_GIVE, "max": args.MAX_GIVE},
        "name_length": seat_names.MAX_LENGTH,
        "languages": list(i18n.LANGUAGES),
        "pads": pads(),
        "boxes": boxes(),
        "defaults": {"players": players, "dealer": str(rules.default_dealer), "start": rules.classic_first_card},
    }
