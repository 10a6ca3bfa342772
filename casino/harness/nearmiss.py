"""Near misses: output that differs from a transcript's only in whitespace or letter case.

Exact is the verdict's default (:mod:`casino.harness.matching`). When a run's output differs only in
whitespace at line ends, a missing final newline, ``\r\n`` line endings, blank lines or
letter case, :attr:`TextComparison.note` says so in words (``differs only in trailing spaces
on 3 lines``), and the report puts it above the diff. A transcript, a folder or ``--match`` may
*allow* some of these (:data:`casino.harness.model.MATCH_KINDS`): the run then passes, and the
note says what was allowed. ``trailing-space`` allows spaces and tabs at line ends, ``\r\n``
and the newlines at the end of the text; ``blank-lines`` empty lines; ``case`` letter case.
Around ``out_re`` steps each chunk is loosened on its own (a pattern keeps its own rules; with
``case`` it ignores case), so a blank line or trailing space split across two steps is judged
strictly there (a near miss may then go unnamed, never a real difference be named one);
``out_any`` steps without an ``out_re`` are tried one combination of texts at a time.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from casino.harness import regex
from casino.harness.matching import Piece, piece_regex
from casino.harness.model import Out, OutAny, Output, OutRe

_LINE_ENDS = "line-ends"
_FINAL_NEWLINE = "final-newline"
_TRAILING = "trailing-space"
_BLANK = "blank-lines"
_CASE = "case"
ALL_KINDS = (_LINE_ENDS, _FINAL_NEWLINE, _TRAILING, _BLANK, _CASE)
"""Near misses, in the order they are tried and named."""
_ALLOWS = {
    "trailing-space": (_LINE_ENDS, _FINAL_NEWLINE, _TRAILING),
    "blank-lines": (_BLANK,),
    "case": (_CASE,),
}
"""What each kind a transcript may allow (``match:``) lets pass."""
_SPACES_AT_END = re.compile(r"[ \t]+(?=\n)|[ \t]+\Z")
_BLANKS = re.compile(r"(?<=\n)\n+|\A\n+")
_INNER_BLANKS = re.compile(r"(?<=\n)\n+")


def kinds_of(allowed: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(kind for kind in ALL_KINDS if any(kind in _ALLOWS[a] for a in allowed))


def loosen(text: str, kinds: tuple[str, ...], *, end: bool = True, start: bool = True) -> str:
    """``text`` with the differences ``kinds`` stand for taken out (``end``: the text ends
    there, so its final newlines may go; ``start``: it starts there, so may its first)."""
    if _LINE_ENDS in kinds:
        text = text.replace("\r\n", "\n")
    if _TRAILING in kinds:
        text = _SPACES_AT_END.sub("", text) if end else re.sub(r"[ \t]+(?=\n)", "", text)
    if _BLANK in kinds:
        text = (_BLANKS if start else _INNER_BLANKS).sub("", text)
    if _FINAL_NEWLINE in kinds and end:
        text = text.rstrip("\n")
    if _CASE in kinds:
        text = text.casefold()
    return text


def _loosened_step(step: Output, kinds: tuple[str, ...], last: bool) -> Output:
    if isinstance(step, Out):
        return Out(loosen(step.text, kinds, end=last, start=False))
    if isinstance(step, OutAny):
        texts = (loosen(t, kinds, end=last, start=False) for t in step.texts)
        return OutAny(tuple(dict.fromkeys(texts)))
    return step


def expected_texts(steps: tuple[Output, ...], limit: int) -> list[str] | None:
    """Every text the output ``steps`` allow, each ``out_any`` text in turn (casino's own,
    the first, first); ``None`` with an ``out_re`` step or past ``limit`` combinations."""
    texts = [""]
    for step in steps:
        if isinstance(step, OutRe):
            return None
        options = step.texts if isinstance(step, OutAny) else (step.text,)
        if len(texts) * len(options) > limit:
            return None
        texts = [text + option for text in texts for option in options]
    return texts


_LOOSE_TEXTS = 256
"""A run's ``out_any`` combinations tried one by one for a near miss (past that, each step
is loosened on its own, as around an ``out_re``)."""


def passes(pieces: list[Piece], actual: str, kinds: tuple[str, ...]) -> bool:
    """Whether ``actual`` matches the pieces once the ``kinds`` of difference are taken out."""
    return _concrete_text(pieces, actual, kinds) is not None or (
        expected_texts(tuple(step for _, step in pieces), _LOOSE_TEXTS) is None
        and _loose_match(tuple(step for _, step in pieces), actual, kinds)
    )


def _concrete_text(pieces: list[Piece], actual: str, kinds: tuple[str, ...]) -> str | None:
    """The first text the pieces allow that equals ``actual`` once ``kinds`` are taken out."""
    texts = expected_texts(tuple(step for _, step in pieces), _LOOSE_TEXTS) or []
    target = loosen(actual, kinds)
    return next((text for text in texts if loosen(text, kinds) == target), None)


def _loose_match(steps: tuple[Output, ...], actual: str, kinds: tuple[str, ...]) -> bool:
    """Whether the steps, each loosened on its own, match ``actual`` loosened alike (the end
    of the text is loosened only when it is not a pattern's); an ``out_re`` within its time
    budget (one that runs out of it does not match)."""
    last = len(steps) - 1
    end = bool(steps) and not isinstance(steps[-1], OutRe)
    loose = tuple(_loosened_step(step, kinds, i == last and end) for i, step in enumerate(steps))
    flags = re.IGNORECASE if _CASE in kinds else 0
    pattern = piece_regex(loose, flags)
    text = loosen(actual, kinds, end=end, start=False)
    if not any(isinstance(step, OutRe) for step in steps):
        return pattern.fullmatch(text) is not None  # literal texts only: linear
    try:
        return regex.fullmatch(pattern, text)
    except regex.PatternTimeout:
        return False


def near_miss(pieces: list[Piece], actual: str, kinds: tuple[str, ...]) -> str | None:
    """``differs only in trailing spaces on 3 lines``: the fewest of ``kinds`` that explain
    every difference, in words; ``None`` if they do not explain it."""
    if not passes(pieces, actual, kinds):
        return None
    needed = list(kinds)
    for kind in kinds:
        fewer = tuple(k for k in needed if k != kind)
        if passes(pieces, actual, fewer):
            needed.remove(kind)
    expected = _concrete(pieces, actual, tuple(needed))
    parts = [_words(kind, tuple(needed), expected, actual) for kind in needed]
    if not parts:
        return None
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return f"differs only in {listed}"


def _concrete(pieces: list[Piece], actual: str, kinds: tuple[str, ...]) -> str | None:
    """The expected text with each ``out_any`` as the text that matched (``None`` with an
    ``out_re``: its lines are not counted)."""
    return _concrete_text(pieces, actual, kinds)


_LINE_LOOSENERS: dict[str, Callable[[str], str]] = {
    _LINE_ENDS: lambda line: line.removesuffix("\r"),
    _TRAILING: lambda line: line.rstrip(" \t"),
    _CASE: str.casefold,
}


def _loosen_line(line: str, kinds: tuple[str, ...]) -> str:
    for kind, loosener in _LINE_LOOSENERS.items():
        if kind in kinds:
            line = loosener(line)
    return line


def _words(kind: str, needed: tuple[str, ...], expected: str | None, actual: str) -> str:
    """One kind of near miss in words, with the lines it touches when they can be counted."""
    if kind == _FINAL_NEWLINE:
        if expected is not None and expected.endswith("\n") and not actual.endswith("\n"):
            return "a missing final newline"
        return "the newlines at the end"
    if kind == _BLANK:
        return "blank lines"
    what = {_LINE_ENDS: "line endings (\\r\\n for \\n)", _TRAILING: "trailing spaces"}
    what[_CASE] = "letter case"
    count = _lines_needing(kind, needed, expected, actual)
    if count is None:
        return what[kind]
    return f"{what[kind]} on {count} line{'' if count == 1 else 's'}"


def _lines_needing(
    kind: str, needed: tuple[str, ...], expected: str | None, actual: str
) -> int | None:
    """How many lines differ in ``kind`` (they are equal loosened by every kind ``needed``,
    not without ``kind``); ``None`` when the lines do not pair up (blank lines) or cannot be
    known (``out_re``)."""
    if expected is None or _BLANK in needed:
        return None
    wanted, got = expected.split("\n"), actual.split("\n")
    for lines in (wanted, got):
        if lines and lines[-1] == "":
            lines.pop()
    if len(wanted) != len(got):
        return None
    others = tuple(k for k in needed if k != kind)
    count = sum(
        _loosen_line(e, needed) == _loosen_line(a, needed)
        and _loosen_line(e, others) != _loosen_line(a, others)
        for e, a in zip(wanted, got, strict=True)
    )
    return count or None
