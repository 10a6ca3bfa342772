"""Simulation: the two engines agree hand for hand, the tables agree with the strategy, the
result follows the seed and not --jobs, the credit never goes below the bet, and a million
hands look like Double Bonus (measured in benchmarks/bench_videopoker.py)."""

from __future__ import annotations

import random
from math import comb

import pytest
from syrupy.assertion import SnapshotAssertion

from casino.cards import FULL_DECK
from casino.cards.combos import N_HANDS, hand_number
from casino.videopoker import simulate as sim
from casino.videopoker.handtable import PAYLINES
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayLine
from casino.videopoker.progress import ERASE, Progress
from casino.videopoker.simtable import SimTables, final_lines, held_kind, load_tables
from casino.videopoker.stats import render_table
from casino.videopoker.strategy import advise

from .conftest import TerminalInput, run

RETURNS = tuple(DOUBLE_BONUS_10_7.payout(line, 5) for line in PAYLINES)

SEED_STRATEGY_PROBABILITIES = {
    PayLine.ROYAL_FLUSH: 0.0000198204,
    PayLine.STRAIGHT_FLUSH: 0.0001108018,
    PayLine.FOUR_ACES: 0.0002021269,
    PayLine.FOUR_2_4: 0.0005242527,
    PayLine.FOUR_5_K: 0.0016108060,
    PayLine.FULL_HOUSE: 0.0112103785,
    PayLine.FLUSH: 0.0152866098,
    PayLine.STRAIGHT: 0.0147110876,
    PayLine.THREE_OF_A_KIND: 0.0724296014,
    PayLine.TWO_PAIR: 0.1249089106,
    PayLine.JACKS_OR_BETTER: 0.1903853403,
    PayLine.NOTHING: 0.5686002641,
}
"""Exact final-hand probabilities of the seed strategy at bet 5, from the exact analyzer
(``casino videopoker analyze --strategy seed``: return 100.1465801177%)."""


def unrank(number: int) -> tuple[int, int, int, int, int]:
    """The ascending card indices of hand ``number`` (inverse of ``hand_number``)."""
    cards = []
    for k in range(5, 0, -1):
        card = k - 1
        while comb(card + 1, k) <= number:
            card += 1
        cards.append(card)
        number -= comb(card, k)
    a, b, c, d, e = reversed(cards)
    return a, b, c, d, e


def strategy_entry(number: int) -> tuple[int, int]:
    hand = unrank(number)
    return held_kind(hand, advise([FULL_DECK[card] for card in hand]).held)


class _Lazy:
    """A table column computed on demand from the strategy (no ten-second build)."""

    def __init__(self, part: int) -> None:
        self.part = part

    def __getitem__(self, number: int) -> int:
        return strategy_entry(number)[self.part]


def lazy_tables() -> SimTables:
    plain, flush = final_lines()
    return SimTables(_Lazy(0), _Lazy(1), plain, flush)  # type: ignore[arg-type]


def test_unrank_inverts_hand_number() -> None:
    rng = random.Random(5)
    for number in [0, 1, N_HANDS - 1, *(rng.randrange(N_HANDS) for _ in range(200))]:
        assert hand_number(unrank(number)) == number


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_engines_agree_hand_for_hand(seed: int) -> None:
    rng_a, rng_b = sim.chunk_rng(seed, 0), sim.chunk_rng(seed, 0)
    reference = sim.play_with_strategy(rng_a, 1500, 10**9, 5, RETURNS)
    fast = sim.play_with_tables(rng_b, 1500, 10**9, 5, RETURNS, lazy_tables())
    assert reference == fast
    assert reference.played == 1500 and sum(reference.counts) == 1500
    assert rng_a.random() == rng_b.random()  # and read the same amount of randomness


def test_final_lines_agree_with_the_evaluator() -> None:
    plain, flush = final_lines()
    assert len(plain) == 6175 and len(flush) == 1287
    code = {line: index for index, line in enumerate(PAYLINES)}
    assert flush[41 * 37 * 31 * 29 * 23] == code[PayLine.ROYAL_FLUSH]
    assert plain[41 * 37 * 31 * 29 * 23] == code[PayLine.STRAIGHT]
    assert plain[41**4 * 2] == code[PayLine.FOUR_ACES]
    assert plain[41**2 * 2 * 3 * 5] == code[PayLine.JACKS_OR_BETTER]


def test_a_stream_that_runs_dry_is_topped_up_mid_hand() -> None:
    class Tiny(random.Random):
        """A generator whose byte blocks are short, so hands straddle the refills."""

        def randbytes(self, n: int) -> bytes:
            return super().randbytes(7)

    a = sim.play_with_strategy(Tiny(3), 400, 10**9, 5, RETURNS)
    b = sim.play_with_tables(Tiny(3), 400, 10**9, 5, RETURNS, lazy_tables())
    assert a == b and a.played == 400


