"""``casino grade SUBMISSIONS --transcripts DIR [--build CMD] --run CMD``: grade a course.

``casino.__main__`` hands ``casino grade …`` to :func:`main` here, which runs :func:`grade` as
:mod:`casino.harness.command` runs every harness command (so a stop signal or Ctrl-C unwinds
every run and is reported as for ``casino replay``). Exit status: 0 once the course is graded
(whatever the grades), 1 when a transcript cannot be read, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeAlias

from casino.cmdline import UsageError
from casino.files import write_atomic
from casino.grade.options import MIB, grade_parser
from casino.harness.command import run_command
from casino.shell import Streams

if TYPE_CHECKING:
    from casino.grade.cache import Cache
    from casino.grade.course import Course, Student
    from casino.grade.engines import Task
    from casino.grade.intake import Intake
    from casino.grade.late import Lateness
    from casino.grade.results import StudentResult
    from casino.grade.term import Term
    from casino.harness.runners.sandbox import Sandbox

# What grading does (the course, the intake, the sandbox, the engines, the gradebooks) is
# imported by the function that does it, once the command line has been read: `casino grade
# --help` and a usage error need none of it.


def _check_sandbox_paths(args: argparse.Namespace) -> None:
    """A ``--sandbox-path`` may not show the runs the course itself: a :class:`UsageError`
    for one that holds (or is, or lies in) the submissions, a transcript folder or ``--out``."""
    private = [Path(p).resolve() for p in (args.submissions, args.out, *args.transcripts)]
    for given in args.sandbox_path:
        shown = Path(given).resolve()
        for path in private:
            if shown == path or shown in path.parents or path in shown.parents:
                raise UsageError(
                    f"--sandbox-path {given} would show the programs {path}: "
                    "give only the folder of a runtime"
                )


def grade(argv: list[str], streams: Streams) -> int:
    """``casino grade`` (and ``casino grade export``)."""
    if argv[:1] == ["export"]:
        from casino.grade.export_cli import export

        return export(argv[1:], streams)
    if argv[:1] == ["marks"]:
        from casino.grade.marks_cli import marks

        return marks(argv[1:], streams)
    args = grade_parser(streams.stdout).parse_args(argv)
    from casino.grade.course import CourseError
    from casino.grade.dryrun import check_commands
    from casino.grade.engines import default_jobs
    from casino.grade.intake import IntakeError, open_submissions
    from casino.grade.late import LateError
    from casino.grade.lines import HistoryRecorder, LinesError, read_lines
    from casino.grade.sheet import earlier_runs, gather, write_marking
    from casino.grade.similarity import SimilarityError
    from casino.grade.submitted import CommitPicker
    from casino.grade.term import check_lists, lateness, read_term
    from casino.grade.work import not_graded
    from casino.harness.runners.sandbox import isolation_works

    submissions = Path(args.submissions)
    if not submissions.exists():
        raise UsageError(f"no such folder or file: {args.submissions}")
    jobs = args.jobs or default_jobs()
    if not args.trust_submissions and not isolation_works():
        streams.error(NO_SANDBOX)
        return 1
    try:
        course, skipped = _course(args)
        lines = read_lines(args.transcripts)
    except (CourseError, LinesError) as error:
        streams.error(f"casino grade: {error}")
        return 1
    try:
        term = read_term(args.due, args.late, args.extensions, args.submitted, args.timezone)
    except LateError as error:
        raise UsageError(str(error)) from None
    if term is not None and (warning := term.zone_warning()) is not None:
        streams.error(warning)
    _check_similarity(args)
    _check_sandbox_paths(args)
    if (hidden := check_commands(course)) is not None:
        streams.error(hidden)
        return 1
    out = Path(args.out)
    _prepare(out)
    picker = None if term is None else CommitPicker(term.due_of)
    try:
        with tempfile.TemporaryDirectory(prefix="casino-intake-") as scratch:
            recorder = HistoryRecorder(picker) if lines else None
            intake = open_submissions(submissions, Path(scratch), recorder or picker)
            if term is not None:
                check_lists(term, intake)
            own = {out.resolve(), *(Path(raw).resolve() for raw in args.transcripts)}
            students = [s for s in intake.students if s.folder.resolve() not in own]
            results = _grade(course, students, out, args, jobs, streams)
            graded = {result.student for result in results if result.note is None}
            similar = _similarity(out, [s for s in students if s.name in graded], args)
            histories = None if recorder is None else recorder.histories
            earlier = earlier_runs(out) if lines and not args.force else None
            marking = (
                gather(lines, course, students, results, histories, earlier) if lines else None
            )
        problems = [not_graded(course, name, why) for name, why in intake.problems.items()]
        results = sorted([*results, *problems], key=lambda result: result.student)
        late = None if term is None else lateness(term, submissions, intake, results, picker)
        _write(out, course, results, describe(course.sandbox), skipped, (term, late), similar)
        written = _write_lms(out, intake, results, args.assignment, late)
        if marking is not None:
            rule = None if term is None else term.rule.text
            platform = (intake.layout, args.assignment)
            write_marking(out, marking, late, rule, intake.identities, platform)
    except (LateError, SimilarityError, IntakeError) as error:
        streams.error(f"casino grade: {error}")
        return 1
    except OSError as error:  # a full disk, most likely: one line, not a traceback
        streams.error(f"casino grade: cannot write the results to {out}: {error.strerror or error}")
        return 1
    streams.stdout.write(_summary(results, out, describe(course.sandbox), written))
    if marking is not None:
        streams.stdout.write(f"rubric: {out / 'rubric.csv'}; to mark: {out / 'marking'}/\n")
    if similar:
        streams.stdout.write(f"similarity: {out / 'similarity' / 'index.html'}\n")
    streams.stdout.write(counts_line(results, len(course.materials), len(skipped)) + "\n")
    return 0


def _check_similarity(args: argparse.Namespace) -> None:
    """Refuse, before anything is graded, what ``--similarity`` could not do."""
    given = [name for name in ("template", "archive") if getattr(args, name) is not None]
    if not args.similarity:
        if given:
            raise UsageError(f"--{given[0]} goes with --similarity")
        return
    if args.template is not None and not Path(args.template).is_dir():
        raise UsageError(f"--template: no such folder: {args.template}")
    if args.archive is not None and not Path(args.archive).exists():
        raise UsageError(f"--archive: no such folder or file: {args.archive}")
    from casino.grade.similarity import available

    if not available():
        raise UsageError(
            "--similarity needs copydetect: pip install -e '.[similarity]' in casino's folder"
        )


def _similarity(out: Path, students: list[Student], args: argparse.Namespace) -> str:
    """With ``--similarity``: compare every pair, write the ranked list and the side-by-side
    pages (:mod:`casino.grade.similarity`); the summary's section about them, or ""."""
    if not args.similarity:
        return ""
    from casino.grade.intake import open_submissions
    from casino.grade.similarity import summary_section, write_similarity

    template = None if args.template is None else Path(args.template)
    folders = [(student.name, student.folder) for student in students]
    with tempfile.TemporaryDirectory(prefix="casino-archive-") as scratch:
        earlier = []
        if args.archive is not None:
            archived = open_submissions(Path(args.archive), Path(scratch))
            earlier = [(student.name, student.folder) for student in archived.students]
        return summary_section(write_similarity(out, folders, template, earlier))


