"""What every runner shares: the job it is given, the outcome it returns, how it starts a program.

A *target* is what a transcript drives: one of casino's own programs (by its name in
:data:`casino.programs.PROGRAMS`), or any command (``--program "java Nimsys"``). A transcript's
``seed`` reaches casino's programs as ``--seed N`` before the run's arguments, and an external
command only as the environment variable ``CASINO_SEED=N`` (its argv is exactly the command and
the run's ``args``: a student's program need not accept ``--seed``).

A command runs in the transcript's scratch directory (holding only its ``files:``) but is
written as the user types it in the program's own folder (``--program-dir``, default the
current directory): :func:`resolve_command` makes its words point there.

**Every run is bounded** (:class:`Limits`, the one place these numbers are set), whatever the
program does:

- *time*: at most the step ``timeout`` × the run's number of steps (at least one step) in all;
- *stdout*: at most :func:`output_limit` bytes — what the run's ``out`` chunks hold, plus
  :data:`PATTERN_MARGIN` per ``out_re`` step, plus :data:`OUTPUT_MARGIN`. A program printing
  more is stopped (``stopped: it printed more than N bytes``) and judged on what was kept, so a
  student's endless print loop costs casino a few hundred KiB, not gigabytes. (Runners that see
  text count characters: a character is at least one byte, so the message stays true.)
- *stderr*: the first :data:`STDERR_KEPT` bytes (plus the transcript's stated ``stderr``) are
  kept and the rest only counted (:attr:`Outcome.stderr_dropped`); beyond :data:`STDERR_MARGIN`
  more than the stated ``stderr`` the program is stopped (``… bytes to stderr``).
"""

from __future__ import annotations

import errno
import itertools
import os
import re
import shutil
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import casino
from casino.errors import SetupError
from casino.harness.model import Out, OutAny, OutRe, Run
from casino.programs import PROGRAMS, command_line

if TYPE_CHECKING:  # the sandbox (ctypes, cgroups, seccomp) is imported when a run uses one
    from casino.harness.runners.runfolder import RunFolder
    from casino.harness.runners.sandbox import Sandbox


@dataclass(frozen=True)
class Target:
    """Casino's program ``program``, or the external ``command`` when one is given."""

    program: str | None
    command: tuple[str, ...] | None = None
    directory: Path | None = None
    """The folder ``command`` is written for (``None``: the current directory)."""

    @property
    def external(self) -> bool:
        """Whether this is a command rather than one of casino's programs."""
        return self.command is not None


@dataclass(frozen=True)
class Job:
    """One run for a runner: what to start, where, with which steps and how patiently."""

    target: Target
    run: Run
    cwd: Path
    seed: int | None = None
    timeout: float = 10.0
    sandbox: Sandbox | None = None
    """Resource limits set in the program's process (pipe and pty runners; ``None``: none)."""

    def preexec(self) -> Callable[[], None] | None:
        """What to run in the child before ``exec`` (the sandbox's limits), if anything."""
        return None if self.sandbox is None else self.sandbox.preexec()

    def status(self, code: int | None) -> int | None:
        """The program's exit status from what the runner saw (see :meth:`Sandbox.status`)."""
        return code if self.sandbox is None else self.sandbox.status(code)

    def run_folder(self) -> RunFolder | None:
        """How the run folder comes back from the program's own sandbox, if it has one."""
        isolated = self.sandbox is not None and self.sandbox.isolate
        if self.sandbox is None or not isolated:
            return None
        from casino.harness.runners.runfolder import RunFolder

        return RunFolder(
            self.cwd, self.sandbox.disk_bytes, self.sandbox.back_files, self.sandbox.memory
        )


class FailureKind(StrEnum):
    """Why a run did not end by itself, as its runner knew it (never read back from words).

    Its text is what the gradebook calls it (:data:`casino.grade.results.Kind`), but for
    :attr:`CANNOT_START`, which grading counts as an ``error``."""

    TIMEOUT = "timeout"
    """It stopped answering (silent for a step, or running at its deadline) and was stopped."""
    FLOOD = "flood"
    """It printed more than its stdout or stderr cap and was stopped."""
    CANNOT_START = "cannot start"
    """It could not be started at all."""
    CRASH = "crash"
    """Anything else: killed by a signal, crashed in casino's own process, left too much in its
    run folder, stopped by its memory limit."""


class Problem(str):
    """A run's problem: its message (the text, shown as it always was) and its
    :class:`FailureKind`, set where the problem arises. A plain ``str`` problem is a
    :attr:`FailureKind.CRASH` (:func:`failure_of`); text made from a problem (an f-string)
    is plain text again, so a producer that adds words wraps the result in a new one."""

    failure: FailureKind

    def __new__(cls, text: str, failure: FailureKind = FailureKind.CRASH) -> Problem:
        """The problem ``text`` of kind ``failure``."""
        problem = super().__new__(cls, text)
        problem.failure = failure
        return problem

    def __reduce__(self) -> tuple[type[Problem], tuple[str, FailureKind]]:
        """Pickled with its kind (a worker's outcome keeps it)."""
        return (Problem, (str(self), self.failure))


