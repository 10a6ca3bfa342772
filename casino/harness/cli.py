"""``casino replay`` and ``casino record``: the harness's command line.

``casino.__main__`` forwards ``casino replay …`` and ``casino record …`` here, with the
subcommand word first. Exit status: 0 when every transcript passed (or was recorded), 1 when
one failed, 2 for a usage error (one line on stderr).
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
from collections.abc import Callable, Iterator, Sequence
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from casino.cmdline import ArgumentParser, UsageError, seconds, whole_number
from casino.files import write_atomic
from casino.harness.command import Command, find_transcripts, run_command
from casino.harness.names import MATCH_KINDS, REPORT_FORMATS, RUNNER_NAMES
from casino.shell import Streams

if TYPE_CHECKING:
    from casino.harness.record import Recording
    from casino.harness.runners.base import Runner
    from casino.harness.runners.sandbox import Sandbox
    from casino.harness.session import Options, TranscriptResult

# What runs transcripts (loading, the runners, the comparisons, the reports), record, update
# and the process pool are imported where used, once the command line has been read and there
# is something to run: a replay's start-up is paid by every student who checks their work, and
# `casino replay --help` or a replay that finds no transcripts needs none of them.

REPLAY_EPILOG = """\
runners:
  inproc  call casino's own program in this process (default for casino's programs);
          its output splits exactly where it reads input
  pipe    grader style, like `java Nimsys < in`: all input at once, stdout compared
          (default with --program)
  pty     a pseudo-terminal: each line is typed once the output before it has
          appeared; the terminal's echo and \\r\\n are undone
seeds: a transcript's `seed: N` reaches casino's programs as `--seed N` before its args,
  and a --program command only as the environment variable CASINO_SEED=N.
--program-dir: CMD is written as typed in the program's folder (default: the current
  directory), but each transcript runs in a fresh directory holding only its files: (a
  players.dat left in the folder never reaches a run). So argv[0] with a / (./nimsys) and
  each later word naming a file or folder there (sh nimsys.sh, python3 nimsys.py) are made
  absolute, and java runs with the folder as its class path (relative -cp, -classpath,
  --class-path or CLASSPATH entries are taken in the folder).
containment: when a run ends, every process it started ends too (a `nohup … &` or setsid
  child included; 1 s after the program itself exits, its leftovers are killed). Stopping
  casino (Ctrl-C, SIGTERM, a closed terminal) stops every run and removes its temporary
  files first; exit status then 130, 143 or 129.
--update --program CMD: CMD's output becomes the transcripts' (a staff feature): unless CMD
  is casino's own (casino ..., python -m casino...), replay says which transcripts it will
  rewrite and asks on a terminal, and needs --yes anywhere else.
exit status: 0 all passed, 1 some failed, 2 usage error.
"""

RECORD_EPILOG = """\
A casino program is recorded in-process: its output splits exactly where it reads.
With --program CMD the command runs in a pseudo-terminal and PROGRAM is only the name
written into the transcript; each line is sent once the program has printed and then
been quiet for --settle seconds. CMD is written as typed in --program-dir (default: the
current directory; see `casino replay --help`), while the session runs in a fresh directory
holding only the --fixture files. Without --stdin, you type the session live (Ctrl-D
ends it). Put record's own options before PROGRAM: everything after it is the program's.
"""


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino replay …`` or ``casino record …`` (``argv`` starts with the subcommand), under
    the program-entry contract of :mod:`casino.cmdline`."""
    return run_command(COMMANDS, argv, stdin=stdin, stdout=stdout, stderr=stderr)


# ------------------------------------------------------------------------------------ replay


