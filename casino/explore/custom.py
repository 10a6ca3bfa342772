"""Any course's own assignment: a grammar file and an external reference program.

``casino explore --grammar FILE.yaml --reference 'CMD' --program 'CMD2'`` explores a program
against a reference in any language. The grammar file says what is typed::

    name: stack                  # how reports name it
    about: a stack calculator    # one line
    args: []                     # the program's arguments (optional)
    end: quit                    # typed at the end of every run (optional)
    runs: 3                      # a session: a chain of 1 to 3 runs in one folder (default 1)
    files:                       # starting files, one text of each list drawn (optional;
      saved.txt: [null, "", "7\n"]  # null: no such file)
    commands:                    # what a run is made of, drawn by weight
      - {form: "push {n}", weight: 4, group: stack, prints: ["pushed -?[0-9]+"]}
      - {form: pop, weight: 2}   # group (default: the first word) and prints: for --every
    domains:                     # what each {name} in a form stands for
      n: [0, 1, 7, -3, 42]       # one of these
      m: {min: 0, max: 9}        # a whole number in this range
    open:                        # output lines the assignment leaves open (regexes)
      - "took [0-9]+ ms"

A session is a chain of 1 to ``runs`` runs of 1 to ``size`` commands each, sharing one fresh
working folder (what a run saves, the next one finds), with the starting ``files`` written in
it first. The reference is run twice on each session through the pipe runner; a session it
does not end by itself on, or whose output differs between the two runs, is left out (output
random by nature cannot be pinned). Recordings are cached by what was typed and the files,
within a run of explore. An output line that fully matches an ``open`` regex is recorded as
that regex (an ``out_re`` step), the rest exactly. The judge and the shrinker are explore's
own (whole runs, commands, then smaller numbers and each file's first text); ``--every``
reports one difference per ``group``: a differing line of the reference's output belongs to
the first command whose ``prints`` it matches (the pipe runner's output is not split by
command).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from casino.cmdline import UsageError
from casino.explore.plan import Rendered, RunInput, Session, smaller_numbers
from casino.harness.model import In, Inline, Out, OutRe, Run, Step, Transcript
from casino.harness.runners.base import Target
from casino.harness.runners.pipe import PipeRunner
from casino.harness.session import play

FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
"""A ``{name}`` in a command's form."""


class GrammarFileError(UsageError):
    """A grammar file that cannot be read or says something explore cannot use (a usage
    error: one line, exit status 2)."""


@dataclass(frozen=True)
class Command:
    """One command form, how often it is drawn, and the part of the assignment it is
    (``--every``: one difference a group, known by the lines the command ``prints``; by
    default the group is the form's first word)."""

    form: str
    weight: float
    group: str = ""
    prints: tuple[re.Pattern[str], ...] = ()
    """The lines of output it prints (regexes): how ``--every`` knows a line's group."""


