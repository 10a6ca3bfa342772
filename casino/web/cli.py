"""``casino web``: serve the lobby and the tables to browsers (loopback unless told).

The games stay standard-library; this program needs the ``web`` extra (aiohttp). Without it
it says so in one line and exits with status 1. It is imported only when run.

The members and their money are kept in ``--database`` (an SQLite file, ``casino.db`` by
default, or a ``postgresql://`` URL with the ``postgres`` extra); a database that cannot be
opened is one line and status 1.
"""

from __future__ import annotations

import argparse
import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from casino.cmdline import (
    ArgumentParser,
    FileProblem,
    Invocation,
    run_program,
    seconds,
    whole_number,
)
from casino.holdem.options import add_rules_options, rules_of
from casino.holdem.options import seconds as _seconds
from casino.net import LOOPBACK
from casino.shell import Streams

if TYPE_CHECKING:
    from casino.web.app import WebServer
    from casino.web.passwords import ScryptCost
    from casino.web.store import Store

PROGRAM = "web"
MISSING = "casino web needs the web extra (aiohttp): pip install -e '.[web]' in casino's folder"
"""What ``casino web`` says without aiohttp. casino is installed from its checkout; the PyPI
name ``casino`` is somebody else's package, so ``pip install 'casino[web]'`` would fetch that."""


_duration = seconds(10**7, zero=True)


def _instance(text: str) -> str:
    if text and not (text.isascii() and text.replace("-", "").isalnum() and len(text) <= 20):
        raise argparse.ArgumentTypeError(f"not a name (letters, digits, -): {text[:40]!r}")
    return text


def _cost(text: str) -> ScryptCost:
    from casino.web.passwords import parse_cost  # (asyncio with it: only to serve)

    try:
        return parse_cost(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(
        description="Serve CASINO-ROYAL to browsers: a lobby, dominoes and Hold'em tables."
    )
    parser.add_argument("--host", default=LOOPBACK, help="address to listen on (loopback)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000, help="0: any free")
    parser.add_argument("--tables", type=whole_number(1, 50), default=2, help="Hold'em tables")
    parser.add_argument("--seats", type=whole_number(2, 9), default=4, help="seats per table")
    add_rules_options(parser, blinds_help=None)
    parser.add_argument("--timeout", type=_seconds, default=30.0, help="seconds per action")
    parser.add_argument("--pause", type=_seconds, default=2.0, help="seconds between hands")
    parser.add_argument(
        "--time-bank",
        type=seconds(3600, zero=True),
        default=30.0,
        help="extra seconds per member once their clock runs out, 1 back per hand (30; 0: none)",
    )
    sitgo = "sit-and-go tables after the Hold'em ones (0), each with its --buy-in"
    parser.add_argument("--sit-and-go", type=whole_number(0, 10), default=0, help=sitgo)
    buy_in = "a sit-and-go's buy-in in dollars (100; 4 seats: the pool paid 65/35)"
    parser.add_argument("--buy-in", type=whole_number(1, 10**6), default=100, help=buy_in)
    parser.add_argument(
        "--show-muck",
        action="store_true",
        help="members choose to show or muck at the end of a hand (off: all shown)",
    )
    parser.add_argument(
        "--move-seconds", type=_seconds, default=15.0, help="the dominoes move clock"
    )
    parser.add_argument(
        "--seat-timeout",
        type=_seconds,
        default=120.0,
        help="seconds a member may be away before their seat is freed",
    )
    parser.add_argument(
        "--database",
        default="casino.db",
        metavar="FILE|URL",
        help="the members' database: an SQLite file, or postgresql://… (casino.db)",
    )
    parser.add_argument(
        "--starting-bankroll",
        type=whole_number(1, 10**9),
        default=1000,
        metavar="DOLLARS",
        help="the dollars a new member starts with (1000)",
    )
    parser.add_argument(
        "--password-cost",
        type=_cost,
        metavar="N",
        help="scrypt's N for new and renewed password hashes, 2^14 to 2^20, r=8 and p=1 "
        "(default 2^17: OWASP's; kept hashes are checked at their own cost)",
    )
    parser.add_argument(
        "--instance",
        type=_instance,
        default="",
        metavar="NAME",
        help="this process's name when several share a PostgreSQL database (on start it "
        "voids only its own unfinished games)",
    )
    parser.add_argument(
        "--wait",
        type=whole_number(1, 9),
        default=1,
        metavar="N",
        help="members seated before a Hold'em table starts, or a member presses start (1)",
    )
    parser.add_argument(
        "--fill-after",
        type=_seconds,
        metavar="SECONDS",
        help="start a waiting table this long after its first member sat (default: never)",
    )
    parser.add_argument(
        "--think", type=_seconds, default=0.4, help="seconds a computer player takes to act"
    )
    parser.add_argument(
        "--duration",
        type=_duration,
        metavar="SECONDS",
        help="stop after this long (default: never)",
    )
    parser.add_seed_option("seed the deals and the computer players with N")
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino web``: see the module docstring."""
    return run_program(PROGRAM, _body, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _body(invocation: Invocation) -> int:
    options = _parser(invocation).parse_args(invocation.argv)
    try:
        import aiohttp  # noqa: F401  # the web extra
    except ImportError:
        invocation.streams.error(MISSING)
        return 1
    from casino.web.holdemseats import TableSettings

    settings = TableSettings(
        seats=options.seats,
        rules=rules_of(options),
        timeout=options.timeout,
        pause=options.pause,
        bot_delay=options.think,
        seat_timeout=options.seat_timeout,
        wait=min(options.wait, options.seats),
        fill_after=options.fill_after,
        show_muck=options.show_muck,
        time_bank=options.time_bank,
        sitgos=options.sit_and_go,
        buy_in=options.buy_in,
    )
    from casino.web.app import WebServer

    place = (options.host, options.port)
    settings.move_seconds = options.move_seconds
    store = _store(options.database, options.starting_bankroll, options.password_cost)
    try:
        server = WebServer(
            settings, options.tables, options.seed, store=store, instance=options.instance
        )
        import asyncio

        return asyncio.run(_serve(server, place, options.duration, invocation.streams))
    finally:
        store.close()


def _store(where: str, starting_bankroll: int, cost: ScryptCost | None) -> Store:
    """The members' store ``--database`` names, hashing new passwords at ``cost`` (default:
    :func:`casino.web.passwords.default_cost`); :class:`FileProblem` if it cannot be opened."""
    import sqlite3

    from casino.web.databases import StoreUnavailable, open_store

    try:
        return open_store(where, starting_bankroll=starting_bankroll, cost=cost)
    except StoreUnavailable as error:
        raise FileProblem(str(error)) from None
    except sqlite3.Error as error:
        raise FileProblem(f"cannot use the database {where}: {error}") from None


async def _serve(
    server: WebServer, place: tuple[str, int], duration: float | None, streams: Streams
) -> int:
    import asyncio

    from aiohttp import web

    host, port = place
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
    except OSError as error:
        await runner.cleanup()
        raise FileProblem(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    bound = runner.addresses[0][1]
    streams.stdout.write(f"casino web: listening on http://{host}:{bound}/\n")
    streams.stdout.flush()
    # What is alive now (the modules, the tables) stays out of the collector's full passes:
    # at 200 members each one held the event loop for tens of milliseconds.
    gc.collect()
    gc.freeze()
    try:
        waiting = asyncio.Event().wait() if duration is None else asyncio.sleep(duration)
        await server.serve_until(waiting)  # a task of the server that fails ends it too
    finally:
        gc.unfreeze()
        await runner.cleanup()
    return 0
