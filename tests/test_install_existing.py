"""install.sh meeting what is already on the Pi (issue 31, items 4-6): a bad config of any kind, an install killed
halfway, a state directory that is a symlink. Against the fake root of tests/test_install.py."""

from __future__ import annotations

import hashlib
import random

import pytest

from tests.test_install import Fake, fake, make_fake, snapshot, write_config  # noqa: F401  (fake: a fixture)

CONFIG = "etc/uno-shooter/config.toml"

# Configs an installer may meet (the kinds of issue 31 item 4 and their neighbours): each is refused by the
# program's loader; install.sh must say so in one line and never print a traceback.
BAD_CONFIGS = {
    "web is not a table": b"web = 1\n",
    "hardware is not a table": b'hardware = "sysfs"\n',
    "web is a list": b"[[web]]\nlisten = \"0.0.0.0:8080\"\n",
    "listen is not a string": b"[web]\nlisten = 8080\n",
    "not UTF-8": b"[web]\nlisten = \"0.0.0.0:8080\" # \xff\xfe\n",
    "nested deeply (arrays)": b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "nested deeply (tables)": b"a = " + b"{b = " * 3000 + b"1" + b"}" * 3000 + b"\n",
    "not TOML": b"[web\n",
    "a NUL byte": b"[web]\x00\n",
    "servo_backend unknown": b'[hardware]\nservo_backend = "pwm"\n',
}


def refused_in_one_line(fake: Fake, args: tuple[str, ...]) -> tuple[bool, str]:
    before = snapshot(fake.root)
    fake.clear()
    out = fake.run(*args)
    lines = out.stderr.splitlines()
    good = (out.returncode == 6 and "Traceback" not in out.stderr + out.stdout and len(lines) >= 1
            and all(line.startswith(("install.sh: error: ", "uno-shooter: config: ")) for line in lines)
            and snapshot(fake.root) == before and not any(c.startswith("systemctl") for c in fake.changes()))
    return good, f"exit {out.returncode}: {out.stderr[-600:]}"


@pytest.mark.parametrize("kind", sorted(BAD_CONFIGS))
def test_dry_run_on_a_bad_config_refuses_in_one_line(fake, kind):
    config = fake.root / CONFIG
    config.parent.mkdir(parents=True)
    config.write_bytes(BAD_CONFIGS[kind])
    good, said = refused_in_one_line(fake, ("--dry-run",))
    assert good, said
    assert fake.run("--dry-run").stderr.count("\n") == 1   # exactly one line


def mutants(seed: int, count: int) -> list[bytes]:
    """A valid config cut, doubled, byte-flipped and re-nested at random."""
    base = (b'[hardware]\nservo_backend = "sysfs"\n\n[web]\nlisten = "0.0.0.0:8080"\n'
            b'\n[console]\nserial = ["/dev/ttyGS0"]\n')
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        text = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            op, at = rng.randrange(4), rng.randrange(len(text))
            if op == 0:
                text[at] = rng.randrange(256)
            elif op == 1:
                del text[at:at + rng.randint(1, 12)]
            elif op == 2:
                text[at:at] = rng.choice([b"[", b"]", b"{", b"=", b"\"", b"\n[web]\n", b"web = 1\n", b"\xc3"])
            else:
                text[at:at] = rng.choice([b"[", b"{a="]) * rng.randint(100, 2000)
        out.append(bytes(text))
    return out


def test_fuzzed_configs_are_read_or_refused_in_one_line_never_a_traceback(tmp_path):
    """Every mutant: the dry run reads it (exit 0) or refuses it in one line (exit 6); never a traceback."""
    for i, text in enumerate(mutants(31, 12)):
        fake = make_fake(tmp_path / str(i))
        config = fake.root / CONFIG
        config.parent.mkdir(parents=True)
        config.write_bytes(text)
        out = fake.run("--dry-run")
        assert "Traceback" not in out.stderr + out.stdout, (text[:200], out.stderr[-600:])
        assert out.returncode in (0, 6), (text[:200], out.returncode, out.stderr[-600:])
        if out.returncode == 6:
            assert out.stderr.count("\n") == 1, (text[:200], out.stderr)


def test_a_real_run_on_a_bad_config_changes_no_unit_and_starts_nothing(fake):
    write_config(fake, "web = 1\n")
    out = fake.run()
    assert out.returncode == 6 and "Traceback" not in out.stderr
    assert not any(c.startswith("systemctl") for c in fake.changes())


OLDER = "extras=pi5,web source=older\n"


