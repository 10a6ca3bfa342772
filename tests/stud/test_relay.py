"""The loopback relay a sandboxed player runs behind: the player gets a loopback address, and
what it sends reaches the dealer's Unix socket byte for byte, each side's end passed on; the
relay ends with the player's status."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import casino.stud.relay as relay

RELAY = Path(relay.__file__)

CLIENT = """
import socket, sys
with socket.create_connection((sys.argv[1], int(sys.argv[2]))) as sock:
    sock.sendall(b"hi")
    sock.shutdown(socket.SHUT_WR)
    reply = b""
    while data := sock.recv(100):
        reply += data
print(sys.argv[1], reply.decode())
sys.exit(3)
"""


def dealer(path: Path) -> tuple[socket.socket, threading.Thread]:
    """A Unix-socket dealer that reads to the end, answers ``got:<what it read>`` and hangs
    up."""
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            seen = b""
            while data := conn.recv(100):
                seen += data
            conn.sendall(b"got:" + seen)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server, thread


def run_relay(path: Path, *player: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, str(RELAY), str(path), *player]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def test_the_player_reaches_the_dealer_and_its_status_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "dealer.sock"
    server, thread = dealer(path)
    with server:
        done = run_relay(path, sys.executable, "-c", CLIENT, "{host}", "{port}")
        thread.join(10)
    assert (done.returncode, done.stdout, done.stderr) == (3, "127.0.0.1 got:hi\n", "")


def test_a_player_killed_by_a_signal_is_128_plus_it(tmp_path: Path) -> None:
    kill = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    done = run_relay(tmp_path / "none.sock", sys.executable, "-c", kill)
    assert done.returncode == 128 + 9


def test_a_player_that_cannot_run_is_one_line_and_127(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    done = run_relay(tmp_path / "none.sock", str(missing), "{host}", "{port}")
    assert done.returncode == 127
    assert done.stderr == f"cannot run {missing}: No such file or directory\n"
