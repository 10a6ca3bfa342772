"""A course's whole rubric: lines of points, each checked its own way.

A ``--transcripts`` folder's ``casino.yaml`` may list the rubric's lines (docs/rubrics.md)::

    lines:
      - text: Were all inputs parsed correctly and yield the correct output?
        points: 10
        kind: transcripts             # the transcripts' score, scaled to the line's points
      - text: Does the program pass python3 compileall . with no warnings?
        points: 5
        kind: check
        run: python3 -m compileall -q .   # in the sandbox, in a built copy of the submission
        pass: quiet                   # exit 0 and nothing printed (or exit-0: exit 0 alone)
      - {text: ..., points: 4, kind: check, lint: pycodestyle, ignore: [E501]}
      - {text: ..., points: 1, kind: check, exists: [doc/design.pdf, UML]}
      - {text: ..., points: 1, kind: git, name: fivecarddraw, branch: main}
      - {text: ..., points: 3, kind: git, commits: 3, largest: 0.6}
      - {text: ..., points: 10, kind: safety, sessions: 4, inputs: 25}
      - {text: ..., points: 1.5, kind: manual, scale: [0, 0.4, 0.8, 1.2, 1.5], evidence: [code]}

An automatic line (every kind but ``manual``) earns all its points or none, but
``transcripts``, which earns its share of the transcripts' points. A ``manual`` line is the
marker's (:mod:`casino.grade.sheet`). A folder without ``lines`` is graded as before.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from casino.grade.course import Course, Student, copy_submission, submission_files
from casino.grade.gitlog import Commit, git_log, git_output, repository_name
from casino.grade.hostile import safety_inputs, safety_problem
from casino.grade.intake import Pick
from casino.grade.results import StudentResult
from casino.grade.work import build
from casino.harness.load import FOLDER_SETTINGS, read_capped
from casino.harness.model import In, Run, TranscriptError
from casino.harness.report import points_text
from casino.harness.runners.base import Job, Target
from casino.harness.runners.folders import remove_tree
from casino.harness.runners.pipe import PipeRunner
from casino.harness.yamltext import TextError, load_text

KINDS = ("transcripts", "check", "git", "safety", "manual")
EVIDENCE = ("code", "commits", "safety", "lint", "explore")
"""What a manual line's page may show (besides ``files: FOLDER-OR-GLOB``)."""
MAX_LINES = 100
_KEYS = {
    "transcripts": set(),
    "check": {"run", "pass", "lint", "ignore", "exists", "timeout"},
    "git": {"name", "branch", "due", "commits", "largest"},
    "safety": {"sessions", "inputs", "timeout"},
    "manual": {"scale", "evidence", "bonus"},
}


class LinesError(TranscriptError):
    """A rubric line that cannot be read (one line, naming the file)."""


@dataclass(frozen=True)
class Line:
    """One line of the rubric: its words (the seed's), points, kind and how it is checked."""

    id: str
    text: str
    kind: str
    points: float
    options: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)

    @property
    def automatic(self) -> bool:
        """Whether casino scores it (every kind but ``manual``)."""
        return self.kind != "manual"

    @property
    def bonus(self) -> bool:
        """Whether its points come on top of the rubric's maximum (a bonus)."""
        return bool(self.options.get("bonus", False))

    @property
    def scale(self) -> tuple[float, ...]:
        """A manual line's allowed scores (empty: any number from 0 to its points)."""
        return tuple(float(value) for value in self.options.get("scale", ()))

    def data(self) -> dict[str, Any]:
        """The line as stored in ``rubric.json``."""
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind,
            "points": self.points,
            **self.options,
        }


@dataclass
class Verdict:
    """What one automatic line earned, and why (the evidence a marker reads)."""

    points: float
    why: str


