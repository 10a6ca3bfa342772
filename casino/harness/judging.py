"""Judging a run's behaviour: the facts of its expected output found in what it printed.

When a run graded by a rubric does not pass, :func:`judge_behaviour` aligns the facts each
output step expects with the program's facts (:mod:`casino.harness.behaviour`), and the run
keeps its behaviour share for the facts it got right (``docs/transcripts.md``, "Behaviour
credit").
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from itertools import accumulate

from casino.harness import regex
from casino.harness.behaviour import Behaviour, Expected, common_pairs, credit
from casino.harness.matching import compare_exactly, output_pieces, scoped
from casino.harness.model import In, Out, OutAny, Output, OutRe, Step, step_label
from casino.harness.nearmiss import ALL_KINDS, passes
from casino.harness.rubric import Fact, Facts, Grading


def nothing_kept(share: float, why: str) -> Behaviour:
    """A behaviour that keeps nothing, for ``why``."""
    return Behaviour(share, 1, 0, wrong=why, weight=1.0)


@dataclass(frozen=True)
class _Piece:
    """One output step of the run as the behaviour judge sees it."""

    step: Output
    label: str
    free_from: int | None = None
    """Where in its text the facts the program prints whatever its input start (0: all of
    them; ``None``: none)."""


def judge_behaviour(steps: tuple[Step, ...], actual: str, grading: Grading) -> Behaviour:
    """How ``actual`` holds the facts of the run's output steps: the whole run's expected
    facts (each ``out``'s, each ``out_any``'s alternative closest to what was printed there,
    each ``out_re``'s as its match holds them) aligned with the program's facts
    (:mod:`casino.harness.behaviour`), every fact the input decides weighing 1 and those
    every program prints whatever its input weighing 0 (:func:`free_facts`). With no fact
    weighing anything, the run keeps its behaviour points when only whitespace and letter
    case differ."""
    share = grading.rubric.format_share
    facts = grading.facts
    found = facts.find(actual)
    printed = [fact.text for fact in found]
    pieces = _pieces(steps, facts)
    first = _expected(pieces, facts, {}, {})
    pairs = common_pairs([fact.text for fact in first.facts], printed)
    chosen, matched = _resolve(pieces, facts, first, pairs, found, actual)
    final = firsts = _expected(pieces, facts, {}, matched)  # each out_any's first text
    cost = _cost(firsts, printed)
    if chosen and cost > 0:
        chosen = _refined(pieces, facts, chosen, matched, printed)
        refined = _expected(pieces, facts, chosen, matched)
        final = firsts if cost <= _cost(refined, printed) else refined
    if not any(fact.weight > 0 for fact in final.facts):
        shown = output_pieces(steps)
        same = compare_exactly(steps, actual).difference is None or passes(shown, actual, ALL_KINDS)
        why = None if same else "the text differs"
        return Behaviour(share, 1, int(same), wrong=why, weight=1.0, weight_right=float(same))
    return credit(final.facts, printed, share)


def free_facts(steps: tuple[Step, ...], facts: Facts) -> dict[int, int]:
    """The facts a program prints whatever it is given, by output step number: where in the
    step's text they start. Every fact of a step before the run's first input (the banner:
    0); the facts on the prompt line (the last line) of the ``out`` before each later input,
    when that line's facts are the same non-empty list before every one of them, at least
    twice. A run without inputs has none: its arguments and files decide all it prints."""
    numbers = [number for number, step in enumerate(steps, 1) if isinstance(step, In)]
    if not numbers:
        return {}
    free = {n: 0 for n in range(1, numbers[0]) if not isinstance(steps[n - 1], In)}
    prompts: dict[int, tuple[tuple[str, ...], int]] = {}
    for number in numbers[1:]:
        before = steps[number - 2]
        if not isinstance(before, Out):
            return free
        line_start = before.text.rstrip("\n").rfind("\n") + 1
        found = facts.find(before.text, trusted=True)
        on_line = tuple(fact.text for fact in found if fact.start >= line_start)
        prompts[number - 1] = (on_line, line_start)
    lines = {line for line, _ in prompts.values()}
    if len(prompts) >= 2 and len(lines) == 1 and () not in lines:
        free.update({number: start for number, (_, start) in prompts.items()})
    return free


def _pieces(steps: tuple[Step, ...], facts: Facts) -> list[_Piece]:
    free = free_facts(steps, facts)
    return [
        _Piece(step, step_label(step, number), free.get(number))
        for number, step in output_pieces(steps)
    ]


@dataclass(frozen=True)
class _Sequence:
    """The run's expected facts, and where each ``out_any`` and ``out_re`` piece's start
    and end fall in them (by piece index)."""

    facts: list[Expected]
    spans: dict[int, tuple[int, int]]


def _expected(
    pieces: list[_Piece],
    facts: Facts,
    chosen: dict[int, int],
    matched: dict[int, list[str]],
) -> _Sequence:
    """The expected facts, each ``out_any`` piece as its ``chosen`` text (the first by
    default), each ``out_re`` as the facts it ``matched`` (none by default). The facts of
    the texts between two ``out_re`` are found in those texts joined, as the program prints
    them (a number may run across two steps)."""
    sequence: list[Expected] = []
    spans: dict[int, tuple[int, int]] = {}
    texts: list[tuple[int, str]] = []

    def flush() -> None:
        joined = "".join(text for _, text in texts)
        ends = list(accumulate(len(text) for _, text in texts))
        found = facts.find(joined, trusted=True)
        base = len(sequence)
        for fact in found:
            k = bisect.bisect_right(ends, fact.start)
            piece = pieces[texts[k][0]]
            offset = fact.start - (ends[k - 1] if k else 0)
            free = piece.free_from is not None and offset >= piece.free_from
            sequence.append(Expected(fact.text, 0.0 if free else 1.0, piece.label))
        starts = [fact.start for fact in found]
        for k, (index, _) in enumerate(texts):
            if isinstance(pieces[index].step, OutAny):
                low = bisect.bisect_left(starts, ends[k - 1] if k else 0)
                spans[index] = (base + low, base + bisect.bisect_left(starts, ends[k]))
        texts.clear()

    for index, piece in enumerate(pieces):
        step = piece.step
        if isinstance(step, OutRe):
            flush()
            start = len(sequence)
            weight = 0.0 if piece.free_from is not None else 1.0
            sequence.extend(Expected(t, weight, piece.label) for t in matched.get(index, []))
            spans[index] = (start, len(sequence))
        elif isinstance(step, OutAny):
            texts.append((index, step.texts[chosen.get(index, 0)]))
        else:
            texts.append((index, step.text))
    flush()
    return _Sequence(sequence, dict(sorted(spans.items())))


def _resolve(
    pieces: list[_Piece],
    facts: Facts,
    first: _Sequence,
    pairs: list[tuple[int, int]],
    found: list[Fact],
    actual: str,
) -> tuple[dict[int, int], dict[int, list[str]]]:
    """Each ``out_any``'s text closest to the facts printed where it falls in the first
    alignment (the fewest facts missing or extra; the first text on a tie), and each ``out_re``'s
    match found in the text printed there, or else after the previous ``out_re``'s match (its
    facts; an unmatched placeholder per fact printed there, at least one, when its pattern is
    not found)."""
    chosen: dict[int, int] = {}
    matched: dict[int, list[str]] = {}
    floor = 0
    for index, (start, end) in first.spans.items():
        low, high = _window(pairs, start, end, len(found))
        step = pieces[index].step
        if isinstance(step, OutAny):
            window = [fact.text for fact in found[low:high]]
            costs = [_distance(facts.of(text, trusted=True), window) for text in step.texts]
            chosen[index] = costs.index(min(costs))
            continue
        assert isinstance(step, OutRe)
        begin = max(floor, found[low - 1].end if low else 0)
        stop = found[high].start if high < len(found) else len(actual)
        span = _search(step.pattern, actual, begin, max(begin, stop))
        if span is None:  # the alignment of the other facts may have placed it too narrowly
            span = _search(step.pattern, actual, floor, len(actual))
        if span is None:
            printed = max(1, sum(1 for fact in found[low:high] if fact.start >= begin))
            matched[index] = [f"⟨{pieces[index].label}: its pattern⟩"] * printed
            continue
        floor = span[1]
        matched[index] = [fact.text for fact in found if span[0] <= fact.start < span[1]]
    return chosen, matched


ALTERNATIVES_TRIED = 64
"""Whole alignments tried at most to choose each ``out_any``'s text (past them, the text
closest to what was printed where it falls stands)."""


def _refined(
    pieces: list[_Piece],
    facts: Facts,
    chosen: dict[int, int],
    matched: dict[int, list[str]],
    printed: list[str],
) -> dict[int, int]:
    """Each ``out_any``'s text, in turn, the one whose whole alignment costs the least
    (facts missing or wrong, and extra; the first text on a tie), the others as chosen so
    far."""
    budget = ALTERNATIVES_TRIED
    chosen = dict(chosen)
    for index in sorted(chosen):
        step = pieces[index].step
        assert isinstance(step, OutAny)
        if budget < len(step.texts):
            break
        budget -= len(step.texts)
        kept: list[float] = []
        for alternative in range(len(step.texts)):
            sequence = _expected(pieces, facts, {**chosen, index: alternative}, matched)
            kept.append(_cost(sequence, printed))
        chosen[index] = kept.index(min(kept))
    return chosen


def _cost(sequence: _Sequence, printed: list[str]) -> float:
    """What the expected ``sequence`` loses against ``printed``: facts missing or wrong, and
    facts extra."""
    judged = credit(sequence.facts, printed, 0.0)
    return judged.weight - judged.weight_right + judged.extra


def _distance(wanted: list[str], printed: list[str]) -> int:
    """The facts to take out of both for them to be the same."""
    return len(wanted) + len(printed) - 2 * len(common_pairs(wanted, printed))


def _window(pairs: list[tuple[int, int]], start: int, end: int, size: int) -> tuple[int, int]:
    """The printed facts between the last expected fact matched before ``start`` and the
    first matched from ``end`` on."""
    low, high = 0, size
    for i, j in pairs:
        if i < start:
            low = j + 1
        elif i >= end:
            high = j
            break
    return low, high


def _search(pattern: str, actual: str, start: int, stop: int) -> tuple[int, int] | None:
    """Where ``pattern`` is first found in ``actual[start:stop]`` (within the time budget of
    :mod:`casino.harness.regex`; past it, :class:`regex.PatternTimeout`)."""
    compiled = re.compile(scoped(pattern))

    def search() -> tuple[int, int] | None:
        found = compiled.search(actual, start, stop)
        return None if found is None else found.span()

    return regex.bounded(search, pattern, regex.BUDGET_SECONDS)
