"""A QR code of the phone page's address for the installer's terminal (install.sh), with nothing to install.

The Pi may reach only its package sources when install.sh runs, so the code is drawn here, from the standard
library alone: byte mode, error correction L or M, versions 1 to 6 (no version-information block; up to 106
bytes at M, more than any ``http://<hostname>.local:PORT`` needs), the mask with the lowest penalty of
ISO/IEC 18004. Run as ``python3 shooter/qr.py TEXT`` (no package import: the installer runs it with the
system's Python before the venv exists); it prints the code in half blocks, black on white whatever the
terminal's colours, with the standard quiet zone of four modules.

>>> matrix = encode("http://shooter.local:8080")
>>> len(matrix), matrix[0][:7]
(25, [True, True, True, True, True, True, True])
"""

from __future__ import annotations

import sys
from collections.abc import Callable

# Per level, per version 1..6: (error-correction codewords per block, blocks). The format bits of the level.
LEVELS: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {
    "L": (0b01, ((7, 1), (10, 1), (15, 1), (20, 1), (26, 1), (18, 2))),
    "M": (0b00, ((10, 1), (16, 1), (26, 1), (18, 2), (24, 2), (16, 4))),
}
# All codewords of a version 1..6 (data and error correction): its modules less the function patterns, / 8.
RAW_CODEWORDS = (26, 44, 70, 100, 134, 172)
MAX_VERSION = len(RAW_CODEWORDS)
QUIET = 4   # light modules around the code, as the standard asks

MASKS: tuple[Callable[[int, int], bool], ...] = (  # (x, y) -> whether the mask flips that module
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)

Matrix = list[list[bool]]   # [row][column], True = dark


def data_capacity(version: int, level: str) -> int:
    """Data codewords of a version at a level."""
    ecc, blocks = LEVELS[level][1][version - 1]
    return RAW_CODEWORDS[version - 1] - ecc * blocks


def _gf_mul(x: int, y: int) -> int:
    """Product in GF(256) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11D)."""
    z = 0
    for i in reversed(range(8)):
        z = (z << 1) ^ ((z >> 7) * 0x11D)
        z ^= ((y >> i) & 1) * x
    return z


def rs_remainder(data: list[int], degree: int) -> list[int]:
    """The Reed-Solomon error-correction codewords of ``data``: its remainder by the generator of that degree.

    >>> rs_remainder([32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17], 10)
    [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]
    """
    divisor = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            divisor[j] = _gf_mul(divisor[j], root)
            if j + 1 < degree:
                divisor[j] ^= divisor[j + 1]
        root = _gf_mul(root, 0x02)
    result = [0] * degree
    for byte in data:
        factor = byte ^ result.pop(0)
        result.append(0)
        for i, coef in enumerate(divisor):
            result[i] ^= _gf_mul(coef, factor)
    return result


def _codewords(payload: bytes, version: int, level: str) -> list[int]:
    """Mode, count, payload, terminator and pad bytes, split into blocks with their error correction, interleaved."""
    capacity = data_capacity(version, level)
    bits = f"0100{len(payload):08b}" + "".join(f"{b:08b}" for b in payload)
    bits += "0" * min(4, capacity * 8 - len(bits))
    bits += "0" * (-len(bits) % 8)
    data = [int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)]
    data += [(0xEC, 0x11)[i % 2] for i in range(capacity - len(data))]
    ecc, count = LEVELS[level][1][version - 1]
    short = count - RAW_CODEWORDS[version - 1] % count          # blocks one data codeword shorter
    blocks, start = [], 0
    for i in range(count):
        length = capacity // count + (0 if i < short else 1)
        blocks.append((data[start:start + length], rs_remainder(data[start:start + length], ecc)))
        start += length
    longest = max(len(d) for d, _ in blocks)
    out = [d[i] for i in range(longest) for d, _ in blocks if i < len(d)]
    return out + [e[i] for i in range(ecc) for _, e in blocks]


def _format_bits(level: str, mask: int) -> int:
    """The 15 format bits: level and mask, their BCH(15,5) check, XOR 0x5412."""
    data = LEVELS[level][0] << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return (data << 10 | rem) ^ 0x5412


