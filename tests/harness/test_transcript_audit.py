"""The audit of the transcripts a student can pass (``docs/transcripts.md``) stays true: one
row per transcript with its points, every count on the page equal to the tree's, and each
place where the assignment allows several outputs accepting exactly those."""

from __future__ import annotations

import itertools
import re
import tempfile
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import reduce
from pathlib import Path

import pytest

from casino.cards.card import parse_cards
from casino.draw import messages
from casino.harness.diff import compare_run
from casino.harness.load import is_settings_file, load_transcript
from casino.harness.model import Out, OutAny, OutRe, Transcript
from casino.harness.runners.base import Job, Outcome, Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import check, write_files
from casino.nim import ai
from casino.nim.kayles import KaylesGame
from casino.nim.strategy import grundy, nim_removal
from casino.videopoker.analyzer import hold_values
from casino.videopoker.paytable import DOUBLE_BONUS_10_7
from harness.harness_support import ROOT

TRANSCRIPTS = ROOT / "transcripts"
DOCS, _, PINS = (
    (ROOT / "docs" / "transcripts.md")
    .read_text(encoding="utf-8")
    .partition("## What each transcript pins")
)
"""The page, and its last section: what each graded transcript pins (issue 38, item 5)."""


def _all() -> dict[str, Transcript]:
    return {
        path.relative_to(TRANSCRIPTS).as_posix(): load_transcript(path)
        for path in sorted(TRANSCRIPTS.rglob("*.yaml"))
        if not is_settings_file(path)
    }


ALL = _all()
PASSABLE = {name: t for name, t in ALL.items() if t.reference is None}


def _rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in DOCS.splitlines():
        found = re.match(r"\| `([^`]+\.yaml)` \|(.*)\|$", line)
        if found:
            assert found.group(1) not in rows, f"two rows for {found.group(1)}"
            rows[found.group(1)] = [cell.strip() for cell in found.group(2).split("|")]
    return rows


def test_the_audit_has_one_row_per_transcript_a_student_can_pass() -> None:
    assert sorted(_rows()) == sorted(PASSABLE)


def test_each_row_states_the_points_the_transcript_is_worth() -> None:
    for name, cells in _rows().items():
        stated = re.match(r"[0-9]+(\.[0-9]+)?", cells[0])
        assert stated is not None, name
        assert float(stated.group()) == PASSABLE[name].max_points, name


def _marked(folder: str) -> tuple[int, int]:
    names = [name for name in ALL if name.startswith(folder)]
    return sum(ALL[name].reference is not None for name in names), len(names)


def test_every_count_on_the_page_is_the_trees() -> None:
    marked = sum(t.reference is not None for t in ALL.values())
    assert f"{marked} of the {len(ALL)} transcripts are marked" in DOCS
    assert f"{len(PASSABLE)} transcripts a student can pass, one row each" in DOCS
    dominoes, all_dominoes = _marked("domino/")
    holdem, all_holdem = _marked("holdem/")
    assert dominoes == all_dominoes and f"All {dominoes}: every session" in DOCS
    assert holdem == all_holdem and f"All {holdem}: the assignment fixes no wording" in DOCS
    poker, all_poker = _marked("videopoker/")
    assert f"\n{poker} of the {all_poker}: the assignment fixes" in DOCS
    assert f"The other {all_poker - poker} video poker transcripts" in DOCS
    draw_marked, draw_all = _marked("draw/casino/")
    assert draw_marked == draw_all, "every transcript in draw/casino/ is marked"


def test_project_c_gives_the_advanced_game_the_bonus_share_of_the_course() -> None:
    project = {n: t for n, t in PASSABLE.items() if n.startswith("nimsys/project-c/")}
    total = sum(Fraction(t.max_points) for t in project.values())
    bonus = Fraction(0)
    for transcript in project.values():
        if transcript.play is not None:  # the AI played live: the bonus, as the course grades it
            bonus += Fraction(transcript.max_points)
            continue
        for run, worth in zip(transcript.runs, transcript.run_points, strict=True):
            if any(line.startswith("startadvancedgame") for line in run.inputs):
                bonus += Fraction(worth)
    assert (bonus, total) == (Fraction(3, 2), Fraction(23, 2))


# ------------------------------------------------------------------ Nimsys: the AI's choices


def _value(stones: Sequence[bool]) -> int:
    rows = [len(row) for row in "".join("*" if s else " " for s in stones).split()]
    return reduce(lambda a, b: a ^ b, (grundy(n) for n in rows), 0)


def kayles_choices(stones: Sequence[bool]) -> list[str]:
    """Every move a correct AI may make: each winning one if there is one, else any."""
    game = KaylesGame(tuple(stones))
    moves = game.legal_moves()
    winning = [m for m in moves if _value(game.take(m).stones) == 0]
    return [str(move) for move in winning or moves]


