"""The shell core: prompts flushed before reads, one unknown-command path, clean end of input."""

from __future__ import annotations

import io

from casino.shell import Command, CommandTable, Console, Flow, run_commands, tokens


class FlushRecorder(io.StringIO):
    """A stream that remembers what had been written at each flush."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed_at: list[str] = []

    def flush(self) -> None:
        self.flushed_at.append(self.getvalue())


def table_for(out: list[str]) -> CommandTable:
    def say(command: Command) -> None:
        out.append(command.rest)

    table = CommandTable(unknown=lambda command: out.append(f"unknown {command.word!r}"))
    table.register("say", say)
    table.register("exit", lambda command: Flow.STOP)
    return table


def test_prompt_is_written_without_newline_and_flushed_before_each_read() -> None:
    stream = FlushRecorder()
    console = Console(["say hi", "exit"], stream)
    assert run_commands(console, table_for([]), prompt="$") is Flow.STOP
    assert stream.getvalue() == "$$"
    assert stream.flushed_at == ["$", "$$"]


def test_unknown_commands_go_through_one_path_and_input_end_is_clean() -> None:
    said: list[str] = []
    console = Console(["say  hello world ", "", "frobnicate x", "say \tbye\r\n"], io.StringIO())
    assert run_commands(console, table_for(said)) is Flow.CONTINUE
    assert said == ["hello world", "unknown ''", "unknown 'frobnicate'", "bye"]
    assert console.exhausted


def test_command_parse_splits_word_and_rest() -> None:
    command = Command.parse("  addplayer a,b,c  extra ")
    assert (command.word, command.rest, command.args) == (
        "addplayer",
        "a,b,c  extra",
        ["a,b,c", "extra"],
    )
    assert Command.parse("") == Command("", "")


def test_tokens_accept_spaces_newlines_tabs_and_crlf() -> None:
    assert list(tokens(["b d h 1 3\r\n", "\t$  b 10\n", ""])) == [
        "b",
        "d",
        "h",
        "1",
        "3",
        "$",
        "b",
        "10",
    ]


def test_console_ask_returns_none_at_end_and_strips_line_endings() -> None:
    console = Console(iter(["y\r\n"]), io.StringIO())
    assert console.ask("(y/n)") == "y"
    assert console.ask() is None
