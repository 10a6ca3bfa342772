"""``casino`` / ``python -m casino``: the games and the transcript harness, as subcommands."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import TextIO

from casino import __version__
from casino.cmdline import Invocation, UsageError, invoked_as, run_program
from casino.programs import PROGRAMS, load_main, summary_of

PROGRAM = "casino"
HARNESS_COMMANDS = {
    "replay": "replay transcripts against casino's programs or any other command",
    "record": "capture a live or stdin-fed session into a transcript",
    "grade": "grade every submission of a course against the same transcripts, sandboxed",
    "explore": "find a short session on which a program differs from casino's reference",
}
HARNESS_NEEDS = {"yaml": "PyYAML", "pexpect": "pexpect", "ptyprocess": "ptyprocess"}
"""What the harness commands import beyond the standard library (module: distribution); the
games need none of it, and a command without it says so in one line, status 1."""
HARNESS_MODULES = {
    "replay": "casino.harness.cli",
    "record": "casino.harness.cli",
    "grade": "casino.grade.cli",
    "explore": "casino.explore.cli",
}
"""The module whose ``main`` runs each harness command (its ``argv`` starts with the command
word); imported only when used."""


def _help(prog: str) -> str:
    """The ``casino --help`` text: every command with what it is, one line each."""
    width = max(map(len, [*HARNESS_COMMANDS, *PROGRAMS])) + 2
    games = [f"  {name:<{width}}{summary_of(name)}" for name in PROGRAMS]
    harness = [f"  {name:<{width}}{text}" for name, text in HARNESS_COMMANDS.items()]
    return "\n".join(
        [
            f"usage: {prog} [-h] [--version] COMMAND [ARGS...]",
            "",
            "Reference implementations of classic game assignments, and a transcript harness",
            "that grades any program against golden sessions.",
            "",
            "games (each is also python -m casino.NAME):",
            *games,
            "",
            "transcript harness:",
            *harness,
            "",
            f"'{prog} COMMAND --help' describes a command. Without --seed, every game is",
            "seeded by the environment variable CASINO_SEED when it is set.",
            "",
        ]
    )


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Dispatch ``casino COMMAND ARGS…`` to the harness or to a game's own ``main``."""

    def dispatch(invocation: Invocation) -> int:
        args = invocation.argv
        command, rest = (args[0], args[1:]) if args else ("", [])
        streams = {"stdin": stdin, "stdout": stdout, "stderr": stderr}
        if command in HARNESS_COMMANDS:
            module = _harness_module(invocation, command)
            if module is None:
                return 1
            with invoked_as(invocation.prog):
                status: int = module.main([command, *rest], **streams)
                return status
        if command in PROGRAMS:
            with invoked_as(f"{invocation.prog} {command}"):
                return load_main(command)(rest, **streams)
        return _own_options(invocation, command)

    return run_program(PROGRAM, dispatch, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _harness_module(invocation: Invocation, command: str) -> ModuleType | None:
    """The module running harness ``command``; ``None``, said in one line, if it needs a
    dependency this Python does not have."""
    try:
        for name in HARNESS_NEEDS:  # looked for, not imported: the commands import them lazily
            if find_spec(name) is None:
                raise ModuleNotFoundError(name=name)
        return import_module(HARNESS_MODULES[command])
    except ModuleNotFoundError as missing:
        if missing.name not in HARNESS_NEEDS:
            raise
        needed = HARNESS_NEEDS[missing.name]
        invocation.streams.error(
            f"{invocation.prog} {command}: needs {needed}, which this Python does not have "
            f"(pip install {needed})"
        )
        return None


def _own_options(invocation: Invocation, command: str) -> int:
    """``casino``, ``casino --help``, ``casino --version``, or an unknown command."""
    out = invocation.streams.stdout
    if command in ("-h", "--help"):
        out.write(_help(invocation.prog))
        return 0
    if command == "--version":
        out.write(f"{PROGRAM} {__version__}\n")
        return 0
    if not command:
        raise UsageError("a command is needed")
    known = ", ".join([*PROGRAMS, *HARNESS_COMMANDS])
    raise UsageError(f"unknown command {command!r} (one of: {known})")


if __name__ == "__main__":
    raise SystemExit(main())
