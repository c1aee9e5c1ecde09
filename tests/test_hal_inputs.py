"""Debouncing on our clock: button, lid and exit sensor, on the simulator's pins."""

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import Rig


def test_a_bouncing_button_is_one_press(rig):
    presses = []
    rig.hw.button.on_press = lambda: presses.append(rig.clock.now())
    rig.world.press_button()
    rig.settle()
    assert len(presses) == 1


@settings(max_examples=40, deadline=None)
@given(bounces=st.lists(st.floats(0.0001, 0.004), min_size=1, max_size=12),
       hold=st.floats(0.03, 0.5))
def test_any_contact_bounce_shorter_than_the_debounce_is_one_press(bounces, hold):
    r = Rig()
    presses = []
    r.hw.button.on_press = lambda: presses.append(1)
    pin = r.pin("button")
    t = 0.0
    level = False
    for gap in bounces:  # edges closer together than the 20 ms debounce
        r.clock.call_at(t, lambda lv=level: pin.drive(lv))
        level = not level
        t += gap
    r.clock.call_at(t, lambda: pin.drive(False))
    r.clock.call_at(t + hold, lambda: pin.drive(True))
    r.settle()
    r.hw.close()
    assert presses == [1]


def test_a_glitch_shorter_than_the_debounce_is_no_press(rig):
    presses = []
    rig.hw.button.on_press = lambda: presses.append(1)
    pin = rig.pin("button")
    pin.drive(False)
    rig.wait(0.005)
    pin.drive(True)
    rig.settle()
    assert presses == []


def test_two_separate_presses_are_two_presses(rig):
    presses = []
    rig.hw.button.on_press = lambda: presses.append(1)
    rig.world.press_button()
    rig.settle()
    rig.world.press_button()
    rig.settle()
    assert presses == [1, 1]


def test_lid_opening_acts_at_once(rig):
    seen = []
    rig.hw.on_lid_open = lambda: seen.append(rig.clock.now())
    t = rig.clock.now()
    rig.world.open_lid()
    rig.settle()
    assert seen == [t]
    assert rig.hw.lid.is_open


def test_lid_closing_is_debounced(rig):
    closes = []
    rig.world.open_lid()
    rig.settle()
    rig.hw.lid.on_close = lambda: closes.append(rig.clock.now())
    t = rig.clock.now()
    rig.world.close_lid()  # bounces a few times, then stays closed
    rig.wait(0.2)
    assert closes == [] and rig.hw.lid.is_open
    rig.settle()
    assert len(closes) == 1
    assert closes[0] == pytest.approx(t + rig.hw.settings.inputs.lid_close_debounce, abs=0.01)
    assert not rig.hw.lid.is_open


def test_exit_sensor_counts_every_card_of_a_burst(rig):
    cards = []
    rig.hw.exit_sensor.on_card = lambda: cards.append(rig.clock.now())
    rig.hw.motor.forward()
    rig.wait(1.0)
    rig.hw.motor.stop()
    rig.settle()
    assert len(cards) == rig.world.cards_out > 5
    assert rig.world.accounted()


def test_exit_sensor_works_with_an_active_high_receiver(make_rig):
    from dataclasses import replace

    from hal import HardwareSettings, InputSettings
    r = make_rig(settings=HardwareSettings(inputs=replace(InputSettings(), exit_active_low=False)))
    cards = []
    r.hw.exit_sensor.on_card = lambda: cards.append(1)
    r.hw.motor.forward()
    r.wait(0.5)
    r.hw.motor.stop()
    r.settle()
    assert len(cards) == r.world.cards_out > 0
