"""``casino videopoker analyze``: the printed tables, the advisor, and one-line errors."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from casino.videopoker import analyze as analyze_command
from casino.videopoker.analyze import decimal, main
from casino.videopoker.analyzer import PARTS_PER_JOB, Analysis, analyze
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayTable
from casino.videopoker.progress import ERASE, Progress

from .conftest import TerminalInput


def run(*argv: str, stderr: io.StringIO | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), stderr or io.StringIO()
    status = main(list(argv), stdin=io.StringIO(), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_jacks_or_better_table(snapshot: SnapshotAssertion) -> None:
    """On a terminal, the analysis shows how far it is on stderr, and erases it."""
    status, out, err = run(
        "--paytable", "jacks-or-better-9-6", "--jobs", "1", stderr=TerminalInput()
    )
    assert status == 0
    parts = PARTS_PER_JOB
    assert (
        err
        == "".join(
            f"{ERASE}analyzing optimal play: {done * 100 // parts}%" for done in range(parts + 1)
        )
        + ERASE
    )
    assert "return 1653526326983/1661102543100 = 99.5439043695%\n" in out
    assert out == snapshot


def test_one_hand_advisor(snapshot: SnapshotAssertion) -> None:
    status, out, err = run("--hand", "AC KC QC JC 2C", "--seed", "3")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 2 + 32
    assert lines[2] == " 1  AC KC QC JC --      93.1914893617  4380/47"
    assert out == snapshot


def test_the_seed_strategy_s_hold_is_marked_among_the_32() -> None:
    """The seed holds a lone ace (its line 29), where holding the queen too is worth more."""
    args = ("--hand", "9H QD 8C AH 5D", "--strategy", "seed")
    status, out, err = run(*args, stderr=TerminalInput())
    assert status == 0 and err == f"{ERASE}analyzing the hand: its 32 holds{ERASE}"
    lines = out.splitlines()
    assert lines[2:4] == [
        " 1  -- QD -- AH --       2.2466851681  7286/3243",
        " 2  -- -- -- AH --       2.2435735710  80035/35673  <- seed: 29. Ace",
    ]
    assert sum("<- seed" in line for line in lines) == 1
    cost = Fraction(7286, 3243) - Fraction(80035, 35673)
    assert lines[-1] == f"the seed strategy holds #2: {decimal(cost, 10)} credits below #1"
    assert len(lines) == 2 + 32 + 1
    optimal = run("--hand", "9H QD 8C AH 5D")[1]
    assert [line.split("  <-")[0] for line in lines[:-1]] == optimal.splitlines()


def test_seed_strategy_is_compared_with_optimal_play(
    optimal_double_bonus: Analysis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed's strategy is analyzed here; optimal play is the session's one analysis (the
    same call, ``analyze(DOUBLE_BONUS_10_7, 5, jobs=2)``, whose figure test_analyzer checks)."""
    calls: list[tuple[object, ...]] = []

    def once(table: PayTable, bet: int = 5, **options: Any) -> Analysis:
        calls.append((table.name, bet, options.get("strategy", "optimal"), options["jobs"]))
        if "chooser" not in options and (table, bet, options["jobs"]) == (DOUBLE_BONUS_10_7, 5, 2):
            return optimal_double_bonus
        return analyze(table, bet, **options)

    monkeypatch.setattr(analyze_command, "analyze", once)
    status, out, err = run("--strategy", "seed", "--jobs", "2")
    assert calls == [
        (DOUBLE_BONUS_10_7.name, 5, "optimal", 2),
        (DOUBLE_BONUS_10_7.name, 5, "seed", 2),
    ]
    assert (status, err) == (0, "")
    seed = Fraction(25205111957, 25168220350)
    optimal = Fraction(18086612134, 18055462425)
    assert seed < optimal
    assert out.startswith(
        "pay table double-bonus-10-7, 5 credits bet, seed strategy\n"
        "return 25205111957/25168220350 = 100.1465801177%\n"
    )
    assert out.endswith(
        "optimal strategy: return 18086612134/18055462425 = 100.1725223551%\n"
        f"the seed strategy costs {decimal((optimal - seed) * 100, 10)}% of every credit bet\n"
    )


