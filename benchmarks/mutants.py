"""Mutants of casino's references: each one plausible student bug, for bench_explore.py.

``python benchmarks/mutants.py NAME [ARGS…]`` runs the reference with that one bug (as a
program ``casino explore --program`` or ``casino replay --program`` can run);
:func:`mutant_main` gives the same program as a ``main`` to run in this process. A bug is
a patch applied only while the mutant's ``main`` runs, so that the reference, in the same
process, stays itself.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO
from unittest import mock

from casino import demo
from casino.draw import messages as draw_messages
from casino.draw import rules as draw_rules
from casino.draw import shell as draw_shell
from casino.draw import validate as draw_validate
from casino.errors import IllegalAction, ParseError
from casino.nim import cli as nim_cli
from casino.nim import kayles, nim_game, play, players, ranking, registry, shell, stage_a, storage
from casino.nim.ai import NimAIPlayer
from casino.programs import MainFunction, load_main
from casino.shell import Flow
from casino.videopoker import commands as vp_commands
from casino.videopoker import game as vp_game
from casino.videopoker import paytable as vp_paytable

Patch = Callable[[contextlib.ExitStack], None]


@dataclass(frozen=True)
class Mutant:
    """A named bug in one reference: the grammar it is explored with, what it does."""

    name: str
    reference: str
    """The ``--reference`` grammar (``nimsys``, ``nimsys-b``, ``nimsys-a``, ``demo``)."""
    bug: str
    patch: Patch
    pinned: bool = True
    """Whether it differs where the assignment fixes the output (else only where the
    assignment leaves room, so no correct judge should kill it)."""


def _set(target: Any, name: str, value: Any) -> Patch:
    return lambda stack: stack.enter_context(mock.patch.object(target, name, value))


def _both(*patches: Patch) -> Patch:
    def apply(stack: contextlib.ExitStack) -> None:
        for patch in patches:
            patch(stack)

    return apply


_ranked, _ranking_line, _display_line = ranking.ranked, ranking.ranking_line, ranking.display_line
_take, _check = nim_game.NimGame.take, kayles.KaylesGame.check
_save, _loads = storage.save, storage.loads


def _ranked_ties_reversed(players_: Any, order: ranking.Order) -> list[players.Player]:
    sign = -1 if order is ranking.Order.DESC else 1
    ordered = sorted(players_, key=lambda p: p.username, reverse=order is ranking.Order.DESC)
    return sorted(ordered, key=lambda p: sign * p.ratio)[:10]


def _ranked_by_wins(players_: Any, order: ranking.Order) -> list[players.Player]:
    sign = -1 if order is ranking.Order.DESC else 1
    return sorted(players_, key=lambda p: (sign * p.won, p.username))[:10]


def _ranked_asc_default(players_: Any, order: ranking.Order) -> list[players.Player]:
    return _ranked(players_, ranking.Order.ASC if order is ranking.Order.DESC else order)


def _percent_truncated(ratio: Fraction) -> int:
    return int(ratio * 100)


def _percent_half_even(ratio: Fraction) -> int:
    return round(ratio * 100)


def _ranking_line_4(player: players.Player) -> str:
    return (
        f"{f'{ranking.percent(player.ratio)}%':<4}| {player.played:02d} games | {player.full_name}"
    )


def _ranking_line_games(player: players.Player) -> str:
    return f"{f'{ranking.percent(player.ratio)}%':<5}| {player.played} games | {player.full_name}"


def _display_family_first(player: players.Player) -> str:
    return (
        f"{player.username},{player.family_name},{player.given_name},"
        f"{player.played} games,{player.won} wins"
    )


def _invalid_bound(self: nim_game.NimGame) -> IllegalAction:
    return IllegalAction(f"Invalid move. You must remove between 1 and {self.upper_bound} stones.")


def _take_below_most(self: nim_game.NimGame, count: int) -> nim_game.NimGame:
    if count == self.most and count > 1:
        raise self.invalid_move()
    return _take(self, count)


def _take_zero(self: nim_game.NimGame, count: int) -> nim_game.NimGame:
    return self if count == 0 else _take(self, count)


def _take_past_remaining(self: nim_game.NimGame, count: int) -> nim_game.NimGame:
    if self.remaining < count <= self.upper_bound:
        return nim_game.NimGame(0, self.upper_bound)
    return _take(self, count)


def _reset_keeps_played(self: players.Player) -> players.Player:
    return replace(self, won=0)


def _after_game_winner_only(self: players.Player, *, won: bool) -> players.Player:
    return replace(self, played=self.played + int(won), won=self.won + int(won))


def _renamed_swapped(self: players.Player, family: str, given: str) -> players.Player:
    return replace(self, family_name=given, given_name=family)


_display_player = shell.NimsysShell.display_player


def _display_missing_silent(self: shell.NimsysShell, command: Any) -> None:
    username = shell._first_argument(command)
    if username is not None and username not in self.registry:
        return
    _display_player(self, command)


def _remove_all_unasked(self: shell.NimsysShell, question: str) -> bool:
    if question == shell.REMOVE_ALL:
        return True
    return bool(_confirm(self, question))


_confirm = shell.NimsysShell._confirm


def _confirm_capital_only(self: shell.NimsysShell, question: str) -> bool:
    answer = self.console.ask(question + "\n")
    return answer is not None and answer.strip() == "Y"


def _save_nothing_when_empty(path: Path, players_: list[players.Player]) -> str | None:
    return None if not players_ else _save(path, players_)


def _loads_all_human(text: str) -> list[players.Player]:
    return [replace(p, kind=players.PlayerKind.HUMAN) for p in _loads(text)]


def _loads_no_stats(text: str) -> list[players.Player]:
    return [p.reset() for p in _loads(text)]


def _ai_takes_one(self: NimAIPlayer, remaining: int, upper_bound: int) -> int:
    return 1


def _ai_off_by_one(self: NimAIPlayer, remaining: int, upper_bound: int) -> int:
    return max(1, min(upper_bound, remaining % (upper_bound + 1)))


def _opponents_second_unchecked(
    self: shell.NimsysShell, first: str, second: str
) -> tuple[players.Player, players.Player]:
    if first not in self.registry:
        raise IllegalAction(shell.NO_SUCH_PLAYERS)
    return self.registry.get(first), self.registry._players[second]


def _unknown_unquoted(self: shell.NimsysShell, command: Any) -> None:
    self.console.line(f"{command.word} is not a valid command.")


def _kayles_removed_allowed(self: kayles.KaylesGame, move: kayles.KaylesMove) -> None:
    if move.count not in (1, 2) or not 1 <= move.position <= len(self.stones) - move.count + 1:
        raise IllegalAction(kayles.INVALID_MOVE)


def _kayles_count_three(self: kayles.KaylesGame, move: kayles.KaylesMove) -> None:
    if move.count == 3:
        move = kayles.KaylesMove(move.position, 2)
    _check(self, move)


def _board_spaced(self: kayles.KaylesGame) -> str:
    return " ".join(f"<{i}, {'*' if present else 'x'}>" for i, present in enumerate(self.stones, 1))


def _nim_board_trailing(self: nim_game.NimGame) -> str:
    return "* " * self.remaining


def _exit_silent(self: shell.NimsysShell, command: Any) -> Flow:
    return Flow.STOP


def _table_eleven(self: demo.Demo, command: Any) -> None:
    values = self.numbers(command, 1)
    if values is not None and values[0] == 12:
        self.console.line("table size must be 1-12")
        return
    _demo_table(self, command)


_demo_table = demo.Demo.table


def _mul_abs(self: demo.Demo, command: Any) -> None:
    values = self.numbers(command, 2)
    if values is not None:
        self.console.line(f"{values[0]} × {values[1]} = {abs(values[0] * values[1])}")


def _store_zero_unsaved(self: demo.Demo, command: Any) -> None:
    values = self.numbers(command, 1)
    if values is not None and values[0] == 0:
        self.console.line("stored 0")
        return
    _demo_store(self, command)


_demo_store = demo.Demo.store


def _add_no_negative(self: demo.Demo, command: Any) -> None:
    values = self.numbers(command, 2)
    if values is not None:
        self.console.line(f"{values[0]} + {values[1]} = {abs(values[0]) + values[1]}")


_arguments = shell._arguments


def _arguments_exact(command: Any, needed: int) -> list[str]:
    fields = [field.strip() for field in command.rest.split(",")]
    if needed and len(fields) > needed:
        raise ParseError(shell.INCORRECT_ARGUMENTS)
    return list(_arguments(command, needed))


def _run_project_a_lowercase_again(console: Any) -> None:
    """Project A whose play again takes ``y`` as ``Y``."""
    console.line("Welcome to Nim")
    names = []
    for number in (1, 2):
        name = stage_a._ask_name(console, number)
        if name is None:
            console.line()
            return
        names.append(name)
    human = play.Human(console)
    seats = (play.Seat(names[0], names[0], human), play.Seat(names[1], names[1], human))
    while stage_a._one_game(console, seats) and (
        (console.ask(stage_a.PLAY_AGAIN) or "").strip().upper() == "Y"
    ):
        pass
    console.line()


_take_text = nim_game.NimGame.take_text


def _take_text_double(self: nim_game.NimGame, text: str) -> nim_game.NimGame:
    """A move read as Java's ``Double.parseDouble`` reads it, whole values taken."""
    if re.fullmatch(r"[0-9]+\.0+", text.strip()):
        text = text.strip().split(".")[0]
    return _take_text(self, text)


