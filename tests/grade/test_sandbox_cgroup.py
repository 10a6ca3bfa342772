"""The memory cgroup of each isolated run: memory files and ``/dev/shm`` count against
``--memory``; a normal program is unaffected; nothing is left in ``/sys/fs/cgroup``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from casino.harness.runners import cgroup
from casino.harness.runners.sandbox import Sandbox, isolation_works
from grade.grade_support import PYTHON_RUN, ROOT, python_program, write_course

HIERARCHY = cgroup.hierarchy()
needs_cgroup = pytest.mark.skipif(HIERARCHY is None, reason="no writable memory cgroup here")
needs_sandbox = pytest.mark.skipif(not isolation_works(), reason="no bubblewrap sandbox here")

MEMORY_MIB = 48
HOGS = {
    "memfd": "fd = os.memfd_create('hog')",
    "shm": "fd = os.open('/dev/shm/hog', os.O_CREAT | os.O_WRONLY, 0o600)",
}
"""Each fills a file in memory with twice ``--memory``, never mapping it (no rlimit sees it)."""


def hog(opening: str) -> str:
    """The correct program, but its ``args`` answer first writes 2× ``--memory`` to a file."""
    fill = f"{opening}; [os.write(fd, bytes(1 << 20)) for _ in range({2 * MEMORY_MIB})]"
    return "import os\n" + python_program(args=f"{fill}; print(len(args), 'args')")


def ours() -> set[str]:
    """The cgroups casino has in its hierarchy now, made by processes that have ended (other
    tests' graders may be running at the same time)."""
    assert HIERARCHY is not None
    names = [name for name in os.listdir(HIERARCHY.parent) if name.startswith(cgroup.PREFIX)]
    return {name for name in names if not os.path.exists(f"/proc/{name.split('-')[1]}")}


@needs_sandbox
@needs_cgroup
def test_memory_files_count_and_a_normal_program_is_unaffected(tmp_path: Path) -> None:
    before = ours()
    write_course(tmp_path, {"correct": 1})
    for name, opening in HOGS.items():
        folder = tmp_path / "submissions" / name
        folder.mkdir()
        (folder / "main.py").write_text(hog(opening), encoding="utf-8")
        (folder / "run.sh").write_text(PYTHON_RUN, encoding="utf-8")
    argv = [sys.executable, "-m", "casino", "grade", str(tmp_path / "submissions")]
    argv += ["--transcripts", str(tmp_path / "transcripts"), "--run", "sh run.sh"]
    argv += ["--out", str(tmp_path / "grades"), "--jobs", "1", "--memory", str(MEMORY_MIB)]
    argv += ["--file-size", str(4 * MEMORY_MIB)]  # /dev/shm is not what stops it
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=240, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert HIERARCHY is not None
    assert HIERARCHY.describe() in done.stdout.splitlines()[1]
    book = json.loads((tmp_path / "grades" / "gradebook.json").read_text())
    students = {row["student"]: row for row in book["students"]}
    assert students["correct-00"]["score"] == students["correct-00"]["max"] == 4
    stopped = cgroup.over_memory(MEMORY_MIB << 20)
    for name in HOGS:
        assert students[name]["score"] == 3
        assert students[name]["status"]["args.yaml"] == "fail"
        feedback = (tmp_path / "grades" / "feedback" / f"{name}.txt").read_text()
        assert f"FAIL [0/1] counts (args.yaml)\n  crashed ({stopped})" in feedback
    assert ours() <= before  # the grader and its workers have ended: none of theirs is left


@needs_sandbox
@needs_cgroup
def test_the_summary_says_which_cgroup() -> None:
    from casino.grade.cli import describe

    line = describe(Sandbox(isolate=True, memory=64 << 20, processes=8))
    version = HIERARCHY.version if HIERARCHY is not None else 0
    assert f"; memory cgroup per run (cgroup v{version}: memory files, tmpfs, " in line


@needs_cgroup
def test_a_run_s_cgroup_is_removed_with_whatever_still_runs_in_it() -> None:
    group = cgroup.MemoryCgroup.for_run(64 << 20)
    assert group is not None
    sleeper = subprocess.Popen(group.joined(["sleep", "60"]))
    try:
        for _ in range(500):  # the shell joins first, then becomes sleep
            if str(sleeper.pid) in group.procs.read_text().split():
                break
            subprocess.run(["true"], check=False)
        assert group.procs.read_text().split() == [str(sleeper.pid)]
        group.remove()
        assert sleeper.wait(timeout=30) == -9
        assert not group.path.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


@needs_cgroup
def test_a_run_s_cgroup_has_the_limit_and_no_swap_beyond_it() -> None:
    group = cgroup.MemoryCgroup.for_run(96 << 20)
    assert group is not None
    with group:
        if group.hierarchy.version == 2:
            names = {"memory.max": 96 << 20, "memory.swap.max": 0}
        else:
            names = {"memory.limit_in_bytes": 96 << 20, "memory.memsw.limit_in_bytes": 96 << 20}
        for name, value in names.items():
            if (group.path / name).exists():
                assert int((group.path / name).read_text()) == value
        assert group.oom_kills() == 0
        assert group.problem() is None
    assert not group.path.exists()


@needs_cgroup
def test_a_run_that_cannot_join_its_cgroup_does_not_run() -> None:
    group = cgroup.MemoryCgroup.for_run(64 << 20)
    assert group is not None
    group.remove()  # gone before the run starts
    done = subprocess.run(group.joined(["echo", "ran"]), capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (cgroup.JOIN_FAILED, "")
    assert done.stderr == "casino: could not join the run's memory cgroup\n"


@pytest.mark.parametrize("version", [1, 2])
def test_an_oom_kill_is_read_from_either_kind_s_file(tmp_path: Path, version: int) -> None:
    """(On files written here: the v2 path cannot be tried on a machine without it.)"""
    name, other = ("memory.events", "oom 3") if version == 2 else ("memory.oom_control", "")
    group = cgroup.MemoryCgroup(cgroup.Hierarchy(version, tmp_path), tmp_path, 64 << 20)
    assert group.problem() is None  # no file: no kill known
    (tmp_path / name).write_text(f"{other}\nunder_oom 0\noom_kill 0\n")
    assert group.problem() is None
    (tmp_path / name).write_text(f"{other}\nunder_oom 0\noom_kill 2\n")
    assert group.oom_kills() == 2
    assert group.problem() == cgroup.over_memory(64 << 20)
    assert group.problem() == (
        "stopped: it used more than its 64 MiB of memory (--memory; memory files, /tmp, "
        "/dev/shm and its run folder count)"
    )


def test_a_delegated_v2_cgroup_is_found_in_the_grader_s_or_beside_it(tmp_path: Path) -> None:
    mine = tmp_path / "user.slice" / "casino.service"
    mine.mkdir(parents=True)
    (mine / "cgroup.subtree_control").write_text("\n")
    (mine.parent / "cgroup.subtree_control").write_text("cpu memory pids\n")
    mounts = [(str(tmp_path), "cgroup2", "rw")]
    own = {"": "/user.slice/casino.service"}
    assert cgroup._v2(mounts, own) == cgroup.Hierarchy(2, mine.parent)
    (mine / "cgroup.subtree_control").write_text("memory\n")
    assert cgroup._v2(mounts, own) == cgroup.Hierarchy(2, mine)
    assert cgroup._v2(mounts, {}) is None  # not in a v2 hierarchy (v1 only)


def test_without_a_cgroup_the_summary_says_so_and_runs_get_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from casino.grade.cli import describe

    monkeypatch.setattr(cgroup, "hierarchy", lambda: None)
    line = describe(Sandbox(isolate=True, memory=64 << 20, processes=8))
    said = "no memory cgroup (memory not bounded: tmpfs, memory files, the sum of processes)"
    assert f"; {said}; " in line
    assert cgroup.MemoryCgroup.for_run(64 << 20) is None
