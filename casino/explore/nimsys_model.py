"""The model of Nimsys sessions (Projects A, B and C): what explore types, what it leaves out.

The model (:class:`Model`) follows a session line by line with casino's own rules types
(:mod:`casino.nim`) and refuses (:class:`Unpinned`) any line whose answer the assignment does
not fix, so that a generated or shrunk session only ever asks for what every correct
program prints:

- **idle** (Projects B and C): ``word`` or ``word a,b,c`` with no spaces in the arguments;
  usernames ``[a-z][a-z0-9]*``, names ``[A-Za-z]+``; the commands of the project, an unknown
  lower-case word (Project C only: ``'word' is not a valid command.``), too few arguments
  (Project C only: ``Incorrect number of arguments supplied to command.``) and extra ones
  (Project C only: "simply ignore any extra arguments"); never an empty argument, an empty
  line, a command in capitals or a name with spaces (casino's choices);
- ``startgame`` with whole numbers (the assignment assumes them valid and correct), two
  different players (or a missing one: ``One of the players does not exist.``), at most 99
  games per player (the assignment's formatting bound); an AI seat only where each of its
  moves is the one the assignment's strategy allows (it must leave ``k(M+1)+1`` stones;
  where it cannot win, only a forced move is pinned);
- ``startadvancedgame`` (Project C), at most 11 stones; moves ``position count``; an AI seat
  only where each of its moves is pinned (:func:`pinned_ai_move`: its one legal move, or its
  one move that leaves a lost position, the only move a "victory guaranteed" AI may make
  against the course's oracle); the generator steers the human's moves towards such positions;
- moves in ordinary Nim: a whole number (any, ``Invalid move. …`` outside the range) or a
  word or decimal (invalid, a whole one such as ``2.0`` too); ``y`` or ``n`` after ``(y/n)``;
- a removed player may be added again (starting from no games), and two players may be
  brought to ratios that round to the same percentage (:func:`_near_tie`);
- ``rankings`` ``[asc|desc]`` never when a shown percentage ends in exactly one half ("round
  to the nearest integer" leaves the tie open), and in Project B never with a tie in the
  ratio (Project B lets the order of tied usernames go either way);
- every run ends with ``exit`` (what a program does at end of input is not fixed);
- Project A: names, bound and stones as whole numbers, valid moves only (Project A does not
  say what an invalid one prints); ``Y`` plays again and any other word ends the session
  ("any input apart from 'Y' should terminate the game").

The grammar that types these sessions is :mod:`casino.explore.nimsys`.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from casino.nim.kayles import KaylesGame, KaylesMove
from casino.nim.nim_game import NimGame
from casino.nim.players import Player, PlayerKind
from casino.nim.ranking import Order, ranked
from casino.nim.registry import Registry
from casino.nim.strategy import grundy

MAX_PLAYERS = 100
"""The assignment's bound on players."""
MAX_GAMES = 99
"""No player plays more games (the rankings' two-digit column)."""
MAX_ADVANCED_STONES = 11
"""The advanced game's assumed largest size."""
USERNAME = re.compile(r"[a-z][a-z0-9]*")
NAME = re.compile(r"[A-Za-z]+")
NUMBER = re.compile(r"-?(0|[1-9][0-9]{0,8})")
JUNK_MOVE = re.compile(r"[a-z]+|[0-9]+\.[0-9]+")
KAYLES_MOVE = re.compile(r"(0|[1-9][0-9]{0,8}) (0|[1-9][0-9]{0,8})")
IDLE_LINE = re.compile(r"([a-z]+)(?: ([^ ]+))?")
ANSWER = re.compile(r"[A-Za-z]+")
"""An answer to Project A's play again question (anything but ``Y`` ends the session)."""

NEEDED = {
    "addplayer": 3,
    "addaiplayer": 3,
    "editplayer": 3,
    "startgame": 4,
    "startadvancedgame": 3,
    "removeplayer": 0,
    "resetstats": 0,
    "displayplayer": 0,
    "rankings": 0,
    "exit": 0,
}
"""Each command's arguments (the ones with 0 take one optional argument but ``exit``)."""
PROJECT_B: tuple[str, ...] = ("addplayer", "removeplayer", "editplayer", "resetstats")
PROJECT_B += ("displayplayer", "rankings", "startgame", "exit")
PROJECT_C = (*PROJECT_B, "addaiplayer", "startadvancedgame")


