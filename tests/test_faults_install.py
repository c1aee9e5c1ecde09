"""The installer under faults: each system command it changes the system with fails once, or the installer is
killed (SIGKILL) at that command; the next run must finish the install, the run after it change nothing, and a
game already in the state directory must survive. Against the fake root of tests/test_install.py."""

import pytest

from tests.fault_runners import FaultResult
from tests.test_faults import record
from tests.test_install import WRITES, installed_files, make_fake

pytestmark = pytest.mark.faults

# The commands that change the system, in the order a fresh install first calls them.
COMMANDS = ("apt-get", "groupadd", "useradd", "chown", "python3", "pip", "systemctl")


@pytest.mark.parametrize("fault", ["fail", "kill"])
def test_an_install_cut_at_any_command_is_finished_by_the_next_run(tmp_path, fault):
    tried = survived = lost = 0
    for command in COMMANDS:
        tried += 1
        fake = make_fake(tmp_path / command)
        game = fake.root / "var/lib/uno-shooter/game.json"
        game.parent.mkdir(parents=True)
        game.write_text('{"a": "game"}')
        (fake.state / f"{fault}-{command}").touch()
        cut = fake.run()
        first_ok = cut.returncode != 0 and (fault == "kill" or cut.stderr.splitlines()[-1].startswith(
            "install.sh: error: step failed (status 1): "))
        finished = fake.run()
        again = fake.run()
        lost += game.read_text() != '{"a": "game"}'
        if (first_ok and finished.returncode == 0 and "Nothing to change" in again.stdout
                and installed_files(fake.root) >= WRITES
                and (fake.root / "opt/uno-shooter/venv/bin/uno-shooter").exists()):   # what pip installs
            survived += 1
        else:
            print(command, cut.returncode, cut.stderr, finished.returncode, finished.stderr, again.stdout)
    r = record(FaultResult(f"install.sh cut ({fault})", tried, survived, lost))
    assert r.survived == r.tried and r.lost == 0


def test_an_install_killed_at_every_call_ends_with_the_installed_code_running(tmp_path):
    """Issue 31 item 5: a fresh install and an update, each killed (SIGKILL) at every call it makes; the next run
    must leave the service running the code installed, and the run after it change nothing."""
    from tests.test_install_existing import kill_at_every_call
    for fresh in (True, False):
        tried, survived, bad = kill_at_every_call(tmp_path / str(fresh), fresh)
        r = record(FaultResult(f"install.sh killed at every call ({'fresh' if fresh else 'update'})", tried,
                               survived, 0))
        assert r.survived == r.tried, bad


def test_every_bad_existing_config_is_read_or_refused_in_one_line(tmp_path):
    """Issue 31 item 4: the kinds of bad config, and fuzzed ones, with --dry-run and for real: read, or refused in
    one line with nothing changed; never a traceback. Lost: the config's bytes differ after."""
    from tests.test_install_existing import BAD_CONFIGS, mutants, refused_in_one_line
    tried = survived = lost = 0
    for i, text in enumerate([*BAD_CONFIGS.values(), *mutants(7, 12)]):
        fake = make_fake(tmp_path / str(i))
        config = fake.root / "etc/uno-shooter/config.toml"
        config.parent.mkdir(parents=True)
        config.write_bytes(text)
        tried += 1
        dry_run_refused, _ = refused_in_one_line(fake, ("--dry-run",))   # refused: nothing changed
        dry_run = fake.run("--dry-run")
        fake.clear()
        real = fake.run()   # the steps before the config's are taken; no unit written, no service started
        survived += ((dry_run_refused or dry_run.returncode == 0) and "Traceback" not in dry_run.stderr
                     and real.returncode == dry_run.returncode and "Traceback" not in real.stderr
                     and (real.returncode == 0 or not any(c.startswith("systemctl") for c in fake.changes())))
        lost += config.read_bytes() != text
    r = record(FaultResult("install.sh on a bad existing config", tried, survived, lost))
    assert r.survived == r.tried and r.lost == 0


def test_a_state_directory_that_is_a_symlink_is_never_half_taken(tmp_path):
    """Issue 31 item 6: /var/lib/uno-shooter a symlink (to a stick's folder), fresh or over an install, with
    --dry-run and for real: refused in one line with nothing changed; lost: the game on the stick differs after."""
    from tests.test_install_existing import state_link
    tried = survived = lost = 0
    for installed_before in (False, True):
        for args in ((), ("--dry-run",)):
            fake = make_fake(tmp_path / f"{installed_before}{len(args)}")
            state_link(fake, installed_before)
            stick = fake.root / "media/usb/uno-state"
            owner = (stick.stat().st_uid, stick.stat().st_mode)
            fake.clear()
            tried += 1
            out = fake.run(*args)
            survived += (out.returncode == 7 and out.stderr.count("\n") == 1 and fake.changes() == []
                         and (stick.stat().st_uid, stick.stat().st_mode) == owner)
            lost += (stick / "game.json").read_text() != "{}"
    r = record(FaultResult("install.sh on a symlinked state directory", tried, survived, lost))
    assert r.survived == r.tried and r.lost == 0
