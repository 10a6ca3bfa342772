"""``casino explore``: find where a program differs from casino's reference, and shrink it.

``casino.__main__`` hands ``casino explore …`` to :func:`main`, which runs under the harness's
command contract (:mod:`casino.harness.command`): Ctrl-C or SIGTERM stops the runs, the
smallest difference found so far is still written, and the status is then 130 (143).
Exit status: 0 when no difference was found (or the suite was written), 1 when one was,
2 for a usage error.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from casino.cmdline import ArgumentParser, UsageError, seconds, whole_number
from casino.explore.references import ABOUT, RULES
from casino.files import write_atomic
from casino.harness.cli import _command, _program_dir
from casino.harness.command import run_command
from casino.shell import Streams

if TYPE_CHECKING:
    from casino.explore.engine import Explorer, Found
    from casino.explore.plan import Grammar
    from casino.explore.recordings import Recordings

# The engine, the judge, the runners, coverage, the recordings and the transcript writer are
# imported where used, once the command line has been read: `casino explore --help` and a usage
# error need only the grammars' names (:mod:`casino.explore.references`).

EPILOG = """\
references (--reference NAME):
{grammars}

Sessions are drawn from the assignment's commands, short ones first, deterministically from
--seed; each is recorded from casino's reference in this process, and the program (--program
CMD, written as typed in its folder, as for casino replay) is judged on it by replay's own
judge. The first session on which it differs is shrunk (whole runs, commands, lines, then
simpler names and numbers) while the reference still accepts it and the program still
differs, and written to -o FILE (default explore-NAME.yaml), an ordinary transcript:
`casino replay --program CMD FILE` fails and `casino replay FILE` passes. Without --program,
casino's own reference is explored (it must never differ from itself).
A difference in an optional part (Project C's bonus) is reported once on its own line and
the rest is explored without it. --every goes on after a difference and shrinks the first
of each part of the assignment it touches (Nimsys: commands, rankings, games, the AI,
files, the bonus, the advanced AI played; video poker: commands, hands, pay lines, advice,
statistics; five-card draw: players, bet or fold, bets, exchanges, results), each written
beside FILE (FILE-2.yaml …).
Project C's advanced AI is also played, after the sessions, as a play: transcript is
(the AI first and second, 1 to 11 stones, 440 games drawn from --seed): a play it fails (a
game it could win and did not) is shrunk to one game and written as a play: transcript.
Sessions are tried sixteen at a time in the order that reaches new reference code soonest
(the reference traced line by line in this process, until three windows in a row reach
nothing new); the reference coverage reached is said at the end (--coverage: by module).
--jobs N runs up to N of the program's runs at once (default: eight a core, at most 16,
since a run mostly waits for its program to start): the sessions and shrinking candidates
to be tried next are judged ahead, and what is found, shrunk and written is what --jobs 1
finds, one run at a time. The reference's recordings are kept between runs of explore in
casino's cache folder (explore/ in $CASINO_CACHE_DIR, else $XDG_CACHE_HOME/casino or
~/.cache/casino; a change to casino's code starts them afresh); --no-cache neither reads
nor writes them.
--choices also explores what the seed leaves to the program and casino answers its own way
(Nimsys Project C: a players.dat in casino's format that casino refuses; video poker: a bet
of two amounts), and judges each run's stderr and exit status as well as its output: for a
course that adopts casino's choices, or a change to casino's own reference, never for a
student whom the seed alone binds.
--out DIR writes the first --sessions sessions as transcripts (a fixed suite for casino
grade), with Project C the plays of its advanced AI as play: transcripts, and runs nothing.
Progress goes to stderr. Ctrl-C keeps what was found.
exit status: 0 no difference (or the suite written), 1 a difference, 2 usage error.
"""

_CHOICES = ", casino's choices"
"""What an explored transcript's name adds with ``--choices``."""
JOBS_A_CORE = 8
"""``--jobs``'s default, a core: a run of a program that starts slowly (a JVM's 0.4 s) mostly
waits, so more runs than cores overlap those waits (measured in docs/explore.md)."""
MAX_JOBS = 16
"""``--jobs``'s default at most (a worker process and a program each: memory, not cores)."""


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``casino explore …`` (``argv`` starts with ``explore``)."""
    return run_command(COMMANDS, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _parser(out: TextIO) -> ArgumentParser:
    width = max(map(len, ABOUT)) + 2
    grammars = "\n".join(f"  {name:<{width}}{about}" for name, about in ABOUT.items())
    grammars += "".join(f"\n  {name:<{width}}{about}" for name, about in RULES.items())
    parser = ArgumentParser(
        out=out,
        prog="casino explore",
        description="Find a short session on which a program differs from casino's reference.",
        epilog=EPILOG.format(grammars=grammars),
    )
    add = parser.add_argument
    add(
        "--reference",
        required=True,
        metavar="NAME",
        help="the assignment (below); with --grammar, the reference's command",
    )
    add("--grammar", metavar="FILE", help="a course's own grammar file (YAML): see docs/explore.md")
    add("--program", metavar="CMD", help="the program to explore (any language)")
    add("--program-dir", metavar="DIR", help="CMD's folder (default: this one)")
    add("--sessions", type=whole_number(1), default=300, metavar="N", help="sessions (300)")
    add("--seed", type=whole_number(0), default=0, metavar="S", help="seed (0)")
    add(
        "--jobs",
        type=whole_number(1),
        metavar="N",
        help="the program's runs at once (default: 8 a core, at most 16; 1: one at a time)",
    )
    add(
        "--no-cache",
        action="store_true",
        help="record every session from the reference afresh (keep no recordings)",
    )
    add("--runner", choices=("pipe", "pty"), default="pipe", help="how to run it (pipe)")
    add("--budget-runs", type=whole_number(1), default=3000, metavar="N", help="runs (3000)")
    add("--budget-seconds", type=seconds(), default=600.0, metavar="S", help="seconds (600)")
    add("-o", "--output", metavar="FILE", help="the shrunk transcript (explore-NAME.yaml)")
    add(
        "--every",
        action="store_true",
        help="go on after a difference: one shrunk difference per part of the assignment",
    )
    add("--out", metavar="DIR", help="write the sessions as a suite of transcripts instead")
    add(
        "--choices",
        action="store_true",
        help="also explore and judge casino's own choices where the seed leaves them open",
    )
    add(
        "--replay",
        metavar="SCRIPT",
        help="--reference stud-player: deal a dealer's script's game again to --program",
    )
    add(
        "--coverage",
        action="store_true",
        help="also say, module by module, which of the reference's lines were reached",
    )
    return parser


def explore(argv: list[str], streams: Streams) -> int:
    """``casino explore``."""
    args = _parser(streams.stdout).parse_args(argv)
    if args.reference in RULES:
        return _explore_by_rules(args, streams)
    if args.replay is not None:
        raise UsageError("--replay SCRIPT is for --reference stud-player")
    grammar = _grammar(args)
    from casino.explore.coverage import Coverage
    from casino.explore.engine import Budget, CannotRun, Explorer
    from casino.explore.judge import Program
    from casino.explore.suite import write_suite
    from casino.harness.runners import make_runner
    from casino.harness.runners.base import Target

    if args.out is not None:
        if args.program or args.output:
            raise UsageError("--out DIR writes a suite: it takes no --program or -o")
        written, plays = write_suite(grammar, args.seed, args.sessions, Path(args.out))
        also = f" and {plays} plays of the advanced AI" if plays else ""
        streams.stdout.write(f"wrote {written} transcripts{also} to {args.out}\n")
        return 0
    command = _command(args.program)
    directory = _program_dir(args.program_dir, command)
    program = Program(make_runner(args.runner), Target(grammar.program, command, directory))
    explorer = Explorer(
        grammar,
        program,
        Budget(args.budget_runs, args.budget_seconds),
        progress=streams.error,
        name=f"explored: {grammar.name}{_CHOICES if args.choices else ''}, seed {args.seed}",
        coverage=Coverage(),
        jobs=args.jobs or min(MAX_JOBS, JOBS_A_CORE * (os.cpu_count() or 1)),
        recordings=_recordings(args, grammar),
    )
    output = Path(args.output or f"explore-{grammar.name}.yaml")
    try:
        founds = _found(explorer, args)
    except CannotRun as error:
        streams.error(f"casino explore: {error}")
        return 1
    except KeyboardInterrupt:
        explorer.close(stopped=True)
        if explorer.best is not None:
            _report(explorer.best, output, args, streams)
        raise
    finally:
        explorer.close()
        if explorer.recordings is not None:
            explorer.recordings.save()
    _report_coverage(explorer, args.coverage, streams)
    for index, part_found in enumerate(explorer.optional, 1):
        _report_part(part_found, output.with_stem(f"{output.stem}-optional-{index}"), args, streams)
    main = [each for each in founds if each.part is None]
    if not main:
        other = " other" if explorer.optional else ""
        streams.stdout.write(
            f"no{other} difference in {explorer.tried} sessions ({explorer.runs} runs,"
            f" {explorer.seconds:.1f} s)\n"
        )
        if explorer.games:
            streams.stdout.write(
                f"the AI won every game it could win in {explorer.games} games played\n"
            )
        return 1 if explorer.optional else 0
    for index, each in enumerate(main[1:], 2):
        _report_group(each, output.with_stem(f"{output.stem}-{index}"), args, streams)
    _report(main[0], output, args, streams)
    return 1


def _explore_by_rules(args: argparse.Namespace, streams: Streams) -> int:
    """``--reference stud-player``: a three-card stud player judged by the seed's rules."""
    from casino.clock import MonotonicClock
    from casino.explore.stud import explore_player, script

    if args.program is None or args.out is not None:
        raise UsageError("--reference stud-player explores a --program CMD ({host} {port} in it)")
    if args.replay is not None:
        return _replay_script(args, streams)
    command, games = shlex.split(args.program), min(args.sessions, args.budget_runs)
    founds, runs = explore_player(command, MonotonicClock(), args.seed, games, every=args.every)
    if not founds:
        streams.stdout.write(f"no breach in {runs} games\n")
        return 0
    output = Path(args.output or "explore-stud-player.txt")
    for index, each in enumerate(founds, 1):
        where = output if index == 1 else output.with_stem(f"{output.stem}-{each.played.rule}")
        write_atomic(where, script(each, args.seed))
        streams.stdout.write(
            f"game {each.number} breaks the rules ({each.played.rule}): {each.played.breach}\n"
            f"shrunk to {len(each.game.hands)} hand(s){'' if args.every else f' in {runs} runs'};"
            f" the dealer's script: {where}\n"
            f"replay it with: casino explore --reference stud-player --program"
            f" {shlex.quote(args.program)} --replay {shlex.quote(str(where))}\n"
        )
    if args.every:
        streams.stdout.write(f"{len(founds)} rule(s) broken; {runs} runs\n")
    return 1


