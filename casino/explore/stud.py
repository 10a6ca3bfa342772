"""``casino explore --reference stud-player``: three-card stud's player judged by the seed's rules.

There is no reference player to compare with, so explore acts as the dealer and judges each
reply by the rules the seed pins: a ``bet:<n>`` or ``fold`` reply to every ``bet1``/``bet2``,
a bet from the amount to match to $10 more and never over the stack, every reply within
1 second, and the socket closed after ``done``. A *game* is drawn from the seed: the player's
starting chips, then hands (cards, the amount to match in each betting request, whether the
player is the last one in after ``bet1``); the dealer plays it adaptively (the player's
stack and the pot follow its own replies, as a dealer's do). On a breach the game is shrunk
by delta debugging over its hands, then to fewer chips (with ``--every``: all the games are
played, and the first game to break each rule is shrunk, each keeping its rule broken), and
written as the *dealer's script*:
the messages sent, the replies got, the breach, and the game itself on a ``# game:`` line
(JSON), which ``casino explore --reference stud-player --program CMD --replay SCRIPT``
deals again to any player (:func:`replay_script`) and judges the same way.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from casino.cards import FULL_DECK, Card
from casino.clock import Clock
from casino.errors import SetupError
from casino.explore.shrink import ddmin
from casino.net.stream import ConnectionClosed, FrameStream, bound_port, serve
from casino.stud import protocol as wire
from casino.stud.check import Limits, arrival
from casino.stud.launch import Launch

ANTE = 1
"""Every hand starts with a $1 ante (the seed)."""


@dataclass(frozen=True)
class Hand:
    """One hand as dealt: the cards (the player's first, then each opponent's), and what the
    player faces: the amount to match of each ``bet1`` and ``bet2`` request (none in round 2:
    the player was the only one left after ``bet1``)."""

    cards: tuple[Card, ...]
    """Hole, up1, up2 of the player, then up1, up2 of each opponent."""
    first: tuple[int, ...]
    second: tuple[int, ...]

    @property
    def opponents(self) -> int:
        """How many other players are dealt in."""
        return (len(self.cards) - 3) // 2


@dataclass(frozen=True)
class Game:
    """The player's starting chips and the hands dealt."""

    chips: int
    hands: tuple[Hand, ...]

    @property
    def size(self) -> tuple[int, int, int]:
        """Hands, then messages, then chips: what shrinking makes smaller."""
        requests = sum(len(hand.first) + len(hand.second) for hand in self.hands)
        return len(self.hands), requests, self.chips


@dataclass
class Played:
    """What happened in one game: every message and reply, and the first breach."""

    lines: list[str] = field(default_factory=list)
    breach: str | None = None
    rule: str | None = None
    """The rule broken: ``legal``, ``timely``, ``closes`` or ``connects``."""


def draw_game(rng: random.Random, hands: int) -> Game:
    """A game of ``hands`` hands from ``rng``: small stacks half the time (the edges where a
    stack cannot match, or just can), otherwise the seed's example sizes."""
    chips = rng.choice([rng.randint(1, 12), rng.randint(13, 220)])
    return Game(chips, tuple(_draw_hand(rng) for _ in range(hands)))


def _draw_hand(rng: random.Random) -> Hand:
    opponents = rng.randint(1, 8)
    cards = tuple(rng.sample(FULL_DECK, 3 + 2 * opponents))
    first = _faced(rng, rng.randint(1, 3))
    second = () if rng.random() < 0.2 else _faced(rng, rng.randint(1, 2))
    return Hand(cards, first, second)


def _faced(rng: random.Random, count: int) -> tuple[int, ...]:
    """The amounts to match of one round's requests: the first may be 0 (an opening bet),
    a request after it comes only after a raise (1 or more)."""
    opening = rng.choice([0, 0, rng.randint(1, 10), rng.randint(5, 25)])
    return (opening, *(rng.randint(1, 10) for _ in range(count - 1)))


