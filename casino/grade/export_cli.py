"""``casino grade export --gradescope DIR | --github-classroom DIR``: the course's transcripts
packaged for another grader (:mod:`casino.grade.export`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from casino.cmdline import ArgumentParser, UsageError
from casino.grade.course import CourseError, course_materials
from casino.grade.options import seconds
from casino.harness.report import plural
from casino.shell import Streams

EXPORT_EPILOG = """\
--gradescope DIR writes DIR/autograder.zip: upload it as the assignment's autograder
(setup.sh installs Python 3.11 and casino's dependencies; run_autograder builds the
submission, replays the transcripts against it and writes results.json, one test per
transcript, the --hidden ones shown once grades are published).
--github-classroom DIR writes .github/workflows/classroom.yml, .github/classroom/
autograding.json and .casino/ (casino and the transcripts) into DIR, the assignment's
template repository. A folder named 'export' is graded as ./export.
"""


def export_parser(out: TextIO) -> ArgumentParser:
    """``casino grade export``'s options."""
    parser = ArgumentParser(
        out=out,
        prog="casino grade export",
        description="Package the course's transcripts for Gradescope or GitHub Classroom.",
        epilog=EXPORT_EPILOG,
    )
    add = parser.add_argument
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--gradescope", metavar="DIR", help="write DIR/autograder.zip")
    where.add_argument("--github-classroom", metavar="DIR", help="write the workflow into DIR")
    add("--transcripts", required=True, action="append", metavar="DIR", help="(repeatable)")
    add("--hidden", action="append", default=[], metavar="DIR", help="transcripts shown late")
    add("--run", required=True, metavar="CMD", help="the program, e.g. 'java -cp build Nimsys'")
    add("--build", metavar="CMD", help="run once per submission, e.g. 'javac -d build *.java'")
    add("--runner", choices=("pipe", "pty"), default="pipe", help="how to run (default: pipe)")
    add("--build-timeout", type=seconds, default=120.0, metavar="S", help="for the build (120)")
    return parser


def export(argv: list[str], streams: Streams) -> int:
    """``casino grade export``."""
    from casino.grade.export import Settings, write_github_classroom, write_gradescope

    args = export_parser(streams.stdout).parse_args(argv)
    try:
        visible, _ = course_materials(args.transcripts)
        hidden = course_materials(args.hidden)[0] if args.hidden else ()
    except CourseError as error:
        streams.error(f"casino grade export: {error}")
        return 1
    settings = Settings(args.run, args.build, args.runner, args.build_timeout)
    if args.gradescope is not None:
        if {m.path for m in visible} & {m.path for m in hidden}:
            raise UsageError("a transcript path is both visible and --hidden")
        names = {m.path for m in hidden}
        target = write_gradescope(Path(args.gradescope), (*visible, *hidden), settings, names)
        streams.stdout.write(
            f"wrote {target} ({plural(len(visible) + len(hidden), 'transcript')})\n"
        )
    else:
        folder = Path(args.github_classroom)
        everything = (*visible, *hidden)
        shipped = tuple(m for m in everything if m.transcript.shown == "visible")
        if len(shipped) < len(everything):
            streams.error(
                f"casino grade export: left out "
                f"{plural(len(everything) - len(shipped), 'transcript')} marked visibility: "
                "hidden or after-due (GitHub Classroom runs the tests in the student's own "
                "repository, where the student can read them)"
            )
        write_github_classroom(folder, shipped, settings)
        streams.stdout.write(f"wrote {folder / '.github'} and {folder / '.casino'}\n")
    return 0
