"""The explore loop: generate sessions, judge the program on each, shrink the first that
differs; within a budget of program runs and seconds, and interruptible.

Sessions come from one ``random.Random(seed)``; the first ones are short and they grow
(``size`` = 8 + the session's number / 2, at most :data:`MAX_SIZE`: longer sessions
find a bug in fewer runs of a slow program, and shrinking takes them apart in a logarithmic
number of runs), so a bug that a short
session shows is found on a short session. A session the reference does not accept is
skipped without running the program. Everything is deterministic from the seed, but where a
budget in seconds cuts it short.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from casino.errors import SetupError
from casino.explore.ahead import Ahead
from casino.explore.coverage import Arc, Coverage
from casino.explore.judge import Program, differs, judge, reference_transcript
from casino.explore.plan import Grammar, OptionalPart, Rendered, Session
from casino.explore.played import SEED_TRIES, Plays, one_game, reshaped
from casino.explore.recordings import Recordings
from casino.explore.shrink import shrink
from casino.harness.model import In, Out, OutAny, Transcript
from casino.harness.runners.base import FailureKind
from casino.harness.session import Status, TranscriptResult

MAX_SIZE = 24
"""The most commands a generated run has."""
PART_PROBES = 30
"""After the first difference, how many more sessions holding an optional part not yet
reported are tried (to report that part once)."""
WINDOW = 16
"""Coverage guidance orders the sessions of each window of this many: greedily, the one that
reaches the most reference code not reached yet first (on the mutation benchmark, greedy
found the median bug in 5 runs where the plain order takes 7; a stable split of new-code
sessions first, in 7)."""
PLAYS_SHARE = 0.1
"""The share of a budget in seconds the sessions leave to the grammar's plays (and a run for
each of them), so that a budget the sessions spend still plays the AI."""
SATURATED = 3
"""Coverage guidance stops (and the tracing with it) after this many windows in a row reached
no new reference code: the grammar's reach is then covered, and the order is the plain one."""


@dataclass(frozen=True)
class _Plan:
    """A window's sessions in the order they are tried, what each reached, how many of the
    first reach new code, and the scope (parts found) they were recorded in."""

    order: list[tuple[int, Session]]
    ran: dict[int, set[Arc]]
    new: int
    scope: int


class OutOfBudget(Exception):
    """Control flow, not an error: the budget (runs or seconds) is spent."""


class CannotRun(SetupError):
    """The program cannot be run at all (the harness's ``ERROR``); the message says why."""


@dataclass(frozen=True)
class Budget:
    """How much exploring may cost: program runs and seconds (``None``: no bound)."""

    runs: int | None = None
    seconds: float | None = None


@dataclass
class Found:
    """A session on which the program differs: as found, then as shrunk."""

    session: Session
    transcript: Transcript
    result: TranscriptResult
    number: int
    """Which generated session it was (1-based)."""
    find_runs: int
    find_seconds: float
    shrink_runs: int = 0
    shrink_seconds: float = 0.0
    shrunk: bool = False
    """Whether shrinking ran to its end (a budget or Ctrl-C may stop it early)."""
    part: OptionalPart | None = None
    """The optional part the difference lies in (it goes away without the part's units)."""
    group: str | None = None
    """The part of the assignment the first difference touches (:meth:`Explorer.explore`
    keeps one difference a group, and shrinking keeps it in its group); ``None``: any."""

    @property
    def played(self) -> bool:
        """Whether it is a play (games casino played against the program's AI) rather than a
        session: :attr:`transcript` has a ``play:`` block and :attr:`session` is empty."""
        return self.transcript.play is not None

    @property
    def lines(self) -> int:
        """Input lines typed in the (shrunk) transcript; for a program that reads files
        instead (video poker's cmd-file), the commands in them; 0 for a play (:attr:`played`:
        casino chooses its lines live, none are written down)."""
        typed = sum(len(run.inputs) for run in self.transcript.runs)
        return typed or self.session.size[0]


