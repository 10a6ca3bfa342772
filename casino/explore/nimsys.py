"""Nimsys sessions (COMP90041 Projects A, B and C): what explore types, and what it leaves out.

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
- ``startadvancedgame`` (Project C) between two human players, at most 11 stones; moves
  ``position count`` (the advanced AI is graded by the course's ``Testable`` harness, not by
  its transcript);
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

Project C's bonus, the advanced game, is an optional part (:data:`BONUS`): see
:class:`casino.explore.plan.OptionalPart`.

A chain of Project C runs shares ``players.dat`` (its format is each program's own; only
what it brings back is compared).
"""

from __future__ import annotations

import copy
import functools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from casino.explore.plan import OptionalPart, Rendered, RunInput, Session, Unit, smaller_numbers
from casino.nim.kayles import KaylesGame, KaylesMove
from casino.nim.nim_game import NimGame
from casino.nim.players import Player, PlayerKind
from casino.nim.ranking import Order, ranked
from casino.nim.registry import Registry

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
    """A line whose answer the assignment leaves open (the message says why)."""


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
        if any(self.registry.get(name).kind is PlayerKind.AI for name in fields[1:]):
            raise Unpinned("an AI player in the advanced game (graded by Testable, not output)")
        self.play = Play(True, None, KaylesGame.start(stones), (fields[1], fields[2]))
        self.mode = "game"

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
        if play is None or play.nim is None:
            return
        name = play.seats[play.turn]
        if self.registry.get(name).kind is not PlayerKind.AI:
            return
        game = play.nim
        take = (game.remaining - 1) % (game.upper_bound + 1)
        if take == 0 and game.most > 1:
            raise Unpinned("the AI cannot win here, and any move is allowed")
        play.nim = game.take(take or 1)
        self._moved()

    def human_to_move(self) -> NimGame | KaylesGame | None:
        """The game position when a human is to move (for the generator)."""
        if self.mode != "game" or self.play is None:
            return None
        return self.play.nim if self.play.nim is not None else self.play.kayles


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


# --------------------------------------------------------------------------- the grammar

BONUS = OptionalPart("the bonus (startadvancedgame)", ("startadvancedgame",))
"""Project C's section 2.6, "for bonus marks": the advanced game."""


GIVEN = ("Luke", "Han", "Leia", "Darth", "Ben", "Rey", "Finn", "Poe", "Lando", "Ada", "Bo")
FAMILY = ("Skywalker", "Solo", "Organa", "Vader", "Kenobi", "Calrissian", "Dameron", "Lee")


