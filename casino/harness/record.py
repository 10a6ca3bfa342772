"""``casino record``: capture a session into a transcript.

- **A casino program** runs in-process, so its output splits exactly where it reads a line.
  Its input comes from ``--stdin FILE`` (one ``in`` step per line), or live from the keyboard:
  the program's output is shown as it is printed, the user types in their own terminal, and
  each line they enter is one ``in`` step; end of input (Ctrl-D) ends the session.
- **Any other command** (``--program CMD``; ``PROGRAM`` is then only the name written into the
  transcript's ``program:``) runs in a pseudo-terminal, since only a terminal makes a foreign
  program behave interactively. Where it reads cannot be seen from outside, so each line is sent
  once the program has printed something and then been quiet for ``--settle`` seconds (or has
  printed nothing for ``--timeout`` seconds). The terminal's echo and ``\\r\\n`` are undone as in
  the pty runner. Lines come from ``--stdin FILE`` or live from the keyboard, as above.
  Every phase of such a session is bounded by ``--timeout``: the program's answer to each line
  (and its greeting) must settle within that time, and after the end of input it must end
  within that time; so a session of N lines takes at most (N + 1) × ``--timeout`` seconds plus
  the time taken to type them, or stops with a timed-out problem. It may print at most
  :data:`RECORD_OUTPUT_LIMIT` characters and write at most
  :data:`~casino.harness.runners.base.STDERR_MARGIN` bytes to stderr.

The transcript gets the actual exit status as ``exit``, and ``stderr`` if the program wrote
any; missing directories of ``-o OUT.yaml`` are created. The session runs in a fresh temporary
directory holding the ``--fixture`` files, which the transcript then names as
``files: {NAME: {fixture: PATH}}`` (relative to the transcript). ``--program`` is written as
typed in ``--program-dir`` (default: the current directory), as for ``casino replay``; a
program that cannot be started is reported as such (``cannot start './x.sh': …``).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from casino.errors import SetupError
from casino.files import write_atomic
from casino.harness.dump import dump_transcript
from casino.harness.model import Fixture, In, Out, Run, Step, Transcript, TranscriptError
from casino.harness.parse import file_name_problem, parse_transcript
from casino.harness.runners.base import (
    STDERR_MARGIN,
    Job,
    Limits,
    Outcome,
    RunnerName,
    Target,
    seed_argv,
    timed_out,
)
from casino.harness.runners.inproc import Capture, InProcessRunner, call_main
from casino.harness.runners.screen import TerminalCapture
from casino.harness.runners.terminal import Conversation, StartError
from casino.interrupts import scratch_directory
from casino.stopping import check_stop

RECORD_OUTPUT_LIMIT = 4 * 1024 * 1024
"""Characters a recorded command may print (no transcript says what to expect)."""
RECORD_LIMITS = Limits(
    output=RECORD_OUTPUT_LIMIT, stderr_kept=STDERR_MARGIN, stderr=STDERR_MARGIN, seconds=None
)
"""A recording keeps all it may write to stderr (the transcript states it exactly)."""


class RecordError(SetupError):
    """Recording could not be done; the message is one line."""


@dataclass(frozen=True)
class Recording:
    """What to record: the program, how to start it, where its input comes from."""

    program: str
    args: tuple[str, ...]
    output: Path
    name: str
    command: tuple[str, ...] | None = None
    seed: int | None = None
    fixtures: tuple[tuple[str, Path], ...] = ()
    timeout: float = 10.0
    settle: float = 0.5
    program_dir: Path | None = None
    """The folder ``command`` is written for (``None``: the current directory)."""


class Tee(Capture):
    """Captured output that is also shown, as it is written, on another stream."""

    def __init__(self, shown: TextIO) -> None:
        super().__init__()
        self._shown = shown

    def write(self, text: str) -> int:
        """Show ``text`` and keep it."""
        self._shown.write(text)
        return super().write(text)

    def flush(self) -> None:
        """Flush the shown stream (a prompt appears before the program reads)."""
        self._shown.flush()


class Typed:
    """An iterator over input lines that remembers the ones taken."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self.taken: list[str] = []

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.taken.append(line)
        return line


def lines_of(stream: TextIO) -> Iterator[str]:
    """The lines of ``stream`` without their line ends (``\\n``, ``\\r\\n`` or ``\\r``), read
    one at a time, so that a keyboard is read only when the program asks."""
    while True:
        line = stream.readline()
        if not line:
            return
        yield line.rstrip("\r\n")


def _kept(path: Path, transcript: Transcript) -> Transcript:
    """``transcript`` with the grading keys (``match``, ``rubric``, ``facts``) of the
    transcript it replaces at ``path`` (``--force``), if that one was readable and stated them:
    recording again changes the session, not how it is graded."""
    try:
        old = parse_transcript(path.read_text(encoding="utf-8"), path) if path.is_file() else None
    except (OSError, UnicodeDecodeError, TranscriptError):
        old = None
    if old is None:
        return transcript
    return replace(transcript, match=old.match, rubric=old.rubric, facts=old.facts)


