"""``casino holdem join HOST PORT --name NAME``: sit at a network table from a terminal.

The client is a pipe between the terminal and the server's line protocol
(:mod:`casino.holdem.server`): it sends ``join NAME [TABLE]``, prints every line the server
sends, and sends every line typed. It ends when the server closes the connection or the
input ends (``salir`` leaves the table; the seat can be taken back under the same name).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Sequence

from casino.cmdline import ArgumentParser, parse_or_report
from casino.errors import CasinoError
from casino.shell import Streams


def _parser(out: object) -> ArgumentParser:
    from casino.holdem.cli import _number

    parser = ArgumentParser(out=out, prog="casino holdem join")  # type: ignore[arg-type]
    parser.add_argument("host")
    parser.add_argument("port", type=_number(1, 65535))
    parser.add_argument("--name", required=True)
    parser.add_argument("--table", type=_number(1, 50))
    return parser


def join_main(args: Sequence[str], streams: Streams) -> int:
    """Connect, join, and relay lines both ways until either side ends."""
    options = parse_or_report(_parser(streams.stdout), args, streams)
    if isinstance(options, int):
        return options
    name = options.name.strip()
    if not name or any(char.isspace() for char in name):
        streams.error("casino holdem join: --name is one word")
        return 2
    try:
        sock = socket.create_connection((options.host, options.port), timeout=10)
    except OSError as error:
        raise CasinoError(
            f"cannot connect to {options.host}:{options.port}: {error.strerror or error}"
        ) from None
    sock.settimeout(None)
    table = f" {options.table}" if options.table else ""
    with contextlib.closing(sock):
        sock.sendall(f"join {name}{table}\n".encode())
        printer = threading.Thread(target=_print_lines, args=(sock, streams), daemon=True)
        printer.start()
        for line in streams.stdin:
            if not printer.is_alive():
                break
            try:
                sock.sendall(line.rstrip("\r\n").encode("utf-8") + b"\n")
            except OSError:
                break
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_WR)
        printer.join(timeout=5)
    return 0


def _print_lines(sock: socket.socket, streams: Streams) -> None:
    """Copy what the server sends to stdout until it closes."""
    with (
        contextlib.suppress(OSError, ValueError),
        sock.makefile("r", encoding="utf-8", errors="replace") as incoming,
    ):
        for line in incoming:
            streams.stdout.write(line)
            streams.stdout.flush()
