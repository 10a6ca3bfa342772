"""The sealed runner both exports share: a student's program (and its build) run as
``casino grade`` runs it, never as the grader's own user beside the transcripts.

:func:`sandbox_for` chooses: ``casino grade``'s own sandbox where the machine allows it
(bubblewrap: the run sees ``/usr``, its submission and its run folder, nothing else), else,
grading as root, the unprivileged :data:`STUDENT` account (else ``nobody``) under the same
limits; not as root and without bubblewrap there is nothing to drop to, and the caller says
the program was not sealed (:data:`NOT_SEALED`). ``CASINO_AUTOGRADER_SANDBOX`` (``auto``,
``bwrap``, ``user``) chooses, for tests. :func:`seal` makes the folder holding the
transcripts unreadable to the run and the submission the run's own.

The Gradescope autograder (:mod:`casino.grade.autograder`) calls these directly. A GitHub
Classroom workflow step calls them through this module's command (:func:`main`)::

    python -m casino.grade.sealed build  --submission SUB [--timeout S] -- BUILD
    python -m casino.grade.sealed replay --submission SUB -- REPLAY-ARGUMENTS…

There the tests live in the student's own repository, beside the student's files, so the
first of the two copies the checkout (the working folder) into ``SUB`` (an empty folder the
step made), leaving out :data:`LEFT_OUT` (``.casino``: casino, the transcripts and the other
steps' results; ``.github``; ``.git``); the build runs there, and ``casino replay`` runs
with ``--program-dir SUB`` under the sandbox. While they run, ``.casino`` is its owner's
alone (mode 0700: the ``student`` account cannot read it); its mode is put back after, for
the step's reporter, and the step removes ``SUB`` at its end.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import pwd
import shutil
import stat
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from casino.cmdline import Invocation, UsageError, run_program
from casino.harness.model import Run
from casino.harness.runners.base import FailureKind, Job, Outcome, Target
from casino.harness.runners.pipe import PipeRunner
from casino.harness.runners.sandbox import Sandbox, isolation_works

STUDENT = "student"
"""The account a student's program runs as where there is no sandbox (``setup.sh`` or the
workflow's sealing step makes it)."""
NOBODY = 65534
LIMITS = Sandbox(cpu_seconds=60, memory=1 << 30, processes=256, file_size=64 << 20)
"""Each run's limits, ``casino grade``'s defaults."""
NOT_SEALED = "(not sealed: run as a user who is not root, without a sandbox)"
BUILD_OUTPUT_KEPT = 16_384
SECRET = ".casino"
"""The folder of a Classroom checkout that holds casino, the transcripts and the results."""
LEFT_OUT = frozenset({SECRET, ".github", ".git"})
"""What of a Classroom checkout the student's program never sees (:func:`copy_checkout`)."""


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


def is_sealed(sandbox: Sandbox) -> bool:
    """Whether ``sandbox`` keeps the program from what the grader's user may read."""
    return sandbox.isolate or sandbox.user is not None


def seal(source: Path, submission: Path, sandbox: Sandbox) -> None:
    """Make ``source`` (the transcripts, casino) its owner's alone and the submission readable
    by every run: its files are the student's own (theirs to write too, without a sandbox).
    Only as root (there is no one else to keep out otherwise)."""
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


@contextlib.contextmanager
def sealed_while(source: Path, submission: Path, sandbox: Sandbox) -> Iterator[None]:
    """:func:`seal`, with ``source``'s mode put back at the end."""
    mode = stat.S_IMODE(source.stat().st_mode)
    try:
        seal(source, submission, sandbox)
        yield
    finally:
        os.chmod(source, mode)


def run_build(
    command: str, folder: Path, seconds: float, sandbox: Sandbox | None = None
) -> Outcome | None:
    """casino's one build: ``sh -c command`` in ``folder``, contained like every run (the
    pipe runner's: under ``sandbox`` when given, its whole process group ended when it
    returns, so nothing the build started outlives it; the grader's working folder is never
    changed); ``None`` if it worked, else its :class:`~casino.harness.runners.base.Outcome`.
    ``casino grade`` and the Gradescope/Classroom autograder each word a failure their way."""
    target = Target(None, ("sh", "-c", command), folder)
    outcome = PipeRunner().run(Job(target, Run(()), folder, None, seconds, sandbox))
    return None if outcome.problem is None and outcome.exit == 0 else outcome


def build(command: str, folder: Path, seconds: float, sandbox: Sandbox | None = None) -> str | None:
    """:func:`run_build` for the autograder: what it printed if it failed, ``None`` if it
    worked."""
    outcome = run_build(command, folder, seconds, sandbox)
    if outcome is None:
        return None
    if outcome.failure is FailureKind.TIMEOUT:
        return f"the build ({command}) took over {seconds:g} s and was stopped"
    text = "\n".join(t.rstrip("\n") for t in (outcome.output, outcome.stderr) if t) + "\n"
    if len(text) > BUILD_OUTPUT_KEPT:
        text = text[:BUILD_OUTPUT_KEPT] + f"\n… {len(text) - BUILD_OUTPUT_KEPT} more characters"
    why = outcome.problem or f"status {outcome.exit}"
    return f"the build failed ({command}, {why}):\n{text}"


def copy_checkout(checkout: Path, submission: Path) -> None:
    """Copy the student's files of ``checkout`` into the empty ``submission``, all but
    :data:`LEFT_OUT`, links as links (a link into ``.casino`` leads nowhere the run sees);
    nothing if ``submission`` already holds something (the build's copy)."""
    if any(submission.iterdir()):
        return
    for entry in sorted(checkout.iterdir()):
        if entry.name in LEFT_OUT or entry.resolve() == submission.resolve():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, submission / entry.name, symlinks=True)
        else:
            shutil.copy2(entry, submission / entry.name, follow_symlinks=False)


def _classroom(invocation: Invocation) -> int:
    parser = argparse.ArgumentParser(prog="python -m casino.grade.sealed")
    parser.add_argument("action", choices=("build", "replay"))
    parser.add_argument("--submission", type=Path, required=True, help="an empty folder")
    parser.add_argument("--timeout", type=float, default=120.0, help="the build's seconds")
    argv = invocation.argv
    if "--" not in argv:
        raise UsageError("give the build, or casino replay's arguments, after --")
    at = argv.index("--")
    args, rest = parser.parse_args(argv[:at]), argv[at + 1 :]
    if not args.submission.is_dir():
        raise UsageError(f"--submission: no such folder: {args.submission}")
    sandbox = sandbox_for()
    if not is_sealed(sandbox):
        invocation.streams.stderr.write(f"casino: the student's program is {NOT_SEALED[1:-1]}\n")
    copy_checkout(Path.cwd(), args.submission)
    with sealed_while(Path(SECRET), args.submission, sandbox):
        if args.action == "build":
            failed = build(" ".join(rest), args.submission, args.timeout, sandbox)
            status = 0 if failed is None else 1
            invocation.streams.stdout.write(failed or "")
        else:
            status = _replay(rest, args.submission, sandbox, invocation)
    return status


def _replay(words: list[str], submission: Path, sandbox: Sandbox, invocation: Invocation) -> int:
    from casino.harness.cli import replay

    argv = [*words, "--program-dir", str(submission.resolve())]
    return replay(argv, invocation.streams, sandbox=sandbox)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m casino.grade.sealed build|replay …`` (see the module)."""
    return run_program("casino-sealed", _classroom, argv)


if __name__ == "__main__":
    sys.exit(main())