def nim_choices(remaining: int, bound: int) -> list[int]:
    """Every removal a correct AI may make in ordinary Nim."""
    excess = (remaining - 1) % (bound + 1)
    return [excess] if excess else list(range(1, min(bound, remaining) + 1))


class Chooser:
    """An AI that makes the choices it is given, then the first allowed one, noting the
    first choice it made on its own (where the exploration branches next)."""

    def __init__(self, given: list[object]) -> None:
        self.given = given
        self.made = 0
        self.branch: list[object] | None = None

    def pick(self, options: Sequence[object]) -> object:
        if self.made < len(self.given):
            choice = self.given[self.made]
        else:
            self.branch = self.branch or list(options)
            choice = options[0]
        self.made += 1
        return choice


def _play(
    transcript: Transcript, chooser: Chooser, monkeypatch: pytest.MonkeyPatch
) -> list[Outcome]:
    monkeypatch.setattr(
        ai.NimAIPlayer,
        "remove_stone",
        lambda _, left, bound: chooser.pick(nim_choices(left, bound)),
    )
    monkeypatch.setattr(
        ai.NimAIPlayer,
        "advanced_move",
        lambda _, stones, last="": chooser.pick(kayles_choices(stones)),
    )
    outcomes = []
    with tempfile.TemporaryDirectory() as scratch:
        write_files(transcript, Path(scratch))
        for run in transcript.runs:
            job = Job(Target(transcript.program), run, Path(scratch), None, 10.0)
            outcomes.append(InProcessRunner().run(job))
    return outcomes


def branches(transcript: Transcript, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Outcome]]:
    """The outcomes of every game a correct AI may play on the transcript's input."""
    todo: list[list[object]] = [[]]
    while todo:
        given = todo.pop()
        chooser = Chooser(given)
        outcomes = _play(transcript, chooser, monkeypatch)
        if chooser.branch is None:
            yield outcomes
        else:
            todo += [[*given, choice] for choice in chooser.branch]


