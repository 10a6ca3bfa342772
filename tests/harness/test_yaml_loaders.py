"""casino's limits on a transcript's YAML give the same one-line error whatever PyYAML does.

libyaml 0.2.6 (bundled with PyYAML 6.0.2 and later) stops nesting deeper than 1000 levels with
its own ``exceeded maximum nesting depth``, scanning ahead of the events casino checks; the
pure-Python loader has no such limit. Each hostile text is read with the C loader (when this
PyYAML has one), the pure one, and a pure one given a limit of its own as a later release might
have: the error is the same, casino's own, saying where.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from casino.harness import yamltext
from casino.harness.load import MAX_TRANSCRIPT_BYTES, load_transcript
from casino.harness.model import TranscriptError
from casino.harness.yamltext import MAX_DEPTH, TextError, load_text

DEEP = f"nested more than {MAX_DEPTH} deep"
LIMIT = 40
"""The nesting limit of :class:`LimitedLoader`: above casino's, far below libyaml's 1000."""


class LimitedLoader(yaml.BaseLoader):
    """The pure-Python loader with a nesting limit of its own, worded as libyaml words it."""

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        if self.flow_level >= LIMIT:
            raise yaml.scanner.ScannerError(
                "while increasing flow level",
                None,
                "exceeded maximum nesting depth",
                self.get_mark(),
            )
        super().fetch_flow_collection_start(token_class)


LOADERS = {
    "pure": yaml.BaseLoader,
    "limited": LimitedLoader,
    "libyaml": getattr(yaml, "CBaseLoader", None),
}


@pytest.fixture(params=sorted(LOADERS))
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each way PyYAML may read a transcript, in turn."""
    name: str = request.param
    if LOADERS[name] is None:
        pytest.skip("this PyYAML has no C loader (libyaml)")
    monkeypatch.setattr(yamltext, "_EventLoader", LOADERS[name])
    return name


def nested_blocks(levels: int) -> str:
    """``levels`` block sequences, each one line and two columns deeper."""
    return "".join(f"{'  ' * level}-\n" for level in range(levels)) + "  " * levels + "- x\n"


def problem(text: str) -> str:
    with pytest.raises(TextError) as raised:
        load_text(text)
    message = str(raised.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 25_000, f"line 1, column {MAX_DEPTH + 1}: {DEEP}"),
        ("[" * 1_001 + "]" * 1_001, f"line 1, column {MAX_DEPTH + 1}: {DEEP}"),
        ("{a: " * 25_000, f"line 1, column {4 * MAX_DEPTH + 1}: {DEEP}"),
        ("[\n" * 3_000, f"line {MAX_DEPTH + 1}, column 1: {DEEP}"),
        ("a: b\nc: [" + "[" * 2_000, f"line 2, column {3 + MAX_DEPTH}: {DEEP}"),
        (nested_blocks(3_000), f"line {MAX_DEPTH + 1}, column {2 * MAX_DEPTH + 1}: {DEEP}"),
        ("a: b\na: [" + "[" * 2_000, "line 2, column 1: key 'a' appears twice in this mapping"),
        ("- &a x\n- [" + "[" * 2_000, "line 1, column 3: an anchor (&a): a transcript has none"),
        ("- *a\n- " + "[" * 2_000, "line 1, column 3: an alias (*a): a transcript has none"),
    ],
)
def test_the_same_error_with_every_loader(loader: str, text: str, expected: str) -> None:
    assert problem(text) == expected


def test_nesting_casino_allows_loads_with_every_loader(loader: str) -> None:
    deepest = "[" * MAX_DEPTH + "x" + "]" * MAX_DEPTH
    value: Any = load_text(deepest)
    for _ in range(MAX_DEPTH):
        (value,) = value
    assert value == "x"


def test_a_library_limit_casino_cannot_place_is_still_casino_s_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where reading the text before the library's stop finds nothing wrong (it cannot, with
    the limits PyYAML has), the error is casino's, at the library's mark."""
    monkeypatch.setattr(yamltext, "_EventLoader", LimitedLoader)
    monkeypatch.setattr(yamltext, "MAX_DEPTH", 1_000)
    assert problem("x: " + "[" * 50) == f"line 1, column {4 + LIMIT}: nested more than 1000 deep"


def test_the_size_limit_comes_before_any_yaml(tmp_path: Any, loader: str) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("[" * (MAX_TRANSCRIPT_BYTES + 1), encoding="utf-8")
    with pytest.raises(TranscriptError) as raised:
        load_transcript(big)
    assert str(raised.value) == f"{big}: cannot read: more than 4 MiB"


def test_the_refused_characters_are_exactly_those_outside_yaml_s_printable_set() -> None:
    """Every code point: refused exactly when YAML 1.1 does not allow it in a stream."""

    def printable(point: int) -> bool:
        ranges = ((0x20, 0x7E), (0xA0, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF))
        listed = point in (0x09, 0x0A, 0x0D, 0x85)
        return listed or any(low <= point <= high for low, high in ranges)

    pattern = yamltext._not_yaml()
    refused = {point for point in range(0x110000) if pattern.match(chr(point))}
    assert refused == {point for point in range(0x110000) if not printable(point)}
