"""man(1) pages for every casino program, generated from its own ``--help``.

``python -m casino.manpage [DIR]`` writes ``casino-<program>.1`` for every program in
:data:`casino.programs.PROGRAMS` and every harness command (``replay``, ``record``,
``grade``, ``explore``) into ``DIR`` (default: the package's ``man`` folder, which is
installed with the package; ``man casino/man/casino-draw.1`` shows one). A test keeps the
installed pages equal to what the programs' ``--help`` says now. A game whose ``--help``
follows ``--lang`` is described in English (``--lang en --help``), as every page is.

The help is read unwrapped (``COLUMNS`` set wide while it is printed), so a page does not
depend on the terminal that generated it. argparse's layout is taken apart generically: the
usage line becomes SYNOPSIS; a paragraph whose first line ends with ``:`` is a section of
options (``options:`` becomes OPTIONS); other paragraphs are DESCRIPTION before the first
section and NOTES after it: prose is refilled, a paragraph laid out with spaces (a table of
commands) is kept line for line.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from casino import __version__
from casino.__main__ import HARNESS_COMMANDS
from casino.programs import PROGRAMS, MainFunction, load_main, run_captured

MAN_DIR = Path(__file__).parent / "man"
"""Where the generated pages live in the package."""

UNLISTED = {"holdem": ["serve", "join"]}
"""Sub-commands a program's usage line does not offer (it plays without one), for its page."""
_WIDE = "1000"
_ITEM = re.compile(r"^ {1,4}(\S(?:.*?\S)?)(?: {2,}(.*))?$")


def page_name(program: str) -> str:
    """``casino-draw.1`` for ``draw``."""
    return f"casino-{program}.1"


@contextmanager
def _wide_columns() -> Iterator[None]:
    """``COLUMNS`` very wide for a while, so argparse does not wrap the help."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = _WIDE
    try:
        yield
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def pages() -> list[str]:
    """Every page's program: the games, then the harness commands."""
    return sorted(PROGRAMS) + sorted(HARNESS_COMMANDS)


def help_text(program: str, *command: str) -> str:
    """What ``casino PROGRAM [COMMAND] --help`` prints, unwrapped (in English: with
    ``--lang en`` where the usage offers ``--lang``)."""
    main: MainFunction = load_main(program) if program in PROGRAMS else _harness(program)
    with _wide_columns():
        text = run_captured(main, [*command, "--help"]).out
        if "[--lang " in text.partition("\n\n")[0]:
            text = run_captured(main, [*command, "--lang", "en", "--help"]).out
    return text


