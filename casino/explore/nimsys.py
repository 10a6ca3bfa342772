"""Nimsys sessions (COMP90041 Projects A, B and C): the grammar that generates them and
the simpler values shrinking tries; what a session may type is the model's
(:mod:`casino.explore.nimsys_model`, whose docstring says what is left out and why).

Project C's bonus, the advanced game, is an optional part (:data:`BONUS`): see
:class:`casino.explore.plan.OptionalPart`.

A chain of Project C runs shares ``players.dat`` (its format is each program's own; only
what it brings back is compared).

With ``choices`` (``casino explore --choices``), Project C's sessions also explore what the
seed leaves to the program and casino answers its own way (:data:`CHOICE_FILES`): a session
may start with a ``players.dat`` that casino refuses (in casino's format with a wrong first line,
a bad escape, a field missing, more wins than games, no last newline; or a folder), and each
run's stderr and exit status are judged as well as its output — for a course that adopts
casino's choices, or a change to casino's own reference, never for a student the seed alone
binds.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from casino.explore.nimsys_model import (
    IDLE_LINE,
    MAX_ADVANCED_STONES,
    NAME,
    NEEDED,
    NUMBER,
    Model,
    ModelA,
    Unpinned,
    pinned_ai_move,
)
from casino.explore.plan import OptionalPart, Rendered, RunInput, Session, Unit, smaller_numbers
from casino.explore.played import Plays, games, play_transcript
from casino.explore.references import ABOUT
from casino.nim.kayles import KaylesGame
from casino.nim.nim_game import NimGame
from casino.nim.players import PlayerKind
from casino.nim.storage import FILE_NAME, HEADER

# --------------------------------------------------------------------------- the grammar

BONUS = OptionalPart("the bonus (startadvancedgame)", ("startadvancedgame",))
"""Project C's section 2.6, "for bonus marks": the advanced game."""
PLAYED = "the advanced AI (the bonus, played)"
"""The group of a play the advanced game's AI fails (:meth:`NimsysGrammar.plays`)."""
PLAYS = (("ai", "perfect"), ("ai", "random"), ("rival", "erring"), ("rival", "random"))
"""Who moves first and how the rival plays, in each play explore has the advanced AI play: the
seed's "victory guaranteed" AI moving first beats any rival (a perfect one punishes its first
wrong move, a random one leads it to more positions); moving second, it wins once the rival
errs (the erring rival plays perfectly but for one mistake, the random one errs at once)."""
PLAY_GAMES = 10
"""Games at each size (1 to :data:`MAX_ADVANCED_STONES` stones) in each play, as the course's
tester and the shipped ``ai-bonus-*`` transcripts play them."""


CHOICE_FILES: tuple[tuple[str, str] | None, ...] = (
    None,
    (FILE_NAME, "precious\n"),
    (FILE_NAME, f"{HEADER}\nhuman\tl\\qsky\tSkywalker\tLuke\t1\t1\n"),
    (FILE_NAME, f"{HEADER}\nhuman\tlsky\tSkywalker\tLuke\t1\n"),
    (FILE_NAME, f"{HEADER}\nhuman\tlsky\tSkywalker\tLuke\t1\t2\n"),
    (FILE_NAME, f"{HEADER}\nhuman\tlsky\tSkywalker\tLuke\t1\t1"),
    (f"{FILE_NAME}/kept", "kept\n"),
)
"""With ``choices``: what a session may start with (its data, an index here; ``0``: no file),
each a name and its text. Each is refused whole by casino, so the program starts with no
players, as without a file, and says why on stderr: a ``players.dat`` in casino's own format
(:mod:`casino.nim.storage`) with a wrong first line, a bad escape (``\\q``), a field missing,
more wins than games, no newline at the end; and ``players.dat`` a folder (a file in it), which
cannot be read. The seed leaves the file's format and its errors to the program (section
2.3)."""
CHOICE_SHARE = 0.5
"""With ``choices``: the share of sessions that start with one of :data:`CHOICE_FILES`."""

GIVEN = ("Luke", "Han", "Leia", "Darth", "Ben", "Rey", "Finn", "Poe", "Lando", "Ada", "Bo")
FAMILY = ("Skywalker", "Solo", "Organa", "Vader", "Kenobi", "Calrissian", "Dameron", "Lee")


