"""The README's picture of the box at the table (docs/box.svg), seen from above: the shooter on its turntable in
the middle of the table, turned to the seat that must take cards, the seats spread over the servo's half circle
as the default seat angles spread them (shooter.seats), the discard pile with the optional camera over it, and a
phone with the page. ``python docs/generate.py`` rewrites it; tests/test_docs_bringup.py checks it is current."""

from __future__ import annotations

import math
from html import escape

W, H = 760, 440
TABLE = (250, 220, 190)              # the table's centre and radius
SEATS = ("Anna", "Bram", "Cor", "Dirk")
AIMED = 2                            # Cor: a Hit 2 is owed to her
INK = "#1d2733"
SOFT = "#5b6b7c"


def _text(x: float, y: float, words: str, size: int = 14, anchor: str = "middle", weight: str = "normal",
          fill: str = INK) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{escape(words)}</text>')


def seat_positions(seats: int = len(SEATS)) -> list[tuple[float, float, float]]:
    """Each seat's point on the table's edge and its angle: spread evenly over a half circle, seat 1 at the
    servo's min_angle (0 degrees, on the right), the last at its max_angle (180 degrees, on the left), as the
    default ``servo.seat_angles`` are; the half circle faces the viewer."""
    cx, cy, r = TABLE
    points = []
    for n in range(seats):
        angle = 180.0 * n / (seats - 1)
        a = math.radians(angle)
        points.append((cx + (r - 28) * math.cos(a), cy + (r - 28) * math.sin(a) * 0.55 + 40, angle))
    return points


def box_svg() -> str:
    cx, cy, r = TABLE
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
             'font-family="DejaVu Sans, Arial, sans-serif" role="img" '
             'aria-label="The shooter on its turntable in the middle of the table, turned to Cor, who owes two '
             'presses; a phone shows the same">',
             '<title>uno-shooter at the table</title>',
             f'<rect width="{W}" height="{H}" fill="#ffffff"/>',
             f'<ellipse cx="{cx}" cy="{cy + 40}" rx="{r}" ry="{r * 0.62:.1f}" fill="#e4efe2" stroke="#9db89a" '
             'stroke-width="2"/>']
    seats = seat_positions()
    for n, (x, y, _angle) in enumerate(seats):
        aimed = n == AIMED
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="22" fill="{"#ffe08a" if aimed else "#ffffff"}" '
                     f'stroke="{"#d08a00" if aimed else SOFT}" stroke-width="{3 if aimed else 1.5}"/>')
        parts.append(_text(x, y + 5, str(n + 1), 15, weight="bold"))
        parts.append(_text(x, y + 42, SEATS[n], 13))
    # the shooter on its turntable, turned to the aimed seat
    sx, sy = cx, cy - 10
    tx, ty, _ = seats[AIMED]
    heading = math.degrees(math.atan2(ty - sy, tx - sx))
    parts.append(f'<circle cx="{sx}" cy="{sy}" r="44" fill="#d9dee4" stroke="{SOFT}" stroke-width="1.5" '
                 'stroke-dasharray="5 4"/>')
    parts.append(f'<g transform="rotate({heading:.1f} {sx} {sy})">'
                 f'<rect x="{sx - 30}" y="{sy - 22}" width="60" height="44" rx="8" fill="#c62828" stroke="{INK}" '
                 'stroke-width="1.5"/>'
                 f'<rect x="{sx + 26}" y="{sy - 10}" width="10" height="20" fill="{INK}"/>'
                 f'<circle cx="{sx - 6}" cy="{sy}" r="10" fill="#ffca28" stroke="{INK}"/></g>')
    # cards on their way to the aimed seat
    for k in (0.45, 0.62):
        x, y = sx + (tx - sx) * k, sy + (ty - sy) * k
        parts.append(f'<rect x="{x - 9:.1f}" y="{y - 13:.1f}" width="18" height="26" rx="3" fill="#ffffff" '
                     f'stroke="{INK}" transform="rotate({heading + 90:.1f} {x:.1f} {y:.1f})"/>')
    # the discard pile and the camera over it
    px, py = cx + 100, cy - 25
    parts.append(f'<rect x="{px - 13}" y="{py - 19}" width="26" height="38" rx="3" fill="#1565c0" stroke="{INK}" '
                 f'transform="rotate(-12 {px} {py})"/>')
    parts.append(f'<rect x="{px - 11}" y="{py - 17}" width="26" height="38" rx="3" fill="#2e7d32" stroke="{INK}"/>')
    parts.append(f'<circle cx="{px + 2}" cy="{py + 2}" r="30" fill="none" stroke="{SOFT}" stroke-dasharray="3 3"/>')
    parts.append(_text(px + 2, py - 48, "a camera over the pile", 11, fill=SOFT))
    parts.append(_text(px + 2, py - 35, "(optional)", 11, fill=SOFT))
    # what the shooter is
    parts.append(_text(cx, 28, "the shooter: a Raspberry Pi, the launcher's roller, button, lid,", 13, fill=SOFT))
    parts.append(_text(cx, 46, "exit beam and beeper, on a servo turntable, turned to who owes", 13, fill=SOFT))
    # the phone
    fx, fy = 560, 40
    parts.append(f'<rect x="{fx}" y="{fy}" width="170" height="330" rx="22" fill="#fafafa" stroke="{INK}" '
                 'stroke-width="2"/>')
    parts.append(_text(fx + 85, fy + 38, "Cor presses 2\u00d7", 15, weight="bold"))
    parts.append(_text(fx + 85, fy + 57, "(Hit 2)", 13, fill=SOFT))
    for n, (x, y, _angle) in enumerate(seat_positions()):
        mx, my = fx + 85 + (x - cx) * 0.3, fy + 80 + (y - cy) * 0.3
        parts.append(f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="9" fill="{"#ffe08a" if n == AIMED else "#ffffff"}" '
                     f'stroke="{SOFT}"/>')
    parts.append(f'<rect x="{fx + 25}" y="{fy + 170}" width="120" height="40" rx="10" fill="#c62828"/>')
    parts.append(_text(fx + 85, fy + 196, "Press", 16, weight="bold", fill="#ffffff"))
    for row in range(2):
        for col in range(4):
            parts.append(f'<rect x="{fx + 22 + col * 33}" y="{fy + 228 + row * 38}" width="28" height="32" rx="5" '
                         f'fill="#ffffff" stroke="{SOFT}"/>')
    parts.append(_text(fx + 85, fy + 352, "the phone page: what was played", 12, fill=SOFT))
    parts.append(_text(fx + 85, fy + 368, "(or any console: one line protocol)", 12, fill=SOFT))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
