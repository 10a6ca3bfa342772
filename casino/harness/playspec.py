"""The ``play:`` block of a transcript: games casino plays against the program, live.

::

    name: the advanced game's AI, moving first, beats a random rival every time
    program: nimsys
    seed: 2019                      # the rival's choices (and the program's --seed / CASINO_SEED)
    play:
      game: nimsys-advanced         # the game adapter (ADAPTERS)
      first: ai                     # who moves first: ai | rival
      rival: random                 # random | perfect | erring
      stones: 1-11                  # the sizes: a list of whole numbers, or a range A-B (1-100)
      games: 10                     # games at each size
    points: 0.5

``game: nimsys-original`` (ordinary Nim) takes ``bound: N`` too, the upper bound of a move.

A transcript with ``play:`` has no ``steps`` or ``runs`` (it may have ``args``, ``files``,
``seed``, ``timeout``, ``points``). How the games are played and judged:
:mod:`casino.harness.play`. This module only reads and writes the block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from casino.errors import ParseError
from casino.numbers import parse_count

ADAPTERS: dict[str, str] = {
    "nimsys-advanced": "casino.nim.duel:AdvancedGame",
    "nimsys-original": "casino.nim.duel:OriginalGame",
}
"""Game adapter name → ``module:class`` (a :class:`casino.duel.GameAdapter`), imported only
when a play runs: the harness knows the games by name."""

OPTIONS: dict[str, tuple[str, ...]] = {"nimsys-original": ("bound",)}
"""The settings an adapter takes from the block, each a whole number from 1 to
:data:`MAX_SIZE` and required (``bound``: ordinary Nim's upper bound)."""

RIVALS = ("random", "perfect", "erring")
"""How casino chooses the rival's moves (:func:`casino.harness.referee.choose`)."""
FIRSTS = ("ai", "rival")
MAX_SIZE = 100
"""The largest size (stones) a play may ask for (the assignment's bonus plays at most 11)."""
MAX_GAMES = 10_000
"""Games in one play at most (sizes × games each)."""
KEYS = ("game", "first", "rival", "stones", "games")


@dataclass(frozen=True)
class Play:
    """Games to play: the adapter, who moves first, the rival's way of playing, the sizes and
    how many games at each."""

    game: str
    first: str
    rival: str
    sizes: tuple[int, ...]
    games: int
    sizes_text: str | list[str] = ""
    """``stones`` as written (kept so that a dump writes it back the same way)."""
    options: tuple[tuple[str, int], ...] = ()
    """The adapter's settings (:data:`OPTIONS`), by name."""

    @property
    def ai_first(self) -> bool:
        """Whether the program's AI moves first."""
        return self.first == "ai"

    @property
    def total(self) -> int:
        """How many games are played in all."""
        return len(self.sizes) * self.games

    def describe(self) -> str:
        """``first: ai, rival: random, stones: 1-11, 10 games each`` (and the adapter's
        settings, ``bound: 3``, before the games)."""
        sizes = self.sizes_text if isinstance(self.sizes_text, str) else ", ".join(self.sizes_text)
        each = f"{self.games} game{'' if self.games == 1 else 's'} each"
        settings = "".join(f", {key}: {number}" for key, number in self.options)
        return f"first: {self.first}, rival: {self.rival}, stones: {sizes}{settings}, {each}"

    def to_data(self) -> dict[str, Any]:
        """The block as YAML data: ``stones`` as it was written (a range, or a list of whole
        numbers), ``games`` a whole number."""
        stones = self.sizes_text
        return {
            "game": self.game,
            "first": self.first,
            "rival": self.rival,
            "stones": stones if isinstance(stones, str) else [int(size) for size in stones],
            "games": self.games,
            **dict(self.options),
        }


def parse_play(value: Any) -> Play:
    """The ``play:`` block ``value`` as a :class:`Play`; ``ValueError`` (one line) if it is not."""
    if not isinstance(value, dict):
        raise ValueError(f"'play' must be a mapping with {', '.join(KEYS)}")
    game = _choice(value, "game", tuple(ADAPTERS)) if "game" in value else ""
    keys = (*KEYS, *OPTIONS.get(game, ()))
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise ValueError(f"play: unknown key {unknown[0]!r} (expected {', '.join(keys)})")
    missing = [key for key in keys if key not in value]
    if missing:
        raise ValueError(f"play: {missing[0]!r} is missing")
    first = _choice(value, "first", FIRSTS)
    rival = _choice(value, "rival", RIVALS)
    sizes = _sizes(value["stones"])
    games = _setting(value, "games", MAX_GAMES)
    if len(sizes) * games > MAX_GAMES:
        raise ValueError(f"play: more than {MAX_GAMES} games in all (stones × games)")
    options = tuple((key, _setting(value, key, MAX_SIZE)) for key in OPTIONS.get(game, ()))
    return Play(game, first, rival, sizes, games, value["stones"], options)


def _setting(value: dict[str, Any], key: str, most: int) -> int:
    """``value[key]``, a whole number from 1 to ``most``."""
    return _whole(value[key], most, f"play: {key!r} must be a whole number from 1 to {most}")


def _whole(text: Any, most: int, problem: str) -> int:
    """``text`` as a whole number from 1 to ``most`` (:func:`casino.numbers.parse_count`);
    ``ValueError(problem)`` if it is not one."""
    try:
        return parse_count(text, most) if isinstance(text, str) else parse_count("", most)
    except ParseError:
        raise ValueError(problem) from None


def _choice(value: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    chosen = value[key]
    if not isinstance(chosen, str) or chosen not in choices:
        raise ValueError(f"play: {key!r} must be one of {', '.join(choices)}, not {chosen!r}")
    return chosen


def _sizes(stones: Any) -> tuple[int, ...]:
    """``1-11`` or ``[3, 5, 7]``: whole numbers from 1 to :data:`MAX_SIZE`, each once."""
    problem = f"play: 'stones' must be a range A-B or a list of whole numbers from 1 to {MAX_SIZE}"
    if isinstance(stones, str):
        low, dash, high = stones.partition("-")
        first, last = _whole(low, MAX_SIZE, problem), _whole(high, MAX_SIZE, problem)
        if not dash or first > last:
            raise ValueError(problem)
        return tuple(range(first, last + 1))
    if not isinstance(stones, list) or not stones:
        raise ValueError(problem)
    sizes = tuple(_whole(size, MAX_SIZE, problem) for size in stones)
    if len(set(sizes)) < len(sizes):
        raise ValueError(problem + ", each once")
    return sizes