class Unpinned(Exception):
    """Control flow, not an error: a line whose answer the assignment leaves open (the
    message says why)."""


@dataclass
class Play:
    """A game under way: its position, whose turn, and the two players' usernames."""

    advanced: bool
    nim: NimGame | None
    kayles: KaylesGame | None
    seats: tuple[str, str]
    turn: int = 0

    @property
    def over(self) -> bool:
        """Whether the last stone is gone."""
        state = self.nim if self.nim is not None else self.kayles
        return state is not None and state.over


@dataclass
class Model:
    """Nimsys as the assignment fixes it (Projects B and C), one line at a time."""

    stage: str = "c"
    registry: Registry = field(default_factory=Registry)
    mode: str = "idle"
    """``idle``, ``game``, ``confirm-remove``, ``confirm-reset`` or ``done``."""
    play: Play | None = None
    removed: list[str] = field(default_factory=list)
    """Usernames removed so far (the generator adds some of them again)."""

    @property
    def commands(self) -> tuple[str, ...]:
        """The project's commands."""
        return PROJECT_C if self.stage == "c" else PROJECT_B

    def fork(self) -> Model:
        """An independent copy."""
        return copy.deepcopy(self)

    def next_run(self) -> Model:
        """The model for the next run of a chain (players kept in Project C only)."""
        players = self.registry.sorted() if self.stage == "c" else []
        return Model(self.stage, Registry(players), removed=list(self.removed))

    def feed(self, line: str) -> None:
        """Take one typed line; :class:`Unpinned` if its answer is not fixed."""
        if self.mode == "done":
            raise Unpinned("a line after exit")
        if self.mode == "game":
            self._move(line)
        elif self.mode.startswith("confirm"):
            self._confirm(line)
        else:
            self._command(line)

    def finish(self) -> None:
        """The run's input ends here: :class:`Unpinned` unless it ended with ``exit``."""
        if self.mode != "done":
            raise Unpinned(f"the input ends in the {self.mode} state, not after exit")

    # ---------------------------------------------------------------------------- idle

    def _command(self, line: str) -> None:
        found = IDLE_LINE.fullmatch(line)
        if found is None:
            raise Unpinned(f"not a command of the assignment's form: {line!r}")
        word, rest = found.group(1), found.group(2)
        fields = rest.split(",") if rest else []
        if word not in self.commands:
            self._c_only(f"unknown command {word!r}")
            return
        needed = NEEDED[word]
        if any(not text for text in fields):
            raise Unpinned(f"empty arguments: {line!r}")
        if len(fields) > max(needed, 1) or (word == "exit" and fields):
            # Project C: "simply ignore any extra arguments"; Project B does not say
            self._c_only(f"extra arguments: {line!r}")
        if len(fields) < needed:
            self._c_only("too few arguments")
            return
        getattr(self, "_" + word)(fields[: max(needed, 1)])

    def _c_only(self, what: str) -> None:
        if self.stage != "c":
            raise Unpinned(f"{what}: Project B does not say what it prints")

    def _exit(self, fields: list[str]) -> None:
        self.mode = "done"

    def _addplayer(self, fields: list[str], kind: PlayerKind = PlayerKind.HUMAN) -> None:
        username, family, given = fields
        if not USERNAME.fullmatch(username) or not (
            NAME.fullmatch(family) and NAME.fullmatch(given)
        ):
            raise Unpinned(f"not a lower-case username and two plain names: {fields}")
        if username not in self.registry:
            if len(self.registry.sorted()) >= MAX_PLAYERS:
                raise Unpinned("more than 100 players")
            self.registry.add(Player(username, family, given, kind))

    def _addaiplayer(self, fields: list[str]) -> None:
        self._addplayer(fields, PlayerKind.AI)

    def _editplayer(self, fields: list[str]) -> None:
        username, family, given = fields
        if not (NAME.fullmatch(family) and NAME.fullmatch(given)):
            raise Unpinned(f"not plain names: {fields}")
        if username in self.registry:
            self.registry.put(self.registry.get(username).renamed(family, given))

    def _removeplayer(self, fields: list[str]) -> None:
        if not fields:
            self.mode = "confirm-remove"
        elif fields[0] in self.registry:
            self.registry.remove(fields[0])
            self.removed.append(fields[0])

    def _resetstats(self, fields: list[str]) -> None:
        if not fields:
            self.mode = "confirm-reset"
        elif fields[0] in self.registry:
            self.registry.put(self.registry.get(fields[0]).reset())

    def _displayplayer(self, fields: list[str]) -> None:
        pass

    def _rankings(self, fields: list[str]) -> None:
        if fields and fields[0] not in ("asc", "desc"):
            raise Unpinned(f"rankings {fields[0]!r}: only asc and desc are fixed")
        shown = ranked(self.registry.sorted(), Order.parse(fields[0] if fields else ""))
        if any((player.ratio * 100).denominator == 2 for player in shown):
            raise Unpinned("a percentage that ends in one half (rounding it either way is right)")
        ratios = [player.ratio for player in shown]
        if self.stage != "c" and len(set(ratios)) < len(ratios):
            raise Unpinned("a tie in Project B's rankings (either order of usernames is right)")

    def _confirm(self, line: str) -> None:
        if line not in ("y", "n"):
            raise Unpinned(f"{line!r} at a (y/n) question")
        if line == "y" and self.mode == "confirm-remove":
            self.removed += [player.username for player in self.registry.sorted()]
            self.registry.clear()
        elif line == "y":
            self.registry.reset_all()
        self.mode = "idle"

    # --------------------------------------------------------------------------- games

    def _players(self, first: str, second: str) -> bool:
        """Whether a game can start between them (they exist); Unpinned where not fixed."""
        if first not in self.registry or second not in self.registry:
            return False
        if first == second:
            raise Unpinned("a player against themselves")
        if max(self.registry.get(name).played for name in (first, second)) >= MAX_GAMES:
            raise Unpinned("a player's hundredth game")
        return True

    def _startgame(self, fields: list[str]) -> None:
        stones, bound = (_whole(text, 1, 10**6) for text in fields[:2])
        if not self._players(fields[2], fields[3]):
            return
        self.play = Play(False, NimGame(stones, bound), None, (fields[2], fields[3]))
        self.mode = "game"
        self._computer_moves()

    def _startadvancedgame(self, fields: list[str]) -> None:
        stones = _whole(fields[0], 1, MAX_ADVANCED_STONES)
        if not self._players(fields[1], fields[2]):
            return
        self.play = Play(True, None, KaylesGame.start(stones), (fields[1], fields[2]))
        self.mode = "game"
        self._computer_moves()

    def _move(self, line: str) -> None:
        play = self.play
        assert play is not None
        if play.nim is not None:
            if NUMBER.fullmatch(line):
                count = int(line)
                if 1 <= count <= play.nim.most:
                    play.nim = play.nim.take(count)
                    self._moved()
            elif not JUNK_MOVE.fullmatch(line):
                raise Unpinned(f"move {line!r}: not a number, a word or a decimal")
            return
        assert play.kayles is not None
        if not KAYLES_MOVE.fullmatch(line):
            raise Unpinned(f"advanced move {line!r}: not two whole numbers")
        position, count = map(int, line.split())
        game = play.kayles
        if count in (1, 2) and 1 <= position <= len(game.stones) - count + 1:
            move = KaylesMove(position, count)
            if all(game.stones[position - 1 : position - 1 + count]):
                play.kayles = game.take(move)
                self._moved()

    def _moved(self) -> None:
        play = self.play
        assert play is not None
        if play.over:
            winner = play.turn if play.advanced else 1 - play.turn
            for seat, name in enumerate(play.seats):
                self.registry.put(self.registry.get(name).after_game(won=seat == winner))
            self.mode, self.play = "idle", None
            return
        play.turn = 1 - play.turn
        self._computer_moves()

    def _computer_moves(self) -> None:
        """Play the AI's turns, each the one move the assignment allows (else Unpinned)."""
        play = self.play
        if play is None or not self.ai_to_move():
            return
        if play.kayles is not None:
            move = pinned_ai_move(play.kayles)
            if move is None:
                raise Unpinned("the advanced AI has more than one right move here")
            play.kayles = play.kayles.take(move)
            self._moved()
            return
        game = play.nim
        assert game is not None
        take = (game.remaining - 1) % (game.upper_bound + 1)
        if take == 0 and game.most > 1:
            raise Unpinned("the AI cannot win here, and any move is allowed")
        play.nim = game.take(take or 1)
        self._moved()

    def ai_to_move(self) -> bool:
        """Whether a game is under way and an AI player is to move."""
        play = self.play
        if self.mode != "game" or play is None:
            return False
        return self.registry.get(play.seats[play.turn]).kind is PlayerKind.AI

    def ai_moves_next(self) -> bool:
        """Whether the player after the one to move is an AI player."""
        play = self.play
        if self.mode != "game" or play is None:
            return False
        return self.registry.get(play.seats[1 - play.turn]).kind is PlayerKind.AI

    def human_to_move(self) -> NimGame | KaylesGame | None:
        """The game position when a human is to move (for the generator)."""
        if self.mode != "game" or self.play is None:
            return None
        return self.play.nim if self.play.nim is not None else self.play.kayles


