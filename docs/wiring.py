"""The wiring picture (docs/wiring.svg), drawn from the pin map in the code (hal.settings.PinMap), so it
cannot drift from the defaults. ``python docs/generate.py`` rewrites it; tests/test_docs.py checks it."""

from __future__ import annotations

from html import escape

# the 40-pin header: physical pin -> BCM number, or the supply it carries
HEADER = {1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15, 11: 17, 12: 18,
          13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND", 21: 9, 22: 25, 23: 11, 24: 8,
          25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND", 31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16,
          37: 26, 38: 20, 39: "GND", 40: 21}
PHYSICAL = {bcm: pin for pin, bcm in HEADER.items() if isinstance(bcm, int)}

# part -> (box title, box lines, [(pin-map field, terminal label)], needs 3V3)
PARTS = [
    ("H-bridge (DRV8833 / TB6612)", ["VM from the 5-6 V supply", "OUT1/OUT2 to the roller motor",
                                     "pull-downs on IN1/IN2"], [("motor_forward", "IN1 forward"),
                                                                ("motor_backward", "IN2 backward")], True),
    ("Roller motor", ["DC motor on the friction roller", "on the H-bridge outputs"], [], False),
    ("Servo (turntable)", ["V+ from the 5-6 V supply, not the Pi", "signal: hardware PWM pin"],
     [("servo", "signal")], False),
    ("Lid reed switch", ["closed = pin to GND", "internal pull-up"], [("lid", "switch")], False),
    ("Button", ["to GND, internal pull-up"], [("button", "contact")], False),
    ("IR exit beam (optional)", ["emitter + receiver across the slot", "OUT low while broken, VCC 3V3"],
     [("exit_sensor", "OUT")], True),
    ("Beeper", ["active buzzer (or piezo)", "NPN transistor if > 15 mA"], [("beeper", "+")], False),
]

W, TOP, PITCH = 960, 60, 17
HX = 70                     # the header's left column
PX = 560                    # the parts' left edge


def _text(x, y, s, size=12, anchor="start", weight="normal", fill="#222"):
    return (f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(str(s))}</text>')


def _pin_xy(physical: int) -> tuple[int, int]:
    row, col = (physical - 1) // 2, (physical - 1) % 2
    return HX + col * 20, TOP + 30 + row * PITCH


