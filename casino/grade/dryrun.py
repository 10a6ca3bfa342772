"""A dry run of the staff's tools before a class is graded, never of a student.

A sandboxed run sees only ``/usr`` (with the system folders and a few files of ``/etc``), the
folders given with ``--sandbox-path`` and its own submission and run folder. A ``--run`` or
``--build`` whose program lives elsewhere (a JDK in ``/opt``, a virtualenv in ``/tmp``, a
pyenv in ``~``) would make every student "crash (exit status 127)". So, before anyone is
graded, :func:`check_commands` looks at what the staff gave, and only at that:

1. every program ``--run`` and ``--build`` name is **resolved** (:func:`needs`): the word
   looked up as the sandbox would (its ``PATH``, or the path as written), then each link of
   the chain of symbolic links to the real file (a virtualenv's ``bin/python`` → its base
   interpreter, ``/usr/bin/java`` → ``/etc/alternatives/java`` → the JDK), the interpreter
   of its ``#!`` line (``#!/usr/bin/env python3`` looked up on the sandbox's ``PATH``), a
   virtualenv's base (``home =`` of its ``pyvenv.cfg``) and a runtime's own ``lib`` beside
   its ``bin`` (a JDK's, a pyenv Python's standard library); a staff script (a program with
   a ``#!`` line, as a pyenv shim is, or given to a shell by an absolute path: ``sh
   /course/run.sh``) is read for absolute paths of programs too.
   The first one the grader's machine has and the sandbox does not show stops the grading
   (:func:`refusal`); so does a program the machine does not have at all;
2. a **probe** (:func:`probe`) then runs inside a real sandbox of the course's (an empty
   folder for a submission, as the run's own uid): every path of step 1 must be there and
   readable, and an interpreter it knows (Python, Java) must start (``python -c pass``,
   ``java -version``). A failure stops the grading, naming the path or the first line the
   interpreter printed.

A word that is a path inside the submission (``./run``, ``sh run.sh``) is the student's: not
looked at. Whatever a student's program does or prints is that student's grade, never a stop
and never advice (an earlier dry run graded the first submission alone and took its output
for the staff's: a student could stop the course by printing ``not found``).
"""

from __future__ import annotations

import configparser
import contextlib
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from casino.grade.course import Course
from casino.harness.model import Run
from casino.harness.runners.base import Job, Target
from casino.harness.runners.pipe import PipeRunner
from casino.harness.runners.sandbox import Sandbox

SHELLS = frozenset({"sh", "bash", "dash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "/bin/dash"})
"""Programs whose first argument is the script ``--run`` really starts."""
ENV = frozenset({"env", "/usr/bin/env", "/bin/env"})
"""``env``: the program it starts is the word after its options and assignments."""
_PATH = re.compile(r"(?<![\w.~$-])(/[\w.+@/-]+)")
MAX_LINKS = 40
"""Links followed before a chain is taken for a loop (the kernel's own limit)."""
SCRIPT_BYTES = 64 * 1024
"""How much of a staff script is read for the programs it names."""
PROBE_TIMEOUT = 60.0
"""Seconds the probe in the sandbox may take (a JVM starts in about one on a busy machine)."""


@dataclass(frozen=True)
class Need:
    """A path of the machine a program of the staff's needs in the sandbox."""

    path: str
    via: str
    """The word of ``--run``/``--build`` (or the link, script) it was found through."""


def exposure(path: str) -> str:
    """The folder to give ``--sandbox-path`` so that a run sees ``path``: the folder above its
    ``bin`` (``/opt/jdk/bin/javac`` → ``/opt/jdk``), else its own folder."""
    parent = os.path.dirname(os.path.abspath(path))
    return os.path.dirname(parent) if os.path.basename(parent) == "bin" else parent


def refusal(what: str, path: str, via: str | None = None) -> str:
    """The one line that stops the grading: ``what`` needs ``path`` (through ``via``, a
    link or interpreter of the program it names), which is hidden."""
    through = f" (through {via})" if via is not None and via != path else ""
    return (
        f"casino grade: {what} needs {path}{through}, which the sandbox does not show (it "
        f"shows /usr, the submission and --sandbox-path folders); expose it read-only with "
        f"--sandbox-path {shlex.quote(exposure(path))} (repeatable), then grade again"
    )


def missing(what: str, word: str) -> str:
    """The line that stops the grading when ``what`` names a program nowhere to be found."""
    return (
        f"casino grade: {what} names {word}, which neither this machine nor the sandbox has "
        f"(every student would fail to start it); give a program that exists, then grade again"
    )


def unreachable(what: str, path: str, said: str) -> str:
    """The line that stops the grading when the probe inside the sandbox failed on ``path``."""
    return (
        f"casino grade: {what} needs {path}, which fails inside the sandbox ({said}); graded as "
        f"root each run is a uid of its own, so the folder and every folder above it must be "
        f"readable by others, and a runtime's whole folder shown with --sandbox-path"
    )


def _program(path: str) -> bool:
    """Whether ``path`` is a program of the grader's machine (an executable file)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def commands(course: Course) -> list[tuple[str, list[str]]]:
    """``("--run", words)`` and, with a build, ``("--build", words)``."""
    found = [("--run", list(course.run))]
    if course.build is not None:
        with contextlib.suppress(ValueError):  # the build's failure will say what is wrong
            found.append(("--build", shlex.split(course.build)))
    return found


def staff_program(words: list[str]) -> tuple[str | None, str | None]:
    """The program ``words`` start (``env``'s options and assignments skipped) and, when it
    is a shell given a script by an absolute path, that script; ``(None, None)`` when the
    program is the submission's."""
    words = list(words)
    while words and ("=" in words[0] or words[0] in ENV):
        words = words[1:]  # ``CC=gcc make``, ``env -i X=1 java``
        while words and words[0].startswith("-"):
            words = words[1:]
    if not words or ("/" in words[0] and not words[0].startswith("/")):
        return None, None
    script = None
    if os.path.basename(words[0]) in {os.path.basename(s) for s in SHELLS}:
        rest = [w for w in words[1:] if not w.startswith("-")]
        if rest and rest[0].startswith("/") and "-c" not in words[1:]:
            script = rest[0]
    return words[0], script


def check_commands(course: Course) -> str | None:
    """The refusal for a ``--run`` or ``--build`` program the sandbox cannot show or start,
    if any: first what the machine's files say (:func:`needs`), then the :func:`probe`."""
    sandbox = course.sandbox
    if sandbox is None or not sandbox.isolate:
        return None
    found: list[tuple[str, str, list[Need]]] = []
    for option, words in commands(course):
        program, script = staff_program(words)
        if program is None:
            continue
        located = locate(program, sandbox)
        if located is None:
            if option == "--build":
                continue  # ``sh -c``'s: a builtin (``cd``, ``set``) or the submission's
            return missing(option, program)
        wanted = needs(located, sandbox)
        if _interpreter(os.path.realpath(located), sandbox) is not None:  # a script itself
            wanted += script_needs(os.path.realpath(located), sandbox)
        if script is not None:
            wanted += needs(script, sandbox) + script_needs(script, sandbox)
        for need in wanted:
            if not sandbox.shows(need.path):
                return refusal(option, need.path, need.via)
        found.append((option, located, wanted))
    for option, located, wanted in found:
        if (problem := probe(option, located, wanted, sandbox)) is not None:
            return problem
    return None


def locate(word: str, sandbox: Sandbox) -> str | None:
    """The machine's path of the program ``word``: as written, else on the sandbox's
    ``PATH``, else on the grader's own (hidden then); ``None`` where there is none."""
    if word.startswith("/"):
        return word if os.path.lexists(word) else None
    return shutil.which(word, path=sandbox.search_path) or shutil.which(word)


def needs(program: str, sandbox: Sandbox, depth: int = 0) -> list[Need]:
    """Every path of the machine ``program`` needs to start in the sandbox: itself, each link
    to its real file, the real file, its ``#!`` interpreter's (recursively), a virtualenv's
    base and a runtime's ``lib`` beside its ``bin``."""
    found = [Need(path, program) for path in links(program)]
    real = os.path.realpath(program)
    found.append(Need(real, program))
    found += _runtime(program, real)
    interpreter = _interpreter(real, sandbox)
    if interpreter is not None and depth < 4:
        found += needs(interpreter, sandbox, depth + 1)
    return found


def links(path: str) -> Iterator[str]:
    """``path`` and each link its chain of symbolic links goes through, as written (not
    resolved: each must be shown where it is)."""
    here = os.path.abspath(path)
    for _ in range(MAX_LINKS):
        yield here
        try:
            target = os.readlink(here)
        except OSError:
            return
        here = os.path.normpath(os.path.join(os.path.dirname(here), target))


def _runtime(program: str, real: str) -> list[Need]:
    """A virtualenv's base (``home`` in ``pyvenv.cfg`` above ``program``'s ``bin``) and the
    ``lib`` folder beside a runtime's ``bin`` (the JDK's, a pyenv Python's)."""
    found = []
    venv = os.path.dirname(os.path.dirname(os.path.abspath(program)))
    home = _venv_home(Path(venv) / "pyvenv.cfg")
    if home is not None:
        found.append(Need(home, f"{program}'s pyvenv.cfg"))
    for path in dict.fromkeys((os.path.abspath(program), real)):
        bin_folder = os.path.dirname(path)
        lib = os.path.join(os.path.dirname(bin_folder), "lib")
        if os.path.basename(bin_folder) == "bin" and os.path.isdir(lib):
            found.append(Need(lib, program))
    return found


def _venv_home(config: Path) -> str | None:
    """The ``home`` (its base interpreter's folder) of a virtualenv's ``pyvenv.cfg``."""
    try:
        text = config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    with contextlib.suppress(configparser.Error):
        parser.read_string("[venv]\n" + text)
        home = parser.get("venv", "home", fallback=None)
        return home.strip() if home and home.strip().startswith("/") else None
    return None


def _interpreter(path: str, sandbox: Sandbox) -> str | None:
    """The machine's path of the ``#!`` interpreter of the file ``path``, if it has one
    (``env``'s program looked up on the sandbox's ``PATH``)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = os.fsdecode(first[2:]).split()
    if words and words[0] in ENV:
        words = [w for w in words[1:] if not w.startswith("-") and "=" not in w][:1]
        return locate(words[0], sandbox) if words else None
    return words[0] if words and words[0].startswith("/") else None


def script_needs(script: str, sandbox: Sandbox) -> list[Need]:
    """The programs of the machine a staff script names by absolute path (``exec
    /tmp/venv/bin/python``), each resolved as :func:`needs`."""
    try:
        with open(script, "rb") as handle:
            text = os.fsdecode(handle.read(SCRIPT_BYTES))
    except OSError:
        return []
    found: list[Need] = []
    for path in dict.fromkeys(_PATH.findall(text)):
        if _program(path) and not os.path.isdir(path):
            found += [Need(n.path, script) for n in needs(path, sandbox)]
    return found


def probe(option: str, program: str, wanted: list[Need], sandbox: Sandbox) -> str | None:
    """Run, inside a sandbox of ``sandbox``'s kind (an empty run folder, the run's uid), a
    check that every path of ``wanted`` is there and readable, then ``program``'s own start
    when it is an interpreter casino knows; the line that stops the grading, or ``None``."""
    paths = list(dict.fromkeys(need.path for need in wanted))
    check = 'for p do [ -r "$p" ] || { printf "%s\\n" "$p"; exit 3; }; done'
    steps = [("/bin/sh", "-c", check, "sh", *paths)]
    start = _start(program)
    if start is not None:
        steps.append(start)
    with tempfile.TemporaryDirectory(prefix="casino-dry-run-") as scratch:
        folder = Path(scratch)
        folder.chmod(0o755)
        for argv in steps:
            target = Target(None, argv, folder)
            outcome = PipeRunner().run(Job(target, Run(()), folder, None, PROBE_TIMEOUT, sandbox))
            if outcome.problem is None and outcome.exit == 0:
                continue
            said = _first_line(outcome.stderr) or outcome.problem or f"exit {outcome.exit}"
            if argv is steps[0] and outcome.exit == 3 and outcome.output.strip():
                return unreachable(option, outcome.output.strip(), "not readable")
            return unreachable(option, program, f"{shlex.join(argv)}: {said}")
    return None


def _start(program: str) -> tuple[str, ...] | None:
    """The command that shows an interpreter starts (Python, Java), ``None`` for others."""
    name = os.path.basename(os.path.realpath(program))
    if re.fullmatch(r"python[\d.]*", name) or re.fullmatch(r"python[\d.]*", Path(program).name):
        return (program, "-c", "pass")
    if name in ("java", "javac"):
        return (program, "-version")
    return None


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0][:200] if lines else ""
