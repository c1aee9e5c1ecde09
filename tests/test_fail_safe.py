"""Fail safe and loud: an error anywhere in the loop stops the motor first and explains second."""

from shooter.app import App
from shooter.config import parse_config


def make_app():
    app = App(parse_config({}), sim=True, virtual=True, seed=3, log=lambda m: None)
    out = []
    app.controller.add_sink(out.append)
    app.loop.run_until_quiet()
    return app, out


def motor_on(app):
    pins = app.hw.settings.pins
    f = app.world.factory
    return f.sim_pin(pins.motor_forward).state > 0 or f.sim_pin(pins.motor_backward).state > 0


def line(app, text):
    replies = []
    app.loop.post(lambda: app.controller.handle_line(text, replies.append))
    app.loop.run_until_quiet()
    return replies[0]


def test_an_exception_in_a_loop_callback_stops_the_motor_and_reports_a_fault():
    app, out = make_app()
    with app:
        app.hw.motor.forward()
        assert motor_on(app)

        def broken():
            raise RuntimeError("boom")
        app.loop.post(broken)
        app.loop.run_until_quiet()
        assert not motor_on(app)
        faults = [e for e in out if e.get("event") == "fault"]
        assert faults and "boom" in faults[0]["reason"]
        assert line(app, "press")["error"] == "fault"


def test_an_exception_while_a_command_runs_still_gets_its_one_reply(mocker):
    from shooter.scheduler import Scheduler
    app, _out = make_app()
    with app:
        def broken_scheduler(_self):
            app.hw.motor.forward()
            raise ValueError("scheduler bug")
        mocker.patch.object(Scheduler, "next_press", broken_scheduler)
        answer = line(app, "press")
        assert answer["ok"] is False and answer["error"] == "internal"
        assert not motor_on(app)
        assert app.controller.launcher.state == "fault"


def test_a_fault_is_reset_by_opening_and_closing_the_lid():
    app, _out = make_app()
    with app:
        app.hw.motor.on_fault("max-on-time")
        assert line(app, "status")["shooter"]["state"] == "fault"
        line(app, "sim lid open")
        line(app, "sim lid close")
        assert line(app, "status")["shooter"]["state"] == "ready"
        assert line(app, "press")["ok"] is True


def test_closing_the_app_leaves_the_motor_off_even_mid_burst():
    app, _out = make_app()
    app.controller.launcher.enqueue(__import__("shooter.launcher", fromlist=["Shot"]).Shot(None, "draw", 10))
    app.loop.run_for(0.3)
    assert motor_on(app)
    app.close()
    assert not motor_on(app)
    app.close()  # safe twice