def wiring_svg(pins) -> str:
    """The SVG source for a :class:`hal.settings.PinMap`."""
    used = {field: bcm for field, bcm in pins.used().items()}
    out = []
    # parts, top to bottom
    boxes, y = [], TOP
    for title, lines, wired, _needs_3v3 in PARTS:
        terminals = [(f, label) for f, label in wired if f in used]
        if not terminals and title.startswith("IR") and "exit_sensor" not in used:
            continue
        height = 26 + 15 * len(lines) + 4
        boxes.append((title, lines, terminals, y, height))
        y += height + 18
    bottom = max(y, TOP + 30 + 20 * PITCH) + 40
    supply_y = bottom - 10
    height_total = supply_y + 80
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height_total}" '
               f'viewBox="0 0 {W} {height_total}">')
    out.append(f'<rect width="{W}" height="{height_total}" fill="white"/>')
    out.append(_text(W // 2, 28, "uno-shooter wiring (default pins, BCM numbers; from hal/settings.py)", 16,
                     "middle", "bold"))
    # the header
    out.append(f'<rect x="{HX - 14}" y="{TOP + 16}" width="48" height="{20 * PITCH + 10}" rx="4" fill="#2e7d32"/>')
    out.append(_text(HX + 10, TOP + 10, "Raspberry Pi 40-pin header", 12, "middle", "bold"))
    for physical, what in HEADER.items():
        x, py = _pin_xy(physical)
        colour = {"GND": "#111", "3V3": "#e65100", "5V": "#c62828"}.get(what, "#ffd54f")
        out.append(f'<circle cx="{x}" cy="{py}" r="5" fill="{colour}" stroke="#333"/>')
    # wires from the pins to the parts, each on its own vertical lane
    lane = 0
    ends, labels = [], []
    for _title, _lines, terminals, by, _bh in boxes:
        for i, (field, label) in enumerate(terminals):
            bcm = used[field]
            physical = PHYSICAL[bcm]
            x, py = _pin_xy(physical)
            ty = by + 26 + 15 * i + 8
            lx = 160 + lane * 26
            lane += 1
            out.append(f'<polyline points="{x},{py} {lx},{py} {lx},{ty} {PX},{ty}" fill="none" '
                       f'stroke="#1565c0" stroke-width="2"/>')
            out.append(_text(PX - 6, ty - 4, f"GPIO{bcm} (pin {physical}) {field}", 11, "end"))
            labels.append(_text(PX + 296, ty + 4, label, 10, "end", fill="#1565c0"))
            ends.append(field)
    for title, lines, _terminals, by, bh in boxes:
        out.append(f'<rect x="{PX}" y="{by}" width="300" height="{bh}" rx="6" fill="#f5f5f5" stroke="#444"/>')
        out.append(_text(PX + 10, by + 18, title, 13, weight="bold"))
        for i, line in enumerate(lines):
            out.append(_text(PX + 10, by + 36 + 15 * i, line, 11, fill="#444"))
    out.extend(labels)
    # the motor on the H-bridge's outputs; the supply's + to the H-bridge and the servo
    named = {title.split(" (")[0]: (by, bh) for title, _, _, by, bh in boxes}
    if "H-bridge" in named and "Roller motor" in named:
        (hy, hh), (my, _) = named["H-bridge"], named["Roller motor"]
        for dx in (140, 160):
            out.append(f'<line x1="{PX + dx}" y1="{hy + hh}" x2="{PX + dx}" y2="{my}" stroke="#6a1b9a" '
                       f'stroke-width="2"/>')
        out.append(_text(PX + 168, hy + hh + 13, "OUT1 / OUT2", 10, fill="#6a1b9a"))
    for name in ("H-bridge", "Servo"):
        if name in named:
            ny = named[name][0] + 10
            out.append(f'<polyline points="{PX + 300},{ny} {PX + 340},{ny} {PX + 340},{supply_y + 12} '
                       f'{PX + 300},{supply_y + 12}" fill="none" stroke="#c62828" stroke-width="2"/>')
    out.append(_text(PX + 336, supply_y - 30, "+5-6 V", 10, "end", fill="#c62828"))
    out.append(_text(HX - 20, TOP + 34, "1", 10, "end"))
    out.append(_text(HX + 40, TOP + 34, "2", 10))
    out.append(_text(HX - 20, TOP + 30 + 19 * PITCH + 4, "39", 10, "end"))
    # the supply and the common ground
    out.append(f'<rect x="{PX}" y="{supply_y}" width="300" height="44" rx="6" fill="#fff3e0" stroke="#e65100"/>')
    out.append(_text(PX + 10, supply_y + 18, "5-6 V supply (motor and servo)", 13, weight="bold"))
    out.append(_text(PX + 10, supply_y + 34, "its GND joined to the Pi's GND: common ground", 11, fill="#444"))
    gx, gy = _pin_xy(39)
    ground_y = supply_y - 20
    out.append(f'<polyline points="{gx},{gy} {gx - 40},{gy} {gx - 40},{ground_y} {PX + 320},{ground_y} '
               f'{PX + 320},{supply_y + 22} {PX + 300},{supply_y + 22}" fill="none" stroke="#111" stroke-width="3"/>')
    out.append(_text(gx - 36, ground_y - 6, "GND rail: every part's GND, the supply's GND, the Pi's GND (pin 39)",
                     11, weight="bold"))
    for _title, _lines, _terminals, by, bh in boxes:
        out.append(f'<line x1="{PX + 300}" y1="{by + bh - 8}" x2="{PX + 320}" y2="{by + bh - 8}" stroke="#111" '
                   f'stroke-width="2"/>')
        out.append(f'<line x1="{PX + 320}" y1="{by + bh - 8}" x2="{PX + 320}" y2="{ground_y}" stroke="#111" '
                   f'stroke-width="2"/>')
    out.append(_text(20, height_total - 12, "Keep GPIO2/3 and the UART (GPIO14/15) free. Pins come from the config "
                                             "([pins]); this picture shows the defaults.", 11, fill="#555"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
