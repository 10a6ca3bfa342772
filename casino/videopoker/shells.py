"""The two text front ends of the machine: interactive (``-i``) and debug (``-d``).

Both run the same :class:`~casino.videopoker.commands.VideoPokerCommands`.

- **debug**: the cmd-file's commands (see :func:`~casino.videopoker.commands.group_commands`),
  each echoed as an empty line and ``-cmd <command>`` before its messages, as the course's
  example shows.
- **interactive**: one command per input line. When stdin is a terminal the shell greets
  the player (naming the pay table), lists the commands and prompts with ``> ``; when stdin
  is piped it prints exactly the debug mode's messages, without echo or prompt, so a grader
  can compare them (``--prompt`` / ``--no-prompt`` choose either way whatever stdin is). End
  of input ends the session (there is no quit command in the seed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from casino.shell import Command, Console, run_commands
from casino.videopoker.commands import Advisor, VideoPokerCommands, echo
from casino.videopoker.game import Machine

PROMPT = "> "

_GREETING = (
    "Video poker, {table}. Your credit is {credit}.",
    "Commands: b [1-5] bet, $ credit, d deal, h [1-5 ...] hold, a advice, s statistics.",
    "End of input (Ctrl-D) leaves the machine.",
)


def run_debug(machine: Machine, commands: Iterable[Command], out: TextIO, advisor: Advisor) -> None:
    """Play ``commands`` (a cmd-file), echoing each before its messages."""
    console = Console((), out)
    shell = VideoPokerCommands(machine, console, advisor)
    for command in commands:
        console.line()
        console.line(f"-cmd {echo(command)}")
        shell.run(command)
    out.flush()


def run_interactive(
    machine: Machine, lines: Iterable[str], out: TextIO, advisor: Advisor, *, prompt: bool
) -> None:
    """Play commands read line by line; greet and prompt only when ``prompt`` is true."""
    console = Console(lines, out)
    shell = VideoPokerCommands(machine, console, advisor)
    if prompt:
        for line in _GREETING:
            console.line(line.format(table=machine.table.title, credit=machine.credit))
    run_commands(console, shell.table, PROMPT if prompt else "")
    if prompt:
        console.line()  # the terminal's cursor was left after the last prompt
    out.flush()
