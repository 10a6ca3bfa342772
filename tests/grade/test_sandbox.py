"""The sandbox's limits reach the program through the pipe and pty runners."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from casino.harness.model import In, Out, Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Target
from casino.harness.runners.netns import network_isolation_works
from casino.harness.runners.sandbox import Sandbox

PY = sys.executable
LIMITS = (
    "import resource as r; print(*(r.getrlimit(k)[0]"
    " for k in (r.RLIMIT_CPU, r.RLIMIT_DATA, r.RLIMIT_FSIZE, r.RLIMIT_CORE)))"
)


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_the_limits_are_set_in_the_program(runner: str, tmp_path: Path) -> None:
    sandbox = Sandbox(cpu_seconds=7, memory=300 << 20, file_size=1 << 20)
    job = Job(
        Target(None, (PY, "-c", LIMITS)), Run((Out(""),)), tmp_path, timeout=20, sandbox=sandbox
    )
    outcome = make_runner(runner).run(job)
    assert outcome.problem is None
    assert outcome.output.split() == ["7", str(300 << 20), str(1 << 20), "0"]


def test_a_program_over_its_memory_limit_fails_to_allocate(tmp_path: Path) -> None:
    hog = "x = bytearray(400 << 20); print('allocated')"
    job = Job(
        Target(None, (PY, "-c", hog)),
        Run((Out(""),)),
        tmp_path,
        timeout=20,
        sandbox=Sandbox(memory=200 << 20),
    )
    outcome = make_runner("pipe").run(job)
    assert outcome.output == ""
    assert outcome.exit == 1
    assert "MemoryError" in outcome.stderr


def test_without_a_sandbox_nothing_is_limited(tmp_path: Path) -> None:
    job = Job(Target(None, (PY, "-c", LIMITS)), Run((In("x"),)), tmp_path, timeout=20)
    outcome = make_runner("pipe").run(job)
    import resource

    assert outcome.output.split()[1] == str(resource.getrlimit(resource.RLIMIT_DATA)[0])


@pytest.mark.skipif(not network_isolation_works(), reason="no network namespaces here")
def test_an_isolated_program_sees_only_a_down_loopback(tmp_path: Path) -> None:
    show = "import socket; print(sorted(n for _, n in socket.if_nameindex()))"
    sandbox = Sandbox(isolate_network=True)
    job = Job(
        Target(None, (PY, "-c", show)), Run((Out(""),)), tmp_path, timeout=20, sandbox=sandbox
    )
    assert make_runner("pipe").run(job).output == "['lo']\n"


def test_a_limit_is_never_above_the_hard_limit_already_set(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    hard = {resource.RLIMIT_CPU: 5, resource.RLIMIT_DATA: resource.RLIM_INFINITY}
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (0, hard.get(kind, 0)))
    limits = dict(Sandbox(cpu_seconds=60, memory=1 << 30).rlimits())
    assert limits == {
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_CPU: 5,
        resource.RLIMIT_DATA: 1 << 30,
    }