def failure_of(problem: str | None) -> FailureKind | None:
    """The kind of ``problem``: its own if it is a :class:`Problem`, else a crash
    (``None``: no problem)."""
    if not problem:
        return None
    return problem.failure if isinstance(problem, Problem) else FailureKind.CRASH


def timed_out(text: str) -> Problem:
    """A time-out problem (``text`` is the whole message, ``timed out: …``)."""
    return Problem(text, FailureKind.TIMEOUT)


@dataclass(frozen=True)
class Outcome:
    """What one run of a program did."""

    chunks: tuple[str, ...]
    """Its stdout, split where it read an input line (one chunk if the runner cannot tell)."""
    stderr: str = ""
    exit: int | None = None
    """Its exit status; ``None`` if it did not end by itself; negative: killed by that signal."""
    problem: str | None = None
    """Why the run did not end normally: timed out, crashed, could not start."""
    consumed: int | None = None
    """How many input lines it read (``None`` if the runner cannot tell)."""
    stderr_dropped: int = 0
    """Bytes of stderr not kept (:attr:`stderr` holds the first ones; a flood is capped,
    never silently)."""
    failure: FailureKind | None = field(default=None, kw_only=True)
    """What kind of problem :attr:`problem` is (``None``: none); taken from the
    :class:`Problem` when not given."""

    def __post_init__(self) -> None:
        if self.failure is None:
            object.__setattr__(self, "failure", failure_of(self.problem))

    @property
    def output(self) -> str:
        """All of its stdout."""
        return "".join(self.chunks)


OUTPUT_MARGIN = 64 * 1024
"""Bytes of stdout a run may print beyond what its transcript expects."""
PATTERN_MARGIN = 64 * 1024
"""Bytes of stdout allowed for each ``out_re`` step (its length is not known in advance)."""
STDERR_KEPT = 64 * 1024
"""Bytes of stderr kept beyond the transcript's stated ``stderr``; the rest is only counted."""
STDERR_MARGIN = 1024 * 1024
"""Bytes of stderr beyond the stated ``stderr`` after which the program is stopped."""


def output_limit(run: Run) -> int:
    """Bytes of stdout ``run`` may print before it is stopped (see the module docstring)."""
    expected = sum(len(step.text.encode("utf-8")) for step in run.steps if isinstance(step, Out))
    expected += sum(
        max(len(text.encode("utf-8")) for text in step.texts)
        for step in run.steps
        if isinstance(step, OutAny)
    )
    patterns = sum(1 for step in run.steps if isinstance(step, OutRe))
    return expected + PATTERN_MARGIN * patterns + OUTPUT_MARGIN


@dataclass(frozen=True)
class Limits:
    """How much a run may print and how long it may take."""

    output: int
    """Bytes of stdout; one more and the program is stopped."""
    stderr_kept: int
    """Bytes of stderr kept (the rest is counted in :attr:`Outcome.stderr_dropped`)."""
    stderr: int
    """Bytes of stderr; one more and the program is stopped."""
    seconds: float | None
    """The whole run's time (``None``: no overall bound)."""

    @classmethod
    def of(cls, job: Job) -> Limits:
        """The limits of ``job``: from its transcript's expected output, steps and timeout."""
        run = job.run
        stated = len(run.stderr.encode("utf-8")) if run.stderr else 0
        return cls(
            output=output_limit(run),
            stderr_kept=stated + STDERR_KEPT,
            stderr=stated + STDERR_MARGIN,
            seconds=job.timeout * max(1, len(run.steps)),
        )


def flood_problem(limit: int, *, stderr: bool = False, where: str = "") -> Problem:
    """The problem of a run stopped for printing more than ``limit`` bytes (``where``: words
    after it, `` in game 3``)."""
    text = f"stopped: it printed more than {limit} bytes{' to stderr' if stderr else ''}"
    return Problem(text + where, FailureKind.FLOOD)


def stopped_answering(failure: FailureKind | None) -> bool:
    """Whether ``failure`` is a time-out: the program stopped answering (silent for the step
    timeout, or still running at the run's deadline) and was stopped. Such a run is judged on
    what it printed, by every runner alike: it never passes, and a rubric's behaviour share is
    kept for the facts it printed (the facts it never printed are missing ones). Any other
    problem (a flood, a signal, a program that could not start) keeps nothing."""
    return failure is FailureKind.TIMEOUT


