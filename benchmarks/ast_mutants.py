"""Tool-made mutants of the Nimsys and video poker references: an AST mutator of casino's own.

Run: ``python benchmarks/ast_mutants.py [--count N] [--seed S] [--sessions N] [--search K]
[--unit] [--choices]``.

Each mutant is one change to one function or method of a reference module (stdlib
:mod:`ast`): a comparison swapped (``<``/``<=``, ``>``/``>=``, ``==``/``!=``), an int
constant moved by one, ``and``/``or`` swapped, a message's first letter's case changed, a
statement dropped from an ``if``/``else`` arm, an ``if`` test negated. The mutated module is
compiled (never executed) and the mutated function's code object swapped into the live
function only while the mutant runs, so that the reference, in the same process, stays
itself (as :mod:`mutants` does with its hand-written patches). Which mutants: every site of
every module in :data:`MODULES`, in source order, sampled by ``random.Random(seed)``.

A site in a function of :data:`NOT_THE_PROGRAM` (code the program never runs) is listed in
its own line, "not the program's code", and never run nor counted.

For each other mutant: killed by explore (seed 0, ``--sessions``)? by the shipped
transcripts? (Each asked of every assignment the program serves, :data:`PROJECTS`: Nimsys's
Projects C, B and A.) With ``--unit``, if explore missed it: by the reference's own unit tests
(:data:`UNIT_TESTS`, run by pytest in a subprocess that applies the same mutant first:
``--unit-run SITE``), first those of the seed's behaviour (``-m "not casino_choice"``), and
if they pass, those of casino's own choices (``-m casino_choice``: behaviour the seed leaves
open)? A full run costs 30-75 s a mutant here, so they are asked only where their verdict
can change explore's rate. With ``--choices``, if explore missed it: by ``casino explore
--choices`` (seed 0, ``--sessions``: casino's own choices explored and judged too, stderr and
exit status with them), the explore of a course that adopts casino's choices. Last, only of
the mutants none of these kills: by a longer random
search (explore with seeds 1..``--search``, the same sessions each; with seed 0, ``--search``
x ``--sessions`` + ``--sessions`` sessions)? Elsewhere the search cannot add to the mutants
anything kills, and a search is explore itself with more seeds, so the mutants explore kills
count as the search's. The mutants nothing kills are presumed equivalent and left out of the
rates. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import os
import random
import statistics
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

OPERATORS = ("compare", "int", "boolop", "string", "drop", "not")
"""The mutation operators, in the order a site's candidates are listed."""

MODULES = {
    "casino.nim.ranking": "nimsys",
    "casino.nim.players": "nimsys",
    "casino.nim.registry": "nimsys",
    "casino.nim.nim_game": "nimsys",
    "casino.nim.kayles": "nimsys",
    "casino.nim.shell": "nimsys",
    "casino.nim.storage": "nimsys",
    "casino.nim.ai": "nimsys",
    "casino.nim.strategy": "nimsys",
    "casino.nim.play": "nimsys",
    "casino.nim.cli": "nimsys",
    "casino.nim.stage_a": "nimsys-a",
    "casino.videopoker.commands": "videopoker",
    "casino.videopoker.game": "videopoker",
    "casino.videopoker.paytable": "videopoker",
}
"""Each mutated module and the explore grammar (``--reference``) of its program: every module
of ``casino/nim`` that the Nimsys program runs (``casino.nim.duel`` is casino's rival, a judge,
never the program; ``play`` and ``cli`` serve Projects A to C: see :data:`PROJECTS`)."""

PROJECTS = {"nimsys": ("nimsys", "nimsys-b", "nimsys-a")}
"""The assignments one program serves, each explored (and its shipped transcripts run) in
turn until one kills the mutant: the Nimsys program is Projects C, B and A (``--stage``), so a
mutant of code they share (``cli``'s choice of the project, ``shell``) is judged as a course
that grades all three would judge it. ``stage_a`` is Project A's alone."""

