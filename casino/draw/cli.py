"""``python -m casino.draw`` / ``casino draw``: five-card draw on the standard streams.

Options: ``--players N`` (2 to 5) skips the first question; ``--seed N`` reproduces the deal;
``--deck-file F`` stacks the deck (cards top first, in any notation casino reads, the
seed's ``('Queen', 'Spades')`` included; ``#`` starts a comment; no card twice);
``--choose`` asks Player_1 which cards to exchange; ``--tiebreak first|kickers``;
``--banks A,B,…`` the players' starting chips (1000 each by default).

Exit status: 0 for a game played to its end (Player_1 folding included); 2 for a bad command
line; 1 for a deck-file that cannot be read, is malformed, or runs out of cards (one line on
stderr), for input that ends before the game does (a newline ends the open question on
stdout, then one line on stderr), and for output closed early (``| head``, quietly); 130
for Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from casino.cards import Card, Deck, Notation, parse_cards
from casino.cmdline import ArgumentParser, parse_or_report, silence_closed_output
from casino.draw.rules import MAX_PLAYERS, MIN_PLAYERS, Tiebreak
from casino.draw.shell import Settings, run_game
from casino.draw.validate import EndOfInput, parse_int
from casino.errors import CasinoError, DeckExhausted, ParseError
from casino.shell import Console, Streams

PROG = "draw"
FAILURE = 1
INTERRUPTED = 130
_SHOWN = 24  # the characters of a bad option value repeated in its message


EPILOG = """\
The game: 2 to 5 players with 1000 chips each, no ante. Player_1 bets (1 to what is
left) or folds, which ends the game with no winner; the others match the bet or fold.
Every active player then exchanges 0 to 3 cards; a second betting round as the first;
the active hands are shown and ranked, and the best takes the pot.

exit status: 0 a game played to its end (Player_1 folding included), 1 a deck-file that
cannot be read, is malformed or runs out, input that ends before the game does, or
output closed early, 2 a bad command line, 130 Ctrl-C."""


class DeckFileProblem(CasinoError):
    """A deck-file that cannot be read, is malformed, or has a card twice."""


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` (to ``high``)."""

    def convert(text: str) -> int:
        try:
            value = parse_int(text)
        except ParseError:
            value = low - 1
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
            shown = text if len(text) <= _SHOWN else text[:_SHOWN] + "..."
            raise argparse.ArgumentTypeError(f"not a whole number {bounds}: {shown!r}")
        return value

    return convert


def _banks(text: str) -> list[int]:
    """``--banks 1000,50``: up to five banks of at least one chip."""
    parts = text.split(",")
    if len(parts) > MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"at most {MAX_PLAYERS} banks: {text!r}")
    return [_whole(1)(part) for part in parts]


def _parser(out: TextIO) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog=PROG,
        description="Five-card draw (Play5CardDraw): you are Player_1; the other players are "
        "the computer's. Bet or fold, exchange up to three cards, bet or fold, showdown.",
        epilog=EPILOG,
    )
    parser.add_argument(
        "--players",
        type=_whole(MIN_PLAYERS, MAX_PLAYERS),
        metavar="N",
        help=f"the number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (default: ask)",
    )
    parser.add_argument("--seed", type=int, metavar="N", help="shuffle the deck with seed N")
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
    """Play one game of five-card draw; return the exit status."""
    streams = Streams.of(stdin, stdout, stderr)
    options = parse_or_report(
        _parser(streams.stdout), sys.argv[1:] if argv is None else argv, streams
    )
    if isinstance(options, int):
        return options
    if stdin is None and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # garbage bytes are an invalid answer
    try:
        return session(options, streams)
    except KeyboardInterrupt:
        streams.error("")
        return INTERRUPTED
    except BrokenPipeError:  # `... | head`: the reader left; say nothing more
        silence_closed_output(streams.stdout)
        return FAILURE


def session(options: argparse.Namespace, streams: Streams) -> int:
    """The game the parsed ``options`` describe, on ``streams``; the exit status."""
    settings = Settings(
        players=options.players,
        banks=options.banks,
        choose=options.choose,
        tiebreak=Tiebreak(options.tiebreak),
    )
    try:
        deck = _deck(options)
        run_game(Console(streams.stdin, streams.stdout), deck, settings)
    except DeckFileProblem as problem:
        return _fail(streams, str(problem))
    except DeckExhausted:
        return _fail(streams, f"deck-file {options.deck_file!r} ran out of cards")
    except EndOfInput as problem:
        streams.stdout.write("\n")
        return _fail(streams, f"{problem}: the game ends with no winner")
    streams.stdout.flush()
    return 0


def _fail(streams: Streams, message: str) -> int:
    streams.stdout.flush()
    streams.error(f"{PROG}: {message}")
    return FAILURE


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