def overtime_problem(seconds: float) -> Problem:
    """The problem of a run stopped at its overall deadline."""
    return timed_out(f"timed out: still running after {seconds:g} s; it was stopped")


class Kept:
    """The first ``keep`` bytes of a stream, and how many came in all."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.data = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        """Take ``chunk``: keep what fits, count all of it."""
        room = self.keep - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.total += len(chunk)

    @property
    def dropped(self) -> int:
        """Bytes counted but not kept."""
        return self.total - len(self.data)


def cut(chunks: tuple[str, ...], limit: int) -> tuple[str, ...]:
    """``chunks`` with at most ``limit`` characters in all (the first ones)."""
    kept: list[str] = []
    for chunk in chunks:
        kept.append(chunk[: max(0, limit)])
        limit -= len(chunk)
    return tuple(kept)


class RunnerName(StrEnum):
    """The runners (:mod:`casino.harness.runners`), by the name ``--runner`` takes."""

    INPROC = "inproc"
    PIPE = "pipe"
    PTY = "pty"


class Runner(Protocol):
    """Runs one job and reports what happened; never raises for anything the program does."""

    @property
    def name(self) -> RunnerName:
        """Which runner it is."""
        ...

    def run(self, job: Job) -> Outcome:
        """Start the program in ``job.cwd``, drive it through the run's steps, collect it."""
        ...


class TargetError(SetupError):
    """A target that cannot be run at all (an unknown program name)."""


def check_program(name: str | None) -> str:
    """``name`` if casino has such a program, else :class:`TargetError` saying what exists."""
    if name is None:
        raise TargetError("the transcript names no program; give one with --program CMD")
    if name not in PROGRAMS:
        known = ", ".join(sorted(PROGRAMS))
        raise TargetError(f"unknown program {name!r} (casino has: {known}; or use --program CMD)")
    return name


def seed_argv(seed: int | None) -> list[str]:
    """How a seed reaches one of casino's programs: ``--seed N``, put before the run's args."""
    return [] if seed is None else ["--seed", str(seed)]


JAVA_LAUNCHERS = frozenset({"java", "javac", "javaw"})
"""Commands whose class path is resolved against the program's folder."""

PYTHON_LAUNCHER = re.compile(r"(python|pypy)[0-9.]*")
"""Commands whose ``-m MODULE`` (``-c CODE``) is imported from the program's folder."""
PYTHON_NAMED = ("-m", "-c")
PYTHON_VALUED = ("-W", "-X")
"""Python's options whose value is the next word (``-X importtime``)."""

CLASS_PATH_OPTIONS = ("-cp", "-classpath", "--class-path")


def resolve_command(
    words: Sequence[str],
    directory: Path,
    environ: Mapping[str, str],
    exists: Callable[[Path], bool] = Path.exists,
) -> tuple[list[str], dict[str, str]]:
    """The argv that runs ``words`` as if typed in ``directory``, from any working directory,
    and the environment variables to set for it.

    - ``argv[0]`` with a ``/`` in it (``./nimsys``) is made absolute; a bare name is looked up
      on ``PATH`` as usual.
    - A later word naming a file or folder that ``exists`` in ``directory`` is made absolute
      (``sh nimsys.sh``, ``python3 nimsys.py``, ``java -jar nimsys.jar``); options are not.
    - For ``java``/``javac``: each relative entry of a ``-cp``/``-classpath``/``--class-path``
      value before the main class is made absolute; with no such option, ``CLASSPATH`` is set
      to the environment's own ``CLASSPATH`` (or ``.``, Java's default) resolved likewise.
    - For ``python``/``python3``/``pypy3``: the word after ``-m`` (a module, ``python3 -m
      nimsys`` with a ``nimsys/`` package there) or ``-c`` (code) is kept as typed, and the
      folder goes first on ``PYTHONPATH``, as the working directory would have been.
    """
    first, *rest = words
    java = Path(first).name in JAVA_LAUNCHERS
    python = PYTHON_LAUNCHER.fullmatch(Path(first).name) is not None
    argv = [str(directory / first) if "/" in first else first]
    options, class_path_given, value_next = java, False, False
    named_next = imports = False
    for word in rest:
        if named_next:
            argv.append(word)
            named_next = False
        elif python and word in PYTHON_NAMED:
            argv.append(word)
            named_next = imports = True
            python = False  # the rest are the program's arguments
        elif python and word in PYTHON_VALUED:
            argv.append(word)
            named_next = True
        elif value_next:
            argv.append(_class_path(word, directory))
            value_next = False
        elif options and word in CLASS_PATH_OPTIONS:
            argv.append(word)
            class_path_given = value_next = True
        elif options and word.startswith("--class-path="):
            argv.append("--class-path=" + _class_path(word.partition("=")[2], directory))
            class_path_given = True
        else:
            options = options and word.startswith("-")
            python = python and word.startswith("-")  # its options end at the script
            named = word and not word.startswith("-") and exists(directory / word)
            argv.append(str(directory / word) if named else word)
    if java and not class_path_given:
        return argv, {"CLASSPATH": _class_path(environ.get("CLASSPATH", "."), directory)}
    if imports:
        path = os.pathsep.join(filter(None, [str(directory), environ.get("PYTHONPATH")]))
        return argv, {"PYTHONPATH": path}
    return argv, {}


