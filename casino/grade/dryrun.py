"""A dry run before a class is graded: the staff's tools the sandbox cannot show are found
before any student is scored 0 for them.

A sandboxed run sees only ``/usr`` (with the system folders), the folders given with
``--sandbox-path`` and its own submission and run folder. A ``--run`` or ``--build`` whose
program lives elsewhere (a JDK in ``/opt``, a virtualenv in ``/tmp``, a pyenv in ``~``) would
make every student "crash (exit status 127)". So, before grading:

1. :func:`check_commands`: the first word of ``--run`` and of ``--build`` is looked up as the
   sandbox would (its ``PATH``, or the path as written); a program the grader's machine has but
   the sandbox does not show stops the grading;
2. :func:`check_first`: the first submission is graded alone; if its runs failed on a path the
   machine has but the sandbox does not show (in what the program printed on stderr — ``sh:
   1: exec: /tmp/venv/bin/python: not found`` — or as the interpreter of the script ``--run``
   starts, ``#!/opt/python/bin/python3``), the grading stops there too.

Either way the grader gets one line naming the path and the ``--sandbox-path`` that would show
it (:func:`refusal`). A path that does not exist on the grader's machine either is the
student's own mistake, graded as such.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
from pathlib import Path

from casino.grade.course import Course
from casino.grade.results import StudentResult
from casino.harness.runners.sandbox import Sandbox

SHELLS = frozenset({"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/bash"})
"""Programs whose first argument is the script ``--run`` really starts."""
_PATH = re.compile(r"(/[^\s:'\"`]+)")
_MISSING = re.compile(r"not found|No such file or directory|cannot execute|bad interpreter")
"""What a shell, ``prlimit`` or the kernel says of a program it cannot start."""
_NOT_FOUND = re.compile(r"(?:^|[\s:])([\w.+-]+): (?:\d+: )?(?:not found|command not found)")


def exposure(path: str) -> str:
    """The folder to give ``--sandbox-path`` so that a run sees ``path``: the folder above its
    ``bin`` (``/opt/jdk/bin/javac`` → ``/opt/jdk``), else its own folder."""
    parent = os.path.dirname(os.path.abspath(path))
    return os.path.dirname(parent) if os.path.basename(parent) == "bin" else parent


def refusal(what: str, path: str) -> str:
    """The one line that stops the grading: ``what`` needs ``path``, which is hidden."""
    return (
        f"casino grade: {what} needs {path}, which the sandbox does not show (it shows /usr, "
        f"the submission and --sandbox-path folders); expose it read-only with "
        f"--sandbox-path {shlex.quote(exposure(path))} (repeatable), then grade again"
    )


def hidden(word: str, sandbox: Sandbox) -> str | None:
    """The machine's path of the program ``word`` when the grader's machine has it but the
    sandbox does not show it; ``None`` otherwise (shown, or nowhere, or in the submission)."""
    if word.startswith("/"):
        return word if _program(word) and not sandbox.shows(word) else None
    if "/" in word or shutil.which(word, path=sandbox.search_path) is not None:
        return None  # in the submission, or found in the sandbox
    found = shutil.which(word)
    return found if found is not None and not sandbox.shows(found) else None


def _program(path: str) -> bool:
    """Whether ``path`` is a program of the grader's machine (an executable file)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def check_commands(course: Course) -> str | None:
    """The refusal for a ``--run`` or ``--build`` program the sandbox cannot show, if any."""
    sandbox = course.sandbox
    if sandbox is None or not sandbox.isolate:
        return None
    commands = [("--run", list(course.run))]
    if course.build is not None:
        with contextlib.suppress(ValueError):  # the build's failure will say what is wrong
            commands.append(("--build", shlex.split(course.build)))
    for option, words in commands:
        if words and (path := hidden(words[0], sandbox)) is not None:
            return refusal(option, path)
    return None


def check_first(course: Course, result: StudentResult, folder: Path) -> str | None:
    """The refusal when the first submission (its ``result``, graded from ``folder``) failed
    on a program the sandbox does not show, if it did."""
    sandbox = course.sandbox
    if sandbox is None or not sandbox.isolate:
        return None
    if result.build_failed:
        return _hidden_in("--build", result.build_output or "", sandbox)
    failed = [s for s in result.scores if s.kind in ("crash", "error", "diff")]
    if not failed or len(failed) < len(result.scores):
        return None  # a transcript ran: the programs it needs are there
    script = _script(course.run, folder)
    if script is not None and (path := _interpreter(script, sandbox)) is not None:
        return refusal(f"the script --run starts ({script.name})", path)
    text = "\n".join(f"{s.stderr_line}\n{s.first_difference or ''}" for s in failed)
    return _hidden_in("--run", text, sandbox)


def _hidden_in(what: str, text: str, sandbox: Sandbox) -> str | None:
    """The refusal for the first path (or name not found) in ``text`` that the machine has
    and the sandbox does not show, if any."""
    said = "\n".join(line for line in text.splitlines() if _MISSING.search(line))
    for found in _PATH.findall(said):
        path = found.rstrip(".,;)")
        if _program(path) and not sandbox.shows(path):
            return refusal(what, path)
    for name in _NOT_FOUND.findall(said):
        if (path := hidden(name, sandbox)) is not None:
            return refusal(what, path)
    return None


def _script(run: tuple[str, ...], folder: Path) -> Path | None:
    """The file of the submission that ``run`` starts (``./run``, or ``sh run.sh``'s)."""
    words = list(run[1:2]) if run[0] in SHELLS else list(run[:1])
    if not words or words[0].startswith("/"):
        return None
    path = folder / words[0]
    return path if path.is_file() else None


def _interpreter(script: Path, sandbox: Sandbox) -> str | None:
    """The hidden interpreter of ``script``'s ``#!`` line, if it has one the sandbox does not
    show."""
    try:
        with open(script, "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = os.fsdecode(first[2:]).split()
    return hidden(words[0], sandbox) if words else None
