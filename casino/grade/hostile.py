"""The rubric's ``safety`` sessions: the hostile lines each one types (the same for every
student) and what went wrong in one (:func:`casino.grade.lines.run_safety` runs them)."""

from __future__ import annotations

import random

from casino.harness.runners.base import FailureKind, Outcome

HOSTILE = (
    "",
    " ",
    "-1",
    "0",
    "999999999999999999999",
    "1e309",
    "abc",
    "NaN",
    "%s%n",
    "\t",
    "ü❤",
    "'; --",
    "x" * 5000,
)
"""Inputs every safety session may draw: empty, negative, huge, not numbers, format strings,
control and non-ASCII characters, a very long line."""


def safety_inputs(session: int, count: int) -> list[str]:
    """The ``session``-th session's lines: the same for every student (seeded by its number),
    drawn from :data:`HOSTILE` and random short words and numbers."""
    chooser = random.Random(f"casino-safety-{session}")
    lines = []
    for _ in range(count):
        if chooser.random() < 0.5:
            lines.append(chooser.choice(HOSTILE))
        else:
            size = chooser.randint(1, 6)
            lines.append("".join(chooser.choice("0123456789abcyn-. ") for _ in range(size)))
    return lines


def safety_problem(outcome: Outcome) -> str | None:
    """What went wrong in a safety session, or ``None``."""
    problem = outcome.problem or ""
    if outcome.failure is FailureKind.TIMEOUT:
        return f"hung: {problem}"
    if outcome.failure in (FailureKind.FLOOD, FailureKind.CANNOT_START):
        return problem
    if problem:
        return f"crashed: {problem}"
    if outcome.exit not in (None, 0) and outcome.stderr.strip():
        last = outcome.stderr.strip().splitlines()[-1][:200]
        return f"crashed (exit status {outcome.exit}): {last}"
    return None