def resolve_process(
    words: Sequence[str], directory: Path, environ: Mapping[str, str]
) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """What starts ``words`` as typed in ``directory`` (:func:`resolve_command`) as a process:
    its argv, ``environ`` with the variables it needs, and the variables a sandbox gives it
    itself (``own`` for :meth:`~casino.harness.runners.sandbox.Sandbox.confine`, which keeps
    only a few of ``environ``'s): ``PYTHONPATH`` for ``python3 -m pkg``, the folder alone,
    never the caller's own."""
    argv, extra = resolve_command(words, directory, environ)
    own = {"PYTHONPATH": str(directory)} if "PYTHONPATH" in extra else {}
    return argv, {**environ, **extra}, own


def _class_path(value: str, directory: Path) -> str:
    """A ``:``-separated class path with each relative entry made absolute in ``directory``
    (an empty entry means the current directory, as for Java)."""
    entries = value.split(os.pathsep)
    return os.pathsep.join(str(directory / entry) if entry else str(directory) for entry in entries)


def start_failure(program: str, env: Mapping[str, str]) -> str:
    """Why ``program`` (a path, or a name looked up on ``PATH``) cannot be started, in the
    system's words: missing, or not an executable file."""
    found = program if "/" in program else shutil.which(program, path=env.get("PATH"))
    if found is None or not os.path.exists(found):
        return os.strerror(errno.ENOENT)
    return os.strerror(errno.EACCES)


def cannot_start(job: Job, reason: str) -> Problem:
    """The problem reported for a program that could not be started, naming it as typed."""
    shown = job.target.command[0] if job.target.command else str(job.target.program)
    return Problem(f"cannot start {shown!r}: {reason}", FailureKind.CANNOT_START)


def process_command(job: Job, back: RunFolder | None = None) -> tuple[list[str], dict[str, str]]:
    """The argv and environment that start ``job`` as a separate process (:class:`OSError`
    where a sandboxed program could not be started).

    A command is resolved against its folder (:func:`resolve_process`). casino's own programs
    run with this Python, never with the working directory on ``sys.path`` (``-P`` and
    ``PYTHONSAFEPATH``): a transcript's ``files:`` are data and cannot shadow a module.
    """
    if job.target.command is not None:
        directory = job.target.directory or Path.cwd()
        argv, env, own = resolve_process(job.target.command, directory, os.environ)
        if job.seed is not None:
            env["CASINO_SEED"] = str(job.seed)
        if job.sandbox is not None:  # in a sandbox of its own, if the sandbox isolates
            from casino.harness.runners.sandbox import exec_error

            folders = (directory, job.cwd)
            if job.sandbox.isolate and (error := exec_error(argv[0], folders, job.sandbox)):
                raise error  # as the exec would fail inside, said before (cannot start)
            command = [*argv, *job.run.argv]
            return job.sandbox.confine(command, env, job.cwd, directory, back, own)
        return [*argv, *job.run.argv], env
    env = dict(os.environ)
    root = str(Path(casino.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    env["PYTHONUTF8"] = "1"
    env["PYTHONSAFEPATH"] = "1"
    argv = command_line(check_program(job.target.program))
    return [*argv, *seed_argv(job.seed), *job.run.argv], env


def split_at(text: str, marks: list[int]) -> tuple[str, ...]:
    """``text`` cut at each position in ``marks`` (non-decreasing)."""
    bounds = [0, *marks, len(text)]
    return tuple(text[start:end] for start, end in itertools.pairwise(bounds))


def decode(data: bytes | bytearray) -> str:
    """A program's output as text (UTF-8; undecodable bytes shown as U+FFFD)."""
    return data.decode("utf-8", errors="replace")


def quiet(stderr: str) -> str:
    """``stderr`` without the line a JVM prints about its ``JAVA_TOOL_OPTIONS`` (a sandbox's
    doing, :func:`~casino.harness.runners.sandbox.java_options`, not the program's)."""
    if "Picked up JAVA_TOOL_OPTIONS: " not in stderr:
        return stderr
    lines = stderr.splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("Picked up JAVA_TOOL_OPTIONS: "))


def signal_problem(status: int | None) -> str | None:
    """``killed by signal SIGSEGV`` for a negative status, else ``None``."""
    if status is None or status >= 0:
        return None
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = str(-status)
    return f"killed by signal {name}"