_registry_add, _registry_remove = registry.Registry.add, registry.Registry.remove


def _remove_keeps_record(self: registry.Registry, username: str) -> None:
    gone = self.__dict__.setdefault("_gone", {})
    gone[username] = self.get(username)
    _registry_remove(self, username)


def _add_brings_back(self: registry.Registry, player: players.Player) -> None:
    old = self.__dict__.get("_gone", {}).pop(player.username, None)
    if old is not None and player.username not in self:
        player = replace(player, played=old.played, won=old.won)
    _registry_add(self, player)


def _ranked_by_rounded(players_: Any, order: ranking.Order) -> list[players.Player]:
    sign = -1 if order is ranking.Order.DESC else 1
    key = lambda p: (sign * ranking.percent(p.ratio), p.username)  # noqa: E731
    return sorted(players_, key=key)[: ranking.SHOWN]


def _advice_zero_based(held: Sequence[int]) -> str:
    if not held:
        return "player should discard everything"
    return "player should hold cards " + " ".join(str(position) for position in held)


_payout = vp_paytable.PayTable.payout


def _payout_royal_per_coin(self: vp_paytable.PayTable, line: vp_paytable.PayLine, bet: int) -> int:
    if line is vp_paytable.PayLine.ROYAL_FLUSH and bet == vp_paytable.MAX_BET:
        return 250 * bet
    return _payout(self, line, bet)


