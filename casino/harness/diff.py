"""Comparing what a program did with what a transcript expects.

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

**Near misses.** Exact is the verdict's default. When a run's output differs only in
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

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from itertools import accumulate

from casino.harness import regex
from casino.harness.behaviour import Behaviour, Expected, common_pairs, credit
from casino.harness.model import In, Out, OutAny, Output, OutRe, Run, Step, step_label
from casino.harness.rubric import Fact, Facts, Grading
from casino.harness.runners.base import (
    FailureKind,
    Outcome,
    failure_of,
    signal_problem,
    stopped_answering,
)

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


class VerdictKind(StrEnum):
    """How a run went (:attr:`RunVerdict.kind`); its text is the word reports and files use."""

    EXACT = "exact"
    """It passed as the transcript states it."""
    ALLOWED = "allowed"
    """It passed with a ``match:`` allowance."""
    BEHAVIOUR = "behaviour"
    """It failed but kept behaviour points (a rubric judged its facts)."""
    FAIL = "fail"
    """It failed and kept nothing."""
    ERROR = "error"
    """A transcript's only (:attr:`casino.harness.session.TranscriptResult.kind`): it could
    not be run at all."""
    SKIP = "skip"
    """A transcript's only: it was not run (its status ``SKIP``)."""
    PASS = "pass"
    """A transcript's only: it passed with no run judged (its status, as for ``error``)."""


@dataclass(frozen=True)
class RunVerdict:
    """How one run went against its part of the transcript (built by :meth:`of`, the one
    constructor every judge uses: step transcripts' :func:`compare_run` and ``play:``
    transcripts' :func:`casino.harness.play.play_games`)."""

    output: TextComparison
    stderr: TextComparison | None
    """``None`` when the transcript does not state the stderr."""
    exit_expected: int | None
    exit_actual: int | None
    problem: str | None
    """Timed out, crashed, killed, could not start: always a failure."""
    unpinned_stderr: str = ""
    """What the program wrote to stderr when the transcript does not state it (shown with a
    failure, never compared)."""
    stderr_dropped: int = 0
    """Bytes of stderr the runner did not keep."""
    behaviour: Behaviour | None = None
    """How its facts went, when it did not pass and is graded by a rubric."""
    failure: FailureKind | None = None
    """What kind of problem :attr:`problem` is (``None``: none), as the runner said."""

    @classmethod
    def of(
        cls,
        outcome: Outcome,
        output: TextComparison,
        stderr: TextComparison | None = None,
        exit_expected: int | None = None,
    ) -> RunVerdict:
        """The verdict on ``outcome`` given its judged ``output`` (and ``stderr``, when the
        transcript states it; what it wrote is otherwise kept unpinned, to be shown): its
        problem is the runner's, or the signal that killed it."""
        problem = outcome.problem or signal_problem(outcome.exit)
        return cls(
            output=output,
            stderr=stderr,
            exit_expected=exit_expected,
            exit_actual=outcome.exit,
            problem=problem,
            unpinned_stderr=outcome.stderr if stderr is None else "",
            stderr_dropped=outcome.stderr_dropped,
            failure=outcome.failure if outcome.problem else failure_of(problem),
        )

    @property
    def exit_differs(self) -> bool:
        """An expected exit status that the program did not end with."""
        return self.exit_expected is not None and self.exit_expected != self.exit_actual

    @property
    def passed(self) -> bool:
        """Output, stderr and exit status as expected, and the run ended by itself."""
        stderr_ok = self.stderr is None or self.stderr.difference is None
        return (
            self.output.difference is None
            and stderr_ok
            and not self.exit_differs
            and self.problem is None
        )

    @property
    def credit(self) -> float:
        """The share of the run's points earned: 1 if it passed, its behaviour share when a
        rubric grades it and its facts were right, else 0."""
        if self.passed:
            return 1.0
        return 0.0 if self.behaviour is None else self.behaviour.credit

    @property
    def kind(self) -> VerdictKind:
        """``exact``, ``allowed`` (passed with a ``match:`` allowance), ``behaviour`` (kept
        behaviour points only) or ``fail``."""
        if self.passed:
            return VerdictKind.ALLOWED if self.output.note else VerdictKind.EXACT
        return VerdictKind.BEHAVIOUR if self.credit > 0 else VerdictKind.FAIL

    @property
    def why(self) -> str | None:
        """Why a pass needed an allowance, or why a run kept only behaviour points."""
        if self.kind is VerdictKind.ALLOWED:
            return self.output.note
        if self.behaviour is None or self.kind is not VerdictKind.BEHAVIOUR:
            return None
        if self.behaviour.perfect:
            wording = self.output.note or "differs in wording"
            return f"behaviour only: it {wording.removeprefix('it ')}; every fact is right"
        right = f"{self.behaviour.right} of {self.behaviour.facts} facts right"
        if self.behaviour.extra:
            right += f", {self.behaviour.extra} extra"
        return f"behaviour only: {right}; first wrong: {self.behaviour.wrong}"


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