JUDGES = {
    "casino.nim.kayles": ("casino.nim.duel",),
    "casino.nim.strategy": ("casino.nim.duel",),
}
"""Modules of casino's *judging* code that import a mutated module's names and run while the
mutant does: the live rival of the shipped ``play:`` transcripts (:mod:`casino.harness.referee`)
picks its moves with ``casino.nim.duel``, which calls ``KaylesGame.legal_moves`` and the
advanced AI's ``strategy.grundy``. The reference program itself never calls the former, and
its AI (``strategy.kayles_move``) is what a strategy mutant breaks. (Explore's model also
imports these modules, but generates each session before any program runs.) While a mutant
runs, each judge module sees a fresh, unmutated copy of the mutated module
(:func:`judge_untouched`), so a mutant is killed only by what the *program* does, never by a
rival or referee that the mutation broke."""

NOT_THE_PROGRAM = {
    "casino.videopoker.paytable.parse_paytable": (
        "the analyzer's --paytable FILE (casino.videopoker.analyze); the program plays one fixed"
        " table"
    ),
    "casino.nim.kayles.KaylesGame.legal_moves": (
        "casino's rival (casino.nim.duel) and explore's model; the program's AI is"
        " strategy.kayles_move and a typed move goes through take/check"
    ),
}
"""Functions of the mutated modules (module and qualified name) that the program never calls,
each with the reason: their mutants are listed as "not the program's code", never run nor
counted. ``tests/explore/test_ast_mutants.py`` proves that none is called while the shipped
transcripts run. (``strategy._check_stones``, a defensive check of an argument the program
always passes right, *is* called: it is not listed.)"""

CHOICE = "casino_choice"
"""The pytest marker of the unit tests that pin a behaviour the seed leaves open."""

UNIT_TESTS = {"nimsys": "tests/nim", "nimsys-a": "tests/nim", "videopoker": "tests/videopoker"}
"""The unit test folder of each grammar's reference (``--unit``)."""

ROOT = Path(__file__).resolve().parents[1]

_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}


@dataclass(frozen=True)
class Site:
    """One mutation: in ``module``, the ``index``-th candidate of ``operator``."""

    module: str
    operator: str
    index: int
    function: str
    """The qualified name of the top-level function or method that holds it."""
    line: int
    change: str

    @property
    def name(self) -> str:
        """A stable name: module, operator, index."""
        return f"{self.module.rpartition('.')[2]}:{self.operator}:{self.index}"


def _is_docstring(parent: ast.AST, node: ast.AST) -> bool:
    """Whether ``node`` is a bare string statement (a docstring: never printed)."""
    return isinstance(parent, ast.Expr) and parent.value is node


def _message(node: ast.Constant) -> bool:
    text = node.value
    return isinstance(text, str) and " " in text and any(c.isalpha() for c in text)


def _candidates(tree: ast.AST, operator: str) -> Iterator[tuple[ast.AST, Callable[[], str]]]:
    """The nodes ``operator`` can change, in a deterministic walk, each with its change (a
    function that makes it in place and says what it did)."""
    for parent in ast.walk(tree):
        for node in ast.iter_child_nodes(parent):
            yield from _of_node(parent, node, operator)


def _of_node(
    parent: ast.AST, node: ast.AST, operator: str
) -> Iterator[tuple[ast.AST, Callable[[], str]]]:
    if operator == "compare" and isinstance(node, ast.Compare) and type(node.ops[0]) in _SWAPS:
        cmp = node

        def swap() -> str:
            old = type(cmp.ops[0])
            cmp.ops[0] = _SWAPS[old]()
            return f"{old.__name__} -> {_SWAPS[old].__name__}"

        yield node, swap
    elif operator == "int" and isinstance(node, ast.Constant) and type(node.value) is int:
        const = node
        for step in (1, -1):

            def move(step: int = step) -> str:
                old = const.value
                assert isinstance(old, int)
                const.value = old + step
                return f"{old} -> {old + step}"

            yield node, move
    elif operator == "boolop" and isinstance(node, ast.BoolOp):
        boolop = node

        def flip() -> str:
            boolop.op = ast.Or() if isinstance(boolop.op, ast.And) else ast.And()
            return f"-> {type(boolop.op).__name__.lower()}"

        yield node, flip
    elif operator == "string" and isinstance(node, ast.Constant) and _message(node):
        if not _is_docstring(parent, node):
            yield node, _recase(node)
    elif operator == "drop" and isinstance(node, ast.If):
        for arm in ("body", "orelse"):
            for position in range(len(getattr(node, arm))):
                yield node, _dropper(node, arm, position)
    elif operator == "not" and isinstance(node, ast.If):
        branch = node

        def negate() -> str:
            branch.test = ast.UnaryOp(op=ast.Not(), operand=branch.test)
            return "if X -> if not X"

        yield node, negate


