"""The automatic tester's rubric: its lines and their points (:data:`POINTS`), and the
battery that probes them (:data:`GROUPS`: the seed's examples, the edge cases that trip
players up, the "plays intelligently" scenarios), one session a group. Data only:
:mod:`casino.stud.check` runs the sessions and scores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from casino.stud import protocol as wire

REPEATS = 3
"""How often each "plays intelligently" scenario is asked in its session: a player that is
right by chance (a random one) is caught, a deterministic one answers the same each time."""


CONNECTS = "connects to the dealer"
LOGIN = "answers login twice, the same way"
LEGAL = "every reply is legal"
TIMELY = "every reply within 1 s"
CLOSES = "closes the socket after done"
THREE = "bets with three of a kind"
HOPELESS = "folds a hopeless hand against a pair of aces"
SPADE = "values a high spade in the hole"
UP_CARDS = "uses the other players' up cards"

POINTS: dict[str, float] = {
    CONNECTS: 15,
    LOGIN: 5,
    LEGAL: 50,
    TIMELY: 40,
    CLOSES: 10,
    THREE: 15,
    HOPELESS: 15,
    SPADE: 10,
    UP_CARDS: 20,
}
"""Every rubric line and its points, in report order: 180, the seed's automatic lines (Part 1
connects 15 and replies 35, Part 2's correct play 70, intelligent play 40, up cards 20; the
mapping is in ``docs/stud.md``)."""


def _bets(action: wire.Action) -> bool:
    return isinstance(action, wire.Bet) and action.amount > 0


def _stays(action: wire.Action) -> bool:
    return isinstance(action, wire.Bet)


def _folds(action: wire.Action) -> bool:
    return isinstance(action, wire.Fold)


def _any(action: wire.Action) -> bool:
    return True


@dataclass(frozen=True)
class Probe:
    """One betting request; its reply counts for legality and time, and for ``line``."""

    text: str
    line: str | None = None
    """The "plays intelligently" line it also counts for (``None``: only the rules)."""
    want: Callable[[wire.Action], bool] = _any
    expect: str = ""
    """The good reply, in words, for the failure message."""


Step = Probe | str
"""A request that takes a reply, or (a plain ``status:`` text) a message that takes none."""


@dataclass(frozen=True)
class Group:
    """The probes of one session, after its ``login`` (sent ``logins`` times)."""

    name: str
    steps: tuple[Step, ...]
    logins: int = 1

    @property
    def probes(self) -> list[Probe]:
        """The requests that take a reply."""
        return [step for step in self.steps if isinstance(step, Probe)]

    @property
    def lines(self) -> set[str]:
        """The rubric lines this session counts for (all but "connects")."""
        lines = {LEGAL, TIMELY, CLOSES, *(p.line for p in self.probes if p.line)}
        return lines | {LOGIN} if self.logins > 1 else lines


def _legal(*texts: str) -> tuple[Step, ...]:
    return tuple(text if text.startswith("status:") else Probe(text) for text in texts)


def _repeated(*probes: Probe) -> tuple[Step, ...]:
    return probes * REPEATS


THREE_QUEENS = Probe(
    "bet2:90:6:0:QH:QD:QC:up:QD:QC:3S:8D:5H:JD", THREE, _bets, "a bet above 0 with three queens"
)
AGAINST_ACES = Probe(
    "bet2:90:14:10:3C:6D:9H:up:AS:AH:6D:9H",
    HOPELESS,
    _folds,
    "fold: 9-high without a spade in the hole cannot beat the aces showing, and it costs 10",
)
ACE_OF_SPADES = (
    Probe(
        "bet1:90:4:0:AS:7D:up:7D:3H:5C",
        SPADE,
        _bets,
        "a bet above 0: the ace of spades in the hole takes half of every pot",
    ),
    Probe(
        "bet1:90:24:10:AS:4D:up:KH:4D:9C",
        SPADE,
        _stays,
        "no fold: the ace of spades in the hole takes half of the pot",
    ),
)
EIGHTS = (
    Probe(
        "bet2:90:30:10:8C:8D:4H:up:2C:5D:8D:4H:3H:7S",
        UP_CARDS,
        _stays,
        "no fold: a pair of eights beats anything 2-5 and 3-7 showing can make",
    ),
    Probe(
        "bet2:90:30:10:8C:8D:4H:up:KS:KD:8D:4H:3H:7S",
        UP_CARDS,
        _folds,
        "fold: the pair of kings showing beats a pair of eights, and it costs 10",
    ),
)

GROUPS: tuple[Group, ...] = (
    Group("login twice", _legal("bet1:99:4:0:KS:10D:up:AS:8H:10D:QD"), logins=2),
    Group(
        "the seed's examples",
        _legal(
            "bet1:208:24:12:KS:10D:up:AS:8H:10D:QD:2C",
            "status:lose:AS:AH:3C",
            "bet1:188:68:5:KS:10D:up:AS:8H:10D:QD:2C",
            "bet2:183:66:0:KS:10D:10S:up:AS:AH:8H:6D:10D:10S:QD:JC:2C:4H",
        ),
    ),
    Group(
        "a stack that cannot match",
        _legal("bet1:3:20:8:4C:9D:up:9D:JH:QS", "bet1:0:12:5:6H:2D:up:2D:KC:8S"),
    ),
    Group(
        "a stack just enough",
        _legal(
            "bet1:0:3:0:6H:2D:up:2D:KC:8S",
            "bet1:7:30:7:JC:JD:up:3S:JD:5H",
            "bet2:12:40:5:9S:9D:4C:up:9D:4C:KH:2S:7D:7C",
        ),
    ),
    Group(
        "nine players",
        _legal(
            "bet1:50:9:0:3D:5C:up:2C:5C:6H:9S:JD:QC:KH:AS:4S",
            "bet2:50:30:3:3D:5C:8C:up:2C:2H:5C:8C:6H:6D:9S:10H:JD:3H:QC:4D:KH:7H:AS:AC",
            "status:win:5C:8C:3D",
        ),
    ),
    Group(
        "four hands in a row",
        _legal(
            "bet1:99:3:0:10S:4H:up:KD:4H:7C",
            "bet1:99:13:10:10S:4H:up:KD:4H:7C",
            "bet2:89:33:0:10S:4H:4D:up:KD:QC:4H:4D:7C:2S",
            "status:win:10S:4H:4D",
            "bet1:120:3:0:2C:9D:up:9D:AH:5S",
            "bet1:120:23:10:2C:9D:up:9D:AH:5S",
            "status:lose:AH:AD:6C",
            "bet1:119:3:0:QS:QH:up:3D:QH:8C",
            "bet2:109:33:0:QS:QH:JD:up:3D:5H:QH:JD:8C:8D",
            "bet2:99:53:10:QS:QH:JD:up:3D:5H:QH:JD:8C:8D",
            "status:win:QS:QH:JD",
            "bet1:150:3:0:7D:2H:up:JC:2H:KS",
            "status:lose:KS:KH:4C",
        ),
    ),
    Group("three of a kind", _repeated(THREE_QUEENS)),
    Group("a hopeless hand", _repeated(AGAINST_ACES)),
    Group("a high spade in the hole", _repeated(*ACE_OF_SPADES)),
    Group("the other players' up cards", _repeated(*EIGHTS)),
)
"""The battery, one session each: the seed's own examples, the edge cases that trip players
up (a stack smaller than the amount to match, a stack of 0 after the ante with and without a
bet to match, a stack exactly the amount to match, one between it and the $10 limit), nine
players, a run of hands, and the "plays intelligently" scenarios."""