def _write_lms(
    out: Path,
    intake: Intake,
    results: list[StudentResult],
    assignment: str,
    late: dict[str, Lateness] | None = None,
) -> str:
    """The grade import of the platform the submissions came from (the final scores after a
    late penalty); its file name, or ""."""
    from casino.grade.lms import import_csv
    from casino.grade.term import finals

    platform = intake.platform
    if platform is None:
        return ""
    final = None if late is None else finals(late)
    text = import_csv(platform, results, intake.identities, assignment, final)
    write_atomic(out / platform.export_name, text)
    return platform.export_name


NO_SANDBOX = (
    "casino grade: this machine cannot run the programs in a sandbox (bubblewrap, `bwrap`, "
    "with user namespaces); give --trust-submissions to run them without one"
)


def _course(args: argparse.Namespace) -> tuple[Course, tuple[str, ...]]:
    """The course, and the casino-only transcripts left out of it."""
    from casino.explore.feedback import ExploreSpec
    from casino.explore.grammars import GRAMMARS
    from casino.grade.course import Course, course_materials
    from casino.harness.runners.netns import network_isolation_works
    from casino.harness.runners.sandbox import Sandbox

    try:
        run = tuple(shlex.split(args.run))
    except ValueError as error:
        raise UsageError(f"--run: {error}") from None
    if not run:
        raise UsageError("--run needs a command")
    if args.ray is not None:
        _check_ray()
    isolate = not args.trust_submissions
    sandbox = Sandbox(
        cpu_seconds=args.cpu,
        memory=args.memory * MIB,
        address_space=None if args.address_space is None else args.address_space * MIB,
        processes=args.processes,
        file_size=args.file_size * MIB,
        isolate_network=not args.network and (isolate or network_isolation_works()),
        isolate=isolate,
        disk=args.disk * MIB,
        paths=tuple(dict.fromkeys(args.sandbox_path)),
    )
    materials, skipped = course_materials(args.transcripts)
    explore = None
    if args.explore is not None:
        if args.explore not in GRAMMARS:
            raise UsageError(f"--explore: no grammar {args.explore!r} ({', '.join(GRAMMARS)})")
        explore = ExploreSpec(args.explore, args.explore_runs)
    course = Course(materials, run, args.build, args.runner, sandbox, args.build_timeout, explore)
    return course, skipped


