"""Output steps against what a program printed, exactly: the first difference, located.

A run's verdict is on its *whole* stdout: the concatenation of its ``out`` chunks (``out_re``
chunks matched in sequence, with backtracking across them). Runners that know where the program
read input do not make the verdict stricter; they only steer the session. So the in-process,
pipe and pty runners judge a program alike, the way a grader comparing ``java Nimsys < in``
would. The first difference is located in the expected text of the whole run (1-based line and
column) and attributed to the step that holds it.

For display, an ``out_re`` or ``out_any`` chunk that matched is shown as the text it matched
(it is not a difference); an ``out_re`` that did not is shown as its pattern, an ``out_any``
that did not as its alternative closest to what was printed (the one sharing the longest start
with it).

Near misses (whitespace, letter case) are :mod:`casino.harness.nearmiss`'s.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from casino.harness import regex
from casino.harness.model import In, Out, OutAny, Output, OutRe, Step, step_label

Piece = tuple[int, Output]
"""An output step and its 1-based number in the run."""


@dataclass(frozen=True)
class Difference:
    """Where the actual text first leaves the expected one (both agree before ``offset``)."""

    offset: int
    line: int
    column: int
    step: str | None = None
    """The step holding the difference (``step 4 (out)``); ``None`` past the last one."""


@dataclass(frozen=True)
class TextComparison:
    """Expected text as shown, actual text, and their first difference (``None``: equal)."""

    expected: str
    actual: str
    difference: Difference | None
    note: str | None = None
    """A near miss in words (``differs only in trailing spaces on 3 lines``), or for a text
    that passed only thanks to what was allowed, that (``passed with match: trailing-space;
    it differs only in …``)."""


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of ``a`` and ``b`` (a binary search on slices)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def compare_text(expected: str, actual: str) -> TextComparison:
    """Exact comparison of two texts."""
    if expected == actual:
        return TextComparison(expected, actual, None)
    offset = common_prefix(expected, actual)
    return TextComparison(expected, actual, Difference(offset, *position(expected, offset)))


def output_pieces(steps: tuple[Step, ...]) -> list[Piece]:
    """The run's ``out``/``out_re`` steps with their step numbers, in order."""
    return [(number, step) for number, step in enumerate(steps, 1) if not isinstance(step, In)]


def compare_exactly(steps: tuple[Step, ...], actual: str) -> TextComparison:
    pieces = output_pieces(steps)
    if all(isinstance(step, Out) for _, step in pieces):
        shown = [step.text for _, step in pieces if isinstance(step, Out)]
        expected = "".join(shown)
        offset = None if expected == actual else common_prefix(expected, actual)
        return _located(pieces, shown, actual, offset)
    return _compare_with_patterns(pieces, actual)


def _located(
    pieces: list[Piece], shown: list[str], actual: str, offset: int | None
) -> TextComparison:
    """The comparison, its difference at ``offset`` naming the step whose text holds it."""
    expected = "".join(shown)
    if offset is None:
        return TextComparison(expected, actual, None)
    ends = [0]
    for text in shown:
        ends.append(ends[-1] + len(text))
    index = bisect.bisect_right(ends, offset) - 1
    label = step_label(pieces[index][1], pieces[index][0]) if index < len(pieces) else None
    return TextComparison(expected, actual, Difference(offset, *position(expected, offset), label))


def _compare_with_patterns(pieces: list[Piece], actual: str) -> TextComparison:
    """Match the pieces in sequence; on failure, find the first piece that cannot match.
    A pattern that does not finish in its budget is a difference naming it (:mod:`regex`)."""
    try:
        return _match_patterns(pieces, actual)
    except regex.PatternTimeout as error:
        expected = "".join(_text(step) for _, step in pieces)
        named = ", ".join(repr(step.pattern) for _, step in pieces if isinstance(step, OutRe))
        why = f"out_re {named}: did not finish matching within {error.seconds:g} s"
        return TextComparison(expected, actual, Difference(0, 1, 1, why))


def _match_patterns(pieces: list[Piece], actual: str) -> TextComparison:
    steps = tuple(step for _, step in pieces)
    if regex.fullmatch(piece_regex(steps), actual):
        return TextComparison(actual, actual, None)
    matched: list[str] = []
    end = 0
    for count in range(1, len(pieces) + 1):
        found = regex.match(piece_regex(steps[:count]), actual)
        if found is None:
            break
        end, groups = found
        matched = [groups[f"casino_step{index}"] or "" for index in range(count)]
    offset = end
    rest = actual[end:]
    shown = matched + [_text(step, rest) for step in steps[len(matched) :]]
    if len(matched) < len(pieces) and not isinstance(steps[len(matched)], OutRe):
        offset += common_prefix(shown[len(matched)], rest)
    return _located(pieces, shown, actual, offset)


def _text(step: Output, actual: str = "") -> str:
    """The step's text as shown when it did not match: the text, the pattern, or the
    alternative closest to ``actual`` (the longest common start; the first on a tie)."""
    if isinstance(step, OutAny):
        return max(step.texts, key=lambda text: common_prefix(text, actual))
    return step.text if isinstance(step, Out) else step.pattern


@lru_cache(maxsize=1024)
def piece_regex(steps: tuple[Output, ...], flags: int = 0) -> re.Pattern[str]:
    """One regex for a run of output steps, each in its own named group ``casino_stepN``
    (an ``out_any`` step is the alternation of its texts, longest first).

    (Numbered backreferences inside an ``out_re`` pattern therefore do not work; named do.)"""
    parts = []
    for index, step in enumerate(steps):
        if isinstance(step, Out):
            body = re.escape(step.text)
        elif isinstance(step, OutAny):
            texts = sorted(step.texts, key=len, reverse=True)
            body = "(?:" + "|".join(re.escape(text) for text in texts) + ")"
        else:
            body = scoped(step.pattern)
        parts.append(f"(?P<casino_step{index}>{body})")
    return re.compile("".join(parts), flags)


_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")


def scoped(pattern: str) -> str:
    """``pattern`` safe to embed: leading global flags ``(?s)`` become a scoped ``(?s:…)``."""
    flags = _GLOBAL_FLAGS.match(pattern)
    if flags:
        return f"(?{flags.group(1)}:{pattern[flags.end() :]})"
    return f"(?:{pattern})"
