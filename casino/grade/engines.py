"""Where students are graded: in this process, a local process pool, or a Ray cluster.

Every engine runs the same function (:func:`casino.grade.work.grade_student`) on the same
:class:`Task` and hands back the same :class:`~casino.grade.results.StudentResult`, so a grade
never depends on the engine or on ``--jobs``. Results come back as they are done; the caller
orders them.

- :func:`grade_here`: one after another in this process (``--jobs 1``).
- :func:`grade_in_pool`: a pool of ``--jobs`` processes on this machine. A worker that dies
  (killed, out of memory) costs the students it held a retry each in a process of their own,
  and a student whose own process dies too gets a result saying so; the rest go on.
- :func:`grade_on_ray`: each student a Ray task carrying the course and the packed folder
  (``casino[ray]``; ``local`` starts a cluster of its own on this machine, whatever else runs
  there; any other address is joined).
"""

from __future__ import annotations

import logging
import os
import signal
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from casino.cmdline import UsageError
from casino.grade.course import Course, Student, TooLargeSubmission, pack
from casino.grade.results import StudentResult
from casino.grade.work import Cached, grade_student, not_graded
from casino.harness.runners.procs import Containment
from casino.pool import worker_pool
from casino.stopping import check_stop, worker_task

Done = Callable[[StudentResult], None]
"""Told each result as it comes."""

DIED = "the process grading it died (killed, or out of memory); grade it again"


@dataclass(frozen=True)
class Task:
    """One student to grade: the folder, its content hash, and scores it may reuse."""

    student: Student
    submission: str
    cached: Cached


def grade_task(course: Course, task: Task) -> StudentResult:
    """Grade one task here, from its folder."""
    student = task.student
    return grade_student(course, student.name, student.folder, task.submission, task.cached)


def grade_here(course: Course, tasks: list[Task], done: Done) -> None:
    """Grade every task in this process, one after another."""
    for task in tasks:
        result = grade_task(course, task)
        check_stop()
        done(result)


def _in_worker(course: Course, task: Task) -> StudentResult:
    with worker_task():
        return grade_task(course, task)


def grade_in_pool(course: Course, tasks: list[Task], jobs: int, done: Done) -> None:
    """Grade every task in a pool of ``jobs`` processes."""
    broken = _pooled(course, tasks, jobs, done)
    for task in broken:  # each alone, so one that kills its worker costs only itself
        if _pooled(course, [task], 1, done):
            done(not_graded(course, task.student.name, DIED, task.submission))


def _pooled(course: Course, tasks: list[Task], jobs: int, done: Done) -> list[Task]:
    """Grade ``tasks`` in one pool; those whose worker died are returned, not graded."""
    broken: list[Task] = []
    # A dead worker's leftovers come to this process and are ended with the pool.
    with Containment() as contained, worker_pool(min(jobs, len(tasks))) as pool:
        try:
            futures: dict[Future[StudentResult], Task] = {
                pool.submit(_in_worker, course, task): task for task in tasks
            }
            for future in as_completed(futures):
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken.append(futures[future])
                    continue
                except Exception as error:  # this submission's result alone
                    task = futures[future]
                    note = f"grading it failed: {error!r}"
                    result = not_graded(course, task.student.name, note, task.submission)
                done(result)
        except BaseException:  # stopped: each worker ends its run, cleans up, and exits
            contained.signal(signal.SIGTERM)
            raise
    return sorted(broken, key=lambda task: task.student.name)


RAY_TRIES = 3
"""How often a student is sent to the cluster before it is marked not graded (a node that dies
takes its tasks with it; they are sent again, to whichever node has room)."""

Say = Callable[[str], None]
"""Told a line for the person grading (stderr)."""


def _remote_grade(course: Course, name: str, packed: Any, submission: str, cached: Cached) -> Any:
    """A Ray task: grade a packed submission, return the result as JSON data."""
    return grade_student(course, name, packed, submission, cached).to_json()


@dataclass
class _Attempt:
    """A task on its way to the cluster, and how many times it has been sent."""

    task: Task
    tries: int = 1


