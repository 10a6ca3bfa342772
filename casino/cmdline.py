"""The program-entry contract every casino program's ``main`` goes through, and its parsing.

:func:`run_program` runs a program's body and turns whatever ends it into one exit status and
at most one line on stderr, never a traceback:

=================================  ======  ====================================================
how it ended                       status  on stderr
=================================  ======  ====================================================
the body returned N                N       (what the body wrote)
``--help`` / ``--version``         0       nothing (the text went to stdout)
:class:`UsageError`                2       ``PROG: message (see PROG --help)``
:class:`FileProblem`               1       ``PROG: message`` (a file missing, unreadable, bad)
stdout closed early (``| head``)   1       nothing
stdout closed from the start       1       ``PROG: standard output is closed`` (not run)
the system refused (``OSError``)   1       ``PROG: [FILE: ]reason`` (a full disk, ``/dev/full``)
the working folder is gone         1       ``PROG: the working folder is gone (reason)``
the terminal is gone (``EIO``)     129     ``PROG: the terminal is gone`` (as SIGHUP)
Ctrl-C (SIGINT)                    130     ``PROG: interrupted``
SIGTERM / SIGHUP                   143/129 ``PROG: stopped by SIGTERM`` (SIGHUP)
an unexpected error                70      ``PROG: internal error: …`` (a bug in casino)
=================================  ======  ====================================================

Every row after the fourth applies when the program runs on the process's own streams
(``python -m …``, the ``casino`` command): there the contract also makes stdin and stdout
survive any bytes (bad UTF-8 is replaced, not fatal), gives a closed stdin or stderr the
null device (stdin reads as empty, stderr's lines go nowhere), checks that the output
reached its end at exit (what stays in the buffer is flushed: a full disk is the row of the
system's refusals, not a silent loss), and turns SIGTERM and SIGHUP into
:class:`~casino.interrupts.Stopped`, a kind of ``KeyboardInterrupt``, so that a program saves
its state (``finally``) whichever way it is stopped. An ``OSError`` that reaches the contract
is something the environment did (the programs turn the failures of their own files into
:class:`FileProblem` before): never the words "a bug in casino". A closed terminal reads or
writes as ``EIO`` before or after its SIGHUP arrives; either way it is status 129 (the line
then reaches no one).

Called with streams of its own (tests, the in-process transcript runner), a program's
interruptions and errors propagate to the caller. A program with state to save runs inside
:func:`~casino.interrupts.signals_deferred` and reads through
:func:`~casino.interrupts.interruptible_lines`, so that a signal stops it only while it waits
for input, and saves with :func:`~casino.interrupts.run_uninterrupted`.

``PROG`` is the name the user typed: the ``casino`` dispatcher runs a program inside
:func:`invoked_as` (``casino videopoker``), and :func:`program_name` gives it to the program
(its own short name otherwise). :class:`ArgumentParser` is argparse that never exits or prints
a usage block; its :meth:`~ArgumentParser.add_seed_option` is every program's ``--seed N``,
which falls back to the environment variable ``CASINO_SEED``. Whole numbers are read by
:mod:`casino.numbers`.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

from casino.errors import CasinoError, ParseError
from casino.interrupts import Stopped, stop_signals_raise
from casino.numbers import describe_range, parse_bounded, parse_int, parse_seconds
from casino.shell import Streams

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = [
    "CLOSED_OUTPUT_EXIT",
    "FILE_EXIT",
    "HANGUP_EXIT",
    "INTERNAL_EXIT",
    "SEED_VARIABLE",
    "USAGE_EXIT",
    "ArgumentParser",
    "FileProblem",
    "HelpShown",
    "Invocation",
    "UsageError",
    "describe_refusal",
    "invoked_as",
    "parse_int",
    "program_name",
    "run_program",
    "silence_closed_output",
    "whole_number",
]

USAGE_EXIT = 2
"""The exit status for a bad command line."""
FILE_EXIT = 1
"""The exit status for a file that is missing, unreadable or malformed."""
CLOSED_OUTPUT_EXIT = 1
"""The exit status when stdout was closed before the program was done (``… | head``)."""
INTERRUPT_EXIT = 130
"""The exit status after Ctrl-C (128 + SIGINT), as a shell reports it."""
INTERNAL_EXIT = 70
"""The exit status for an error that is a bug in casino (``EX_SOFTWARE``)."""
HANGUP_EXIT = 128 + 1
"""The exit status when the terminal went away (128 + SIGHUP): its SIGHUP, or an ``EIO`` on
its streams that came first."""
SEED_VARIABLE = "CASINO_SEED"
"""The environment variable a program's ``--seed`` falls back to."""