def record(spec: Recording, lines: Iterable[str], shown: TextIO | None) -> Transcript:
    """Run the session, write the transcript atomically, and return it.

    ``shown`` is where a live session is displayed (``None`` when input comes from a file).
    """
    typed = Typed(lines)
    with scratch_directory("casino-record-") as cwd:
        for name, source in spec.fixtures:
            if problem := file_name_problem(name):
                raise RecordError(f"--fixture {name!r}: the name {problem}")
            (cwd / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, cwd / name)
        if spec.command is None:
            outcome = _record_inproc(spec, typed, cwd, shown)
        else:
            outcome = _record_terminal(spec, typed, cwd, shown)
    check_stop()  # stopped while recording (a casino program may have caught it): no file
    if outcome.problem:
        raise RecordError(f"{outcome.problem}; nothing was written")
    transcript = _kept(
        spec.output, _transcript(spec, typed.taken[: len(outcome.chunks) - 1], outcome)
    )
    spec.output.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(spec.output, dump_transcript(transcript))
    return transcript


def _record_inproc(spec: Recording, typed: Typed, cwd: Path, shown: TextIO | None) -> Outcome:
    main = InProcessRunner().main_of(spec.program)
    return call_main(
        main,
        [*seed_argv(spec.seed), *spec.args],
        typed,
        cwd=cwd,
        timeout=None if shown else spec.timeout,
        stdout=Tee(shown) if shown else None,
    )


def _record_terminal(spec: Recording, typed: Typed, cwd: Path, shown: TextIO | None) -> Outcome:
    target = Target(spec.program, spec.command, spec.program_dir)
    job = Job(target, Run((), spec.args), cwd, spec.seed, spec.timeout)
    try:
        talk = Conversation(job, RECORD_LIMITS)
    except StartError as error:
        raise RecordError(str(error)) from None
    return _session(talk, typed, spec.settle, shown)


class RecordingRunner:
    """A runner for ``casino replay --update --program CMD``: each run's ``in`` lines are
    typed into a terminal as ``casino record --program`` types them (each once the program
    has settled for ``settle`` seconds), so its output splits where it reads. The run is
    bounded by the transcript's own :class:`~casino.harness.runners.base.Limits`."""

    name = RunnerName.PTY

    def __init__(self, settle: float = 0.5) -> None:
        self.settle = settle

    def run(self, job: Job) -> Outcome:
        """Record one run of the job's program, typing the run's input lines."""
        try:
            talk = Conversation(job, Limits.of(job))
        except StartError as error:
            return Outcome(chunks=("",), problem=error.problem)
        return _session(talk, Typed(job.run.inputs), self.settle, None)


def _session(talk: Conversation, typed: Typed, settle: float, shown: TextIO | None) -> Outcome:
    """Converse with the started program, typing ``typed`` lines; what it did."""
    display = _Display(talk.screen, shown)
    try:
        ended = _converse(talk, typed, settle, display)
    except BaseException:  # Ctrl-C: the program does not outlive the recording
        talk.finish()
        raise
    talk.screen.close()
    display.update()
    status, stderr = talk.finish()
    problem = None if ended else talk.problem or _unended(talk.timeout)
    return Outcome(talk.screen.chunks(), stderr, status, problem, consumed=len(talk.screen.marks))


def _converse(talk: Conversation, typed: Typed, settle: float, display: _Display) -> bool:
    """Send each line once the program has settled, end the input; whether it then ended."""
    for line in _paced(talk, typed, settle, display):
        talk.send(line)
    if talk.problem is not None:
        return False
    talk.end_input()
    return talk.read_until_end(within=talk.timeout)


def _unended(timeout: float) -> str:
    return timed_out(f"timed out: it did not end within {timeout:g} s after its input ended")


class _Display:
    """Shows a live session's new output on the user's screen (nothing for a file session)."""

    def __init__(self, screen: TerminalCapture, shown: TextIO | None) -> None:
        self._screen = screen
        self._shown = shown
        self._done = 0

    def update(self) -> None:
        if self._shown is not None:
            text = self._screen.text
            self._shown.write(text[self._done :])
            self._shown.flush()
            self._done = len(text)


def _paced(talk: Conversation, typed: Typed, settle: float, display: _Display) -> Iterator[str]:
    """The lines to send, each once the program has settled; stops when it has ended."""
    while True:
        _settle(talk, settle)
        display.update()
        if talk.closed or talk.problem is not None:
            return
        try:
            yield next(typed)
        except StopIteration:
            return


def _settle(talk: Conversation, settle: float) -> None:
    """Wait for output since the last line sent, then for ``settle`` seconds of quiet (or for
    the timeout, if nothing comes); a program still printing after the timeout is stopped
    (:attr:`Conversation.problem` then says so)."""
    start = talk.screen.marks[-1] if talk.screen.marks else 0
    deadline = time.monotonic() + talk.timeout
    while not talk.closed and talk.problem is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if len(talk.screen.text) > start:
                talk.problem = timed_out(
                    f"timed out: it kept printing for {talk.timeout:g} s"
                    f" without a pause of {settle:g} s; it was stopped"
                )
            return
        if len(talk.screen.text) > start:
            if not talk.read_once(min(settle, remaining)) and remaining > settle:
                return
            continue
        talk.read_once(remaining)


def _transcript(spec: Recording, lines: list[str], outcome: Outcome) -> Transcript:
    steps: list[Step] = []
    for index, chunk in enumerate(outcome.chunks):
        steps.append(Out(chunk))
        if index < len(lines):
            steps.append(In(lines[index]))
    base = spec.output.resolve().parent
    files = tuple(
        (name, Fixture(os.path.relpath(source.resolve(), base))) for name, source in spec.fixtures
    )
    run = Run(tuple(steps), spec.args, outcome.exit, outcome.stderr or None)
    return Transcript(
        name=spec.name,
        runs=(run,),
        program=spec.program,
        seed=spec.seed,
        files=files or None,
        path=spec.output,
    )
