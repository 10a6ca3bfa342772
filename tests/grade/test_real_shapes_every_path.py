"""One grade on every path, proven on the shapes real programs have (issue 38, "Done when").

Two small courses of honest variants, each graded by ``casino grade`` through a pipe and a
terminal, by ``casino replay --score`` per student, by the exported Gradescope autograder (in
its layout, as root as Gradescope runs it) and by the exported GitHub Classroom workflow read
with the real reporter's rule (:func:`test_classroom_reporter.reporter`). Every student gets
the same points on every path, within 0.5 of what the assignment's rubric gives, and the
program that prints only its banner gets 0 everywhere.

The variants are the ones :mod:`test_harness_aligned_scores` (video poker, the banner-only
Nimsys) and :mod:`test_play` (the perfect AI with its turn prompt worded otherwise) build;
each student's folder holds a copy of casino and ``run.sh``, as a submission would.

To keep it affordable (each path replays every student once), each course is three of its
folder's graded transcripts, those that show every point: video poker's
``course-example-with-rebet`` (the echoes, ``b 10``), ``difficult-hands-1-40`` (the advice)
and ``paytable-bet-5`` (the pay lines, ``FOUR ACES``), 1 point each; Nimsys Project C's
``conformance-project-c-chained`` (3 points: a whole session, chained), ``seed-c-invalid-input``
(1) and ``ai-bonus-first-vs-perfect`` (0.5: the played bonus). The rest of each folder repeats
these shapes at ten times the time.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from harness.test_harness_aligned_scores import BANNER_ONLY, REWRITE, VARIANTS
from harness.test_play import _reworded

from grade.grade_support import ROOT, STEP_TIMEOUT, UNSANDBOXED
from grade.test_classroom_reporter import reporter, run_workflow
from grade.test_grade_export import autograder
from grade.test_one_course_every_way import casino

RUN = "sh run.sh"
POKER = ("course-example-with-rebet", "difficult-hands-1-40", "paytable-bet-5")
NIM = ("conformance-project-c-chained", "seed-c-invalid-input", "ai-bonus-first-vs-perfect")
FORMAT = 0.5 / 5.5
"""IST's rubric: "(-0.5 points): Prints outside the format requested", of 5.5; per transcript."""

POKER_RUBRIC = {
    "correct": 3,
    # -cmd b for b 1: the bets are right, the echo is format, in each of the three
    "echo-without-amount": 3 - 3 * FORMAT,
    # -cmd b 1 0 and Four A: format in the two that show them, a misnamed pay line, three bets
    "echo-splits-a-number": 3 - 2 * FORMAT - 0.1,
    # one advice of another length: the format of the transcript it shows in, one fact
    "one-advice-wrong": 3 - FORMAT,
    # every advice 0-based: format of the two that advise, and every advice's facts
    "advice-0-based": 3 - 2 * FORMAT - 0.3,
}
"""What IST's rubric gives each video poker student, of these three transcripts' 3 points."""

NIM_RUBRIC = {
    "correct": 4.5,
    # COMP90041: nothing the input decides is right, so nothing is earned
    "banner-only": 0,
    # the turn prompt is the student's (the seed fixes the board, not that sentence): these
    # transcripts judge the boards and the winner's line, and the bonus is played whatever it says
    "perfect-ai-reworded": 4.5,
    # answers its first 12 inputs of each run, then waits for ever: a marker credits what it
    # printed before it stopped (most of the invalid-input session, about half of each chained
    # run) and no bonus (it stops in the first games)
    "stops-answering": 2.3,
}
"""What the Nimsys Project C marking gives each student, of these transcripts' 4.5 points."""

HERE = 'exec python3 "$(dirname "$0")/{script}" "$@"\n'
"""``run.sh``: the program beside it (a run's folder is its own, not the submission's)."""
STOPS = '{ head -n 12; sleep 600; } | exec python3 "$(dirname "$0")/nimsys.py" "$@"\n'
"""Answers the first 12 input lines of a run, then reads nothing more and never ends."""


def _submission(folder: Path, script: str, run: str) -> None:
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "casino", folder / "casino")
    (folder / ("variant.py" if "variant" in run else "nimsys.py")).write_text(script)
    (folder / "run.sh").write_text(run)


NIMSYS = "import sys\n{patch}\nfrom casino.nim.cli import main\nsys.exit(main())\n"


def _course(root: Path, game: str, names: tuple[str, ...]) -> Path:
    """``root/transcripts/GAME`` holding ``names`` (fixtures where their paths expect them)."""
    folder = root / "transcripts" / game
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(ROOT / "transcripts" / game / f"{name}.yaml", folder)
    for settings in (folder, folder.parent):  # the course's rubric, where the folder has it
        shipped = ROOT / settings.relative_to(root) / "casino.yaml"
        if shipped.exists():
            shutil.copy(shipped, settings)
    shutil.copytree(ROOT / "fixtures", root / "fixtures")
    return folder