def read_lines(folders: Sequence[str]) -> tuple[Line, ...]:
    """The lines of every ``--transcripts`` folder's own ``casino.yaml``, in order."""
    found: list[Line] = []
    for raw in folders:
        settings = Path(raw) / FOLDER_SETTINGS
        if Path(raw).is_dir() and settings.is_file():
            found += parse_lines(settings)
    if any(line.options.get("lint") for line in found) and not lint_available():
        raise LinesError(
            "a rubric line's lint: pycodestyle needs pycodestyle: "
            "pip install -e '.[rubric]' in casino's folder"
        )
    ids = [line.id for line in found]
    if len(set(ids)) != len(ids):
        raise LinesError(f"two rubric lines share the id {_first_repeat(ids)!r}")
    return tuple(found)


def lint_available() -> bool:
    """Whether pycodestyle can be imported (the ``rubric`` extra)."""
    try:
        import pycodestyle  # noqa: F401
    except ImportError:
        return False
    return True


def _first_repeat(ids: list[str]) -> str:
    return next(i for n, i in enumerate(ids) if i in ids[:n])


def parse_lines(settings: Path) -> list[Line]:
    """The ``lines`` of one settings file (``[]`` when it has none)."""
    try:
        data = load_text(read_capped(settings, 1 << 20).decode("utf-8"))
    except (ValueError, TextError) as problem:
        raise LinesError(f"{settings}: {problem}") from None
    value = data.get("lines") if isinstance(data, dict) else None
    if value is None:
        return []
    if not isinstance(value, list) or not 0 < len(value) <= MAX_LINES:
        raise LinesError(f"{settings}: 'lines' must be a list of 1 to {MAX_LINES} lines")
    return [_line(item, settings, number) for number, item in enumerate(value, 1)]


