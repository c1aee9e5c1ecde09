#!/usr/bin/env bash
# uno-shooter on a Raspberry Pi in one command: docs/bringup.md steps 4, 7 and 8 (the packages, the service's
# user and groups, its state directory, the source and a venv with the extras for this Pi, the config, the units and
# drop-ins, the service enabled and started), then the phone page's address and its QR code.
#
# Every step first looks whether it is done already, so a second run changes nothing and says so. Every file goes
# under $UNO_SHOOTER_ROOT (default /) and every system command is called by name from PATH: the tests
# (tests/test_install.py) run this script against a fake root with stubs of those commands first on PATH.
set -euo pipefail
umask 022

readonly EXIT_FAILED=1 EXIT_USAGE=2 EXIT_NOT_ROOT=3 EXIT_NOT_A_PI=4 EXIT_OS=5 EXIT_CONFIG=6 EXIT_STATE_DIR=7

usage() {
  cat <<EOF
Usage: sudo ./install.sh [--dry-run] [--model pi5|pi4] [--force]
       sudo ./install.sh --uninstall [--dry-run]

Installs uno-shooter on this Raspberry Pi (Raspberry Pi OS, Bookworm or newer) as docs/bringup.md does by
hand: the Debian packages the pin library builds against, the user ${SERVICE_USER} in the groups
${SUPPLEMENTARY// /, }, the state directory ${STATE_DIR}, the source in ${SRC}, a venv in ${VENV} with the
extras for this Pi and the web page, the config ${CONFIG} (from config.example.toml with the phone page on;
a config already there is kept as it is), the units and drop-ins in ${UNIT_DIR}, the service enabled and started.
Then it prints the phone page's address and its QR code. A second run changes only what is missing or different.

Options:
  --dry-run      print every step and change nothing (needs no root)
  --model EXTRA  the pin library's extra, instead of the one for the Pi model this runs on:
                 pi5 (lgpio: Pi 5, Pi 500, CM5; also works on Pi 1-4) or pi4 (RPi.GPIO: Pi 1-4)
  --force        install on a machine that is not a Raspberry Pi, or on an OS other than Raspberry Pi OS
                 Bookworm or newer (the extra is pi5 unless --model says otherwise)
  --uninstall    stop and remove the service, its units, the source, the venv, the config, the user and
                 group; keeps the state directory ${STATE_DIR} (the game, the calibration, the phones)
  -h, --help     this help

Exit status:
  0  done (installed, nothing to change, or uninstalled)
  ${EXIT_FAILED}  a step failed (its command is named)
  ${EXIT_USAGE}  a bad option
  ${EXIT_NOT_ROOT}  not run as root (use sudo)
  ${EXIT_NOT_A_PI}  not a Raspberry Pi (--model or --force installs anyway)
  ${EXIT_OS}  not Raspberry Pi OS / Debian Bookworm or newer (--force installs anyway)
  ${EXIT_CONFIG}  the config is invalid (check-config names the key); the service is not started
  ${EXIT_STATE_DIR}  ${STATE_DIR} is a symlink or under one (bind-mount another disk there instead); nothing changed

Environment: UNO_SHOOTER_ROOT=DIR puts every file under DIR instead of / (for the tests; the system commands
still act on this machine, so the tests put stubs of them first on PATH).
EOF
}

die() {  # status message: one line on stderr, then exit
  echo "install.sh: error: $2" >&2
  exit "$1"
}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
R=${UNO_SHOOTER_ROOT:-/}
R=${R%/}
UNIT_SOURCE=$HERE/systemd/uno-shooter.service

unit_value() {  # KEY: the service unit's KEY= (the unit is where the user, groups and state directory are said)
  sed -n "s/^$1=//p" "$UNIT_SOURCE" | tail -n 1
}
SERVICE_USER=$(unit_value User)
SERVICE_GROUP=$(unit_value Group)
SUPPLEMENTARY=$(unit_value SupplementaryGroups)
STATE_DIR=/var/lib/$(unit_value StateDirectory)
STATE_MODE=$(unit_value StateDirectoryMode)
readonly PREFIX=/opt/uno-shooter
readonly SRC=$PREFIX/src VENV=$PREFIX/venv
readonly CONFIG_DIR=/etc/uno-shooter
readonly CONFIG=$CONFIG_DIR/config.toml
readonly UNIT_DIR=/etc/systemd/system
readonly STAMP=$VENV/.uno-shooter-install   # the extras and the source digest the venv was last installed from
# What the service was last (re)started with: the digests of the code and config (stamp, config) and of the units.
# A run killed after it installed but before the restart leaves it different from what is installed: the next run
# restarts, whatever else it finds done.
readonly STARTED=$PREFIX/.uno-shooter-started

# The Pi models, first match wins: a pattern of the device tree's model string, the extra of its pin library.
readonly MODELS=(
  'Raspberry Pi 5 *|pi5'
  'Raspberry Pi 500*|pi5'
  'Raspberry Pi Compute Module 5*|pi5'
  'Raspberry Pi*|pi4'
)
# The Debian packages each extra needs (docs/bringup.md step 4: lgpio builds against liblgpio).
readonly BASE_PACKAGES="python3-venv python3-dev"
declare -rA EXTRA_PACKAGES=([pi5]="swig liblgpio-dev" [pi4]="")
# The units and drop-ins: the file in systemd/, where it goes under /etc/systemd/system, and when it applies
# (always; bluetooth: bluez's rfcomm and sdptool are installed; sysfs: the config's hardware.servo_backend).
readonly UNITS=(
  'uno-shooter.service|uno-shooter.service|always'
  'servo-sysfs.conf|uno-shooter.service.d/servo-sysfs.conf|sysfs'
  'uno-shooter-rfcomm.service|uno-shooter-rfcomm.service|bluetooth'
  'bluetooth-compat.conf|bluetooth.service.d/uno-shooter.conf|bluetooth'
)
readonly SOURCE_EXCLUDES=(.git .venv __pycache__ '*.egg-info' build dist .pytest_cache .mypy_cache .ruff_cache
                          .hypothesis)

ARGS=("$@")
DRY_RUN=0 UNINSTALL=0 FORCE=0 MODEL=""
while (($#)); do
  case $1 in
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --force) FORCE=1 ;;
    --model) (($# > 1)) || die "$EXIT_USAGE" "--model needs an extra: pi5 or pi4"; MODEL=$2; shift ;;
    --model=*) MODEL=${1#--model=} ;;
    -h|--help) usage; exit 0 ;;
    *) die "$EXIT_USAGE" "unknown option '$1' (install.sh --help lists them)" ;;
  esac
  shift
done
if [[ -n $MODEL && ! -v "EXTRA_PACKAGES[$MODEL]" ]]; then
  die "$EXIT_USAGE" "--model '$MODEL' is not an extra of a Pi: pi5 or pi4"
fi

CHANGES=0        # steps that changed (or, with --dry-run, would change) the system
STEP_CHANGED=0   # whether the last file step changed its file

act() {  # a command that changes the system: printed, and carried out unless --dry-run
  CHANGES=$((CHANGES + 1))
  if ((DRY_RUN)); then
    echo "  would run: $*"
    return 0
  fi
  echo "  run: $*"
  "$@" || die "$EXIT_FAILED" "step failed (status $?): $*"
}

ok() {
  echo "  ok: $*"
}

exists() {  # KIND NAME: a user (passwd) or group of this system
  getent "$1" "$2" > /dev/null
}

put() {  # SOURCE DEST MODE: install a file unless DEST already has that content and mode
  STEP_CHANGED=0
  if [[ -f $2 ]] && cmp -s "$1" "$2" && [[ $(stat -c %a "$2") == "${3#0}" ]]; then
    ok "${2#"$R"}"
  else
    STEP_CHANGED=1
    act install -D -m "$3" "$1" "$2"
  fi
}

remove() {  # PATH: remove a file or tree if it is there
  STEP_CHANGED=0
  if [[ -e $1 || -L $1 ]]; then
    STEP_CHANGED=1
    act rm -rf "$1"
  fi
}

remove_unit_file() {  # DEST: a unit or drop-in, and its drop-in directory if that held only this file (another
                      # package's drop-ins stay); sets STEP_CHANGED
  local dir
  remove "$1"
  if ((STEP_CHANGED)); then
    dir=$(dirname "$1")
    if [[ $dir != "$R$UNIT_DIR" ]] && [[ -z $(ls -A "$dir") || $(ls -A "$dir") == "$(basename "$1")" ]]; then
      act rmdir "$dir"
    fi
    STEP_CHANGED=1
  fi
}

copy_tree() {  # SOURCE DEST: DEST becomes a copy of SOURCE
  rm -rf "$2" && mkdir -p "$2" && tar -C "$1" -c . | tar -C "$2" -x --no-same-owner
}

config_value() {  # SECTION.KEY DEFAULT: the config's value, read by the program's own loader (shooter/config.py of
                  # the source being installed), DEFAULT if there is no file; a bad file: its one line, exit 6
  python3 -I -B -c '
import sys
here, path, key, default = sys.argv[1:]
sys.path.insert(0, here)
from pathlib import Path
from shooter.config import load_config
from shooter.errors import ConfigError
if not Path(path).exists():
    print(default)
    sys.exit(0)
try:
    config = load_config(Path(path))
except ConfigError as exc:
    sys.exit(f"install.sh: error: {exc}")
print({"web.listen": config.web.listen, "hardware.servo_backend": config.servo_backend}[key])' \
    "$HERE" "$R$CONFIG" "$1" "$2" || exit "$EXIT_CONFIG"
}

unit_applies() {  # WHEN (a column of UNITS)
  case $1 in
    always) return 0 ;;
    bluetooth) [[ -x $R/usr/bin/rfcomm && -x $R/usr/bin/sdptool ]] ;;
    sysfs) local backend; backend=$(config_value hardware.servo_backend gpiozero) || exit "$EXIT_CONFIG"
           [[ $backend == sysfs ]] ;;
  esac
}