_invoked_as: ContextVar[str | None] = ContextVar("casino_invoked_as", default=None)


class UsageError(CasinoError):
    """A bad command line; the message is one line."""


class FileProblem(CasinoError):
    """A file the program was given or keeps is missing, unreadable or malformed."""


class HelpShown(Exception):
    """Control flow, not an error: ``--help`` (or ``--version``) has been printed; the
    program should end with 0."""


# ------------------------------------------------------------------------ the invoked name


@contextlib.contextmanager
def invoked_as(name: str) -> Iterator[None]:
    """The next program run inside (by :func:`run_program`) is called ``name``: what the user
    typed (``casino videopoker``). Programs that one runs in turn have their own names."""
    token = _invoked_as.set(name)
    try:
        yield
    finally:
        _invoked_as.reset(token)


def program_name(default: str) -> str:
    """The name the program was invoked by, or ``default`` (its own short name)."""
    return _invoked_as.get() or default


# ------------------------------------------------------------------------- the contract


@dataclass(frozen=True)
class Invocation:
    """One run of a program: its name as typed, its arguments and its streams."""

    prog: str
    argv: list[str]
    streams: Streams
    own_process: bool

    def parser(self, **kwargs: Any) -> ArgumentParser:
        """An :class:`ArgumentParser` named after the program, printing to its stdout."""
        return ArgumentParser(out=self.streams.stdout, prog=self.prog, **kwargs)


Body = Callable[[Invocation], int]


