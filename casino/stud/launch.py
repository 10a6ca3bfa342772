"""How a player program is started: as typed, or as a course's submission, limited and
sandboxed as ``casino grade`` runs programs.

A :class:`Launch` is a command with ``{host}`` and ``{port}`` in it, and optionally the folder
it is written for (a submission: the command is resolved against it as ``casino grade``
resolves ``--run``), the :class:`~casino.harness.runners.sandbox.Sandbox` of every run and the
run folder it starts in.

**The network.** A sandbox that cuts the network (``isolate_network``: bubblewrap's
``--unshare-net`` or ``unshare(CLONE_NEWNET)``) gives the player a network namespace of its
own with nothing in it but its own loopback: the dealer's port on the machine's loopback is
out of its reach, and so is everything else, which is the point. Such a player runs behind
:mod:`casino.stud.relay`, started in the same sandbox: the relay listens on the sandbox's own
``127.0.0.1``, starts the player with that address as ``{host}``/``{port}``, and carries its
connections to the dealer's Unix socket in the run folder (:data:`SOCKET_NAME`), which the
dealer listens on beside its TCP port (:func:`serve_unix`). A Unix socket named by a path is
reached through the file system, so it crosses the network namespace, and it is the only
thing the player can reach. Without the cut (``--network``, or a system that cannot make a
namespace), the player connects to the dealer's TCP port on the machine's loopback, as typed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import socket
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from casino.errors import CasinoError
from casino.harness.runners.base import resolve_process
from casino.harness.runners.sandbox import SAFE_PATH, Sandbox
from casino.net import LOOPBACK
from casino.net.guard import Limits, WarningLog
from casino.net.listener import Listener
from casino.net.stream import FrameStream, Handler

SOCKET_NAME = ".casino-dealer.sock"
"""The dealer's Unix socket in a relayed player's run folder."""


@lru_cache(maxsize=1)
def relay_source() -> str:
    """The relay's source, run as ``python3 -c`` (the sandbox sees no casino); read as a
    resource, so that it is found in the single-file ``casino.pyz`` too."""
    return resources.files("casino.stud").joinpath("relay.py").read_text(encoding="utf-8")


def sandbox_python() -> str:
    """A Python the sandbox can run (under ``/usr``) for the relay; :class:`CasinoError`
    if there is none."""
    found = shutil.which("python3", path=SAFE_PATH)
    if found is None or not Path(found).resolve().is_relative_to("/usr"):
        raise CasinoError("a sandboxed player needs python3 under /usr for its loopback relay")
    return found


@dataclass(frozen=True)
class Launch:
    """One player program and how it is started."""

    command: tuple[str, ...]
    """The command, ``{host}`` and ``{port}`` in it."""
    folder: Path | None = None
    """The folder the command is written for (a built submission); ``None``: as typed here."""
    sandbox: Sandbox | None = None
    run_folder: Path | None = None
    """Where it starts (and where a relayed player's dealer socket is); needed with a
    sandbox."""

    @property
    def shown(self) -> str:
        """The command as typed."""
        return shlex.join(self.command)

    @property
    def relayed(self) -> bool:
        """Whether it runs behind the loopback relay (its network is cut)."""
        return self.sandbox is not None and self.sandbox.isolate_network

    @property
    def socket_path(self) -> Path:
        """The dealer's Unix socket a relayed player reaches."""
        if self.run_folder is None:
            raise CasinoError("a sandboxed player needs a run folder")
        return self.run_folder / SOCKET_NAME

    def argv(self, port: int) -> tuple[list[str], dict[str, str] | None]:
        """The argv and environment (``None``: this one) that start it for a dealer on the
        loopback ``port`` (or, relayed, on :attr:`socket_path`)."""
        words, env, own = list(self.command), None, dict[str, str]()
        if self.folder is not None:
            words, env, own = resolve_process(words, self.folder, os.environ)
        if self.relayed:
            isolated = self.sandbox is not None and self.sandbox.isolate
            python = sandbox_python() if isolated else sys.executable
            words = [python, "-c", relay_source(), str(self.socket_path), *words]
        else:
            words = [w.replace("{host}", LOOPBACK).replace("{port}", str(port)) for w in words]
        if self.sandbox is None or not self.sandbox.isolate:
            return words, env
        assert self.run_folder is not None
        environ = env or dict(os.environ)
        return self.sandbox.confine(words, environ, self.run_folder, self.folder, own=own)

    @property
    def grouped(self) -> bool:
        """Whether it starts in a process group of its own (a submission: whatever it starts
        is ended with it; a command typed here stays in the terminal's group, as typed)."""
        return self.run_folder is not None

    async def start(self, port: int, stderr: int | None) -> asyncio.subprocess.Process:
        """Start it (stdin and stdout closed, ``stderr`` as asked); :class:`CasinoError` in
        one line if it cannot run."""
        argv, env = self.argv(port)
        preexec = self.sandbox.preexec() if self.sandbox is not None else None
        try:
            return await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=stderr,
                env=env,
                cwd=self.run_folder,
                preexec_fn=preexec,
                start_new_session=self.grouped,
            )
        except OSError as error:
            raise CasinoError(f"cannot run {self.shown}: {error.strerror or error}") from None

    async def stop(self, process: asyncio.subprocess.Process, grace: float) -> None:
        """Let ``process`` exit on its own for ``grace`` seconds, then end it, and with it
        (:attr:`grouped`) whatever it started and left behind (the player behind a relay)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), grace)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self.grouped:
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
        await process.wait()


async def serve_unix(
    handler: Handler, path: Path, limits: Limits | None = None, log: WarningLog | None = None
) -> Listener:
    """Listen on the Unix socket ``path`` (made anew, anyone on the machine who can reach the
    folder may connect: the folder is the player's run folder) and run ``handler`` per
    connection, as :func:`casino.net.stream.serve` does on a TCP port."""
    bounds = limits or Limits()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        path.chmod(0o666)
        sock.listen(16)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)

    async def accept(conn: socket.socket) -> None:
        reader, writer = await asyncio.open_connection(sock=conn)
        stream = FrameStream(reader, writer, bounds, None, None, log)
        try:
            await handler(stream)
        except asyncio.CancelledError:
            writer.transport.abort()
            raise

    listener = Listener(sock, accept, bounds, log)
    listener.start()
    return listener