def _line(item: Any, settings: Path, number: int) -> Line:
    def fail(problem: str) -> LinesError:
        return LinesError(f"{settings}: line {number} of 'lines': {problem}")

    if not isinstance(item, dict) or not {"text", "kind"} <= set(item):
        raise fail("each line is a mapping with 'text', 'kind' and 'points'")
    kind = item["kind"]
    if kind not in KINDS:
        raise fail(f"'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    extra = set(item) - {"text", "kind", "points", "id"} - _KEYS[kind]
    if extra:
        raise fail(f"a {kind} line has no {', '.join(sorted(extra))!r}")
    options = {key: item[key] for key in item if key in _KEYS[kind]}
    options = _options(kind, options, fail)
    points = _points(item, options, fail)
    ident = str(item.get("id") or _slug(str(item["text"])))
    return Line(ident, str(item["text"]), kind, points, options)


def _slug(text: str) -> str:
    """A line's id when it states none: its first words, lower case, joined by ``-``."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower())[:8]) or "line"


def _number(value: Any, what: str, fail: Callable[[str], LinesError]) -> float:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,6})?", value):
        raise fail(f"{what} must be a number from 0 to 999999")
    return float(value)


def _points(
    item: dict[str, Any], options: dict[str, Any], fail: Callable[[str], LinesError]
) -> float:
    scale = options.get("scale")
    if "points" not in item:
        if not scale:
            raise fail("'points' is missing")
        return float(max(scale))
    points = _number(item["points"], "'points'", fail)
    if scale and max(scale) != points:
        raise fail("a manual line's scale must end at its points")
    return points


def _due(value: Any, fail: Callable[[str], LinesError]) -> str:
    """A ``due`` as ISO 8601 with its time zone (``2024-03-27T23:59:00-07:00``)."""
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        raise fail(f"'due' {value!r} is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise fail(f"'due' {value!r} needs its time zone (as -07:00 or Z)")
    return when.isoformat()


def _options(kind: str, given: dict[str, Any], fail: Callable[[str], LinesError]) -> dict[str, Any]:
    """The kind's own keys, checked and converted (numbers as numbers, lists as lists)."""
    options: dict[str, Any] = {}
    for key, value in given.items():
        if key in ("ignore", "exists", "evidence"):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise fail(f"{key!r} must be a list of texts")
            options[key] = list(value)
        elif key == "scale":
            if not isinstance(value, list) or not value:
                raise fail("'scale' must be a list of numbers")
            options[key] = sorted(_number(v, "each of 'scale'", fail) for v in value)
        elif key == "bonus":
            if value not in ("true", "false"):
                raise fail("'bonus' must be true or false")
            options[key] = value == "true"
        elif key == "due":
            options[key] = _due(value, fail)
        elif key in ("timeout", "commits", "sessions", "inputs", "largest"):
            options[key] = _number(value, repr(key), fail)
        else:
            options[key] = str(value)
    if kind == "check" and sum(k in options for k in ("run", "lint", "exists")) != 1:
        raise fail("a check line states exactly one of 'run', 'lint' and 'exists'")
    if options.get("lint", "pycodestyle") != "pycodestyle":
        raise fail("'lint' knows pycodestyle only")
    if options.get("pass", "quiet") not in ("quiet", "exit-0"):
        raise fail("'pass' must be quiet or exit-0")
    if kind == "git" and not options:
        raise fail("a git line states at least one of name, branch, due, commits, largest")
    for item in options.get("evidence", ()):
        if item not in EVIDENCE and not item.startswith("files:"):
            raise fail(f"'evidence' is made of {', '.join(EVIDENCE)} and files:PATH, not {item!r}")
    return options


# --- judging one student's automatic lines ------------------------------------------------


@dataclass
class Judged:
    """One student's automatic lines (by id) and the figures the marker's page shows."""

    verdicts: dict[str, Verdict]
    commits: list[Commit]
    lint: list[str]
    ran: Known = field(default_factory=dict)


Known = dict[str, tuple[str, Verdict]]
"""Verdicts of lines that run the program (``run:`` checks, safety), by line id, with the key
they were judged under (:func:`run_key`): what a regrade reuses."""


def run_key(line: Line, submission: str) -> str:
    """What a run line's verdict depends on: the line as written and the submission's key
    (its files' digest and the course's settings: commands, runner, limits, casino's
    version; :func:`casino.grade.cli._known`)."""
    text = json.dumps([line.data(), submission], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def judge(
    lines: Sequence[Line],
    course: Course,
    student: Student,
    result: StudentResult,
    history: History | None = None,
    known: Known | None = None,
) -> Judged:
    """Every automatic line of ``lines`` for one student (checks and safety sessions run in
    a fresh, built copy of the submission, in the course's sandbox; ``history``: its Git
    history read at intake, else its folder's ``.git``; ``known``: verdicts of run lines
    reused when their key is unchanged, so a regrade after a transcript changed runs
    nothing again). :attr:`Judged.ran` holds the run lines' verdicts to keep."""
    known = known or {}
    ran: Known = {}
    history = history or read_history(student.folder)
    commits = history.commits
    lint = pycodestyle_report(student.folder)
    verdicts: dict[str, Verdict] = {}
    with tempfile.TemporaryDirectory(prefix="casino-lines-") as scratch:
        copy: Path | None = None
        built: str | None = None
        for line in lines:
            if line.kind == "transcripts":
                verdicts[line.id] = _transcripts(line, result)
            elif line.kind == "git":
                verdicts[line.id] = judge_git(line, history)
            elif line.kind == "check" and "run" not in line.options:
                verdicts[line.id] = _static_check(line, student.folder, lint)
            elif line.automatic:
                key = run_key(line, result.submission)
                kept = known.get(line.id)
                if kept is None or kept[0] != key or not result.submission:
                    if copy is None:
                        copy, built = _built_copy(course, student.folder, Path(scratch))
                    kept = (key, _ran(line, course, copy, built, Path(scratch)))
                ran[line.id] = kept
                verdicts[line.id] = kept[1]
    return Judged(verdicts, commits, lint, ran)


def _transcripts(line: Line, result: StudentResult) -> Verdict:
    share = result.points / result.max_points if result.max_points else 0.0
    shown = f"{points_text(result.points)}/{points_text(result.max_points)}"
    return Verdict(line.points * share, f"the transcripts: {shown}")


def _built_copy(course: Course, folder: Path, scratch: Path) -> tuple[Path, str | None]:
    copy = scratch / "submission"
    copy.mkdir()
    copy_submission(folder, copy)
    failure = None if course.build is None else build(course, copy)
    return copy, failure


def _ran(line: Line, course: Course, copy: Path, failure: str | None, scratch: Path) -> Verdict:
    if failure is not None:
        return Verdict(0.0, "not run: the build failed")
    if line.kind == "check":
        return run_check(line, course, copy)
    return run_safety(line, course, copy, scratch)


def _whole(line: Line, passed: bool, why: str) -> Verdict:
    return Verdict(line.points if passed else 0.0, ("passed: " if passed else "failed: ") + why)


# --- check ----------------------------------------------------------------------------------


def run_check(line: Line, course: Course, folder: Path) -> Verdict:
    """A ``run:`` check: the command through ``sh -c`` in the built copy, in the sandbox."""
    command = line.options["run"]
    timeout = float(line.options.get("timeout", 60))
    job = Job(
        Target(None, ("sh", "-c", command), folder), Run(()), folder, None, timeout, course.sandbox
    )
    outcome = PipeRunner().run(job)
    printed = (outcome.output + outcome.stderr).strip()
    quiet = line.options.get("pass", "quiet") == "quiet"
    passed = outcome.problem is None and outcome.exit == 0 and not (quiet and printed)
    how = outcome.problem or f"exit status {outcome.exit}"
    said = f"; it printed:\n{_capped(printed)}" if printed else ", printing nothing"
    return _whole(line, passed, f"`{command}`: {how}{said}")


def _capped(text: str, lines: int = 20) -> str:
    shown = text.splitlines()
    more = f"\n… {len(shown) - lines} more lines" if len(shown) > lines else ""
    return "\n".join(shown[:lines]) + more


def _static_check(line: Line, folder: Path, lint: list[str]) -> Verdict:
    if "exists" in line.options:
        missing = [path for path in line.options["exists"] if not _found(folder, path)]
        if missing:
            return _whole(line, False, "missing: " + ", ".join(missing))
        return _whole(line, True, "found: " + ", ".join(line.options["exists"]))
    ignored = tuple(line.options.get("ignore", ()))
    problems = [p for p in lint if not any(f": {code}" in p for code in ignored)]
    if not problems:
        return _whole(line, True, "pycodestyle reports nothing")
    return _whole(
        line, False, f"pycodestyle reports {len(problems)}:\n{_capped(chr(10).join(problems))}"
    )


def _found(folder: Path, path: str) -> bool:
    """Whether ``path`` (a file, a folder or a glob) is in the submission."""
    if any(ch in path for ch in "*?["):
        return any(folder.glob(path))
    return (folder / path).exists()


def python_files(folder: Path) -> list[Path]:
    """The submission's Python files (:func:`source_files`)."""
    return source_files(folder, ".py")


def source_files(folder: Path, suffix: str) -> list[Path]:
    """The submission's regular files ending in ``suffix``, by path: hidden folders left out,
    links never followed (a link to a grader's file is not read into a marker's page)."""
    found = submission_files(folder)
    return [path for name, path in found if name.endswith(suffix) and not _hidden(Path(name))]


def _hidden(path: Path) -> bool:
    return any(part.startswith(".") for part in path.parts)


def pycodestyle_report(folder: Path) -> list[str]:
    """pycodestyle's lines (``path:line:col: CODE text``) for the submission's Python files:
    it reads them as text and never runs them, so it runs in the grader."""
    files = python_files(folder)
    if not files:
        return []
    import pycodestyle

    lines: list[str] = []
    for path in files:
        report = _Collect(path.relative_to(folder).as_posix(), lines)
        checker = pycodestyle.Checker(str(path), report=report)
        checker.check_all()
    return lines


class _Collect:
    """A pycodestyle report that keeps the lines instead of printing them."""

    def __init__(self, name: str, into: list[str]) -> None:
        import pycodestyle

        self._base = pycodestyle.StandardReport(pycodestyle.StyleGuide(quiet=True).options)
        self.name = name
        self.into = into

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def error(self, line: int, column: int, text: str, check: Any) -> str | None:
        """Keep one problem."""
        self.into.append(f"{self.name}:{line}:{column + 1}: {text}")
        return text[:4]


# --- safety ---------------------------------------------------------------------------------


def run_safety(line: Line, course: Course, folder: Path, scratch: Path) -> Verdict:
    """``sessions`` runs of the course's program, each typed ``inputs`` hostile lines then the
    end of input: passed when none crashed, hung or flooded (a refusal, any exit with nothing
    on stderr, is fine)."""
    sessions = int(line.options.get("sessions", 4))
    count = int(line.options.get("inputs", 25))
    timeout = float(line.options.get("timeout", 10))
    for session in range(1, sessions + 1):
        typed = safety_inputs(session, count)
        place = Path(tempfile.mkdtemp(prefix="safety-", dir=scratch))
        run = Run(tuple(In(text) for text in typed))
        outcome = PipeRunner().run(
            Job(Target(None, course.run, folder), run, place, session, timeout, course.sandbox)
        )
        remove_tree(place)
        problem = safety_problem(outcome)
        if problem is not None:
            shown = ", ".join(repr(text[:40]) for text in typed[:8])
            return _whole(
                line, False, f"session {session} of {sessions} {problem} (typed {shown}, …)"
            )
    return _whole(
        line, True, f"{sessions} sessions of {count} hostile lines: no crash, hang or flood"
    )


# --- git ------------------------------------------------------------------------------------


def judge_git(line: Line, history: History) -> Verdict:
    """A ``git`` line: every rule it states must hold."""
    if not history.commits:
        return _whole(line, False, "no Git history (.git) in the submission")
    said = [_git_rule(key, value, history) for key, value in line.options.items()]
    failed = [why for ok, why in said if not ok]
    return _whole(line, not failed, "; ".join(failed or [why for _, why in said]))


def _git_rule(key: str, value: Any, history: History) -> tuple[bool, str]:
    commits = history.commits
    if key == "name":
        return history.name == value, f"repository named {history.name!r} (wanted {value!r})"
    if key == "branch":
        return history.branch == value, f"default branch {history.branch!r} (wanted {value!r})"
    if key == "due":
        due = datetime.fromisoformat(value)
        last = commits[0].when
        return last <= due, f"last commit {last.isoformat()} (due {due.isoformat()})"
    if key == "commits":
        return len(commits) >= value, f"{len(commits)} commits (at least {int(value)} wanted)"
    total = sum(c.changed for c in commits) or 1
    big = max(commits, key=lambda c: c.changed)
    share = big.changed / total
    return (
        share <= value,
        f"largest commit {big.hash} holds {share:.0%} of the changed lines (at most {value:.0%})",
    )


@dataclass(frozen=True)
class History:
    """What the ``git`` lines judge: the commits (newest first), the repository's name and
    its checked-out (default) branch."""

    commits: list[Commit]
    name: str
    branch: str


def read_history(folder: Path) -> History:
    """The history of the repository in ``folder`` (no commits without a ``.git``)."""
    commits = git_log(folder)
    branch = (
        (git_output(folder, "symbolic-ref", "--short", "HEAD") or "").strip() if commits else ""
    )
    return History(commits, repository_name(folder) if commits else folder.name, branch)


class HistoryRecorder:
    """The Git intake's hook (:data:`casino.grade.intake.Pick`): each clone's history, read
    before its ``.git`` is removed, then ``then`` (the commit picker of ``--due``), if any."""

    def __init__(self, then: Pick | None) -> None:
        self.then = then
        self.histories: dict[str, History] = {}

    def __call__(self, student: str, folder: Path) -> None:
        """Read one clone's history (before ``then`` checks out another commit)."""
        self.histories[student] = read_history(folder)
        if self.then is not None:
            self.then(student, folder)
