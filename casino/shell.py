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
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TextIO


class Flow(Enum):
    """What the loop does after a command."""

    CONTINUE = "continue"
    STOP = "stop"


class Console:
    """A line-oriented input iterator and an output stream, with prompts flushed before reads."""

    def __init__(self, lines: Iterable[str], out: TextIO) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.out = out
        self.exhausted = False

    def write(self, text: str) -> None:
        """Write ``text`` as is (no newline added)."""
        self.out.write(text)

    def line(self, text: str = "") -> None:
        """Write ``text`` and a newline."""
        self.out.write(text + "\n")

    def read(self) -> str | None:
        """The next input line without its line ending, or ``None`` at end of input."""
        try:
            raw = next(self._lines)
        except StopIteration:
            self.exhausted = True
            return None
        return raw.rstrip("\r\n")

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
