"""Thousands of seeded games with random answers, valid and not: the invariants hold.

Through the command line (300 sessions, answers drawn from valid and invalid ones, output
checked line by line) and on the table directly (400 examples of 5 games each, every
player's choices random or casino's, banks of any size):

- no traceback: every run ends with status 0, or 1 with the one end-of-input line;
- every hand shown is five different cards, and no card is dealt twice in a game;
- chips are conserved: every bet line adds up (pot, what the player has left);
- the winner holds the best rank (with ``--tiebreak kickers``, the best hand by
  ``rank_hand``, and every hand as good shares the pot).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from casino.cards import Card, Deck, parse_cards, rank_hand
from casino.draw.play import Event, play
from casino.draw.rules import RANK_NAMES, START_BANK, Exchange, Showdown, Table, Tiebreak
from casino.draw.strategy import RandomPlayer, Strategy

from .helpers import draw

ANSWERS = ["2", "3", "4", "5", "9", "0", "-1", "x", "", " ", "b", "B", "f", "F", "e", "bb"]
ANSWERS += ["1", "10", "100", "500", "999", "1000", "1001", "9" * 40, "1 3", "2,4", "", "1 1"]
answer = st.one_of(
    st.sampled_from(ANSWERS),
    st.text(st.characters(exclude_characters="\n\r", codec="utf-8"), max_size=6),
)
HAND = re.compile(r"\[(?:\('[^']+', '[^']+'\)(?:, )?)+\]")
BET = re.compile(r"^(Player_\d) bets (\d+)\. The pot is at (\d+) (Player_\d) has (\d+) left$")
HOLDING = re.compile(r"^Player (Player_\d) is holding (\[.*\]) which is (.+)$")
WINNER = re.compile(r"^The winners? (?:is|are) (.+) which drew (.+) with the hands? \[(.*)\]$")
NAME_OF = {name: category for category, name in RANK_NAMES.items()}


@dataclass
class Ledger:
    """What the output has shown so far of one game."""

    banks: dict[str, int]
    pot: int = 0
    seen: set[Card] = field(default_factory=set)
    hands: dict[str, list[Card]] = field(default_factory=dict)
    exchanging: int = 0


def check_hands(line: str, ledger: Ledger) -> None:
    for text in HAND.findall(line):
        hand = parse_cards(text)
        assert len(hand) == 5 and len(set(hand)) == 5, line
    if " hand is now " in line or " cards: " in line:
        name = line.split()[1] if line.startswith("Player Player_") else line.split()[0]
        hand = parse_cards(HAND.findall(line)[0])
        new = set(hand) - set(ledger.hands.get(name, []))
        if " hand is now " in line:
            kept = len(hand) - ledger.exchanging
            assert len(new) == ledger.exchanging, line
            assert hand[:kept] == [c for c in ledger.hands[name] if c in hand[:kept]], line
        if name in ledger.hands:
            assert not new & ledger.seen, f"a card seen before came back: {line}"
        else:
            assert not new & ledger.seen, f"a card dealt twice: {line}"
        ledger.seen |= set(hand)
        ledger.hands[name] = hand


def check_exchange_count(line: str, ledger: Ledger) -> None:
    match = re.match(r"^Player Player_\d will exchange (\d) cards?\.\.\.\.$", line)
    if match:
        ledger.exchanging = int(match.group(1))
    elif line.endswith("(standing pat)"):
        ledger.exchanging = 0


def check_bet(line: str, ledger: Ledger) -> None:
    match = BET.match(line)
    if match:
        name, amount, pot, owner, left = match.groups()
        assert name == owner
        ledger.pot += int(amount)
        ledger.banks[name] -= int(amount)
        assert (int(pot), int(left)) == (ledger.pot, ledger.banks[name]), line


def check_showdown(lines: list[str], kickers: bool) -> None:
    holdings = [HOLDING.match(line) for line in lines]
    held = {m.group(1): parse_cards(m.group(2)) for m in holdings if m}
    for m in holdings:
        if m:
            assert NAME_OF[m.group(3)] == rank_hand(held[m.group(1)]).category
    winner = WINNER.match(lines[-1] if not lines[-1].startswith("The pot of") else lines[-2])
    assert winner, lines
    names = re.split(r", | and ", winner.group(1))
    values = {name: rank_hand(hand) for name, hand in held.items()}
    if kickers:
        best = max(values.values())
        assert names == [name for name in held if values[name] == best]
    else:
        best_category = max(value.category for value in values.values())
        assert names == [next(n for n in held if values[n].category == best_category)]
    assert NAME_OF[winner.group(2)] == values[names[0]].category


@settings(max_examples=300, deadline=None)
@given(
    answers=st.lists(answer, max_size=14),
    seed=st.integers(0, 10**6),
    players=st.sampled_from([None, 2, 3, 4, 5]),
    kickers=st.booleans(),
    choose=st.booleans(),
)
def test_random_sessions_keep_the_invariants(
    answers: list[str], seed: int, players: int | None, kickers: bool, choose: bool
) -> None:
    args = ["--seed", str(seed), "--tiebreak", "kickers" if kickers else "first"]
    args += ["--players", str(players)] if players else []
    args += ["--choose"] if choose else []
    run = draw("".join(a + "\n" for a in answers), *args)
    if run.status == 1:
        assert run.err.startswith("draw: end of input at '") and run.err.count("\n") == 1
    else:
        assert (run.status, run.err) == (0, "")
    ledger = Ledger({f"Player_{i}": START_BANK for i in range(1, 6)})
    lines = [line.rsplit("==> ", 1)[-1] for line in run.out.split("\n")]  # answers are not echoed
    for line in lines:
        check_exchange_count(line, ledger)
        check_hands(line, ledger)
        check_bet(line, ledger)
        if line.startswith("You folded! You have "):
            assert line == f"You folded! You have {ledger.banks['Player_1']} left"
    if "Active players - display the HAND and RANK for each player" in lines:
        start = lines.index("Active players - display the HAND and RANK for each player")
        check_showdown([line for line in lines[start + 1 :] if line], kickers)


class RandomOpener:
    """Player_1 answering at random: folds sometimes, bets any amount, exchanges anything."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def bet(self, table: Table) -> int | None:
        if self.rng.random() < 0.1:
            return None
        return self.rng.randint(1, table.seats[0].bank)

    def discards(self, table: Table) -> list[int]:
        return RandomPlayer(self.rng).discards(table.seats[0].hand)