def _recase(node: ast.Constant) -> Callable[[], str]:
    def change() -> str:
        text = str(node.value)
        at = next(i for i, c in enumerate(text) if c.isalpha())
        node.value = text[:at] + text[at].swapcase() + text[at + 1 :]
        return f"{text[:20]!r} -> {node.value[:20]!r}"

    return change


def _dropper(node: ast.If, arm: str, position: int) -> Callable[[], str]:
    def drop() -> str:
        statements: list[ast.stmt] = getattr(node, arm)
        gone = statements.pop(position)
        if not statements and arm == "body":
            statements.append(ast.Pass())
        return f"drop {arm} statement at line {gone.lineno}"

    return drop


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Each top-level function and method, by qualified name (not the class bodies)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield f"{node.name}.{item.name}", item


def _source(module: str) -> tuple[str, str]:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return spec.origin, Path(spec.origin).read_text(encoding="utf-8")


def _sites_in(tree: ast.Module, module: str) -> Iterator[tuple[Site, Callable[[], str]]]:
    """Every site of ``tree`` (outside ``while`` tests, which could loop forever)."""
    for operator in OPERATORS:
        index = 0
        for qualname, function in _functions(tree):
            loops = {
                id(n)
                for w in ast.walk(function)
                if isinstance(w, ast.While)
                for n in ast.walk(w.test)
            }
            for node, change in _candidates(function, operator):
                if id(node) in loops:
                    continue
                line = getattr(node, "lineno", 0)
                yield Site(module, operator, index, qualname, line, ""), change
                index += 1


def sites(module: str) -> list[Site]:
    """Every mutation site of ``module``, in a fixed order."""
    _, text = _source(module)
    return [site for site, _ in _sites_in(ast.parse(text), module)]


def mutated_tree(site: Site) -> tuple[ast.Module, str]:
    """The module's tree with ``site``'s one change made, and what the change was."""
    _, text = _source(site.module)
    tree = ast.parse(text)
    for candidate, change in _sites_in(tree, site.module):
        if (candidate.operator, candidate.index) == (site.operator, site.index):
            said = change()
            return ast.fix_missing_locations(tree), said
    raise LookupError(site.name)


def _code_named(code: types.CodeType, qualname: str) -> types.CodeType | None:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_qualname == qualname:
                return const
            found = _code_named(const, qualname)
            if found is not None:
                return found
    return None


def _live_function(module: types.ModuleType, qualname: str) -> types.FunctionType:
    target: Any = module
    for part in qualname.split("."):
        target = inspect_attr(target, part)
    for unwrap in ("fget", "__func__", "__wrapped__"):
        target = getattr(target, unwrap, target)
    assert isinstance(target, types.FunctionType), qualname
    return target


def inspect_attr(owner: Any, name: str) -> Any:
    """``owner``'s own attribute ``name`` (a class's raw descriptor, not what it binds)."""
    return owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)


@dataclass(frozen=True)
class AstMutant:
    """A site made into a runnable change: the live function and its mutated code."""

    site: Site
    change: str
    function: types.FunctionType
    code: types.CodeType

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        """The mutated code in place while the block runs (casino's judges untouched)."""
        original = self.function.__code__
        with judge_untouched(self.site.module):
            self.function.__code__ = self.code
            try:
                yield
            finally:
                self.function.__code__ = original


