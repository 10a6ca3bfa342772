"""Sessions made from those that reached new reference code (:mod:`casino.explore.corpus`):
each one change of whole units, pinned by the grammar, never one tried before, the same for
the same seed; and guidance tries them among its windows."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.explore import engine
from casino.explore.corpus import MAX_UNITS, Corpus
from casino.explore.coverage import Coverage
from casino.explore.engine import Budget, Explorer, sessions
from casino.explore.judge import Program
from casino.explore.nimsys import NimsysGrammar
from casino.explore.plan import Grammar, Session
from casino.explore.videopoker import VideoPokerGrammar
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner

C = NimsysGrammar("c")
VP = VideoPokerGrammar()


def _kept(grammar: Grammar, seed: int, count: int = 6) -> list[Session]:
    return list(itertools.islice(sessions(grammar, seed), count))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), wanted=st.integers(1, 8))
def test_every_made_session_is_one_change_of_whole_kept_units_and_pinned(
    seed: int, wanted: int
) -> None:
    for grammar in (C, VP):
        kept = _kept(grammar, seed)
        corpus = Corpus(grammar, seed)
        corpus.keep(kept)
        made = corpus.made(wanted)
        assert len(made) <= wanted and len(set(made)) == len(made)
        units = {unit for session in kept for run in session.runs for unit in run}
        for session in made:
            assert session not in kept
            assert grammar.unpinned(session) is None
            assert all(len(run) <= MAX_UNITS for run in session.runs)
            assert all(unit in units for run in session.runs for unit in run)
            assert any(
                len(session.runs) == len(k.runs)
                and sum(a != b for a, b in zip(session.runs, k.runs, strict=True)) == 1
                for k in kept
            )  # one run of a kept session changed


def test_the_same_seed_makes_the_same_sessions_and_none_twice() -> None:
    kept = _kept(C, 3)
    first, again = Corpus(C, 3), Corpus(C, 3)
    first.keep(kept)
    again.keep(kept)
    batch = first.made(6)
    assert batch == again.made(6) and batch
    assert not set(batch) & set(first.made(6))  # never made twice
    other = Corpus(C, 4)
    other.keep(kept)
    assert other.made(6) != batch


def test_nothing_is_made_before_anything_is_kept() -> None:
    assert Corpus(C, 0).made(4) == []


HONEST = Program(InProcessRunner(), Target("nimsys"))


def test_guided_windows_after_the_first_try_made_sessions_first() -> None:
    explorer = Explorer(C, HONEST, Budget(runs=2000), coverage=Coverage())
    tried = [session for _, session in explorer._numbered(0, 3 * engine.WINDOW)]
    generated = _kept(C, 0, 3 * engine.WINDOW)
    made = [session for session in tried if session not in generated]
    assert tried[: engine.WINDOW] != generated[: engine.WINDOW]  # (reordered, not made)
    assert set(tried[: engine.WINDOW]) == set(generated[: engine.WINDOW])
    assert 0 < len(made) <= 2 * engine.MADE
    assert all(C.unpinned(session) is None for session in made)
    assert len(tried) == 3 * engine.WINDOW  # --sessions counts them