def _replay_script(args: argparse.Namespace, streams: Streams) -> int:
    """``--replay SCRIPT``: the script's game dealt again to the player; 1 on a breach."""
    from casino.clock import MonotonicClock
    from casino.explore.stud import ScriptError, replay_script

    try:
        text = Path(args.replay).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--replay {args.replay}: cannot read it ({error})") from None
    try:
        played = replay_script(shlex.split(args.program), MonotonicClock(), text)
    except ScriptError as error:
        raise UsageError(f"--replay {args.replay}: {error}") from None
    if played.breach is None:
        streams.stdout.write(f"replayed {args.replay}: no breach\n")
        return 0
    streams.stdout.write(
        f"replayed {args.replay}: breaks the rules ({played.rule}): {played.breach}\n"
    )
    return 1


def _found(explorer: Explorer, args: argparse.Namespace) -> list[Found]:
    """Every difference ``--every`` asks for, or the first (and the optional parts'), shrunk."""
    if args.every:
        founds = explorer.explore(args.seed, args.sessions)
    else:
        found = explorer.find(args.seed, args.sessions)
        founds = ([found] if found is not None else []) + explorer.optional
    for each in founds:
        explorer.shrink(each)
    return founds


def _report_coverage(explorer: Explorer, by_module: bool, streams: Streams) -> None:
    """The reference coverage the guidance reached (stderr), module by module if asked."""
    if explorer.coverage is None or not explorer.coverage.arcs:
        return  # a reference outside this process (--grammar): nothing traced
    report = explorer.coverage.report()
    streams.error(f"casino explore: {report.summary()}")
    if by_module:
        for name, reached, total in report.files:
            streams.error(f"  {name}: {reached} of {total} lines")


