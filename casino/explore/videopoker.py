"""Video poker's debug mode (Double Bonus 10/7, ``-d credit cmd-file card-file``) sessions.

A session is one run with two generated files: the cmd-file (the units: a hand ``b [N]``,
``d``, ``h [positions]``, or a lone ``$``, or a command at the wrong moment) and the
card-file (:attr:`Session.data`: each hand's cards in the order they are dealt, different
within the hand; one hand in eight rigged to four of a kind, all held). The credit is 10,000,
so it never runs out. Each hand's cards are a line of its unit (``# AS KS …``, written into
the card-file, not the cmd-file), so a hand dropped while shrinking takes its cards with it.

One hand in four is *stacked*: a random pay line (royal flush to nothing) dealt at a random
bet of 1 to 5 and held whole, so every row of the pay table is paid at every bet.

``a`` (advice) comes after a deal, and is judged by the exact analyzer
(:func:`casino.videopoker.analyzer.hold_values`): the advice line is an ``out_any`` of every
hold whose exact expected return equals the best hold's, or the seed's list's hold's (the
seed's "perfect strategy" is its list; where the list and the exact optimum disagree both are
right). What the model keeps out, as the assignment does not fix it:

- ``s`` (the statistics table's layout is casino's reading), ``a`` before a deal;
- a ``d`` with no ``b`` since the last hand (whether it re-bets or is refused is open);
- an unknown word, arguments a command does not take, a hold position that is not a distinct
  1–5 (casino's own ``h: illegal position``);
- a cmd-file that ends between a deal and its hold, and a card-file that runs out.

What stays in is fixed by the assignment and the course's example: ``b`` 1–5 (``b 0``,
``b 6``, ``b 10``: ``b: illegal amount``), ``b`` after a deal and ``h``/``d`` at the wrong
moment (``<word>: illegal command``), ``$`` at any moment, every hand's result line.

With ``choices`` (``casino explore --choices``) a session also types what the seed leaves open
and casino answers its own way: ``b`` with two amounts (the seed has "b or b i", nothing of
more; casino: ``b: illegal amount``, no bet), and the program's stderr and exit status are
judged too — for a course that adopts casino's choices, or a change to casino's reference.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from casino.cards import Card, parse_cards
from casino.explore.plan import DATA_MARK, Rendered, RunInput, Session, Unit, smaller_numbers
from casino.explore.references import ABOUT
from casino.harness.model import Out, OutAny, Run, Step, Transcript
from casino.videopoker.commands import advice_message
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayLine, classify
from casino.videopoker.strategy import seed_hold

CREDIT = "10000"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
COMMAND = re.compile(r"b|b [0-9]{1,2}|d|a|h( [1-5])*|\$")
CHOICE = re.compile(r"b [0-9]{1,2} [0-9]{1,2}")
"""With ``choices``: what else a session may type (a bet of two amounts)."""
CHOICE_SHARE = 0.1
"""With ``choices``: the share of units that are one of casino's choices."""
MAX_COMBINATIONS = 64
"""The most combinations of accepted advice lines one session may ask the judge to try."""
STACKED = 0.25
"""The share of hands stacked to a chosen pay line at a chosen bet."""