def _request(round_: int, stack: int, pot: int, to_match: int, hand: Hand) -> str:
    mine = hand.cards[:3]
    theirs = [hand.cards[3 + 2 * i : 5 + 2 * i] for i in range(hand.opponents)]
    up = [mine[1 : 1 + round_]] + [pair[:round_] for pair in theirs]
    table = tuple(tuple(cards) for cards in up)
    request = wire.BetRequest(
        round_, stack, pot, to_match, mine[0], tuple(mine[1 : 1 + round_]), table
    )
    return wire.format_command(request)


class _Dealer:
    """One game against the player's connection, judged as it goes."""

    def __init__(self, stream: FrameStream, clock: Clock, limits: Limits, played: Played) -> None:
        self.stream, self.clock, self.limits, self.played = stream, clock, limits, played

    def breach(self, rule: str, text: str) -> None:
        if self.played.breach is None:
            self.played.breach, self.played.rule = text, rule

    async def ask(self, text: str) -> str | None:
        """Send ``text``; the reply (noted), or ``None`` after a breach (late, gone)."""
        self.played.lines.append(f"dealer: {text}")
        start = self.clock.now()
        try:
            await self.stream.send(text)
            reply = await self.clock.within(self.stream.receive(), self.limits.patience)
        except TimeoutError:
            self.breach("timely", f"no reply to {text!r} within {self.limits.patience:g} s")
            return None
        except ConnectionClosed as error:
            self.breach("legal", f"the player hung up at {text!r} ({error})")
            return None
        took = self.clock.now() - start
        self.played.lines.append(f"player: {reply}")
        if took > self.limits.reply:
            self.breach("timely", f"the reply {reply!r} to {text!r} took {took:.2f} s, over 1 s")
            return None
        return reply

    async def bet(self, text: str, stack: int, to_match: int) -> int | None:
        """Ask a betting request; the amount bet (``-1``: fold), ``None`` after a breach."""
        reply = await self.ask(text)
        if reply is None:
            return None
        try:
            action = wire.parse_action(reply)
        except wire.ProtocolError as error:
            self.breach("legal", f"{reply!r} to {text!r}: {error}")
            return None
        if isinstance(action, wire.Fold):
            return -1
        if not wire.legal_bet(action.amount, stack, to_match):
            allowed = wire.legal_range(stack, to_match)
            why = (
                f"legal: {allowed.start} to {allowed.stop - 1}, or fold"
                if allowed
                else f"only fold is legal: a stack of {stack} cannot match {to_match}"
            )
            self.breach("legal", f"{reply!r} to {text!r}: {why}")
            return None
        return action.amount

    async def play(self, game: Game) -> None:
        """Log in, deal every hand the player can ante for, say ``done``, watch it close."""
        login = await self.ask("login")
        if login is None:
            return
        try:
            wire.parse_login_reply(login)
        except wire.ProtocolError as error:
            self.breach("legal", f"{login!r} to 'login': {error}")
            return
        stack = game.chips
        for hand in game.hands:
            if stack < ANTE:
                break
            left = await self.hand(hand, stack - ANTE)
            if left is None:
                return
            stack = left
        await self.close("out of money" if stack < ANTE else "the game is over")

    async def hand(self, hand: Hand, stack: int) -> int | None:
        """One hand; the stack after it (the pot is not paid back: a breach, not a score, is
        what is judged), ``None`` after a breach."""
        pot = ANTE * (hand.opponents + 1)
        for round_, faced in ((1, hand.first), (2, hand.second)):
            for to_match in faced:
                amount = await self.bet(
                    _request(round_, stack, pot, to_match, hand), stack, to_match
                )
                if amount is None:
                    return None
                if amount < 0:
                    return await self.status(hand, stack)
                stack, pot = stack - amount, pot + amount + to_match * hand.opponents
        return await self.status(hand, stack)

    async def status(self, hand: Hand, stack: int) -> int:
        """Say ``status`` (the player's own three cards, a loss); the stack."""
        text = ":".join(["status", "lose", *map(wire.card_text, hand.cards[:3])])
        self.played.lines.append(f"dealer: {text}")
        await self.stream.send(text)
        return stack

    async def close(self, why: str) -> None:
        text = f"done:{why}"
        self.played.lines.append(f"dealer: {text}")
        try:
            await self.stream.send(text)
        except ConnectionClosed:
            return
        try:
            await asyncio.wait_for(self.stream.until_closed(), self.limits.close)
        except TimeoutError:
            self.breach(
                "closes", f"sent {text!r}: the socket was still open {self.limits.close:g} s later"
            )


