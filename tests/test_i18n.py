"""Dutch and English: one catalogue per language, complete in both."""

import subprocess
import sys

from shooter.i18n import LANGUAGES, Messages, catalogue, fields, language_from_env
from shooter.protocol import ERROR_CODES


def test_every_key_is_in_every_catalogue_with_the_same_fields():
    en = catalogue("en")
    for lang in LANGUAGES:
        other = catalogue(lang)
        assert set(other) == set(en), (lang, set(other) ^ set(en))
        for key, text in en.items():
            assert fields(other[key]) == fields(text), (lang, key)
            assert other[key].strip(), (lang, key)


def test_every_error_code_and_reason_has_a_message():
    for lang in LANGUAGES:
        m = Messages(lang)
        for code in ERROR_CODES:
            assert m.has(f"error.{code}"), (lang, code)
        for reason in ("hit2", "hit4", "extreme-hit", "uno", "advice", "wrong-card", "start", "draw"):
            assert m.has(f"reason.{reason}"), (lang, reason)


def test_every_card_of_every_edition_has_the_name_printed_on_its_box_in_every_language():
    # the names live in the edition records (the one source); the phone page reads them in /options.json
    from shooter.editions import records
    for record in records():
        for lang in LANGUAGES:
            names = record.names[lang]
            assert names[""].strip(), (record.key, lang)
            assert set(record.cards()) <= set(names), (record.key, lang, set(record.cards()) - set(names))


def test_every_owed_reason_of_the_exact_variants_has_a_message():
    # the phone page names an owed entry by its reason: the draw cards and the exact reasons
    from shooter.table.editions import ALL_WILD, CLASSIC, FLIP_DARK, FLIP_LIGHT
    from shooter.table.state import EXACT_REASONS
    decks = {"classic": CLASSIC, "all-wild": ALL_WILD, "flip": {**FLIP_LIGHT, **FLIP_DARK}}
    reasons = set(EXACT_REASONS) | {c.name for d in decks.values() for c in d.values() if c.cards != 0}
    for lang in LANGUAGES:
        m = Messages(lang)
        for reason in reasons:
            assert m.has(f"reason.{reason}"), (lang, reason)
        for code in ("no-exit-sensor", "already-drawn", "must-draw"):
            assert m.has(f"error.{code}"), (lang, code)


def test_the_exact_variants_cards_have_the_dutch_names_of_their_boxes():
    from shooter.editions import lookup
    def nl(variant):
        return lookup(variant).names["nl"]
    assert [nl("classic")[c] for c in ("draw-two", "reverse", "skip", "wild", "wild-draw-four")] == \
        ["Neem-twee", "Keer-om", "Sla-beurt-over", "Keuzekaart", "+4 keuzekaart"]
    assert [nl("all-wild")[c] for c in ("skip-two", "targeted-draw-two", "forced-swap")] == \
        ["Sla-twee-over", "Gerichte +2", "Verplichte ruil"]
    assert [nl("flip")[c] for c in ("draw-one", "wild-draw-two", "draw-five", "skip-everyone",
                                    "wild-draw-colour")] == \
        ["Neem-één", "Neem-twee keuzekaart", "Neem-vijf", "Iedereen-beurt-overslaan", "Keuzekaart kleur"]
    assert nl("classic")[""] == "Uno (gewoon)"


def test_card_names_are_the_dutch_names_of_the_box():
    from shooter.editions import lookup
    names = lookup("extreme", "2016").names["nl"]
    assert [names[c] for c in ("hit2", "hit4", "reverse", "skip", "discard-all", "wild", "extreme-hit")] == \
        ["Druk 2 keer", "Druk 4 keer", "Keer om", "Sla over", "Alles afleggen", "Kleurkeuze", "Schieterkeuze"]


def test_the_language_comes_from_the_locale():
    assert language_from_env({"LANG": "nl_NL.UTF-8"}) == "nl"
    assert language_from_env({"LC_ALL": "en_GB.UTF-8", "LANG": "nl_NL.UTF-8"}) == "en"
    assert language_from_env({"LANG": "C"}) == "en"
    assert language_from_env({"LANG": "fr_FR.UTF-8"}) == "en"


def test_messages_fill_their_fields():
    assert Messages("nl")("turn.line", who="Plaats 3") == "Plaats 3 is aan de beurt"


def test_without_the_web_console_aiohttp_is_not_imported():
    code = ("import sys; from shooter.app import App; from shooter.config import parse_config; "
            "app = App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None); "
            "app.controller.handle_line('status', lambda r: None); app.close(); "
            "print(sorted(m for m in sys.modules if m.startswith(('aiohttp', 'shooter.web'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr
