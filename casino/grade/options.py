"""The options of ``casino grade`` (its ``--help``) and the option types ``casino grade`` and
``casino grade export`` share.
"""

from __future__ import annotations

import os
from typing import TextIO

from casino.cmdline import ArgumentParser, UsageError, whole_number
from casino.errors import ParseError
from casino.numbers import parse_seconds

COUNT = whole_number(1)
"""A whole number from 1 (``--jobs``)."""
MOST_MIB = 1 << 20
"""The largest size a limit in MiB may have (1 TiB): more is a typo, and the kernel or
bubblewrap would refuse it only once every program had been run (``--size`` of a tmpfs)."""
MIBS = whole_number(1, MOST_MIB)
"""``--memory``, ``--address-space``, ``--file-size``, ``--disk``."""
CPU_SECONDS = whole_number(1, 86_400)
"""``--cpu``: at most a day."""
PROCESSES = whole_number(1, 1 << 22)
"""``--processes``: at most Linux's largest process number."""


EPILOG = """\
SUBMISSIONS is a folder of one folder per student, a zip of them, Moodle's, Canvas's or
Blackboard's bulk download (a folder or its zip: moodle.csv, canvas.csv or blackboard.csv is
then written for the platform's grade import), or a text file listing Git repositories (GitHub
Classroom), one a line.
Each student's folder is graded alike. For each, a fresh copy of the folder is made,
--build runs there once (through sh, so `javac -d build *.java` works), and --run is the
program every transcript is replayed against (written as typed in that folder, as for
`casino replay --program`), each transcript in a scratch directory holding only its files:
a run script finds its own files through "$(dirname "$0")", as in
`exec python3 "$(dirname "$0")/adder.py" "$@"` (a bare `python3 adder.py` looks in the
scratch directory and fails).
Every run is bounded: the transcript's timeout per step and in all, its output, and the
sandbox limits below (set in the program's process); its processes are killed when it ends.
Each program runs in a sandbox of its own (bubblewrap: it sees only its submission and run
folder, no network, no other process, no kernel keyring or mount); where the machine cannot,
casino refuses unless --trust-submissions is given. The summary says what was in effect.
A sandbox shows /usr: a --run or --build program elsewhere (a JDK in /opt, a virtualenv)
needs --sandbox-path DIR. Before anyone is graded, casino checks the staff's tools only:
every program --run and --build name is resolved (links, #! interpreters, a virtualenv's
base, a runtime's lib) and probed inside a sandbox; one it cannot show or start stops the
grading with one line naming it. What a student's program does is that student's grade.

Results, under --out: gradebook.csv, gradebook.json, feedback/STUDENT.txt (a transcript
marked `visibility: hidden` shows there as its name and points only; feedback-staff/ holds
everything), summary.html.

A --transcripts folder's casino.yaml may list the course's whole rubric (lines: transcripts,
check, git, safety and manual lines; docs/rubrics.md): casino then also writes rubric.csv,
marking/STUDENT.html (each manual line's evidence) and marking/sheet.csv for the marker;
`casino grade marks SHEET.csv` merges the filled sheet (the late rule applied last).

--due WHEN adds each student's days late, penalty and final score under a --late rule
(nimsys: 20% of the score per day, nothing after 4 days; videopoker: 2^(n-1) points of a
grade out of 20; percent:P[:LAST], points:P[:LAST], doubling:SCALE[:LAST]); --extensions
gives students their own due; --submitted the platform's times (else a Git commit's,
Blackboard's attempt times, Canvas's _LATE_ marker, or the files' own as the last resort);
--timezone ZONE reads the times that state no zone (a Moodle worksheet's, Blackboard's) in
ZONE, else in this machine's, with a warning.
--similarity compares every pair of submissions (copydetect; --template leaves the starter
code out, --archive adds earlier years): similarity.csv and similarity/ pages, linked from the
summary.

A re-run reuses every score whose submission, transcript and settings have not changed
(cache/ under --out); --force regrades everything.

casino grade export --gradescope DIR | --github-classroom DIR packages the same transcripts
for those graders (see casino grade export --help).
"""

MIB = 1 << 20


def grade_parser(out: TextIO) -> ArgumentParser:
    """``casino grade``'s options."""
    parser = ArgumentParser(
        out=out,
        prog="casino grade",
        description="Grade every submission of a course against the same transcripts.",
        epilog=EPILOG,
    )
    add = parser.add_argument
    add(
        "submissions",
        metavar="SUBMISSIONS",
        help="a folder of one folder per student, a zip of them, Moodle's, Canvas's or "
        "Blackboard's bulk download (folder or zip), or a file listing Git repositories",
    )
    add(
        "--assignment",
        default="casino",
        metavar="NAME",
        help="the assignment's column in canvas.csv and blackboard.csv (default: casino)",
    )
    add(
        "--transcripts",
        required=True,
        action="append",
        metavar="DIR",
        help="transcripts (a folder or a file; repeatable)",
    )
    add("--run", required=True, metavar="CMD", help="the program, e.g. 'java -cp build Nimsys'")
    add("--build", metavar="CMD", help="run once per submission, e.g. 'javac -d build *.java'")
    add("--out", default="grades", metavar="DIR", help="where results go (default: grades)")
    add("--jobs", type=COUNT, metavar="N", help="submissions at once (default: all cores)")
    add("--ray", metavar="ADDRESS", help="run on this Ray cluster ('local': start one here)")
    add("--force", action="store_true", help="regrade everything, reusing nothing")
    add("--runner", choices=("pipe", "pty"), default="pipe", help="how to run (default: pipe)")
    add("--explore", metavar="NAME", help="also explore each program against reference NAME")
    add("--explore-runs", type=COUNT, default=300, metavar="N", help="its runs (300)")
    add("--build-timeout", type=seconds, default=120.0, metavar="S", help="for the build (120)")
    add("--cpu", type=CPU_SECONDS, default=60, metavar="S", help="CPU seconds per run (60)")
    add("--memory", type=MIBS, default=1024, metavar="MB", help="data per run (1024)")
    add(
        "--address-space",
        type=MIBS,
        metavar="MB",
        help="address space per run (no limit)",
    )
    add(
        "--processes",
        type=PROCESSES,
        default=256,
        metavar="N",
        help="processes per run (256)",
    )
    add(
        "--file-size",
        type=MIBS,
        default=64,
        metavar="MB",
        help="largest file written (64)",
    )
    add("--disk", type=MIBS, default=256, metavar="MB", help="a run's folder in all (256)")
    add(
        "--sandbox-path",
        action="append",
        default=[],
        type=_folder,
        metavar="DIR",
        help="a folder of this machine the programs also see, read-only, its bin on their "
        "PATH: a JDK in /opt, a virtualenv, a pyenv (repeatable; they see /usr otherwise)",
    )
    _term_options(parser)
    add("--similarity", action="store_true", help="compare every pair of submissions")
    add("--template", metavar="DIR", help="starter code left out of --similarity")
    add("--archive", metavar="SUBMISSIONS", help="earlier years' ones, for --similarity")
    add("--network", action="store_true", help="let programs use the network")
    add(
        "--trust-submissions",
        action="store_true",
        help="run the programs without their own sandbox (only the limits above): for code "
        "you trust, or a machine that cannot sandbox",
    )
    return parser


def _folder(text: str) -> str:
    """A ``--sandbox-path``: an existing folder other than ``/``, made absolute."""
    path = os.path.abspath(text)
    if not os.path.isdir(path) or path == "/":
        raise UsageError(f"--sandbox-path: expected a folder other than /, got {text!r}")
    return path


def _term_options(parser: ArgumentParser) -> None:
    """``--due`` and what goes with it (:mod:`casino.grade.term`)."""
    add = parser.add_argument
    add("--due", metavar="WHEN", help="the due date, e.g. 2019-05-31T15:00+10:00")
    add("--late", metavar="RULE", help="nimsys, videopoker, percent:P[:LAST], points:P[:LAST], …")
    add("--extensions", metavar="CSV", help="rows of student,new due")
    add("--submitted", metavar="CSV", help="rows of student,time, or Moodle's worksheet")
    add(
        "--timezone",
        metavar="ZONE",
        help="the zone of times that state none, e.g. Europe/Lisbon (default: this machine's)",
    )


def seconds(text: str) -> float:
    """``--build-timeout``: read by :func:`~casino.numbers.parse_seconds`; the message is the
    one ``casino grade`` has always given (the suite locks it)."""
    try:
        return parse_seconds(text, 86400)
    except ParseError:
        raise UsageError(f"expected seconds above 0 (at most a day), got {text!r}") from None
