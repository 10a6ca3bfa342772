"""Screenshots of a virtual display: ``xwd`` captures it, and this turns the dump into a PNG.

Only the layout every Xvfb at depth 24 produces is read (ZPixmap, 32 bits a pixel, masks
ff0000/00ff00/0000ff); anything else is refused with :class:`ValueError`.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

_HEADER_FIELDS = 25
_ZPIXMAP = 2
_LSB_FIRST = 0


def xwd_to_png(xwd: bytes) -> tuple[bytes, int, int]:
    """The PNG of an X window dump, with its width and height."""
    fields = struct.unpack(f">{_HEADER_FIELDS}I", xwd[: 4 * _HEADER_FIELDS])
    header_size, _, pixmap_format, _, width, height = fields[:6]
    byte_order, bits_per_pixel, bytes_per_line = fields[7], fields[11], fields[12]
    masks, ncolors = fields[14:17], fields[19]
    if (pixmap_format, bits_per_pixel, masks) != (_ZPIXMAP, 32, (0xFF0000, 0xFF00, 0xFF)):
        raise ValueError("not a 24-bit true-colour window dump")
    red, green, blue = (2, 1, 0) if byte_order == _LSB_FIRST else (1, 2, 3)
    start = header_size + 12 * ncolors
    rows = []
    for y in range(height):
        line = xwd[start + y * bytes_per_line : start + y * bytes_per_line + 4 * width]
        rgb = bytearray(3 * width)
        rgb[0::3], rgb[1::3], rgb[2::3] = line[red::4], line[green::4], line[blue::4]
        rows.append(b"\x00" + bytes(rgb))
    return _png(width, height, b"".join(rows)), width, height


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def save_png(xwd_path: Path, png_path: Path) -> tuple[int, int]:
    """Convert the dump at ``xwd_path`` into ``png_path``; return its size."""
    png, width, height = xwd_to_png(xwd_path.read_bytes())
    png_path.write_bytes(png)
    return width, height