async def play_game(launch: Launch, game: Game, clock: Clock, limits: Limits) -> Played:
    """Start the player, deal ``game`` to it over a loopback socket, stop it; what happened."""
    arrived: asyncio.Queue[FrameStream] = asyncio.Queue()
    finished = asyncio.Event()

    async def accept(stream: FrameStream) -> None:
        await arrived.put(stream)
        await finished.wait()

    server = await serve(accept)
    played = Played()
    try:
        process = await launch.start(bound_port(server), asyncio.subprocess.DEVNULL)
        try:
            stream = await arrival(arrived, process, limits)
            if isinstance(stream, str):
                played.breach, played.rule = stream, "connects"
                return played
            try:
                await _Dealer(stream, clock, limits, played).play(game)
            finally:
                await stream.close()
        finally:
            await launch.stop(process, 0.0)
    finally:
        finished.set()
        server.close()
    return played


@dataclass
class StudFound:
    """A game that shows a breach, as found and as shrunk."""

    game: Game
    played: Played
    number: int
    runs: int = 0


class StudExplorer:
    """Games drawn from a seed, played one at a time; the first breach shrunk."""

    def __init__(self, launch: Launch, clock: Clock, limits: Limits | None = None) -> None:
        self.launch, self.clock, self.limits = launch, clock, limits or Limits(patience=1.5)
        self.runs = 0

    def run(self, game: Game) -> Played:
        """Play ``game`` once (a program run)."""
        self.runs += 1
        return asyncio.run(play_game(self.launch, game, self.clock, self.limits))

    def find(self, seed: int, games: int) -> StudFound | None:
        """The first of ``games`` games (1 hand, then longer) that shows a breach."""
        return next(self._breaches(seed, games), None)

    def find_every(self, seed: int, games: int) -> list[StudFound]:
        """The first game to break each rule (``--every``), in the order found, all ``games``
        played (a game shows one breach: the dealer stops at it)."""
        first: dict[str | None, StudFound] = {}
        for found in self._breaches(seed, games):
            first.setdefault(found.played.rule, found)
        return list(first.values())

    def _breaches(self, seed: int, games: int) -> Iterator[StudFound]:
        """Each of ``games`` games drawn from ``seed`` that shows a breach, as played."""
        rng = random.Random(seed)
        for number in range(1, games + 1):
            game = draw_game(rng, 1 + min(number // 2, 12))
            played = self.run(game)
            if played.breach is not None:
                yield StudFound(game, played, number)

    def shrink(self, found: StudFound) -> StudFound:
        """Fewest hands, then fewest requests a hand, then fewest chips, same rule broken."""
        rule = found.played.rule
        cache: dict[Game, Played] = {}

        def breaks(game: Game) -> bool:
            if game not in cache:
                cache[game] = self.run(game)
            return cache[game].rule == rule

        game = found.game
        hands = ddmin(
            game.hands, lambda kept: bool(kept) and breaks(replace(game, hands=tuple(kept)))
        )
        game = replace(game, hands=tuple(hands))
        for index, hand in enumerate(game.hands):
            for candidate in (
                replace(hand, second=()),
                replace(hand, first=hand.first[:1], second=hand.second[:1]),
            ):
                trial = replace(
                    game, hands=(*game.hands[:index], candidate, *game.hands[index + 1 :])
                )
                if trial.size < game.size and breaks(trial):
                    game = trial
                    hand = candidate
        for chips in sorted({1, 2, game.chips // 2, game.chips - 1}):
            trial = replace(game, chips=chips)
            if 0 < chips < game.chips and breaks(trial):
                game = trial
                break
        played = cache.get(game) or found.played
        return StudFound(game, played, found.number, self.runs)


GAME_MARK = "# game: "
"""The script's line that holds the game itself (JSON), which ``--replay`` deals again."""


def game_text(game: Game) -> str:
    """``game`` as one line of JSON: the chips, and each hand's cards (as the protocol
    writes them) and amounts to match."""
    hands = [
        {"cards": [wire.card_text(c) for c in h.cards], "first": h.first, "second": h.second}
        for h in game.hands
    ]
    return json.dumps({"chips": game.chips, "hands": hands}, separators=(",", ":"))


def game_of_script(text: str) -> Game:
    """The game a dealer's script was written from (its ``# game:`` line);
    :class:`ScriptError` if there is none or it is not one."""
    line = next((line for line in text.splitlines() if line.startswith(GAME_MARK)), None)
    if line is None:
        raise ScriptError("no '# game:' line: not a dealer's script casino explore wrote")
    cards = {wire.card_text(card): card for card in FULL_DECK}
    try:
        data = json.loads(line.removeprefix(GAME_MARK))
        hands = tuple(
            Hand(
                tuple(cards[text] for text in hand["cards"]),
                tuple(_amount(n) for n in hand["first"]),
                tuple(_amount(n) for n in hand["second"]),
            )
            for hand in data["hands"]
        )
        game = Game(_amount(data["chips"]), hands)
    except (ValueError, KeyError, TypeError) as error:
        raise ScriptError(f"the '# game:' line is not a game ({error})") from None
    if any(len(hand.cards) < 5 or len(hand.cards) % 2 == 0 or not hand.first for hand in hands):
        raise ScriptError("the '# game:' line is not a game (a hand's cards or requests)")
    return game


def _amount(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{value!r} is not an amount")
    return value


class ScriptError(SetupError):
    """A file given to ``--replay`` that is not a dealer's script."""


def replay_script(command: Sequence[str], clock: Clock, text: str) -> Played:
    """Deal the game of a dealer's script again to ``command`` (``{host}``/``{port}``
    replaced), judged as explore judged it: what happened, its breach if any."""
    return StudExplorer(Launch(tuple(command)), clock).run(game_of_script(text))


def script(found: StudFound, seed: int) -> str:
    """The dealer's script of a shrunk game: what the dealer sent and the player replied,
    then the breach (the file explore writes; its ``# game:`` line is what ``--replay``
    deals again)."""
    game = found.game
    head = [
        f"# casino explore --reference stud-player, seed {seed}, game {found.number}",
        f"# shrunk to {len(game.hands)} hand(s), the player starting with {game.chips} chips",
        "# the dealer's script: each line the dealer sent, and the player's reply",
        GAME_MARK + game_text(game),
    ]
    return "\n".join(
        [*head, *found.played.lines, f"breach ({found.played.rule}): {found.played.breach}", ""]
    )


def explore_player(
    command: Sequence[str], clock: Clock, seed: int, games: int, *, every: bool = False
) -> tuple[list[StudFound], int]:
    """Explore ``command`` (``{host}``/``{port}`` replaced): the breaches found, shrunk, and
    the runs it took. The first breach (none, or one); with ``every`` (``--every``), all
    ``games`` played and the first breach of each rule, in the order found."""
    explorer = StudExplorer(Launch(tuple(command)), clock)
    if every:
        founds = explorer.find_every(seed, games)
    else:
        found = explorer.find(seed, games)
        founds = [] if found is None else [found]
    return [explorer.shrink(found) for found in founds], explorer.runs
