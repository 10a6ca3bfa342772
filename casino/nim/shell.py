"""The Nimsys command shell of Projects B and C: ``$`` prompts, commands, games.

Output follows the published tests byte for byte: ``Welcome to Nim`` and a blank line, then a
``$`` prompt (no newline). A command's output (if any) follows the prompt directly, since piped
input is not echoed, and a blank line separates it from the next prompt. ``exit`` prints a
blank line. End of input does what ``exit`` does.

Choices where the seed is silent (the seed assumes valid input; this shell never crashes):

- Commands are case-sensitive; an empty line just shows the prompt again.
- Arguments are comma-separated after the command word; each is stripped of surrounding
  spaces, so names may contain inner spaces and any Unicode. A missing *or empty* argument is
  ``Incorrect number of arguments supplied to command.``; extra arguments are ignored.
- ``removeplayer``/``resetstats``/``displayplayer`` with no argument act on every player;
  ``rankings`` sorts ascending for ``asc`` and descending for anything else.
- At ``(y/n)``, ``y`` or ``Y`` confirms; any other line (a command included, which is not run)
  declines.
- ``startgame`` checks, in order: argument count, that both players exist
  (``One of the players does not exist.``), that they are two different players, then the
  numbers: 1 to 1000 stones and an upper bound of at least 1, whole numbers.
  ``startadvancedgame`` likewise; the advanced game allows any size up to 1000 stones, not only
  the seed's 11, and the AI plays it perfectly at every size.
- Project B (``--stage b``) knows neither ``addaiplayer`` nor ``startadvancedgame`` (they are
  not valid commands there); for unknown commands and missing arguments, which Project B leaves
  undefined, it prints Project C's messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.errors import CasinoError, IllegalAction, ParseError
from casino.nim.ai import NimAIPlayer
from casino.nim.kayles import KaylesGame
from casino.nim.nim_game import NimGame
from casino.nim.play import (
    MAX_STONES,
    Computer,
    G,
    Game,
    Human,
    KaylesRules,
    NimRules,
    Rules,
    Seat,
    play,
)
from casino.nim.players import Player, PlayerKind
from casino.nim.ranking import Order, display_line, ranked, ranking_line
from casino.nim.registry import Registry
from casino.numbers import parse_count
from casino.shell import Command, CommandTable, Console, Flow, Handler, run_commands

PROMPT = "\n$"
INCORRECT_ARGUMENTS = "Incorrect number of arguments supplied to command."
NO_SUCH_PLAYERS = "One of the players does not exist."
SAME_PLAYER = "A player cannot play against themselves."
BAD_STONES = f"The initial stone count must be a whole number from 1 to {MAX_STONES}."
BAD_BOUND = "The upper bound must be a whole number of at least 1."
REMOVE_ALL = "Are you sure you want to remove all players? (y/n)"
RESET_ALL = "Are you sure you want to reset all player statistics? (y/n)"


COMMANDS = (
    ("addplayer username,family_name,given_name", "add a player"),
    ("addaiplayer username,family_name,given_name", "add a computer player (Project C)"),
    ("removeplayer [username]", "remove a player (all players, after a y/n question)"),
    ("editplayer username,family_name,given_name", "change a player's name"),
    ("resetstats [username]", "set games and wins to 0 (all players, after a y/n question)"),
    ("displayplayer [username]", "show a player (all players, by username)"),
    ("rankings [asc|desc]", "players by share of games won (desc unless asc)"),
    ("startgame initialstones,upperbound,username1,username2", "play Nim"),
    ("startadvancedgame initialstones,username1,username2", "play the advanced game (Project C)"),
    ("exit", "leave (end of input does the same)"),
)
"""The commands of Projects B and C with their syntax, and what each does (``--help``)."""


@dataclass(frozen=True)
class Stage:
    """Which project the shell plays: the commands it knows."""

    ai_players: bool
    advanced_game: bool


PROJECT_B = Stage(ai_players=False, advanced_game=False)
PROJECT_C = Stage(ai_players=True, advanced_game=True)


def _arguments(command: Command, needed: int) -> list[str]:
    """The first ``needed`` comma-separated arguments; ParseError if one is missing or empty."""
    fields = [field.strip() for field in command.rest.split(",")]
    if len(fields) < needed or not all(fields[:needed]):
        raise ParseError(INCORRECT_ARGUMENTS)
    return fields[:needed]


def _first_argument(command: Command) -> str | None:
    """The first argument (a username, or ``rankings``' order), or ``None`` if there is none."""
    return command.rest.split(",")[0].strip() if command.rest else None


def _stone_count(text: str) -> int:
    return _whole(text, MAX_STONES, BAD_STONES)


def _upper_bound(text: str) -> int:
    return _whole(text, None, BAD_BOUND)


def _whole(text: str, most: int | None, message: str) -> int:
    """``text`` as a whole number from 1 to ``most``; IllegalAction with ``message`` if not."""
    try:
        return parse_count(text, most)
    except ParseError:
        raise IllegalAction(message) from None


class NimsysShell:
    """The idle-state command loop, with games played in between."""

    def __init__(self, console: Console, registry: Registry, stage: Stage = PROJECT_C) -> None:
        self.console = console
        self.registry = registry
        self.ai = NimAIPlayer()
        self.table = CommandTable(unknown=self._unknown)
        commands: dict[str, Handler] = {
            "": lambda command: None,
            "addplayer": self.add_player,
            "removeplayer": self.remove_player,
            "editplayer": self.edit_player,
            "resetstats": self.reset_stats,
            "displayplayer": self.display_player,
            "rankings": self.rankings,
            "startgame": self.start_game,
            "exit": self.exit,
        }
        if stage.ai_players:
            commands["addaiplayer"] = self.add_ai_player
        if stage.advanced_game:
            commands["startadvancedgame"] = self.start_advanced_game
        for word, handler in commands.items():
            self.table.register(word, self._reporting(handler))

    def run(self) -> None:
        """Welcome, then commands until ``exit`` or the end of input (which acts as ``exit``)."""
        self.console.line("Welcome to Nim")
        run_commands(self.console, self.table, PROMPT)
        if self.console.exhausted:
            self.console.line()

    def _reporting(self, handler: Handler) -> Handler:
        """``handler``, printing the message of any CasinoError it raises, and stopping the
        loop when the input ended inside it (in a game or at a confirmation)."""

        def run(command: Command) -> Flow | None:
            try:
                flow = handler(command)
            except CasinoError as error:
                self.console.line(str(error))
                flow = None
            return Flow.STOP if self.console.exhausted else flow

        return run

    def _unknown(self, command: Command) -> None:
        self.console.line(f"'{command.word}' is not a valid command.")

    def _confirm(self, question: str) -> bool:
        answer = self.console.ask(question + "\n")
        return answer is not None and answer.strip() in ("y", "Y")

    def add_player(self, command: Command) -> None:
        """``addplayer username,family_name,given_name``."""
        self._add(command, PlayerKind.HUMAN)

    def add_ai_player(self, command: Command) -> None:
        """``addaiplayer username,family_name,given_name``."""
        self._add(command, PlayerKind.AI)

    def _add(self, command: Command, kind: PlayerKind) -> None:
        username, family, given = _arguments(command, 3)
        self.registry.add(Player(username, family, given, kind))

    def remove_player(self, command: Command) -> None:
        """``removeplayer [username]`` (all players after a confirmation)."""
        username = _first_argument(command)
        if username is not None:
            self.registry.remove(username)
        elif self._confirm(REMOVE_ALL):
            self.registry.clear()

    def edit_player(self, command: Command) -> None:
        """``editplayer username,new_family_name,new_given_name``."""
        username, family, given = _arguments(command, 3)
        self.registry.put(self.registry.get(username).renamed(family, given))

    def reset_stats(self, command: Command) -> None:
        """``resetstats [username]`` (all players after a confirmation)."""
        username = _first_argument(command)
        if username is not None:
            self.registry.put(self.registry.get(username).reset())
        elif self._confirm(RESET_ALL):
            self.registry.reset_all()

    def display_player(self, command: Command) -> None:
        """``displayplayer [username]`` (all players by username)."""
        username = _first_argument(command)
        players = self.registry.sorted() if username is None else [self.registry.get(username)]
        for player in players:
            self.console.line(display_line(player))

    def rankings(self, command: Command) -> None:
        """``rankings [asc|desc]``."""
        order = Order.parse(_first_argument(command) or "")
        for player in ranked(self.registry.sorted(), order):
            self.console.line(ranking_line(player))

    def start_game(self, command: Command) -> None:
        """``startgame initialstones,upperbound,username1,username2``."""
        stones, bound, first, second = _arguments(command, 4)
        players = self._opponents(first, second)
        count, most = _stone_count(stones), _upper_bound(bound)
        header = [f"Initial stone count: {count}", f"Maximum stone removal: {most}"]
        self._play(NimRules(), NimGame(count, most), players, header)

    def start_advanced_game(self, command: Command) -> None:
        """``startadvancedgame initialstones,username1,username2``."""
        stones, first, second = _arguments(command, 3)
        players = self._opponents(first, second)
        start = KaylesGame.start(_stone_count(stones))
        header = [f"Initial stone count: {start.remaining}", f"Stones display: {start.board()}"]
        self._play(KaylesRules(), start, players, header)

    def exit(self, command: Command) -> Flow:
        """``exit``: a blank line, then the program ends."""
        self.console.line()
        return Flow.STOP

    def _opponents(self, first: str, second: str) -> tuple[Player, Player]:
        if first not in self.registry or second not in self.registry:
            raise IllegalAction(NO_SUCH_PLAYERS)
        if first == second:
            raise IllegalAction(SAME_PLAYER)
        return self.registry.get(first), self.registry.get(second)

    def _seat(self, player: Player) -> Seat:
        if player.kind is PlayerKind.AI:
            return Seat(player.given_name, player.full_name, Computer(self.console, self.ai))
        return Seat(player.given_name, player.full_name, Human(self.console))

    def _play(
        self, rules: Rules[G], start: G, players: tuple[Player, Player], header: list[str]
    ) -> None:
        """Announce and play a game; the players' statistics change when it is finished."""
        self.console.line()
        for line in [*header, *(f"Player {n}: {p.full_name}" for n, p in enumerate(players, 1))]:
            self.console.line(line)
        seats = (self._seat(players[0]), self._seat(players[1]))
        winner = play(self.console, Game(rules, start, seats))
        if winner is None:
            return
        for index, player in enumerate(players):
            self.registry.put(player.after_game(won=index == winner))
