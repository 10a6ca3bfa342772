"""``run_autograder`` inside Gradescope: build the submission, replay the transcripts, write
``results.json``.

    python -m casino.grade.autograder ROOT

ROOT is Gradescope's ``/autograder`` (``source/`` holds what ``casino grade export
--gradescope`` packed, ``submission/`` the student's files, ``results/`` where the results go).
The results follow Gradescope's documented ``results.json``: a ``score``, a ``tests`` list
(``name``, ``score``, ``max_score``, ``status``, ``output``, ``visibility``) and an ``output``
for the whole submission. Transcripts under ``transcripts/hidden/`` are ``after_published``,
under ``after-due/`` ``after_due_date``, under ``withheld/`` (``visibility: hidden``) visible
tests whose output is only their name and points (:data:`casino.grade.results.HIDDEN_NOTE`);
the others ``visible``. A failed build is one failed test with the build's output (at most
``casino.grade.sealed.BUILD_OUTPUT_KEPT`` characters), worth the whole score; the transcripts
are then not run.

**Sealed as ``casino grade``** (:mod:`casino.grade.sealed`, shared with the GitHub
Classroom export: :func:`sandbox_for`): Gradescope runs ``run_autograder`` as
root beside ``source/transcripts/``, so the student's program (and the build) never runs as
it. Where the machine allows it, each run and the build get ``casino grade``'s own sandbox
(bubblewrap: it sees ``/usr``, its submission and its run folder, nothing of ``/autograder``);
where it does not (a container that allows no user namespace, Gradescope's usual case),
they run as the unprivileged ``student`` account (``setup.sh`` makes it; else ``nobody``),
owning only the submission and its run folder, under the same limits, after ``source/``
has been made root's alone (mode 0700): no transcript, visible or hidden, can be read, as
Gradescope's best practices ask. ``CASINO_AUTOGRADER_SANDBOX`` (``auto``, ``bwrap``,
``user``) chooses, for tests; not as root and without bubblewrap there is nothing to drop
to and the results' ``output`` says the program was not sealed.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from casino.cmdline import Invocation, UsageError, run_program
from casino.files import write_atomic
from casino.grade.results import HIDDEN_NOTE
from casino.grade.sealed import NOT_SEALED, build, is_sealed, sandbox_for, seal
from casino.harness.runners.sandbox import Sandbox

__all__ = ["NOT_SEALED", "VISIBILITY", "main", "replay", "results"]

VISIBILITY = {
    "visible": "visible",
    "hidden": "after_published",
    "after-due": "after_due_date",
    "withheld": "visible",
}
"""The folder a transcript was packed in → Gradescope's visibility of its test."""


def _settings(source: Path) -> dict[str, Any]:
    try:
        data = json.loads((source / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read {source / 'settings.json'}: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("run"), str):
        raise UsageError(f"{source / 'settings.json'}: no 'run' command")
    return data


def replay(
    folder: Path, settings: dict[str, Any], submission: Path, sandbox: Sandbox | None = None
) -> list[dict[str, Any]]:
    """The Gradescope tests of the transcripts in ``folder``, run against the submission
    (each run under ``sandbox``)."""
    from casino.harness.cli import results_in_order
    from casino.harness.command import find_transcripts
    from casino.harness.formats import to_gradescope
    from casino.harness.session import Options

    try:
        command = tuple(shlex.split(settings["run"]))
    except ValueError as error:
        raise UsageError(f"settings.json: 'run': {error}") from None
    runner = str(settings.get("runner", "pipe"))
    options = Options(runner, command, submission.resolve(), sandbox=sandbox)
    os.chdir(folder.parent)  # tests named "visible/greet.yaml", not by where Gradescope is
    results = list(results_in_order(find_transcripts([folder.name]), options, 1))
    tests: list[dict[str, Any]] = json.loads(to_gradescope(results))["tests"]
    for test in tests:
        test["visibility"] = VISIBILITY[folder.name]
        if folder.name == "withheld":
            test["output"] = HIDDEN_NOTE
    return tests


def results(root: Path) -> dict[str, Any]:
    """Grade the submission under ``root``: Gradescope's results."""
    source, submission = root / "source", root / "submission"
    settings = _settings(source)
    folders = [source / "transcripts" / name for name in VISIBILITY]
    folders = [folder for folder in folders if folder.is_dir()]
    sandbox = sandbox_for()
    seal(source, submission, sandbox)
    if settings.get("build"):
        seconds = float(settings.get("build_timeout", 120))
        failed = build(settings["build"], submission, seconds, sandbox)
        if failed is not None:
            total = _total(folders)
            test = {"name": "build", "score": 0, "max_score": total, "status": "failed",
                    "output": failed, "visibility": "visible"}  # fmt: skip
            return {"score": 0, "output": "The build failed: nothing was run.", "tests": [test]}
    tests = [test for folder in folders for test in replay(folder, settings, submission, sandbox)]
    score = sum(test["score"] for test in tests)
    most = sum(test["max_score"] for test in tests)
    passed = sum(test["status"] == "passed" for test in tests)
    summary = f"{passed} of {len(tests)} transcripts passed: {score:g} of {most:g} points."
    if not is_sealed(sandbox):
        summary += " " + NOT_SEALED
    return {"score": score, "output": summary, "tests": tests}


def _total(folders: Sequence[Path]) -> float:
    """The points the transcripts in ``folders`` are worth."""
    from casino.harness.command import find_transcripts
    from casino.harness.load import load_transcript

    paths = [path for folder in folders for path in find_transcripts([str(folder)])]
    return sum(load_transcript(path).max_points for path in paths)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m casino.grade.autograder ROOT``."""

    def grade(invocation: Invocation) -> int:
        if len(invocation.argv) != 1:
            raise UsageError("give the autograder's folder (/autograder)")
        root = Path(invocation.argv[0])
        data = results(root)
        (root / "results").mkdir(parents=True, exist_ok=True)
        write_atomic(root / "results" / "results.json", json.dumps(data, indent=2) + "\n")
        return 0

    return run_program("casino-autograder", grade, argv)


if __name__ == "__main__":
    raise SystemExit(main())