def poker(root: Path) -> Path:
    transcripts = _course(root, "videopoker/double-bonus", POKER)
    correct = "from casino.videopoker.cli import main\nimport sys\nsys.exit(main())\n"
    run = HERE.format(script="variant.py")
    _submission(root / "submissions" / "correct", correct, run)
    for name, rewrite in VARIANTS.items():
        if name in POKER_RUBRIC:
            _submission(root / "submissions" / name, REWRITE.replace("REWRITE", rewrite), run)
    return transcripts


def nimsys(root: Path) -> Path:
    transcripts = _course(root, "nimsys/project-c", NIM)
    # The step time-out of grade_support's courses (3 s), not the default 10 s:
    # ``stops-answering`` waits it out in each of its five runs on each of the five paths, and
    # its marks do not depend on how long that is (a correct step answers well within it).
    for name in NIM:  # a top-level key, after the rest: none of the three states its own
        with open(transcripts / f"{name}.yaml", "a", encoding="utf-8") as handle:
            handle.write(f"timeout: {STEP_TIMEOUT}\n")
    run = HERE.format(script="nimsys.py")
    _submission(root / "submissions" / "correct", NIMSYS.format(patch=""), run)
    reworded = NIMSYS.format(patch=_reworded("remove how many"))
    _submission(root / "submissions" / "perfect-ai-reworded", reworded, run)
    _submission(root / "submissions" / "stops-answering", NIMSYS.format(patch=""), STOPS)
    banner = root / "submissions" / "banner-only"
    banner.mkdir()
    (banner / "run.sh").write_text(BANNER_ONLY)
    return transcripts


Scores = dict[str, dict[str, float]]
"""Path → student → points."""
COURSES = {"poker": (poker, POKER_RUBRIC), "nimsys": (nimsys, NIM_RUBRIC)}


@pytest.fixture(scope="module", params=sorted(COURSES))
def graded(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Scores]:
    """One course graded on every path: each path's points for each student."""
    root = tmp_path_factory.mktemp(request.param)
    build, _ = COURSES[request.param]
    transcripts = build(root)
    submissions = root / "submissions"
    students = sorted(p.name for p in submissions.iterdir())
    scores: Scores = {}
    for runner in ("pipe", "pty"):
        out = root / f"grades-{runner}"
        done = casino(
            "grade", str(submissions), "--transcripts", str(transcripts), "--run", RUN,
            "--out", str(out), "--runner", runner, "--jobs", "2", *UNSANDBOXED,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        with open(out / "gradebook.csv", newline="") as handle:
            scores[f"grade {runner}"] = {
                r["student"]: float(r["score"]) for r in csv.DictReader(handle)
            }
    scores["replay"] = {}
    for student in students:
        report = root / f"{student}.json"
        casino(
            "replay", "--score", "--runner", "pipe", "--program", RUN, "--program-dir",
            str(submissions / student), "--report", "json", "--report-file", str(report),
            str(transcripts),
        )  # fmt: skip
        cases = json.loads(report.read_text())["transcripts"]
        scores["replay"][student] = sum(c.get("score", 0) for c in cases if c["status"] != "skip")
    for where in ("gradescope", "github-classroom"):
        done = casino(
            "grade", "export", f"--{where}", str(root / where), "--transcripts",
            str(transcripts), "--run", RUN,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    scores["gradescope"], scores["classroom"] = {}, {}
    for student in students:
        here = root / "runs" / student
        here.mkdir(parents=True)
        data = autograder(here, root / "gradescope" / "autograder.zip", submissions / student)
        scores["gradescope"][student] = data["score"]
        env = run_workflow(root / "github-classroom", submissions / student, here / "repository")
        runners = env.pop("INPUT_RUNNERS")
        scores["classroom"][student] = reporter(env, runners)[0]
    return request.param, scores


def test_every_path_gives_each_student_the_same_points(graded: tuple[str, Scores]) -> None:
    _, scores = graded
    rounded = {path: {s: round(v, 2) for s, v in got.items()} for path, got in scores.items()}
    assert len({json.dumps(got, sort_keys=True) for got in rounded.values()}) == 1, rounded


def test_each_student_scores_what_the_rubric_gives(graded: tuple[str, Scores]) -> None:
    course, scores = graded
    _, rubric = COURSES[course]
    for path, got in scores.items():
        assert set(got) == set(rubric)
        for student, points in got.items():
            assert points == pytest.approx(rubric[student], abs=0.5), (path, student, got)


def test_the_banner_only_program_scores_0_everywhere(graded: tuple[str, Scores]) -> None:
    course, scores = graded
    if course == "nimsys":
        assert {path: got["banner-only"] for path, got in scores.items()} == dict.fromkeys(
            scores, 0
        )
