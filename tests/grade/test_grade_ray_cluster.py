"""``casino grade --ray ADDRESS`` on a real cluster of two nodes (``ray start --head`` and a
second ``ray start --address``, both on 127.0.0.1): the same gradebook as ``--jobs 1``, byte
for byte, also when the grader's own node has no CPU for the tasks and when a node dies in the
middle of the course.

Needs Ray (``casino[ray]``; ``tox -e ray``); skipped where it is not installed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from grade.grade_support import BUILD, ROOT, RUN, write_course

pytest.importorskip("ray")

from grade.ray_cluster import ENV, two_nodes

COURSE = {"correct": 2, "wrong_space": 1, "crash": 1, "flood": 1, "compile_fail": 1}
FILES = ["gradebook.csv", "gradebook.json", "summary.html"]


def grade_command(root: Path, out: str, *engine: str) -> list[str]:
    """``casino grade`` on the course in ``root`` with ``engine``'s options."""
    argv = [sys.executable, "-m", "casino", "grade", str(root / "submissions")]
    argv += ["--transcripts", str(root / "transcripts"), "--run", RUN, "--build", BUILD]
    return [*argv, "--out", str(root / out), "--memory", "512", *engine]


def env() -> dict[str, str]:
    """The grader's environment: casino importable, Ray quiet about usage statistics."""
    return dict(ENV, PYTHONPATH=str(ROOT))


def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` to its end (a few minutes at most)."""
    return subprocess.run(argv, capture_output=True, text=True, env=env(), timeout=600)


def same_results(root: Path, one: str, other: str, students: list[str]) -> None:
    """The two gradings wrote the same files, byte for byte."""
    for name in [*FILES, *(f"feedback/{student}.txt" for student in students)]:
        assert (root / one / name).read_bytes() == (root / other / name).read_bytes(), name


def test_a_two_node_cluster_grades_as_one_process(tmp_path: Path) -> None:
    """Every task runs on the second node (the head, where the grader runs, has no CPU), and
    that node cannot see the course's folder (a mount namespace of its own hides it): the
    submissions and transcripts travel with the tasks, and the results come back."""
    expected = write_course(tmp_path, COURSE)
    assert run(grade_command(tmp_path, "one", "--jobs", "1")).returncode == 0
    with two_nodes(head_cpus=0, second_cpus=2, hide=tmp_path) as cluster:
        graded = run(grade_command(tmp_path, "ray", "--ray", cluster.address))
    assert graded.returncode == 0, graded.stderr
    same_results(tmp_path, "one", "ray", list(expected))
    book = (tmp_path / "ray" / "gradebook.csv").read_text()
    assert "flood-00,3,4,1,0,2\n" in book and "compile_fail-00,0,4,0,0,0\n" in book


def test_a_node_that_dies_mid_course_costs_no_submission(tmp_path: Path) -> None:
    expected = write_course(tmp_path, {"correct": 8, "wrong_space": 4, "crash": 4})
    assert run(grade_command(tmp_path, "one", "--jobs", "1")).returncode == 0
    with two_nodes(head_cpus=1, second_cpus=1) as cluster:
        grader = subprocess.Popen(
            grade_command(tmp_path, "ray", "--ray", cluster.address),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env(),
        )
        deadline = time.monotonic() + 300
        while not cluster.busy(second=True):  # a student's program runs on the second node
            assert grader.poll() is None, grader.communicate()
            assert time.monotonic() < deadline, "the second node never got a task"
            time.sleep(0.02)
        cluster.kill_second()
        _, err = grader.communicate(timeout=600)
    assert grader.returncode == 0, err
    assert "sending it again (try 2 of 3)" in err
    same_results(tmp_path, "one", "ray", list(expected))  # feedback too: no Ray log in it


def test_ray_local_starts_its_own_cluster_beside_a_running_one(tmp_path: Path) -> None:
    """``--ray local`` with another cluster running on the machine, and named where Ray looks
    for one to join (``$RAY_ADDRESS``): the grader starts a cluster of its own with ``--jobs``
    CPUs (joining that one, with a CPU count, ended in an internal error), grades as
    ``--jobs 1`` does, and leaves the other cluster running."""
    expected = write_course(tmp_path, COURSE)
    assert run(grade_command(tmp_path, "one", "--jobs", "1")).returncode == 0
    with two_nodes(head_cpus=1, second_cpus=1) as cluster:
        head = cluster.raylet(second=False)
        argv = grade_command(tmp_path, "ray", "--ray", "local", "--jobs", "2")
        graded = subprocess.run(
            argv, capture_output=True, text=True, timeout=600,
            env=dict(env(), RAY_ADDRESS=cluster.address),
        )  # fmt: skip
        assert cluster.raylet(second=False) == head  # the other cluster still runs
    assert graded.returncode == 0, graded.stderr
    assert "a bug in casino" not in graded.stderr
    same_results(tmp_path, "one", "ray", list(expected))
