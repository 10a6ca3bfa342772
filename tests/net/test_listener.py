"""A server that runs out of file descriptors: a subprocess with a low ``RLIMIT_NOFILE``."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap

from casino.net.listener import connection_cap

LOOSE = 60.0

SERVER = textwrap.dedent(
    """
    import asyncio, os, resource, sys
    from casino.net.guard import WarningLog
    from casino.net.lines import serve_lines
    from casino.net.stream import ConnectionClosed, bound_port

    resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    async def echo(stream):
        try:
            while True:
                await stream.send("echo " + await stream.receive())
        except ConnectionClosed:
            pass
        finally:
            await stream.close()

    async def main():
        log = WarningLog(lambda text: print(text, file=sys.stderr, flush=True))
        server = await serve_lines(echo, log=log)
        hog = []
        try:  # eat the descriptors the cap leaves, but 10: accept runs out before the cap
            while True:
                hog.append(os.open(os.devnull, os.O_RDONLY))
        except OSError:
            pass
        for fd in hog[:10]:
            os.close(fd)
        print(bound_port(server), flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def _line(sock: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        piece = sock.recv(1024)
        if not piece:
            break
        data += piece
    return data


def _until_hung_up(sock: socket.socket) -> None:
    """Read until the server has closed its end (a refusal may come first, or a reset)."""
    try:
        while sock.recv(1024):
            pass
    except ConnectionResetError:
        pass


def _talk(port: int, text: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=LOOSE) as sock:
        sock.sendall(text.encode() + b"\n")
        return _line(sock)


def test_running_out_of_descriptors_refuses_with_one_line_and_serves_the_others() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        honest = socket.create_connection(("127.0.0.1", port), timeout=LOOSE)
        honest.sendall(b"hello\n")
        assert _line(honest) == b"echo hello\n"
        idle = [socket.create_connection(("127.0.0.1", port), timeout=LOOSE) for _ in range(100)]
        honest.sendall(b"still there\n")
        assert _line(honest) == b"echo still there\n"
        for sock in idle:  # the crowd leaves; the server has let go once it hangs up too
            sock.shutdown(socket.SHUT_WR)
        for sock in idle:
            _until_hung_up(sock)
            sock.close()
        assert _talk(port, "after the crowd") == b"echo after the crowd\n"
        honest.close()
    finally:
        server.kill()
        _, errors = server.communicate(timeout=LOOSE)
    lines = errors.decode().splitlines()
    assert lines == ["out of file descriptors (Too many open files): refusing new connections"]


def test_the_connection_cap_leaves_descriptors_to_the_server() -> None:
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert connection_cap(10**9) == soft - max(16, soft // 8)
    assert connection_cap(3) == 3
