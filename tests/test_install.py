"""install.sh against a fake root: a directory tree with a Pi's device-tree model and an /etc/os-release, and stubs
of the system commands first on PATH. The stubs log every call and keep a small fake system (users and groups,
installed Debian packages, enabled and active units); the chown stub really sets the owner, to the uid the fake
useradd gave, so the test reads owners from the files themselves.

Run as a script (``python tests/test_install.py``), it prints ``install.sh --dry-run`` on a fresh fake root and
checks that nothing was written (.ci/run)."""

from __future__ import annotations

import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent
INSTALL = REPO / "install.sh"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
BOOKWORM = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n'

# One stub for every system command the installer calls (by name, from PATH). $STUB_STATE holds the fake system.
STUB = r"""#!/usr/bin/env bash
set -u
name=$(basename "$0")
line="$name $*"
printf '%s\n' "${line//$'\n'/ }" >> "$STUB_STATE/calls.log"   # one line a call
s=$STUB_STATE
# faults (tests/test_faults_install.py): the next call of this command fails, or kills the installer
if [[ -e $s/fail-$name ]]; then rm -f "$s/fail-$name"; echo "$name: injected failure" >&2; exit 1; fi
if [[ -e $s/kill-$name ]]; then rm -f "$s/kill-$name"; kill -9 "$PPID"; exit 1; fi
# or the installer is killed (SIGKILL) at its Nth call of any command, from wherever it made the call
if [[ -e $s/kill-at && $(wc -l < "$s/calls.log") == "$(cat "$s/kill-at")" ]]; then
  rm -f "$s/kill-at"; p=$PPID
  while ((p > 1)) && ! grep -q install.sh "/proc/$p/cmdline"; do p=$(cut -d' ' -f4 "/proc/$p/stat"); done
  kill -9 "$p"; exit 1
fi
last() { local a; for a; do :; done; echo "$a"; }
# what a started service runs: the stamp of the venv it starts from, as it was then ($s/running-UNIT)
started() { cat "$UNO_SHOOTER_ROOT/opt/uno-shooter/venv/.uno-shooter-install" > "$s/running-$1" 2> /dev/null; }
next_id() { echo $((4200 + $(cat "$s/passwd" "$s/group" | wc -l))); }
case $name in
  id) [[ $1 == -u ]] && echo "${STUB_UID:-0}" ;;
  hostname) echo shooter ;;
  getent) grep "^$2:" "$s/$1" || exit 2 ;;
  groupadd) n=$(last "$@"); echo "$n:x:$(next_id):" >> "$s/group" ;;
  groupdel) sed -i "/^$1:/d" "$s/group" ;;
  useradd)
    groups=""; gid=""
    while (($# > 1)); do case $1 in --gid) gid=$2; shift ;; --groups) groups=$2; shift ;;
      --home-dir|--shell) shift ;; esac; shift; done
    gid=$(grep "^$gid:" "$s/group" | cut -d: -f3)
    echo "$1:x:$(next_id):$gid::/var/lib/uno-shooter:/usr/sbin/nologin" >> "$s/passwd"
    for g in ${groups//,/ }; do sed -i -E "/^$g:/{s/:$/:$1/;t;s/$/,$1/}" "$s/group"; done ;;
  usermod) g=$3; sed -i -E "/^$g:/{s/:$/:$4/;t;s/$/,$4/}" "$s/group" ;;
  userdel) sed -i "/^$1:/d" "$s/passwd"; sed -i -E "s/([:,])$1(,|$)/\1/; s/,$//" "$s/group" ;;
  chown)
    [[ $1 == -R ]] && { r=-R; shift; } || r=""
    u=$(grep "^${1%%:*}:" "$s/passwd" | cut -d: -f3); g=$(grep "^${1##*:}:" "$s/group" | cut -d: -f3)
    [[ -n $u && -n $g ]] || { echo "chown: invalid user: '$1'" >&2; exit 1; }
    /bin/chown $r "$u:$g" "$2" ;;
  dpkg-query) grep -qx "$(last "$@")" "$s/dpkg" && printf 'install ok installed' || exit 1 ;;
  apt-get) [[ $1 == install ]] && for p in "${@:4}"; do echo "$p" >> "$s/dpkg"; done; [[ ! -e $s/apt-fails ]] ;;
  systemctl)
    case $1 in
      is-enabled) grep -qx "$3" "$s/enabled" ;;
      is-active) grep -qx "$3" "$s/active" ;;
      enable) echo "$3" >> "$s/enabled"; echo "$3" >> "$s/active"; started "$3" ;;
      restart) started "$2" ;;
      disable) sed -i "/^$3$/d" "$s/enabled" "$s/active" ;;
    esac ;;
  python3)
    if [[ ${1:-} == -m && ${2:-} == venv ]]; then
      mkdir -p "$3/bin" && ln -sf "$REAL_PYTHON" "$3/bin/python" && ln -sf "$STUB_DIR/pip" "$3/bin/pip"
    else
      exec "$REAL_PYTHON" "$@"
    fi ;;
  pip)
    [[ -e $s/pip-fails ]] && { echo "pip: no network" >&2; exit 1; }
    venv=$(dirname "$(dirname "$0")")
    ln -sf "$STUB_DIR/stub" "$venv/bin/uno-shooter" ;;   # the program pip would install: this checkout's, logged
  uno-shooter) PYTHONPATH=$REPO exec "$REAL_PYTHON" -m shooter "$@" ;;
esac
"""
STUBBED = ("id", "hostname", "getent", "groupadd", "groupdel", "useradd", "usermod", "userdel", "chown", "dpkg-query",
           "apt-get", "systemctl", "python3", "pip")