def format_positions(size: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(x, y) of format bits 0..14, in both copies (beside the top-left finder; split between the others)."""
    first = [(8, i) for i in range(6)] + [(8, 7), (8, 8), (7, 8)] + [(14 - i, 8) for i in range(9, 15)]
    second = [(size - 1 - i, 8) for i in range(8)] + [(8, size - 15 + i) for i in range(8, 15)]
    return first, second


def _function_patterns(version: int) -> tuple[Matrix, Matrix]:
    """The finders, separators, timing, alignment pattern, dark module and (reserved) format areas."""
    size = 17 + 4 * version
    dark = [[False] * size for _ in range(size)]
    fixed = [[False] * size for _ in range(size)]

    def put(x: int, y: int, value: bool) -> None:
        dark[y][x], fixed[y][x] = value, True

    for i in range(size):
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                if 0 <= cx + dx < size and 0 <= cy + dy < size:
                    put(cx + dx, cy + dy, max(abs(dx), abs(dy)) not in (2, 4))
    if version > 1:   # versions 2..6 have one alignment pattern, at the bottom right
        centre = size - 7
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                put(centre + dx, centre + dy, max(abs(dx), abs(dy)) != 1)
    for copy in format_positions(size):
        for x, y in copy:
            put(x, y, False)
    put(8, size - 8, True)
    return dark, fixed


def data_positions(fixed: Matrix) -> list[tuple[int, int]]:
    """(x, y) of the data modules in the order the codewords' bits fill them: two columns at a time from the
    right, up and down in turn, skipping the vertical timing column."""
    size = len(fixed)
    order = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(size):
            y = size - 1 - vert if upward else vert
            order += [(x, y) for x in (right, right - 1) if not fixed[y][x]]
        right -= 2
    return order


def _penalty(m: Matrix) -> int:
    """ISO/IEC 18004's penalty: runs of five or more, 2x2 blocks, finder-like patterns, dark/light balance."""
    size = len(m)
    lines = ["".join("1" if v else "0" for v in row) for row in m]
    lines += ["".join("1" if m[y][x] else "0" for y in range(size)) for x in range(size)]
    score = 0
    for line in lines:
        run = 1
        for a, b in zip(line, line[1:] + "x", strict=True):
            if a == b:
                run += 1
                continue
            if run >= 5:
                score += run - 2
            run = 1
        for pattern in ("10111010000", "00001011101"):
            score += 40 * sum(line.startswith(pattern, i) for i in range(len(line)))
    score += 3 * sum(m[y][x] == m[y][x + 1] == m[y + 1][x] == m[y + 1][x + 1]
                     for y in range(size - 1) for x in range(size - 1))
    dark = sum(map(sum, m))
    score += 10 * (abs(dark * 20 - size * size * 10) // (size * size))
    return score


def encode(text: str, level: str = "M", mask: int | None = None) -> Matrix:
    """The QR code of ``text`` (UTF-8, byte mode) in the smallest version that holds it, with the mask of the
    lowest penalty (or ``mask``). Raises ValueError if it holds more than version 6 does."""
    payload = text.encode()
    version = next((v for v in range(1, MAX_VERSION + 1) if data_capacity(v, level) * 8 >= 12 + 8 * len(payload)),
                   None)
    if version is None:
        raise ValueError(f"{len(payload)} bytes do not fit a version-{MAX_VERSION} QR code at level {level}")
    base, fixed = _function_patterns(version)
    codewords = _codewords(payload, version, level)
    bits = [(c >> (7 - i)) & 1 == 1 for c in codewords for i in range(8)]
    positions = data_positions(fixed)
    candidates = []
    for number, flips in enumerate(MASKS):
        if mask is not None and number != mask:
            continue
        m = [row[:] for row in base]
        for (x, y), bit in zip(positions, bits + [False] * (len(positions) - len(bits)), strict=True):
            m[y][x] = bit != flips(x, y)
        fmt = _format_bits(level, number)
        for copy in format_positions(len(m)):
            for i, (x, y) in enumerate(copy):
                m[y][x] = (fmt >> i) & 1 == 1
        candidates.append((_penalty(m), number, m))
    return min(candidates, key=lambda c: c[:2])[2]


def render(matrix: Matrix) -> str:
    """Two rows of modules per line in half blocks, black on white (ANSI colours), with the quiet zone."""
    size = len(matrix)
    light = [False] * (size + 2 * QUIET)
    rows = [light] * QUIET + [[False] * QUIET + row + [False] * QUIET for row in matrix] + [light] * (QUIET + 1)
    glyphs = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584", (True, True): "\u2588"}
    lines = []
    for top, bottom in zip(rows[0:-1:2], rows[1::2], strict=True):
        lines.append("\x1b[30;107m" + "".join(glyphs[t, b] for t, b in zip(top, bottom, strict=True)) + "\x1b[0m")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 shooter/qr.py TEXT", file=sys.stderr)
        return 2
    try:
        print(render(encode(argv[0])))
    except ValueError as exc:
        print(f"qr: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