def _replay_parser(out: TextIO) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog="casino replay",
        description="Replay golden transcripts against casino's programs or any command.",
        epilog=REPLAY_EPILOG,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="transcripts, or directories")
    parser.add_argument("--program", metavar="CMD", help="run this command instead (any language)")
    parser.add_argument("--program-dir", metavar="DIR", help="CMD's folder (default: this one)")
    parser.add_argument("--runner", choices=RUNNER_NAMES, help="how to run the program")
    parser.add_argument(
        "--jobs", type=whole_number(1), default=1, metavar="N", help="transcripts at once"
    )
    parser.add_argument("--report", choices=sorted(REPORT_FORMATS), help="also write a report file")
    parser.add_argument("--report-file", metavar="F", help="where (default per format)")
    parser.add_argument("--score", action="store_true", help="points per transcript, and a total")
    parser.add_argument("--update", action="store_true", help="bless the current output")
    parser.add_argument(
        "--yes",
        action="store_true",
        help="with --update --program CMD: rewrite without asking first",
    )
    parser.add_argument(
        "--match",
        type=_match_kinds,
        default=(),
        metavar="KINDS",
        help=f"also accept these near misses (comma-separated: {','.join(MATCH_KINDS)})",
    )
    return parser


def _match_kinds(text: str) -> tuple[str, ...]:
    """``--match trailing-space,case``: kinds of :data:`MATCH_KINDS`."""
    from casino.harness.parse import match_kinds

    words = [word.strip() for word in text.split(",") if word.strip()]
    return match_kinds(words, lambda problem: argparse.ArgumentTypeError(problem[8:]))


def replay(argv: list[str], streams: Streams, sandbox: Sandbox | None = None) -> int:
    """``casino replay`` (each run of ``--program`` under ``sandbox``, if given: the
    GitHub Classroom export's sealed steps, :mod:`casino.grade.sealed`)."""
    args = _replay_parser(streams.stdout).parse_args(argv)
    command = _command(args.program)
    directory = _program_dir(args.program_dir, command)
    default = ("pty" if args.update else "pipe") if command else "inproc"
    runner = args.runner or default
    _check_replay(args, runner, command)
    paths = find_transcripts(args.paths)
    from casino.harness.report import render, summary
    from casino.harness.session import Options

    options = Options(runner, command, directory, sandbox, args.match)
    if args.update:
        if not (args.yes or _casinos_own(command) or _rewrite_agreed(args.program, paths, streams)):
            return 1
        return update_all(paths, options, streams)
    results = []
    for result in results_in_order(paths, options, args.jobs, streams.error):
        streams.stdout.write(render(result, score=args.score))
        streams.stdout.flush()
        results.append(result)
    streams.stdout.write(summary(results, score=args.score) + "\n")
    if args.report:
        write_report(args.report, args.report_file, results, streams)
    return 0 if all(result.ok for result in results) else 1


def _casinos_own(command: tuple[str, ...] | None) -> bool:
    """Whether ``--program`` is casino's own (or none: the in-process reference): ``casino
    ...`` or ``python [-P] -m casino...``. Its output is the reference; any other program's is
    not, and ``--update`` asks before it rewrites transcripts with it."""
    if command is None:
        return True
    first = Path(command[0]).name
    if first == "casino":
        return True
    if not first.startswith("python") or "-m" not in command[1:]:
        return False
    module = command.index("-m", 1) + 1
    return module < len(command) and command[module].split(".")[0] == "casino"


def _rewrite_agreed(program: str, paths: list[Path], streams: Streams) -> bool:
    """Say which transcripts ``--update --program`` would rewrite with that program's output,
    and ask (a terminal: ``y`` agrees); without a terminal to ask, ``--yes`` is needed."""
    from casino.harness.report import plural

    names = ", ".join(str(path) for path in paths[:3]) + (", …" if len(paths) > 3 else "")
    what = f"{plural(len(paths), 'transcript')} ({names}) with what {program!r} prints"
    if not _interactive(streams.stdin):
        raise UsageError(f"--update would rewrite {what}: add --yes to do so")
    streams.stderr.write(f"casino replay: --update rewrites {what}. Rewrite them? [y/N] ")
    streams.stderr.flush()
    if streams.stdin.readline().strip().lower() in ("y", "yes"):
        return True
    streams.error("casino replay: nothing rewritten")
    return False