def _recordings(args: argparse.Namespace, grammar: Grammar) -> Recordings | None:
    """The reference's recordings kept between runs; none with ``--no-cache``, for a
    course's own grammar (its reference is an outside command, of no version casino knows) or
    for one that does not say its recordings are the same in any process (``keeps_recordings``:
    Nimsys's and the demo's are; video poker's and five-card draw's build tables once a process)."""
    if args.no_cache or not getattr(grammar, "keeps_recordings", False):
        return None
    from casino.explore.recordings import Recordings, default_folder

    return Recordings.load(default_folder(), grammar.name + ("-choices" if args.choices else ""))


def _grammar(args: argparse.Namespace) -> Grammar:
    """The grammar ``--reference`` names, or the ``--grammar`` file's with ``--reference``
    as its external reference command."""
    if args.grammar is not None:
        from casino.explore.custom import load_grammar  # yaml and the pipe runner: only here

        if args.program is None or args.out is not None:
            raise UsageError("--grammar FILE explores a --program CMD (and writes no --out suite)")
        reference = _command(args.reference)
        assert reference is not None
        return load_grammar(Path(args.grammar), reference, _program_dir(None, reference))
    if args.reference not in ABOUT:
        known = ", ".join(ABOUT)
        raise UsageError(f"--reference {args.reference!r}: no such assignment (known: {known})")
    from casino.explore.grammars import grammar_of, with_choices

    grammar = grammar_of(args.reference)
    if args.choices:
        chosen = with_choices(grammar)
        if chosen is None:
            raise UsageError(f"--choices: explore knows no casino's choices of {args.reference}")
        grammar = chosen
    return grammar


