"""The loopback relay a sandboxed player runs behind (standard library only, run as a script).

A player in a sandbox without network (a network namespace of its own: nothing but its own
loopback) cannot reach a dealer on the machine's loopback. This script runs inside the sandbox,
in front of the player: it listens on the sandbox's own ``127.0.0.1`` (any free port; the
loopback brought up first where it is down), starts
the player with ``{host}`` and ``{port}`` replaced by that address, and carries each connection
the player opens, byte for byte both ways, to the dealer's Unix socket (a file in the run
folder, which the sandbox shares: a Unix socket named by a path is reached through the file
system, not through the network). Each direction's end is passed on (a half-close), so a player
that closes its socket after ``done`` is seen to close it. The relay ends with the player's
exit status (128 + N for a player killed by signal N), once what the player sent is delivered.

Usage: ``python3 relay.py SOCKET PROGRAM [ARG …]``; casino runs it as ``python3 -c SOURCE``
(:data:`casino.stud.launch.RELAY_SOURCE`), since only ``/usr`` is visible in the sandbox.
"""

from __future__ import annotations

import contextlib
import fcntl
import socket
import struct
import subprocess
import sys
import threading
import time

LOOPBACK = "127.0.0.1"
DRAIN_SECONDS = 2.0
"""How long, once the player has ended, the relay lets its connections deliver what is left."""


SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1


def loopback_up() -> None:
    """Bring the loopback interface up if it is down (a namespace made by ``unshare`` starts
    so; bubblewrap's is up already). Where it cannot, nothing changes."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(probe, SIOCGIFFLAGS, request))[1]
        if not flags & IFF_UP:
            fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy ``source`` to ``sink`` until ``source`` ends, then end ``sink``'s writing side."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


def _carry(player: socket.socket, path: str, threads: list[threading.Thread]) -> None:
    """Join one connection of the player's to the dealer's Unix socket."""
    dealer = socket.socket(socket.AF_UNIX)
    try:
        dealer.connect(path)
    except OSError:
        player.close()
        return
    for source, sink in ((player, dealer), (dealer, player)):
        thread = threading.Thread(target=_pump, args=(source, sink), daemon=True)
        threads.append(thread)
        thread.start()


def _accept(server: socket.socket, path: str, threads: list[threading.Thread]) -> None:
    while True:
        try:
            player, _ = server.accept()
        except OSError:
            return
        _carry(player, path, threads)


def main(argv: list[str]) -> int:
    """Relay for the player ``argv[1:]`` to the Unix socket ``argv[0]``; its exit status."""
    if len(argv) < 2:
        sys.stderr.write("usage: relay SOCKET PROGRAM [ARG ...]\n")
        return 2
    path, command = argv[0], argv[1:]
    loopback_up()
    server = socket.create_server((LOOPBACK, 0))
    port = str(server.getsockname()[1])
    command = [word.replace("{host}", LOOPBACK).replace("{port}", port) for word in command]
    threads: list[threading.Thread] = []
    threading.Thread(target=_accept, args=(server, path, threads), daemon=True).start()
    try:
        player = subprocess.Popen(command)
    except OSError as error:
        sys.stderr.write(f"cannot run {command[0]}: {error.strerror or error}\n")
        return 127
    status = player.wait()
    deadline = time.monotonic() + DRAIN_SECONDS
    for thread in list(threads):
        thread.join(max(0.0, deadline - time.monotonic()))
    return 128 - status if status < 0 else status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