# Calls that only look: every other logged call changes the system.
LOOKS = ("id ", "hostname", "getent ", "dpkg-query ", "systemctl is-enabled ", "systemctl is-active ",
         "uno-shooter check-config ")


@dataclass
class Fake:
    root: Path
    state: Path
    env: dict

    def run(self, *args: str, uid: int = 0) -> subprocess.CompletedProcess:
        env = dict(self.env, STUB_UID=str(uid))
        return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, env=env, timeout=120)

    def calls(self) -> list[str]:
        log = self.state / "calls.log"
        return log.read_text().splitlines() if log.exists() else []

    def changes(self) -> list[str]:
        """The logged calls that change the system (python3 running a script only looks too)."""
        return [c for c in self.calls() if not c.startswith(LOOKS) and not (c.startswith("python3 ")
                                                                            and " -m venv " not in c + " ")]

    def clear(self) -> None:
        (self.state / "calls.log").unlink(missing_ok=True)

    def uid(self, name: str, db: str = "passwd") -> int:
        line = next(line for line in (self.state / db).read_text().splitlines() if line.startswith(name + ":"))
        return int(line.split(":")[2])

    def members(self, group: str) -> list[str]:
        line = next(line for line in (self.state / "group").read_text().splitlines() if line.startswith(group + ":"))
        return [m for m in line.split(":")[3].split(",") if m]


def make_fake(base: Path, model: str | None = PI5, os_release: str | None = BOOKWORM, bluez: bool = True) -> Fake:
    root, state, stubs = base / "root", base / "state", base / "stubs"
    for d in (root, state, stubs):
        d.mkdir(parents=True)
    if model is not None:
        (root / "proc" / "device-tree").mkdir(parents=True)
        (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    if os_release is not None:
        (root / "etc").mkdir()
        (root / "etc" / "os-release").write_text(os_release)
    if bluez:
        (root / "usr" / "bin").mkdir(parents=True)
        for tool in ("rfcomm", "sdptool"):
            (root / "usr" / "bin" / tool).write_text("#!/bin/sh\n")
            (root / "usr" / "bin" / tool).chmod(0o755)
    (state / "passwd").write_text("root:x:0:0::/root:/bin/bash\n")
    (state / "group").write_text("root:x:0:\ngpio:x:997:\ndialout:x:20:\n")   # a Pi has both
    for f in ("dpkg", "enabled", "active"):
        (state / f).write_text("")
    (stubs / "stub").write_text(STUB)
    (stubs / "stub").chmod(0o755)
    for name in STUBBED:
        (stubs / name).symlink_to("stub")
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "UNO_SHOOTER_ROOT": str(root), "STUB_STATE": str(state),
           "STUB_DIR": str(stubs), "REAL_PYTHON": sys.executable, "REPO": str(REPO), "LANG": "C.UTF-8",
           "TMPDIR": str(base)}
    return Fake(root, state, env)


