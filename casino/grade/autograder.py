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
:data:`BUILD_OUTPUT_KEPT` characters), worth the whole score; the transcripts are then not run.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from casino.cmdline import Invocation, UsageError, run_program
from casino.files import write_atomic
from casino.grade.results import HIDDEN_NOTE

BUILD_OUTPUT_KEPT = 16_384
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


def build(command: str, folder: Path, seconds: float) -> str | None:
    """Run the build in ``folder``; its output if it failed, ``None`` if it worked."""
    try:
        done = subprocess.run(
            ["sh", "-c", command],
            cwd=folder,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"the build ({command}) took over {seconds:g} s and was stopped"
    if done.returncode == 0:
        return None
    text = done.stdout.decode("utf-8", "replace")
    if len(text) > BUILD_OUTPUT_KEPT:
        text = text[:BUILD_OUTPUT_KEPT] + f"\n… {len(text) - BUILD_OUTPUT_KEPT} more characters"
    return f"the build failed ({command}, status {done.returncode}):\n{text}"


def replay(folder: Path, settings: dict[str, Any], submission: Path) -> list[dict[str, Any]]:
    """The Gradescope tests of the transcripts in ``folder``, run against the submission."""
    from casino.harness.cli import main as harness

    with tempfile.TemporaryDirectory(prefix="casino-autograder-") as scratch:
        report = Path(scratch, "results.json")
        argv = ["replay", "--runner", str(settings.get("runner", "pipe"))]
        argv += ["--program", settings["run"], "--program-dir", str(submission)]
        argv += ["--report", "gradescope", "--report-file", str(report), folder.name]
        os.chdir(folder.parent)  # tests named "visible/greet.yaml", not by where Gradescope is
        harness(argv, stdout=io.StringIO(), stderr=io.StringIO())
        tests: list[dict[str, Any]] = json.loads(report.read_text(encoding="utf-8"))["tests"]
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
    if settings.get("build"):
        failed = build(settings["build"], submission, float(settings.get("build_timeout", 120)))
        if failed is not None:
            total = _total(folders)
            test = {"name": "build", "score": 0, "max_score": total, "status": "failed",
                    "output": failed, "visibility": "visible"}  # fmt: skip
            return {"score": 0, "output": "The build failed: nothing was run.", "tests": [test]}
    tests = [test for folder in folders for test in replay(folder, settings, submission)]
    score = sum(test["score"] for test in tests)
    most = sum(test["max_score"] for test in tests)
    passed = sum(test["status"] == "passed" for test in tests)
    summary = f"{passed} of {len(tests)} transcripts passed: {score:g} of {most:g} points."
    return {"score": score, "output": summary, "tests": tests}


def _total(folders: Sequence[Path]) -> float:
    """The points the transcripts in ``folders`` are worth."""
    from casino.harness.command import find_transcripts
    from casino.harness.model import load_transcript

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