@dataclass
class CustomGrammar:
    """Sessions of a course's own assignment, recorded from an external reference."""

    name: str
    about: str
    commands: tuple[Command, ...]
    domains: dict[str, tuple[str, ...]]
    reference: tuple[str, ...]
    directory: Path | None = None
    args: tuple[str, ...] = ()
    end: str | None = None
    open: tuple[re.Pattern[str], ...] = ()
    chain: int = 1
    """The most runs a session chains (``runs:``)."""
    files: tuple[tuple[str, tuple[str | None, ...]], ...] = ()
    """Each starting file's name and the texts it may start with (``None``: no file)."""
    program: str = "custom"
    """Not one of casino's programs: the reference is the external ``reference``."""
    recorded: dict[tuple[str, ...], Transcript | None] = field(default_factory=dict)
    """The reference's recordings in this run of explore, by the lines typed."""
    reference_runs: int = 0
    """How often the reference was started (two per session not cached)."""

    def generate(self, rng: random.Random, size: int) -> Session:
        """A chain of 1 to ``chain`` runs of 1 to ``size`` commands each, drawn by weight, and
        a text drawn for each starting file (its index, kept as the session's data)."""
        weights = [command.weight for command in self.commands]
        runs = []
        for _ in range(rng.randint(1, self.chain) if self.chain > 1 else 1):
            picked = rng.choices(self.commands, weights, k=rng.randint(1, size))
            runs.append(tuple((self._fill(command.form, rng),) for command in picked))
        data = tuple(str(rng.randrange(len(texts))) for _, texts in self.files)
        return Session(tuple(runs), data)

    def _fill(self, form: str, rng: random.Random) -> str:
        return FIELD.sub(lambda found: rng.choice(self.domains[found.group(1)]), form)

    def render(self, session: Session) -> Rendered:
        """Each run as typed, with ``end`` at its end, and the starting files drawn."""
        tail = (self.end,) if self.end is not None else ()
        return Rendered(
            tuple(
                RunInput(self.args, (*(line for unit in run for line in unit), *tail))
                for run in session.runs
            ),
            self._files(session),
        )

    def _files(self, session: Session) -> tuple[tuple[str, str], ...]:
        written = []
        for (name, texts), index in zip(self.files, session.data, strict=True):
            text = texts[int(index)]
            if text is not None:
                written.append((name, text))
        return tuple(written)

    def unpinned(self, session: Session) -> str | None:
        """A session with no run (nothing else is refused before the reference runs)."""
        return None if session.runs else "no run"

    def simpler(self, session: Session) -> Iterator[Session]:
        """Numbers made smaller, then each starting file's first text instead of another."""
        yield from smaller_numbers(session)
        for at, index in enumerate(session.data):
            if index != "0":
                yield Session(session.runs, (*session.data[:at], "0", *session.data[at + 1 :]))

    def group_of_line(self, line: str) -> str:
        """The ``group`` of the first command whose ``prints`` a line of the reference's
        output fully matches (``--every``); ``commands`` for any other line."""
        for command in self.commands:
            if any(pattern.fullmatch(line) for pattern in command.prints):
                return command.group or command.form.split(" ", 1)[0]
        return "commands"

    def record(self, session: Session, name: str) -> Transcript | None:
        """The session recorded from the reference, run twice; ``None`` where it did not
        end by itself, did not read every line, or printed something else the second time."""
        rendered = self.render(session)
        key = tuple(line for run in rendered.runs for line in (*run.args, "\0", *run.lines))
        key += tuple(f"\0{name}\0{text}" for name, text in rendered.files)
        if key in self.recorded:
            return self.recorded[key]
        bare = Transcript(
            name=name,
            runs=tuple(
                Run(tuple(In(x) for x in run.lines), run.args or None) for run in rendered.runs
            ),
            program=None,
            files=tuple((f, Inline(text)) for f, text in rendered.files) or None,
            single=len(rendered.runs) == 1,
        )
        target = Target(None, self.reference, self.directory)
        outputs: list[tuple[str, ...] | None] = []
        for _ in range(2):
            self.reference_runs += len(bare.runs)
            outcomes = play(bare, PipeRunner(), target)
            if any(o.problem or o.exit is None for o in outcomes):
                outputs.append(None)
                break
            outputs.append(tuple(o.output for o in outcomes))
        recorded = None
        if outputs[0] is not None and len(outputs) == 2 and outputs[0] == outputs[1]:
            runs = tuple(
                Run((*run.steps, *self._outputs(text)), run.args)
                for run, text in zip(bare.runs, outputs[0], strict=True)
            )
            recorded = Transcript(
                name=name, runs=runs, program=None, files=bare.files, single=bare.single
            )
        self.recorded[key] = recorded
        return recorded

    def _outputs(self, text: str) -> tuple[Step, ...]:
        """The run's output: exact, or a regex where a line is one the assignment leaves open."""
        lines = text.splitlines(keepends=True)
        if not any(self._is_open(line) for line in lines):
            return (Out(text),) if text else ()
        parts = []
        for line in lines:
            body = line.rstrip("\n")
            pattern = f"(?:{self._open_of(body)})" if self._is_open(line) else re.escape(body)
            parts.append(pattern + ("\\n" if line.endswith("\n") else ""))
        return (OutRe("".join(parts)),)

    def _is_open(self, line: str) -> bool:
        return self._open_of(line.rstrip("\n")) is not None

    def _open_of(self, body: str) -> str | None:
        for pattern in self.open:
            if pattern.fullmatch(body):
                return pattern.pattern
        return None


