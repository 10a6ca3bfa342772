"""Shared command-line parsing: help on the program's stdout, usage errors as one line."""

from __future__ import annotations

import io

from casino.cmdline import ArgumentParser, parse_or_report
from casino.shell import Streams


def parse(*argv: str) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    parser = ArgumentParser(out=out, prog="game", description="A game.")
    parser.add_argument("--seed", type=int)
    result = parse_or_report(parser, argv, Streams(io.StringIO(), out, err))
    return result, out.getvalue(), err.getvalue()


def test_options_are_returned() -> None:
    options, out, err = parse("--seed", "7")
    assert getattr(options, "seed", None) == 7
    assert (out, err) == ("", "")


def test_help_goes_to_the_given_stdout_and_ends_with_status_0() -> None:
    status, out, err = parse("--help")
    assert status == 0
    assert out.startswith("usage: game [-h] [--seed SEED]\n\nA game.\n")
    assert err == ""


def test_a_usage_error_is_one_line_and_status_2() -> None:
    assert parse("--seed", "x") == (2, "", "game: argument --seed: invalid int value: 'x'\n")
    assert parse("extra") == (2, "", "game: unrecognized arguments: extra\n")
