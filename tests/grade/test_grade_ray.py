"""``--ray local`` grades a course exactly as ``--jobs 1`` and ``--jobs 2`` do.

Needs Ray (``casino[ray]``); tox runs it in its own environment (``tox -e ray``), since
starting Ray takes a while on a small machine. Skipped where Ray is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grade.grade_support import grade, write_course

pytest.importorskip("ray")

COURSE = {"correct": 2, "wrong_space": 1, "crash": 1, "flood": 1, "compile_fail": 1}
RESULTS = ["gradebook.csv", "gradebook.json", "summary.html"]


def test_ray_local_grades_as_the_local_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # Ray writes ~/.ray: not the user's
    expected = write_course(tmp_path, COURSE)
    for engine, out in ((["--jobs", "1"], "one"), (["--jobs", "2"], "two")):
        assert grade(tmp_path, *engine, out=out).status == 0
    graded = grade(tmp_path, "--ray", "local", "--jobs", "2", out="ray")
    assert graded.status == 0, graded.err
    for name in RESULTS:
        one = (tmp_path / "one" / name).read_bytes()
        assert (
            one == (tmp_path / "two" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()
        )
    for student in expected:
        feedback = Path("feedback", f"{student}.txt")
        assert (tmp_path / "one" / feedback).read_bytes() == (
            tmp_path / "ray" / feedback
        ).read_bytes()
    book = (tmp_path / "ray" / "gradebook.csv").read_text()
    assert "flood-00,3,4,1,0,2\n" in book and "compile_fail-00,0,4,0,0,0\n" in book


class FakeRay:
    """Ray's ``init`` as the engine calls it: what it was given, and a refusal to join."""

    def __init__(self) -> None:
        self.given: dict[str, object] = {}

    def init(self, **options: object) -> None:
        self.given = options
        if options["address"] != "local":
            raise ConnectionError("Could not find any running Ray instance.\nmore words")


def test_local_asks_ray_for_a_cluster_of_its_own_and_an_address_to_join() -> None:
    from casino.cmdline import UsageError
    from casino.grade.engines import _ray_start

    ray = FakeRay()
    _ray_start(ray, "local", 3)
    assert (ray.given["address"], ray.given["num_cpus"]) == ("local", 3)
    with pytest.raises(UsageError) as refused:
        _ray_start(ray, "127.0.0.1:6399", 3)
    assert (ray.given["address"], ray.given["num_cpus"]) == ("127.0.0.1:6399", None)
    assert str(refused.value) == (
        "--ray 127.0.0.1:6399: no Ray cluster to join there "
        "(Could not find any running Ray instance.)"
    )
