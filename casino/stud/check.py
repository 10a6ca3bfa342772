"""``casino stud check``: the course's automatic tester, run on one player program.

The tester is a scripted dealer. The battery is cut into :data:`GROUPS` of probes, and each
group is a *session* of its own: the player program is started afresh (``{host}`` and
``{port}`` in its command are replaced), it connects, is sent ``login`` (twice in the first
session), the group's requests, and ``done``. A player that hangs up, goes silent or crashes
in one session loses that session alone; the next one starts it again.

Scoring (the rubric, its points and the battery are :mod:`casino.stud.rubric`'s;
``docs/stud.md`` explains it):

- a rubric line's points are split evenly over the sessions that probe it; a session earns
  its share when *every* probe of that line in it was answered, and answered right;
- a probe the player did not answer (it hung up or stayed silent at it, or it was never
  asked because the player was gone) earns nothing; a line of which no probe was answered
  scores 0 and says ``not answered``;
- "connects to the dealer" is earned when the player connected in every session.

The text report prints each failure once, with the probe that failed (a scenario asked three
times and failed three times is one line, "3 times"), says once per session how it ended
early, and shows what the player wrote to stderr in each session (capped as the harness caps
a program's stderr).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from casino.clock import Clock
from casino.errors import CasinoError
from casino.harness.runners.base import STDERR_KEPT, quiet
from casino.net import LOOPBACK
from casino.net.listener import Listener
from casino.net.stream import ConnectionClosed, FrameStream, bound_port, serve
from casino.stud import protocol as wire
from casino.stud.launch import Launch, serve_unix
from casino.stud.rubric import CLOSES, CONNECTS, GROUPS, LEGAL, LOGIN, POINTS, TIMELY, Group, Probe

HOST = LOOPBACK
REPLY_LIMIT = 1.0
"""Seconds a reply may take (the seed's rule)."""
PATIENCE = 3.0
"""Seconds the tester waits for a late reply before it gives up on the session."""


@dataclass(frozen=True)
class Limits:
    """How long the tester waits for things."""

    connect: float = 15.0
    reply: float = REPLY_LIMIT
    patience: float = PATIENCE
    close: float = 2.0


@dataclass
class SessionLog:
    """What happened in one session."""

    number: int
    group: Group
    connected: bool = False
    note: str = ""
    """How the session ended early (once, with the probe), or why it did not run."""
    problems: dict[str, list[str]] = field(default_factory=dict)
    """Wrong answers, by rubric line, each with the probe."""
    answered: set[str] = field(default_factory=set)
    """The lines with at least one probe answered here."""
    lost: set[str] = field(default_factory=set)
    """The lines with a probe not answered here (or never asked)."""
    stderr: str = ""
    stderr_dropped: int = 0
    """Bytes of stderr beyond the first :data:`STDERR_KEPT`, counted, not kept."""
    seconds: float = 0.0

    @property
    def title(self) -> str:
        """``session 3 of 10 (a stack that cannot match)``."""
        return f"session {self.number} of {len(GROUPS)} ({self.group.name})"

    def fail(self, line: str, problem: str) -> None:
        """Note a wrong answer for ``line``."""
        self.problems.setdefault(line, []).append(problem)

    def earned(self, line: str) -> bool:
        """Whether this session earns its share of ``line``."""
        return line in self.group.lines and line not in self.lost and not self.problems.get(line)


@dataclass
class CheckResult:
    """One rubric line's verdict."""

    name: str
    points: float
    max_points: float
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    sessions: list[int] = field(default_factory=list)
    """The sessions in which it lost points (their notes and stderr go with it)."""

    @property
    def passed(self) -> bool:
        """Whether the line earned all its points."""
        return self.points == self.max_points


@dataclass
class Checked:
    """The tester's verdict: each rubric line, and what happened in each session."""

    results: list[CheckResult]
    sessions: list[SessionLog]

    @property
    def passed(self) -> bool:
        """Whether every line earned all its points."""
        return all(result.passed for result in self.results)


# ---------------------------------------------------------------- one session


class _Session:
    """The tester's side of one connection."""

    def __init__(self, stream: FrameStream, clock: Clock, limits: Limits, log: SessionLog) -> None:
        self.stream = stream
        self.clock = clock
        self.limits = limits
        self.log = log
        self.hung_up = False

    async def ask(self, text: str, what: str = "") -> tuple[str, float] | None:
        """Send ``text``; the reply and the seconds it took, or ``None`` (and the note of how
        the session ended, naming the request as ``what`` if given) if none came."""
        what = what or repr(text)
        start = self.clock.now()
        try:
            await self.stream.send(text)
            reply = await self.clock.within(self.stream.receive(), self.limits.patience)
        except TimeoutError:
            self.log.note = f"no reply to {what} within {self.limits.patience:g} s"
            return None
        except ConnectionClosed as error:
            self.hung_up = True
            self.log.note = f"the player hung up at {what} ({error})"
            return None
        return reply, self.clock.now() - start

    async def tell(self, text: str) -> None:
        """Send a message that takes no reply."""
        with contextlib.suppress(ConnectionClosed):
            await self.stream.send(text)


async def _login(session: _Session, times: int) -> bool:
    """Send ``login`` ``times`` times; whether every one was answered."""
    log = session.log
    replies: list[str] = []
    for index in range(times):
        got = await session.ask("login", "the second 'login'" if index else "")
        if got is None:
            log.lost.add(LOGIN)
            return False
        reply, took = got
        replies.append(reply)
        log.answered.add(LOGIN)
        if times < 2:
            continue
        try:
            wire.parse_login_reply(reply)
        except wire.ProtocolError as error:
            log.fail(LOGIN, f"sent 'login', got {reply!r}: {error}")
        if took > session.limits.reply:
            log.fail(LOGIN, f"sent 'login': the reply {reply!r} took {took:.2f} s, over 1 s")
    if len(set(replies)) > 1:
        log.fail(LOGIN, f"sent 'login' twice, got {replies[0]!r} then {replies[1]!r}")
    return True


async def _request(session: _Session, probe: Probe) -> bool:
    """Ask ``probe``; whether it was answered (and every problem with the answer noted)."""
    log = session.log
    got = await session.ask(probe.text)
    if got is None:
        return False
    reply, took = got
    log.answered |= {LEGAL, TIMELY, *([probe.line] if probe.line else [])}
    sent = f"sent {probe.text!r}"
    if took > session.limits.reply:
        log.fail(TIMELY, f"{sent}: the reply {reply!r} took {took:.2f} s, over 1 s")
    problem = _illegal(probe.text, reply)
    if problem is not None:
        log.fail(LEGAL, f"{sent}, got {reply!r}: {problem}")
        if probe.line:
            log.fail(probe.line, f"{sent}, got {reply!r}: not a legal reply")
    elif probe.line and not probe.want(wire.parse_action(reply)):
        log.fail(probe.line, f"{sent}, got {reply!r}: expected {probe.expect}")
    return True


def _illegal(text: str, reply: str) -> str | None:
    """Why ``reply`` is not a legal answer to the request ``text`` (``None``: it is)."""
    request = wire.parse_command(text)
    assert isinstance(request, wire.BetRequest)
    try:
        action = wire.parse_action(reply)
    except wire.ProtocolError as error:
        return str(error)
    if isinstance(action, wire.Fold) or wire.legal_bet(
        action.amount, request.stack, request.to_match
    ):
        return None
    allowed = wire.legal_range(request.stack, request.to_match)
    if not allowed:
        stack, to_match = request.stack, request.to_match
        return f"the only legal reply is fold: a stack of {stack} cannot match {to_match}"
    return f"the legal replies are from {allowed.start} to {allowed.stop - 1}, or fold"


async def _closes(session: _Session, why: str) -> bool:
    """Send ``done``; whether the player closed the socket in time (noted if not)."""
    log = session.log
    await session.tell(f"done:{why}")
    log.answered.add(CLOSES)
    try:
        await asyncio.wait_for(session.stream.until_closed(), session.limits.close)
    except TimeoutError:
        limit = session.limits.close
        log.fail(CLOSES, f"sent 'done:…': the socket was still open {limit:g} s later")
        return False
    return True


async def _play(session: _Session) -> bool:
    """Play the session's group; whether the player closed the socket after ``done``."""
    log, group = session.log, session.log.group
    remaining = list(group.steps)
    logged_in = await _login(session, group.logins)
    while logged_in and remaining:
        step = remaining[0]
        if isinstance(step, str):
            await session.tell(step)
        elif not await _request(session, step):
            break
        remaining.pop(0)
    unasked = [step for step in remaining if isinstance(step, Probe)]
    log.lost |= {LEGAL, TIMELY, *(p.line for p in unasked if p.line)} if unasked else set()
    never = len(unasked) - 1 if logged_in else len(unasked)  # the first one was asked
    if never > 0:
        log.note += (
            f"; {never} {'more ' if logged_in else ''}request{'' if never == 1 else 's'} not asked"
        )
    if session.hung_up:
        log.lost.add(CLOSES)
        return False
    why = f"nonresponsive: {log.note}" if log.note else "the automatic tester is finished"
    return await _closes(session, why)


# ---------------------------------------------------------------- the program


async def check_player(command: Sequence[str] | Launch, clock: Clock, limits: Limits) -> Checked:
    """Run the player ``command`` (``{host}``/``{port}`` replaced; or a submission's
    :class:`~casino.stud.launch.Launch`, sandboxed) through every session."""
    launch = command if isinstance(command, Launch) else Launch(tuple(command))
    arrived: asyncio.Queue[FrameStream] = asyncio.Queue()
    finished = asyncio.Event()

    async def accept(stream: FrameStream) -> None:
        await arrived.put(stream)
        await finished.wait()

    servers: list[Listener] = []
    try:
        servers.append(await serve(accept))
        if launch.relayed:
            servers.append(await serve_unix(accept, launch.socket_path))
    except OSError as error:
        for server in servers:
            server.close()
        raise CasinoError(f"the tester cannot listen: {error.strerror or error}") from None
    port = bound_port(servers[0])
    logs: list[SessionLog] = []
    missing: SessionLog | None = None
    try:
        for number, group in enumerate(GROUPS, 1):
            if missing is not None:
                logs.append(_not_run(number, group, missing))
                continue
            await _drop_stale(arrived)
            logs.append(await _session(number, group, (launch, port), arrived, clock, limits))
            missing = None if logs[-1].connected else logs[-1]
    finally:
        finished.set()
        for server in servers:
            server.close()
        await _drop_stale(arrived)
    return Checked(score(logs), logs)


def _not_run(number: int, group: Group, missing: SessionLog) -> SessionLog:
    """The log of a session not run because the player did not connect in ``missing``."""
    note = f"not run: the player did not connect in session {missing.number}"
    return SessionLog(number, group, note=note, lost=set(group.lines))


async def _drop_stale(arrived: asyncio.Queue[FrameStream]) -> None:
    """Hang up connections left from an earlier session (a player that reconnected)."""
    while not arrived.empty():
        await arrived.get_nowait().close()


async def _session(
    number: int,
    group: Group,
    player: tuple[Launch, int],
    arrived: asyncio.Queue[FrameStream],
    clock: Clock,
    limits: Limits,
) -> SessionLog:
    """Start the player (its launch, the tester's port), play ``group`` with it, stop it;
    what happened."""
    log = SessionLog(number, group)
    launch, port = player
    process = await launch.start(port, asyncio.subprocess.PIPE)
    assert process.stderr is not None
    reading = asyncio.ensure_future(_read_stderr(process.stderr, log))
    start = clock.now()
    closed = False
    try:
        stream = await arrival(arrived, process, limits)
        if isinstance(stream, str):
            log.note = stream
            log.lost = set(group.lines)
        else:
            log.connected = True
            try:
                closed = await _play(_Session(stream, clock, limits, log))
            finally:
                await stream.close()
    finally:
        await launch.stop(process, limits.close if closed else 0.0)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(reading, limits.close)
        log.seconds = clock.now() - start
    return log


async def _read_stderr(pipe: asyncio.StreamReader, log: SessionLog) -> None:
    """Keep the first :data:`STDERR_KEPT` bytes of the player's stderr, count the rest; the
    line a JVM prints about the sandbox's ``JAVA_TOOL_OPTIONS`` is left out (the sandbox's
    doing, not the player's: :func:`~casino.harness.runners.base.quiet`)."""
    kept = bytearray()
    try:
        while chunk := await pipe.read(65536):
            room = max(0, STDERR_KEPT - len(kept))
            kept += chunk[:room]
            log.stderr_dropped += len(chunk) - len(chunk[:room])
            log.stderr = quiet(kept.decode("utf-8", "replace"))
    except (ConnectionError, OSError):
        return


async def arrival(
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


# ---------------------------------------------------------------- scoring


def score(logs: list[SessionLog]) -> list[CheckResult]:
    """Every rubric line's points and problems, from what happened in the sessions."""
    seconds = sum(log.seconds for log in logs)
    return [
        _connects(logs, seconds) if name == CONNECTS else _line(name, points, logs)
        for name, points in POINTS.items()
    ]


def _connects(logs: list[SessionLog], seconds: float) -> CheckResult:
    points = POINTS[CONNECTS]
    missed = [log for log in logs if not log.connected]
    if not missed:
        return CheckResult(CONNECTS, points, points, seconds=seconds)
    first = missed[0]
    problem = f"{first.title}: {first.note}"
    return CheckResult(CONNECTS, 0.0, points, [problem], seconds, [first.number])


def _line(name: str, points: float, logs: list[SessionLog]) -> CheckResult:
    probing = [log for log in logs if name in log.group.lines]
    share = points / len(probing)
    earned = sum(share for log in probing if log.earned(name))
    counted = Counter(
        f"{log.title}: {problem}" for log in probing for problem in log.problems.get(name, [])
    )
    problems = [f"{text} ({count} times)" if count > 1 else text for text, count in counted.items()]
    unanswered = [log for log in probing if name in log.lost and not log.problems.get(name)]
    if not any(name in log.answered for log in probing):
        problems.append("not answered")
    elif unanswered:
        problems.append(f"not answered in {_sessions([log.number for log in unanswered])}")
    lost = [log.number for log in probing if not log.earned(name)]
    return CheckResult(name, earned, points, problems, sessions=lost)


def _sessions(numbers: list[int]) -> str:
    """``session 3 (see below)``, ``sessions 2, 4 and 7 (see below)``."""
    if len(numbers) == 1:
        return f"session {numbers[0]} (see below)"
    listed = ", ".join(map(str, numbers[:-1]))
    return f"sessions {listed} and {numbers[-1]} (see below)"