def _report_group(found: Found, output: Path, args: argparse.Namespace, streams: Streams) -> None:
    """One line for a difference in another group (``--every``), its transcript written."""
    from casino.harness.dump import dump_transcript

    write_atomic(output, dump_transcript(found.transcript))
    streams.stdout.write(
        f"{found.group}: differs too ({_size(found)})\n"
        f"  casino replay{_program_words(args)} {shlex.quote(str(output))}\n"
    )


def _size(found: Found) -> str:
    """``session 43, 8 input lines``, or for a play ``play 2, 1 game (first: ai, …)``."""
    play = found.transcript.play
    if play is None:
        return f"session {found.number}, {found.lines} input lines"
    return f"play {found.number}, {_games(play.total)} ({play.describe()})"


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def _report_part(found: Found, output: Path, args: argparse.Namespace, streams: Streams) -> None:
    """One line for a difference in an optional part (a bonus not attempted), and its
    shrunk transcript written beside the main one."""
    from casino.harness.dump import dump_transcript

    assert found.part is not None
    write_atomic(output, dump_transcript(found.transcript))
    streams.stdout.write(
        f"{found.part.name}: not attempted, or not as the reference plays it (session"
        f" {found.number}, {found.lines} input lines); the rest was explored without it\n"
        f"  casino replay{_program_words(args)} {shlex.quote(str(output))}\n"
    )


def _report(found: Found, output: Path, args: argparse.Namespace, streams: Streams) -> None:
    """Write the shrunk transcript and show the difference, and how to replay it."""
    from casino.harness.dump import dump_transcript
    from casino.harness.report import render

    write_atomic(output, dump_transcript(found.transcript))
    streams.stdout.write(render(replace(found.result, path=str(output))))
    how = "shrunk" if found.shrunk else "partly shrunk"
    where = f" in {found.group}" if found.group else ""
    play = found.transcript.play
    if play is None:
        shrunk = f"session {found.number} differs{where}; {how} to {found.lines} input lines"
    else:
        shrunk = (
            f"play {found.number} fails{where}: the AI did not win every game it could win;"
            f" {how} to {_games(play.total)} ({play.describe()}, seed {found.transcript.seed})"
        )
    streams.stdout.write(
        f"{shrunk}"
        f" (found in {found.find_runs} runs, {found.find_seconds:.1f} s;"
        f" shrunk in {found.shrink_runs} runs, {found.shrink_seconds:.1f} s)\n"
        f"wrote {output}: replay it with\n"
        f"  casino replay{_program_words(args)} {shlex.quote(str(output))}\n"
    )


def _program_words(args: argparse.Namespace) -> str:
    if args.program is None:
        return ""
    words = f" --program {shlex.quote(args.program)}"
    if args.program_dir:
        words += f" --program-dir {shlex.quote(args.program_dir)}"
    return words


COMMANDS = {"explore": explore}
