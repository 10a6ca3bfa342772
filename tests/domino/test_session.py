"""The match session on a fake clock: time-outs, the countdown on a pipe, the catalog, and the
command line's refusals. Nothing sleeps."""

from __future__ import annotations

import ast
import io
import os
import random
import re
import string
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from casino.clock import FakeClock
from casino.domino.cli import main
from casino.domino.commands import Invalid, Play, Word, parse_command, parse_yes_no
from casino.domino.rules import End, shuffled_deal
from casino.domino.shell import Session, Table
from casino.i18n import parse_po, translator
from casino.programs import run_captured
from casino.shell import Console

PACKAGE = Path(__file__).parents[2] / "casino" / "domino"
CATALOG = Path(__file__).parents[2] / "casino" / "locale" / "es" / "LC_MESSAGES" / "domino.po"


def _session(console: Console, clock: FakeClock, **table: object) -> Session:
    rng = random.Random(26)  # the member leads; the first tile is [4|6]
    deals = iter(lambda: shuffled_deal(rng), None)
    return Session(console, translator("domino", "en"), clock, deals, Table(**table))  # type: ignore[arg-type]


def test_time_runs_out_on_a_pipe_with_no_answer_yet() -> None:
    read_end, write_end = os.pipe()
    clock, out = FakeClock(), io.StringIO()
    stream = open(read_end, encoding="utf-8", closefd=False)  # noqa: SIM115
    session = _session(Console.of_stream(stream, out), clock, move_seconds=3, countdown=True)
    try:
        _answer_after(session, write_end, b"n\n")
    finally:
        os.close(read_end)
    text = out.getvalue()
    assert "[3 s] Your move: \x1b7\r[2 s]\x1b8\x1b7\r[1 s]\x1b8\n" in text
    assert "Time is up (1 of 3 in a row): an automatic move.\nYou play [4|6] on the left." in text
    assert "Time is up for the third time in a row: you lose the hand." in text
    assert text.endswith("Money: you $90 (-10), the computer $110.\n")
    assert clock.now() == 9  # three moves of 3 s, none waited for


def _answer_after(session: Session, write_end: int, answer: bytes) -> None:
    """Run the session; the pipe stays silent until the hand is lost, then gets ``answer``."""
    original = session._another

    def another() -> bool:
        os.write(write_end, answer)
        os.close(write_end)
        return original()

    session._another = another  # type: ignore[method-assign]
    session.run()


def _lines(clock: FakeClock, script: Sequence[tuple[float, str]]) -> Iterator[str]:
    for seconds, line in script:
        clock.advance(seconds)
        yield line


def test_a_late_line_is_the_next_moves_and_a_move_in_time_resets_the_count() -> None:
    clock, out = FakeClock(), io.StringIO()
    script = [(16, "3 left"), (15, "1")]  # late, then exactly at the limit: late too
    _session(Console(_lines(clock, script), out), clock).run()
    text = out.getvalue()
    first, second = text.split("Time is up (1 of 3 in a row): an automatic move.\n")[1:]
    assert first.startswith("You play [4|6] on the left.\n")
    # "3 left" came late: it is the next move's, as a terminal keeps what was typed
    assert "Your tiles: 1:[0|3]  2:[3|3]  3:[4|5]" in first
    assert "[15 s] Your move: You play [5|4] on the left.\n" in first
    assert "(2 of 3" not in text  # that move in time ended the run of time-outs
    assert second.startswith("You play ")


def test_the_clock_keeps_running_through_invalid_input() -> None:
    clock, out = FakeClock(), io.StringIO()
    _session(Console(_lines(clock, [(4, "xyz"), (5, "help"), (7, "1")]), out), clock).run()
    text = out.getvalue()
    assert "[11 s] Your move: " in text and "[ 6 s] Your move: " in text
    assert "Time is up (1 of 3 in a row)" in text


def test_every_message_has_a_spanish_translation_with_the_same_placeholders() -> None:
    used = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "N_":
                arg = node.args[0]
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                used.add(arg.value)
    catalog = parse_po(CATALOG.read_text(encoding="utf-8"))
    ids: dict[str, str] = {}
    for key, value in catalog.items():
        if key and "\x04" not in key:
            for one, translated in zip(key.split("\0"), value.split("\0"), strict=True):
                ids[one] = translated
    assert used <= set(ids), sorted(used - set(ids))
    assert set(ids) <= used, sorted(set(ids) - used)  # nothing stale
    fields = string.Formatter()
    for message in used:
        names = {name for _, name, _, _ in fields.parse(message) if name}
        assert names == {name for _, name, _, _ in fields.parse(ids[message]) if name}, message
    tr = translator("domino", "es")
    assert [tr.pgettext("end", end.value) for end in End] == ["izquierda", "derecha"]


