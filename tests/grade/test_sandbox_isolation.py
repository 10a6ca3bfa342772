"""What a program in its sandbox cannot do: see the grader, reach the network or a unix socket
outside, use shared memory beyond its limit, fill ``/dev/shm`` or ``/tmp``."""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino.harness.model import Out, Run
from casino.harness.runners import make_runner
from casino.harness.runners.base import Job, Outcome, Target
from casino.harness.runners.sandbox import SANDBOX_UID, Sandbox, isolation_works, run_uid

pytestmark = pytest.mark.skipif(not isolation_works(), reason="no bubblewrap sandbox here")

SANDBOX = Sandbox(cpu_seconds=20, memory=1024 << 20, processes=64, file_size=64 << 20, isolate=True)


@pytest.fixture
def run_folder() -> Iterator[Path]:
    """A run folder under /tmp (anyone may enter /tmp: the grader's own uid need not)."""
    folder = Path(tempfile.mkdtemp(prefix="casino-test-"))
    yield folder
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()


def run(folder: Path, code: str, runner: str = "pipe") -> Outcome:
    """``python3 -c CODE`` in its sandbox, expecting no output (so it runs to its end)."""
    job = Job(Target(None, ("python3", "-c", code)), Run((Out(""),)), folder, 0, 20, SANDBOX)
    return make_runner(runner).run(job)


@pytest.mark.parametrize("runner", ["pipe", "pty"])
def test_it_sees_only_its_own_processes_and_folders(run_folder: Path, runner: str) -> None:
    code = (
        "import os; print(sorted(p for p in os.listdir('/proc') if p.isdigit()),"
        " os.getuid(), sorted(os.listdir('/')), os.listdir('/tmp'))"
    )
    outcome = run(run_folder, code, runner)
    uid = run_uid() if os.geteuid() == 0 else SANDBOX_UID
    assert outcome.output.replace("\r\n", "\n").startswith("['1', '2'] " + str(uid))
    assert "'etc', 'lib'" in outcome.output and "'home'" not in outcome.output
    assert f"['{run_folder.name}']" in outcome.output  # /tmp holds only the run folder


def test_shared_memory_over_the_limit_fails(run_folder: Path) -> None:
    code = (
        "import mmap\n"
        "try:\n    m = mmap.mmap(-1, 2500 << 20, flags=mmap.MAP_SHARED)\n"
        "    m[-1] = 1\n    print('mapped')\n"
        "except OSError as error:\n    print('refused', error.errno)\n"
    )
    assert run(run_folder, code).output == "refused 12\n"  # ENOMEM


def test_dev_shm_and_tmp_are_small_and_private(run_folder: Path) -> None:
    code = (
        "import os\n"
        "for where in ('/dev/shm/x', '/tmp/x'):\n"
        "    try:\n"
        "        with open(where, 'wb') as f:\n"
        "            for _ in range(80):\n"
        "                f.write(b'x' * (1 << 20))\n"
        "        print(where, 'written')\n"
        "    except OSError as error:\n"
        "        print(where, 'full', os.path.getsize(where) >> 20)\n"
    )
    assert run(run_folder, code).output == "/dev/shm/x full 64\n/tmp/x full 64\n"
    assert not Path("/dev/shm/x").exists()


def test_the_network_cannot_be_reached(run_folder: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code = (
            "import socket\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=5)\n"
            "    print('connected')\n"
            "except OSError as error:\n"
            "    print('refused')\n"
        )
        assert run(run_folder, code).output == "refused\n"


def test_a_unix_socket_outside_cannot_be_reached(run_folder: Path) -> None:
    path = Path(tempfile.mkdtemp(prefix="casino-sock-")) / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        server.listen()
        os.chmod(path.parent, 0o755)
        code = (
            "import socket\n"
            "s = socket.socket(socket.AF_UNIX)\n"
            "try:\n"
            f"    s.connect({str(path)!r})\n"
            "    print('connected')\n"
            "except OSError as error:\n"
            "    print('unreachable')\n"
        )
        assert run(run_folder, code).output == "unreachable\n"
    path.unlink()
    path.parent.rmdir()