@dataclass(frozen=True)
class NimsysGrammar:
    """Sessions of Nimsys Project ``stage`` (``a``, ``b`` or ``c``); with ``choices``
    (Project C), casino's own choices explored and judged too (the module's docstring)."""

    stage: str = "c"
    choices: bool = False
    keeps_recordings = True  # a session's arcs are the same in any process: see plan.Grammar

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
        return ABOUT[self.name]

    def plays(self, seed: int, name: str) -> Plays | None:
        """Project C: the advanced game's AI played where the sessions cannot pin its moves
        (:data:`PLAYS`, 1 to 11 stones, :data:`PLAY_GAMES` games each; the rival's choices
        from seeds drawn from ``seed``): it must win every game it can win."""
        if self.stage != "c":
            return None
        rng = random.Random(f"nimsys plays {seed}")
        transcripts = []
        for first, rival in PLAYS:
            play = games(first, rival, 1, MAX_ADVANCED_STONES, PLAY_GAMES, "nimsys-advanced")
            drawn = rng.randrange(1, 100_000)
            label = f"{name}: the advanced AI played | {play.describe()}, seed {drawn}"
            transcripts.append(play_transcript(label, self.program, play, drawn))
        return Plays(PLAYED, BONUS, tuple(transcripts))

    def render(self, session: Session) -> Rendered:
        """Each run typed as it is, ``exit`` added at its end (Projects B and C)."""
        args = () if self.stage == "c" else ("--stage", self.stage)
        tail = () if self.stage == "a" else ("exit",)
        runs = tuple(
            RunInput(args, tuple(line for unit in run for line in unit) + tail)
            for run in session.runs
        )
        start = CHOICE_FILES[int(session.data[0])] if session.data else None
        return Rendered(runs, () if start is None else (start,))

    @property
    def judges_errors(self) -> bool:
        """With ``choices``: each run's stderr and exit status are recorded and judged."""
        return self.choices

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
        if not self.choices or self.stage != "c":
            return Session(tuple(built))
        drawn = rng.randrange(1, len(CHOICE_FILES)) if rng.random() < CHOICE_SHARE else 0
        return Session(tuple(built), (str(drawn),))

    # ------------------------------------------------------------------------- simpler

    def simpler(self, session: Session) -> Iterator[Session]:
        """Games made the shortest with either winner, ``rankings`` without its order,
        names shorter (everywhere at once), then numbers smaller (one at a time)."""
        yield from _without_extras(session, self.stage)
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
        for smaller in range(int(session.data[0]) if session.data else 0):
            yield Session(session.runs, (str(smaller),))  # no players.dat, then a shorter one


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


def _without_extras(session: Session, stage: str) -> Iterator[Session]:
    """The extra arguments (Project C ignores them) dropped: from every line at once, then
    from one line at a time."""
    if stage == "a":
        return

    def trimmed(line: str) -> str:
        found = IDLE_LINE.fullmatch(line)
        if found is None or found.group(2) is None or found.group(1) not in NEEDED:
            return line
        fields = found.group(2).split(",")
        keep = NEEDED[found.group(1)] or 1
        return f"{found.group(1)} {','.join(fields[:keep])}" if len(fields) > keep else line

    places = [
        (r, u)
        for r, run in enumerate(session.runs)
        for u, unit in enumerate(run)
        if trimmed(unit[0]) != unit[0]
    ]
    if not places:
        return

    def without(chosen: set[tuple[int, int]]) -> Session:
        runs = tuple(
            tuple(
                (trimmed(unit[0]), *unit[1:]) if (r, u) in chosen else unit
                for u, unit in enumerate(run)
            )
            for r, run in enumerate(session.runs)
        )
        return session.with_runs(runs)

    yield without(set(places))
    if len(places) > 1:
        for place in places:
            yield without({place})


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
    if crowd and model.stage == "c" and rng.random() < 0.3:  # the advanced AI, many sizes
        ai = [p.username for p in model.registry.sorted() if p.kind is PlayerKind.AI]
        if not ai:
            _try_unit(rng, model, units, lambda: f"addaiplayer {_username(rng)},AI,Bot")
            ai = [p.username for p in model.registry.sorted() if p.kind is PlayerKind.AI]
        if len(model.registry.sorted()) < 2:
            _try_unit(rng, model, units, lambda: _add(rng, model, fresh=True))
        for _ in range(rng.randint(1, 3) if ai else 0):
            _try_unit(rng, model, units, lambda: _against_ai(rng, model, ai[0]))
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
        if model.ai_moves_next():  # leave the AI a position where its move is pinned
            legal = [
                move
                for move in legal
                if game.take(move).over or pinned_ai_move(game.take(move)) is not None
            ]
        if rng.random() < 0.8 and legal:
            return str(rng.choice(legal))
        size = len(game.stones)
        if rng.random() < 0.5:  # just outside the row: before the first, past the last pin
            return rng.choice(("0 1", f"{size + 1} 1", f"{size} 2", "0 2"))
        return f"{rng.randint(0, size + 1)} {rng.choice((0, 1, 2, 3))}"
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
        ai = [p.username for p in model.registry.sorted() if p.kind is PlayerKind.AI]
        if ai and rng.random() < 0.6:
            return _against_ai(rng, model, rng.choice(ai))
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


def _against_ai(rng: random.Random, model: Model, ai: str) -> str:
    """An advanced game of the AI player ``ai`` against another player (a new human when
    there is none), from any size, either moving first: where the AI's move is pinned
    (:func:`casino.explore.nimsys_model.pinned_ai_move`) the model keeps it."""
    others = [p.username for p in model.registry.sorted() if p.username != ai]
    other = rng.choice(others) if others else ai
    seats = [ai, other]
    rng.shuffle(seats)
    return f"startadvancedgame {rng.randint(1, MAX_ADVANCED_STONES)},{','.join(seats)}"


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