def kayles_value(game: KaylesGame) -> int:
    """The XOR of the Grundy values of the rows of adjacent stones (0: a lost position)."""
    rows = "".join("*" if stone else " " for stone in game.stones).split()
    total = 0
    for row in rows:
        total ^= grundy(len(row))
    return total


def pinned_ai_move(game: KaylesGame) -> KaylesMove | None:
    """The one move the assignment allows the advanced AI at ``game``: its only legal move,
    or its only move that leaves a lost position (``None``: more than one move is right)."""
    legal = game.legal_moves()
    if len(legal) == 1:
        return legal[0]
    winning = [move for move in legal if kayles_value(game.take(move)) == 0]
    return winning[0] if len(winning) == 1 else None


def _whole(text: str, least: int, most: int) -> int:
    if not re.fullmatch(r"[1-9][0-9]{0,8}", text) or not least <= int(text) <= most:
        raise Unpinned(f"{text!r}: the assignment assumes a valid, correct number here")
    return int(text)


# ------------------------------------------------------------------------------ Project A


@dataclass
class ModelA:
    """Project A: two names, then games (bound, stones, moves, play again), as fixed."""

    asked: str = "name1"
    game: NimGame | None = None
    bound: int = 0

    def fork(self) -> ModelA:
        """An independent copy."""
        return copy.deepcopy(self)

    def feed(self, line: str) -> None:
        """Take one typed line; :class:`Unpinned` if its answer is not fixed."""
        if self.asked in ("name1", "name2"):
            if not NAME.fullmatch(line):
                raise Unpinned(f"name {line!r}: not a plain name")
            self.asked = "name2" if self.asked == "name1" else "bound"
        elif self.asked == "bound":
            self.bound, self.asked = _whole(line, 1, 10**6), "stones"
        elif self.asked == "stones":
            self.game, self.asked = NimGame(_whole(line, 1, 99), self.bound), "move"
        elif self.asked == "move":
            assert self.game is not None
            if not NUMBER.fullmatch(line) or not 1 <= int(line) <= self.game.most:
                raise Unpinned(f"move {line!r}: Project A does not say what a bad move prints")
            self.game = self.game.take(int(line))
            self.asked = "again" if self.game.over else "move"
        elif self.asked == "again":
            if not ANSWER.fullmatch(line):
                raise Unpinned(f"{line!r} at play again (Y/N): not a plain word")
            # the seed: "any input apart from 'Y' should terminate the game"
            self.asked = "bound" if line == "Y" else "done"
        else:
            raise Unpinned("a line after the last N")

    def finish(self) -> None:
        """:class:`Unpinned` unless the session ended with ``N``."""
        if self.asked != "done":
            raise Unpinned(f"the input ends while asking for {self.asked}")

    def human_to_move(self) -> NimGame | None:
        """The position while a move is asked for."""
        return self.game if self.asked == "move" else None