check_root() {
  if ((!DRY_RUN)) && [[ $(id -u) != 0 ]]; then
    die "$EXIT_NOT_ROOT" "must run as root: sudo ./install.sh${ARGS[*]:+ ${ARGS[*]}}"
  fi
}

check_os() {
  local release=$R/etc/os-release id version codename
  if ((FORCE)); then
    return 0
  fi
  [[ -r $release ]] || die "$EXIT_OS" "no /etc/os-release: not Raspberry Pi OS (--force installs anyway)"
  id=$(sed -n 's/^ID=//p' "$release" | tr -d '"')
  version=$(sed -n 's/^VERSION_ID=//p' "$release" | tr -d '"')
  codename=$(sed -n 's/^VERSION_CODENAME=//p' "$release" | tr -d '"')
  # Raspberry Pi OS says debian (64-bit) or raspbian (32-bit); testing and sid have no VERSION_ID
  if [[ $id != debian && $id != raspbian ]] || { [[ $version =~ ^[0-9]+$ ]] && ((version < 12)); }; then
    die "$EXIT_OS" "unsupported OS: ${id:-unknown} ${version:-?} (${codename:-?}); needs Raspberry Pi OS Bookworm (12) or newer (--force installs anyway)"
  fi
}

detect_extra() {  # sets EXTRA, the pin library's extra, and BOARD, the model string (or why there is none)
  local file model="" row
  for file in "$R/proc/device-tree/model" "$R/sys/firmware/devicetree/base/model"; do
    if [[ -r $file ]]; then
      model=$(tr -d '\0' < "$file")
      break
    fi
  done
  if [[ -n $MODEL ]]; then
    EXTRA=$MODEL BOARD="${model:-no device-tree model}, --model $MODEL"
    return 0
  fi
  for row in "${MODELS[@]}"; do
    # shellcheck disable=SC2053  # the model pattern is a glob on purpose
    if [[ -n $model && $model == ${row%|*} ]]; then
      EXTRA=${row#*|} BOARD=$model
      return 0
    fi
  done
  if ((FORCE)); then
    EXTRA=pi5 BOARD="not a Raspberry Pi (${model:-no device-tree model}), --force"
    return 0
  fi
  die "$EXIT_NOT_A_PI" "not a Raspberry Pi (${model:-no /proc/device-tree/model}): --model pi5|pi4 or --force installs anyway"
}

source_digest() {  # DIR: one digest of every file's path and content
  (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-64
}

install_packages() {  # EXTRA
  local missing=() package status
  # shellcheck disable=SC2086  # the lists are words
  for package in $BASE_PACKAGES ${EXTRA_PACKAGES[$1]}; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2> /dev/null) || status=""
    [[ $status == "install ok installed" ]] || missing+=("$package")
  done
  if ((${#missing[@]})); then
    act apt-get update
    act apt-get install -y --no-install-recommends "${missing[@]}"
  else
    ok "packages $BASE_PACKAGES ${EXTRA_PACKAGES[$1]}"
  fi
}

install_user() {
  local group members
  for group in $SUPPLEMENTARY "$SERVICE_GROUP"; do
    if exists group "$group"; then
      ok "group $group"
    else
      act groupadd --system "$group"
    fi
  done
  if ! exists passwd "$SERVICE_USER"; then
    act useradd --system --gid "$SERVICE_GROUP" --groups "${SUPPLEMENTARY// /,}" --no-create-home \
      --home-dir "$STATE_DIR" --shell /usr/sbin/nologin "$SERVICE_USER"
    return 0
  fi
  for group in $SUPPLEMENTARY; do
    members=$(getent group "$group" | cut -d: -f4)
    if [[ ,$members, == *",$SERVICE_USER,"* ]]; then
      ok "user $SERVICE_USER in group $group"
    else
      act usermod --append --groups "$group" "$SERVICE_USER"
    fi
  done
}

check_state_dir() {  # a symlink on the way (a USB stick, a home folder) is refused before anything changes: chown -R
                     # and chmod treat a link and its target differently, and systemd's StateDirectory= wants its own
  local dir=$R$STATE_DIR real
  real=$(realpath -m "$dir")
  if [[ $real != "$(realpath -m "${R:-/}")$STATE_DIR" ]]; then
    die "$EXIT_STATE_DIR" "$STATE_DIR is a symlink or under one (to ${real#"$(realpath -m "${R:-/}")"}): the state must be a real directory; to keep it on another disk, bind-mount that disk on $STATE_DIR (docs/install.md)"
  fi
}

install_state_dir() {
  local dir=$R$STATE_DIR owner=""
  if [[ ! -d $dir ]]; then
    act mkdir -p "$dir"
    act chmod "$STATE_MODE" "$dir"
  elif [[ $(stat -c %a "$dir") == "${STATE_MODE#0}" ]]; then
    ok "$STATE_DIR mode $STATE_MODE"
  else
    act chmod "$STATE_MODE" "$dir"
  fi
  if exists passwd "$SERVICE_USER" && exists group "$SERVICE_GROUP"; then
    owner=$(getent passwd "$SERVICE_USER" | cut -d: -f3):$(getent group "$SERVICE_GROUP" | cut -d: -f3)
  fi
  if [[ -d $dir && -n $owner && $(stat -c %u:%g "$dir") == "$owner" ]]; then
    ok "$STATE_DIR owned by $SERVICE_USER:$SERVICE_GROUP"
  else
    # -R: a state directory kept by --uninstall belongs to the user of the install before
    act chown -R "$SERVICE_USER:$SERVICE_GROUP" "$dir"
  fi
}

install_source() {  # STAGE: the source as it is to be installed; sets STEP_CHANGED
  STEP_CHANGED=0
  if [[ $(realpath -m "$HERE") == $(realpath -m "$R$SRC") ]]; then
    ok "$SRC (this is the installed source)"
  elif [[ -d $R$SRC ]] && diff -r -q "$1" "$R$SRC" > /dev/null 2>&1; then
    ok "$SRC"
  else
    STEP_CHANGED=1
    act copy_tree "$1" "$R$SRC"
  fi
}

install_venv() {  # EXTRAS DIGEST: sets STEP_CHANGED
  local want="extras=$1 source=$2"
  STEP_CHANGED=0
  if [[ -x $R$VENV/bin/python ]]; then
    ok "$VENV"
  else
    STEP_CHANGED=1
    act python3 -m venv "$R$VENV"
  fi
  if [[ -f $R$STAMP && $(< "$R$STAMP") == "$want" ]]; then
    ok "$VENV has uno-shooter[$1] of this source"
  else
    STEP_CHANGED=1
    act "$R$VENV/bin/pip" install --no-cache-dir "${R}${SRC}[$1]"
    act write_file "$R$STAMP" "$want"
  fi
}

write_file() {  # PATH TEXT: PATH holds TEXT, whole or not at all (a kill mid-write leaves the old one)
  printf '%s\n' "$2" > "$1.new" && mv "$1.new" "$1"
}

config_from_example() {  # DEST: the example's defaults with the phone page on (the page is what this install is for)
  mkdir -p "$(dirname "$1")" &&
    sed 's/^listen = "off"/listen = "0.0.0.0:8080"/' "$HERE/config.example.toml" > "$1.new" &&
    chmod 0644 "$1.new" && mv "$1.new" "$1"
}

install_config() {  # sets STEP_CHANGED
  STEP_CHANGED=0
  if [[ -e $R$CONFIG ]]; then
    ok "$CONFIG (kept as it is)"
  else
    STEP_CHANGED=1
    act config_from_example "$R$CONFIG"
  fi
  if [[ -x $R$VENV/bin/uno-shooter ]]; then
    "$R$VENV/bin/uno-shooter" check-config "$R$CONFIG" > /dev/null ||
      die "$EXIT_CONFIG" "$CONFIG is invalid (the line above names the key); fix it and run install.sh again"
    ok "$CONFIG passes check-config"
  fi
}

install_units() {  # SERVICE_CHANGED: 1 if what the service runs changed; enables and (re)starts the services
  local row file dest when reload=0 restart_service=$1 restart_rfcomm=0 restart_bluetooth=0 restart unit started
  local services=(uno-shooter.service)
  for row in "${UNITS[@]}"; do
    IFS='|' read -r file dest when <<< "$row"
    if unit_applies "$when"; then
      put "$HERE/systemd/$file" "$R$UNIT_DIR/$dest" 0644
      [[ $file == uno-shooter-rfcomm.service ]] && services+=(uno-shooter-rfcomm.service)
    else
      remove_unit_file "$R$UNIT_DIR/$dest"
    fi
    if ((!STEP_CHANGED)); then
      continue
    fi
    reload=1
    case $dest in
      bluetooth.service.d/*) restart_bluetooth=1 ;;
      uno-shooter-rfcomm.service) restart_rfcomm=1 ;;
      *) restart_service=1 ;;
    esac
  done
  started=$(started_record)
  if [[ ! -f $R$STARTED ]] || ! grep -qx "${started%%$'\n'*}" "$R$STARTED"; then
    restart_service=1   # the code or config installed is not what the service was started with
  fi
  if [[ ! -f $R$STARTED ]] || ! grep -qx "${started##*$'\n'}" "$R$STARTED"; then
    reload=1 restart_service=1   # the units installed are not the ones systemd was given
  fi
  if ((reload)); then
    act systemctl daemon-reload
  fi
  if ((restart_bluetooth)); then
    act systemctl restart bluetooth.service
  fi
  for unit in "${services[@]}"; do
    if [[ $unit == uno-shooter.service ]]; then
      restart=$restart_service
    else
      restart=$((restart_rfcomm || restart_bluetooth))
    fi
    if ! systemctl is-enabled --quiet "$unit" 2> /dev/null || ! systemctl is-active --quiet "$unit" 2> /dev/null; then
      act systemctl enable --now "$unit"
    elif ((restart)); then
      act systemctl restart "$unit"
    else
      ok "$unit enabled and running"
    fi
  done
  # bookkeeping of the restart above (not a step of its own); a kill before it only restarts once more
  if ((!DRY_RUN)) && [[ ! -f $R$STARTED || $(< "$R$STARTED") != "$started" ]]; then
    write_file "$R$STARTED" "$started" || die "$EXIT_FAILED" "cannot write $STARTED"
  fi
}

started_record() {  # two lines: code=DIGEST of the stamp and the config, units=DIGEST of the installed units
  local row dest files=()
  for row in "${UNITS[@]}"; do
    IFS='|' read -r _ dest _ <<< "$row"
    [[ -f $R$UNIT_DIR/$dest ]] && files+=("$R$UNIT_DIR/$dest")
  done
  echo "code=$(cat "$R$STAMP" "$R$CONFIG" 2> /dev/null | sha256sum | cut -c1-64)"
  echo "units=$( ((${#files[@]})) && cat "${files[@]}" | sha256sum | cut -c1-64)"
}

print_page() {  # the phone page's address and its QR code, from the config's [web] listen
  local listen host url
  if ((DRY_RUN)) && [[ ! -e $R$CONFIG ]]; then
    listen=0.0.0.0:8080   # what install_config would write
  else
    listen=$(config_value web.listen off) || exit "$EXIT_CONFIG"
  fi
  if [[ $listen == off ]]; then
    echo "The phone page is off: set listen = \"0.0.0.0:8080\" in [web] of $CONFIG," \
         "then sudo systemctl restart uno-shooter"
    return 0
  fi
  host=${listen%:*}
  if [[ $host == 127.* || $host == localhost || $host == "[::1]" ]]; then
    echo "The phone page listens on this machine only ([web] listen = \"$listen\" in $CONFIG): http://$listen"
    return 0
  fi
  host=$(hostname)
  url="http://${host%%.*}.local:${listen##*:}"
  echo "Open the phone page on a phone in this network: $url"
  python3 "$HERE/shooter/qr.py" "$url" || echo "(no QR code: the line above says why)"
}

install_all() {
  local stage digest service_changed=0
  check_root
  check_os
  detect_extra
  check_state_dir
  if ((DRY_RUN)); then
    echo "Dry run: nothing is changed; 'would run' marks each change."
  fi
  echo "Installing uno-shooter[$EXTRA,web] into ${R:-/} ($BOARD)"
  stage=$(mktemp -d)
  # shellcheck disable=SC2064  # the stage's name is fixed now
  trap "rm -rf '$stage'" EXIT
  tar -C "$HERE" "${SOURCE_EXCLUDES[@]/#/--exclude=}" -c . | tar -C "$stage" -x --no-same-owner
  digest=$(source_digest "$stage")

  echo "packages:"
  install_packages "$EXTRA"
  echo "user and groups:"
  install_user
  echo "state directory:"
  install_state_dir
  echo "source:"
  install_source "$stage"
  service_changed=$((service_changed || STEP_CHANGED))
  echo "venv:"
  install_venv "$EXTRA,web" "$digest"
  service_changed=$((service_changed || STEP_CHANGED))
  echo "config:"
  install_config
  service_changed=$((service_changed || STEP_CHANGED))
  echo "units:"
  install_units "$service_changed"

  if ((DRY_RUN)); then
    echo "Dry run: $CHANGES steps would change the system; nothing was changed."
  elif ((CHANGES)); then
    echo "Installed: $CHANGES steps changed the system. The log: journalctl -u uno-shooter -f"
  else
    echo "Nothing to change: uno-shooter is installed, enabled and running."
  fi
  print_page
}

uninstall_all() {
  local row file dest unit reload=0 restart_bluetooth=0
  check_root
  if ((DRY_RUN)); then
    echo "Dry run: nothing is changed; 'would run' marks each change."
  fi
  echo "Removing uno-shooter from ${R:-/}"
  for unit in uno-shooter.service uno-shooter-rfcomm.service; do
    if systemctl is-enabled --quiet "$unit" 2> /dev/null || systemctl is-active --quiet "$unit" 2> /dev/null; then
      act systemctl disable --now "$unit"
    fi
  done
  for row in "${UNITS[@]}"; do
    IFS='|' read -r file dest _ <<< "$row"
    remove_unit_file "$R$UNIT_DIR/$dest"
    if ((!STEP_CHANGED)); then
      continue
    fi
    reload=1
    if [[ $dest == bluetooth.service.d/* ]]; then
      restart_bluetooth=1
    fi
  done
  if ((reload)); then
    act systemctl daemon-reload
  fi
  if ((restart_bluetooth)); then
    act systemctl restart bluetooth.service
  fi
  remove "$R$PREFIX"
  remove "$R$CONFIG_DIR"
  if exists passwd "$SERVICE_USER"; then
    act userdel "$SERVICE_USER"
  fi
  if exists group "$SERVICE_GROUP"; then   # userdel may have taken the user's own group with it
    act groupdel "$SERVICE_GROUP"
  fi
  if ((DRY_RUN)); then
    echo "Dry run: $CHANGES steps would change the system; nothing was changed."
  elif ((CHANGES)); then
    echo "Uninstalled: $CHANGES steps changed the system."
  else
    echo "Nothing to remove: uno-shooter is not installed."
  fi
  if [[ -d $R$STATE_DIR ]]; then
    echo "Kept the state directory $STATE_DIR (the game, the calibration, the paired phones);" \
         "remove it by hand: sudo rm -r $STATE_DIR"
  fi
}

if ((UNINSTALL)); then
  uninstall_all
else
  install_all
fi
