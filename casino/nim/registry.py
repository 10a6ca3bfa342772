"""The players Nimsys knows, by username, with the course's messages for wrong requests."""

from __future__ import annotations

from collections.abc import Iterable

from casino.errors import IllegalAction
from casino.nim.players import Player

PLAYER_EXISTS = "The player already exists."
NO_SUCH_PLAYER = "The player does not exist."


class Registry:
    """Players by username. Every change keeps usernames unique; lookups are exact.

    Usernames compare exactly as typed (the seed says they are lower case), and listings are
    in code point order of the username.
    """

    def __init__(self, players: Iterable[Player] = ()) -> None:
        self._players: dict[str, Player] = {}
        for player in players:
            self.add(player)

    def __contains__(self, username: object) -> bool:
        return username in self._players

    def get(self, username: str) -> Player:
        """The player called ``username``; :class:`IllegalAction` if there is none."""
        try:
            return self._players[username]
        except KeyError:
            raise IllegalAction(NO_SUCH_PLAYER) from None

    def add(self, player: Player) -> None:
        """Add ``player``; :class:`IllegalAction` if the username is taken."""
        if player.username in self._players:
            raise IllegalAction(PLAYER_EXISTS)
        self._players[player.username] = player

    def put(self, player: Player) -> None:
        """Replace the record of an existing player (same username)."""
        self.get(player.username)
        self._players[player.username] = player

    def remove(self, username: str) -> None:
        """Remove one player; :class:`IllegalAction` if there is none of that name."""
        self.get(username)
        del self._players[username]

    def clear(self) -> None:
        """Remove every player."""
        self._players.clear()

    def reset_all(self) -> None:
        """Reset every player's statistics."""
        for player in self.sorted():
            self._players[player.username] = player.reset()

    def sorted(self) -> list[Player]:
        """Every player, by username."""
        return [self._players[name] for name in sorted(self._players)]
