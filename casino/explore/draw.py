"""Five-card draw (Play5CardDraw) sessions: Player_1's answers, with a generated deck file.

A session is one run, ``--deck-file deck.txt`` (and ``--choose`` for ``draw-choose``), with
the deck generated (:attr:`Session.data`: 52 cards, top first; a computer seat dealt a
pair seven times in ten, so that it calls and the later rounds come up). Its units are Player_1's
answers to each question, the invalid ones first (the unit's last line is the valid one):
the number of players (``9``, ``1``, ``abc``, ``2.5`` …), bet or fold (``e``, ``bet``,
``BF`` …; ``b``/``B``, and ``f``/``F`` in one session in six per round), the bet
(``0``, ``-5``, what is left plus one, over it, ``abc``, ``2.5``), with ``--choose`` the
positions to exchange (``1 2 3 4``, ``1 1``, ``0``, ``6``, ``a`` …), then the second round.

What the seed pins, and so what the recorded transcript asks for exactly
(:meth:`DrawGrammar.loosen` makes the rest an ``out_re``, as ``transcripts/draw/play5carddraw``
does): every prompt, every validator message, Player_1's bets and what Player_1 has left,
``You folded! You have N left``, the lines' words and their order. The deal and the computer
players' calls, folds and exchanges are random in the seed (casino's are its own strategy on
the stacked deck): a hand is any five cards, a computer seat either folds or matches the bet
(and a seat that folded is absent later), a pot is any number, a rank any ``a …``, the
winner any player. With ``--choose`` (casino's own option, as is ``--deck-file``) the deck
pins Player_1's cards: they are exact, and so are the exchange question, its message and
Player_1's exchange line.

What the model (:meth:`DrawGrammar.unpinned`, which plays the session on casino's rules)
leaves out, as the seed does not fix it: an input that ends before the game does (casino's
own ``End of input`` line), lines after the game ended, Player_1 betting every chip in the
first round (casino then skips the second round), and everybody else folding in the first
round (whether the game goes on is casino's choice).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from casino.cards import FULL_DECK, Deck, parse_cards
from casino.draw.rules import START_BANK
from casino.draw.shell import Settings, run_game
from casino.draw.validate import EndOfInput
from casino.errors import CasinoError
from casino.explore.plan import Rendered, RunInput, Session, Unit, smaller_numbers
from casino.explore.references import ABOUT
from casino.harness.model import Out, OutRe, Run, Step, Transcript
from casino.shell import Console

DECK_FILE = "deck.txt"
CARD = r"\('(?:[2-9]|10|Jack|Queen|King|Ace)', '(?:Clubs|Diamonds|Hearts|Spades)'\)"
HAND = rf"\[{CARD}(?:, {CARD}){{4}}\]"
"""Any hand of five cards, as the seed prints it."""
RANK = r"a [A-Za-z][A-Za-z -]*"
"""Any rank (the seed names ``a pair`` and ``a Nothing``; the others are casino's words)."""
EXCHANGED = (
    r"(?:will exchange (?:1 card|[23] cards)\.\.\.\."
    r"|has opted not to exchange any cards \(standing pat\))"
)

PLAYERS_WRONG = ("9", "1", "0", "6", "-2", "abc", "2.5", "five")
CHARACTER_WRONG = ("e", "x", "bet", "fold", "BF", "1", "bb")
POSITIONS_WRONG = ("1 2 3 4", "1 2 3 4 5", "0", "6", "1 1", "a", "2.5")
FOLD = 1 / 6
"""How often Player_1 folds in a round."""
PAIRED = 0.7
"""How often a computer seat is dealt a pair."""
DRAWS = 20
"""How many sessions :meth:`DrawGrammar.generate` draws at most to find one the model takes."""


@dataclass(frozen=True)
class DrawGrammar:
    """Sessions of ``casino draw`` as the seed pins them (``choose``: with ``--choose``)."""

    choose: bool = False
    program = "draw"

    @property
    def name(self) -> str:
        """``draw``, or ``draw-choose`` with ``--choose``."""
        return "draw-choose" if self.choose else "draw"

    @property
    def about(self) -> str:
        """One line: what the grammar covers."""
        return ABOUT[self.name]

    def generate(self, rng: random.Random, size: int) -> Session:
        """Player_1's answers to one game (``size`` bounds the invalid answers), and a deck
        in which most computer seats hold a pair; drawn again (up to :data:`DRAWS` times)
        until the model accepts it (everybody else folding at once is left out)."""
        session = self._draw(rng, size)
        for _ in range(DRAWS - 1):
            if self.unpinned(session) is None:
                break
            session = self._draw(rng, size)
        return session

    def _draw(self, rng: random.Random, size: int) -> Session:
        players = rng.randint(2, 5)
        tries = max(1, min(3, size // 4))
        units = [_answers(rng, PLAYERS_WRONG, str(players), tries)]
        left = START_BANK
        for last in (False, True):
            if rng.random() < FOLD:
                units.append(_answers(rng, CHARACTER_WRONG, rng.choice("fF"), tries))
                break
            units.append(_answers(rng, CHARACTER_WRONG, rng.choice("bB"), tries))
            bet = _bet(rng, left, last)
            units.append(_answers(rng, _wrong_amounts(rng, left), str(bet), tries))
            left -= bet
            if self.choose and not last:
                units.append(_answers(rng, POSITIONS_WRONG, _positions(rng), tries))
        return Session((tuple(units),), _deck(rng, players))

    def render(self, session: Session) -> Rendered:
        """The arguments naming the deck file, the answers, and the deck file."""
        lines = tuple(line for run in session.runs for unit in run for line in unit)
        args = ("--deck-file", DECK_FILE, *(("--choose",) if self.choose else ()))
        return Rendered((RunInput(args, lines),), ((DECK_FILE, " ".join(session.data) + "\n"),))

    def group(self, session: Session, run: int, unit: int | None) -> str:
        """The question whose answers' output holds a difference (``--every``): ``players``
        (how many), ``bet or fold``, ``bets`` (the amount), ``exchanges`` (``--choose``), or
        ``results`` (what is printed before the first question or after the last answer)."""
        units = session.runs[run]
        if unit is None:
            return "results"
        if unit == 0:
            return "players"
        last = units[unit][-1]
        if last in ("b", "B", "f", "F"):
            return "bet or fold"
        return "bets" if units[unit - 1][-1] in ("b", "B") else "exchanges"

    def unpinned(self, session: Session) -> str | None:
        """Why the session leaves what the seed pins (``None``: it does not), from the game
        played on casino's rules."""
        lines = iter(self.render(session).runs[0].lines)
        out = io.StringIO()
        try:
            deck = Deck(parse_cards(" ".join(session.data)))
            table = run_game(Console(lines, out), deck, Settings(choose=self.choose))
        except EndOfInput:
            return "the input ends before the game (casino's own message)"
        except CasinoError as error:
            return f"the deck: {error}"
        text = out.getvalue()
        if "has nothing left to bet" in text:
            return "every chip bet in the first round (casino then skips the second)"
        if next(lines, None) is not None:
            return "lines after the game ended"
        first, exchanged, _ = text.partition("Player Player_1 ")
        if exchanged and first.count(" folds\n") == len(table.seats) - 1:
            return "everybody else folds in the first round (casino's choice goes on)"
        return None

    def loosen(self, session: Session, transcript: Transcript) -> Transcript:
        """The recorded transcript with what the seed leaves random (the deal, the computer
        players' choices) an ``out_re`` (:func:`loosened`)."""
        run = transcript.runs[0]
        steps = loosened(run.steps, self.choose)
        return replace(transcript, runs=(Run(steps, run.args), *transcript.runs[1:]))

    def simpler(self, session: Session) -> Iterator[Session]:
        """Smaller numbers (players, bets, positions)."""
        yield from smaller_numbers(session)


def loosened(steps: tuple[Step, ...], choose: bool) -> tuple[Step, ...]:
    """``steps`` with each report after a bet (the deal, the others' choices, the exchange,
    the showdown) an ``out_re`` that any deal and any computer players' choices match; with
    ``choose``, Player_1's own cards and exchange stay exact."""
    text = "".join(step.text for step in steps if isinstance(step, Out))
    players = max(
        (int(k) for k in re.findall(r"^Player_(\d) (?:cards|folds)", text, re.M)), default=1
    )
    rounds = 0
    kept: list[Step] = []
    for step in steps:
        if isinstance(step, Out) and step.text.startswith("Player_1 cards: "):
            rounds += 1
            kept.append(OutRe(_betting(step.text, players, rounds, choose)))
        elif isinstance(step, Out) and step.text.startswith("Player Player_1 "):
            lines = step.text.split("\n")
            exact = "".join(_escape(line) + r"\n" for line in lines[:2])
            kept.append(OutRe(exact + _exchanges(players) + _escape(lines[-1])))
        else:
            kept.append(step)
    return tuple(kept)


def _betting(chunk: str, players: int, rounds: int, choose: bool) -> str:
    """The pattern of a betting round's report and what follows it up to the next question."""
    lines = chunk.split("\n")
    found = re.fullmatch(
        r"Player_1 bets (\d+)\. The pot is at \d+ Player_1 has (\d+) left", lines[1]
    )
    if found is None:
        raise AssertionError(f"not a bet: {lines[1]!r}")
    bet, left = found.groups()
    cards = _escape(lines[0]) if choose else f"Player_1 cards: {HAND}"
    pattern = cards + rf"\nPlayer_1 bets {bet}\. The pot is at \d+ Player_1 has {left} left\n"
    for seat in range(2, players + 1):
        name = f"Player_{seat}"
        called = (
            rf"{name} cards: {HAND}\n{name} bets {bet}\. The pot is at \d+ {name} has {left} left\n"
        )
        pattern += f"(?:{name} folds\\n|{called})" + ("?" if rounds > 1 else "")
    if rounds > 1:
        return pattern + _showdown(players, lines, choose)
    if not choose:
        pattern += rf"Player Player_1 {EXCHANGED}\nPlayer Player_1 hand is now {HAND}\n"
        pattern += _exchanges(players)
    return pattern + _escape(lines[-1])


def _exchanges(players: int) -> str:
    """The computer seats' exchange lines, each there or not (a seat that folded is not)."""
    return "".join(
        rf"(?:Player Player_{seat} {EXCHANGED}\nPlayer Player_{seat} hand is now {HAND}\n)?"
        for seat in range(2, players + 1)
    )


def _showdown(players: int, lines: list[str], choose: bool) -> str:
    """The showdown: Player_1's hand (exact with ``choose``), the others' if they are there,
    a blank line, any player winning with any hand."""
    mine = next(line for line in lines if line.startswith("Player Player_1 is holding "))
    hand = _escape(mine.split(" which is ")[0]) if choose else f"Player Player_1 is holding {HAND}"
    pattern = r"Active players - display the HAND and RANK for each player\n"
    pattern += hand + f" which is {RANK}\\n"
    pattern += "".join(
        rf"(?:Player Player_{seat} is holding {HAND} which is {RANK}\n)?"
        for seat in range(2, players + 1)
    )
    return (
        pattern
        + rf"\nThe winner is Player_[1-{players}] which drew {RANK} with the hand \[{HAND}\]\n"
    )


def _escape(text: str) -> str:
    """``text`` as a pattern that matches it exactly (spaces left as they are, to be read)."""
    return re.escape(text).replace("\\ ", " ")


def _answers(rng: random.Random, wrong: tuple[str, ...], right: str, tries: int) -> Unit:
    """Up to ``tries`` invalid answers (none half the time), then ``right``."""
    count = rng.randint(0, tries) if rng.random() < 0.5 else 0
    return (*rng.sample(wrong, min(count, len(wrong))), right)


def _bet(rng: random.Random, left: int, last: bool) -> int:
    """A bet out of ``left``: small (the others call it) or any; in the last round all of
    it one time in four, in the first never all (casino skips the second round then)."""
    if last and rng.random() < 0.25:
        return left
    most = left if last else left - 1
    return rng.randint(1, min(most, 50)) if rng.random() < 0.6 else rng.randint(1, most)


def _wrong_amounts(rng: random.Random, left: int) -> tuple[str, ...]:
    """Bets the validator refuses when Player_1 has ``left``: out of range, or not whole."""
    over = str(left + rng.randint(2, START_BANK))
    return ("0", "-5", str(left + 1), over, "abc", "2.5")


def _positions(rng: random.Random) -> str:
    """0 to 3 different positions from 1 to 5, typed in order."""
    chosen = sorted(rng.sample(range(1, 6), rng.choice((0, 1, 2, 2, 3, 3))))
    return " ".join(map(str, chosen))


def _deck(rng: random.Random, players: int) -> tuple[str, ...]:
    """A shuffled deck, top first, in which each computer seat holds a pair half the time."""
    cards = list(FULL_DECK)
    rng.shuffle(cards)
    for seat in range(1, players):
        if rng.random() < PAIRED:
            first = 5 * seat
            rank = cards[first].rank
            mate = next((i for i in range(5 * players, 52) if cards[i].rank == rank), None)
            if mate is not None:
                cards[first + 1], cards[mate] = cards[mate], cards[first + 1]
    return tuple(str(card) for card in cards)