def sessions(grammar: Grammar, seed: int) -> Iterator[Session]:
    """The sessions explore tries, in order: endless, deterministic from ``seed``."""
    rng = random.Random(seed)
    number = 0
    while True:
        number += 1
        yield grammar.generate(rng, min(MAX_SIZE, 8 + number // 2))


@dataclass
class Explorer:
    """Explores one program against one grammar's reference."""

    grammar: Grammar
    program: Program
    budget: Budget = field(default_factory=Budget)
    progress: Callable[[str], None] | None = None
    clock: Callable[[], float] = time.monotonic
    runs: int = 0
    """Program runs so far."""
    tried: int = 0
    """Sessions the program was judged on."""
    games: int = 0
    """Games played against the program's AI in the grammar's plays (:meth:`play`)."""
    started: float = 0.0
    name: str = "explored session"
    _cache: dict[Rendered, tuple[Transcript, TranscriptResult] | None] = field(default_factory=dict)
    """Where the program differed, the transcript and verdict, by what it was given
    (arguments, lines, files); ``None`` where it did not (or the reference refused it)."""
    best: Found | None = None
    optional: list[Found] = field(default_factory=list)
    """Differences that lie in an optional part (one each): that part is left out of the
    sessions after it."""
    coverage: Coverage | None = None
    """Where given, the reference runs traced and the sessions of each :data:`WINDOW` are
    tried in the order that reaches new reference code soonest (what reached is kept here:
    its report is the reference coverage explore reached)."""
    _recorded: dict[Session, Transcript | None] = field(default_factory=dict)
    """Recordings the coverage guidance made, used once by :meth:`_try`."""
    jobs: int = 1
    """How many of the program's runs may go at once (``--jobs``): with more than one, the
    sessions and shrinking candidates to be tried next are judged ahead in worker processes
    (:mod:`casino.explore.ahead`); what is found is the same."""
    _ahead: Ahead | None = None
    _queue: deque[tuple[int, Session]] = field(default_factory=deque)
    """The numbered sessions :meth:`_numbered` yields next, as far as known."""
    _made: dict[Session, Transcript | None] = field(default_factory=dict)
    """Reference recordings made ahead (for judging ahead), used once."""
    recordings: Recordings | None = None
    """The reference's recordings kept between runs of explore (:mod:`casino.explore.recordings`):
    looked up before the reference is run, and added to; ``None``: always recorded afresh."""
    _warm: bool = False
    _kept: tuple[int, float] = (0, 0.0)
    """Runs and seconds of the budget the sessions leave to the plays while they are tried."""

    def __post_init__(self) -> None:
        self.started = self.clock()
        self._ahead = Ahead.of(self.program, self.jobs)

    def close(self, *, stopped: bool = False) -> None:
        """Stop judging ahead (what waits for a worker is dropped; ``stopped``: by a stop)."""
        if self._ahead is not None:
            self._ahead.close(stopped=stopped)
            self._ahead = None

    @property
    def parts(self) -> tuple[OptionalPart, ...]:
        """The grammar's optional parts (a bonus), if it has any."""
        parts: tuple[OptionalPart, ...] = getattr(self.grammar, "optional", ())
        return parts

    def _scoped(self, session: Session) -> Session:
        """The session without the optional parts already found to differ."""
        for found in self.optional:
            assert found.part is not None
            session = found.part.without(session)
        return session

    @property
    def seconds(self) -> float:
        """Seconds since the explorer started."""
        return self.clock() - self.started

    def _spend(self, runs: int) -> None:
        kept_runs, kept_seconds = self._kept
        spent = self.budget.runs is not None and self.runs + runs > self.budget.runs - kept_runs
        seconds = self.budget.seconds
        if spent or (seconds is not None and self.seconds >= seconds - kept_seconds):
            raise OutOfBudget
        self.runs += runs

    def _judge(self, transcript: Transcript) -> TranscriptResult:
        self._spend(len(transcript.runs))
        if self._ahead is None:
            result = judge(transcript, self.program)
        else:
            result = self._ahead.take(transcript)
        if result.status is Status.ERROR:
            raise CannotRun(result.error or "the program cannot be run")
        for verdict in result.verdicts:
            if verdict.problem and verdict.failure is FailureKind.CANNOT_START:
                raise CannotRun(verdict.problem)
        return result

    def find(self, seed: int, count: int) -> Found | None:
        """The first of ``count`` sessions on which the program differs (``None``: none,
        or the budget ran out first). A difference that lies in an optional part (a bonus)
        goes to :attr:`optional` instead, once a part, and the sessions after it are tried
        without that part; after the first other difference, up to :data:`PART_PROBES` more
        sessions holding a part not yet reported are tried for it. Where no session differs,
        the first of the grammar's plays the program fails (:meth:`play`)."""
        with self._keeping_for_plays(seed):
            main = self._find(seed, count)
        if main is None:
            main = self.best = self.play(seed)
        return main

    @contextlib.contextmanager
    def _keeping_for_plays(self, seed: int) -> Iterator[None]:
        """While the block runs (the sessions), a run for each of the grammar's plays and
        :data:`PLAYS_SHARE` of the seconds are kept out of the budget."""
        plays = self._plays(seed)
        if plays is not None:
            seconds = self.budget.seconds
            self._kept = (len(plays.transcripts), PLAYS_SHARE * seconds if seconds else 0.0)
        try:
            yield
        finally:
            self._kept = (0, 0.0)

    def _plays(self, seed: int) -> Plays | None:
        """The grammar's plays for ``seed`` (``None``: it has none)."""
        plays: Plays | None = getattr(self.grammar, "plays", lambda seed, name: None)(
            seed, self.name
        )
        return plays

    def _find(self, seed: int, count: int) -> Found | None:
        """:meth:`find`'s sessions (the plays are :meth:`find`'s own)."""
        last_note = self.clock()
        main: Found | None = None
        probes = 0
        for number, generated in self._numbered(seed, count):
            if main is not None:
                reported = {found.part for found in self.optional}
                if not any(p.has(generated) for p in self.parts if p not in reported):
                    if probes >= PART_PROBES or len(reported) == len(self.parts):
                        break
                    continue
                probes += 1
                if probes > PART_PROBES:
                    break
            try:
                found = self._try(number, self._scoped(generated), ahead=main is None)
            except OutOfBudget:
                break
            if found is not None and found.part is not None:
                self.optional.append(found)
                self._note(f"session {number} differs in {found.part.name} only")
            elif found is not None and main is None:
                main = self.best = found
                if not self.parts:
                    break
            if self.progress and main is None and self.clock() - last_note >= 2:
                last_note = self.clock()
                self._note(f"{self.tried} sessions, no difference yet")
        return main

    def _numbered(self, seed: int, count: int) -> Iterator[tuple[int, Session]]:
        """The first ``count`` sessions with their numbers: in their order, or, with
        :attr:`coverage`, each window's in the order that reaches new code soonest. The next
        window is recorded and ordered while this one is tried (its order is known then:
        what this one's sessions reach), so that it can be judged ahead across the window's
        end; it is made again if a part found meanwhile changed the sessions' scope."""
        numbered = enumerate(itertools.islice(sessions(self.grammar, seed), count), 1)
        self._queue.clear()
        if self.coverage is None or getattr(self.grammar, "record", None) is not None:
            yield from self._queued(numbered)  # no guidance, or a reference outside this process
            return
        coverage, quiet = self.coverage, 0
        self._recorded.clear()  # the last find's, never tried (a budget, a break)
        window = list(itertools.islice(numbered, WINDOW))
        plan = self._plan(window, set(coverage.arcs)) if window else None
        while plan is not None:
            if plan.scope != len(self.optional):  # a part found since it was made
                plan = self._plan(window, set(coverage.arcs))
            quiet = 0 if plan.new else quiet + 1
            self._queue.extend(plan.order)  # the whole order known: it can be judged ahead
            upcoming, plan_next = [], None
            if quiet < SATURATED and (upcoming := list(itertools.islice(numbered, WINDOW))):
                news = (plan.ran[number] for number, _ in plan.order[: plan.new])
                reached = set(coverage.arcs).union(*news)
                plan_next = self._plan(upcoming, reached)
                self._queue.extend(plan_next.order)
            for index in range(len(window)):
                each = self._queue.popleft()
                if index < plan.new:  # counted as reached when tried (a break leaves the rest out)
                    coverage.add(plan.ran[each[0]])
                yield each
            self._queue.clear()  # the next window's order again, from its (current) plan
            window, plan = upcoming, plan_next
        yield from self._queued(numbered)

    def _queued(self, numbered: Iterator[tuple[int, Session]]) -> Iterator[tuple[int, Session]]:
        """``numbered`` in its order, the next ones drawn ahead into :attr:`_queue` (drawing
        is deterministic and touches nothing else) so that they can be judged ahead."""
        wanted = 1 if self._ahead is None else 2 * self._ahead.jobs
        while True:
            while len(self._queue) < wanted and (item := next(numbered, None)) is not None:
                self._queue.append(item)
            if not self._queue:
                return
            yield self._queue.popleft()

    def _plan(self, window: list[tuple[int, Session]], reached: set[Arc]) -> _Plan:
        """``window``'s sessions recorded under the tracer (or kept from an earlier run),
        then greedily: the one reaching the most code not in ``reached`` (the first of
        equals), and so on; then those reaching nothing new, in their order."""
        assert self.coverage is not None
        ran = {}
        for number, session in window:
            scoped = self._scoped(session)
            kept = None
            if self.recordings is not None:
                kept = self.recordings.get(scoped, self.name, traced=True)
            if kept is not None:
                self._recorded[scoped], ran[number] = kept[0], set(kept[1] or ())
                continue
            if not self._warm:  # a warm-up: what runs once a process (lazy imports) not counted
                reference_transcript(self.grammar, self._scoped(window[0][1]), self.name)
                self._warm = True
            with self.coverage.tracing() as arcs:
                self._recorded[scoped] = reference_transcript(self.grammar, scoped, self.name)
            ran[number] = arcs
            if self.recordings is not None:
                self.recordings.put(scoped, self._recorded[scoped], arcs)
        left, new = list(window), []
        reached = set(reached)
        while left:
            best = max(left, key=lambda each: len(ran[each[0]] - reached))
            if not ran[best[0]] - reached:
                break  # no session left reaches new code
            reached |= ran[best[0]]
            left.remove(best)
            new.append(best)
        return _Plan(new + left, ran, len(new), len(self.optional))

    def _try(self, number: int, session: Session, *, ahead: bool = False) -> Found | None:
        """The session judged: a :class:`Found` if the program differs on it (with
        ``ahead``, the sessions queued after it judged ahead meanwhile)."""
        if session in self._recorded:
            transcript = self._recorded.pop(session)
        else:
            transcript = self._reference(session)
        if transcript is None:
            return None
        if ahead and self._ahead is not None:
            self._judge_ahead([transcript], (self._scoped(each) for _, each in self._queue))
        result = self._judge(transcript)
        self.tried += 1
        key = self.grammar.render(session)
        self._cache.setdefault(key, (transcript, result) if differs(result) else None)
        if not differs(result):
            return None
        found = Found(session, transcript, result, number, self.runs, self.seconds)
        return self._outside_parts(found)

    def _outside_parts(self, found: Found) -> Found:
        """``found`` marked as lying in an optional part where its first difference is in
        the output of the part's unit, or goes away without the part's units; else
        ``found``, without the parts' units where it still differs then."""
        unit = blamed_unit(found)
        for part in self.parts:
            if unit is not None and part.owns(unit):
                found.part = part
                return found
            if not part.has(found.session):
                continue
            session = part.without(found.session)
            transcript = self._record(session)
            if transcript is None:
                continue  # the reference needs the part's units here: cannot tell
            result = self._judge(transcript)
            if differs(result):
                found.session, found.transcript, found.result = session, transcript, result
            else:
                found.part = part
                return found
        return found

    def shrink(self, found: Found) -> Found:
        """``found`` shrunk (as far as the budget lets; ``found`` — :attr:`best` for the main
        difference — is kept up to date, so a Ctrl-C keeps the smallest session so far)."""
        runs, started = self.runs, self.seconds
        what = "play" if found.played else "session"
        if not found.played:
            self._note(f"session {found.number} differs ({found.lines} lines); shrinking")

        def still_fails(candidate: Session) -> bool:
            if found.part is not None and not found.part.has(candidate):
                return False  # a difference in an optional part stays in it
            judged = self._differs_on(candidate)
            if judged is None:
                return False
            transcript, result = judged
            if found.group is not None and found.part is None:
                trial = Found(candidate, transcript, result, found.number, 0, 0.0)
                if self.group_of(trial) != found.group:
                    return False  # another group's difference
            found.session, found.transcript, found.result = candidate, transcript, result
            return True

        def ahead(candidates: list[Session]) -> None:
            if found.part is not None:
                candidates = [each for each in candidates if found.part.has(each)]
            self._judge_ahead([], candidates)

        try:
            if found.played:
                self._shrink_play(found)
            else:
                shrink(self.grammar, found.session, still_fails, ahead if self._ahead else None)
            found.shrunk = True
        except OutOfBudget:
            self._note(f"the budget ran out while shrinking: the smallest {what} so far is kept")
        finally:
            found.shrink_runs = self.runs - runs
            found.shrink_seconds = self.seconds - started
        return found

    def _shrink_play(self, found: Found) -> None:
        """A failed play made the smallest that still fails: the fewest stones whose games
        fail (each size's games in one play, the fewest first), then one game of them (the
        first of :data:`~casino.explore.played.SEED_TRIES` seeds that fails), else that size's
        games; who moves first and how the rival plays are kept."""
        play, seed = found.transcript.play, found.transcript.seed or 0
        assert play is not None
        if one_game(found.transcript):
            return
        for size in sorted(play.sizes):
            if not self._play_fails(reshaped(found.transcript, size, play.games, seed), found):
                continue
            candidates = [reshaped(found.transcript, size, 1, seed + n) for n in range(SEED_TRIES)]
            for index, candidate in enumerate(candidates):
                if self._ahead is not None:
                    self._ahead.submit(candidates[index : index + 2 * self._ahead.jobs])
                if self._play_fails(candidate, found):
                    return
            return

    def _play_fails(self, candidate: Transcript, found: Found) -> bool:
        """Whether the program fails the play ``candidate`` (``found`` then becomes it)."""
        if candidate == found.transcript:
            return True
        result = self._judge(candidate)
        if differs(result):
            found.transcript, found.result = candidate, result
            return True
        return False

    def _reference(self, session: Session) -> Transcript | None:
        """The reference's recording of ``session`` (made now, or ahead)."""
        if session in self._made:
            return self._made.pop(session)
        return self._record(session)

    def _record(self, session: Session) -> Transcript | None:
        """The reference's recording of ``session``: kept from an earlier run, or made now."""
        if self.recordings is None:
            return reference_transcript(self.grammar, session, self.name)
        kept = self.recordings.get(session, self.name)
        if kept is not None:
            return kept[0]
        transcript = reference_transcript(self.grammar, session, self.name)
        self.recordings.put(session, transcript, None)
        return transcript

    def _judge_ahead(self, first: list[Transcript], then: Iterable[Session]) -> None:
        """``first``, then the recordings of ``then`` the reference accepts (made here, on
        the main thread, and kept for :meth:`_reference`) judged ahead while workers are free."""
        assert self._ahead is not None
        transcripts = list(first)
        for session in then:
            if len(transcripts) >= 2 * self._ahead.jobs or self._ahead.busy >= self._ahead.jobs:
                break
            if session in self._recorded:
                transcript = self._recorded[session]
            elif self.grammar.render(session) in self._cache:
                continue  # its verdict is known
            else:
                if session not in self._made:
                    self._made[session] = self._record(session)
                transcript = self._made[session]
            if transcript is not None:
                transcripts.append(transcript)
        self._ahead.submit(transcripts)

    def _differs_on(self, session: Session) -> tuple[Transcript, TranscriptResult] | None:
        """The transcript and verdict where the program differs on ``session`` (cached)."""
        key = self.grammar.render(session)
        if key not in self._cache:
            transcript = self._reference(session)
            judged = None
            if transcript is not None:
                result = self._judge(transcript)
                judged = (transcript, result) if differs(result) else None
            self._cache[key] = judged
        return self._cache[key]

    def group_of(self, found: Found) -> str:
        """The part of the assignment ``found``'s first difference touches: its optional
        part's name, else the grammar's ``group`` of the unit that holds it (``commands``
        without one)."""
        if found.part is not None:
            return found.part.name
        if found.played and found.group is not None:
            return found.group
        by_line = getattr(self.grammar, "group_of_line", None)
        line = blamed_output_line(found.transcript, found.result)
        if by_line is not None and line is not None:
            named: str = by_line(line)
            return named
        grouping = getattr(self.grammar, "group", None)
        where = blamed_index(found)
        if grouping is None or where is None:
            return "commands"
        group: str = grouping(found.session, *where)
        return group

    def explore(self, seed: int, count: int) -> list[Found]:
        """Every group's first difference in ``count`` sessions (or as many as the budget
        lets), in the order found: exploring goes on after a difference, and a difference
        in a group already found is passed over."""
        found: list[Found] = []
        groups: set[str] = set()
        with self._keeping_for_plays(seed):
            for number, generated in self._numbered(seed, count):
                try:
                    each = self._try(number, self._scoped(generated), ahead=True)
                except OutOfBudget:
                    break
                if each is None:
                    continue
                each.group = self.group_of(each)
                if each.group in groups:
                    continue
                groups.add(each.group)
                found.append(each)
                if each.part is not None:
                    self.optional.append(each)
                elif self.best is None:
                    self.best = each
                self._note(f"session {number} differs in {each.group}")
        played = self.play(seed)
        if played is not None and played.group not in groups:
            found.append(played)
            self.best = self.best or played
        return found

    def play(self, seed: int) -> Found | None:
        """The first of the grammar's plays (``plays(seed, name)``, :mod:`casino.explore.played`)
        the program fails, judged after the sessions; ``None``: none failed, the grammar has
        none, their optional part was found to differ (not attempted: reported once, as
        such), or the budget ran out."""
        plays = self._plays(seed)
        if plays is None or any(found.part == plays.part for found in self.optional):
            return None
        if self._ahead is not None:
            self._ahead.submit(plays.transcripts)
        for number, transcript in enumerate(plays.transcripts, 1):
            try:
                result = self._judge(transcript)
            except OutOfBudget:
                return None
            assert transcript.play is not None
            self.games += transcript.play.total
            if differs(result):
                self._note(f"play {number} of {len(plays.transcripts)} fails in {plays.group}")
                found = Found(Session(()), transcript, result, number, self.runs, self.seconds)
                found.group = plays.group
                return found
        return None

    def _note(self, text: str) -> None:
        if self.progress:
            self.progress(f"casino explore: {text} ({self.runs} runs, {self.seconds:.1f} s)")


def blamed_line(transcript: Transcript, result: TranscriptResult) -> tuple[int, int] | None:
    """Where the first difference is: the run (0-based) and the input line whose output
    holds it (0-based; -1: before the first line), or ``None`` if no run's output differs."""
    for index, verdict in enumerate(result.verdicts):
        difference = verdict.output.difference
        if difference is None:
            continue
        typed, printed = -1, 0
        for step in transcript.runs[index].steps:
            if isinstance(step, In):
                typed += 1
            elif isinstance(step, Out | OutAny):
                printed += len(step.text if isinstance(step, Out) else step.texts[0])
                if printed > difference.offset:
                    return index, typed
        return index, typed
    return None


def blamed_output_line(transcript: Transcript, result: TranscriptResult) -> str | None:
    """The line of the expected output (the reference's) where the first difference is
    (``None``: no run's output differs)."""
    for index, verdict in enumerate(result.verdicts):
        difference = verdict.output.difference
        if difference is None:
            continue
        expected = "".join(
            step.text if isinstance(step, Out) else step.texts[0]
            for step in transcript.runs[index].steps
            if isinstance(step, Out | OutAny)
        )
        start = expected.rfind("\n", 0, difference.offset) + 1
        end = expected.find("\n", difference.offset)
        return expected[start : end if end >= 0 else len(expected)]
    return None


def blamed_index(found: Found) -> tuple[int, int | None] | None:
    """The run (0-based) holding the first difference, and the index of the unit whose
    output holds it (``None``: before the first unit or after the last); ``None`` if no
    run's output differs."""
    where = blamed_line(found.transcript, found.result)
    if where is None or where[0] >= len(found.session.runs):
        return None
    run, line = where
    if line < 0:
        return run, None
    for index, unit in enumerate(found.session.runs[run]):
        if line < len(unit):
            return run, index
        line -= len(unit)
    return run, None


def blamed_unit(found: Found) -> tuple[str, ...] | None:
    """The unit of the session whose output holds the first difference (``None``: before
    the first unit, after the last, or no output differs)."""
    where = blamed_index(found)
    if where is None or where[1] is None:
        return None
    return found.session.runs[where[0]][where[1]]
