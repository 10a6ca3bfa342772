"""The command line: the course's example byte for byte, every illegal command, bad input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from casino.cards import parse_cards
from casino.shell import tokens
from casino.videopoker.advisors import seed_advisor
from casino.videopoker.commands import echo, group_commands
from casino.videopoker.game import Machine, StackedCards
from casino.videopoker.shells import run_debug, run_interactive

from .conftest import FIXTURES, TerminalInput, run

PROF = FIXTURES / "prof-example"
EXPECTED = (PROF / "expected-with-rebet.txt").read_text()


def debug(tmp_path: Path, commands: str, cards: str, credit: str = "100") -> tuple[int, str, str]:
    (tmp_path / "cmd.txt").write_text(commands)
    (tmp_path / "cards.txt").write_text(cards)
    result = run(["-d", credit, str(tmp_path / "cmd.txt"), str(tmp_path / "cards.txt")])
    return result.status, result.out, result.err


def test_course_example_with_the_extra_bet_matches_byte_for_byte() -> None:
    result = run(
        ["-d", "10000", str(PROF / "cmd-file-with-rebet.txt"), str(PROF / "card-file.txt")]
    )
    assert (result.status, result.out, result.err) == (0, EXPECTED, "")


def test_course_example_2016_17_is_the_same_minus_the_extra_bet() -> None:
    block = "\n-cmd b\nplayer is betting 5\n"
    later = EXPECTED.rindex(block)
    result = run(["-d", "10000", str(PROF / "cmd-file.txt"), str(PROF / "card-file.txt")])
    assert result.out == EXPECTED[:later] + EXPECTED[later + len(block) :]
    assert result.status == 0


def test_tokens_group_into_commands_with_their_numbers() -> None:
    stream = "b d h 1 3 $ b 10 b d\r\n$\th 3 4\n\nx 2 h -1 b 1.5 a s 7"
    grouped = [echo(c) for c in group_commands(tokens(stream.splitlines()))]
    assert grouped == [
        "b", "d", "h 1 3", "$", "b 10", "b", "d", "$", "h 3 4", "x 2", "h -1", "b 1.5", "a",
        "s 7",
    ]  # fmt: skip
    assert [echo(c) for c in group_commands(["7", "b"])] == ["7", "b"]


HAND = "2H KH 2S JS 6D JH TC 9H QC AS 8H 8D 7S 3H 7D"


@pytest.mark.parametrize(
    ("before", "command", "message"),
    [
        ("", "h 1", "h: illegal command"),  # no hand dealt
        # casino_choice: advice before a deal (seed line 241: "a similar warning").
        pytest.param("", "a", "a: illegal command", marks=pytest.mark.casino_choice),
        ("d", "b", "b: illegal command"),  # a bet during a hand
        ("d", "b 3", "b: illegal command"),
        ("d", "b 9", "b: illegal command"),
        ("d", "d", "d: illegal command"),
        ("", "b 0", "b: illegal amount"),
        ("", "b 6", "b: illegal amount"),
        ("", "b -2", "b: illegal amount"),
        ("", "b 1.5", "b: illegal amount"),
        # casino_choice: two words after b refused (seed videopoker-double-bonus.txt line 241:
        # "b or b i", nothing of more).
        pytest.param("", "b 1 2", "b: illegal amount", marks=pytest.mark.casino_choice),
        pytest.param(  # one line, one command (interactive)
            "", "b 4 $", "b: illegal amount", marks=pytest.mark.casino_choice
        ),
        # casino_choice, the rest of this list: a position twice or not 1-5, arguments to a
        # command that takes none, an unknown word (seed videopoker-double-bonus.txt line 241:
        # "Other commands might be illegal ...; in that case, just print a similar warning",
        # not which warning nor that these are illegal).
        *(
            pytest.param(before, command, message, marks=pytest.mark.casino_choice)
            for before, command, message in (
                ("d", "h 0", "h: illegal position"),
                ("d", "h 6", "h: illegal position"),
                ("d", "h 1 1", "h: illegal position"),
                ("d", "h 1 2 3 4 5 1", "h: illegal position"),
                ("d", "h x", "h: illegal position"),
                ("", "$ 5", "$: illegal command"),
                ("", "d 2", "d: illegal command"),
                ("d", "a 1", "a: illegal command"),
                ("", "s 1", "s: illegal command"),
                ("", "x", "x: illegal command"),
                ("", "7", "7: illegal command"),
                ("", "bet", "bet: illegal command"),
            )
        ),
    ],
)
def test_illegal_commands_print_their_message_and_change_nothing(
    before: str, command: str, message: str
) -> None:
    def session(lines: list[str]) -> tuple[str, int, int, str]:
        machine = Machine(100, StackedCards(parse_cards(HAND)))
        out = io.StringIO()
        run_interactive(machine, lines, out, seed_advisor, prompt=False)
        return out.getvalue(), machine.credit, machine.bet, machine.phase.value

    plain = session([before] if before else [])
    text, *state = session([*([before] if before else []), command])
    assert text == plain[0] + message + "\n"
    assert state == list(plain[1:])


def test_piped_interactive_mode_prints_the_debug_messages_without_echo() -> None:
    commands = (PROF / "cmd-file-with-rebet.txt").read_text().split("b ")
    lines = [echo(c) for c in group_commands(tokens(["".join("b " + p for p in commands)[2:]]))]
    cards = parse_cards((PROF / "card-file.txt").read_text())
    out = io.StringIO()
    run_interactive(Machine(10000, StackedCards(cards)), lines, out, seed_advisor, prompt=False)
    without_echo = [line for line in EXPECTED.splitlines() if line and not line.startswith("-cmd")]
    assert out.getvalue() == "\n".join(without_echo) + "\n"

    echoed = io.StringIO()
    commands_again = group_commands(tokens(lines))
    run_debug(Machine(10000, StackedCards(cards)), commands_again, echoed, seed_advisor)
    assert echoed.getvalue() == EXPECTED


def test_a_terminal_gets_a_greeting_and_prompts() -> None:
    result = run(["-i", "50", "--seed", "3"], TerminalInput("$\nb 2\n"))
    assert result.status == 0
    lines = result.out.split("\n")
    assert lines[0] == "Video poker, Double Bonus 10/7. Your credit is 50."
    assert result.out.endswith("> player's credit is 50\n> player is betting 2\n> \n")


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("jacks-or-better-9-6", "Jacks or Better 9/6"),
        ("double-bonus-9-6", "Double Bonus 9/6"),
        ("double-bonus-10-7", "Double Bonus 10/7"),
    ],
)
def test_the_greeting_names_the_chosen_pay_table(name: str, title: str) -> None:
    result = run(["-i", "50", "--paytable", name], TerminalInput(""))
    assert result.out.split("\n")[0] == f"Video poker, {title}. Your credit is 50."


def test_prompts_can_be_forced_on_or_off() -> None:
    forced = run(["-i", "50", "--seed", "3", "--prompt"], "$\nb 2\n")
    assert forced == run(["-i", "50", "--seed", "3"], TerminalInput("$\nb 2\n"))
    quiet = run(["-i", "50", "--no-prompt"], TerminalInput("$\n"))
    assert quiet.out == "player's credit is 50\n"


def test_piped_interactive_mode_follows_the_seed() -> None:
    commands = "b 2\nd\na\nh 1 2\n$\nd\nh\ns\n"
    first = run(["-i", "500", "--seed", "9"], commands)
    assert first == run(["-i", "500", "--seed", "9"], commands)
    assert first.status == 0 and first.err == ""
    assert first.out.startswith("player is betting 2\nplayer's hand ")
    assert first.out.splitlines()[-2].split() == ["Total", "2"]
    assert first != run(["-i", "500", "--seed", "10"], commands)


def test_cmd_and_card_files_may_use_spaces_tabs_newlines_or_crlf(tmp_path: Path) -> None:
    status, out, err = debug(
        tmp_path, "b\r\n\td\r\nh\t1  3\r\n", "2H\tKH\r\n2S JS 6D\n JH TC 9H\r\n"
    )
    assert (status, err) == (0, "")
    assert out.endswith(
        "-cmd h 1 3\nplayer's hand 2H JH 2S TC 9H\nplayer loses and his credit is 95\n"
    )


def test_a_bad_card_token_is_one_line_before_anything_is_played(tmp_path: Path) -> None:
    status, out, err = debug(tmp_path, "b d", "2H KH 1S JS 6D")
    assert (status, out) == (1, "")
    assert (
        err
        == "videopoker: card-file '"
        + str(tmp_path / "cards.txt")
        + "': card 3 is not a card: '1S'\n"
    )


def test_a_card_file_that_runs_out_stops_with_one_line(tmp_path: Path) -> None:
    status, out, err = debug(tmp_path, "b d h 1 2 b d", "2H KH 2S JS 6D JH TC 9H")
    assert status == 1
    assert out.endswith(
        "player loses and his credit is 95\n\n-cmd b\nplayer is betting 5\n\n-cmd d\n"
    )
    assert err.count("\n") == 1 and "ran out of cards" in err


def test_a_card_file_that_repeats_a_card_in_a_hand_stops_with_one_line(tmp_path: Path) -> None:
    status, _, err = debug(tmp_path, "d h 1", "2H KH 2S JS 6D 2H 3C 4C 5C")
    assert status == 1 and err.count("\n") == 1 and "2H appears twice in one hand" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        ([], "one of the arguments -i -d -s -g is required"),
        (["-i"], "expected 1 argument"),
        (["-i", "ten"], "credit must be a whole number of at least 1, not 'ten'"),
        (["-i", "0"], "credit must be a whole number of at least 1, not '0'"),
        (["-s", "100", "6", "10"], "bet must be a whole number from 1 to 5, not '6'"),
        (["-s", "100", "5", "-1"], "nbdeals must be a whole number of at least 0, not '-1'"),
        (["-i", "10", "-s", "1", "1", "1"], "not allowed with argument"),
        (["-i", "10", "--jobs", "0"], "--jobs must be at least 1"),
        (["-s", "10", "1", "1", "--advisor", "exact"], "--advisor"),
        (["-i", "10", "--bogus"], "unrecognized arguments: --bogus"),
        (["-i", "10", "--paytable", "nope"], "invalid choice: 'nope'"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(argv: list[str], fragment: str) -> None:
    result = run(argv)
    assert result.status == 2 and result.out == ""
    assert result.err.count("\n") == 1 and fragment in result.err
    assert result.err.startswith("videopoker: ")


def test_unreadable_files_are_one_line_and_status_1(tmp_path: Path) -> None:
    (tmp_path / "cards.txt").write_bytes(b"\xff\xfe\x00")
    for cmd_file, card_file in [
        (tmp_path / "missing.txt", PROF / "card-file.txt"),
        (PROF / "cmd-file.txt", tmp_path),  # a directory
        (PROF / "cmd-file.txt", tmp_path / "cards.txt"),  # not text
    ]:
        result = run(["-d", "10", str(cmd_file), str(card_file)])
        assert result.status == 1 and result.out == ""
        assert result.err.count("\n") == 1 and result.err.startswith("videopoker: cannot read")


def test_help_goes_to_stdout() -> None:
    result = run(["--help"])
    assert result.status == 0 and result.err == ""
    assert "-d credit cmd-file card-file" in result.out


def test_analyze_is_dispatched_to_the_analyzer() -> None:
    result = run(["analyze", "--hand", "AC KC QC JC 2C"])
    assert (result.status, result.err) == (0, "")
    assert result.out.splitlines()[2] == " 1  AC KC QC JC --      93.1914893617  4380/47"


@pytest.mark.parametrize(
    ("advisor", "advice"),
    [("seed", "player should hold cards 4"), ("exact", "player should hold cards 2 4")],
)
def test_advisor_option_chooses_the_seed_list_or_the_exact_analyzer(
    tmp_path: Path, advisor: str, advice: str
) -> None:
    """9H QD 8C AH 5D: the seed's list keeps the ace (line 29); optimal play keeps QA."""
    (tmp_path / "cmd.txt").write_text("b d a")
    (tmp_path / "cards.txt").write_text("9H QD 8C AH 5D")
    files = [str(tmp_path / "cmd.txt"), str(tmp_path / "cards.txt")]
    result = run(["-d", "100", *files, "--advisor", advisor])
    assert (result.status, result.err) == (0, "")
    assert result.out.endswith(f"\n-cmd a\n{advice}\n")


def test_the_casino_command_runs_the_same_main() -> None:
    from casino.__main__ import main as casino_main

    out, err = io.StringIO(), io.StringIO()
    argv = ["videopoker", "-d", "10000", str(PROF / "cmd-file-with-rebet.txt")]
    status = casino_main([*argv, str(PROF / "card-file.txt")], stdout=out, stderr=err)
    assert (status, out.getvalue(), err.getvalue()) == (0, EXPECTED, "")


def test_the_help_lists_every_command_the_machine_takes() -> None:
    from casino.programs import run_captured
    from casino.shell import Console
    from casino.videopoker.cli import COMMANDS, main
    from casino.videopoker.commands import VideoPokerCommands

    machine = Machine(100, StackedCards(parse_cards(HAND)))
    table = VideoPokerCommands(machine, Console(iter(()), io.StringIO()), seed_advisor).table
    assert sorted(syntax.split()[0] for syntax, _ in COMMANDS) == sorted(table.handlers)
    done = run_captured(main, ["--help"])
    assert done.status == 0
    for syntax, meaning in COMMANDS:
        assert f"\n  {syntax}\n      {meaning}\n" in done.out
