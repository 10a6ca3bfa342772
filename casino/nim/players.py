"""A Nimsys player's record: names, kind (human or AI) and game statistics."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction


class PlayerKind(Enum):
    """Who makes the player's moves; the value is the word ``players.dat`` stores."""

    HUMAN = "human"
    AI = "ai"


@dataclass(frozen=True, slots=True)
class Player:
    """One player. ``addplayer username,family_name,given_name`` makes one.

    Names are shown given name first: ``full_name`` is ``"Luke Skywalker"`` and a turn prompt
    uses the given name alone (``"Luke's turn"``).
    """

    username: str
    family_name: str
    given_name: str
    kind: PlayerKind = PlayerKind.HUMAN
    played: int = 0
    won: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.won <= self.played:
            raise ValueError(f"{self.username}: {self.won} wins in {self.played} games")

    @property
    def full_name(self) -> str:
        """Given name, a space, family name."""
        return f"{self.given_name} {self.family_name}"

    @property
    def ratio(self) -> Fraction:
        """Games won per game played, exactly; 0 for a player with no games."""
        return Fraction(self.won, self.played) if self.played else Fraction(0)

    def renamed(self, family_name: str, given_name: str) -> Player:
        """The same player with new names (``editplayer``)."""
        return replace(self, family_name=family_name, given_name=given_name)

    def after_game(self, *, won: bool) -> Player:
        """The player's record after one more game."""
        return replace(self, played=self.played + 1, won=self.won + int(won))

    def reset(self) -> Player:
        """The player with no games (``resetstats``)."""
        return replace(self, played=0, won=0)