@pytest.fixture
def fake(tmp_path) -> Fake:
    return make_fake(tmp_path)


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under root: its mode, owner and content (or link target)."""
    out = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        content = os.readlink(path) if path.is_symlink() else path.read_bytes() if path.is_file() else None
        out[str(path.relative_to(root))] = (stat.filemode(st.st_mode), st.st_uid, st.st_gid, content)
    return out


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def installed_files(root: Path) -> set[str]:
    """The files under root, the source tree and the venv counted as one each."""
    out = set()
    for path in root.rglob("*"):
        rel = str(path.relative_to(root))
        if rel.startswith(("opt/uno-shooter/src/", "opt/uno-shooter/venv/bin/")) or not path.is_file():
            continue
        out.add(rel)
    return out


FAKE_SYSTEM = {"proc/device-tree/model", "etc/os-release", "usr/bin/rfcomm", "usr/bin/sdptool"}
WRITES = {"etc/uno-shooter/config.toml", "etc/systemd/system/uno-shooter.service",
          "etc/systemd/system/uno-shooter-rfcomm.service",
          "etc/systemd/system/bluetooth.service.d/uno-shooter.conf", "opt/uno-shooter/venv/.uno-shooter-install",
          "opt/uno-shooter/.uno-shooter-started"}


def test_a_fresh_pi_5_gets_every_step_of_the_bring_up(fake):
    out = fake.run()
    assert out.returncode == 0, out.stderr
    calls = fake.changes()
    # the packages lgpio builds against, the groups, the user in them
    assert "apt-get install -y --no-install-recommends python3-venv python3-dev swig liblgpio-dev" in calls
    assert "groupadd --system uno-shooter" in calls
    assert not any(c.startswith("groupadd --system gpio") or c.startswith("groupadd --system dialout") for c in calls)
    assert ("useradd --system --gid uno-shooter --groups gpio,dialout --no-create-home --home-dir /var/lib/uno-shooter"
            " --shell /usr/sbin/nologin uno-shooter") in calls
    assert fake.members("gpio") == ["uno-shooter"] and fake.members("dialout") == ["uno-shooter"]
    # every file it writes: nothing else
    assert installed_files(fake.root) == FAKE_SYSTEM | WRITES
    # the state directory: 0750, owned by the service's user and group (the real owner, set by the chown stub)
    state = fake.root / "var/lib/uno-shooter"
    assert state.is_dir() and mode(state) == 0o750
    assert (state.stat().st_uid, state.stat().st_gid) == (fake.uid("uno-shooter"), fake.uid("uno-shooter", "group"))
    assert f"chown -R uno-shooter:uno-shooter {state}" in calls
    # the source, as README's tar copies it: every file of the checkout but .git and the caches
    src = fake.root / "opt/uno-shooter/src"
    for rel in ("README.md", "install.sh", "shooter/cli.py", "systemd/uno-shooter.service", "pyproject.toml"):
        assert (src / rel).read_bytes() == (REPO / rel).read_bytes(), rel
    assert not (src / ".git").exists() and not list(src.rglob("__pycache__"))
    # the venv with this Pi's extras
    venv = fake.root / "opt/uno-shooter/venv"
    assert f"python3 -m venv {venv}" in calls
    assert f"pip install --no-cache-dir {src}[pi5,web]" in calls
    # the config: the example with the phone page on; 0644; checked by the program itself
    config = fake.root / "etc/uno-shooter/config.toml"
    example = (REPO / "config.example.toml").read_text().splitlines()
    written = config.read_text().splitlines()
    assert [(a, b) for a, b in zip(example, written, strict=True) if a != b] == \
        [(next(line for line in example if line.startswith('listen = "off"')),
          next(line for line in written if line.startswith('listen = "0.0.0.0:8080"')))]
    assert mode(config) == 0o644
    assert f"uno-shooter check-config {config}" in fake.calls()
    # the units and the Bluetooth drop-in, as in systemd/, 0644; no servo drop-in with the gpiozero backend
    units = fake.root / "etc/systemd/system"
    for rel, source in (("uno-shooter.service", "uno-shooter.service"),
                        ("uno-shooter-rfcomm.service", "uno-shooter-rfcomm.service"),
                        ("bluetooth.service.d/uno-shooter.conf", "bluetooth-compat.conf")):
        assert (units / rel).read_bytes() == (REPO / "systemd" / source).read_bytes() and mode(units / rel) == 0o644
    assert not (units / "uno-shooter.service.d").exists()
    systemctl = [c for c in calls if c.startswith("systemctl")]
    assert systemctl == ["systemctl daemon-reload", "systemctl restart bluetooth.service",
                         "systemctl enable --now uno-shooter.service",
                         "systemctl enable --now uno-shooter-rfcomm.service"]
    # everything but the state directory is root's and writable by root alone
    for path in [*(fake.root / "opt").rglob("*"), *(fake.root / "etc").rglob("*")]:
        if not path.is_symlink():
            st = path.stat()
            assert (st.st_uid, st.st_gid, st.st_mode & 0o022) == (0, 0, 0), path
    # the page's address and its QR code
    assert "Open the phone page on a phone in this network: http://shooter.local:8080" in out.stdout
    assert "\u2588\u2580\u2580\u2580\u2580\u2580\u2588" in out.stdout   # a finder pattern's top edge


def test_a_second_run_changes_nothing_and_says_so(fake):
    assert fake.run().returncode == 0
    (fake.root / "var/lib/uno-shooter/game.json").write_text("{}")   # the service saved a game meanwhile
    before = snapshot(fake.root)
    fake.clear()
    out = fake.run()
    assert out.returncode == 0, out.stderr
    assert fake.changes() == []
    assert snapshot(fake.root) == before
    assert "Nothing to change: uno-shooter is installed, enabled and running." in out.stdout
    assert "run:" not in out.stdout and "http://shooter.local:8080" in out.stdout


def test_a_changed_source_is_copied_reinstalled_and_the_service_restarted(fake):
    assert fake.run().returncode == 0
    fake.clear()
    # as after a git pull: the installed source and the venv's are older than the checkout's
    (fake.root / "opt/uno-shooter/src/README.md").write_text("an older README\n")
    (fake.root / "opt/uno-shooter/venv/.uno-shooter-install").write_text("extras=pi5,web source=older\n")
    out = fake.run()
    assert out.returncode == 0, out.stderr
    changes = fake.changes()
    assert changes[0].startswith("pip install") and changes[1:] == ["systemctl restart uno-shooter.service"]
    assert (fake.root / "opt/uno-shooter/src/README.md").read_bytes() == (REPO / "README.md").read_bytes()


def test_the_readmes_install_example_is_what_it_prints(fake):
    readme = (REPO / "docs" / "bringup.md").read_text()
    block = readme.split("\n```\nInstalling uno-shooter", 1)[1].split("```", 1)[0]
    shown = [line for line in ("Installing uno-shooter" + block).splitlines() if line.strip() not in ("", "...")]
    out = fake.run()
    printed = out.stdout.replace(f" into {fake.root} (", " into / (").splitlines()
    assert [line for line in shown if line not in printed] == []


def test_dry_run_prints_every_step_and_writes_nothing(fake):
    before = snapshot(fake.root)
    out = fake.run("--dry-run")
    assert out.returncode == 0, out.stderr
    assert snapshot(fake.root) == before
    assert fake.changes() == []
    steps = [line.split("would run: ", 1)[1] for line in out.stdout.splitlines() if "would run: " in line]
    for step in ("apt-get install -y --no-install-recommends python3-venv python3-dev swig liblgpio-dev",
                 "groupadd --system uno-shooter", "useradd --system --gid uno-shooter --groups gpio,dialout",
                 f"mkdir -p {fake.root}/var/lib/uno-shooter", f"chmod 0750 {fake.root}/var/lib/uno-shooter",
                 f"chown -R uno-shooter:uno-shooter {fake.root}/var/lib/uno-shooter",
                 f"copy_tree {fake.env['TMPDIR']}", f"python3 -m venv {fake.root}/opt/uno-shooter/venv",
                 f"{fake.root}/opt/uno-shooter/venv/bin/pip install --no-cache-dir "
                 f"{fake.root}/opt/uno-shooter/src[pi5,web]",
                 f"config_from_example {fake.root}/etc/uno-shooter/config.toml",
                 f"install -D -m 0644 {REPO}/systemd/uno-shooter.service "
                 f"{fake.root}/etc/systemd/system/uno-shooter.service",
                 "systemctl daemon-reload", "systemctl enable --now uno-shooter.service",
                 "systemctl enable --now uno-shooter-rfcomm.service"):
        assert any(s.startswith(step) for s in steps), step
    assert f"Dry run: {len(steps)} steps would change the system; nothing was changed." in out.stdout
    assert "http://shooter.local:8080" in out.stdout


def test_dry_run_needs_no_root_and_a_real_run_does(fake):
    before = snapshot(fake.root)
    assert fake.run("--dry-run", uid=1000).returncode == 0
    out = fake.run(uid=1000)
    assert out.returncode == 3
    assert out.stderr == "install.sh: error: must run as root: sudo ./install.sh\n"
    out = fake.run("--uninstall", uid=1000)
    assert (out.returncode, out.stderr) == (3, "install.sh: error: must run as root: sudo ./install.sh --uninstall\n")
    assert snapshot(fake.root) == before and fake.changes() == []


@pytest.mark.parametrize(("model", "extra", "packages"), [
    ("Raspberry Pi 4 Model B Rev 1.4", "pi4", "python3-venv python3-dev"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "pi4", "python3-venv python3-dev"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi4", "python3-venv python3-dev"),
    ("Raspberry Pi 500 Rev 1.0", "pi5", "python3-venv python3-dev swig liblgpio-dev"),
    ("Raspberry Pi Compute Module 5 Rev 1.0", "pi5", "python3-venv python3-dev swig liblgpio-dev"),
])
def test_the_extras_follow_the_pi_model(tmp_path, model, extra, packages):
    fake = make_fake(tmp_path, model=model)
    out = fake.run()
    assert out.returncode == 0, out.stderr
    assert f"apt-get install -y --no-install-recommends {packages}" in fake.changes()
    assert any(c.endswith(f"src[{extra},web]") for c in fake.changes())
    assert f"({model})" in out.stdout


def test_the_model_is_also_read_from_sys_firmware(tmp_path):
    fake = make_fake(tmp_path, model=None)
    path = fake.root / "sys/firmware/devicetree/base/model"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    assert fake.run().returncode == 0
    assert any(c.endswith("src[pi4,web]") for c in fake.changes())


@pytest.mark.parametrize(("args", "extra"), [(("--model", "pi4"), "pi4"), (("--model=pi5",), "pi5"),
                                             (("--force",), "pi5")])
def test_not_a_pi_installs_only_with_a_model_or_force(tmp_path, args, extra):
    fake = make_fake(tmp_path, model=None)
    before = snapshot(fake.root)
    out = fake.run()
    assert out.returncode == 4
    assert out.stderr == ("install.sh: error: not a Raspberry Pi (no /proc/device-tree/model): --model pi5|pi4 or "
                          "--force installs anyway\n")
    assert snapshot(fake.root) == before and fake.changes() == []
    out = fake.run(*args)
    assert out.returncode == 0, out.stderr
    assert any(c.endswith(f"src[{extra},web]") for c in fake.changes())


@pytest.mark.parametrize(("release", "named"), [
    ('ID=debian\nVERSION_ID="11"\nVERSION_CODENAME=bullseye\n', "debian 11 (bullseye)"),
    ('ID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\nVERSION_CODENAME=noble\n', "ubuntu 24.04 (noble)"),
    ('ID=raspbian\nVERSION_ID="10"\nVERSION_CODENAME=buster\n', "raspbian 10 (buster)"),
    ("", "unknown ? (?)"),
])
def test_an_unsupported_os_is_refused_in_one_line(tmp_path, release, named):
    fake = make_fake(tmp_path, os_release=release)
    before = snapshot(fake.root)
    out = fake.run()
    assert out.returncode == 5
    assert out.stderr == (f"install.sh: error: unsupported OS: {named}; needs Raspberry Pi OS Bookworm (12) or newer "
                          "(--force installs anyway)\n")
    assert snapshot(fake.root) == before and fake.changes() == []
    assert fake.run("--force").returncode == 0


@pytest.mark.parametrize("release", ['ID=raspbian\nVERSION_ID="12"\n', 'ID=debian\nVERSION_ID="13"\n',
                                     "ID=debian\nVERSION_CODENAME=forky\n"])
def test_bookworm_and_newer_are_supported(tmp_path, release):
    assert make_fake(tmp_path, os_release=release).run("--dry-run").returncode == 0


def test_no_os_release_is_refused(tmp_path):
    out = make_fake(tmp_path, os_release=None).run()
    assert (out.returncode, out.stderr) == (5, "install.sh: error: no /etc/os-release: not Raspberry Pi OS "
                                               "(--force installs anyway)\n")


@pytest.mark.parametrize(("args", "error"), [
    (("--bogus",), "unknown option '--bogus' (install.sh --help lists them)"),
    (("--model",), "--model needs an extra: pi5 or pi4"),
    (("--model", "pi3"), "--model 'pi3' is not an extra of a Pi: pi5 or pi4"),
])
def test_a_bad_option_is_named_in_one_line_and_changes_nothing(fake, args, error):
    out = fake.run(*args)
    assert (out.returncode, out.stderr, out.stdout) == (2, f"install.sh: error: {error}\n", "")
    assert fake.calls() == []


def test_fuzzed_arguments_get_one_line_and_change_nothing(fake):
    rng = random.Random(17)
    alphabet = "-=abcdefmopirtuxyz59 \t\"'$;*\u00e9"
    for _ in range(40):
        junk = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(rng.randint(1, 3))]
        if any(j in ("--dry-run", "--uninstall", "--force", "-h", "--help") or j.startswith("--model")
               for j in junk):
            continue
        out = fake.run(*junk)
        assert out.returncode == 2 and out.stdout == "", junk
        assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("install.sh: error: "), junk
    assert fake.calls() == []


def test_help_lists_the_options_and_the_exit_codes(fake):
    out = fake.run("--help")
    assert out.returncode == 0 and fake.calls() == []
    for option in ("--dry-run", "--model EXTRA", "--force", "--uninstall", "-h, --help", "UNO_SHOOTER_ROOT"):
        assert option in out.stdout, option
    for code in range(7):
        assert f"\n  {code}  " in out.stdout, code


def write_config(fake: Fake, text: str) -> Path:
    """A config already on the Pi (with a console: check-config refuses a config without one)."""
    config = fake.root / "etc/uno-shooter/config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text + '\n[console]\nserial = ["/dev/ttyGS0"]\n')
    return config


def test_a_kept_config_is_not_touched_and_names_the_pages_port(fake):
    config = write_config(fake, '[web]\nlisten = "0.0.0.0:9090"\n')
    config.chmod(0o600)
    before = config.read_bytes()
    out = fake.run()
    assert out.returncode == 0, out.stderr
    assert config.read_bytes() == before and mode(config) == 0o600
    assert "ok: /etc/uno-shooter/config.toml (kept as it is)" in out.stdout
    assert "http://shooter.local:9090" in out.stdout


@pytest.mark.parametrize(("listen", "said"), [
    ("off", 'The phone page is off: set listen = "0.0.0.0:8080" in [web] of /etc/uno-shooter/config.toml'),
    ("127.0.0.1:8081", "The phone page listens on this machine only"),
])
def test_a_page_that_is_off_or_local_gets_no_qr_code(fake, listen, said):
    write_config(fake, f'[web]\nlisten = "{listen}"\n')
    out = fake.run()
    assert out.returncode == 0, out.stderr
    assert said in out.stdout and ".local:" not in out.stdout and "\u2588" not in out.stdout


def test_the_servo_drop_in_follows_the_configs_backend(fake):
    write_config(fake, '[hardware]\nservo_backend = "sysfs"\n\n[web]\nlisten = "0.0.0.0:8080"\n')
    assert fake.run().returncode == 0
    drop_in = fake.root / "etc/systemd/system/uno-shooter.service.d/servo-sysfs.conf"
    assert drop_in.read_bytes() == (REPO / "systemd/servo-sysfs.conf").read_bytes() and mode(drop_in) == 0o644
    fake.clear()
    write_config(fake, '[hardware]\nservo_backend = "gpiozero"\n')
    assert fake.run().returncode == 0
    assert not drop_in.exists()
    assert not drop_in.parent.exists()
    assert fake.changes() == ["systemctl daemon-reload", "systemctl restart uno-shooter.service"]


def test_without_bluez_the_bluetooth_units_are_left_out(tmp_path):
    fake = make_fake(tmp_path, bluez=False)
    assert fake.run().returncode == 0
    units = fake.root / "etc/systemd/system"
    assert sorted(str(p.relative_to(units)) for p in units.rglob("*")) == ["uno-shooter.service"]
    assert [c for c in fake.changes() if c.startswith("systemctl")] == \
        ["systemctl daemon-reload", "systemctl enable --now uno-shooter.service"]


@pytest.mark.parametrize(("text", "named"), [("[pins]\nbutton = 2\n", "pins.button: GPIO2 is not free"),
                                           ("[pins\n", "config.toml")])
def test_an_invalid_config_stops_before_the_service_starts(fake, text, named):
    write_config(fake, text)
    out = fake.run()
    assert out.returncode == 6
    assert named in out.stderr.splitlines()[0]
    assert out.stderr.splitlines()[-1] == ("install.sh: error: /etc/uno-shooter/config.toml is invalid (the line "
                                           "above names the key); fix it and run install.sh again")
    assert not any(c.startswith("systemctl") for c in fake.changes())
    assert not (fake.root / "etc/systemd/system").exists()


def test_a_failed_step_is_named_and_the_next_run_finishes_the_install(fake):
    (fake.state / "pip-fails").touch()
    out = fake.run()
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1].startswith("install.sh: error: step failed (status 1): ")
    assert "/bin/pip install --no-cache-dir " in out.stderr
    assert not (fake.root / "opt/uno-shooter/venv/.uno-shooter-install").exists()
    (fake.state / "pip-fails").unlink()
    fake.clear()
    out = fake.run()
    assert out.returncode == 0, out.stderr
    assert any(c.startswith("pip install") for c in fake.changes())
    assert "systemctl enable --now uno-shooter.service" in fake.changes()


def test_a_user_missing_a_group_is_added_to_it(fake):
    assert fake.run().returncode == 0
    group = (fake.state / "group").read_text().replace("gpio:x:997:uno-shooter", "gpio:x:997:")
    (fake.state / "group").write_text(group)
    fake.clear()
    assert fake.run().returncode == 0
    assert fake.changes() == ["usermod --append --groups gpio uno-shooter"]


def test_uninstall_removes_everything_but_the_state_directory(fake):
    assert fake.run().returncode == 0
    (fake.root / "var/lib/uno-shooter/game.json").write_text('{"a": "game"}')
    fake.clear()
    out = fake.run("--uninstall")
    assert out.returncode == 0, out.stderr
    assert installed_files(fake.root) == FAKE_SYSTEM | {"var/lib/uno-shooter/game.json"}
    assert not (fake.root / "opt/uno-shooter").exists() and not (fake.root / "etc/uno-shooter").exists()
    assert list((fake.root / "etc/systemd/system").iterdir()) == []
    changes = fake.changes()
    for call in ("systemctl disable --now uno-shooter.service", "systemctl disable --now uno-shooter-rfcomm.service",
                 "systemctl daemon-reload", "systemctl restart bluetooth.service", "userdel uno-shooter",
                 "groupdel uno-shooter"):
        assert call in changes, call
    assert "Kept the state directory /var/lib/uno-shooter" in out.stdout
    fake.clear()
    out = fake.run("--uninstall")
    assert out.returncode == 0 and fake.changes() == []
    assert "Nothing to remove: uno-shooter is not installed." in out.stdout and "Kept the state directory" in out.stdout


def test_uninstall_keeps_another_packages_bluetooth_drop_in(fake):
    assert fake.run().returncode == 0
    other = fake.root / "etc/systemd/system/bluetooth.service.d/other.conf"
    other.write_text("[Service]\n")
    assert fake.run("--uninstall").returncode == 0
    assert [p.name for p in other.parent.iterdir()] == ["other.conf"]


def test_uninstall_dry_run_changes_nothing(fake):
    assert fake.run().returncode == 0
    before = snapshot(fake.root)
    fake.clear()
    out = fake.run("--uninstall", "--dry-run")
    assert out.returncode == 0 and fake.changes() == [] and snapshot(fake.root) == before
    assert "would run: userdel uno-shooter" in out.stdout and "would run: rm -rf" in out.stdout


def test_a_reinstall_after_uninstall_gives_the_kept_state_to_the_new_user(fake):
    assert fake.run().returncode == 0
    game = fake.root / "var/lib/uno-shooter/game.json"
    game.write_text("{}")
    os.chown(game, fake.uid("uno-shooter"), fake.uid("uno-shooter", "group"))
    assert fake.run("--uninstall").returncode == 0
    (fake.state / "passwd").write_text((fake.state / "passwd").read_text() + "someone:x:9999:0::/:/bin/sh\n")
    assert fake.run().returncode == 0
    uid, gid = fake.uid("uno-shooter"), fake.uid("uno-shooter", "group")
    assert (game.stat().st_uid, game.stat().st_gid) == (uid, gid)


def test_running_the_installed_copy_again_changes_nothing(fake):
    assert fake.run().returncode == 0
    fake.clear()
    out = subprocess.run(["bash", str(fake.root / "opt/uno-shooter/src/install.sh")], capture_output=True, text=True,
                         env=dict(fake.env, STUB_UID="0"), timeout=120)
    assert out.returncode == 0, out.stderr
    assert "ok: /opt/uno-shooter/src (this is the installed source)" in out.stdout
    assert fake.changes() == [] and (fake.root / "opt/uno-shooter/src/install.sh").exists()


def test_the_installer_takes_the_user_and_groups_from_the_unit():
    unit = (REPO / "systemd/uno-shooter.service").read_text().splitlines()
    script = INSTALL.read_text()
    for key in ("User", "Group", "SupplementaryGroups", "StateDirectory", "StateDirectoryMode"):
        assert any(line.startswith(f"{key}=") for line in unit)
        assert f"unit_value {key})" in script
    assert "ExecStart=/opt/uno-shooter/venv/bin/uno-shooter run --config /etc/uno-shooter/config.toml" in unit


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt install shellcheck)")
def test_shellcheck_finds_nothing():
    out = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout


def show_dry_run() -> int:
    """install.sh --dry-run on a fresh fake root, printed; fails if it changed anything (.ci/run)."""
    with tempfile.TemporaryDirectory() as base:
        fake = make_fake(Path(base))
        before = snapshot(fake.root)
        out = fake.run("--dry-run")
        print(out.stdout + out.stderr, end="")
        if out.returncode != 0 or snapshot(fake.root) != before or fake.changes():
            print(f"install.sh --dry-run: exit {out.returncode}, changes {fake.changes()}", file=sys.stderr)
            return 1
    print("install.sh --dry-run on a fake root: every step printed, nothing changed")
    return 0


if __name__ == "__main__":
    sys.exit(show_dry_run())
