"""Points shaped like a course's rubric: behaviour (the facts) apart from format (the text).

A folder's ``casino.yaml`` (or a transcript) may split each run's points::

    rubric: {format: 0.5, behaviour: 5}     # weights: here 0.5 of every 5.5 is format
    facts:                                  # what the behaviour is judged on, in order
      numbers: true                         # every number (01 = 1, 5.00 = 5)
      words: [hold, wins, TWO PAIR]         # these words (whole, any case, any spaces)
      patterns: ['[2-9TJQKA][HDCS]']        # each match of these regexes

``words: all`` makes every word (a run of letters) a fact. A run that is not exact keeps the
behaviour share of its points for the facts it prints right, the whole run's facts aligned
with the expected ones (:func:`casino.harness.judging.judge_behaviour`,
:mod:`casino.harness.behaviour`); the format share needs the exact text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from casino.harness import regex
from casino.harness.yamltext import FlowList

MAX_FACT_RULES = 200
"""A folder states at most this many words and patterns in all."""
MAX_RULE_LENGTH = 200
"""Each word or pattern has at most this many characters."""
_NUMBER = r"\d+(?:\.\d+)?"
_LETTERS = r"[^\W\d_]+"


@dataclass(frozen=True)
class Rubric:
    """How a run's points split between format (the exact text) and behaviour (its facts)."""

    format: float
    behaviour: float

    @property
    def format_share(self) -> float:
        """The part of each run's points that needs the exact text (0 to 1)."""
        total = self.format + self.behaviour
        return self.format / total if total else 0.0


@dataclass(frozen=True)
class Fact:
    """One fact found in a text: where, and its canonical form."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Facts:
    """What counts as a fact of a program's output (see the module's docstring)."""

    numbers: bool = False
    words: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    all_words: bool = False

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        parts = [f"(?P<p{i}>{pattern})" for i, pattern in enumerate(self.patterns)]
        for index, word in sorted(enumerate(self.words), key=lambda pair: -len(pair[1])):
            body = r"\s+".join(re.escape(piece) for piece in word.split())
            parts.append(f"(?P<w{index}>(?<!\\w)(?i:{body})(?!\\w))")
        if self.numbers:
            parts.append(f"(?P<n>{_NUMBER})")
        if self.all_words:
            parts.append(f"(?P<a>{_LETTERS})")
        return re.compile("|".join(parts) or "(?!)")

    def find(self, text: str, *, trusted: bool = False) -> list[Fact]:
        """The facts of ``text``, in order. A program's output (not ``trusted``) is searched
        with the patterns in a child process (:mod:`casino.harness.regex`): one that does not
        finish within the budget raises :class:`casino.harness.regex.PatternTimeout`. A
        transcript's own text is ``trusted``: searched here."""
        if self.patterns and not trusted:
            return regex.bounded(lambda: self._find(text), "facts", regex.BUDGET_SECONDS)
        return self._find(text)

    def _find(self, text: str) -> list[Fact]:
        return [Fact(m.start(), m.end(), self._canonical(m)) for m in self._regex.finditer(text)]

    def _canonical(self, found: re.Match[str]) -> str:
        """A word as listed, a number by its value, anything else as printed."""
        group = found.lastgroup or ""
        if group.startswith("w"):
            return self.words[int(group[1:])]
        if group == "n":
            from decimal import Decimal  # here: only a rubric's numbers need it

            return format(Decimal(found.group()).normalize(), "f")
        return found.group()

    def of(self, text: str, *, trusted: bool = False) -> list[str]:
        """The facts of ``text`` in their canonical forms (``trusted``: see :meth:`find`)."""
        return [fact.text for fact in self.find(text, trusted=trusted)]


EVERY_WORD_AND_NUMBER = Facts(numbers=True, all_words=True)
"""The facts when a rubric names none: every word and every number (so spaces, line ends and
punctuation are format)."""


@dataclass(frozen=True)
class Grading:
    """A rubric and the facts its behaviour share is judged on (what a run is graded by)."""

    rubric: Rubric
    facts: Facts = EVERY_WORD_AND_NUMBER


def parse_rubric(value: Any, error: Callable[[str], Exception]) -> Rubric:
    """``{format: 0.5, behaviour: 5}`` (both weights, at least one above 0)."""
    if not isinstance(value, dict) or set(value) != {"format", "behaviour"}:
        raise error("'rubric' must be a mapping of 'format' and 'behaviour' (weights)")
    weights = [_weight(value[key], key, error) for key in ("format", "behaviour")]
    if not sum(weights):
        raise error("'rubric': 'format' and 'behaviour' cannot both be 0")
    return Rubric(*weights)


def _weight(value: Any, key: str, error: Callable[[str], Exception]) -> float:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,9})?", value):
        raise error(f"'rubric': {key!r} must be a number from 0 to 999999999")
    return float(value)


def parse_facts(value: Any, error: Callable[[str], Exception]) -> Facts:
    """``{numbers: true, words: [...] or all, patterns: [...]}`` (each key optional)."""
    if not isinstance(value, dict) or not value or set(value) - {"numbers", "words", "patterns"}:
        raise error("'facts' must be a mapping of 'numbers', 'words' and 'patterns'")
    numbers = value.get("numbers", "false")
    if numbers not in ("true", "false"):
        raise error("'facts': 'numbers' must be true or false")
    every = value.get("words") == "all"
    words = () if every else _texts(value.get("words", []), "words", error)
    patterns = _texts(value.get("patterns", []), "patterns", error)
    if len(words) + len(patterns) > MAX_FACT_RULES:
        raise error(f"'facts': at most {MAX_FACT_RULES} words and patterns in all")
    for pattern in patterns:
        try:
            compiled = re.compile(pattern)
        except re.error as problem:
            raise error(f"'facts': pattern {pattern!r}: {problem}") from None
        if compiled.groupindex or compiled.match(""):
            raise error(f"'facts': pattern {pattern!r} must not be empty or name groups")
    if any(not word.split() for word in words):
        raise error("'facts': a word must not be empty")
    return Facts(numbers == "true", words, patterns, every)


def _texts(value: Any, key: str, error: Callable[[str], Exception]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise error(f"'facts': {key!r} must be a list of texts" + (" or all" * (key == "words")))
    if any(len(item) > MAX_RULE_LENGTH for item in value):
        raise error(f"'facts': each of {key!r} has at most {MAX_RULE_LENGTH} characters")
    return tuple(value)


def rubric_data(rubric: Rubric) -> dict[str, int | float]:
    """The rubric as written in YAML."""
    return {"format": _plain(rubric.format), "behaviour": _plain(rubric.behaviour)}


def facts_data(facts: Facts) -> dict[str, Any]:
    """The facts as written in YAML (only the keys that say something)."""
    data: dict[str, Any] = {}
    if facts.numbers:
        data["numbers"] = True
    if facts.all_words:
        data["words"] = "all"
    elif facts.words:
        data["words"] = FlowList(facts.words)
    if facts.patterns:
        data["patterns"] = FlowList(facts.patterns)
    return data


def _plain(value: float) -> int | float:
    return int(value) if value.is_integer() else value