def _interactive(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _command(program: str | None) -> tuple[str, ...] | None:
    if program is None:
        return None
    try:
        words = tuple(shlex.split(program))
    except ValueError as error:
        raise UsageError(f"--program: {error}") from None
    if not words:
        raise UsageError("--program needs a command")
    return words


def _program_dir(raw: str | None, command: tuple[str, ...] | None) -> Path | None:
    """The folder ``--program CMD`` is written for, absolute (``None`` without a command)."""
    if command is None:
        if raw is not None:
            raise UsageError("--program-dir goes with --program CMD")
        return None
    directory = Path(raw or ".")
    if not directory.is_dir():
        raise UsageError(f"--program-dir: no such directory: {raw}")
    return directory.resolve()


def _check_replay(args: argparse.Namespace, runner: str, command: tuple[str, ...] | None) -> None:
    if args.jobs < 1:
        raise UsageError("--jobs needs a whole number of at least 1")
    if runner == "inproc" and command:
        raise UsageError("the inproc runner runs casino's own programs: use pipe or pty")
    if args.report_file and not args.report:
        raise UsageError(f"--report-file goes with --report {'|'.join(REPORT_FORMATS)}")
    if args.update:
        if args.jobs > 1:
            raise UsageError("--update rewrites files: it runs with --jobs 1 only")
        if runner != "inproc" and not command:
            raise UsageError("--update needs the inproc runner (it splits output at reads)")


MAX_JOBS_PER_CPU = 4
"""``--jobs`` is capped at this many workers per CPU (and at the number of transcripts)."""


def results_in_order(
    paths: list[Path], options: Options, jobs: int, note: Callable[[str], None] | None = None
) -> Iterator[TranscriptResult]:
    """Check every transcript, yielding results in the order of ``paths`` whatever ``jobs``.

    ``jobs`` is capped at the number of transcripts and at :data:`MAX_JOBS_PER_CPU` per CPU;
    ``note`` is told so in one line. A worker process that dies (killed, out of memory) costs
    one ``ERROR``, never the run: the first transcript not yet reported is then checked in a
    pool of its own, and the rest in a new pool.
    """
    workers = min(jobs, len(paths), (os.cpu_count() or 1) * MAX_JOBS_PER_CPU)
    if workers < jobs and note is not None:
        why = "one per transcript" if workers == len(paths) else f"{MAX_JOBS_PER_CPU} per CPU"
        note(f"casino replay: --jobs {jobs}: running {workers} at once ({why})")
    from casino.harness.session import check_path
    from casino.stopping import check_stop

    if workers <= 1:
        for path in paths:
            result = check_path(path, options)
            check_stop()  # a stop that a program run in-process caught still stops casino
            yield result
        return
    from concurrent.futures.process import BrokenProcessPool  # (a pool's import: only here)

    pending = list(paths)
    while pending:
        done = 0
        try:
            for result in _pooled(pending, options, workers):
                done += 1
                yield result
            return
        except BrokenProcessPool:
            pending = pending[done:]
        yield _alone(pending[0], options)
        pending = pending[1:]


def _pooled(paths: list[Path], options: Options, workers: int) -> Iterator[TranscriptResult]:
    """``check_path`` over ``paths`` in a pool of ``workers`` processes, in order."""
    from casino.harness.runners.procs import Containment
    from casino.pool import worker_pool

    chunk = max(1, len(paths) // (workers * 8))
    # The workers' leftovers (if one dies) come to this process and are ended with the pool.
    with Containment() as contained, worker_pool(workers) as pool:
        try:
            yield from pool.map(_check_in_worker, paths, repeat(options), chunksize=chunk)
        except BaseException:  # stopped: each worker ends its run and cleans up
            contained.signal(signal.SIGTERM)  # (Ctrl-C reached them already; SIGTERM did not)
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _check_in_worker(path: Path, options: Options) -> TranscriptResult:
    """:func:`check_path` in a pool worker; a stop unwinds its run, which is then reported as
    stopped (the worker stays until the pool shuts down)."""
    from casino.harness.session import Status, TranscriptResult, check_path
    from casino.stopping import worker_task

    try:
        with worker_task():
            return check_path(path, options)
    except KeyboardInterrupt:
        return TranscriptResult(str(path), Status.ERROR, error=f"{path}: stopped")


def _alone(path: Path, options: Options) -> TranscriptResult:
    """``path`` checked in a process of its own: an ``ERROR`` if that process dies too."""
    from concurrent.futures.process import BrokenProcessPool

    from casino.harness.session import Status, TranscriptResult

    try:
        (result,) = _pooled([path], options, 1)
    except BrokenProcessPool:
        return TranscriptResult(
            str(path), Status.ERROR, error=f"{path}: the process checking it died"
        )
    return result


def write_report(
    kind: str, file: str | None, results: list[TranscriptResult], streams: Streams
) -> None:
    """Write the ``kind`` report to ``file`` (or its default name), atomically."""
    from casino.harness.formats import FORMATS

    formatter, default = FORMATS[kind]
    target = Path(file or default)
    try:
        write_atomic(target, formatter(results))
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from None
    streams.stdout.write(f"{kind} report: {target}\n")


def update_all(paths: list[Path], options: Options, streams: Streams) -> int:
    """``--update``: check each transcript (in-process, or recording ``--program``) and bless
    its current output."""
    from casino.harness.record import RecordingRunner
    from casino.harness.report import plural
    from casino.harness.runners import make_runner
    from casino.harness.runners.inproc import InProcessRunner

    runner: Runner = InProcessRunner()
    if options.command is not None:
        runner = RecordingRunner() if options.runner == "pty" else make_runner(options.runner)
    failed = updated = 0
    for path in paths:
        line, ok, changed = _update_one(path, options, runner)
        streams.stdout.write(line)
        streams.stdout.flush()
        failed += not ok
        updated += changed
    totals = f"{updated} updated, {failed} not updated ({plural(len(paths), 'transcript')})"
    streams.stdout.write(totals + "\n")
    return 1 if failed else 0


def _update_one(path: Path, options: Options, runner: Runner) -> tuple[str, bool, bool]:
    """The report line(s) for one transcript, whether it is now in order, whether it changed."""
    from casino.harness.load import load_transcript
    from casino.harness.model import TranscriptError
    from casino.harness.report import render
    from casino.harness.session import Status, TranscriptResult, check, target_of
    from casino.harness.update import CannotBless, bless, write_if_changed

    try:
        transcript = load_transcript(path)
    except TranscriptError as error:
        return render(TranscriptResult(str(path), Status.ERROR, error=str(error))), False, False
    result = check(transcript, runner, target_of(transcript, options))
    if result.status in (Status.ERROR, Status.SKIP):
        return render(result), result.ok, False
    try:
        changed = write_if_changed(transcript, bless(transcript, result.outcomes))
    except CannotBless as reason:
        if result.passed:
            return render(result), True, False
        return f"{render(result)}  not updated: {reason}\n", False, False
    except OSError as error:
        return f"{render(result)}  not updated: cannot write: {error}\n", False, False
    if changed:
        return f"UPDATED {transcript.name} ({path})\n", True, True
    return render(result), result.passed, False


# ------------------------------------------------------------------------------------ record


def _record_parser(out: TextIO) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog="casino record",
        description="Capture a session (typed live, or fed from a file) into a transcript.",
        epilog=RECORD_EPILOG,
    )
    parser.add_argument("-o", "--output", required=True, metavar="OUT.yaml")
    parser.add_argument("--stdin", metavar="FILE", help="input lines from FILE, not the keyboard")
    parser.add_argument("--program", metavar="CMD", help="record this command instead")
    parser.add_argument("--program-dir", metavar="DIR", help="CMD's folder (default: this one)")
    parser.add_argument(
        "--seed", type=whole_number(), metavar="N", help="seed (written to the transcript)"
    )
    parser.add_argument("--name", help="the transcript's name (default: OUT's file name)")
    parser.add_argument(
        "--fixture", action="append", default=[], metavar="NAME=PATH", help="a starting file"
    )
    parser.add_argument("--timeout", type=seconds(), default=10.0, metavar="S", help="step timeout")
    parser.add_argument("--settle", type=seconds(), default=0.5, metavar="S", help="quiet, for CMD")
    parser.add_argument("--force", action="store_true", help="replace OUT.yaml if it exists")
    parser.add_argument("program_name", metavar="PROGRAM", help="casino program (or a name)")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="its arguments")
    return parser


