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
