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

**Sealed as ``casino grade``** (:func:`sandbox_for`): Gradescope runs ``run_autograder`` as
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

import dataclasses
import json
import os
import pwd
import shlex
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from casino.cmdline import Invocation, UsageError, run_program
from casino.files import write_atomic
from casino.grade.results import HIDDEN_NOTE
from casino.harness.model import Run
from casino.harness.runners.base import Job, Target
from casino.harness.runners.pipe import PipeRunner
from casino.harness.runners.sandbox import Sandbox, isolation_works

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


STUDENT = "student"
"""The account a student's program runs as where there is no sandbox (``setup.sh`` makes it)."""
NOBODY = 65534
LIMITS = Sandbox(cpu_seconds=60, memory=1 << 30, processes=256, file_size=64 << 20)
"""Each run's limits, ``casino grade``'s defaults."""
NOT_SEALED = "(not sealed: run as a user who is not root, without a sandbox)"


def student_uid() -> int:
    """The uid of the :data:`STUDENT` account, else nobody's."""
    try:
        return pwd.getpwnam(STUDENT).pw_uid
    except KeyError:
        return NOBODY


def sandbox_for(mode: str | None = None) -> Sandbox:
    """What each run (and the build) gets: ``casino grade``'s sandbox where it works, else
    (as root) the unprivileged :data:`STUDENT`, else only the limits (see the module)."""
    mode = mode or os.environ.get("CASINO_AUTOGRADER_SANDBOX", "auto")
    if mode in ("auto", "bwrap") and isolation_works():
        return dataclasses.replace(LIMITS, isolate=True, isolate_network=True)
    if mode == "bwrap":
        raise UsageError("CASINO_AUTOGRADER_SANDBOX=bwrap: this machine cannot make the sandbox")
    if os.geteuid() == 0:
        return dataclasses.replace(LIMITS, user=student_uid(), isolate_network=True)
    return LIMITS


def seal(source: Path, submission: Path, sandbox: Sandbox) -> None:
    """Make ``source`` (the transcripts, casino) root's alone and the submission readable
    by every run: its files are the student's own (theirs to write too, without a sandbox)."""
    if os.geteuid() != 0:
        return
    os.chmod(source, 0o700)
    for here, folders, files in os.walk(submission):
        for name in [*folders, *files]:
            path = os.path.join(here, name)
            if sandbox.user is not None:
                os.lchown(path, sandbox.user, sandbox.user)
            mode = os.lstat(path).st_mode
            if not stat.S_ISLNK(mode):
                searchable = stat.S_ISDIR(mode) or mode & stat.S_IXUSR
                os.chmod(path, mode | 0o444 | (0o111 if searchable else 0))
    os.chmod(submission, 0o755)
    if sandbox.user is not None:
        os.chown(submission, sandbox.user, sandbox.user)


def build(command: str, folder: Path, seconds: float, sandbox: Sandbox | None = None) -> str | None:
    """Run the build in ``folder`` (under ``sandbox``: a run like the others); its output if
    it failed, ``None`` if it worked."""
    target = Target(None, ("sh", "-c", command), folder)
    outcome = PipeRunner().run(Job(target, Run(()), folder, None, seconds, sandbox))
    if outcome.problem is None and outcome.exit == 0:
        return None
    if outcome.problem is not None and "time" in outcome.problem:
        return f"the build ({command}) took over {seconds:g} s and was stopped"
    text = "\n".join(t.rstrip("\n") for t in (outcome.output, outcome.stderr) if t) + "\n"
    if len(text) > BUILD_OUTPUT_KEPT:
        text = text[:BUILD_OUTPUT_KEPT] + f"\n… {len(text) - BUILD_OUTPUT_KEPT} more characters"
    why = outcome.problem or f"status {outcome.exit}"
    return f"the build failed ({command}, {why}):\n{text}"


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
    if not sandbox.isolate and sandbox.user is None:
        summary += " " + NOT_SEALED
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
