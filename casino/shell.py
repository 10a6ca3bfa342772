"""The command-stream interpreter core that every game's shell builds on.

A shell reads commands from an iterator of lines (a terminal, piped stdin, a cmd-file, or
the in-process transcript runner) and writes to a text stream. It never touches
``sys.stdin``/``sys.stdout`` itself, so the same code serves every front end.

- :class:`Console` is the I/O pair: :meth:`Console.ask` writes a prompt *without* a newline,
  flushes, then reads one line (``None`` at end of input).
- :class:`CommandTable` maps command words to handlers; unknown words go through one
  reporting path, the table's ``unknown`` callback.
- :func:`run_commands` is the read → dispatch → write loop; end of input ends it cleanly,
  exactly as a stop command would.
- :meth:`Console.read_within` reads a line with a time limit, on an injected
  :class:`~casino.clock.WaitClock`: from a terminal or a pipe (a console made by
  :meth:`Console.of_stream`) it waits on the file descriptor; from plain lines (a test, the
  in-process runner) it reads at once and judges by the clock, so a :class:`FakeClock` that
  the lines advance makes an answer late without anybody waiting.
"""

from __future__ import annotations

import io
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from casino.clock import WaitClock

_CHUNK = 65536
"""Bytes read from a file descriptor at a time."""


class Flow(Enum):
    """What the loop does after a command."""

    CONTINUE = "continue"
    STOP = "stop"


class TimedOut(Enum):
    """What :meth:`Console.read_within` returns when no line came in time."""

    TIMED_OUT = "timed out"


TIMED_OUT = TimedOut.TIMED_OUT


class Console:
    """A line-oriented input iterator and an output stream, with prompts flushed before reads."""

    def __init__(self, lines: Iterable[str], out: TextIO) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.out = out
        self.exhausted = False
        self._late: list[str | None] = []  # read after a time limit: the next read's
        self._fd: int | None = None
        self._buffer = b""
        self._eof = False

    @classmethod
    def of_stream(cls, stream: TextIO, out: TextIO) -> Console:
        """A console reading ``stream``: straight from its file descriptor when it has one (a
        terminal, a pipe, a file), so that :meth:`read_within` can wait on it; otherwise (an
        in-memory stream) line by line. Lines are UTF-8; bytes that are not read as U+FFFD."""
        try:
            fd = stream.fileno()
        except (OSError, ValueError, io.UnsupportedOperation):
            return cls(stream, out)
        console = cls((), out)
        console._fd = fd
        return console

    def write(self, text: str) -> None:
        """Write ``text`` as is (no newline added)."""
        self.out.write(text)

    def line(self, text: str = "") -> None:
        """Write ``text`` and a newline."""
        self.out.write(text + "\n")

    def read(self) -> str | None:
        """The next input line without its line ending, or ``None`` at end of input."""
        if self._late:
            late = self._late.pop(0)
            self.exhausted = late is None
            return late
        if self._fd is not None:
            while not self._has_line():
                self._fill()
            raw = self._take_line()
        else:
            raw = next(self._lines, None)
        if raw is None:
            self.exhausted = True
            return None
        return raw.rstrip("\r\n")

    def read_within(
        self, seconds: float, clock: WaitClock, tick: Callable[[int], None] | None = None
    ) -> str | TimedOut | None:
        """The next line (``None`` at end of input) if it comes within ``seconds`` on
        ``clock``, else :data:`TIMED_OUT`. Waiting on a file descriptor, ``tick`` is called
        with the whole seconds left before each second's wait (a countdown). A line from plain
        lines that came late (at the limit or after) is kept for the next read, as a terminal
        keeps what was typed."""
        start = clock.now()
        if self._fd is None or self._late:
            line = self.read()
            if clock.now() - start >= seconds:
                self._late.insert(0, line)
                self.exhausted = False
                return TIMED_OUT
            return line
        while not self._has_line():
            left = seconds - (clock.now() - start)
            if left <= 0:
                return TIMED_OUT
            if tick is not None:
                tick(math.ceil(left))
            if clock.wait_readable(self._fd, left - math.ceil(left) + 1):
                self._fill()
        return self.read()

    def _has_line(self) -> bool:
        return self._eof or b"\n" in self._buffer

    def _fill(self) -> None:
        assert self._fd is not None
        chunk = os.read(self._fd, _CHUNK)
        self._eof = not chunk
        self._buffer += chunk

    def _take_line(self) -> str | None:
        end = self._buffer.find(b"\n") + 1 or len(self._buffer)
        if not end:
            return None
        raw, self._buffer = self._buffer[:end], self._buffer[end:]
        return raw.decode("utf-8", "replace")

    def ask(self, prompt: str = "") -> str | None:
        """Write ``prompt`` (no newline), flush, and read the answer line."""
        if prompt:
            self.out.write(prompt)
        self.out.flush()
        return self.read()


@dataclass(frozen=True, slots=True)
class Command:
    """One command line split into its word and the rest of the line."""

    word: str
    rest: str

    @classmethod
    def parse(cls, line: str) -> Command:
        """Split ``line`` (stripped) at its first space: ``"addplayer a,b,c"``.

        Only a space splits: a tab stays part of the word, as the Java graders' ``split(" ")``.
        """
        stripped = line.strip()
        word, _, rest = stripped.partition(" ")
        return cls(word, rest.strip())

    @property
    def args(self) -> list[str]:
        """The rest of the line split on whitespace."""
        return self.rest.split()


Handler = Callable[[Command], Flow | None]


@dataclass
class CommandTable:
    """Command words mapped to handlers, and the one place unknown commands are reported."""

    unknown: Callable[[Command], None]
    handlers: dict[str, Handler] = field(default_factory=dict)

    def register(self, word: str, handler: Handler) -> None:
        """Route ``word`` to ``handler``; a handler returning ``Flow.STOP`` ends the loop."""
        self.handlers[word] = handler

    def dispatch(self, command: Command) -> Flow:
        """Run the handler for ``command`` (or the unknown-command report)."""
        handler = self.handlers.get(command.word)
        if handler is None:
            self.unknown(command)
            return Flow.CONTINUE
        return handler(command) or Flow.CONTINUE


def run_commands(console: Console, table: CommandTable, prompt: str = "") -> Flow:
    """Prompt, read, dispatch until a handler stops the loop or the input ends.

    Returns ``Flow.STOP`` when a command stopped it and ``Flow.CONTINUE`` when the input ran
    out, so a caller can do at end of input what its stop command would have done.
    """
    while True:
        line = console.ask(prompt)
        if line is None:
            return Flow.CONTINUE
        if table.dispatch(Command.parse(line)) is Flow.STOP:
            return Flow.STOP


def tokens(lines: Iterable[str]) -> Iterator[str]:
    """The whitespace-separated tokens of ``lines`` (spaces, tabs, newlines or CRLF)."""
    for line in lines:
        yield from line.split()


@dataclass(frozen=True)
class Streams:
    """The three standard streams a program's ``main`` works with."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    @classmethod
    def of(
        cls, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
    ) -> Streams:
        """The given streams, defaulting to the process's own."""
        return cls(stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)

    def error(self, message: str) -> None:
        """Report ``message`` as one line on stderr."""
        self.stderr.write(message.rstrip("\n") + "\n")
        self.stderr.flush()