def test_commands_in_both_languages() -> None:
    assert parse_command("3 IZQUIERDA") == Play(3, End.LEFT, "3")
    assert parse_command(" 2 right ") == Play(2, End.RIGHT, "2")
    assert parse_command("4") == Play(4, None, "4")
    assert parse_command("robar") is Word.DRAW and parse_command("pass") is Word.PASS
    assert parse_command("ayuda") is Word.HELP and parse_command("salir") is Word.QUIT
    assert parse_command("9" * 5000) == Play(0, None, "9" * 20 + "…")
    bad = parse_command("x\x1by")
    assert isinstance(bad, Invalid) and bad.word == "x?y"
    assert [parse_yes_no(w) for w in ("", "Sí", "no", "quizás")] == [True, True, False, None]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--bankroll", "5"], "argument --bankroll: not a whole number of at least 10: '5'"),
        (["--move-seconds", "0"], "argument --move-seconds: not a number of seconds"),
        (["--move-seconds", "nan"], "argument --move-seconds: not a number of seconds"),
        (["--lang", "fr"], "argument --lang: invalid choice"),
        (["--seed", "x"], "argument --seed: not a whole number"),
        (["--ascii", "--unicode"], "argument --unicode: not allowed with argument --ascii"),
    ],
)
def test_a_bad_command_line_is_one_line_and_status_2(args: list[str], problem: str) -> None:
    done = run_captured(main, args)
    assert done.status == 2 and done.out == ""
    assert done.err.startswith(f"domino: {problem}") and done.err.count("\n") == 1
    assert done.err.endswith(" (see domino --help)\n")


def test_a_bad_tiles_file_is_one_line_and_status_1(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("6-6 0-0 / 1-1\n")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe")
    for name, problem in (
        ("bad.txt", "bad.txt, line 1: a deal must hold each of the 28 tiles exactly once"),
        ("bin.txt", "bin.txt: not UTF-8 text"),
        ("missing.txt", "cannot read"),
    ):
        done = run_captured(main, ["--tiles-file", str(tmp_path / name)])
        assert done.status == 1 and done.out == "" and problem in done.err
        assert done.err.count("\n") == 1


def test_unicode_tiles_when_asked_and_ascii_on_a_pipe() -> None:
    done = run_captured(main, ["--seed", "26", "--unicode", "--lang", "en"], "quit\n")
    assert "Your tiles: 1:\U0001f053" in done.out  # [4|6]
    done = run_captured(main, ["--seed", "26", "--lang", "en"], "quit\n")
    assert re.search(r"Your tiles: 1:\[4\|6\]", done.out)


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "en",
            [
                "commands, one per line at the prompt (in Spanish or English):",
                "  3 left, 3 right",
                "      play your tile 3 at that end (just 3 when only one end fits)",
                "  quit",
                "Each move has 15 s; three turns in a row timed out lose the hand.",
                "  --unicode           tiles as Unicode domino characters (small in most fonts)",
            ],
        ),
        (
            "es",
            [
                "órdenes, una por línea en el indicador (en español o en inglés):",
                "  3 izquierda, 3 derecha",
                "      juega tu ficha 3 en ese extremo (solo 3 si encaja en uno)",
                "  salir",
                "Cada jugada tiene 15 s; tres turnos perdidos seguidos pierden la mano.",
                "  --ascii             fichas como [3|5] (por omisión)",
            ],
        ),
    ],
)
def test_the_help_lists_the_commands_in_the_language_asked_for(
    lang: str, lines: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    argv = ["--help"] if lang == "es" else ["--lang", lang, "--help"]
    done = run_captured(main, argv)
    assert done.status == 0
    for line in lines:
        assert line + "\n" in done.out
    game = run_captured(main, ["--lang", lang, "--seed", "26"], "help\nquit\n").out
    assert lines[1].strip() in game and lines[4] in game  # the same table in the game
