"""The editions this controller knows out of the box, as records (docs/rules.md's card tables, checked by
tests/test_editions_records.py against that page): Uno Extreme's 2016 and 2010 decks, classic Uno, Uno All
Wild, Uno Flip and Uno Attack's 112-card (1998) and 106-card printings. Another box is one more record here
(or registered by whoever needs it)."""

from __future__ import annotations

from .records import (
    APPLY,
    COUNTING,
    EXTREME,
    IGNORED,
    LOWEST,
    NUMBER,
    REDRAW,
    SCORINGS,
    WINNER,
    DeckCard,
    Edition,
    Effect,
    Side,
    register,
)

# --- Uno Extreme (C-*): 112 cards in both editions; 1..9, no 0, 8 of each value ----------------------------
_EXTREME_PAD = ("number", "skip", "reverse", "discard-all", "wild", "hit2", "hit4", "extreme-hit", "blank")
_EXTREME_DIGITS = {d: 8 for d in range(1, 10)}
_EXTREME_NAMES = {
    "en": {"": "Uno Extreme", "number": "Number", "hit2": "Hit 2", "hit4": "Hit 4", "reverse": "Reverse",
           "skip": "Skip", "discard-all": "Discard All", "wild": "Wild", "extreme-hit": "Extreme Hit",
           "blank": "Blank"},
    "nl": {"": "Uno Extreme", "number": "Cijferkaart", "hit2": "Druk 2 keer", "hit4": "Druk 4 keer",
           "reverse": "Keer om", "skip": "Sla over", "discard-all": "Alles afleggen", "wild": "Kleurkeuze",
           "extreme-hit": "Schieterkeuze", "blank": "Eigen regel"},
}


def _extreme(edition: str, reverses: int, hit4s: int, blanks: int) -> Edition:
    cards = (
        DeckCard("C-NUM", NUMBER, 72, None, Effect.PLAIN),
        DeckCard("C-HIT2", "hit2", 8, 20, Effect.HIT, presses=2),
        DeckCard("C-REV", "reverse", reverses, 20, Effect.REVERSE),
        DeckCard("C-SKIP", "skip", 8, 20, Effect.SKIP),
        DeckCard("C-DALL", "discard-all", 8, 30, Effect.PLAIN),
        DeckCard("C-WILD", "wild", 4, 50, Effect.PLAIN, wild=True),
        DeckCard("C-XHIT", "extreme-hit", 4, 50, Effect.EXTREME_HIT, presses=2, wild=True),
        DeckCard("C-HIT4", "hit4", hit4s, 40, Effect.HIT, presses=4, wild=True),
        # a wild unless RuleOptions.blank_as says otherwise
        DeckCard("C-BLANK", "blank", blanks, 50, Effect.PLAIN, wild=True),
    )
    return Edition("extreme", edition, EXTREME, (Side.of(None, cards, _EXTREME_DIGITS, _EXTREME_PAD),),
                   SCORINGS, _EXTREME_NAMES)


EXTREME_2016 = register(_extreme("2016", reverses=4, hit4s=1, blanks=3))  # the default (records.DEFAULT_*)
EXTREME_2010 = register(_extreme("2010", reverses=8, hit4s=0, blanks=0))

# --- classic Uno (CL-*): 112 cards (2018/2022 sheets) ---------------------------------------------------
CLASSIC = register(Edition(
    "classic", None, COUNTING,
    (Side.of(None, (
        DeckCard("CL-NUM", NUMBER, 76, None, Effect.PLAIN),  # 4 zeros, 8 per digit 1..9
        DeckCard("CL-D2", "draw-two", 8, 20, Effect.DRAW, 2),
        DeckCard("CL-REV", "reverse", 8, 20, Effect.REVERSE),
        DeckCard("CL-SKIP", "skip", 8, 20, Effect.SKIP),
        DeckCard("CL-WILD", "wild", 4, 50, Effect.PLAIN, wild=True),
        DeckCard("CL-W4", "wild-draw-four", 4, 50, Effect.WILD_DRAW, 4, wild=True),
        DeckCard("CL-SHUF", "wild-shuffle", 1, 50, Effect.SHUFFLE, wild=True),
        DeckCard("CL-BLANK", "blank", 3, 50, Effect.PLAIN, wild=True),  # a wild; its written rule may use `give`
    ), {0: 4, **{d: 8 for d in range(1, 10)}},
        ("number", "skip", "reverse", "draw-two", "wild", "wild-draw-four", "wild-shuffle", "blank")),),
    (WINNER, LOWEST),
    {"en": {"": "Uno (classic)", "number": "Number", "skip": "Skip", "reverse": "Reverse", "draw-two": "Draw Two",
            "wild": "Wild", "wild-draw-four": "Wild Draw Four", "wild-shuffle": "Wild Shuffle Hands",
            "blank": "Wild Customizable"},
     "nl": {"": "Uno (gewoon)", "number": "Cijferkaart", "skip": "Sla-beurt-over", "reverse": "Keer-om",
            "draw-two": "Neem-twee", "wild": "Keuzekaart", "wild-draw-four": "+4 keuzekaart",
            "wild-shuffle": "Keuzekaart handen schudden", "blank": "Blanco keuzekaart"}},
    start_rules=(REDRAW, APPLY), challenges=True,
))

