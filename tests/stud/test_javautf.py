"""Java writeUTF framing: modified UTF-8 byte for byte, and frames split anywhere."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.net.javautf import (
    MAX_FRAME,
    FrameDecoder,
    FrameError,
    decode_text,
    encode_frame,
    encode_text,
)


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("bet:5", b"bet:5"),
        ("\x00", b"\xc0\x80"),  # NUL is two bytes, never a zero byte
        ("é", b"\xc3\xa9"),
        ("€", b"\xe2\x82\xac"),
        ("😀", b"\xed\xa0\xbd\xed\xb8\x80"),  # a surrogate pair, three bytes each
        ("\u07ff\u0800", b"\xdf\xbf\xe0\xa0\x80"),
    ],
)
def test_modified_utf8_matches_java(text: str, body: bytes) -> None:
    assert encode_text(text) == body
    assert decode_text(body) == text


def test_frame_has_big_endian_length() -> None:
    assert encode_frame("login") == b"\x00\x05login"
    assert encode_frame("é" * 200)[:2] == (400).to_bytes(2, "big")


def test_frame_too_long_for_java_is_refused() -> None:
    assert len(encode_frame("a" * MAX_FRAME)) == MAX_FRAME + 2
    with pytest.raises(FrameError, match="at most 65535"):
        encode_frame("a" * (MAX_FRAME + 1))


@pytest.mark.parametrize("body", [b"\x00", b"\xf0\x9f\x98\x80", b"\xc3", b"\x80", b"\xe2\x82"])
def test_bytes_java_would_refuse_are_frame_errors(body: bytes) -> None:
    with pytest.raises(FrameError, match="malformed modified UTF-8"):
        decode_text(body)


@given(st.text())
def test_any_text_round_trips(text: str) -> None:
    assert decode_text(encode_text(text)) == text
    assert 0 not in encode_text(text)


@given(st.lists(st.text(max_size=20), max_size=6), st.integers(1, 7))
def test_decoder_reassembles_frames_fed_in_pieces(texts: list[str], step: int) -> None:
    data = b"".join(encode_frame(text) for text in texts)
    decoder = FrameDecoder()
    got: list[str] = []
    for start in range(0, len(data), step):
        got += decoder.feed(data[start : start + step])
    assert got == texts
    assert decoder.pending == 0