def load_grammar(path: Path, reference: tuple[str, ...], directory: Path | None) -> CustomGrammar:
    """The grammar in the YAML file at ``path``, with ``reference`` as its reference command
    (written for ``directory``); :class:`GrammarFileError` saying what is wrong."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise GrammarFileError(f"--grammar {str(path)!r}: cannot read it ({error})") from None
    if not isinstance(data, dict):
        raise GrammarFileError(f"--grammar {str(path)!r}: not a mapping of keys")
    where = f"--grammar {str(path)!r}"
    commands = tuple(_command(each, where) for each in _list(data, "commands", where))
    if not commands:
        raise GrammarFileError(f"{where}: 'commands' lists no command")
    domains = {
        str(k): _domain(v, f"{where}: domain {k!r}")
        for k, v in _map(data, "domains", where).items()
    }
    for command in commands:
        for used in FIELD.findall(command.form):
            if used not in domains:
                raise GrammarFileError(f"{where}: {command.form!r} uses {{{used}}}, no such domain")
    try:
        opened = tuple(re.compile(str(p)) for p in _list(data, "open", where))
    except re.error as error:
        raise GrammarFileError(f"{where}: 'open' has a bad regex ({error})") from None
    end = data.get("end")
    chain = data.get("runs", 1)
    if not isinstance(chain, int) or isinstance(chain, bool) or not 1 <= chain <= 10:
        raise GrammarFileError(f"{where}: 'runs' is {chain!r}, not a whole number from 1 to 10")
    return CustomGrammar(
        name=str(data.get("name", path.stem)),
        about=str(data.get("about", f"the assignment in {path.name}")),
        commands=commands,
        domains=domains,
        reference=reference,
        directory=directory,
        args=tuple(str(a) for a in _list(data, "args", where)),
        end=None if end is None else str(end),
        open=opened,
        chain=chain,
        files=tuple(_files(_map(data, "files", where), where)),
    )


def _list(data: dict[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise GrammarFileError(f"{where}: {key!r} is not a list")
    return value


def _map(data: dict[str, Any], key: str, where: str) -> dict[Any, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise GrammarFileError(f"{where}: {key!r} is not a mapping")
    return value


def _files(files: dict[Any, Any], where: str) -> Iterator[tuple[str, tuple[str | None, ...]]]:
    """Each starting file's name and texts (``null``: no file), checked."""
    for name, texts in files.items():
        plain = isinstance(name, str) and name not in ("", ".", "..") and "/" not in name
        if not plain or "\0" in name:
            raise GrammarFileError(f"{where}: a starting file's name {name!r} is not a plain name")
        if not isinstance(texts, list) or not texts:
            raise GrammarFileError(f"{where}: file {name!r} needs a list of texts (null: none)")
        if not all(text is None or isinstance(text, str) for text in texts):
            raise GrammarFileError(f"{where}: file {name!r}'s texts are strings or null")
        yield name, tuple(texts)


def _command(each: Any, where: str) -> Command:
    if isinstance(each, str):
        return Command(each, 1.0)
    if not isinstance(each, dict) or not isinstance(each.get("form"), str):
        raise GrammarFileError(
            f"{where}: a command is a form or {{form: ..., weight: ...}}: {each!r}"
        )
    weight = each.get("weight", 1)
    if not isinstance(weight, int | float) or isinstance(weight, bool) or weight <= 0:
        raise GrammarFileError(
            f"{where}: {each['form']!r} has weight {weight!r}, not a positive number"
        )
    group, prints = each.get("group", ""), each.get("prints", [])
    if not isinstance(group, str):
        raise GrammarFileError(f"{where}: {each['form']!r} has group {group!r}, not a name")
    if not isinstance(prints, list) or not all(isinstance(p, str) for p in prints):
        raise GrammarFileError(f"{where}: {each['form']!r}'s prints is not a list of regexes")
    try:
        patterns = tuple(re.compile(pattern) for pattern in prints)
    except re.error as error:
        message = f"{where}: {each['form']!r}'s prints has a bad regex ({error})"
        raise GrammarFileError(message) from None
    return Command(each["form"], float(weight), group, patterns)


def _domain(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, list) and value:
        return tuple(str(v) for v in value)
    if isinstance(value, dict) and set(value) == {"min", "max"}:
        low, high = value["min"], value["max"]
        if isinstance(low, int) and isinstance(high, int) and low <= high <= low + 10_000:
            return tuple(str(n) for n in range(low, high + 1))
    raise GrammarFileError(f"{where}: a non-empty list, or {{min: A, max: B}} of whole numbers")