@dataclass(frozen=True)
class NimsysGrammar:
    """Sessions of Nimsys Project ``stage`` (``a``, ``b`` or ``c``)."""

    stage: str = "c"

    @property
    def name(self) -> str:
        """``nimsys`` (Project C), ``nimsys-b``, ``nimsys-a``."""
        return "nimsys" if self.stage == "c" else f"nimsys-{self.stage}"

    program = "nimsys"

    @property
    def optional(self) -> tuple[OptionalPart, ...]:
        """Project C's bonus, the advanced game: a student may not attempt it."""
        return (BONUS,) if self.stage == "c" else ()

    @property
    def about(self) -> str:
        """One line."""
        return {
            "a": "Nimsys Project A: names, bound, stones, moves, play again",
            "b": "Nimsys Project B: the eight commands, games between humans",
            "c": "Nimsys Project C: AI players, the advanced game, chains sharing players.dat",
        }[self.stage]

    def render(self, session: Session) -> Rendered:
        """Each run typed as it is, ``exit`` added at its end (Projects B and C)."""
        args = () if self.stage == "c" else ("--stage", self.stage)
        tail = () if self.stage == "a" else ("exit",)
        runs = tuple(
            RunInput(args, tuple(line for unit in run for line in unit) + tail)
            for run in session.runs
        )
        return Rendered(runs)

    def unpinned(self, session: Session) -> str | None:
        """Why the session leaves what the assignment fixes (``None``: it does not)."""
        model: Model | ModelA = ModelA() if self.stage == "a" else Model(self.stage)
        for index, run in enumerate(self.render(session).runs):
            if index and isinstance(model, Model):
                model = model.next_run()
            try:
                for line in run.lines:
                    model.feed(line)
                model.finish()
            except Unpinned as why:
                return str(why)
        return None

    def group(self, session: Session, run: int, unit: int | None) -> str:
        """The part of the assignment the output of ``unit`` (of run ``run``) touches:
        ``rankings``, ``games``, ``the AI`` (a game with an AI player), ``files`` (a later
        run's records before anything in it changed them), the bonus, or ``commands``."""
        units = session.runs[run]
        if unit is None:
            return "commands"
        line = units[unit][0]
        if BONUS.owns(units[unit]):
            return BONUS.name
        fresh = not any(u[0].startswith((*CHANGES, "add")) for u in units[:unit])
        if run and fresh and line.startswith(("displayplayer", "rankings", "startgame", "add")):
            return "files (players.dat)"
        if line.startswith("rankings"):
            return "rankings"
        if line.startswith("startgame"):
            ai = {
                u[0].partition(" ")[2].split(",")[0]
                for r in session.runs[: run + 1]
                for u in r
                if u[0].startswith("addaiplayer ")
            }
            return "the AI" if set(line.partition(" ")[2].split(",")[2:4]) & ai else "games"
        return "commands"

    # ------------------------------------------------------------------------ generate

    def generate(self, rng: random.Random, size: int) -> Session:
        """A session of up to ``size`` commands a run (Project C: sometimes a chain)."""
        if self.stage == "a":
            return Session((_project_a(rng, size),))
        runs = rng.choice((1, 1, 2, 3)) if self.stage == "c" else 1
        model = Model(self.stage)
        built = []
        for index in range(runs):
            if index:
                model = model.next_run()
            built.append(_run(rng, model, max(1, size // runs), crowd=index == 0))
        return Session(tuple(built))

    # ------------------------------------------------------------------------- simpler

    def simpler(self, session: Session) -> Iterator[Session]:
        """Games made the shortest with either winner, ``rankings`` without its order,
        names shorter (everywhere at once), then numbers smaller (one at a time)."""
        yield from _shorter_games(session)
        lines = [line for run in session.runs for unit in run for line in unit]
        if self.stage == "a":  # the names are typed first; later words answer play again
            lines = [line for run in session.runs for unit in run[:1] for line in unit]
        in_order = [word for line in lines for word in _argument_words(line, self.stage)]
        yield _all_renamed(session, list(dict.fromkeys(in_order)))
        names = sorted(set(in_order), key=lambda word: (-len(word), word))
        used = set(names)
        for word in names:
            for shorter in _shorter_names(word):
                if shorter not in used and (len(shorter), shorter) < (len(word), word):
                    yield _replace_word(session, word, shorter)
                    break
        yield from smaller_numbers(session)


SHORTEST_GAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "startgame": (
        ("startgame 1,1,{0},{1}", "1"),  # the first player takes the last stone: the second wins
        ("startgame 2,1,{0},{1}", "1", "1"),  # the first player wins
        ("startgame 1,1,{0},{1}",),  # (the first is an AI: it moves by itself)
        ("startgame 2,1,{0},{1}", "1"),
    ),
    "startadvancedgame": (
        ("startadvancedgame 1,{0},{1}", "1 1"),  # the first player wins
        ("startadvancedgame 2,{0},{1}", "1 1", "2 1"),  # the second wins
    ),
}
"""The shortest games between two players, with either winner (``{0}``, ``{1}``: them)."""


def _shorter_games(session: Session) -> Iterator[Session]:
    """Each game (or ``rankings ORDER``) replaced by a shorter one, one unit at a time."""
    for r, run in enumerate(session.runs):
        for u, unit in enumerate(run):
            if NUMBER.fullmatch(unit[0]) and len(unit) > 3:  # a Project A game
                games: tuple[Unit, ...] = (
                    ("1", "1", "1", unit[-1]),
                    ("1", "2", "1", "1", unit[-1]),
                )
                for option in games:
                    new_run = (*run[:u], option, *run[u + 1 :])
                    candidate = session.with_runs(
                        (*session.runs[:r], new_run, *session.runs[r + 1 :])
                    )
                    if candidate.size < session.size:
                        yield candidate
                continue
            found = IDLE_LINE.fullmatch(unit[0])
            if found is None or found.group(2) is None:
                continue
            word, fields = found.group(1), found.group(2).split(",")
            options: tuple[tuple[str, ...], ...] = ()
            if word == "rankings":
                options = (("rankings",),)
            elif word in SHORTEST_GAMES and len(fields) == NEEDED[word]:
                names = fields[-2:]
                shortest = [
                    tuple(line.format(*names) for line in game) for game in SHORTEST_GAMES[word]
                ]
                # a move the shortest games do not make (an invalid one, say) kept in them
                odd = dict.fromkeys(line for line in unit[1:] if line not in ("1", "1 1", "2 1"))
                options = (
                    *shortest,
                    *((game[0], move, *game[1:]) for move in odd for game in shortest),
                )
            for option in options:
                new_run = (*run[:u], option, *run[u + 1 :])
                candidate = session.with_runs((*session.runs[:r], new_run, *session.runs[r + 1 :]))
                if candidate.size < session.size:
                    yield candidate


def _all_renamed(session: Session, names: list[str]) -> Session:
    """Every name at once made one letter, in the order they first appear (``a``, ``b``, …
    for usernames, ``A``, ``B``, … for names): one try that mostly works."""
    lower = iter("abcdefghijklmnopqrstuvwxyz")
    upper = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    final = {}
    for name in names:
        letter = next(upper if name[0].isupper() else lower, None)
        if letter is None:
            return session
        final[name] = letter
    for index, name in enumerate(names):  # through placeholders: no name meets another
        session = _replace_word(session, name, f"{'Q' if name[0].isupper() else 'q'}x{index}x")
    for index, name in enumerate(names):
        session = _replace_word(
            session, f"{'Q' if name[0].isupper() else 'q'}x{index}x", final[name]
        )
    return session


def _shorter_names(word: str) -> list[str]:
    if word[0].isupper():
        return [chr(code) for code in range(ord("A"), ord("Z") + 1)]
    return [chr(code) for code in range(ord("a"), ord("z") + 1)]


def _argument_words(line: str, stage: str) -> list[str]:
    """The names and usernames a line types (not command words, moves or numbers)."""
    if stage == "a":
        return [line] if NAME.fullmatch(line) and line not in ("Y", "N") else []
    found = IDLE_LINE.fullmatch(line)
    if found is None or found.group(2) is None or found.group(1) == "rankings":
        return []
    return [
        word
        for word in found.group(2).split(",")
        if re.fullmatch(r"[A-Za-z][a-z0-9]*|[A-Za-z]+", word)
    ]


def _replace_word(session: Session, old: str, new: str) -> Session:
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(old)}(?![A-Za-z0-9])")

    def line_of(line: str) -> str:
        found = IDLE_LINE.fullmatch(line)
        if found and found.group(2) is not None:
            return found.group(1) + " " + pattern.sub(new, found.group(2))
        return new if line == old else line

    runs = tuple(tuple(tuple(map(line_of, unit)) for unit in run) for run in session.runs)
    return session.with_runs(runs)


def _run(rng: random.Random, model: Model, size: int, *, crowd: bool) -> tuple[Unit, ...]:
    """Up to ``size`` units that the model accepts, fed into it as they are made."""
    units: list[Unit] = []
    if crowd and rng.random() < 0.15:  # many players: the rankings' first ten
        for _ in range(rng.randint(9, 13)):
            _try_unit(rng, model, units, lambda: _add(rng, model, fresh=True))
    if crowd and rng.random() < 0.06:  # two ratios that round alike: the exact order
        for line in _near_tie(rng, model):
            _try_unit(rng, model, units, functools.partial(str, line))
    for _ in range(rng.randint(1, size)):
        removed = list(model.removed)
        _try_unit(rng, model, units, lambda: _any_command(rng, model))
        last = units[-1][0] if units else ""
        readded = last.startswith("add") and last.partition(" ")[2].split(",")[0] in removed
        if (last.startswith(CHANGES) and rng.random() < 0.5) or (readded and rng.random() < 0.8):
            _try_unit(rng, model, units, lambda: _observe(rng, model))
    return tuple(units)


NEAR_TIES = ((5, 9, 9, 16), (5, 14, 4, 11), (7, 11, 9, 14), (7, 16, 4, 9), (2, 7, 5, 17))
"""Wins and games of two players whose percentages round alike but whose ratios differ
(56 % and 56 %: 5/9 and 9/16), in the fewest games (16, most of them between the two)."""


def _near_tie(rng: random.Random, model: Model) -> list[str]:
    """Two players (and an opponent) brought to ratios that round to the same percentage,
    then ``rankings``: only the exact ratios order them. Each game is one line where the
    players are AI players (Project C), two lines between humans (Project B)."""
    w1, g1, w2, g2 = rng.choice(NEAR_TIES)
    taken = {player.username for player in model.registry.sorted()}
    free = [name for name in "pqrstuvwxyz" if name not in taken]
    if len(free) < 3:
        return []
    first, second, other = rng.sample(free, 3)
    ai = model.stage == "c"
    word = "addaiplayer" if ai else "addplayer"
    names = (first, second, other)
    lines = [f"{word} {name},{rng.choice(FAMILY)},{rng.choice(GIVEN)}" for name in names]

    def game(winner: str, loser: str) -> str:
        # the first to move takes the last stone and loses (an AI moves by itself; a
        # human's moves are generated as for any game)
        return f"startgame 1,1,{loser},{winner}"

    between_first = min(w1, g2 - w2)  # games between the two that the first wins
    between_second = min(w2, g1 - w1)
    plays = [game(first, second)] * between_first + [game(second, first)] * between_second
    plays += [game(first, other)] * (w1 - between_first)
    plays += [game(other, first)] * (g1 - w1 - between_second)
    plays += [game(second, other)] * (w2 - between_second)
    plays += [game(other, second)] * (g2 - w2 - between_first)
    rng.shuffle(plays)
    return [*lines, *plays, rng.choice(("rankings", "rankings asc", "rankings desc"))]


CHANGES = ("startgame", "startadvancedgame", "resetstats", "editplayer", "removeplayer")
"""Commands that change what the players' records show."""


def _observe(rng: random.Random, model: Model) -> str:
    """A command that shows the players' records (a changed state is seen at once)."""
    return rng.choice(
        ("displayplayer", f"displayplayer {_existing(rng, model)}", "rankings", "rankings asc")
    )


def _try_unit(rng: random.Random, model: Model, units: list[Unit], make: Callable[[], str]) -> None:
    """Make a unit (up to a few tries) and keep the first the model accepts."""
    for _ in range(8):
        trial = model.fork()
        try:
            unit = _played(rng, trial, make())
        except Unpinned:
            continue
        units.append(unit)
        model.__dict__.update(trial.__dict__)
        return


def _played(rng: random.Random, model: Model, line: str) -> Unit:
    """``line`` fed, then the lines that finish what it started (a game, a question)."""
    model.feed(line)
    lines = [line]
    if model.mode.startswith("confirm"):
        answer = rng.choice("yn")
        model.feed(answer)
        lines.append(answer)
    turns = 0
    while model.mode == "game":
        turns += 1
        if turns > 200:
            raise Unpinned("a game too long to generate")
        move = _move(rng, model)
        model.feed(move)
        lines.append(move)
    return tuple(lines)


def _move(rng: random.Random, model: Model) -> str:
    game = model.human_to_move()
    if isinstance(game, KaylesGame):
        legal = game.legal_moves()
        if rng.random() < 0.8 and legal:
            return str(rng.choice(legal))
        return f"{rng.randint(0, len(game.stones) + 1)} {rng.choice((0, 1, 2, 3))}"
    assert isinstance(game, NimGame)
    roll = rng.random()
    if roll < 0.8:
        return str(rng.randint(1, game.most))
    if roll < 0.92:
        return str(rng.choice((0, game.most + 1, game.upper_bound + 1, -1)))
    return rng.choice(("abc", "1.5", "two", "1.0", f"{rng.randint(1, game.most)}.0"))


def _username(rng: random.Random) -> str:
    return rng.choice("abcdefghijklmnopqrstuvwxyz") + rng.choice(
        ("", "", "solo", "x", "2", "vader")
    )


def _existing(rng: random.Random, model: Model) -> str:
    """A player's username (more often one who has played), or a new one if there is none."""
    players = model.registry.sorted()
    played = [player for player in players if player.played]
    if played and rng.random() < 0.6:
        return rng.choice(played).username
    return rng.choice(players).username if players else _username(rng)


def _add(rng: random.Random, model: Model, *, fresh: bool = False) -> str:
    word = "addaiplayer" if model.stage == "c" and not fresh and rng.random() < 0.3 else "addplayer"
    username = _existing(rng, model) if not fresh and rng.random() < 0.15 else _username(rng)
    gone = [name for name in model.removed if name not in model.registry]
    if gone and not fresh and rng.random() < 0.5:  # a removed player added again
        username = rng.choice(gone)
    return f"{word} {username},{rng.choice(FAMILY)},{rng.choice(GIVEN)}"


def _any_command(rng: random.Random, model: Model) -> str:
    line = _a_command(rng, model)
    if model.stage == "c" and " " in line and rng.random() < 0.08:
        # Project C: "simply ignore any extra arguments"
        return line + rng.choice((",x", ",extra,9", ",Z"))
    return line


def _a_command(rng: random.Random, model: Model) -> str:
    pick = rng.random()
    who = _existing(rng, model) if rng.random() < 0.8 else _username(rng)
    if pick < 0.25:
        return _add(rng, model)
    if pick < 0.45:
        return _startgame(rng, model)
    if pick < 0.52 and model.stage == "c":
        first, second = _existing(rng, model), _existing(rng, model)
        return f"startadvancedgame {rng.randint(1, MAX_ADVANCED_STONES)},{first},{second}"
    if pick < 0.6:
        return rng.choice(("rankings", "rankings asc", "rankings desc"))
    if pick < 0.7:
        return rng.choice((f"displayplayer {who}", "displayplayer"))
    if pick < 0.78:
        return rng.choice((f"resetstats {who}", "resetstats"))
    if pick < 0.85:
        return rng.choice((f"removeplayer {who}", "removeplayer"))
    if pick < 0.92:
        return f"editplayer {who},{rng.choice(FAMILY)},{rng.choice(GIVEN)}"
    if model.stage == "c" and pick < 0.96:
        return rng.choice(("createplayer a,B,C", "play", "list", "quit"))
    word = rng.choice(("addplayer", "editplayer", "startgame", "startadvancedgame"))
    return f"{word} {who}" if rng.random() < 0.7 else word


def _startgame(rng: random.Random, model: Model) -> str:
    first, second = _existing(rng, model), _existing(rng, model)
    if rng.random() < 0.15:  # one of the players does not exist
        first, second = (_username(rng), second) if rng.random() < 0.5 else (first, _username(rng))
    bound = rng.choice((1, 2, 3, 3, 4, 5))
    stones = rng.randint(1, 20)
    for name, seat in ((first, 0), (second, 1)):
        if name in model.registry and model.registry.get(name).kind is PlayerKind.AI:
            # the AI's moves are fixed only where it can win: start it from such a count
            losing = 1 + (bound + 1) * rng.randint(0, 4)
            stones = losing + rng.randint(1, bound) if seat == 0 else losing
    return f"startgame {stones},{bound},{first},{second}"


def _project_a(rng: random.Random, size: int) -> tuple[Unit, ...]:
    names = (rng.choice(GIVEN), rng.choice(GIVEN))
    units: list[Unit] = [names]
    games = rng.randint(1, max(1, min(3, size // 4)))
    for index in range(games):
        bound, stones = rng.randint(1, 5), rng.randint(1, 20)
        game, lines = NimGame(stones, bound), [str(bound), str(stones)]
        while not game.over:
            take = rng.randint(1, game.most)
            game = game.take(take)
            lines.append(str(take))
        last = rng.choice(("N", "N", "n", "y", "yes", "q"))  # anything but Y ends it
        lines.append(last if index == games - 1 else "Y")
        units.append(tuple(lines))
    return tuple(units)