@pytest.mark.parametrize(
    "name", [n for n, t in PASSABLE.items() if n.startswith("nimsys/") and t.play is None]
)
def test_every_game_a_correct_ai_may_play_passes(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = PASSABLE[name]
    used: set[str] = set()
    for outcomes in branches(transcript, monkeypatch):
        for run, outcome in zip(transcript.runs, outcomes, strict=True):
            verdict = compare_run(run, outcome)
            assert verdict.passed, (name, outcome.output)
            used |= {chunk for chunk in outcome.chunks}
    offered = {
        text
        for run in transcript.runs
        for step in run.steps
        if isinstance(step, OutAny) and "" not in step.texts
        for text in step.texts
    }  # (an out_any holding "" is the empty move's family, printing nothing or refusing it)
    assert offered <= used, "an alternative no correct AI prints"


def test_a_losing_reply_of_the_ai_fails_the_advanced_game(monkeypatch: pytest.MonkeyPatch) -> None:
    transcript = PASSABLE["nimsys/project-c/seed-c-advanced-game-ai.yaml"]

    def losing(_: object, stones: Sequence[bool], last: str = "") -> str:
        game = KaylesGame(tuple(stones))
        return str(next(m for m in game.legal_moves() if _value(game.take(m).stones) != 0))

    monkeypatch.setattr(ai.NimAIPlayer, "advanced_move", losing)
    monkeypatch.setattr(
        ai.NimAIPlayer, "remove_stone", lambda _, left, bound: nim_removal(left, bound)
    )
    with tempfile.TemporaryDirectory() as scratch:
        job = Job(Target("nimsys"), transcript.runs[0], Path(scratch), None, 10.0)
        outcome = InProcessRunner().run(job)
    assert not compare_run(transcript.runs[0], outcome).passed


# ------------------------------------------------------------------- video poker: the holds


def _advised(transcript: Transcript) -> Iterator[tuple[list[str], int, list[str]]]:
    """Each advice of a debug session: the hand, the bet, and the advice texts accepted."""
    bet, hand, after_deal = 5, "", False
    for step in transcript.runs[0].steps:
        if isinstance(step, OutAny):
            yield hand.split(), bet, [text.strip() for text in step.texts]
            continue
        for line in step.text.splitlines() if isinstance(step, Out) else []:
            if found := re.match(r"player is betting (\d)", line):
                bet = int(found.group(1))
            if after_deal and (found := re.match(r"player's hand (.*)", line)):
                hand, after_deal = found.group(1), False
            after_deal = after_deal or line == "-cmd d"
            if line.startswith(("player should hold", "player should discard")):
                yield hand.split(), bet, [line]


def _hold_text(held: Sequence[int]) -> str:
    if not held:
        return "player should discard everything"
    return "player should hold cards " + " ".join(str(p + 1) for p in held)


@pytest.mark.parametrize("part", ["difficult-hands-1-40.yaml", "difficult-hands-41-81.yaml"])
def test_each_advice_accepts_every_hold_of_the_same_expected_return(part: str) -> None:
    transcript = PASSABLE[f"videopoker/double-bonus/{part}"]
    advices = list(_advised(transcript))
    assert len(advices) in (40, 41)
    for hand, bet, accepted in advices:
        values = hold_values(parse_cards(" ".join(hand)), DOUBLE_BONUS_10_7, bet)
        worth = {_hold_text(v.positions): v.ev for v in values}
        ev = worth[accepted[0]]
        assert sorted(accepted) == sorted(text for text, value in worth.items() if value == ev)


# ------------------------------------------------------------- five-card draw: the set order


@pytest.mark.parametrize("name", ["fold-first-round-after-invalid.yaml", "seed-sample-2.yaml"])
def test_the_starters_set_is_accepted_in_each_of_its_orders(name: str) -> None:
    transcript = PASSABLE[f"draw/play5carddraw/{name}"]
    (step,) = [s for s in transcript.runs[0].steps if isinstance(s, OutAny)]
    orders = {"{" + ", ".join(f"'{c}'" for c in p) + "}" for p in itertools.permutations("BfbF")}
    assert set(step.texts) == orders


# ------------------------------------------------------------ what each transcript pins

MARKERS = {
    "N1": r"Welcome to Nim",
    "N2": r"\n\n\$",
    "N3": r"The player already exists\.",
    "N4": r"The player does not exist\.",
    "N5": r"Are you sure you want to",
    "N6": r",\d+ games,\d+ wins",
    "N7": r"% +\| +\d+ games \|",
    "N8": r"One of the players does not exist\.",
    "N9": r"Initial stone count: ",
    "N10": r"remove how many\?",
    "N11": r"Invalid move\. You must remove between",
    "N12": r"Game Over",
    "N13": r"is not a valid command\.|Incorrect number of arguments",
    "N14": r"which to remove\?",
    "N15": r"Please enter",
    "V1": r"-cmd ",
    "V2": r"player is betting|player's hand|player's credit",
    "V3": r"player loses",
    "V4": r"player wins with a",
    "V5": r"player should hold cards",
    "V6": r"b: illegal amount",
    "V7": r"b: illegal command",
    "V8": re.escape("(?<=\\n-cmd"),
    "V9": r"Jacks or Better",
    "D1": r"for # players ==> ",
    "D2": r"Do you bet or fold",
    "D3": r"What's your bet",
    "D4": r"You folded!",
    "D5": re.escape("cards: \\["),
    "D6": re.escape("[^\\n]+\\n"),
}
"""Each key of the page's tables, and how its text shows in a transcript's steps."""
GRADED = {name: t for name, t in PASSABLE.items() if not name.startswith("demo/")}


def _pinned(transcript: Transcript) -> str:
    """The keys of the texts ``transcript`` pins, as the page lists them."""
    if transcript.play is not None:
        return "played: the boards, `Invalid move.`, N12 and `$` read, never compared"
    parts: list[str] = []
    for run in transcript.runs:
        for step in run.steps:
            if isinstance(step, Out):
                parts.append(step.text)
            elif isinstance(step, OutAny):
                parts.extend(step.texts)
            elif isinstance(step, OutRe):
                parts.append(step.pattern)
    text = "\0".join(parts)
    return ", ".join(key for key, marker in MARKERS.items() if re.search(marker, text))


def test_the_page_says_what_each_graded_transcript_pins() -> None:
    rows = {}
    for line in PINS.splitlines():
        if found := re.match(r"\| `([^`]+\.yaml)` \| ([^|]*) \|", line):
            assert found.group(1) not in rows, f"two rows for {found.group(1)}"
            rows[found.group(1)] = found.group(2).strip()
    assert sorted(rows) == sorted(GRADED)
    for name, transcript in GRADED.items():
        assert rows[name] == _pinned(transcript), name
    defined = set(re.findall(r"^\| ([NVD]\d+) \| ", PINS, flags=re.MULTILINE))
    assert defined == set(MARKERS)


@pytest.mark.parametrize(
    ("message", "exact"),
    [
        ("Value entered is not an int. Try again", True),  # casino's
        ("That is not a whole number. Try again", True),
        ("Please type digits only", True),
        ("", False),
        ("not an int\nTry again", False),
    ],
)
def test_the_validators_unseen_message_may_be_any_line(
    message: str, exact: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seed shows two of the starter validator's messages, not the one for an answer
    that is not a whole number: any one line passes there, then the question again."""
    monkeypatch.setattr(messages, "NOT_AN_INT", message)
    transcript = GRADED["draw/play5carddraw/not-an-int.yaml"]
    result = check(transcript, InProcessRunner(), Target("draw"))
    # (the draw's rubric has no format share: a run with the same words passes as behaviour,
    # so what the family decides is whether the text is exact)
    assert (result.verdicts[0].kind == "exact") is exact