def compare_output(
    steps: tuple[Step, ...], actual: str, allowed: tuple[str, ...] = ()
) -> TextComparison:
    """The run's expected output against ``actual``, difference attributed to its step; a
    near miss named, and passed when it is of a kind ``allowed``."""
    exact = _compare_exactly(steps, actual)
    if exact.difference is None:
        return exact
    pieces = output_pieces(steps)
    loose = _kinds_of(allowed)
    if loose and _passes(pieces, actual, loose):
        words = near_miss(pieces, actual, loose)
        note = f"passed with match: {', '.join(allowed)}" + (f"; it {words}" if words else "")
        return TextComparison(exact.expected, actual, None, note)
    words = near_miss(pieces, actual, _ALL_KINDS)
    return replace(exact, note=words) if words else exact


def _compare_exactly(steps: tuple[Step, ...], actual: str) -> TextComparison:
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
            body = _scoped(step.pattern)
        parts.append(f"(?P<casino_step{index}>{body})")
    return re.compile("".join(parts), flags)


_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")


def _scoped(pattern: str) -> str:
    """``pattern`` safe to embed: leading global flags ``(?s)`` become a scoped ``(?s:…)``."""
    flags = _GLOBAL_FLAGS.match(pattern)
    if flags:
        return f"(?{flags.group(1)}:{pattern[flags.end() :]})"
    return f"(?:{pattern})"


# ------------------------------------------------------------------------------ near misses

_LINE_ENDS = "line-ends"
_FINAL_NEWLINE = "final-newline"
_TRAILING = "trailing-space"
_BLANK = "blank-lines"
_CASE = "case"
_ALL_KINDS = (_LINE_ENDS, _FINAL_NEWLINE, _TRAILING, _BLANK, _CASE)
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


def _kinds_of(allowed: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(kind for kind in _ALL_KINDS if any(kind in _ALLOWS[a] for a in allowed))


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


def _passes(pieces: list[Piece], actual: str, kinds: tuple[str, ...]) -> bool:
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
    if not _passes(pieces, actual, kinds):
        return None
    needed = list(kinds)
    for kind in kinds:
        fewer = tuple(k for k in needed if k != kind)
        if _passes(pieces, actual, fewer):
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


def compare_run(
    run: Run, outcome: Outcome, allowed: tuple[str, ...] = (), grading: Grading | None = None
) -> RunVerdict:
    """The verdict on one run: output, stated stderr, stated exit status, and any problem;
    the output also passes with a near miss of a kind ``allowed``; with ``grading``, a run
    that does not pass is also judged on its facts (:attr:`RunVerdict.behaviour`)."""
    stderr = None if run.stderr is None else compare_text(run.stderr, outcome.stderr)
    output = compare_output(run.steps, outcome.output, allowed)
    verdict = RunVerdict.of(outcome, output, stderr, run.exit)
    # A run that stopped answering is judged on what it printed (it has no exit status).
    unjudged = bool(verdict.problem) or verdict.exit_differs
    if grading is None or verdict.passed or (unjudged and not stopped_answering(verdict.failure)):
        return verdict
    facts = grading.facts
    try:
        if stderr is not None and facts.of(stderr.expected, trusted=True) != facts.of(
            stderr.actual
        ):
            behaviour = nothing_kept(grading.rubric.format_share, "stderr: its facts differ")
        else:
            behaviour = judge_behaviour(run.steps, outcome.output, grading)
    except regex.PatternTimeout:
        behaviour = nothing_kept(grading.rubric.format_share, "a fact pattern took too long")
    return replace(verdict, behaviour=behaviour)


# -------------------------------------------------------------------------------- behaviour


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
        same = _compare_exactly(steps, actual).difference is None or _passes(
            shown, actual, _ALL_KINDS
        )
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
    compiled = re.compile(_scoped(pattern))

    def search() -> tuple[int, int] | None:
        found = compiled.search(actual, start, stop)
        return None if found is None else found.span()

    return regex.bounded(search, pattern, regex.BUDGET_SECONDS)
