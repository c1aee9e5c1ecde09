"""The installer's QR code (shooter/qr.py): what the terminal shows is read back module by module and decoded by a
reader written here from the standard (format bits, unmasking, the codewords' order, the Reed-Solomon syndromes,
the byte-mode payload), and by zbar's zbarimg where it is installed (apt install zbar-tools)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shooter import qr

REPO = Path(__file__).parent.parent
URLS = ["http://a.local:8080", "http://shooter.local:8080", "http://uno-shooter-kitchen.local:65535",
        "http://" + "x" * 63 + ".local:8080"]   # the longest host name DNS allows


def parse(text: str) -> list[list[bool]]:
    """The modules the terminal shows: two rows per line of half blocks, quiet zone cut off."""
    rows: list[list[bool]] = []
    for coloured in text.splitlines():
        line = coloured.removeprefix("\x1b[30;107m").removesuffix("\x1b[0m")
        rows.append([c in "\u2580\u2588" for c in line])
        rows.append([c in "\u2584\u2588" for c in line])
    q = qr.QUIET
    size = len(rows[0]) - 2 * q
    assert not any(any(r) for r in rows[:q] + rows[q + size:]), "the quiet zone is not light"
    assert not any(any(r[:q] + r[q + size:]) for r in rows), "the quiet zone is not light"
    return [r[q:q + size] for r in rows[q:q + size]]


# GF(256) by tables, apart from the encoder's bitwise product
EXP = [1] * 512
for _i in range(1, 255):
    EXP[_i] = EXP[_i - 1] << 1 ^ (0x11D if EXP[_i - 1] & 0x80 else 0)
for _i in range(255, 512):
    EXP[_i] = EXP[_i - 255]
LOG = {EXP[i]: i for i in range(255)}


def syndromes(block: list[int], ecc: int) -> list[int]:
    """The block as a polynomial evaluated at alpha^0..alpha^(ecc-1): all zero for a valid codeword."""
    out = []
    for i in range(ecc):
        value = 0
        for c in block:
            value = (EXP[LOG[value] + i] if value else 0) ^ c
        out.append(value)
    return out


# The standard's masks as it writes them, of row i and column j
SPEC_MASKS = [lambda i, j: (i + j) % 2 == 0, lambda i, j: i % 2 == 0, lambda i, j: j % 3 == 0,
              lambda i, j: (i + j) % 3 == 0, lambda i, j: (i // 2 + j // 3) % 2 == 0,
              lambda i, j: (i * j) % 2 + (i * j) % 3 == 0, lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
              lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0]


def is_function(i: int, j: int, size: int) -> bool:
    """Row i, column j holds a finder, separator, format bit, timing, the alignment pattern or the dark module."""
    a = size - 7   # the alignment pattern's centre (versions 2..6)
    return (i < 9 and j < 9) or (i < 9 and j >= size - 8) or (i >= size - 8 and j < 9) or i == 6 or j == 6 \
        or (size > 21 and abs(i - a) <= 2 and abs(j - a) <= 2)


def zigzag(size: int) -> list[tuple[int, int]]:
    """(row, column) of the data modules in reading order: column pairs from the right, up first, then down..."""
    order = []
    columns = [c for c in range(size - 1, 0, -2)]
    columns = [c - 1 if c <= 6 else c for c in columns]
    for n, right in enumerate(columns):
        rows = range(size - 1, -1, -1) if n % 2 == 0 else range(size)
        order += [(i, j) for i in rows for j in (right, right - 1) if not is_function(i, j, size)]
    return order


def format_bits(m: list[list[bool]]) -> tuple[int, int]:
    """Both copies of the 15 format bits, most significant first as the standard numbers them 14..0."""
    size = len(m)
    near = [m[8][j] for j in (0, 1, 2, 3, 4, 5, 7, 8)] + [m[i][8] for i in (7, 5, 4, 3, 2, 1, 0)]
    split = [m[i][8] for i in range(size - 1, size - 8, -1)] + [m[8][j] for j in range(size - 8, size)]
    return tuple(int("".join("1" if b else "0" for b in bits), 2) for bits in (near, split))


def read(m: list[list[bool]]) -> tuple[str, int, str]:
    """Level, mask and text of a version 1..6 byte-mode code, read as a decoder reads it, with nothing of the
    encoder but its tables of block sizes."""
    size = len(m)
    version = (size - 17) // 4
    bits = format_bits(m)
    assert bits[0] == bits[1], "the two copies of the format bits differ"
    fmt = bits[0] ^ 0x5412
    rem = fmt
    for i in range(14, 9, -1):        # BCH(15,5): the 15 bits are a multiple of the generator 0x537
        if rem >> i & 1:
            rem ^= 0x537 << (i - 10)
    assert rem == 0, "the format bits are not a BCH codeword"
    level = {0b01: "L", 0b00: "M", 0b11: "Q", 0b10: "H"}[fmt >> 13]
    mask = fmt >> 10 & 7
    assert m[size - 8][8], "no dark module"
    raw = [m[i][j] != SPEC_MASKS[mask](i, j) for i, j in zigzag(size)]
    codewords = [int("".join("1" if b else "0" for b in raw[i:i + 8]), 2) for i in range(0, len(raw) - 7, 8)]
    assert len(codewords) == qr.RAW_CODEWORDS[version - 1]
    ecc, count = qr.LEVELS[level][1][version - 1]
    data_len = qr.data_capacity(version, level) // count
    assert qr.data_capacity(version, level) % count == 0   # versions 1..6 at L and M: blocks of one length
    blocks = [[codewords[i * count + b] for i in range(data_len)] +
              [codewords[data_len * count + i * count + b] for i in range(ecc)] for b in range(count)]
    for block in blocks:
        assert syndromes(block, ecc) == [0] * ecc, "a block fails its Reed-Solomon check"
    data = "".join(f"{c:08b}" for block in blocks for c in block[:data_len])
    assert data[:4] == "0100", "not byte mode"
    length = int(data[4:12], 2)
    text = bytes(int(data[12 + 8 * i:20 + 8 * i], 2) for i in range(length)).decode()
    rest = data[12 + 8 * length:]
    end = min(4, len(rest)) + (-(12 + 8 * length + min(4, len(rest))) % 8)   # terminator, then to a whole byte
    assert rest[:end] == "0" * end, "no terminator"
    pads = [int(rest[i:i + 8], 2) for i in range(end, len(rest), 8)]
    assert pads == [(0xEC, 0x11)[i % 2] for i in range(len(pads))], "the pad bytes are not 0xEC 0x11 ..."
    return level, mask, text


@pytest.mark.parametrize("level", ["L", "M"])
@pytest.mark.parametrize("url", URLS)
def test_what_the_terminal_shows_decodes_to_the_address(url, level):
    matrix = qr.encode(url, level)
    assert parse(qr.render(matrix)) == matrix
    read_level, _, text = read(parse(qr.render(matrix)))
    assert (read_level, text) == (level, url)


@pytest.mark.parametrize("mask", range(8))
def test_every_mask_decodes(mask):
    for version_text in ("http://x.local", "http://shooter.local:8080/" + "y" * 60):
        matrix = qr.encode(version_text, "M", mask)
        assert read(matrix) == ("M", mask, version_text)


def test_each_length_takes_the_smallest_version_that_holds_it():
    for level in ("L", "M"):
        for n in range(1, qr.data_capacity(qr.MAX_VERSION, level) - 1):
            version = (len(qr.encode("h" * n, level)) - 17) // 4
            assert qr.data_capacity(version, level) * 8 >= 12 + 8 * n
            assert version == 1 or qr.data_capacity(version - 1, level) * 8 < 12 + 8 * n


def test_the_best_mask_is_the_lowest_penalty():
    url = "http://shooter.local:8080"
    scores = [qr._penalty(qr.encode(url, "M", mask)) for mask in range(8)]
    assert read(qr.encode(url))[1] == scores.index(min(scores))


def test_the_finders_and_timing_are_where_a_reader_looks():
    m = qr.encode("http://shooter.local:8080")
    size = len(m)
    finder = ["1111111", "1000001", "1011101", "1011101", "1011101", "1000001", "1111111"]
    for x0, y0 in ((0, 0), (size - 7, 0), (0, size - 7)):
        assert ["".join("1" if m[y0 + y][x0 + x] else "0" for x in range(7)) for y in range(7)] == finder
    assert [m[6][x] for x in range(8, size - 8)] == [x % 2 == 0 for x in range(8, size - 8)]
    assert [m[y][6] for y in range(8, size - 8)] == [y % 2 == 0 for y in range(8, size - 8)]


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg is not installed (apt install zbar-tools)")
@pytest.mark.parametrize("url", URLS)
def test_zbar_reads_what_the_terminal_shows(url, tmp_path):
    m = parse(qr.render(qr.encode(url)))
    scale, q = 4, qr.QUIET
    side = (len(m) + 2 * q) * scale
    rows = []
    for y in range(side):
        yy = y // scale - q
        rows.append(" ".join("1" if 0 <= yy < len(m) and 0 <= x // scale - q < len(m) and m[yy][x // scale - q]
                             else "0" for x in range(side)))
    image = tmp_path / "qr.pbm"
    image.write_text(f"P1\n{side} {side}\n" + "\n".join(rows) + "\n")
    out = subprocess.run(["zbarimg", "-q", "--raw", str(image)], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == url, out.stderr


def test_more_than_version_6_holds_is_refused_in_one_line():
    with pytest.raises(ValueError, match="107 bytes do not fit a version-6 QR code at level M"):
        qr.encode("x" * 107)
    out = subprocess.run([sys.executable, str(REPO / "shooter/qr.py"), "x" * 107], capture_output=True, text=True,
                         timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (1, "", "qr: 107 bytes do not fit a version-6 QR code at "
                                                                "level M\n")


def test_the_script_runs_with_the_standard_library_alone():
    # the installer runs it with the system's python3 before the venv exists: -I -S, no site-packages
    out = subprocess.run([sys.executable, "-I", "-S", str(REPO / "shooter/qr.py"), "http://shooter.local:8080"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert read(parse(out.stdout.rstrip("\n")))[2] == "http://shooter.local:8080"
    usage = subprocess.run([sys.executable, str(REPO / "shooter/qr.py")], capture_output=True, text=True, timeout=60)
    assert (usage.returncode, usage.stderr) == (2, "usage: python3 shooter/qr.py TEXT\n")