def test_runs_stop_when_the_credit_no_longer_covers_the_bet() -> None:
    stats = sim.simulate(12, 5, 1000, seed=3)
    assert stats.deals < 1000 and stats.credit < 5
    assert stats.credit == 12 - stats.wagered + stats.returned


@pytest.fixture(scope="module")
def tables() -> SimTables:
    """The real tables (built once per cache, about five seconds)."""
    return load_tables()


def test_the_tables_hold_what_the_strategy_holds(tables: SimTables) -> None:
    rng = random.Random(8)
    for number in [0, N_HANDS - 1, *(rng.randrange(N_HANDS) for _ in range(3000))]:
        kind, product = strategy_entry(number)
        assert (tables.kinds[number], tables.products[number]) == (kind, product), number


def test_a_long_run_follows_the_seed_not_the_jobs(
    tables: SimTables, snapshot: SnapshotAssertion
) -> None:
    deals = 3 * sim.CHUNK + 5
    one = sim.simulate(10**7, 5, deals, seed=2016)
    two = sim.simulate(10**7, 5, deals, seed=2016, jobs=2)
    assert one == two and one.deals == deals
    assert one != sim.simulate(10**7, 5, deals, seed=2017)
    assert "\n".join(render_table(one, one.credit)) == snapshot
    for line, probability in SEED_STRATEGY_PROBABILITIES.items():
        spread = (deals * probability * (1 - probability)) ** 0.5
        assert abs(one.counts[line] - deals * probability) < 4 * spread + 1, line


def test_a_run_that_runs_out_gives_the_same_with_jobs(tables: SimTables) -> None:
    deals = 2 * sim.CHUNK
    one = sim.simulate(400, 5, deals, seed=4)
    two = sim.simulate(400, 5, deals, seed=4, jobs=2)
    assert one == two and one.deals < deals and one.credit < 5


def test_small_and_large_runs_use_different_engines_for_the_same_hands(
    tables: SimTables, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_strategy = sim.simulate(10**6, 3, 5000, seed=77)
    monkeypatch.setattr(sim, "TABLES_FROM", 1)
    assert sim.simulate(10**6, 3, 5000, seed=77) == by_strategy


def test_the_command_prints_only_the_table() -> None:
    result = run(["-s", "10000", "5", "300", "--seed", "1"])
    assert result.status == 0 and result.err == ""
    lines = result.out.splitlines()
    assert len(lines) == 13 and lines[0].startswith("Hand") and lines[-1].startswith("Credit")
    assert lines[-2].split() == ["Total", "300"]
    assert run(["-s", "10000", "5", "300", "--seed", "1"]) == result


def test_progress_goes_to_a_terminal_stderr_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from casino.videopoker.cli import main

    err = TerminalInput()
    out = io.StringIO()
    assert main(["-s", "100", "1", "50", "--seed", "1"], stdout=out, stderr=err) == 0
    assert "simulating: 100% (50 of 50 deals)" in err.getvalue()
    assert out.getvalue() == run(["-s", "100", "1", "50", "--seed", "1"]).out


def test_the_strategy_table_build_shows_progress_on_a_terminal_stderr(
    tables: SimTables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build itself is stood in for (it reports as it goes: test_progress.py)."""
    import io

    from casino.videopoker.cli import main

    def build_then_load(progress: Progress | None = None) -> SimTables:
        if progress is not None:
            progress(0, 8)
            progress(8, 8)
        return tables

    monkeypatch.setattr(sim, "load_tables", build_then_load)
    err, out = TerminalInput(), io.StringIO()
    deals = str(sim.TABLES_FROM)
    assert main(["-s", "1000000", "1", deals, "--seed", "1"], stdout=out, stderr=err) == 0
    assert err.getvalue() == (
        f"{ERASE}building the strategy table (once): 0%"
        f"{ERASE}building the strategy table (once): 100%"
        f"{ERASE}simulating: 100% ({deals} of {deals} deals)"
        f"{ERASE}"
    )
    piped = run(["-s", "1000000", "1", deals, "--seed", "1"])  # stderr not a terminal: silence
    assert (piped.out, piped.err) == (out.getvalue(), "")


def test_a_run_out_of_credit_says_so_on_stderr() -> None:
    result = run(["-s", "6", "5", "1000", "--seed", "5"])
    assert result.status == 0 and result.err.startswith("videopoker: the credit ran out after")
    assert result.out.splitlines()[-1].startswith("Credit")
