"""The hal seam: the shooter's core imports no GPIO library, and the gpiozero parts fit the interfaces."""

import subprocess
import sys

import pytest

from hal import HardwareParts, interfaces


@pytest.mark.parametrize("module", ["shooter.loop", "shooter.table", "shooter.protocol", "hal", "hal.clock"])
def test_importing_the_core_loads_no_gpio_library(module):
    code = (f"import sys, {module}; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'lgpio', 'RPi')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_asking_hal_for_hardware_loads_gpiozero_then():
    code = "import sys, hal; hal.Hardware; print('gpiozero' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "True"


def test_hal_names_nothing_it_does_not_have():
    import hal
    with pytest.raises(AttributeError, match="no attribute 'Motorr'"):
        hal.Motorr  # noqa: B018


def _members(protocol) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")} | set(protocol.__annotations__)


@pytest.mark.parametrize("part, protocol", [
    ("motor", interfaces.Motor), ("button", interfaces.Button), ("lid", interfaces.Lid),
    ("exit_sensor", interfaces.ExitSensor), ("servo", interfaces.Servo), ("beeper", interfaces.Beeper),
])
def test_every_gpiozero_part_has_what_its_interface_declares(rig, part, protocol):
    device = getattr(rig.hw, part)
    missing = {name for name in _members(protocol) if not hasattr(device, name)}
    assert not missing, f"{type(device).__name__} lacks {missing}"


def test_the_hardware_has_every_part_the_shooter_may_use(rig):
    missing = {name for name in _members(HardwareParts) if not hasattr(rig.hw, name)}
    assert not missing