def _advanced_unknown(self: shell.NimsysShell, command: Any) -> None:
    """``startadvancedgame`` answered as an unknown command (the bonus not attempted)."""
    self.console.line(f"'{command.word}' is not a valid command.")


def _folded_says_fold(left: int) -> str:
    return f"You fold! You have {left} left"


def _bet_over_chips(self: draw_shell.ConsolePlayer, table: draw_rules.Table) -> int | None:
    """Player_1's bet checked against the starting chips, not against what is left."""
    answer = draw_validate.ask_character(self.console, draw_messages.BET_OR_FOLD_PROMPT, "BbFf")
    if answer in "Ff":
        return None
    low, high = table.bet_limits()
    prompt = draw_messages.bet_prompt(table.seats[0].name, high)
    return draw_validate.ask_number(self.console, prompt, low, draw_rules.START_BANK)


def _first_letter(console: Any, prompt: str, valid: str) -> str:
    """Bet or fold read from the answer's first letter (``bet`` bets, ``fold`` folds)."""
    while True:
        answer = console.ask(prompt + draw_messages.PROMPT_END)
        if answer is None:
            raise draw_validate.EndOfInput(prompt)
        if answer[:1] and answer[0] in valid:
            return str(answer[0])
        console.line(draw_messages.not_valid_character(answer))