GAMES_PER_EXAMPLE = 5


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    banks=st.lists(st.integers(1, 2000), max_size=5),
    kickers=st.booleans(),
    casino_players=st.booleans(),
)
def test_random_games_conserve_chips_and_never_deal_a_card_twice(
    seed: int, players: int, banks: list[int], kickers: bool, casino_players: bool
) -> None:
    for game in range(GAMES_PER_EXAMPLE):
        check_one_game(random.Random(f"{seed}:{game}"), players, banks, kickers, casino_players)


def check_one_game(
    rng: random.Random, players: int, banks: list[int], kickers: bool, casino_players: bool
) -> None:
    table = Table(players, Deck.shuffled(rng), banks[:players])
    chips = table.chips
    hands = [list(seat.hand) for seat in table.seats]

    def report(event: Event) -> None:
        assert table.chips == chips
        if isinstance(event, Exchange):
            before, after = hands[event.seat], list(event.hand)
            kept = 5 - event.count
            assert after[:kept] == [card for card in before if card in after[:kept]]
            assert not set(after[kept:]) & set(before)
            hands[event.seat] = after
        for seat in table.seats:
            assert len(seat.hand) == len(set(seat.hand)) == 5

    computers = [Strategy() if casino_players else RandomPlayer(rng) for _ in range(players - 1)]
    tiebreak = Tiebreak.KICKERS if kickers else Tiebreak.FIRST
    result = play(table, RandomOpener(rng), computers, report, tiebreak)
    assert len(table.dealt) == len(set(table.dealt))
    assert table.chips == chips
    if isinstance(result, Showdown):
        assert table.pot == 0
        values = [h.value for h in result.holdings]
        best = max(values) if kickers else max(v.category for v in values)
        won = [h.value if kickers else h.category for h in result.winners]
        assert all(w == best for w in won)
        if kickers:
            assert len(result.winners) == values.count(max(values))
        else:
            assert result.winners[0] == next(h for h in result.holdings if h.category == best)