def update(fake: Fake) -> None:
    """As after a git pull: the installed source and the venv's stamp are older than the checkout's, and the
    service runs that older code (the fake's record of it, and the installer's record of the restart)."""
    (fake.root / "opt/uno-shooter/src/README.md").write_text("an older README\n")
    (fake.root / "opt/uno-shooter/venv/.uno-shooter-install").write_text(OLDER)
    (fake.state / "running-uno-shooter.service").write_text(OLDER)
    record = fake.root / "opt/uno-shooter/.uno-shooter-started"
    if record.exists():   # written by this installer: what an install of the older code would have written
        code = hashlib.sha256(OLDER.encode() + (fake.root / CONFIG).read_bytes()).hexdigest()
        record.write_text(f"code={code}\n" + record.read_text().splitlines()[1] + "\n")


def running(fake: Fake) -> str:
    """The stamp of the code the fake service was last started from (the systemctl stub keeps it)."""
    return (fake.state / "running-uno-shooter.service").read_text()


def installed(fake: Fake) -> str:
    return (fake.root / "opt/uno-shooter/venv/.uno-shooter-install").read_text()


def test_an_update_killed_before_the_restart_restarts_on_the_next_run(fake):
    assert fake.run().returncode == 0
    update(fake)
    fake.clear()
    (fake.state / "kill-systemctl").touch()   # killed at the restart: the new code installed, the old one runs
    assert fake.run().returncode != 0
    assert installed(fake) != OLDER and running(fake) == OLDER   # the new code installed, the old one runs
    fake.clear()
    out = fake.run()
    assert out.returncode == 0, out.stderr
    assert "systemctl restart uno-shooter.service" in fake.changes()
    assert "Nothing to change" not in out.stdout
    assert running(fake) == installed(fake)
    assert "Nothing to change" in fake.run().stdout


def calls_of_an_update(base) -> int:
    fake = make_fake(base)
    assert fake.run().returncode == 0
    update(fake)
    fake.clear()
    assert fake.run().returncode == 0
    return len(fake.calls())


def kill_at_every_call(tmp_path, fresh: bool) -> tuple[int, int, list[str]]:
    """A fresh install (or an update) killed (SIGKILL) at each call it makes, then run again: how many runs
    ended with the new code running and a third run changing nothing; the ones that did not."""
    if fresh:
        probe = make_fake(tmp_path / "probe")
        assert probe.run().returncode == 0
        n = len(probe.calls())
    else:
        n = calls_of_an_update(tmp_path / "probe")
    tried, survived, bad = 0, 0, []
    for at in range(1, n + 1):
        fake = make_fake(tmp_path / str(at))
        if not fresh:
            assert fake.run().returncode == 0
            update(fake)
            fake.clear()
        (fake.state / "kill-at").write_text(str(at))
        fake.run()
        tried += 1
        rerun = fake.run()
        again = fake.run()
        if (rerun.returncode == 0 and "Nothing to change" in again.stdout
                and (fake.state / "running-uno-shooter.service").exists() and running(fake) == installed(fake)):
            survived += 1
        else:
            bad.append(f"killed at call {at}: {rerun.returncode} {rerun.stderr[-300:]} {again.stdout[-200:]}")
    return tried, survived, bad


def state_link(fake: Fake, installed_before: bool) -> None:
    """/var/lib/uno-shooter a symlink to a folder on a USB stick (owned by root, as a stick mounts)."""
    stick = fake.root / "media/usb/uno-state"
    stick.mkdir(parents=True)
    (stick / "game.json").write_text("{}")
    state = fake.root / "var/lib/uno-shooter"
    if installed_before:
        assert fake.run().returncode == 0
        state.rename(fake.root / "var/lib/uno-shooter.old")
    else:
        state.parent.mkdir(parents=True)
    state.symlink_to(stick)


@pytest.mark.parametrize("installed_before", [False, True])
@pytest.mark.parametrize("args", [(), ("--dry-run",)])
def test_a_state_directory_that_is_a_symlink_is_refused_in_one_line(fake, installed_before, args):
    state_link(fake, installed_before)
    stick = fake.root / "media/usb/uno-state"
    before = snapshot(fake.root)
    stick_mode = stick.stat().st_mode
    fake.clear()
    out = fake.run(*args)
    assert out.returncode == 7, out.stdout + out.stderr
    assert out.stderr.splitlines() == [
        "install.sh: error: /var/lib/uno-shooter is a symlink or under one (to /media/usb/uno-state): the state must"
        " be a real directory; to keep it on another disk, bind-mount that disk on /var/lib/uno-shooter"
        ' (docs/install.md)']
    assert snapshot(fake.root) == before and stick.stat().st_mode == stick_mode
    assert fake.changes() == []


def test_a_state_directory_under_a_symlink_is_refused_too(fake):
    (fake.root / "srv/lib").mkdir(parents=True)
    (fake.root / "var").mkdir()
    (fake.root / "var/lib").symlink_to(fake.root / "srv/lib")
    out = fake.run("--dry-run")
    assert out.returncode == 7 and "(to /srv/lib/uno-shooter)" in out.stderr
    assert fake.changes() == []