# --- Uno All Wild (AW-*): 112 wilds, per-kind counts unknown. AW-ANY: any card on any card, no colours,
# drawing optional: the controller checks nothing about what may be played. The most a hand scores: 50
# a card (its per-kind counts are not known).
ALL_WILD = register(Edition(
    "all-wild", None, COUNTING,
    (Side.of(None, (
        DeckCard("AW-WILD", "wild", None, 20, Effect.PLAIN, wild=True),
        DeckCard("AW-REV", "reverse", None, 50, Effect.REVERSE, wild=True),
        DeckCard("AW-SKIP", "skip", None, 50, Effect.SKIP, wild=True),
        DeckCard("AW-SKIP2", "skip-two", None, 50, Effect.SKIP_TWO, wild=True),
        DeckCard("AW-D2", "draw-two", None, 50, Effect.DRAW, 2, wild=True),
        DeckCard("AW-D4", "draw-four", None, 50, Effect.DRAW, 4, wild=True),  # no condition, no challenge
        DeckCard("AW-TD2", "targeted-draw-two", None, 50, Effect.TARGETED_DRAW, 2, wild=True),
        DeckCard("AW-SWAP", "forced-swap", None, 50, Effect.SWAP, wild=True),
    ), {}, ("wild", "skip", "skip-two", "reverse", "draw-two", "draw-four", "targeted-draw-two", "forced-swap")),),
    (WINNER,),
    {"en": {"": "Uno All Wild", "wild": "Wild", "reverse": "Wild Reverse", "skip": "Wild Skip",
            "skip-two": "Wild Skip Two", "draw-two": "Wild Draw Two", "draw-four": "Wild Draw Four",
            "targeted-draw-two": "Wild Targeted Draw Two", "forced-swap": "Wild Forced Swap"},
     "nl": {"": "Uno All Wild", "wild": "Keuzekaart", "reverse": "Keer-om", "skip": "Sla-beurt-over",
            "skip-two": "Sla-twee-over", "draw-two": "+2", "draw-four": "+4", "targeted-draw-two": "Gerichte +2",
            "forced-swap": "Verplichte ruil"}},
    first_card=IGNORED, drop_prefix="wild-", best_hand=112 * 50,
    # the sheet gives only the total (112); the simulator's deck assumes this split (an even split of the
    # eight kinds draws about one card per play, so hands never shrink and a round never ends)
    assumed_counts={"wild": 40, "reverse": 12, "skip": 12, "skip-two": 12, "draw-two": 10, "draw-four": 6,
                    "targeted-draw-two": 10, "forced-swap": 10},
))

