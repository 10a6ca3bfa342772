"""``casino holdem join HOST PORT --name NAME``: sit at a network table from a terminal.

The client is a pipe between the terminal and the server's line protocol
(:mod:`casino.holdem.server`): it sends ``join NAME [TABLE] [TOKEN]``, prints every line the
server sends (while a table waits for people: how many seats are taken), and sends every line
typed. It ends when the server closes the connection; the end of input (or ``salir``) leaves
the table, and the seat can be taken back under the same name with ``--token`` (the token the
server gave when you sat down). A join the server refuses (a name taken or ending in
``(bot)``, no such table, no free seat) ends the client at once with the server's reason on
stderr and exit status 1, in the server's language (both are known), rather than leaving it
connected and silent.
"""

from __future__ import annotations

import contextlib
import socket
import threading

from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    UsageError,
    whole_number,
)
from casino.i18n import LANGUAGES, translator
from casino.shell import Streams


def _parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(description="Sit at a network Hold'em table.")
    parser.add_argument("host", help="the machine running casino holdem serve")
    parser.add_argument("port", type=whole_number(1, 65535), help="the port it listens on")
    parser.add_argument("--name", required=True, help="your name at the table (one word)")
    parser.add_argument(
        "--table",
        type=whole_number(1, 50),
        metavar="N",
        help="sit at table N (default: the first with a free seat)",
    )
    parser.add_argument(
        "--token",
        help="take your seat back (the token the server gave you when you sat down)",
    )
    return parser


def join_body(invocation: Invocation) -> int:
    """Connect, join, and relay lines both ways until either side ends."""
    options = _parser(invocation).parse_args(invocation.argv)
    streams = invocation.streams
    name = options.name.strip()
    if not name or any(char.isspace() for char in name):
        raise UsageError("--name is one word")
    token = (options.token or "").strip()
    if token and (token.isdigit() or not token.isalnum() or len(token) > 40):
        raise UsageError("--token is the word the server gave you")
    try:
        sock = socket.create_connection((options.host, options.port), timeout=10)
    except OSError as error:
        raise FileProblem(
            f"cannot connect to {options.host}:{options.port}: {error.strerror or error}"
        ) from None
    sock.settimeout(None)
    table = f" {options.table}" if options.table else ""
    table += f" {token}" if token else ""
    with contextlib.closing(sock):
        sock.sendall(f"join {name}{table}\n".encode())
        typist = threading.Thread(target=_send_lines, args=(sock, streams), daemon=True)
        typist.start()
        refusal = _print_lines(sock, streams)  # until the server closes or refuses the join
    if refusal is not None:  # (the typist dies with us)
        raise FileProblem(f"the server refused to seat {name}: {refusal}")
    return 0


def _send_lines(sock: socket.socket, streams: Streams) -> None:
    """Send each typed line; at end of input, close our sending side (the server then lets
    the seat go, and can be joined again under the same name)."""
    with contextlib.suppress(OSError, ValueError):
        for line in streams.stdin:
            sock.sendall(line.rstrip("\r\n").encode("utf-8") + b"\n")
        sock.shutdown(socket.SHUT_WR)


def _print_lines(sock: socket.socket, streams: Streams) -> str | None:
    """Copy what the server sends to stdout until it closes; a refusal of the join ends it
    early, returned (not printed: the caller says it on stderr)."""
    refusals = _refusals()
    with (
        contextlib.suppress(OSError, ValueError),
        sock.makefile("r", encoding="utf-8", errors="replace") as incoming,
    ):
        for line in incoming:
            if line.rstrip("\r\n") in refusals:
                return line.rstrip("\r\n")
            streams.stdout.write(line)
            streams.stdout.flush()
    return None


def _refusals() -> set[str]:
    """Every answer to a refused join, in every language the server may speak."""
    from casino.holdem.server import JOIN_REFUSALS
    from casino.net.names import MAX_NAME

    said = set()
    for lang in LANGUAGES:
        tr = translator("holdem", lang)
        said |= {tr.gettext(message).format(most=MAX_NAME) for message in JOIN_REFUSALS}
    return said
