"""Java's ``DataOutputStream.writeUTF`` / ``DataInputStream.readUTF`` framing, exactly.

A frame is a 2-byte big-endian length followed by that many bytes of *modified* UTF-8:

- U+0000 is written as the two bytes ``C0 80`` (so a frame never holds a zero byte);
- a character outside the Basic Multilingual Plane is written as its UTF-16 surrogate pair,
  each surrogate encoded on its own in three bytes (CESU-8), never as a 4-byte sequence.

Everything else is ordinary UTF-8. Java refuses to write more than 65,535 encoded bytes,
and so does :func:`encode_frame`.

>>> encode_frame("bet:5")
b'\\x00\\x05bet:5'
>>> decode_text(encode_text("a\\x00😀")) == "a\\x00😀"
True
"""

from __future__ import annotations

from casino.errors import ParseError

MAX_FRAME = 0xFFFF
"""The most bytes a frame's body may hold (its length is two bytes)."""


class FrameError(ParseError):
    """Bytes that are not a well-formed Java ``writeUTF`` frame."""


def encode_text(text: str) -> bytes:
    """``text`` in modified UTF-8 (no length prefix)."""
    if text.isascii() and "\x00" not in text:
        return text.encode("ascii")  # the common case: the same bytes as UTF-8
    utf16 = text.encode("utf-16-be", "surrogatepass")
    units = (int.from_bytes(utf16[i : i + 2], "big") for i in range(0, len(utf16), 2))
    out = bytearray()
    for unit in units:
        if 0 < unit < 0x80:
            out.append(unit)
        elif unit < 0x800:
            out += bytes((0xC0 | unit >> 6, 0x80 | unit & 0x3F))
        else:
            out += bytes((0xE0 | unit >> 12, 0x80 | unit >> 6 & 0x3F, 0x80 | unit & 0x3F))
    return bytes(out)


def decode_text(body: bytes) -> str:
    """Modified UTF-8 back to text; :class:`FrameError` for bytes Java would refuse."""
    if body.isascii() and 0 not in body:
        return body.decode("ascii")
    units: list[int] = []
    i, size = 0, len(body)
    while i < size:
        first = body[i]
        if first < 0x80 and first != 0:
            units.append(first)
            i += 1
        elif first & 0xE0 == 0xC0 and i + 1 < size and body[i + 1] & 0xC0 == 0x80:
            units.append((first & 0x1F) << 6 | body[i + 1] & 0x3F)
            i += 2
        elif first & 0xF0 == 0xE0 and i + 2 < size and _continued(body[i + 1 : i + 3]):
            units.append((first & 0x0F) << 12 | (body[i + 1] & 0x3F) << 6 | body[i + 2] & 0x3F)
            i += 3
        else:
            raise FrameError(f"malformed modified UTF-8 at byte {i} of the frame")
    raw = b"".join(unit.to_bytes(2, "big") for unit in units)
    return raw.decode("utf-16-be", "surrogatepass")  # joins valid surrogate pairs


def _continued(pair: bytes) -> bool:
    return all(byte & 0xC0 == 0x80 for byte in pair)


def encode_frame(text: str) -> bytes:
    """``text`` as one ``writeUTF`` frame; :class:`FrameError` if it is too long for Java."""
    body = encode_text(text)
    if len(body) > MAX_FRAME:
        raise FrameError(f"a frame holds at most {MAX_FRAME} bytes, this text needs {len(body)}")
    return len(body).to_bytes(2, "big") + body


class FrameDecoder:
    """Splits a byte stream into frames: :meth:`feed` bytes, get the complete texts back."""

    __slots__ = ("_buffer",)

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[str]:
        """Add ``data``; return every frame now complete, in order."""
        if self._buffer:
            data = bytes(self._buffer + data)
            self._buffer.clear()
        texts: list[str] = []
        start, end = 0, len(data)
        while end - start >= 2:
            stop = start + 2 + (data[start] << 8 | data[start + 1])
            if stop > end:
                break
            texts.append(decode_text(data[start + 2 : stop]))
            start = stop
        if start < end:
            self._buffer += data[start:]
        return texts

    @property
    def pending(self) -> int:
        """How many bytes of an incomplete frame are waiting."""
        return len(self._buffer)


class FramePoster:
    """What a frame connection's ``post`` queues: frames that take no reply, to go out in one
    packet with the next frame it sends (so the peer wakes once)."""

    _posted = b""

    def post(self, text: str) -> None:
        """Queue ``text`` to go out with the next :meth:`with_posted`."""
        self._posted += encode_frame(text)

    def with_posted(self, text: str) -> bytes:
        """The frames :meth:`post` queued (no longer queued) and then ``text``'s frame."""
        data = encode_frame(text)
        if self._posted:
            data, self._posted = self._posted + data, b""
        return data
