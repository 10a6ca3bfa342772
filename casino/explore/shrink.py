"""Shrinking a session on which the program differs: delta debugging, then simpler values.

Why delta debugging (Zeller's *ddmin*) and not hypothesis's shrinker: a test here is a run of
the student's program, as slow as a JVM start (0.3–0.5 s), and hypothesis's shrinker works
on the byte string its generator drew, where deleting one command shifts every later choice
(a game's moves, the answer to a question) and mostly yields sessions the reference refuses.
ddmin works on the session's own structure — runs, then commands with the lines they own,
then single lines — so every candidate is a real session, most are accepted, and the number
of runs it needs is logarithmic when one command matters. Each candidate is first checked
with the grammar's model and casino's reference in this process (tens a second) and only
then run through the student's program; results are cached by session.

The order: whole runs of a chain; within a run, the shortest prefix of its commands that
still differs (a binary search: the commands after the difference go in a few runs), then
whole commands (units) by ddmin; then lines within a command; then, one at a time, a name made
shorter everywhere it appears or a number made smaller (:meth:`Grammar.simpler`); repeated
until nothing more passes. Every step keeps a session that the reference accepts and on
which the program still differs, and each accepted step makes the session strictly smaller
(:attr:`Session.size`), so shrinking ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from casino.explore.plan import Grammar, Session, Unit

T = TypeVar("T")
Test = Callable[[Session], bool]
"""Whether a candidate still shows the difference (accepted by the reference, and the
program differs on it)."""
Ahead = Callable[[list[Session]], None]
"""Told the candidates about to be tested, in order (to judge them ahead, in parallel);
the test is still asked of each in that order, and the first that holds is kept."""


def ddmin(
    items: Sequence[T],
    fails: Callable[[list[T]], bool],
    ahead: Callable[[list[list[T]]], None] | None = None,
) -> list[T]:
    """A 1-minimal sublist of ``items`` on which ``fails`` holds (it holds on ``items``):
    remove chunks, halving their size when no chunk can go (Zeller and Hildebrandt, 2002).
    ``ahead`` is told, before each test, the candidates from that one on."""
    current = list(items)
    parts = 2
    while current:
        size = max(1, -(-len(current) // parts))
        candidates = [current[:s] + current[s + size :] for s in range(0, len(current), size)]
        for index, candidate in enumerate(candidates):
            if ahead is not None:
                ahead(candidates[index:])
            if fails(candidate):
                current = candidate
                parts = max(parts - 1, 2)
                break
        else:
            if size == 1:
                return current
            parts = min(parts * 2, len(current))
    return current


def shortest_prefix(
    items: Sequence[T],
    fails: Callable[[list[T]], bool],
    ahead: Callable[[list[list[T]]], None] | None = None,
) -> list[T]:
    """The shortest prefix of ``items`` on which ``fails`` holds, by binary search (it holds
    on ``items``; a difference seen after k commands is mostly seen after more, and where
    not, a longer prefix is kept, never a wrong one). ``ahead`` is told, before each test,
    that prefix and the two the search may test next."""
    low, high = 0, len(items)
    while low < high:
        middle = (low + high) // 2
        if ahead is not None:
            after = ((low + middle) // 2, (middle + 1 + high) // 2)
            ahead([list(items[:end]) for end in (middle, *after)])
        if fails(list(items[:middle])):
            high = middle
        else:
            low = middle + 1
    return list(items[:high])


def shrink(
    grammar: Grammar, session: Session, still_fails: Test, ahead: Ahead | None = None
) -> Session:
    """The smallest session found from ``session`` on which ``still_fails`` holds
    (``ahead``, if given, told the candidates about to be tested).

    Rounds of runs, commands, lines and values; another round only when the last one took
    lines away after its commands were cut (else removing commands again cannot help)."""
    current = session
    while True:
        before = current.size
        current = _runs(current, still_fails, ahead)
        current = _units(current, still_fails, ahead)
        cut = current.size
        current = _lines(current, still_fails, ahead)
        current = _values(grammar, current, still_fails, ahead)
        if current.size >= before or current.size[0] >= cut[0]:
            return current


def _told(
    ahead: Ahead | None, make: Callable[[list[T]], Session | None]
) -> Callable[[list[list[T]]], None] | None:
    """``ahead`` told the sessions ``make`` builds of ddmin's candidates (``None``: none)."""
    if ahead is None:
        return None
    told = ahead

    def tell(candidates: list[list[T]]) -> None:
        told([s for s in map(make, candidates) if s is not None])

    return tell


def _runs(session: Session, fails: Test, ahead: Ahead | None = None) -> Session:
    if len(session.runs) < 2:
        return session

    def make(runs: list[tuple[Unit, ...]]) -> Session | None:
        return session.with_runs(tuple(runs)) if runs else None

    kept = ddmin(
        session.runs,
        lambda runs: bool(runs) and fails(session.with_runs(tuple(runs))),
        _told(ahead, make),
    )
    return session.with_runs(tuple(kept))


def _units(session: Session, fails: Test, ahead: Ahead | None = None) -> Session:
    runs = list(session.runs)
    data = session.data
    for index in range(len(runs)):

        def make(units: list[Unit], index: int = index) -> Session:
            return Session((*runs[:index], tuple(units), *runs[index + 1 :]), data)

        def without(units: list[Unit]) -> bool:
            return fails(make(units))

        told = _told(ahead, make)
        prefix = shortest_prefix(runs[index], without, told)
        runs[index] = tuple(ddmin(prefix, without, told))
    return session.with_runs(tuple(runs))


def _lines(session: Session, fails: Test, ahead: Ahead | None = None) -> Session:
    runs = [list(run) for run in session.runs]
    for r, run in enumerate(runs):
        for u in range(len(run)):
            if len(run[u]) < 2:
                continue

            def make(lines: list[str], r: int = r, u: int = u) -> Session | None:
                trial = [list(each) for each in runs]
                trial[r][u] = tuple(lines)
                return _session_of(session, trial) if lines else None

            def without(lines: list[str]) -> bool:
                made = make(lines)
                return made is not None and fails(made)

            run[u] = tuple(ddmin(run[u], without, _told(ahead, make)))
    return _session_of(session, runs)


def _session_of(session: Session, runs: list[list[Unit]]) -> Session:
    return session.with_runs(tuple(tuple(run) for run in runs))


def _values(grammar: Grammar, session: Session, fails: Test, ahead: Ahead | None = None) -> Session:
    """Simpler names and numbers, one at a time: after a simpler session is kept, the
    candidates of the new session are tried from the same place on (not from the first
    again, which would run the program on every one that already failed), until a pass
    over them all keeps none."""
    start = 0
    while True:
        kept = False
        candidates: Iterable[Session] = grammar.simpler(session)
        if ahead is not None:
            candidates = list(candidates)
        for index, candidate in enumerate(candidates):
            if index < start:
                continue
            if ahead is not None:
                assert isinstance(candidates, list)
                ahead([c for c in candidates[index:] if c.size < session.size])
            if candidate.size < session.size and fails(candidate):
                session, start, kept = candidate, index, True
                break
        if not kept:
            if start == 0:
                return session
            start = 0