def grade_on_ray(
    course: Course, tasks: list[Task], address: str, jobs: int, done: Done, say: Say | None = None
) -> None:
    """Grade every task on a Ray cluster (``local``: one started on this machine with
    ``jobs`` CPUs), keeping at most a few tasks per CPU in flight. A task lost with its worker
    or node is sent again (said through ``say``), up to :data:`RAY_TRIES` times in all."""
    import ray as ray_module

    ray: Any = ray_module  # typed or not, depending on the Ray release
    _ray_start(ray, address, jobs)
    try:
        _ray_loop(ray, course, tasks, done, say or (lambda line: None))
    finally:
        ray.shutdown()


def _ray_start(ray: Any, address: str, jobs: int) -> None:
    """Start Ray's driver here. ``local`` is ``address="local"``: a cluster of its own, started
    here with ``jobs`` CPUs, whatever else runs on the machine (``address=None`` would join a
    cluster already running, or the one ``$RAY_ADDRESS`` names, and refuse ``num_cpus``). Any
    other address is joined; one where no cluster answers is a :class:`UsageError`."""
    local = address == "local"
    try:
        ray.init(
            address=address,
            num_cpus=jobs if local else None,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    except ConnectionError as error:
        if local:
            raise
        why = str(error).partition("\n")[0][:200]
        raise UsageError(f"--ray {address}: no Ray cluster to join there ({why})") from None


def _ray_loop(ray: Any, course: Course, tasks: list[Task], done: Done, say: Say) -> None:
    """Send the tasks, a window at a time; collect, resend what was lost, report the rest."""
    remote = ray.remote(max_retries=0)(_remote_grade)
    course_ref = ray.put(course)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    window = max(4, 2 * cpus)
    waiting = deque(_Attempt(task) for task in tasks)
    running: dict[Any, _Attempt] = {}
    while waiting or running:
        while waiting and len(running) < window:
            attempt = waiting.popleft()
            ref = _submit(remote, course_ref, course, attempt.task, done)
            if ref is not None:
                running[ref] = attempt
        if not running:
            continue
        ready, _ = ray.wait(list(running), num_returns=1)
        for ref in ready:
            attempt = running.pop(ref)
            result = _ray_result(ray, ref)
            task = attempt.task
            if isinstance(result, StudentResult):
                done(result)
            elif result.again and attempt.tries < RAY_TRIES:
                say(
                    f"casino grade: {task.student.name}: {result.why}; sending it again "
                    f"(try {attempt.tries + 1} of {RAY_TRIES})"
                )
                waiting.append(_Attempt(task, attempt.tries + 1))
            else:
                times = f", {attempt.tries} times" if result.again else ""
                note = f"{result.why}{times}; grade it again"
                done(not_graded(course, task.student.name, note, task.submission))


def _submit(remote: Any, course_ref: Any, course: Course, task: Task, done: Done) -> Any:
    """Send ``task`` to the cluster with its packed folder; ``None`` (and its result told) if
    the folder cannot be packed."""
    student = task.student
    try:
        packed = pack(student.folder)
    except (TooLargeSubmission, OSError) as error:
        note = str(error) if isinstance(error, TooLargeSubmission) else f"cannot read it: {error}"
        done(not_graded(course, student.name, note, task.submission))
        return None
    return remote.remote(course_ref, student.name, packed, task.submission, task.cached)


@dataclass(frozen=True)
class _Lost:
    """Why the cluster gave no result for a task, and whether sending it again may help."""

    why: str
    again: bool


def _ray_result(ray: Any, ref: Any) -> StudentResult | _Lost:
    """The task's result, or why there is none: its worker or node died (worth another try),
    or casino itself raised in the task (a bug: trying again would raise again)."""
    try:
        return StudentResult.from_json(ray.get(ref))
    except ray.exceptions.RayTaskError as error:
        return _Lost(f"grading it raised {type(error.cause).__name__} on the cluster", False)
    except ray.exceptions.RayError as error:
        return _Lost(f"the Ray worker grading it was lost ({type(error).__name__})", True)


def default_jobs() -> int:
    """All cores."""
    return os.cpu_count() or 1
