"""``casino stud check``: the course's automatic tester, run on one player program.

The tester is a scripted dealer. It starts the player (``{host}`` and ``{port}`` in the
command are replaced), and over the real wire protocol it sends ``login`` twice, a battery
of betting requests with the edge cases that trip players up, the "plays intelligently"
scenarios, and ``done``. Each rubric line gets its points or none, and a failed line says
what was sent, what came back, and why that is wrong.

Rubric (after the seed's, Part 1 and Part 2): connects 15; answers ``login`` (twice, the
same) 10; every reply legal 40; every reply within 1 s 30; closes the socket after ``done``
10; bets with three of a kind 15; folds a hopeless hand against a pair of aces when the
price is high 15; values a high spade in the hole 10; uses the other players' up cards 20.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from casino.clock import Clock
from casino.net.stream import ConnectionClosed, FrameStream, bound_port, serve
from casino.stud import protocol as wire

HOST = "127.0.0.1"
REPLY_LIMIT = 1.0
"""Seconds a reply may take (the seed's rule)."""
REPEATS = 3
"""How often each "plays intelligently" scenario is asked: a player that is right by chance
(a random one) is caught, a deterministic one answers the same each time."""
PATIENCE = 3.0
"""Seconds the tester waits for a late reply before it gives up on the player."""


@dataclass(frozen=True)
class Limits:
    """How long the tester waits for things."""

    connect: float = 15.0
    reply: float = REPLY_LIMIT
    patience: float = PATIENCE
    close: float = 2.0


@dataclass(frozen=True)
class Probe:
    """One betting request and what a good reply to it is."""

    text: str
    line: str
    """The rubric line it counts for (``legal`` probes only count for legality)."""
    want: Callable[[wire.Action], bool]
    expect: str
    """The good reply, in words, for the failure message."""


def _bets(action: wire.Action) -> bool:
    return isinstance(action, wire.Bet) and action.amount > 0


def _stays(action: wire.Action) -> bool:
    return isinstance(action, wire.Bet)


def _folds(action: wire.Action) -> bool:
    return isinstance(action, wire.Fold)


def _any(action: wire.Action) -> bool:
    return True


LEGAL = "every reply is legal"
TIMELY = "every reply within 1 s"

LEGALITY: tuple[str, ...] = (
    "bet1:99:4:0:KS:10D:up:AS:8H:10D:QD",
    "bet1:208:24:12:KS:10D:up:AS:8H:10D:QD:2C",
    "status:lose:AS:AH:3C",
    "bet1:188:68:5:KS:10D:up:AS:8H:10D:QD:2C",
    "bet1:3:20:8:4C:9D:up:9D:JH:QS",
    "bet1:0:3:0:6H:2D:up:2D:KC:8S",
    "bet1:0:12:5:6H:2D:up:2D:KC:8S",
    "bet1:7:30:7:JC:JD:up:3S:JD:5H",
    "bet2:183:66:0:KS:10D:10S:up:AS:AH:8H:6D:10D:10S:QD:JC:2C:4H",
    "bet2:12:40:5:9S:9D:4C:up:9D:4C:KH:2S:7D:7C",
    "bet1:50:9:0:3D:5C:up:2C:5C:6H:9S:JD:QC:KH:AS:4S",
    "bet2:50:30:3:3D:5C:8C:up:2C:2H:5C:8C:6H:6D:9S:10H:JD:3H:QC:4D:KH:7H:AS:AC",
    "status:win:5C:8C:3D",
)
"""Requests whose replies only have to be legal: the seed's own examples, a stack smaller
than the amount to match, a stack of 0 after the ante (with and without a bet to match), a
stack exactly the amount to match, a stack between it and the $10 limit, and 9 players."""

SCENARIOS: tuple[Probe, ...] = (
    Probe(
        "bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD",
        "bets with three of a kind",
        _bets,
        "a bet above 0 with three queens",
    ),
    Probe(
        "bet2:90:14:10:3C:6D:9H:up:AS:AH:6D:9H",
        "folds a hopeless hand against a pair of aces",
        _folds,
        "fold: 9-high without a spade in the hole cannot beat the aces showing, and it costs 10",
    ),
    Probe(
        "bet1:90:4:0:AS:7D:up:7D:3H:5C",
        "values a high spade in the hole",
        _bets,
        "a bet above 0: the ace of spades in the hole takes half of every pot",
    ),
    Probe(
        "bet1:90:24:10:AS:4D:up:KH:4D:9C",
        "values a high spade in the hole",
        _stays,
        "no fold: the ace of spades in the hole takes half of the pot",
    ),
    Probe(
        "bet2:90:30:10:8C:8D:4H:up:2C:5D:8D:4H:3H:7S",
        "uses the other players' up cards",
        _stays,
        "no fold: a pair of eights beats anything 2-5 and 3-7 showing can make",
    ),
    Probe(
        "bet2:90:30:10:8C:8D:4H:up:KS:KD:8D:4H:3H:7S",
        "uses the other players' up cards",
        _folds,
        "fold: the pair of kings showing beats a pair of eights, and it costs 10",
    ),
)

POINTS: dict[str, float] = {
    "connects to the dealer": 15,
    "answers login twice, the same way": 10,
    LEGAL: 40,
    TIMELY: 30,
    "closes the socket after done": 10,
    "bets with three of a kind": 15,
    "folds a hopeless hand against a pair of aces": 15,
    "values a high spade in the hole": 10,
    "uses the other players' up cards": 20,
}
"""Every rubric line and its points, in report order."""


@dataclass
class CheckResult:
    """One rubric line's verdict."""

    name: str
    points: float
    max_points: float
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the line earned its points."""
        return not self.problems


class _Session:
    """The tester's side of one connection, recording problems per rubric line."""

    def __init__(self, stream: FrameStream, clock: Clock, limits: Limits) -> None:
        self.stream = stream
        self.clock = clock
        self.limits = limits
        self.problems: dict[str, list[str]] = {name: [] for name in POINTS}
        self.gone: str | None = None

    def fail(self, line: str, problem: str) -> None:
        self.problems[line].append(problem)

    async def ask(self, text: str) -> str | None:
        """Send ``text``; the reply, or ``None`` (and the reason noted) if none came."""
        if self.gone is not None:
            self.fail(TIMELY, f"sent {text!r}: not asked, the player was already gone")
            return None
        start = self.clock.now()
        try:
            await self.stream.send(text)
            reply = await self.clock.within(self.stream.receive(), self.limits.patience)
        except TimeoutError:
            self.gone = f"no reply within {self.limits.patience:g} s"
        except ConnectionClosed as error:
            self.gone = f"the player hung up ({error})"
        if self.gone is not None:
            self.fail(TIMELY, f"sent {text!r}: {self.gone}")
            return None
        took = self.clock.now() - start
        if took > self.limits.reply:
            self.fail(TIMELY, f"sent {text!r}: the reply {reply!r} took {took:.2f} s, over 1 s")
        return reply

    async def tell(self, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            await self.stream.send(text)


async def _login(session: _Session) -> None:
    line = "answers login twice, the same way"
    first = await session.ask("login")
    second = await session.ask("login")
    for reply in (first, second):
        if reply is None:
            session.fail(line, "sent 'login': no reply")
            return
        try:
            wire.parse_login_reply(reply)
        except wire.ProtocolError as error:
            session.fail(line, f"sent 'login', got {reply!r}: {error}")
            return
    if first != second:
        session.fail(line, f"sent 'login' twice, got {first!r} then {second!r}: must be the same")


async def _request(session: _Session, text: str, probe: Probe | None) -> None:
    if text.startswith("status:"):
        await session.tell(text)
        return
    reply = await session.ask(text)
    if reply is None:
        if probe is not None:
            session.fail(probe.line, f"sent {text!r}: no reply")
        return
    request = wire.parse_command(text)
    assert isinstance(request, wire.BetRequest)
    try:
        action = wire.parse_action(reply)
    except wire.ProtocolError as error:
        session.fail(LEGAL, f"sent {text!r}, got {reply!r}: {error}")
        return
    if isinstance(action, wire.Bet) and not wire.legal_bet(
        action.amount, request.stack, request.to_match
    ):
        allowed = wire.legal_range(request.stack, request.to_match)
        why = (
            f"from {allowed.start} to {allowed.stop - 1}, or fold"
            if allowed
            else f"only fold: a stack of {request.stack} cannot match {request.to_match}"
        )
        session.fail(LEGAL, f"sent {text!r}, got {reply!r}: the legal replies are {why}")
        return
    if probe is not None and not probe.want(action):
        session.fail(probe.line, f"sent {text!r}, got {reply!r}: expected {probe.expect}")


async def _closes(session: _Session) -> None:
    line = "closes the socket after done"
    await session.tell("done:the automatic tester is finished")
    try:
        await asyncio.wait_for(session.stream.until_closed(), session.limits.close)
    except TimeoutError:
        session.fail(
            line, f"sent 'done:…': the socket was still open {session.limits.close:g} s later"
        )


async def _play(session: _Session) -> None:
    await _login(session)
    for text in LEGALITY:
        await _request(session, text, None)
    for _ in range(REPEATS):
        for probe in SCENARIOS:
            await _request(session, probe.text, probe)
    if session.gone is None:
        await _closes(session)
    else:
        session.fail("closes the socket after done", f"never got to 'done': {session.gone}")


def _results(problems: dict[str, list[str]]) -> list[CheckResult]:
    return [
        CheckResult(name, 0.0 if problems[name] else points, points, problems[name])
        for name, points in POINTS.items()
    ]


async def check_player(command: Sequence[str], clock: Clock, limits: Limits) -> list[CheckResult]:
    """Run the player ``command`` (``{host}``/``{port}`` replaced) through every check."""
    arrived: asyncio.Queue[FrameStream] = asyncio.Queue()
    finished = asyncio.Event()

    async def accept(stream: FrameStream) -> None:
        await arrived.put(stream)
        await finished.wait()

    server = await serve(accept)
    port = bound_port(server)
    argv = [part.replace("{host}", HOST).replace("{port}", str(port)) for part in command]
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
    except OSError as error:
        server.close()
        raise ConnectionClosed(
            f"cannot run {shlex.join(argv)}: {error.strerror or error}"
        ) from None
    try:
        return await _session(arrived, process, clock, limits)
    finally:
        finished.set()
        server.close()
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


async def _session(
    arrived: asyncio.Queue[FrameStream],
    process: asyncio.subprocess.Process,
    clock: Clock,
    limits: Limits,
) -> list[CheckResult]:
    stream = await _arrival(arrived, process, limits)
    if isinstance(stream, str):
        problems = {name: [f"not checked: {stream}"] for name in POINTS}
        problems["connects to the dealer"] = [stream]
        return _results(problems)
    session = _Session(stream, clock, limits)
    try:
        await _play(session)
    finally:
        await stream.close()
    return _results(session.problems)


async def _arrival(
    arrived: asyncio.Queue[FrameStream], process: asyncio.subprocess.Process, limits: Limits
) -> FrameStream | str:
    """The player's connection, or why it never came (it exited, or took too long)."""
    connection = asyncio.ensure_future(arrived.get())
    exited = asyncio.ensure_future(process.wait())
    await asyncio.wait({connection, exited}, timeout=limits.connect, return_when="FIRST_COMPLETED")
    exited.cancel()
    if connection.done():
        return connection.result()
    connection.cancel()
    if process.returncode is not None:
        return f"the player exited with status {process.returncode} without connecting"
    return f"the player did not connect within {limits.connect:g} s"