def run_program(
    name: str,
    body: Body,
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``body`` as program ``name`` under the contract (see the module's table); the exit
    status. ``argv`` ``None`` means the process's own arguments; streams ``None`` its own."""
    own = stdin is None and stdout is None and stderr is None
    closed_stdout = _robust_own_streams() if own else False
    streams = Streams.of(stdin, stdout, stderr)
    invocation = Invocation(
        program_name(name), list(sys.argv[1:] if argv is None else argv), streams, own
    )
    if closed_stdout:  # nowhere for its output: said, not run
        _say(streams, f"{invocation.prog}: standard output is closed")
        return CLOSED_OUTPUT_EXIT
    token = _invoked_as.set(None)  # a program this one runs has its own name, unless told
    try:
        with stop_signals_raise(own):
            try:
                status = _ended(invocation, body)
                if own:
                    status = _output_ended(invocation, status)
            except KeyboardInterrupt as late:  # came while another ending was handled
                if not own:
                    raise
                status = _interrupted(invocation, late)
                _flush_or_silence(sys.stdout)
                _flush_or_silence(sys.stderr)
            return status
    finally:
        _invoked_as.reset(token)


def run_subcommand(invocation: Invocation, short_name: str, body: Body) -> int:
    """Run ``body`` on ``invocation.argv[1:]`` as a program of its own under the contract, named
    after the subcommand ``invocation.argv[0]`` (``casino stud dealer`` as typed; ``stud
    dealer`` when ``short_name`` is ``stud`` and nothing says how it was invoked), on the same
    streams."""
    command, rest = invocation.argv[0], invocation.argv[1:]
    streams = invocation.streams
    given: dict[str, TextIO] = {}
    if not invocation.own_process:
        given = {"stdin": streams.stdin, "stdout": streams.stdout, "stderr": streams.stderr}
    with invoked_as(f"{invocation.prog} {command}"):
        return run_program(f"{short_name} {command}", body, rest, **given)


def _ended(invocation: Invocation, body: Body) -> int:
    """The exit status of ``body``, every ending mapped to one status and one line."""
    prog, streams = invocation.prog, invocation.streams
    try:
        return body(invocation)
    except HelpShown:
        return 0
    except UsageError as error:
        _say(streams, f"{prog}: {error} (see {prog} --help)")
        return USAGE_EXIT
    except FileProblem as error:
        _say(streams, f"{prog}: {error}")
        return FILE_EXIT
    except BrokenPipeError:
        if invocation.own_process:
            silence_closed_output(sys.stdout)
        return CLOSED_OUTPUT_EXIT
    except KeyboardInterrupt as interruption:
        if not invocation.own_process:
            raise
        return _interrupted(invocation, interruption)
    except OSError as error:
        if not invocation.own_process:
            raise
        return _refused(invocation, error)
    except Exception as error:
        if not invocation.own_process:
            raise
        what = str(error).partition("\n")[0][:200]
        _say(streams, f"{prog}: internal error (a bug in casino): {type(error).__name__}: {what}")
        return INTERNAL_EXIT


def _interrupted(invocation: Invocation, interruption: KeyboardInterrupt) -> int:
    """Ctrl-C or a stop signal: one line (after the terminal's ``^C``), 128 + the signal."""
    prog, streams = invocation.prog, invocation.streams
    if isinstance(interruption, Stopped):
        _say(streams, f"{prog}: stopped by {interruption.name}", fresh_line=True)
        return 128 + interruption.signum
    _say(streams, f"{prog}: interrupted", fresh_line=True)
    return INTERRUPT_EXIT


def _refused(invocation: Invocation, error: OSError) -> int:
    """The system refused something (the environment's doing, not casino's): one line and
    status 1, or 129 for a terminal that is gone."""
    if _terminal_gone(error):
        _ignore_hangup()  # its SIGHUP, still on its way, ends nothing more
        _say(invocation.streams, f"{invocation.prog}: the terminal is gone", fresh_line=True)
        return HANGUP_EXIT
    _say(invocation.streams, f"{invocation.prog}: {describe_refusal(error)}")
    return FILE_EXIT


def describe_refusal(error: OSError) -> str:
    """What the system refused, in words for the user: ``FILE: reason`` (``No space left on
    device``), or that the working folder is gone."""
    reason = error.strerror or str(error) or type(error).__name__
    if error.errno == errno.ENOENT and _working_folder_gone():
        return f"the working folder is gone ({reason})"
    return f"{error.filename}: {reason}" if error.filename else reason


def _terminal_gone(error: OSError) -> bool:
    """Whether ``error`` is a hung-up terminal's ``EIO``: one of the process's streams is a
    character device other than the null device and its kin (a hung-up terminal is no longer
    a tty to ``isatty``, but still that)."""
    if error.errno != errno.EIO:
        return False
    return any(_character_device(descriptor) for descriptor in (0, 1, 2))


def _ignore_hangup() -> None:
    """Ignore SIGHUP from now on (in the main thread, where there is one): the hang-up is
    already this program's ending (:func:`stop_signals_raise` leaves it ignored)."""
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is not None and threading.current_thread() is threading.main_thread():
        signal.signal(hangup, signal.SIG_IGN)


MEMORY_DEVICES = 1
"""The major number of ``/dev/null``, ``/dev/full`` and their kin: character devices, no
terminals."""


def _character_device(descriptor: int) -> bool:
    try:
        status = os.fstat(descriptor)
    except OSError:
        return False
    return stat.S_ISCHR(status.st_mode) and os.major(status.st_rdev) != MEMORY_DEVICES


def _working_folder_gone() -> bool:
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    return False


def _output_ended(invocation: Invocation, status: int) -> int:
    """The status once what stdout and stderr still hold is flushed. Output that cannot go
    (a pipe closed, a terminal gone) is pointed at the null device, so that the flush at
    interpreter exit fails no more (status 120); a refusal other than a closed pipe (a full
    disk) is said when the program would have ended with 0, and then it ends with its status."""
    refused = _flush_or_silence(sys.stdout)
    _flush_or_silence(sys.stderr)
    if refused is None or isinstance(refused, BrokenPipeError) or status != 0:
        return status  # a program that ended otherwise has said why already
    return _refused(invocation, refused) if isinstance(refused, OSError) else FILE_EXIT


def _flush_or_silence(stream: TextIO) -> Exception | None:
    """Flush what the program wrote; where the output is gone, point it at the null device
    (a line it could not take stays in the buffer: the null device takes it). What refused
    the flush, if anything."""
    try:
        stream.flush()
    except (OSError, ValueError) as error:
        silence_closed_output(stream)
        return error
    return None


def _say(streams: Streams, message: str, *, fresh_line: bool = False) -> None:
    """One line on stderr, after what stdout still holds (on a terminal the two interleave:
    the line must come last); a stream that is gone (a closed terminal, a full disk) is not an
    error, nor is anything else that keeps the line from being written: it is the last word."""
    with contextlib.suppress(Exception):
        streams.stdout.flush()
    with contextlib.suppress(Exception):
        if fresh_line and streams.stderr.isatty():
            message = "\n" + message
        streams.error(message)


def _robust_own_streams() -> bool:
    """Make the process's stdin and stdout survive any bytes (bad UTF-8 becomes U+FFFD, a
    character the terminal cannot show becomes ``?``), and give a closed stream the null
    device (on its descriptor too, so that no file the program opens takes its number); a
    closed stdin reads as empty. Whether stdout was closed."""
    closed_stdout = sys.stdout is None
    if sys.stdin is None:
        sys.stdin = _null_stream(0, "r")
    if sys.stdout is None:
        sys.stdout = _null_stream(1, "w")
    if sys.stderr is None:
        sys.stderr = _null_stream(2, "w")
    for stream in (sys.stdin, sys.stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="replace")
    return closed_stdout


def _null_stream(descriptor: int, mode: str) -> TextIO:
    """The null device on ``descriptor`` (a standard stream's, found closed), as a text stream."""
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY if mode == "r" else os.O_WRONLY)
        if null != descriptor:
            os.dup2(null, descriptor)
            os.close(null)
        return cast(TextIO, open(descriptor, mode, encoding="utf-8", closefd=False))
    return cast(TextIO, open(os.devnull, mode, encoding="utf-8"))


def silence_closed_output(stream: TextIO) -> None:
    """After ``… | head`` closed our stdout: point it at the null device, so the flush at
    interpreter exit reports no second error."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


# ----------------------------------------------------------------------------- parsing


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, and prints help where it is told."""

    def __init__(self, *, out: TextIO, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**kwargs)
        self._out = out
        self._seed_from_environment = False

    def add_seed_option(self, purpose: str = "seed every shuffle with N") -> None:
        """Add ``--seed N``; without it, :meth:`parse_args` takes ``$CASINO_SEED`` (if set)."""
        self.add_argument(
            "--seed",
            type=whole_number(),
            metavar="N",
            help=f"{purpose} (default: ${SEED_VARIABLE} if set)",
        )
        self._seed_from_environment = True

    def parse_args(  # type: ignore[override]  # always a Namespace here
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """Parse ``args``; a ``--seed`` not given is filled in from ``$CASINO_SEED``."""
        options = super().parse_args(args, namespace)
        if self._seed_from_environment and options.seed is None:
            options.seed = seed_from_environment()
        return options

    def error(self, message: str) -> NoReturn:
        """A usage error: raised as :class:`UsageError`, never printed and exited."""
        raise UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """Only ``--help``/``--version`` exit argparse's way; they have printed already."""
        raise HelpShown

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Help, usage and ``--version`` go to the program's own stdout."""
        if message:
            self._out.write(message)


def commands_help(heading: str, commands: Iterable[tuple[str, str]], *after: str) -> str:
    """A ``--help`` epilog listing a game's in-game commands, the one layout every casino game
    uses: ``heading``, then each command's syntax on a line of its own with what it does
    indented below it, then the ``after`` lines (a blank line before them)."""
    lines = [heading, *(f"  {syntax}\n      {meaning}" for syntax, meaning in commands)]
    return "\n".join([*lines, "", *after] if after else lines)


def seconds(most: int | None = None, *, zero: bool = False) -> Callable[[str], float]:
    """An argparse ``type`` reading a number of seconds with
    :func:`casino.numbers.parse_seconds` (above 0, or 0 too when ``zero``; at most ``most``):
    ``nan``, ``inf`` and negatives are one-line usage errors quoting the input."""

    def convert(text: str) -> float:
        try:
            return parse_seconds(text, most, zero=zero)
        except ParseError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = "number of seconds"
    return convert


def whole_number(least: int | None = None, most: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` reading a whole number with :mod:`casino.numbers` (from ``least``
    to ``most`` when given): a bad one is a one-line usage error quoting it."""

    def convert(text: str) -> int:
        try:
            return parse_int(text) if least is None else parse_bounded(text, least, most)
        except ParseError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = "whole number"
    if least is not None:
        convert.__name__ = f"whole number {describe_range(least, most)}"
    return convert


def seed_from_environment(environ: Mapping[str, str] | None = None) -> int | None:
    """The whole number in ``$CASINO_SEED``, ``None`` if unset or empty; a bad value is a
    :class:`UsageError`."""
    text = (os.environ if environ is None else environ).get(SEED_VARIABLE, "")
    if not text:
        return None
    try:
        return parse_int(text)
    except ParseError as error:
        raise UsageError(f"{SEED_VARIABLE}: {error}") from None
