"""``casino demo``: a tiny calculator that shows what the transcript harness checks.

It exists so that ``casino replay transcripts/`` has something to pass before the games do,
and so the harness's own tests have an interactive program with the awkward features of a
real one: a ``$ `` prompt without a newline, output with trailing spaces and tabs, a seeded
die, state kept in a file across runs (``demo.dat``), messages on stderr and a chosen exit
status. End of input ends it exactly as ``exit`` does. A ``store`` that cannot be written (a
read-only ``demo.dat``, a full disk) says so and the session goes on; numbers are read by
:mod:`casino.numbers`; exit statuses and signals are the program-entry contract's.

Commands: ``add A B``, ``mul A B``, ``echo TEXT``, ``table N``, ``roll [SIDES]``,
``store N``, ``recall``, ``warn TEXT``, ``prompt on|off``, ``help``, ``exit [STATUS]``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from casino.cmdline import ArgumentParser, Invocation, run_program
from casino.errors import ParseError
from casino.files import read_text, write_atomic
from casino.numbers import parse_int
from casino.shell import Command, CommandTable, Console, Flow, Streams, run_commands

PROGRAM = "demo"
PROMPT = "$ "
MEMORY_FILE = "demo.dat"
WELCOME = "casino demo calculator (type help)"
COMMANDS = (
    ("add A B", "sum of two whole numbers"),
    ("mul A B", "product of two whole numbers"),
    ("echo TEXT", "say TEXT back"),
    ("table N", "multiplication table up to N (1-12)"),
    ("roll [SIDES]", "roll a die (6 sides unless told)"),
    ("store N", "remember N in demo.dat"),
    ("recall", "the number remembered in demo.dat"),
    ("warn TEXT", "write TEXT on stderr"),
    ("prompt on|off", "show the prompt, or not (then a quiet command prints nothing)"),
    ("exit [N]", "leave, with exit status N (0-255)"),
)
HELP = "\n".join(f"{usage:<14}{meaning}" for usage, meaning in COMMANDS)
MEMORY_LIMIT = 1024
"""The most bytes ``recall`` reads from ``demo.dat`` (a number is far shorter)."""


def multiplication_table(size: int) -> list[str]:
    """Rows of the table up to ``size``, every cell left-aligned in four columns."""
    header = ["×", *map(str, range(1, size + 1))]
    rows = [[str(i), *(str(i * j) for j in range(1, size + 1))] for i in range(1, size + 1)]
    return ["".join(f"{cell:<4}" for cell in row) for row in [header, *rows]]


class PromptingConsole(Console):
    """A console whose prompt can be switched off (then a silent command prints nothing)."""

    show_prompt = True

    def ask(self, prompt: str = "") -> str | None:
        """Prompt (if switched on) and read."""
        return super().ask(prompt if self.show_prompt else "")


@dataclass
class Demo:
    """The calculator's state: its streams, its die and the exit status asked for."""

    console: PromptingConsole
    streams: Streams
    rng: random.Random
    status: int = 0

    def commands(self) -> CommandTable:
        """Every command word and its handler."""
        table = CommandTable(unknown=self.unknown)
        for word, handler in {
            "add": self.add,
            "mul": self.mul,
            "echo": self.echo,
            "table": self.table,
            "roll": self.roll,
            "store": self.store,
            "recall": self.recall,
            "warn": self.warn,
            "prompt": self.prompt,
            "help": self.help,
            "exit": self.exit,
        }.items():
            table.register(word, handler)
        return table

    def numbers(self, command: Command, count: int) -> list[int] | None:
        """Exactly ``count`` whole numbers from the command, or a message and ``None``."""
        args = command.args
        try:
            if len(args) != count:
                raise ParseError(command.rest)
            return [parse_int(arg) for arg in args]
        except ParseError:
            wanted = "one whole number" if count == 1 else "two whole numbers"
            self.console.line(f"{command.word} needs {wanted}")
            return None

    def add(self, command: Command) -> None:
        """``add A B``."""
        if (values := self.numbers(command, 2)) is not None:
            self.console.line(f"{values[0]} + {values[1]} = {values[0] + values[1]}")

    def mul(self, command: Command) -> None:
        """``mul A B``."""
        if (values := self.numbers(command, 2)) is not None:
            self.console.line(f"{values[0]} × {values[1]} = {values[0] * values[1]}")

    def echo(self, command: Command) -> None:
        """``echo TEXT``: the text after a tab."""
        self.console.line(f"echo:\t{command.rest}")

    def table(self, command: Command) -> None:
        """``table N``: a left-aligned table whose lines end in spaces."""
        values = self.numbers(command, 1)
        if values is None:
            return
        if not 1 <= values[0] <= 12:
            self.console.line("table size must be 1-12")
            return
        for row in multiplication_table(values[0]):
            self.console.line(row)

    def roll(self, command: Command) -> None:
        """``roll [SIDES]``: a die from the seeded generator."""
        sides = [6] if not command.args else self.numbers(command, 1)
        if sides is None:
            return
        if sides[0] < 2:
            self.console.line("a die needs at least 2 sides")
            return
        self.console.line(f"rolled {self.rng.randint(1, sides[0])}")

    def store(self, command: Command) -> None:
        """``store N``: keep N in ``demo.dat`` (written atomically)."""
        if (values := self.numbers(command, 1)) is None:
            return
        try:
            write_atomic(MEMORY_FILE, f"{values[0]}\n")
        except OSError as error:  # a read-only or full directory, a read-only demo.dat
            self.console.line(f"cannot store: {MEMORY_FILE}: {error.strerror or error}")
            return
        self.console.line(f"stored {values[0]}")

    def recall(self, command: Command) -> None:
        """``recall``: what ``store`` kept, across runs."""
        try:
            value: int | None = parse_int(read_text(MEMORY_FILE, MEMORY_LIMIT))
        except FileNotFoundError:
            self.console.line("nothing stored")
            return
        except (OSError, UnicodeDecodeError, ParseError):
            value = None
        if value is None:
            self.console.line(f"{MEMORY_FILE} is corrupt")
            return
        self.console.line(f"recalled {value}")

    def warn(self, command: Command) -> None:
        """``warn TEXT``: a line on stderr, nothing on stdout."""
        self.streams.error(f"warning: {command.rest}")

    def prompt(self, command: Command) -> None:
        """``prompt on|off``."""
        if command.rest not in ("on", "off"):
            self.console.line("prompt needs on or off")
            return
        self.console.show_prompt = command.rest == "on"

    def help(self, command: Command) -> None:
        """``help``: the command list."""
        self.console.line(HELP)

    def exit(self, command: Command) -> Flow | None:
        """``exit [STATUS]``."""
        if command.args:
            values = self.numbers(command, 1)
            if values is None:
                return None
            if not 0 <= values[0] <= 255:
                self.console.line("exit status must be 0-255")
                return None
            self.status = values[0]
        return Flow.STOP

    def unknown(self, command: Command) -> None:
        """Any other word (an empty line says nothing)."""
        if command.word:
            self.console.line(f"unknown command {command.word!r} (try help)")


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the calculator on the given streams; the exit status is what ``exit`` asked for."""
    return run_program(PROGRAM, _run, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(
        description="A tiny calculator that shows what the transcript harness checks.",
        epilog=f"commands:\n{HELP}",
    )
    parser.add_seed_option("seed the die with N")
    return parser


def _run(invocation: Invocation) -> int:
    seed = _parser(invocation).parse_args(invocation.argv).seed
    streams = invocation.streams
    console = PromptingConsole(streams.stdin, streams.stdout)
    demo = Demo(console, streams, random.Random(seed))
    console.line(WELCOME)
    run_commands(console, demo.commands(), PROMPT)
    console.line("bye")
    streams.stdout.flush()
    return demo.status


if __name__ == "__main__":
    raise SystemExit(main())