def record_command(argv: list[str], streams: Streams) -> int:
    """``casino record``."""
    args = _record_parser(streams.stdout).parse_args(argv)
    from casino.harness.record import RecordError, lines_of, record
    from casino.harness.runners.base import TargetError

    spec = _recording(args)
    lines = None if args.stdin is None else _input_lines(args.stdin)
    try:
        if lines is None:
            transcript = record(spec, lines_of(streams.stdin), streams.stdout)
        else:
            transcript = record(spec, lines, None)
    except (RecordError, TargetError) as error:
        streams.error(f"casino record: {error}")
        return 1
    except OSError as error:
        streams.error(f"casino record: cannot write {spec.output}: {error.strerror or error}")
        return 1
    steps = len(transcript.runs[0].steps)
    streams.error(f"casino record: wrote {spec.output} ({steps} step{'' if steps == 1 else 's'})")
    return 0


def _input_lines(path: str) -> list[str]:
    """The lines of an input file (any line ending), each one ``in`` step."""
    try:
        with open(path, encoding="utf-8", newline=None) as handle:
            text = handle.read()  # universal newlines: \r\n and \r are \n here
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: not UTF-8 text") from None
    return text.removesuffix("\n").split("\n") if text else []


def _recording(args: argparse.Namespace) -> Recording:
    from casino.harness.record import Recording
    from casino.harness.runners.base import TargetError, check_program

    output = Path(args.output)
    if output.exists() and not args.force:
        raise UsageError(f"{output} exists (use --force to replace it)")
    command = _command(args.program)
    if command is None:
        try:
            check_program(args.program_name)
        except TargetError as error:
            raise UsageError(str(error)) from None
    return Recording(
        program=args.program_name,
        args=tuple(args.args),
        output=output,
        name=args.name or output.stem,
        command=command,
        seed=args.seed,
        fixtures=tuple(_fixture(item) for item in args.fixture),
        timeout=args.timeout,
        settle=args.settle,
        program_dir=_program_dir(args.program_dir, command),
    )


def _fixture(item: str) -> tuple[str, Path]:
    """``--fixture NAME=PATH``: NAME obeys the transcript's file-name rule; PATH is a regular
    file no larger than a replay will read."""
    from casino.harness.load import MAX_FIXTURE_BYTES
    from casino.harness.parse import file_name_problem

    name, sep, path = item.partition("=")
    if not sep or not name or not path:
        raise UsageError(f"--fixture wants NAME=PATH, got {item!r}")
    problem = file_name_problem(name)
    if problem:
        raise UsageError(f"--fixture {name!r}: the name {problem}")
    try:
        size = os.stat(path).st_size if Path(path).is_file() else None
    except OSError:
        size = None
    if size is None:
        raise UsageError(f"--fixture {name}: no such file: {path}")
    if size > MAX_FIXTURE_BYTES:
        raise UsageError(f"--fixture {name}: {path} is over {MAX_FIXTURE_BYTES >> 20} MiB")
    return name, Path(path)


COMMANDS: dict[str, Command] = {"replay": replay, "record": record_command}