_SHELL = shell.NimsysShell
MUTANTS: dict[str, Mutant] = {
    mutant.name: mutant
    for mutant in (
        Mutant("rankings-eleven", "nimsys", "rankings list 11 players", _set(ranking, "SHOWN", 11)),
        Mutant(
            "resetstats-keeps-played",
            "nimsys",
            "resetstats zeroes the wins but keeps the games played",
            _set(players.Player, "reset", _reset_keeps_played),
        ),
        Mutant(
            "rankings-ties-reversed",
            "nimsys",
            "ties broken by username descending in descending rankings (Project B's freedom)",
            _both(
                _set(ranking, "ranked", _ranked_ties_reversed),
                _set(shell, "ranked", _ranked_ties_reversed),
            ),
        ),
        Mutant(
            "rankings-truncated",
            "nimsys",
            "percentages truncated, not rounded",
            _set(ranking, "percent", _percent_truncated),
        ),
        Mutant(
            "rankings-half-even",
            "nimsys",
            "halves rounded to even (12.5% shows 12%): rounding either way is nearest",
            _set(ranking, "percent", _percent_half_even),
            pinned=False,
        ),
        Mutant(
            "rankings-by-wins",
            "nimsys",
            "rankings by games won, not by the ratio",
            _both(_set(ranking, "ranked", _ranked_by_wins), _set(shell, "ranked", _ranked_by_wins)),
        ),
        Mutant(
            "rankings-asc-default",
            "nimsys",
            "rankings without an argument ascending",
            _both(
                _set(ranking, "ranked", _ranked_asc_default),
                _set(shell, "ranked", _ranked_asc_default),
            ),
        ),
        Mutant(
            "rankings-column-4",
            "nimsys",
            "the percentage column 4 wide, not 5",
            _both(
                _set(ranking, "ranking_line", _ranking_line_4),
                _set(shell, "ranking_line", _ranking_line_4),
            ),
        ),
        Mutant(
            "rankings-games-unpadded",
            "nimsys",
            "games not padded to two digits",
            _both(
                _set(ranking, "ranking_line", _ranking_line_games),
                _set(shell, "ranking_line", _ranking_line_games),
            ),
        ),
        Mutant(
            "display-family-first",
            "nimsys",
            "displayplayer prints the family name before the given name",
            _both(
                _set(ranking, "display_line", _display_family_first),
                _set(shell, "display_line", _display_family_first),
            ),
        ),
        Mutant(
            "invalid-move-says-bound",
            "nimsys",
            "the invalid-move message says the bound, not min(bound, stones left)",
            _set(nim_game.NimGame, "invalid_move", _invalid_bound),
        ),
        Mutant(
            "move-below-most",
            "nimsys",
            "off by one: taking exactly the most allowed is refused",
            _set(nim_game.NimGame, "take", _take_below_most),
        ),
        Mutant(
            "move-zero-passes",
            "nimsys",
            "removing 0 stones is taken as a move (the turn passes)",
            _set(nim_game.NimGame, "take", _take_zero),
        ),
        Mutant(
            "move-past-remaining",
            "nimsys",
            "a move up to the bound is allowed even past the stones left",
            _set(nim_game.NimGame, "take", _take_past_remaining),
        ),
        Mutant(
            "loser-not-counted",
            "nimsys",
            "a game counts only for its winner",
            _set(players.Player, "after_game", _after_game_winner_only),
        ),
        Mutant(
            "editplayer-swaps-names",
            "nimsys",
            "editplayer stores the given name as the family name",
            _set(players.Player, "renamed", _renamed_swapped),
        ),
        Mutant(
            "player-exists-typo",
            "nimsys",
            "a missing full stop in The player already exists",
            _set(registry, "PLAYER_EXISTS", "The player already exists"),
        ),
        Mutant(
            "display-missing-silent",
            "nimsys",
            "displayplayer of a missing player prints nothing (a message missing in one state)",
            _set(_SHELL, "display_player", _display_missing_silent),
        ),
        Mutant(
            "remove-all-unasked",
            "nimsys",
            "removeplayer with no username removes all unasked (the answer is read as a command)",
            _set(_SHELL, "_confirm", _remove_all_unasked),
        ),
        Mutant(
            "confirm-capital-only",
            "nimsys",
            "the (y/n) question takes only Y",
            _set(_SHELL, "_confirm", _confirm_capital_only),
        ),
        Mutant(
            "save-skipped-when-empty",
            "nimsys",
            "players.dat not saved when no player is left (the file keeps the old players)",
            _set(storage, "save", _save_nothing_when_empty),
        ),
        Mutant(
            "ai-kind-not-saved",
            "nimsys",
            "AI players come back from players.dat as humans",
            _set(storage, "loads", _loads_all_human),
        ),
        Mutant(
            "stats-not-saved",
            "nimsys",
            "games played and won are not saved in players.dat",
            _set(storage, "loads", _loads_no_stats),
        ),
        Mutant(
            "ai-takes-one",
            "nimsys",
            "the AI always takes one stone",
            _set(NimAIPlayer, "remove_stone", _ai_takes_one),
        ),
        Mutant(
            "ai-off-by-one",
            "nimsys",
            "the AI leaves k(M+1) stones, not k(M+1)+1",
            _set(NimAIPlayer, "remove_stone", _ai_off_by_one),
        ),
        Mutant(
            "second-player-unchecked",
            "nimsys",
            "startgame checks only that the first player exists (then crashes)",
            _set(_SHELL, "_opponents", _opponents_second_unchecked),
        ),
        Mutant(
            "invalid-command-unquoted",
            "nimsys",
            "the invalid command message without quotes",
            _set(_SHELL, "_unknown", _unknown_unquoted),
        ),
        Mutant(
            "advanced-removed-stone",
            "nimsys",
            "the advanced game lets a removed stone be taken again",
            _set(kayles.KaylesGame, "check", _kayles_removed_allowed),
        ),
        Mutant(
            "advanced-count-three",
            "nimsys",
            "the advanced game takes 3 as 2 (a count not checked)",
            _set(kayles.KaylesGame, "check", _kayles_count_three),
        ),
        Mutant(
            "advanced-last-stone-loses",
            "nimsys",
            "in the advanced game taking the last stone loses",
            _set(play.KaylesRules, "last_stone_wins", False),
        ),
        Mutant(
            "advanced-board-spaced",
            "nimsys",
            "the advanced board shows <1, *>",
            _set(kayles.KaylesGame, "board", _board_spaced),
        ),
        Mutant(
            "board-trailing-space",
            "nimsys-b",
            "a space after the last star",
            _set(nim_game.NimGame, "board", _nim_board_trailing),
        ),
        Mutant(
            "extra-arguments-refused",
            "nimsys",
            "a command with more arguments than it needs is refused (the seed: ignore them)",
            _set(shell, "_arguments", _arguments_exact),
        ),
        Mutant(
            "whole-decimal-move",
            "nimsys",
            "moves read with Double.parseDouble: 2.0 removes 2 stones (decimals are invalid)",
            _set(nim_game.NimGame, "take_text", _take_text_double),
        ),
        Mutant(
            "readded-keeps-record",
            "nimsys",
            "a removed player added again gets their old games and wins back",
            _both(
                _set(registry.Registry, "remove", _remove_keeps_record),
                _set(registry.Registry, "add", _add_brings_back),
            ),
        ),
        Mutant(
            "rankings-by-rounded",
            "nimsys",
            "rankings sorted by the rounded percentage (ties of 56 % and 56 % by username)",
            _both(
                _set(ranking, "ranked", _ranked_by_rounded),
                _set(shell, "ranked", _ranked_by_rounded),
            ),
        ),
        Mutant(
            "no-bonus",
            "nimsys",
            "the bonus not attempted: startadvancedgame is not a valid command",
            _set(_SHELL, "start_advanced_game", _advanced_unknown),
        ),
        Mutant(
            "no-bonus-loser-not-counted",
            "nimsys",
            "the bonus not attempted, and a game counts only for its winner",
            _both(
                _set(_SHELL, "start_advanced_game", _advanced_unknown),
                _set(players.Player, "after_game", _after_game_winner_only),
            ),
        ),
        Mutant(
            "b-exit-silent",
            "nimsys-b",
            "exit prints no blank line",
            _set(_SHELL, "exit", _exit_silent),
        ),
        Mutant(
            "b-resetstats-keeps-played",
            "nimsys-b",
            "Project B: resetstats keeps the games played",
            _set(players.Player, "reset", _reset_keeps_played),
        ),
        Mutant(
            "a-last-stone-wins",
            "nimsys-a",
            "Project A: the player who takes the last stone wins",
            _set(play.NimRules, "last_stone_wins", True),
        ),
        Mutant(
            "a-again-lowercase",
            "nimsys-a",
            "Project A plays again on y (the seed: anything but Y ends it)",
            _set(nim_cli, "run_project_a", _run_project_a_lowercase_again),
        ),
        Mutant(
            "a-move-past-remaining",
            "nimsys-a",
            "Project A: a move up to the bound ends the game past the stones left",
            _set(nim_game.NimGame, "take", _take_past_remaining),
            pinned=False,
        ),
        Mutant(
            "demo-table-twelve",
            "demo",
            "table refuses 12 (off by one)",
            _set(demo.Demo, "table", _table_eleven),
        ),
        Mutant(
            "demo-mul-abs",
            "demo",
            "a product is always positive",
            _set(demo.Demo, "mul", _mul_abs),
        ),
        Mutant(
            "demo-store-zero",
            "demo",
            "store 0 says stored but writes nothing",
            _set(demo.Demo, "store", _store_zero_unsaved),
        ),
        Mutant(
            "demo-add-abs",
            "demo",
            "add drops the first number's sign",
            _set(demo.Demo, "add", _add_no_negative),
        ),
        Mutant(
            "vp-tens-or-better",
            "videopoker",
            "a pair of tens pays as jacks or better (off by one rank)",
            _set(vp_paytable, "_JACK", 10),
        ),
        Mutant(
            "vp-four-fives-low",
            "videopoker",
            "four fives paid as FOUR 2-4 (a bound off by one)",
            _set(vp_paytable, "_FOUR", 5),
        ),
        Mutant(
            "vp-max-bet-four",
            "videopoker",
            "a bet of 5 refused (the bound off by one)",
            _set(vp_game, "MAX_BET", 4),
        ),
        Mutant(
            "vp-first-bet-one",
            "videopoker",
            "a bare b bets 1 at first, not 5",
            _set(vp_game, "DEFAULT_BET", 1),
        ),
        Mutant(
            "vp-advice-zero-based",
            "videopoker",
            "the advice names 0-based positions (hold cards 0 1)",
            _set(vp_commands, "advice_message", _advice_zero_based),
        ),
        Mutant(
            "vp-royal-per-coin",
            "videopoker",
            "a royal flush at 5 credits pays 1,250 (250 a coin), not 4,000",
            _set(vp_paytable.PayTable, "payout", _payout_royal_per_coin),
        ),
        Mutant(
            "draw-fold-message",
            "draw",
            "Player_1 folding prints 'You fold!' (the seed: 'You folded!')",
            _set(draw_messages, "folded_out", _folded_says_fold),
        ),
        Mutant(
            "draw-bet-over-chips",
            "draw",
            "a bet over what Player_1 has left is taken, up to the 1000 chips of the start",
            _both(
                _set(draw_shell.ConsolePlayer, "bet", _bet_over_chips),
                _set(draw_rules.Table, "verify_open", lambda self, amount: None),
            ),
        ),
        Mutant(
            "draw-first-letter",
            "draw",
            "bet or fold read from the first letter: 'bet' bets, 'BF' bets (the seed: B b F f)",
            _set(draw_shell, "ask_character", _first_letter),
        ),
        Mutant(
            "draw-exchange-four",
            "draw-choose",
            "--choose takes four cards to exchange (the seed: up to 3)",
            _set(draw_rules, "MAX_EXCHANGE", 4),
        ),
    )
}
"""Every mutant by name."""

PROGRAM_OF = {"nimsys": "nimsys", "nimsys-b": "nimsys", "nimsys-a": "nimsys", "demo": "demo"}
PROGRAM_OF["videopoker"] = "videopoker"
PROGRAM_OF["draw"] = PROGRAM_OF["draw-choose"] = "draw"


@contextlib.contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    """The mutant's bug in place while the block runs."""
    with contextlib.ExitStack() as stack:
        mutant.patch(stack)
        yield


def mutant_main(mutant: Mutant) -> MainFunction:
    """The reference's ``main`` with the mutant's bug, only while it runs."""
    main = load_main(PROGRAM_OF[mutant.reference])

    def mutated(
        argv: Sequence[str] | None = None,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> int:
        with applied(mutant):
            return main(argv, stdin=stdin, stdout=stdout, stderr=stderr)

    return mutated


if __name__ == "__main__":
    mutant = MUTANTS[sys.argv[1]]
    status: int = mutant_main(mutant)(sys.argv[2:])
    raise SystemExit(status)
