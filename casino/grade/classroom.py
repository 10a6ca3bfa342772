"""GitHub Classroom's grading reporter, and what a workflow step must hand it.

The contract, as the reporter's own source reads it (classroom-resources/
autograding-grading-reporter, ``src/main.js`` and ``src/notify-classroom.js``):

- its ``runners`` input is the steps' ids joined by commas; each id is read from the
  environment variable ``<id trimmed, upper-cased>_RESULTS`` (:func:`results_variable`);
  any error is reported as "The runners input must be a comma-separated list of strings"
  when the input is not ``/^([a-zA-Z0-9]+,)*[a-zA-Z0-9]+$/``, so casino's ids are letters
  and digits only (``transcript1``, :func:`runner_id`) and that pattern always holds;
- each variable holds a step's ``result`` output: base64 of the JSON the runner actions
  write (classroom-resources/autograding-command-grader ``src/main.js``: ``{version: 1,
  status, max_score, tests: [{name, status, score, message, …}]}``);
- the grade Classroom records is the sum of every test's ``score`` over the runners whose
  ``max_score`` is not 0, out of the sum of their ``max_score``: so each test carries the
  points ``casino grade`` gives its run, behaviour share included.

**The bound.** Linux refuses to start a program with an environment string longer than
``MAX_ARG_STRLEN`` (32 pages, 131,072 bytes, ``NAME=value`` and its NUL), and the whole
environment and arguments together must stay within ``ARG_MAX`` (a quarter of the stack
limit: 2 MiB on GitHub's runners). A step's result is therefore at most
:data:`RESULT_BYTES` of base64, and all of them together at most :data:`RESULTS_BUDGET`
(:func:`result_bound`); a longer one is folded to fit (:func:`fold`): repeated lines counted,
then each test's message cut at its end, with a line saying so; never its score.

``python -m casino.grade.classroom`` is what a step runs after the replay
(:func:`main`): it prints the step's base64 result, made from the replay's payload, or, where
there is none, one failed test saying why — the build failed (its last lines), or casino
itself could not grade it (``casino crashed``: a bug in casino, not in the submission).
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from casino.grade.results import fold_repeats

MAX_ARG_STRLEN = 131072
"""Linux's limit on one environment string (``NAME=value`` and its NUL), in bytes."""
RESULT_BYTES = 96 * 1024
"""The most base64 one step's result may hold (well under :data:`MAX_ARG_STRLEN`)."""
RESULTS_BUDGET = 1024 * 1024
"""The most base64 every step's result may hold together (half of a 2 MiB ``ARG_MAX``: the
runner's own environment needs the rest)."""
INTERNAL_ERROR = 70
"""casino's exit status for a bug in casino (:mod:`casino.cmdline`)."""
BUILD_LINES = 40
"""Lines of a failed build's output kept in its message (the last ones)."""


def runner_id(number: int) -> str:
    """The step id of the ``number``-th transcript (1-based): letters and digits only."""
    return f"transcript{number}"


def results_variable(runner: str) -> str:
    """The environment variable the reporter reads ``runner``'s result from."""
    return f"{runner.strip().upper()}_RESULTS"