@dataclass(frozen=True)
class VideoPokerGrammar:
    """Debug-mode sessions of the Double Bonus 10/7 assignment; with ``choices``, casino's
    own choices explored and judged too (the module's docstring)."""

    choices: bool = False
    name = "videopoker"
    program = "videopoker"
    about = ABOUT["videopoker"]

    def generate(self, rng: random.Random, size: int) -> Session:
        """Up to ``size`` units, each hand with its cards (the deal, then the draw): one hand
        in four stacked to a pay line at a bet, held whole."""
        units: list[Unit] = []
        for _ in range(rng.randint(1, size)):
            if self.choices and rng.random() < CHOICE_SHARE:
                units.append((f"b {rng.randint(1, 5)} {rng.randint(1, 5)}",))
                continue
            if rng.random() < STACKED:
                line, bet = rng.choice(list(PayLine)), rng.randint(1, 5)
                hold = "h 1 2 3 4 5"
                advice = ("a",) if rng.random() < 0.3 else ()
                units.append((f"b {bet}", "d", *advice, hold, _cards(_made(rng, line))))
                continue
            unit = _unit(rng)
            if "d" in unit:
                if rng.random() < 0.3:
                    unit = (*unit[:-1], "a", unit[-1])
                held = len(unit[-1].split()) - 1
                unit = (*unit, _cards(_hand(rng, False, 10 - held)))
            units.append(unit)
        return Session((tuple(units),))

    def render(self, session: Session) -> Rendered:
        """The two files, and the arguments naming them."""
        lines = [line for run in session.runs for unit in run for line in unit]
        commands = " ".join(line for line in lines if not line.startswith(DATA_MARK))
        cards = [card for line in lines if line.startswith(DATA_MARK) for card in line.split()[1:]]
        args = ("-d", CREDIT, "cmd-file.txt", "card-file.txt")
        files = (
            ("cmd-file.txt", commands + "\n"),
            ("card-file.txt", " ".join([*cards, *session.data]) + "\n"),
        )
        return Rendered((RunInput(args, ()),), files)

    def group_of_line(self, line: str) -> str:
        """The part of the assignment a line of the reference's output shows (``--every``):
        ``advice`` (``a``), ``pay lines`` (a hand's result and credit), ``hands`` (the cards
        shown), or ``commands`` (bets, ``$``, the illegal ones)."""
        if "should hold" in line or "should discard" in line or line == "-cmd a":
            return "advice"
        if " wins with " in line or " loses and " in line:
            return "pay lines"
        if line.startswith("player's hand"):
            return "hands"
        return "commands"

    def unpinned(self, session: Session) -> str | None:
        """Why the session leaves what the assignment fixes (``None``: it does not)."""
        try:
            _advice(session, self.choices)
        except _Unpinned as why:
            return str(why)
        return None

    @property
    def judges_errors(self) -> bool:
        """With ``choices``: the run's stderr and exit status are recorded and judged."""
        return self.choices

    def loosen(self, session: Session, transcript: Transcript) -> Transcript:
        """The recorded transcript with each advice line an ``out_any`` of every right
        advice (the holds of equal exact value)."""
        accepted = _advice(session, self.choices)
        if not accepted:
            return transcript
        run = transcript.runs[0]
        text = "".join(step.text for step in run.steps if isinstance(step, Out))
        steps: list[Step] = []
        rest = text
        for texts in accepted:  # the first is what the reference printed (the seed's list)
            before, said, rest = rest.partition(texts[0])
            if not said:
                return transcript  # (another advisor): the advice is kept as printed
            steps += [Out(before), OutAny(texts)]
        steps.append(Out(rest))
        kept = tuple(step for step in steps if not (isinstance(step, Out) and not step.text))
        return replace(transcript, runs=(Run(kept, run.args), *transcript.runs[1:]))

    def simpler(self, session: Session) -> Iterator[Session]:
        """Smaller numbers (the cards go with their hands)."""
        yield from smaller_numbers(session)


class _Unpinned(Exception):
    """Control flow, not an error: a line whose answer is left open (the caller skips it)."""


def _advice(session: Session, choices: bool = False) -> list[tuple[str, ...]]:
    """The accepted advice lines of each ``a``, in order (:class:`_Unpinned` where the
    session leaves what the assignment fixes, or with ``choices`` what casino's own
    choices do not fix either)."""
    lines = [line for run in session.runs for unit in run for line in unit]
    stream = [card for line in lines if line.startswith(DATA_MARK) for card in line.split()[1:]]
    stream += list(session.data)
    state, used, bet = "idle", 0, 5
    hand: tuple[str, ...] = ()
    accepted: list[tuple[str, ...]] = []
    for line in lines:
        if line.startswith(DATA_MARK):
            continue
        if not (COMMAND.fullmatch(line) or (choices and CHOICE.fullmatch(line))):
            raise _Unpinned(f"not a command explore types: {line!r}")
        word, *numbers = line.split()
        if word == "h" and len(set(numbers)) != len(numbers):
            raise _Unpinned(f"{line!r}: a position twice")
        if word == "b" and state != "dealt":
            if not numbers or (len(numbers) == 1 and 1 <= int(numbers[0]) <= 5):
                state, bet = "bet", int(numbers[0]) if numbers else bet
        elif word == "d" and state == "idle":
            raise _Unpinned("a deal with no bet since the last hand")
        elif word == "d" and state == "bet":
            if used + 5 > len(stream):
                raise _Unpinned("the card-file runs out")
            hand = tuple(stream[used : used + 5])
            state, used = "dealt", used + 5
            if len(set(hand)) < 5:
                raise _Unpinned("a card twice in one deal")
        elif word == "a":
            if state != "dealt":
                raise _Unpinned("advice with no hand dealt (casino's own message)")
            accepted.append(right_advice(parse_cards(" ".join(hand)), bet))
        elif word == "h" and state == "dealt":
            state, used = "idle", used + 5 - len(numbers)
    if state == "dealt":
        raise _Unpinned("the cmd-file ends between a deal and its hold")
    if used > len(stream):
        raise _Unpinned("the card-file runs out")
    if math.prod(map(len, accepted)) > MAX_COMBINATIONS:
        raise _Unpinned("too many equal holds to list")
    return accepted