def _check_ray() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        raise UsageError("--ray needs Ray: pip install -e '.[ray]' in casino's folder") from None


STAFF = "feedback-staff"
"""The staff copies of the feedback: every transcript in full, hidden ones too."""


def _prepare(out: Path) -> None:
    try:
        (out / "cache").mkdir(parents=True, exist_ok=True)
        (out / "feedback").mkdir(exist_ok=True)
        (out / STAFF).mkdir(exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot write to {out}: {error.strerror or error}") from None


def describe(sandbox: Sandbox | None) -> str:
    """The isolation in effect, in one line (the summary's and the report's)."""
    from casino.harness.runners import cgroup, seccomp
    from casino.harness.runners.sandbox import processes_enforced

    if sandbox is None:
        return "none"
    if sandbox.isolate:
        sealed = ", seccomp filter" if seccomp.filter_bytes() is not None else ", no seccomp filter"
        parts = [f"bubblewrap (own file system, processes, uid, user namespace{sealed})"]
        parts += [f"also {path} read-only" for path in sandbox.paths]
    else:
        parts = ["none of its own (--trust-submissions)"]
    parts += [f"CPU {sandbox.cpu_seconds} s", f"data {(sandbox.memory or 0) // MIB} MiB"]
    if sandbox.total_memory is not None:
        parts.append(f"address space {sandbox.total_memory // MIB} MiB")
    if sandbox.isolate:
        parts.append(f"{sandbox.processes} processes per run")
    else:
        enforced = "" if processes_enforced() else " (not enforced: the kernel exempts root)"
        parts.append(f"{sandbox.processes} more processes{enforced}")
    parts.append(f"files up to {(sandbox.file_size or 0) // MIB} MiB")
    if sandbox.isolate:
        parts.append(f"run folder up to {sandbox.disk_bytes // MIB} MiB")
        parts.append(cgroup.describe())
    parts.append("network cut off (unshare --net)" if sandbox.isolate_network else "network open")
    return "; ".join(parts)


def _grade(
    course: Course,
    students: list[Student],
    out: Path,
    args: argparse.Namespace,
    jobs: int,
    streams: Streams,
) -> list[StudentResult]:
    """Grade whatever the cache does not hold; every student's result, by name."""
    from casino.grade.cache import Cache
    from casino.grade.engines import grade_here, grade_in_pool, grade_on_ray
    from casino.grade.results import StudentResult

    results: dict[str, StudentResult] = {}
    tasks = []
    cache = Cache(out / "cache")
    for student in students:
        known = _known(course, student, cache, args.force)
        if isinstance(known, StudentResult):
            results[student.name] = known
        else:
            tasks.append(known)
    progress = Progress(len(students), streams.stderr)
    progress.show(len(results))

    def done(result: StudentResult) -> None:
        results[result.student] = result
        if result.note is None:  # a submission not graded is tried again next time
            with contextlib.suppress(OSError):  # not kept: graded again next time
                cache.store(result)
        progress.show(len(results))

    if tasks:
        if args.ray is not None:
            grade_on_ray(course, tasks, args.ray, jobs, done, streams.error)
        elif jobs > 1:
            grade_in_pool(course, tasks, jobs, done)
        else:
            grade_here(course, tasks, done)
    progress.end()
    return [results[name] for name in sorted(results)]


def _known(course: Course, student: Student, cache: Cache, force: bool) -> StudentResult | Task:
    """The student's result if nothing it depends on changed, else the task to grade it
    (with the scores it may reuse)."""
    from casino.grade.course import TooLargeSubmission, submission_digest
    from casino.grade.engines import Task
    from casino.grade.results import StudentResult
    from casino.grade.work import Cached, built_nothing, cache_key, not_graded

    try:
        key = f"{submission_digest(student.folder)}:{course.settings_digest}"
    except TooLargeSubmission as error:
        return not_graded(course, student.name, str(error))
    except Exception as error:  # unreadable, too deep: this submission's alone
        return not_graded(course, student.name, f"cannot read it: {error}")
    stored = None if force else cache.load(student.name)
    if stored is None or stored.submission != key:
        return Task(student, key, {})
    if stored.build_failed:
        return built_nothing(course, student.name, stored.build_output, key)
    cached: Cached = {cache_key(s.path, s.digest): s for s in stored.scores}
    if all(cache_key(m.path, m.digest) in cached for m in course.materials):
        scores = tuple(cached[cache_key(m.path, m.digest)] for m in course.materials)
        return StudentResult(student.name, scores, key)
    return Task(student, key, cached)


Late: TypeAlias = "tuple[Term | None, dict[str, Lateness] | None]"
"""The term (``--due``) and each student's lateness, or ``(None, None)``."""


def _write(
    out: Path,
    course: Course,
    results: list[StudentResult],
    sandbox: str,
    skipped: tuple[str, ...],
    term: Late = (None, None),
    similar: str = "",
) -> None:
    """Every student's feedback (and its staff copy), the gradebooks and the summary page
    (with the late work and the similar pairs, when asked for)."""
    from casino.grade.books import gradebook_csv, gradebook_json, summary_html
    from casino.grade.course import file_stem
    from casino.grade.results import feedback
    from casino.grade.term import late_html, notes
    from casino.grade.visibility import withheld

    rules, late = term
    now = datetime.now(UTC)
    for result in results:
        said = [] if late is None or rules is None else notes(late, rules.rule, result.student)
        due = None if rules is None else rules.due_of_student(result.student, late)
        hidden = withheld(course.materials, due, now)
        name = f"{file_stem(result.student)}.txt"
        known = None if late is None else late.get(result.student)
        write_atomic(out / "feedback" / name, feedback(result, said, hidden, known))
        write_atomic(out / STAFF / name, feedback(result, said, late=known))
    write_atomic(out / "gradebook.csv", gradebook_csv(course.materials, results, late))
    write_atomic(out / "gradebook.json", gradebook_json(course.materials, results, late))
    sections = [] if late is None or rules is None else [late_html(late, rules)]
    sections += [similar] if similar else []
    page = summary_html(course.materials, results, sandbox, skipped, sections, late)
    write_atomic(out / "summary.html", page)


def _summary(results: list[StudentResult], out: Path, sandbox: str, lms: str = "") -> str:
    from casino.harness.report import plural

    full = sum(r.points == r.max_points for r in results)
    builds = sum(r.build_failed for r in results)
    also = f", {lms} for the platform's grade import" if lms else ""
    return (
        f"graded {plural(len(results), 'submission')}: {full} with full marks, "
        f"{builds} build failure{'' if builds == 1 else 's'}\n"
        f"sandbox: {sandbox}\n"
        f"gradebook: {out / 'gradebook.csv'} (and gradebook.json{also})\n"
        f"feedback: {out / 'feedback'}/STUDENT.txt\n"
        f"summary: {out / 'summary.html'}\n"
    )


def counts_line(results: list[StudentResult], graded: int, skipped: int) -> str:
    """The last line on stdout: ``transcripts: 7 graded, 7 skipped as casino-only (reference:
    casino); 0 errors``, an error being a transcript that could not be run for a student (its
    program could not start, or the submission could not be graded at all)."""
    from casino.harness.report import plural

    errors = sum(score.kind == "error" for result in results for score in result.scores)
    return (
        f"transcripts: {graded} graded, {skipped} skipped as casino-only (reference: casino); "
        f"{plural(errors, 'error')}"
    )


class Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    WIDTH = 30

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        try:
            self.shown = stream.isatty()
        except (AttributeError, ValueError):  # no such method, or the stream is closed
            self.shown = False

    def show(self, done: int) -> None:
        """Draw the bar with ``done`` of the submissions graded."""
        if self.shown and self.total:
            filled = self.WIDTH * done // self.total
            bar = "#" * filled + "." * (self.WIDTH - filled)
            self.stream.write(f"\rgrading [{bar}] {done}/{self.total}")
            self.stream.flush()

    def end(self) -> None:
        """Leave the line."""
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino grade …`` (``argv`` starts with ``grade``), under the program-entry contract of
    :mod:`casino.cmdline`."""
    return run_command({"grade": grade}, argv, stdin=stdin, stdout=stdout, stderr=stderr)