@contextlib.contextmanager
def judge_untouched(module: str) -> Iterator[None]:
    """While the block runs, every module of :data:`JUDGES` ``[module]`` uses a fresh copy of
    ``module`` (loaded anew from its source) for each name it imported from it."""
    judges = JUDGES.get(module, ())
    if not judges:
        yield
        return
    live = importlib.import_module(module)
    fresh = _fresh(module)
    with contextlib.ExitStack() as stack:
        for judge in judges:
            held = importlib.import_module(judge)
            for name, value in list(vars(held).items()):
                if getattr(live, name, None) is value and hasattr(fresh, name):
                    stack.enter_context(mock.patch.object(held, name, getattr(fresh, name)))
        yield


@functools.cache
def _fresh(module: str) -> types.ModuleType:
    """A copy of ``module`` loaded anew from its source (once: nothing ever mutates it)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    return fresh


def make(site: Site) -> AstMutant | None:
    """``site`` compiled into a mutant (``None``: its code cannot replace the live one)."""
    tree, change = mutated_tree(site)
    origin, _ = _source(site.module)
    code = _code_named(compile(tree, origin, "exec"), site.function)
    function = _live_function(importlib.import_module(site.module), site.function)
    if code is None or code.co_freevars != function.__code__.co_freevars:
        return None
    return AstMutant(site, change, function, code)


def sample(count: int, seed: int) -> list[Site]:
    """``count`` sites of the modules of :data:`MODULES`, as many of each operator
    (``count // len(OPERATORS)``), chosen by ``seed``."""
    every = [site for module in MODULES for site in sites(module)]
    chooser, chosen = random.Random(seed), []
    for operator in OPERATORS:
        of = [site for site in every if site.operator == operator]
        chosen += chooser.sample(of, min(len(of), count // len(OPERATORS)))
    return sorted(chosen, key=lambda s: s.name)


def site_named(name: str) -> Site:
    """The site whose :attr:`Site.name` is ``name`` (``LookupError`` if none)."""
    for module in MODULES:
        if module.rpartition(".")[2] == name.partition(":")[0]:
            for site in sites(module):
                if site.name == name:
                    return site
    raise LookupError(name)


def not_the_program(site: Site) -> str | None:
    """Why ``site``'s function is not the program's code (``None``: it is)."""
    return NOT_THE_PROGRAM.get(f"{site.module}.{site.function}")


def unit_kills(site: Site, tests: str | None = None, marks: str = "") -> bool:
    """Whether the reference's own unit tests (``tests``: by default its folder of
    :data:`UNIT_TESTS`; ``marks``: a pytest ``-m`` expression, none by default) fail with
    ``site``'s mutant applied: pytest in a subprocess (``--unit-run``), stopping at the
    first failure. Tests that start the program as a separate process run the unmutated code
    there, so they cannot kill it."""
    folder = UNIT_TESTS[MODULES[site.module]] if tests is None else tests
    script = str(Path(__file__).resolve())
    command = [sys.executable, script, "--unit-run", site.name, folder, "--marks", marks]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode == 5:  # no test of those marks there
        return False
    if done.returncode not in (0, 1, 2):  # 2: a test module failed to load (a kill too)
        raise RuntimeError(f"{site.name}: pytest exited {done.returncode}: {done.stdout[-300:]}")
    return done.returncode != 0


def unit_verdict(site: Site) -> str:
    """Which unit tests kill ``site``'s mutant: ``"seed"`` (a test of the seed's behaviour),
    ``"choice"`` (only tests of casino's choices, :data:`CHOICE`) or ``"none"``."""
    if unit_kills(site, marks=f"not {CHOICE}"):
        return "seed"
    return "choice" if unit_kills(site, marks=CHOICE) else "none"


def unit_run(name: str, folder: str, marks: str = "") -> int:
    """pytest's exit status on ``folder`` (the tests of ``marks``, if any) with the mutant of
    site ``name`` in place."""
    import pytest

    made = make(site_named(name))
    if made is None:
        return 3
    chosen = ["-m", marks] if marks else []
    with made.applied():
        return int(pytest.main(["-q", "-x", "-p", "no:cacheprovider", *chosen, folder]))


def as_mutant(mutant: AstMutant) -> Any:
    """The AST mutant as a :class:`mutants.Mutant` (what bench_explore runs)."""
    from mutants import Mutant

    def patch(stack: contextlib.ExitStack) -> None:
        stack.enter_context(mutant.applied())

    return Mutant(mutant.site.name, MODULES[mutant.site.module], mutant.change, patch)


def _projects(mutant: Any) -> list[Any]:
    """The mutant as each assignment its program serves (:data:`PROJECTS`): its own first."""
    return [
        dataclasses.replace(mutant, reference=each)
        for each in PROJECTS.get(mutant.reference, (mutant.reference,))
    ]


def _explored(mutant: Any, sessions: int, choices: bool = False) -> Any:
    """What explore (seed 0) finds, shrunk, as the first of the program's assignments that
    finds anything (``None``: none does); ``choices``: as ``explore --choices`` (Project C
    and video poker only: the others have no choices to explore)."""
    from bench_explore import explore, in_process

    from casino.explore.grammars import grammar_of, with_choices

    for each in _projects(mutant):
        if choices and with_choices(grammar_of(each.reference)) is None:
            continue
        found = explore(each, in_process(each), sessions, choices=choices)
        if found is not None:
            return found
    return None


def _killed_by_search(mutant: Any, sessions: int, seeds: int) -> bool:
    """Whether explore with seeds 1..``seeds`` finds the mutant, as any of the assignments its
    program serves (:data:`PROJECTS`)."""
    from bench_explore import in_process

    from casino.explore.engine import Budget, Explorer
    from casino.explore.grammars import grammar_of

    for each in _projects(mutant):
        grammar = grammar_of(each.reference)
        for seed in range(1, seeds + 1):
            explorer = Explorer(grammar, in_process(each), Budget(runs=20_000))
            if explorer.find(seed, sessions) is not None or explorer.optional:
                return True
    return False


@dataclass(frozen=True)
class Row:
    """One mutant's verdicts. ``search``: ``None`` when not asked (something else killed it);
    ``unit``: which unit tests kill it (:func:`unit_verdict`), ``None`` when not asked."""

    shipped: bool
    explore: bool
    search: bool | None
    lines: int | None
    unit: str | None = None
    choices: bool | None = None
    """Whether ``explore --choices`` kills it (``None``: not asked, explore killed it or
    ``--choices`` was not given)."""

    @property
    def killed(self) -> bool:
        """Whether anything asked kills it."""
        return self.seen or self.unit == "choice" or bool(self.choices)

    @property
    def seen(self) -> bool:
        """Whether the transcripts, explore, the search or a test of the seed's behaviour kill
        it (anything but a test of casino's own choices)."""
        return self.shipped or self.explore or bool(self.search) or self.unit == "seed"


def _search_said(row: Row) -> str:
    return {None: "-", True: "y", False: "n"}[row.search]


def study(
    count: int, seed: int, sessions: int, seeds: int, unit: bool = False, choices: bool = False
) -> None:
    """The table and the rates under it."""
    from bench_explore import shipped_kills
    from machine import describe

    print(describe())
    print(
        f"load average: {os.getloadavg()[0]:.2f}; {count} mutants, seed {seed};"
        f" explore {sessions} sessions, search seeds 1..{seeds} ({sessions * seeds} more,"
        " only where nothing else kills)"
    )
    rows: list[Row] = []
    elsewhere = 0
    for site in sample(count, seed):
        reason = not_the_program(site)
        if reason is not None:
            elsewhere += 1
            print(f"{site.name:<24} {site.function:<32} not the program's code: {reason}")
            continue
        made = make(site)
        if made is None:
            print(f"{site.name:<24} (its code cannot be swapped in)")
            continue
        mutant = as_mutant(made)
        try:
            found = _explored(mutant, sessions)
            shipped = any(shipped_kills(each) for each in _projects(mutant))
        except RecursionError:
            found, shipped = None, True
        verdict = unit_verdict(site) if unit and found is None else None
        chosen = None
        if choices and found is None:
            chosen = _explored(mutant, sessions, choices=True)
        search: bool | None = None
        if found is not None:
            search = True
        elif not shipped and verdict in (None, "none") and chosen is None:
            search = _killed_by_search(mutant, sessions, seeds)
        lines = None if found is None or found.played else found.lines  # a play has no lines
        asked = None if not choices or found is not None else chosen is not None
        row = Row(shipped, found is not None, search, lines, verdict, asked)
        rows.append(row)
        said = f" unit {verdict or '-'}" if unit else ""
        if choices:
            said += f" choices {_explore_said(chosen) if found is None else '-'}"
        print(
            f"{site.name:<24} {site.function:<32} {made.change[:36]:<36} shipped"
            f" {'y' if shipped else 'n'} explore {_explore_said(found)}"
            f" search {_search_said(row)}{said}",
            flush=True,
        )
    if elsewhere:
        print(f"\nnot the program's code (not run, not counted): {elsewhere}")
    _rates(rows)


def _rates(rows: list[Row]) -> None:
    killed = [r for r in rows if r.killed]
    print(
        f"\nmutants run: {len(rows)}; killed by anything: {len(killed)};"
        f" presumed equivalent: {len(rows) - len(killed)}"
    )
    if not killed:
        return
    columns: list[tuple[str, Callable[[Row], bool]]] = [
        ("explore (seed 0)", lambda r: r.explore),
        ("the shipped transcripts", lambda r: r.shipped),
    ]
    if any(r.unit is not None for r in rows):
        asked = sum(1 for r in killed if r.unit is not None)
        print(f"(the unit tests asked of the {asked} killed mutants that explore missed)")
        columns.append(("unit tests of the seed's", lambda r: r.unit == "seed"))
        columns.append(("only casino's choice tests", lambda r: r.unit == "choice"))
    for what, column in columns:
        hits = sum(1 for r in killed if column(r))
        print(f"killed by {what + ':':<26} {hits} ({100 * hits / len(killed):.0f} %)")
    if any(r.choices is not None for r in rows):
        hits = sum(1 for r in killed if r.explore or r.choices)
        print(
            f"killed by explore --choices (seed 0): {hits} ({100 * hits / len(killed):.0f} %)"
            " (explore's kills and those --choices adds)"
        )
    seen = [r for r in killed if r.seen]
    if any(r.unit is not None for r in rows) and seen:
        hits = sum(1 for r in seen if r.explore)
        print(
            f"explore, casino's choices left out: {hits} of {len(seen)}"
            f" ({100 * hits / len(seen):.0f} %)"
        )
    lines = [r.lines for r in killed if r.lines is not None]
    if lines:
        print(f"median shrunk session: {statistics.median(lines)} input lines")


def _explore_said(found: Any) -> str:
    """``-`` (not killed), ``play`` (killed by a play of the AI), else the shrunk lines."""
    if found is None:
        return "-"
    return "play" if found.played else str(found.lines)


def main() -> None:
    """Parse the options and run the study."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--search", type=int, default=3, help="more explore seeds for the search")
    parser.add_argument(
        "--unit", action="store_true", help="ask the reference's unit tests where explore missed"
    )
    parser.add_argument(
        "--choices", action="store_true", help="ask explore --choices where explore missed"
    )
    parser.add_argument("--unit-run", nargs=2, metavar=("SITE", "FOLDER"), help=argparse.SUPPRESS)
    parser.add_argument("--marks", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.unit_run:
        name, folder = args.unit_run
        raise SystemExit(unit_run(name, folder, args.marks))
    study(args.count, args.seed, args.sessions, args.search, args.unit, args.choices)


if __name__ == "__main__":
    main()
