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
right).

Every session ends with ``s``, the statistics table (a unit shrinking may drop): the seed pins
its rows, their order and their counts (lines 247–263), not its spacing nor how N13's
percentage is written, so the recorded table is judged as a regular expression
(:func:`table_pattern`): each row's label and number as the reference prints them with any
run of spaces or tabs between, and the credit line's percentage any text in its brackets.
What the model keeps out, as the assignment does not fix it:

- ``a`` before a deal;
- a ``d`` with no ``b`` since the last hand (whether it re-bets or is refused is open);
- an unknown word, arguments a command does not take, a hold position that is not a distinct
  1–5 (casino's own ``h: illegal position``);
- a cmd-file that ends between a deal and its hold, and a card-file that runs out.

What stays in is fixed by the assignment and the course's example: ``b`` 1–5 (``b 0``,
``b 6``, ``b 10``: ``b: illegal amount``), ``b`` after a deal and ``h``/``d`` at the wrong
moment (``<word>: illegal command``), ``$`` at any moment, every hand's result line.

With ``choices`` (``casino explore --choices``) a session also types what the seed leaves open
and casino answers its own way (:func:`_casinos_own`): ``b`` with two amounts (the seed has "b
or b i", nothing of more; casino: ``b: illegal amount``, no bet), ``s``, ``$``, ``d`` or ``a``
with an argument, ``a`` before a deal and an unknown word (``<word>: illegal command``), a
hold position twice or not 1–5 (``h: illegal position``); the program's stderr and exit status
are judged too — for a course that adopts casino's choices, or a change to casino's reference.
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
from casino.harness.model import Out, OutAny, OutRe, Run, Step, Transcript
from casino.videopoker.commands import advice_message
from casino.videopoker.game import drawn_hand
from casino.videopoker.paytable import DOUBLE_BONUS_10_7, PayLine, classify
from casino.videopoker.stats import LABELS
from casino.videopoker.strategy import seed_hold

CREDIT = "10000"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
COMMAND = re.compile(r"b|b [0-9]{1,2}|d|a|s|h( [1-5])*|\$")
CHOICE = re.compile(r"b [0-9]{1,2} [0-9]{1,2}|[sda$] [0-9]{1,2}|h( [0-9]{1,2})*|x|bet")
"""With ``choices``: what else a session may type (:func:`_choice_unit`)."""
BAD_AFTER_DEAL = ("h 1 1", "h 0", "h 6", "h 1 2 3 4 5 1", "a 1")
"""With ``choices``: lines typed between a deal and its hold that casino refuses its own way
(a position twice or not 1–5: ``h: illegal position``; ``a`` with an argument)."""
CHOICE_SHARE = 0.2
"""With ``choices``: the share of units that are one of casino's choices."""
MAX_COMBINATIONS = 64
"""The most combinations of accepted advice lines one session may ask the judge to try."""
STACKED = 0.25
"""The share of hands stacked to a chosen pay line at a chosen bet."""
CREDIT_MARK = f"{DATA_MARK} credit "
"""A data line that sets the session's credit (``-d CREDIT``) instead of :data:`CREDIT`."""
TIGHT_SHARE = 0.1
"""The share of sessions played on a tight credit (:func:`_tight`)."""
BET = re.compile(r"b|b [1-5]")


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
                units.append(_choice_unit(rng))
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
        tight = _tight(units)
        if tight is not None:
            return Session((tuple(tight),))
        units.append(("s",))  # drawn from no random number: the sessions are as before it
        return Session((tuple(units),))

    def render(self, session: Session) -> Rendered:
        """The two files, and the arguments naming them."""
        lines = [line for run in session.runs for unit in run for line in unit]
        commands = " ".join(line for line in lines if not line.startswith(DATA_MARK))
        args = ("-d", _credit(lines), "cmd-file.txt", "card-file.txt")
        cards = _card_stream(lines)
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
        if line == "-cmd s" or TABLE_ROW.fullmatch(line):
            return "statistics"
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
        run = transcript.runs[0]
        text = "".join(step.text for step in run.steps if isinstance(step, Out))
        steps: list[Step] = []
        rest = text
        for texts in accepted:  # the first is what the reference printed (the seed's list)
            before, said, rest = rest.partition(texts[0])
            if not said:
                return transcript  # (another advisor): the advice is kept as printed
            steps += [*_tables(before), OutAny(texts)]
        steps += _tables(rest)
        kept = tuple(step for step in steps if not (isinstance(step, Out) and not step.text))
        return replace(transcript, runs=(Run(kept, run.args, run.exit, run.stderr),))

    def simpler(self, session: Session) -> Iterator[Session]:
        """Smaller numbers (the cards go with their hands)."""
        yield from smaller_numbers(session)


_COUNTED = "|".join(map(re.escape, LABELS[1:-1]))
TABLE = re.compile(
    rf"^Hand[ \t]+Nb\n(?:(?:{_COUNTED})[ \t]+[0-9]+\n){{{len(LABELS) - 2}}}"
    r"Credit[ \t]+-?[0-9]+ \(.*%\)\n",
    re.MULTILINE,
)
"""The statistics table as casino prints it (:data:`casino.videopoker.stats.LABELS`, in order)."""
TABLE_ROW = re.compile(rf"(?:{'|'.join(map(re.escape, LABELS))})[ \t]+.*")
"""A line of the statistics table (``--every``'s group)."""


def table_pattern(table: str) -> str:
    """The regular expression a statistics table printed as ``table`` is judged by: each
    row's label and number as printed, any spaces or tabs between them (at least one), and
    the credit line's percentage any text in its brackets."""
    rows = []
    for line in table.splitlines():
        found = re.fullmatch(r"(.*?)[ \t]+(-?[0-9]+|Nb)(?: \(.*%\))?", line)
        assert found is not None, line  # a row of TABLE
        label, number = found.groups()
        words = re.escape(label).replace("\\ ", " ")  # a space needs no escape
        row = f"{words}[ \\t]+{re.escape(number)}"
        rows.append(row + (r"[ \t]*\([^)\n]*%\)" if label == "Credit" else ""))
    return "".join(f"{row}\n" for row in rows)


def _tables(text: str) -> list[Step]:
    """``text`` as ``out`` steps, each statistics table in it an ``out_re`` of
    :func:`table_pattern`."""
    steps: list[Step] = []
    at = 0
    for found in TABLE.finditer(text):
        steps += [Out(text[at : found.start()]), OutRe(table_pattern(found.group()))]
        at = found.end()
    steps.append(Out(text[at:]))
    return steps


class _Unpinned(Exception):
    """Control flow, not an error: a line whose answer is left open (the caller skips it)."""


def _advice(session: Session, choices: bool = False) -> list[tuple[str, ...]]:
    """The accepted advice lines of each ``a``, in order (:class:`_Unpinned` where the
    session leaves what the assignment fixes, or with ``choices`` what casino's own
    choices do not fix either)."""
    lines = [line for run in session.runs for unit in run for line in unit]
    stream = _card_stream(lines) + list(session.data)
    credit = int(_credit(lines))
    if credit < 1:
        raise _Unpinned("a credit below 1 (casino's own usage error)")
    state, used, bet = "idle", 0, 5
    hand: tuple[str, ...] = ()
    accepted: list[tuple[str, ...]] = []
    for line in lines:
        if line.startswith(DATA_MARK):
            continue
        if not (COMMAND.fullmatch(line) or (choices and CHOICE.fullmatch(line))):
            raise _Unpinned(f"not a command explore types: {line!r}")
        word, *numbers = line.split()
        if choices and _casinos_own(word, numbers, state):
            continue  # refused with casino's message; nothing changes
        if word == "h" and len(set(numbers)) != len(numbers):
            raise _Unpinned(f"{line!r}: a position twice")
        if word == "b" and state != "dealt":
            if not numbers or (len(numbers) == 1 and 1 <= int(numbers[0]) <= 5):
                amount = int(numbers[0]) if numbers else bet
                if amount > credit and choices:
                    continue  # casino: b: illegal amount, no bet placed
                if amount > credit:
                    raise _Unpinned("a bet over the credit left (casino's own message)")
                state, bet = "bet", amount
        elif word == "d" and state == "idle":
            raise _Unpinned("a deal with no bet since the last hand")
        elif word == "d" and state == "bet":
            if used + 5 > len(stream):
                raise _Unpinned("the card-file runs out")
            hand = tuple(stream[used : used + 5])
            state, used, credit = "dealt", used + 5, credit - bet
            if len(set(hand)) < 5:
                raise _Unpinned("a card twice in one deal")
        elif word == "a":
            if state != "dealt":
                raise _Unpinned("advice with no hand dealt (casino's own message)")
            accepted.append(right_advice(parse_cards(" ".join(hand)), bet))
        elif word == "h" and state == "dealt":
            credit += _payout(hand, {int(n) - 1 for n in numbers}, stream[used:], bet)
            state, used = "idle", used + 5 - len(numbers)
    if state == "dealt":
        raise _Unpinned("the cmd-file ends between a deal and its hold")
    if used > len(stream):
        raise _Unpinned("the card-file runs out")
    if math.prod(map(len, accepted)) > MAX_COMBINATIONS:
        raise _Unpinned("too many equal holds to list")
    return accepted


def _credit(lines: list[str]) -> str:
    """The session's credit: its :data:`CREDIT_MARK` line's, else :data:`CREDIT`."""
    marked = (line[len(CREDIT_MARK) :] for line in lines if line.startswith(CREDIT_MARK))
    return next(marked, CREDIT)


def _card_stream(lines: list[str]) -> list[str]:
    """The cards of the session's data lines, in the order they are dealt."""
    data = (line for line in lines if line.startswith(DATA_MARK))
    return [card for line in data if not line.startswith(CREDIT_MARK) for card in line.split()[1:]]


def _payout(hand: tuple[str, ...], held: set[int], rest: list[str], bet: int) -> int:
    """What a hold of positions ``held`` (0-based) of ``hand`` pays at ``bet``, the new cards
    taken from ``rest`` (0 if they run out: the session is refused for that anyway)."""
    if len(rest) < 5 - len(held):
        return 0
    final = drawn_hand(hand, held, rest)
    if len(set(final)) < 5:
        return 0
    return DOUBLE_BONUS_10_7.payout(classify(parse_cards(" ".join(final))), bet)


def _tight(units: list[Unit]) -> list[Unit] | None:
    """One session in :data:`TIGHT_SHARE` (drawn from its own units, not from the session
    stream, so the others are as before) played on a tight credit: its first hand, whose
    bet is the whole credit (the seed: "a bet of one or more credits"; a bet of all of them
    must be dealt), then ``$`` and ``s``. ``None``: not this one, or it has no such hand."""
    if random.Random(repr(units)).random() >= TIGHT_SHARE:
        return None
    for unit in units:
        if len(unit) > 2 and BET.fullmatch(unit[0]) and unit[1] == "d":
            amount = unit[0].removeprefix("b").strip() or "5"
            return [(f"{CREDIT_MARK}{amount}",), unit, ("$",), ("s",)]
    return None


def _casinos_own(word: str, numbers: list[str], state: str) -> bool:
    """Whether a line (``word`` and its numbers, typed in ``state``) is one that casino
    refuses its own way, changing nothing, where the seed leaves the answer open: arguments
    to ``s``, ``$``, ``d`` or ``a``, ``a`` with no hand, a bet of two amounts, a hold whose
    positions repeat or are not 1–5, an unknown word."""
    if word not in ("b", "d", "a", "h", "s", "$"):
        return True
    if word in "sda$" and numbers:
        return True
    if word == "a":
        return state != "dealt"
    if word == "b":
        return len(numbers) > 1
    if word == "h" and state == "dealt":
        valid = all(1 <= int(number) <= 5 for number in numbers)
        return not valid or len(set(numbers)) != len(numbers)
    return False


def _choice_unit(rng: random.Random) -> Unit:
    """With ``choices``: a unit of what casino answers its own way (:func:`_casinos_own`): a
    bet of two amounts, a command with an argument it takes none of, ``a`` before a deal, an
    unknown word, or a hand with one of :data:`BAD_AFTER_DEAL` between its deal and its hold."""
    pick = rng.randrange(3)
    if pick == 0:
        return (f"b {rng.randint(1, 5)} {rng.randint(1, 5)}",)
    if pick == 1:
        return (rng.choice(("s 1", "$ 5", "d 2", "a 1", "a", "x", "bet")),)
    hold = _hold(rng)
    held = len(hold.split()) - 1
    return ("b", "d", rng.choice(BAD_AFTER_DEAL), hold, _cards(_hand(rng, False, 10 - held)))


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
