"""The game's text, one line per message, worded as the seed prints it (pure).

The seed's samples wrap long lines and mix ``Player 3`` with ``Player_3``; both are
artefacts of its PDF: every line here is one line, and a player is always ``Player_N``.
Hands are Python list literals of ``('Queen', 'Spades')`` tuples; the winner's hand is in
double brackets, as the seed prints it (a list of the winning hands: with
``--tiebreak kickers`` a split pot lists every winner and every winning hand). A blank line
comes before the winner line, as in the seed's sample; a split pot adds a line saying who
takes what (the odd chips go to the earliest seats).
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.cards import Card, Notation, format_cards
from casino.draw.play import Event, NothingLeft
from casino.draw.rules import (
    HAND_SIZE,
    MAX_EXCHANGE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANK_NAMES,
    Bet,
    Exchange,
    Fold,
    Holding,
    Showdown,
)

PLAYERS_PROMPT = (
    f"Enter a number between {MIN_PLAYERS} and {MAX_PLAYERS}, inclusive, for # players "
)
BET_OR_FOLD_PROMPT = "Do you bet or fold (B or F)?"
VALID_CHARACTERS = "{'B', 'f', 'b', 'F'}"
"""The valid answers to the bet-or-fold question, in the order the seed prints them."""
PROMPT_END = "==> "


def bet_prompt(name: str, most: int) -> str:
    """The question for Player_1's bet (without :data:`PROMPT_END`)."""
    return f"What's your bet {name}? (between 1 and {most})"


_POSITIONS = f"positions from 1 to {HAND_SIZE}"


def exchange_prompt(name: str) -> str:
    """``--choose``: the question for Player_1's exchange (without :data:`PROMPT_END`)."""
    return f"Which cards do you exchange {name}? (up to {MAX_EXCHANGE} {_POSITIONS})"


def not_between(value: int, low: int, high: int) -> str:
    """The seed's validator message for a number out of range."""
    return f"{value} not between {low} and {high}. Try again"


NOT_AN_INT = "Value entered is not an int. Try again"
"""The seed's validator message for an answer that is not a whole number."""


def not_valid_character(text: str) -> str:
    """The seed's validator message for an answer that is not B, b, F or f."""
    return f"{text} not one of the valid characters {VALID_CHARACTERS}. Try again"


def not_positions(text: str) -> str:
    """``--choose``: the message for an answer that is not an exchange."""
    return (
        f"{text} is not up to {MAX_EXCHANGE} different positions from 1 to {HAND_SIZE}. Try again"
    )


END_OF_INPUT = "End of input: the game ends with no winner"
"""What the end of the input at a question prints (after a newline that ends the question)."""


def hand_text(cards: Sequence[Card]) -> str:
    """``[('7', 'Hearts'), ('5', 'Clubs'), ...]``."""
    return format_cards(list(cards), Notation.TUPLE)


def folded_out(left: int) -> str:
    """What Player_1 folding prints: the game then stops with no winner."""
    return f"You folded! You have {left} left"


def event_lines(event: Event) -> list[str]:
    """The lines that report ``event``."""
    if isinstance(event, Bet):
        return [
            f"{event.name} cards: {hand_text(event.hand)}",
            f"{event.name} bets {event.amount}. The pot is at {event.pot} "
            f"{event.name} has {event.left} left",
        ]
    if isinstance(event, Fold):
        return [folded_out(event.left) if event.seat == 0 else f"{event.name} folds"]
    if isinstance(event, Exchange):
        return [_exchange_line(event), f"Player {event.name} hand is now {hand_text(event.hand)}"]
    if isinstance(event, NothingLeft):
        return [f"{event.name} has nothing left to bet"]
    return _showdown_lines(event)


def _exchange_line(event: Exchange) -> str:
    if event.count == 0:
        return f"Player {event.name} has opted not to exchange any cards (standing pat)"
    cards = "1 card" if event.count == 1 else f"{event.count} cards"
    return f"Player {event.name} will exchange {cards}...."


def _showdown_lines(showdown: Showdown) -> list[str]:
    lines = ["Active players - display the HAND and RANK for each player"]
    lines += [
        f"Player {h.name} is holding {hand_text(h.hand)} which is {RANK_NAMES[h.category]}"
        for h in showdown.holdings
    ]
    lines += ["", winner_line(showdown.winners)]
    if len(showdown.winners) > 1:
        lines.append(split_line(showdown))
    return lines


def winner_line(winners: Sequence[Holding]) -> str:
    """``The winner is Player_1 which drew a pair with the hand [[...]]`` (or the winners)."""
    rank = RANK_NAMES[winners[0].category]
    hands = "[" + ", ".join(hand_text(h.hand) for h in winners) + "]"
    if len(winners) == 1:
        return f"The winner is {winners[0].name} which drew {rank} with the hand {hands}"
    names = [h.name for h in winners]
    together = ", ".join(names[:-1]) + " and " + names[-1]
    return f"The winners are {together} which drew {rank} with the hands {hands}"


def split_line(showdown: Showdown) -> str:
    """``--tiebreak kickers``, an exact tie: who takes what of the pot."""
    takes = ", ".join(
        f"{h.name} takes {share}"
        for h, share in zip(showdown.winners, showdown.shares, strict=True)
    )
    return f"The pot of {sum(showdown.shares)} is split: {takes}"
