"""New sessions made from those that reached new reference code, as a fuzzer mutates its
corpus: coverage guidance (:mod:`casino.explore.engine`) keeps each session that reached
reference code no earlier one reached, and the next window starts with a few sessions made
from them by one change of whole units (a command with the lines it owns):

- *splice*: the first units of one kept session's run, then the last units of another's;
- *insert*: a unit of another kept session put in at some place;
- *repeat*: a unit typed again right after itself (a command twice: the second sees what
  the first did);
- *swap*: two units next to each other in the other order;
- *drop*: a unit left out (what follows sees the state without it).

Every change keeps the grammar's units whole, so a made session is one the grammar could
have written; it is kept only where the grammar says the assignment still pins it
(:meth:`~casino.explore.plan.Grammar.unpinned` is ``None``), it is not one already made or
kept, and no run grows past :data:`MAX_UNITS`. Made from ``random.Random`` seeded by the
explore seed, in the order the sessions were kept: the same seed gives the same sessions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from casino.explore.plan import Grammar, Session, Unit

MAX_UNITS = 24
"""The most units a made session's run may have (a generated run has at most this many)."""
TRIES = 8
"""How many changes are tried for each session wanted (most are refused by the grammar or
already made)."""

Run = tuple[Unit, ...]
Change = Callable[[random.Random, Run, Run], Run]


def _splice(rng: random.Random, run: Run, other: Run) -> Run:
    return run[: rng.randint(0, len(run))] + other[rng.randint(0, len(other)) :]


def _insert(rng: random.Random, run: Run, other: Run) -> Run:
    if not other:
        return run
    at = rng.randint(0, len(run))
    return (*run[:at], rng.choice(other), *run[at:])


def _repeat(rng: random.Random, run: Run, _other: Run) -> Run:
    if not run:
        return run
    at = rng.randrange(len(run))
    return (*run[: at + 1], run[at], *run[at + 1 :])


def _swap(rng: random.Random, run: Run, _other: Run) -> Run:
    if len(run) < 2:
        return run
    at = rng.randrange(len(run) - 1)
    return (*run[:at], run[at + 1], run[at], *run[at + 2 :])


def _drop(rng: random.Random, run: Run, _other: Run) -> Run:
    if not run:
        return run
    at = rng.randrange(len(run))
    return run[:at] + run[at + 1 :]


CHANGES: tuple[Change, ...] = (_splice, _insert, _repeat, _swap, _drop)
"""The changes, each as likely."""


@dataclass
class Corpus:
    """The sessions that reached new reference code, and the sessions made from them."""

    grammar: Grammar
    seed: int
    kept: list[Session] = field(default_factory=list)
    _seen: set[Session] = field(default_factory=set)
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"corpus {self.seed}")  # (a str seed: no hash randomization)

    def keep(self, sessions: Iterable[Session]) -> None:
        """Keep ``sessions`` (they reached new reference code) to make sessions from."""
        for session in sessions:
            if session not in self._seen:
                self._seen.add(session)
                self.kept.append(session)

    def seen(self, session: Session) -> None:
        """Note a session tried anyway (generated), so that none is made twice."""
        self._seen.add(session)

    def made(self, wanted: int) -> list[Session]:
        """Up to ``wanted`` new sessions, each one change of a kept session (none when
        nothing is kept yet)."""
        out: list[Session] = []
        for _ in range(wanted * TRIES if self.kept else 0):
            if len(out) == wanted:
                break
            session = self._changed()
            if session is None or session in self._seen:
                continue
            self._seen.add(session)
            if self.grammar.unpinned(session) is None:
                out.append(session)
        return out

    def _changed(self) -> Session | None:
        rng = self._rng
        session, other = rng.choice(self.kept), rng.choice(self.kept)
        if not session.runs:
            return None
        index = rng.randrange(len(session.runs))
        donor = other.runs[min(index, len(other.runs) - 1)] if other.runs else ()
        run = rng.choice(CHANGES)(rng, session.runs[index], donor)
        if len(run) > MAX_UNITS or run == session.runs[index] or not any(run):
            return None
        runs = (*session.runs[:index], run, *session.runs[index + 1 :])
        return session.with_runs(runs)
