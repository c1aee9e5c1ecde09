"""Property: over random command sequences through the console, every rejected command answers an
error code of the protocol and leaves `status` byte-identical (issue: the table, "Must show")."""

from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.app import App
from shooter.config import parse_config
from shooter.protocol import ERROR_CODES, dumps

CARDS = ["1", "5", "9", "number", "skip", "reverse", "hit2", "hit4", "discard-all", "wild", "extreme-hit", "blank",
         "joker", "HIT2"]
SEATS = st.integers(0, 11)

COMMAND = st.one_of(
    st.builds(lambda n, d, e, s, lim: f"game new players={n}" + (f" dealer={d}" if d else "") +
              (f" edition={e}" if e else "") + (f" scoring={s}" if s else "") + (f" limit={lim}" if lim else ""),
              st.integers(1, 11), st.sampled_from([None, "1", "3", "random", "x"]),
              st.sampled_from([None, "2016", "2010", "1999"]),
              st.sampled_from([None, "winner", "lowest", "elimination", "most"]),
              st.sampled_from([None, 30, 500, 0])),
    st.builds(lambda c, d: f"round start first={c}" + (f" dealer={d}" if d is not None else ""),
              st.sampled_from(CARDS), st.one_of(st.none(), SEATS)),
    st.builds(lambda c, s, t, last: f"play {c}" + (f" seat={s}" if s is not None else "") +
              (f" target={t}" if t is not None else "") + (" last" if last else ""),
              st.sampled_from(CARDS), st.one_of(st.none(), SEATS), st.one_of(st.none(), SEATS), st.booleans()),
    st.just("press"), st.just("press"), st.just("press"),
    st.builds("uno seat={}".format, SEATS),
    st.builds("catch seat={}".format, SEATS),
    st.builds(lambda k, s: f"penalty {k} seat={s}", st.sampled_from(["advice", "wrong-card", "rude"]), SEATS),
    st.builds(lambda s, c: f"hand seat={s} cards={','.join(c)}", SEATS, st.lists(st.sampled_from(CARDS), max_size=4)),
    st.builds(lambda s, p: f"score seat={s} points={p}", SEATS, st.integers(-5, 2000)),
    st.just("undo"),
    st.builds(lambda c, d: "set" + (f" current={c}" if c is not None else "") + (f" direction={d}" if d else ""),
              st.one_of(st.none(), SEATS), st.sampled_from([None, "cw", "ccw", "up"])),
    st.builds("aim seat={}".format, SEATS),
    st.sampled_from(["sim lid open", "sim lid close", "sim jam", "sim button", "sim load cards=20", "status",
                     "bogus", "play", "game", "round start"]),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(COMMAND, min_size=5, max_size=40), st.integers(0, 50))
def test_rejected_commands_answer_an_error_code_and_leave_status_byte_identical(commands, seed):
    with App(parse_config({}), sim=True, virtual=True, seed=seed, log=lambda m: None) as app:
        app.loop.run_until_quiet()

        def send(line):
            out = []
            app.loop.post(lambda: app.controller.handle_line(line, out.append))
            app.loop.run_until_quiet()
            assert len(out) == 1
            return out[0]

        # a game most of the time, so that the game commands have something to act on
        send("game new players=3")
        send("round start first=5")
        for line in commands:
            before = dumps(send("status"))
            answer = send(line)
            if not answer["ok"]:
                assert answer["error"] in ERROR_CODES and answer["message"]
                assert dumps(send("status")) == before, line