# --- Uno Flip (FL-*): 112 two-sided cards; per side 8 of each 1..9, no zeros --------------------------------
_FLIP_NUMBER = DeckCard("FL-NUM", NUMBER, 72, None, Effect.PLAIN)
_FLIP_REVERSE = DeckCard("FL-REV", "reverse", 8, 20, Effect.REVERSE)
_FLIP_FLIP = DeckCard("FL-FLIP", "flip", 8, 20, Effect.FLIP)
_FLIP_WILD = DeckCard("FL-WILD", "wild", 4, 40, Effect.PLAIN, wild=True)
_FLIP_DIGITS = {d: 8 for d in range(1, 10)}
FLIP_EDITION = register(Edition(
    "flip", None, COUNTING,
    (Side.of("light", (
        _FLIP_NUMBER,
        DeckCard("FL-D1", "draw-one", 8, 10, Effect.DRAW, 1),
        _FLIP_REVERSE,
        DeckCard("FL-SKIP", "skip", 8, 20, Effect.SKIP),
        _FLIP_FLIP,
        _FLIP_WILD,
        DeckCard("FL-WD2", "wild-draw-two", 4, 50, Effect.WILD_DRAW, 2, wild=True),
    ), _FLIP_DIGITS, ("number", "skip", "reverse", "draw-one", "flip", "wild", "wild-draw-two")),
     Side.of("dark", (
        _FLIP_NUMBER, _FLIP_REVERSE, _FLIP_FLIP, _FLIP_WILD,
        DeckCard("FL-D5", "draw-five", 8, 20, Effect.DRAW, 5),
        DeckCard("FL-SKIPALL", "skip-everyone", 8, 30, Effect.SKIP_ALL),
        DeckCard("FL-WDC", "wild-draw-colour", 4, 60, Effect.WILD_DRAW, None, wild=True),
     ), _FLIP_DIGITS, ("number", "skip-everyone", "reverse", "draw-five", "flip", "wild", "wild-draw-colour"))),
    (WINNER, LOWEST),
    {"en": {"": "Uno Flip", "number": "Number", "draw-one": "Draw One", "reverse": "Reverse", "skip": "Skip",
            "flip": "Flip", "wild": "Wild", "wild-draw-two": "Wild Draw Two", "draw-five": "Draw Five",
            "skip-everyone": "Skip Everyone", "wild-draw-colour": "Wild Draw Colour"},
     "nl": {"": "Uno Flip", "number": "Cijferkaart", "draw-one": "Neem-één", "reverse": "Keer-om",
            "skip": "Sla-beurt-over", "flip": "Flip", "wild": "Keuzekaart", "wild-draw-two": "Neem-twee keuzekaart",
            "draw-five": "Neem-vijf", "skip-everyone": "Iedereen-beurt-overslaan",
            "wild-draw-colour": "Keuzekaart kleur"}},
    # the first card (light) is carried out as classic's `apply` does, except a Wild Draw Two,
    # which goes back to the deck
    first_void=frozenset({"wild-draw-two"}), challenges=True,
))

# --- Uno Attack (AT-*): the launcher's first game (Mattel, 1998), played by the Extreme family's rules; 1..9,
# no 0, 8 of each value. The later printing holds 106 cards: no sheet at hand says which six it drops; this
# record ASSUMES the four Trade Hands and the two Wild Hit-Fire (docs/rules.md AT-106).
_ATTACK_PAD = ("number", "skip", "reverse", "hit2", "discard-all", "trade-hands", "wild", "wild-all-hit",
               "wild-hit-fire")
_ATTACK_NAMES = {
    "en": {"": "Uno Attack", "number": "Number", "hit2": "Hit 2", "reverse": "Reverse", "skip": "Skip",
           "discard-all": "Discard All", "trade-hands": "Trade Hands", "wild": "Wild",
           "wild-all-hit": "Wild All Hit", "wild-hit-fire": "Wild Hit-Fire"},
    "nl": {"": "Uno Attack", "number": "Cijferkaart", "hit2": "Druk 2 keer", "reverse": "Keer om",
           "skip": "Sla over", "discard-all": "Alles afleggen", "trade-hands": "Ruil handen", "wild": "Kleurkeuze",
           "wild-all-hit": "Iedereen drukt", "wild-hit-fire": "Druk tot het schiet"},
}


def _attack(edition: str, trades: int, hit_fires: int) -> Edition:
    cards = (
        DeckCard("AT-NUM", NUMBER, 72, None, Effect.PLAIN),
        DeckCard("AT-HIT2", "hit2", 8, 20, Effect.HIT, presses=2),
        DeckCard("AT-REV", "reverse", 8, 20, Effect.REVERSE),
        DeckCard("AT-SKIP", "skip", 8, 20, Effect.SKIP),
        DeckCard("AT-DALL", "discard-all", 4, 30, Effect.DISCARD_ALL),
        DeckCard("AT-TRADE", "trade-hands", trades, 30, Effect.SWAP),  # aimed: the seat to trade with
        DeckCard("AT-WILD", "wild", 4, 50, Effect.PLAIN, wild=True),
        DeckCard("AT-ALLHIT", "wild-all-hit", 2, 50, Effect.ALL_HIT, presses=1, wild=True),
        DeckCard("AT-HITFIRE", "wild-hit-fire", hit_fires, 50, Effect.HIT_FIRE, presses=1, wild=True),
    )
    held = tuple(c for c in cards if c.count)  # a printing without a card has no row (nor button) for it
    pad = tuple(n for n in _ATTACK_PAD if any(c.name == n for c in held))
    return Edition("attack", edition, EXTREME, (Side.of(None, held, _EXTREME_DIGITS, pad),),
                   SCORINGS, _ATTACK_NAMES, deck_size=106 + trades + hit_fires,
                   hand_counts=True)  # AT-HANDS: Discard All and Trade Hands change them (issue 33)


ATTACK_1998 = register(_attack("1998", trades=4, hit_fires=2))  # 112 cards, the variant's default
ATTACK_106 = register(_attack("106", trades=0, hit_fires=0))  # the later 106-card printing (AT-106)
