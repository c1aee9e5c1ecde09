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
        # every hit card's reason of every Extreme-family record (the registry's), and the table's own
        from shooter.editions.records import EXTREME_CARD_REASONS
        for reason in (*EXTREME_CARD_REASONS, "uno", "advice", "wrong-card", "start", "draw"):
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


# ---- the terminal's details: every error message the controller can write has a template in every language ----

def error_sites():
    """(code, sample message, where) for every error message written in shooter/ (tests/refusal_sites.py's scan of
    the raise sites). Each field of an f-string gets a sample number of its own (a seat field is ``seat N`` in
    the source), so a rendering can be checked to keep it."""
    from tests.refusal_sites import sites
    return [(site.code, site.sample, site.where) for site in sites()]


def test_every_error_message_of_the_controller_has_a_detail_template():
    from shooter.i18n import detail_key
    sites = error_sites()
    assert len(sites) > 100   # the scan finds the raise sites (there are about 120)
    missing = [(code, text, where) for code, text, where in sites if detail_key(text) is None]
    assert not missing, "\n".join(map(str, missing))


def test_english_details_are_the_messages_as_written_and_every_language_keeps_their_values():
    import re
    for code, text, where in error_sites():
        assert Messages("en").detail(code, text) == text, where
        for lang in LANGUAGES:
            said = Messages(lang).detail(code, text)
            for value in re.findall(r"7\d\d\d|[1-9]\d\d\d\d", text):   # the sample values
                assert value in said, (lang, where, text, said)


def test_every_error_code_has_a_dutch_detail_that_keeps_the_message():
    # codes whose messages none of the scanned sites writes still get their sentence and the message as it came
    from shooter.protocol import ERROR_CODES
    written = {code for code, _, _ in error_sites()}
    assert set(ERROR_CODES) <= written, set(ERROR_CODES) - written
    nl = Messages("nl")
    for code in ERROR_CODES:
        assert nl.detail(code, "something new: 42") == f"{nl(f'error.{code}')} (something new: 42)"


def test_dutch_details_name_the_seats_and_translate_the_protocols_words():
    nl = Messages("nl")
    names = {2: "Bram", 3: "Cor"}
    assert nl.detail("not-your-turn", "It is seat 2's turn, not seat 3's.", seat=names.get) == \
        "Bram is aan de beurt, niet Cor."
    assert nl.detail("wrong-phase", "Cannot play a card in phase scoring.") == \
        "Dat kan niet in de fase handen tellen: een kaart leggen."
    assert nl.detail("presses-owed", "Seat 3 still has 2 presses owed (hit2).") == \
        "Plaats 3 moet nog 2 keer drukken (Druk 2 keer)."
    assert nl.detail("bad-argument", "players= must be 2..10, got 11") == "players= moet 2..10 zijn, niet 11"


def test_every_command_says_what_it_does_in_every_language():
    from shooter.commands.table import COMMANDS
    for spec, _ in COMMANDS:
        key = "help." + " ".join(spec.words)
        assert Messages("en")(key) == spec.summary, key   # English: the command table's own words
        assert Messages("nl")(key).strip() and Messages("nl")(key) != spec.summary, key


def test_counts_pick_none_one_or_many():
    en = Messages("en")
    assert [en.count("cards.left", n) for n in (0, 1, 2)] == ["no cards left", "1 card left", "2 cards left"]
    assert en.count("ev.owed", 1, who="Ann", reason="Hit 2") == "Ann owes 1 press (Hit 2)."
    assert en.count("ev.owed", 3, who="Ann", presses=3, reason="Hit 2") == "Ann owes 3 presses (Hit 2)."


def test_detail_never_fails_on_any_text():
    from hypothesis import given, strategies as st

    @given(st.sampled_from(LANGUAGES), st.text(max_size=200))
    def check(lang, text):
        said = Messages(lang).detail("bad-argument", text)
        assert isinstance(said, str) and (text in said or lang != "en" or said == text)
    check()