def result_bound(steps: int) -> int:
    """The most base64 bytes one of ``steps`` steps' results may hold."""
    return min(RESULT_BYTES, RESULTS_BUDGET // max(1, steps))


def encoded(data: dict[str, Any]) -> str:
    """``data`` as a step's ``result`` output (base64 of its UTF-8 JSON)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def fold(data: dict[str, Any], bound: int) -> dict[str, Any]:
    """``data`` (a result payload) with its tests' messages folded until its base64 holds at
    most ``bound`` bytes: repeated lines counted (:func:`fold_repeats`), then every message
    cut to the longest length that fits (the start kept: it says what went wrong first);
    where even empty messages do not fit, the tests become one holding their total score.
    Scores, statuses and ``max_score`` never change."""
    tests = [dict(test) for test in data.get("tests", [])]
    for test in tests:
        test["message"] = fold_repeats(str(test.get("message", "")))
    folded = {**data, "tests": tests}
    if len(encoded(folded)) <= bound:
        return folded
    low, high = 0, max(len(str(test["message"])) for test in tests)
    while low < high:  # the longest cut that fits
        middle = (low + high + 1) // 2
        if len(encoded(_cut(folded, middle, bound))) <= bound:
            low = middle
        else:
            high = middle - 1
    cut = _cut(folded, low, bound)
    if len(encoded(cut)) <= bound:
        return cut
    return {**data, "tests": [_one_test(data)]}


def _cut(data: dict[str, Any], keep: int, bound: int) -> dict[str, Any]:
    """``data`` with each message at most ``keep`` characters and a line saying what was left
    out."""
    tests = []
    for test in data["tests"]:
        message = str(test["message"])
        if len(message) > keep:
            left = len(message) - keep
            message = (
                f"{message[:keep]}\n… {left:,} more characters left out (GitHub Classroom's "
                f"reporter reads at most {bound:,} bytes of each step's result)"
            )
        tests.append({**test, "message": message})
    return {**data, "tests": tests}


def _one_test(data: dict[str, Any]) -> dict[str, Any]:
    tests = data.get("tests", [])
    return {
        "name": str(tests[0]["name"])[:200] if tests else "transcript",
        "status": "pass" if all(t.get("status") == "pass" for t in tests) else "fail",
        "score": sum(t.get("score", 0) for t in tests),
        "message": "the report was too long for GitHub Classroom's reporter",
    }


def failed(name: str, points: float, message: str, status: str = "fail") -> dict[str, Any]:
    """A result of one test worth nothing (of ``points``), saying why in ``message``."""
    test = {"name": name, "status": status, "score": 0, "message": message}
    worth = int(points) if float(points).is_integer() else points
    return {"version": 1, "status": status, "max_score": worth, "tests": [test]}


def step_result(
    payload: Path, name: str, points: float, ran: str, log: Path | None = None
) -> dict[str, Any]:
    """The result of a step whose replay wrote ``payload`` (or did not), where ``ran`` is
    ``build`` (the build failed; ``log`` holds its output) or the replay's exit status
    (``log`` holds its stderr)."""
    said = log.read_text(encoding="utf-8", errors="replace") if log and log.exists() else ""
    if ran == "build":
        tail = "\n".join(said.splitlines()[-BUILD_LINES:])
        return failed(name, points, f"not run: the build failed\n{tail}".rstrip())
    try:
        data = json.loads(payload.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("tests"), list):
            return data
    except (OSError, ValueError):
        pass
    lines = [line for line in said.splitlines() if line.strip()]
    last = lines[-1] if lines else "it wrote nothing to stderr"
    if ran == str(INTERNAL_ERROR):
        why = f"casino crashed (a bug in casino, not in the submission): {last}"
    else:
        why = f"casino could not grade this transcript (exit status {ran}): {last}"
    return failed(name, points, why, status="error")


def main(argv: Sequence[str] | None = None) -> int:
    """Print one step's base64 result (see the module docstring); always 0."""
    parser = argparse.ArgumentParser(prog="python -m casino.grade.classroom")
    parser.add_argument("payload", type=Path, help="what the replay's --report-file wrote")
    parser.add_argument("--name", required=True, help="the transcript's name")
    parser.add_argument("--points", type=float, required=True, help="what it is worth")
    parser.add_argument("--ran", required=True, help="'build' or the replay's exit status")
    parser.add_argument("--log", type=Path, help="the build's output or the replay's stderr")
    parser.add_argument("--bound", type=int, default=RESULT_BYTES, help="base64 bytes at most")
    args = parser.parse_args(argv)
    data = step_result(args.payload, args.name, args.points, args.ran, args.log)
    print(encoded(fold(data, args.bound)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
