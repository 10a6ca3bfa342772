"""The man pages installed with casino say what each program's ``--help`` says now."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from casino import manpage


@pytest.mark.parametrize("program", manpage.pages())
def test_the_installed_page_is_in_step_with_the_help(program: str) -> None:
    installed = manpage.MAN_DIR / manpage.page_name(program)
    assert installed.is_file(), f"no {installed.name}: run python -m casino.manpage"
    assert installed.read_text() == manpage.generate(program), (
        f"{installed.name} differs from {program} --help: run python -m casino.manpage"
    )


def test_every_option_of_draw_is_a_tagged_paragraph_with_its_help() -> None:
    page = manpage.generate("draw")
    for option, words in [
        ("\\-\\-players N", "the number of players, 2 to 5 (default: ask)"),
        ("\\-\\-tiebreak {first,kickers}", "equal ranks: the first player wins"),
        ("\\-\\-deck\\-file FILE", "deal from FILE's cards, top first"),
    ]:
        block = page.split(f".TP\n.B {option}\n", 1)
        assert len(block) == 2, option
        assert block[1].startswith(words)
    assert page.startswith('.TH "CASINO\\-DRAW" 1 ')
    assert ".SH SYNOPSIS\n.B casino draw\n[\\-h] [\\-\\-players N]" in page


def test_the_page_does_not_depend_on_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    narrow = manpage.generate("videopoker")
    monkeypatch.setenv("COLUMNS", "200")
    assert manpage.generate("videopoker") == narrow
    assert os.environ["COLUMNS"] == "200"


def test_a_wrapped_help_is_taken_apart_into_options() -> None:
    text = (
        "usage: x [-h] [--long-option {a,b}]\n\n"
        "Does x. Then more.\n\n"
        "options:\n"
        "  -h, --help            show this help\n"
        "  --long-option {a,b}\n"
        "                        first half\n"
        "                        second half\n\n"
        "  .starts with a dot\n"
    )
    parsed = manpage.parse_help(text)
    assert parsed.usage == "x [-h] [--long-option {a,b}]"
    assert parsed.sections[0].items == [
        ("-h, --help", "show this help"),
        ("--long-option {a,b}", "first half second half"),
    ]
    assert manpage.escape(".starts") == "\\&.starts"
    assert manpage.escape("a\\b-c") == "a\\eb\\-c"


def test_write_pages_writes_one_file_per_program(tmp_path: Path) -> None:
    written = manpage.write_pages(tmp_path, ["draw"])
    assert written == [tmp_path / "casino-draw.1"]
    assert written[0].read_text() == manpage.generate("draw")


def test_sub_commands_get_a_section_each() -> None:
    assert manpage.sub_commands("casino x {a,b-c} ...", "x") == ["a", "b-c"]
    assert manpage.sub_commands("x [-h] [--seed N]", "x") == []
    page = manpage.render(
        "x",
        "usage: casino x {run} ...\n\nDoes x.\n",
        [("run", "usage: casino x run [-h] --fast\n\nRuns.\n\noptions:\n  --fast  quickly\n")],
    )
    assert ".SH SYNOPSIS\n.B casino x\n{run} ...\n" in page
    assert ".SH COMMANDS\n.SS run\n.B casino x run\n[\\-h] \\-\\-fast\n.PP\nRuns.\n" in page
    assert ".PP\n.I OPTIONS\n.TP\n.B \\-\\-fast\nquickly\n" in page


def test_the_harness_commands_and_holdems_network_have_pages_in_english() -> None:
    assert manpage.pages()[-3:] == ["grade", "record", "replay"]
    replay = manpage.generate("replay")
    assert replay.startswith('.TH "CASINO\\-REPLAY" 1 ') and "\\-\\-update" in replay
    assert "casino\\-grade(1)" in replay and "casino\\-replay(1)" not in replay
    holdem = manpage.generate("holdem")
    assert ".SS serve\n.B casino holdem serve\n" in holdem and ".SS join\n" in holdem
    assert "muestra" not in holdem and "seats, 2\\-9 (4)" in holdem