def test_custom_pay_table_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bonus.txt").write_text(
        "# jacks or better 9/6 with a bigger royal\n"
        "royal flush 250 500 750 1000 5000\nSTRAIGHT FLUSH 50\nFOUR OF A KIND 25\n"
        "FULL HOUSE 9\nFLUSH 6\nSTRAIGHT 4\nTHREE OF A KIND 3\nTWO PAIR 2\nJACKS OR BETTER 1\n"
    )
    status, out, err = run("--paytable", "bonus.txt", "--hand", "AC KC QC JC 2C")
    assert (status, err) == (0, "")
    assert out.splitlines()[:3] == [
        "hand AC KC QC JC 2C, pay table bonus, 5 credits bet",
        " #  hold              expected return  exact",
        " 1  AC KC QC JC --     113.4042553191  5330/47",  # royal, 7 flushes, 3 straights, 12 pairs
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paytable", "nope"], "no pay table 'nope': not one of double-bonus-10-7, "),
        (["--paytable", "."], "cannot read pay table file .: Is a directory"),
        (["--paytable", "logo.png"], "cannot read pay table file logo.png: not a UTF-8 text file"),
        (["--paytable", "bad.txt"], "bad.txt: line 2: unknown hand 'FIVE ACES'"),
        (["--bet", "6"], "--bet must be 1 to 5, not 6"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["--hand", "AC KC"], "--hand needs 5 distinct cards, not 'AC KC'"),
        (["--hand", "AC KC QC JC XX"], "not a card: 'XX'"),
        (["--strategy", "best"], "argument --strategy: invalid choice: 'best'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_arguments_are_one_line_on_stderr(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.txt").write_text("FULL HOUSE 9\nFIVE ACES 400\n")
    Path("logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"casino videopoker analyze: {message}")
    assert err.count("\n") == 1 and err.endswith("\n")


def test_ctrl_c_erases_the_progress_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(*args: object, progress: Progress | None = None, **options: object) -> None:
        assert progress is not None
        progress(0, 4)
        raise KeyboardInterrupt

    monkeypatch.setattr(analyze_command, "analyze", interrupted)
    err = TerminalInput()
    with pytest.raises(KeyboardInterrupt):  # on streams of its own, Ctrl-C reaches the caller
        run("--jobs", "1", stderr=err)
    assert err.getvalue() == f"{ERASE}analyzing optimal play: 0%{ERASE}"  # the line is erased


def test_help_goes_to_stdout() -> None:
    status, out, err = run("--help")
    assert (status, err) == (0, "")
    assert out.startswith("usage: casino videopoker analyze")
    assert "FOUR OF A KIND" in out


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [(Fraction(1, 3), 4, "0.3333"), (Fraction(-5, 2), 0, "-2"), (Fraction(1, 8), 2, "0.12")],
)
def test_decimal_rounds_exactly_half_to_even(value: Fraction, places: int, text: str) -> None:
    assert decimal(value, places) == text


ARGUMENT_WORDS = st.sampled_from(
    ["--bet", "--paytable", "--jobs", "--seed", "--strategy", "-h", "double-bonus-9-6", "x"]
)
HAND_TOKENS = st.sampled_from(["AC", "KD", "QH", "JS", "TC", "9D", "2S", "10H", "XX", "A", ""])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(HAND_TOKENS, min_size=0, max_size=7),
    st.lists(st.one_of(ARGUMENT_WORDS, st.integers(-3, 9).map(str)), max_size=4),
)
def test_any_advisor_command_line_answers_or_fails_in_one_line(
    hand: list[str], words: list[str]
) -> None:
    status, out, err = run("--hand", " ".join(hand), *words)
    if status == 0:
        assert err == "" and (out.startswith("hand ") or out.startswith("usage:"))
    else:
        assert status == 2 and out == ""
        assert err.startswith("casino videopoker analyze: ") and err.count("\n") == 1