def right_advice(hand: list[Card], bet: int) -> tuple[str, ...]:
    """Every advice line that is right for ``hand`` at ``bet``: the seed's list's hold first
    (what the reference prints), then each hold whose exact expected return equals the best's
    or the seed's hold's."""
    from casino.videopoker.analyzer import hold_values  # its tables load on first use

    values = hold_values(hand, DOUBLE_BONUS_10_7, bet)
    seed = seed_hold(hand)
    worth = {values[0].ev} | {value.ev for value in values if value.positions == seed}
    holds = [seed, *(value.positions for value in values if value.ev in worth)]
    return tuple(dict.fromkeys(advice_message(held) + "\n" for held in holds))


def _cards(cards: list[str]) -> str:
    return " ".join([DATA_MARK, *cards])


def _made(rng: random.Random, line: PayLine) -> list[str]:
    """Five different cards whose hand is ``line``, in a random order."""
    while True:
        cards = _shape(rng, line)
        if len(set(cards)) == 5 and classify(parse_cards(" ".join(cards))) is line:
            rng.shuffle(cards)
            return cards


def _shape(rng: random.Random, line: PayLine) -> list[str]:
    suit, ranks = rng.choice(SUITS), list(RANKS)
    start = rng.randint(0, 7)
    quads = {PayLine.FOUR_ACES: "A", PayLine.FOUR_2_4: "234", PayLine.FOUR_5_K: "56789TJQK"}
    if line is PayLine.ROYAL_FLUSH:
        return [rank + suit for rank in "TJQKA"]
    if line is PayLine.STRAIGHT_FLUSH:
        return [rank + suit for rank in ranks[start : start + 5]]
    if line is PayLine.STRAIGHT:
        return [rank + rng.choice(SUITS) for rank in ranks[start : start + 5]]
    if line is PayLine.FLUSH:
        return [rank + suit for rank in rng.sample(ranks, 5)]
    counts = {
        PayLine.FULL_HOUSE: (3, 2),
        PayLine.THREE_OF_A_KIND: (3, 1, 1),
        PayLine.TWO_PAIR: (2, 2, 1),
        PayLine.JACKS_OR_BETTER: (2, 1, 1, 1),
        PayLine.NOTHING: (1, 1, 1, 1, 1),
    }.get(line, (4, 1))
    chosen = rng.sample(ranks, len(counts))
    if line in quads:
        chosen[0] = rng.choice(quads[line])
    if line is PayLine.JACKS_OR_BETTER:
        chosen[0] = rng.choice("JQKA")
    return [
        rank + each
        for rank, count in zip(chosen, counts, strict=True)
        for each in rng.sample(SUITS, count)
    ]


def _unit(rng: random.Random) -> Unit:
    pick = rng.random()
    if pick < 0.1:
        return ("$",)
    if pick < 0.2:
        return (
            (rng.choice(("b 0", "b 6", "b 10", "h", "h 1 2")),)
            if pick < 0.15
            else ("b", "d", "d", _hold(rng))
        )
    bet = rng.choice(("b", "b", "b 1", "b 2", "b 3", "b 4", "b 5"))
    extra: tuple[str, ...] = (rng.choice(("b", "$", "b 3")),) if rng.random() < 0.15 else ()
    return (bet, "d", *extra, _hold(rng))


def _hold(rng: random.Random) -> str:
    positions = sorted(rng.sample(range(1, 6), rng.choice((0, 1, 2, 2, 3, 3, 4, 5))))
    return " ".join(["h", *map(str, positions)])


def _hand(rng: random.Random, rigged: bool, count: int) -> list[str]:
    """``count`` different cards for one hand (the deal, then the draw); rigged, the deal
    opens with four of a kind; else three times in ten a card shares the rank or suit of the
    one before (pairs, trips, flush draws)."""
    cards: list[str] = []
    if rigged:
        rank = rng.choice(RANKS)
        cards = rng.sample([rank + suit for suit in SUITS], 4)
    while len(cards) < count:
        choices = [card for card in DECK if card not in cards]
        if cards and rng.random() < 0.3:
            last = cards[-1]
            alike = [c for c in choices if c[0] == last[0] or c[1] == last[1]]
            choices = alike or choices
        cards.append(rng.choice(choices))
    return cards
