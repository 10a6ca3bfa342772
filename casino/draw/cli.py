"""``python -m casino.draw`` / ``casino draw``: five-card draw on the standard streams.

Options: ``--players N`` (2 to 5) skips the first question; ``--seed N`` reproduces the deal
(``$CASINO_SEED`` when not given); ``--deck-file F`` stacks the deck (cards top first, in any
notation casino reads, the seed's ``('Queen', 'Spades')`` included; ``#`` starts a comment; no
card twice); ``--choose`` asks Player_1 which cards to exchange; ``--tiebreak first|kickers``;
``--banks A,B,…`` the players' starting chips (1000 each by default).

``main`` goes through casino's program-entry contract (:func:`casino.cmdline.run_program`):
0 for a game played to its end (Player_1 folding included) or ended by the end of the input
(a newline ends the open question, then ``End of input: the game ends with no winner``); 2
for a bad command line; 1 for a deck-file that cannot be read, is malformed, or runs out of
cards (one line on stderr) and for output closed early (``| head``); 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from casino.cards import Card, Deck, Notation, parse_cards
from casino.cmdline import ArgumentParser, FileProblem, Invocation, run_program, whole_number
from casino.draw import messages
from casino.draw.rules import MAX_PLAYERS, MIN_PLAYERS, Tiebreak
from casino.draw.shell import Settings, run_game
from casino.draw.validate import EndOfInput
from casino.errors import DeckExhausted, ParseError
from casino.shell import Console, Streams

PROG = "draw"

EPILOG = """\
The game: 2 to 5 players with 1000 chips each, no ante. Player_1 bets (1 to what is
left) or folds, which ends the game with no winner; the others match the bet or fold.
Every active player then exchanges 0 to 3 cards; a second betting round as the first;
the active hands are shown and ranked, and the best takes the pot.

exit status: 0 a game played to its end, or ended by the end of the input; 1 a deck-file
that cannot be read, is malformed or runs out, or output closed early; 2 a bad command
line; 130 Ctrl-C."""


class DeckFileProblem(FileProblem):
    """A deck-file that cannot be read, is malformed, or has a card twice."""


def _banks(text: str) -> list[int]:
    """``--banks 1000,50``: up to five banks of at least one chip."""
    parts = text.split(",")
    if len(parts) > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"at most {MAX_PLAYERS} banks: {text[:40]!r}")
    return [whole_number(1)(part) for part in parts]


def _parser(invocation: Invocation) -> ArgumentParser:
    parser = invocation.parser(
        description="Five-card draw (Play5CardDraw): you are Player_1; the other players are "
        "the computer's. Bet or fold, exchange up to three cards, bet or fold, showdown.",
        epilog=EPILOG,
    )
    parser.add_argument(
        "--players",
        type=whole_number(MIN_PLAYERS, MAX_PLAYERS),
        metavar="N",
        help=f"the number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default: ask)",
    )
    parser.add_seed_option("shuffle the deck with seed N")
    parser.add_argument(
        "--deck-file",
        metavar="FILE",
        help="deal from FILE's cards, top first, instead of a shuffled deck",
    )
    parser.add_argument(
        "--choose",
        action="store_true",
        help="ask which cards Player_1 exchanges (default: the computer players' rule)",
    )
    parser.add_argument(
        "--tiebreak",
        choices=[mode.value for mode in Tiebreak],
        default=Tiebreak.FIRST.value,
        help="equal ranks: the first player wins (default, as the seed) or poker's "
        "kickers decide and an exact tie splits the pot",
    )
    parser.add_argument(
        "--banks",
        type=_banks,
        default=[],
        metavar="N,N,...",
        help="the starting chips of Player_1, Player_2, ... (default 1000 each)",
    )
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Play one game of five-card draw; return the exit status (see the module docstring)."""
    return run_program(PROG, _run, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _run(invocation: Invocation) -> int:
    return session(_parser(invocation).parse_args(invocation.argv), invocation.streams)


def session(options: argparse.Namespace, streams: Streams) -> int:
    """The game the parsed ``options`` describe, on ``streams``; the exit status."""
    settings = Settings(
        players=options.players,
        banks=options.banks,
        choose=options.choose,
        tiebreak=Tiebreak(options.tiebreak),
    )
    deck = _deck(options)
    try:
        run_game(Console(streams.stdin, streams.stdout), deck, settings)
    except DeckExhausted:
        streams.stdout.flush()
        raise DeckFileProblem(f"deck-file {options.deck_file!r} ran out of cards") from None
    except EndOfInput:
        streams.stdout.write("\n" + messages.END_OF_INPUT + "\n")
    streams.stdout.flush()
    return 0


def _deck(options: argparse.Namespace) -> Deck:
    if options.deck_file is not None:
        return Deck(read_deck_file(options.deck_file))
    return Deck.shuffled(random.Random(options.seed))


def read_deck_file(path: str) -> list[Card]:
    """The cards of a deck-file, top first; :class:`DeckFileProblem` names a bad line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a UTF-8 text file"
        raise DeckFileProblem(f"cannot read deck-file {path!r}: {reason}") from None
    cards: list[Card] = []
    where: dict[Card, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            found = parse_cards(line.split("#", 1)[0])
        except ParseError as error:
            raise DeckFileProblem(f"deck-file {path!r}: line {number}: {error}") from None
        for card in found:
            if card in where:
                twice = card.format(Notation.TUPLE)
                raise DeckFileProblem(
                    f"deck-file {path!r}: line {number}: {twice} is already on line {where[card]}"
                )
            where[card] = number
            cards.append(card)
    return cards