def _harness(command: str) -> MainFunction:
    """``casino COMMAND`` for a harness command, as a program of its own."""
    from casino.__main__ import main

    def run(
        argv: Sequence[str] | None = None,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> int:
        return main([command, *(argv or [])], stdin=stdin, stdout=stdout, stderr=stderr)

    return run


@dataclass
class Section:
    """A titled list of options: (invocation, help) pairs."""

    title: str
    items: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Help:
    """A ``--help`` text taken apart."""

    usage: str
    description: list[list[str]]
    sections: list[Section]
    notes: list[list[str]]


def parse_help(text: str) -> Help:
    """Take argparse's help layout apart (see the module docstring)."""
    paragraphs = [p.splitlines() for p in re.split(r"\n\s*\n", text.strip("\n")) if p.strip()]
    usage = " ".join(line.strip() for line in paragraphs[0]) if paragraphs else ""
    usage = usage.removeprefix("usage:").strip()
    result = Help(usage, [], [], [])
    for lines in paragraphs[1:]:
        if lines[0].endswith(":") and not lines[0].startswith(" ") and len(lines) > 1:
            result.sections.append(_section(lines))
        elif result.sections:
            result.notes.append(lines)
        else:
            result.description.append(lines)
    return result


def _section(lines: list[str]) -> Section:
    section = Section(lines[0][:-1])
    for line in lines[1:]:
        match = _ITEM.match(line)
        if match and section.items and line.startswith(" " * 5):
            match = None  # a continuation of the help above
        if match:
            section.items.append((match.group(1), match.group(2) or ""))
        elif section.items:
            name, words = section.items[-1]
            section.items[-1] = (name, f"{words} {line.strip()}".strip())
    return section


def escape(text: str) -> str:
    """``text`` safe in a roff line: backslashes and hyphens escaped, no leading control."""
    escaped = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + escaped if escaped.startswith((".", "'")) else escaped


def render(program: str, text: str, commands: Sequence[tuple[str, str]] = ()) -> str:
    """The man page of ``program`` whose ``--help`` is ``text``; ``commands`` are its
    sub-commands' names and ``--help`` texts (a section each under COMMANDS)."""
    parsed = parse_help(text)
    summary = _summary(parsed, program)
    out = [
        f'.TH "CASINO\\-{program.upper()}" 1 "" "casino {__version__}" "casino manual"',
        ".SH NAME",
        f"casino\\-{escape(program)} \\- {escape(summary)}",
        ".SH SYNOPSIS",
        f".B casino {escape(program)}",
        escape(_arguments(parsed.usage, program)),
    ]
    if program in PROGRAMS:
        out += [".br", f".B python \\-m {escape(PROGRAMS[program])}", "[same arguments]"]
    if parsed.description:
        out += [".SH DESCRIPTION", *_paragraphs(parsed.description)]
    out += _sections(parsed.sections)
    if commands:
        out.append(".SH COMMANDS")
    for command, command_text in commands:
        sub = parse_help(command_text)
        out += [f".SS {escape(command)}", f".B casino {escape(program)} {escape(command)}"]
        out += [escape(_arguments(sub.usage, f"{program} {command}"))]
        out += (
            _paragraphs(sub.description)
            + _sections(sub.sections, nested=True)
            + _paragraphs(sub.notes)
        )
    if parsed.notes:
        out += [".SH NOTES", *_paragraphs(parsed.notes)]
    others = [f"casino\\-{escape(name)}(1)" for name in pages() if name != program]
    out += [".SH SEE ALSO", ", ".join(others)]
    return "\n".join(out) + "\n"


def _arguments(usage: str, program: str) -> str:
    """The usage line without the program's name (``draw`` or ``casino draw``)."""
    for name in (f"casino {program}", program):
        if usage.startswith(name + " ") or usage == name:
            return usage[len(name) :].strip()
    return usage


def _sections(sections: Sequence[Section], *, nested: bool = False) -> list[str]:
    """Sections of options as tagged paragraphs: each a ``.SH`` (in italics when ``nested``
    in a sub-command)."""
    out: list[str] = []
    for section in sections:
        title = "OPTIONS" if section.title in ("options", "optional arguments") else section.title
        out += [".PP", f".I {escape(title)}"] if nested else [f".SH {escape(title.upper())}"]
        for name, words in section.items:
            out += [".TP", f".B {escape(name)}", escape(words) if words else ".br"]
    return out


def sub_commands(usage: str, program: str) -> list[str]:
    """The sub-commands a usage line offers first (``{dealer,player} ...``), if any."""
    match = re.match(r"\{([\w,-]+)\}", _arguments(usage, program))
    return match.group(1).split(",") if match else []


def _summary(parsed: Help, program: str) -> str:
    """The description's first sentence, if it starts with prose."""
    lines = parsed.description[0] if parsed.description else []
    if not lines or _laid_out(lines):
        return f"casino's {program} program"
    return " ".join(line.strip() for line in lines).split(". ")[0].rstrip(".")


def _laid_out(lines: list[str]) -> bool:
    """Whether a paragraph is laid out with spaces (kept line for line), not prose."""
    return any(line.startswith(" ") or "  " in line.strip() for line in lines)


def _paragraphs(paragraphs: Sequence[list[str]]) -> list[str]:
    out: list[str] = []
    for lines in paragraphs:
        if _laid_out(lines):
            out += [".PP", ".nf", *(escape(line) for line in lines), ".fi"]
        else:
            out += [".PP", escape(" ".join(line.strip() for line in lines))]
    return out


def generate(program: str) -> str:
    """The man page of ``program`` (and of its sub-commands) as ``--help`` describes it now."""
    text = help_text(program)
    commands = sub_commands(parse_help(text).usage, program) or UNLISTED.get(program, [])
    return render(program, text, [(command, help_text(program, command)) for command in commands])


def write_pages(directory: Path = MAN_DIR, programs: Sequence[str] = ()) -> list[Path]:
    """Write the pages of ``programs`` (default: all) into ``directory``; the paths written."""
    from casino.files import write_atomic

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for program in programs or pages():
        path = directory / page_name(program)
        write_atomic(path, generate(program))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m casino.manpage [DIR]``: (re)generate every page."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or (args and args[0].startswith("-")):
        sys.stderr.write("usage: python -m casino.manpage [DIR]\n")
        return 2
    for path in write_pages(Path(args[0]) if args else MAN_DIR):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
