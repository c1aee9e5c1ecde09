"""The phone page's home-screen icon, drawn with the standard library alone: a red disc (the card's red), a white
tilted oval and the shooter's dark arrow on the page's dark background. One set of shapes gives the SVG and the
PNGs (192 and 512 px, what Android and the web app manifest ask for; the shapes sit inside the 80 % circle a
maskable icon keeps). ``python tests/icons.py`` writes them into shooter/web/static; tests/test_web_app.py checks
the files there are what it draws.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

STATIC = Path(__file__).parent.parent / "shooter" / "web" / "static"
SIZES = (192, 512)
BACKGROUND, RED, WHITE, DARK = (0x11, 0x14, 0x18), (0xD7, 0x26, 0x00), (0xFF, 0xFF, 0xFF), (0x11, 0x14, 0x18)
DISC = 0.36                       # radius of the red disc, of the side
OVAL, TILT = (0.30, 0.17), 30.0   # the white oval's half axes and its tilt in degrees
ARROW = ((0.62, 0.36), (0.38, 0.52), (0.50, 0.64))   # the arrow's corners (x, y), of the side


def colour(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), both 0..1 across the icon."""
    dx, dy = x - 0.5, y - 0.5
    if _inside(ARROW, x, y):
        return DARK
    t = math.radians(TILT)
    u, v = dx * math.cos(t) + dy * math.sin(t), -dx * math.sin(t) + dy * math.cos(t)
    if (u / OVAL[0]) ** 2 + (v / OVAL[1]) ** 2 <= 1:
        return WHITE
    if dx * dx + dy * dy <= DISC * DISC:
        return RED
    return BACKGROUND


def _inside(triangle, x: float, y: float) -> bool:
    (ax, ay), (bx, by), (cx, cy) = triangle
    def side(px, py, qx, qy):
        return (qx - px) * (y - py) - (qy - py) * (x - px)
    s = side(ax, ay, bx, by), side(bx, by, cx, cy), side(cx, cy, ax, ay)
    return all(v >= 0 for v in s) or all(v <= 0 for v in s)


def png(size: int) -> bytes:
    """The icon as a PNG of size x size pixels (each pixel the mean of 2 x 2 samples: smooth edges)."""
    rows = bytearray()
    offsets = (0.25, 0.75)
    for j in range(size):
        rows.append(0)   # filter: none
        for i in range(size):
            samples = [colour((i + ox) / size, (j + oy) / size) for ox in offsets for oy in offsets]
            rows += bytes(sum(c[k] for c in samples) // 4 for k in range(3))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)   # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + \
        chunk(b"IEND", b"")


def svg() -> str:
    hexes = ["#" + bytes(c).hex() for c in (BACKGROUND, RED, WHITE, DARK)]
    arrow = " ".join(f"{x * 100:g},{y * 100:g}" for x, y in ARROW)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<rect width="100" height="100" fill="{hexes[0]}"/>'
            f'<circle cx="50" cy="50" r="{DISC * 100:g}" fill="{hexes[1]}"/>'
            f'<ellipse cx="50" cy="50" rx="{OVAL[0] * 100:g}" ry="{OVAL[1] * 100:g}" fill="{hexes[2]}" '
            f'transform="rotate({TILT:g} 50 50)"/>'
            f'<polygon points="{arrow}" fill="{hexes[3]}"/></svg>\n')


def files() -> dict[str, bytes]:
    return {"icon.svg": svg().encode(), **{f"icon-{n}.png": png(n) for n in SIZES}}


if __name__ == "__main__":
    for name, data in files().items():
        (STATIC / name).write_bytes(data)
        print(f"{STATIC / name}: {len(data)} bytes", file=sys.stderr)
