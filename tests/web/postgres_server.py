"""A real PostgreSQL server for the tests, from Debian's ``postgresql`` package, in a temporary
folder of its own, on 127.0.0.1 and a free port. No mock.

PostgreSQL will not run as root: as root the server runs as ``nobody`` (``setpriv``). Where
there is no ``initdb`` or the server cannot start, :func:`start` raises :class:`Unavailable`
with the reason, which the tests skip with.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

NOBODY = 65534


class Unavailable(Exception):
    """No PostgreSQL server can be started here (the reason)."""


def _binaries() -> Path:
    """The folder of initdb and pg_ctl."""
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / "initdb").exists():
            return folder
    found = shutil.which("initdb")
    if found is None:
        raise Unavailable("no PostgreSQL server here (apt-get install postgresql)")
    return Path(found).parent


def _as_server_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    if shutil.which("setpriv") is None:
        raise Unavailable("PostgreSQL will not run as root, and there is no setpriv")
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *argv]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run(argv: list[str]) -> None:
    done = subprocess.run(_as_server_user(argv), capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise Unavailable(f"{Path(argv[0]).name} failed: {done.stderr.strip()[-500:]}")


@contextlib.contextmanager
def start() -> Iterator[str]:
    """A running server; yields its URL (``postgresql://…/postgres``)."""
    binaries = _binaries()
    folder = Path(tempfile.mkdtemp(prefix="casino-pg-"))
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    data, port = folder / "data", _free_port()
    user = "casino"
    try:
        _run([str(binaries / "initdb"), "-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8"])
        options = f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=off"
        _run([str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-t", "60",
              "-l", str(folder / "log"), "start"])  # fmt: skip
        yield f"postgresql://{user}@127.0.0.1:{port}/postgres"
    finally:
        with contextlib.suppress(Unavailable, subprocess.TimeoutExpired):
            _run([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"])
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new, empty database on the server at ``url``; its URL."""
    import psycopg

    name = f"t{time.monotonic_ns()}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"
