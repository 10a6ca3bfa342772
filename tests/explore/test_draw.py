"""Five-card draw's explore grammar: casino's own draw passes, one-change mutants of it are
found and shrunk, and what the seed leaves random is matched whatever the deck."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from casino.cards import FULL_DECK
from casino.explore.draw import DrawGrammar
from casino.explore.engine import Budget, Explorer, Found
from casino.explore.grammars import grammar_of
from casino.explore.judge import Program, reference_transcript
from casino.explore.plan import Session
from casino.harness.model import In, Inline, OutRe
from casino.harness.runners.base import Target
from casino.harness.runners.inproc import InProcessRunner
from casino.harness.session import Status, check
from explore.benchmark import MUTANTS, PROGRAM_OF, mutant_main

DRAW, CHOOSE = DrawGrammar(), DrawGrammar(choose=True)
REFERENCE = Program(InProcessRunner(), Target("draw"))


def _typed(found: Found) -> list[str]:
    return [step.text for step in found.transcript.runs[0].steps if isinstance(step, In)]


def _second_bet_refused(typed: list[str]) -> bool:
    """The second round's bet answered wrong first (the mutant names, or takes, the 1000
    chips of the start instead of what is left)."""
    second = max(i for i, line in enumerate(typed) if line in ("b", "B"))
    return second > 1 and len(typed) - second > 2


MUTANT_SPOTS: dict[str, tuple[int, Callable[[list[str]], bool]]] = {
    # mutant: (the most input lines its shrunk session may have, what it must type)
    "draw-fold-message": (2, lambda typed: typed[-1] in ("f", "F")),
    "draw-bet-over-chips": (7, _second_bet_refused),
    "draw-first-letter": (6, lambda typed: any(line.isalpha() and len(line) > 1 for line in typed)),
    "draw-exchange-four": (7, lambda typed: "1 2 3 4" in typed or "1 2 3 4 5" in typed),
}


@pytest.mark.parametrize("grammar", [DRAW, CHOOSE], ids=lambda g: g.name)
def test_casinos_own_draw_shows_no_difference(grammar: DrawGrammar) -> None:
    explorer = Explorer(grammar, REFERENCE, Budget(runs=100))
    assert explorer.find(0, 16) is None
    assert explorer.tried >= 8


@pytest.mark.parametrize("name", sorted(MUTANT_SPOTS))
def test_each_mutant_is_found_and_shrunk(name: str) -> None:
    most, typed = MUTANT_SPOTS[name]
    mutant = MUTANTS[name]
    program = Program(InProcessRunner({"draw": mutant_main(mutant)}), Target("draw"))
    explorer = Explorer(grammar_of(mutant.reference), program, Budget(runs=300))
    found = explorer.find(0, 40)
    assert found is not None, f"{name} survives 40 sessions"
    explorer.shrink(found)
    assert found.shrunk and found.lines <= most, _typed(found)
    assert typed(_typed(found)), _typed(found)
    assert check(found.transcript, InProcessRunner(), Target(PROGRAM_OF[mutant.reference])).passed
    assert check(found.transcript, program.runner, program.target).status is Status.FAIL


def test_the_deal_and_the_computers_are_matched_whatever_the_deck() -> None:
    """A program that deals otherwise (a student's, which ignores ``--deck-file``) passes
    every recorded session; with ``--choose`` Player_1's cards are pinned by the deck."""
    rng = random.Random(5)
    passed = {DRAW.name: 0, CHOOSE.name: 0}
    for number in range(12):
        for grammar in (DRAW, CHOOSE):
            session = grammar.generate(rng, 12)
            transcript = reference_transcript(grammar, session)
            if transcript is None or not any(
                isinstance(step, OutRe) for step in transcript.runs[0].steps
            ):
                continue
            other = list(session.data)
            random.Random(number).shuffle(other)
            dealt = replace(transcript, files=(("deck.txt", Inline(" ".join(other) + "\n")),))
            assert check(transcript, REFERENCE.runner, REFERENCE.target).passed
            passed[grammar.name] += check(dealt, REFERENCE.runner, REFERENCE.target).passed
    assert passed[DRAW.name] >= 5
    assert passed[CHOOSE.name] < passed[DRAW.name]


def _one(*answers: str) -> Session:
    deck = tuple(str(card) for card in FULL_DECK)
    return Session((tuple((answer,) for answer in answers),), deck)


def test_the_model_leaves_out_what_the_seed_does_not_fix() -> None:
    assert DRAW.unpinned(_one("2", "b", "10")) is not None  # the input ends mid-game
    assert DRAW.unpinned(_one("2", "f", "b")) == "lines after the game ended"
    assert "every chip" in (DRAW.unpinned(_one("2", "b", "1000")) or "")
    assert DRAW.unpinned(_one("3", "x", "F")) is None
