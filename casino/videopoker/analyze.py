"""``casino videopoker analyze``: the exact return of a pay table, or the best holds of a hand.

::

    casino videopoker analyze [--paytable NAME|FILE] [--strategy optimal|seed] [--bet N]
                              [--hand CARDS] [--jobs N] [--seed N]

Without ``--hand`` it plays every deal (see :mod:`casino.videopoker.analyzer`) and prints the
return as a fraction and a percentage, then each final hand's count (out of
19,933,230,517,200 in the usual weighting), probability and contribution to the return.
``--strategy seed`` plays the seed's 34-line strategy instead, and says what it costs
against optimal play. ``--hand "AC KC QC JC 2C"`` lists the 32 holds of one hand with their
exact expected return, best first; with ``--strategy seed`` the seed's hold is marked in the
list (``<- seed``, with its rule) and a last line says what it costs against the best hold.
``--seed`` is accepted like every casino program's; the analysis has no chance in it.

The analysis takes seconds: while it works, a progress line on stderr says how far it is
(only when stderr is a terminal; it is erased at the end).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from casino.cards import Card, format_cards, parse_cards
from casino.cmdline import ArgumentParser, Invocation, UsageError, run_program, whole_number
from casino.errors import CasinoError, ParseError
from casino.shell import Streams
from casino.videopoker.analyzer import Analysis, HoldValue, analyze, hold_values
from casino.videopoker.paytable import (
    MAX_BET,
    PAYTABLE_FORMAT,
    PAYTABLES,
    PayTable,
    parse_paytable,
)
from casino.videopoker.progress import Progress, StatusLine
from casino.videopoker.simtable import class_holds
from casino.videopoker.strategy import advise, seed_hold

PROGRAM = "casino videopoker analyze"
DEFAULT_JOBS = min(2, os.cpu_count() or 1)


def _parser(out: TextIO, prog: str = PROGRAM) -> ArgumentParser:
    parser = ArgumentParser(
        out=out,
        prog=prog,
        description="Exact video poker analysis: the return of a pay table under\n"
        "optimal play (or the seed's strategy), or the best holds of one hand.",
        epilog=PAYTABLE_FORMAT,
    )
    parser.add_argument(
        "--paytable",
        default="double-bonus-10-7",
        metavar="NAME|FILE",
        help=f"a built-in table ({', '.join(PAYTABLES)}) or a pay table file "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--strategy",
        choices=("optimal", "seed"),
        default="optimal",
        help="the play analyzed: optimal (default) or the seed's 34-line list; "
        "with --hand, seed marks the seed's hold among the 32",
    )
    parser.add_argument(
        "--bet",
        type=whole_number(),
        default=MAX_BET,
        metavar="N",
        help="credits bet, 1-5 (default: 5)",
    )
    parser.add_argument("--hand", metavar="CARDS", help='advise one hand: "AC KC QC JC 2C"')
    parser.add_argument(
        "--jobs",
        type=whole_number(),
        default=DEFAULT_JOBS,
        metavar="N",
        help="processes to use (default: %(default)s)",
    )
    parser.add_seed_option("accepted; nothing is random")
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``casino videopoker analyze`` with ``argv``; the exit status (any problem with the
    arguments or the pay table file is a usage error, 2)."""
    return run_program(PROGRAM, _run, argv, stdin=stdin, stdout=stdout, stderr=stderr)


def _run(invocation: Invocation) -> int:
    args = _parser(invocation.streams.stdout, invocation.prog).parse_args(invocation.argv)
    try:
        _answer(args, invocation.streams)
    except CasinoError as error:
        raise UsageError(str(error)) from None
    return 0


def _answer(args: argparse.Namespace, streams: Streams) -> None:
    table = _paytable(args.paytable)
    if not 1 <= args.bet <= MAX_BET:
        raise ParseError(f"--bet must be 1 to {MAX_BET}, not {args.bet}")
    if args.jobs < 1:
        raise ParseError(f"--jobs must be at least 1, not {args.jobs}")
    with StatusLine(streams.stderr) as status:  # erased at the end, also on Ctrl-C
        if args.hand is not None:
            text = _hand_report(args, table, _hand(args.hand), status)
        else:
            text = _game_report(args, table, status)
    streams.stdout.write(text)


def _hand_report(
    args: argparse.Namespace, table: PayTable, hand: list[Card], status: StatusLine
) -> str:
    """The 32 holds of ``hand`` (the seed's marked under ``--strategy seed``)."""
    status.show("analyzing the hand: its 32 holds")
    values = hold_values(hand, table, args.bet)
    return render_holds(hand, values, table, args.bet, mark_seed=args.strategy == "seed")


def _game_report(args: argparse.Namespace, table: PayTable, status: StatusLine) -> str:
    """The return of every deal's play: optimal, or the seed's against optimal."""
    optimal = analyze(
        table, args.bet, jobs=args.jobs, progress=_meter(status, "analyzing optimal play")
    )
    if args.strategy == "optimal":
        return render_analysis(optimal)
    holds = class_holds(_meter(status, "working out the seed's holds (once)"))
    seed = analyze(
        table,
        args.bet,
        chooser=seed_hold,
        strategy="seed",
        holds=holds,
        jobs=args.jobs,
        progress=_meter(status, "analyzing the seed's strategy"),
    )
    return render_analysis(seed, optimal)


def _meter(status: StatusLine, label: str) -> Progress | None:
    return status.meter(label) if status.active else None


def _paytable(name: str) -> PayTable:
    """A built-in pay table by name, or one read from a file."""
    if name in PAYTABLES:
        return PAYTABLES[name]
    path = Path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ParseError(
            f"no pay table {name!r}: not one of {', '.join(PAYTABLES)}, nor a file"
        ) from None
    except UnicodeDecodeError:
        raise ParseError(f"cannot read pay table file {name}: not a UTF-8 text file") from None
    except OSError as error:
        raise ParseError(f"cannot read pay table file {name}: {error.strerror}") from None
    try:
        return parse_paytable(text, path.stem)
    except ParseError as error:
        raise ParseError(f"{name}: {error}") from None


def _hand(text: str) -> list[Card]:
    hand = parse_cards(text)
    if len(hand) != 5 or len(set(hand)) != 5:
        raise ParseError(f"--hand needs 5 distinct cards, not {text!r}")
    return hand


# --- rendering ------------------------------------------------------------------------------


def decimal(value: Fraction, places: int) -> str:
    """``value`` in decimal, rounded half to even at ``places`` digits (exact, no floats)."""
    scaled = round(value * 10**places)
    sign, digits = ("-" if scaled < 0 else ""), str(abs(scaled)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def render_analysis(analysis: Analysis, optimal: Analysis | None = None) -> str:
    """The return and the final-hand table of ``analysis`` (and its cost against ``optimal``)."""
    rate = analysis.return_rate
    total = analysis.total
    out = [
        f"pay table {analysis.table.name}, {analysis.bet} credits bet, "
        f"{analysis.strategy} strategy",
        f"return {rate.numerator}/{rate.denominator} = {decimal(rate * 100, 10)}%",
        "",
        f"{'final hand':<16}{'pays':>6}{'count':>20}{'probability':>15}{'return':>15}",
    ]
    for line in analysis.lines:
        count = analysis.counts[line]
        share = Fraction(analysis.returned(line), total * analysis.bet)
        out.append(
            f"{line.value:<16}{analysis.table.payout(line, analysis.bet):>6}{count:>20,}"
            f"{decimal(Fraction(count, total), 10):>15}{decimal(share, 10):>15}"
        )
    out.append(
        f"{'total':<16}{'':>6}{total:>20,}{decimal(Fraction(1), 10):>15}{decimal(rate, 10):>15}"
    )
    if optimal is not None:
        best = optimal.return_rate
        out += [
            "",
            f"optimal strategy: return {best.numerator}/{best.denominator} = "
            f"{decimal(best * 100, 10)}%",
            f"the {analysis.strategy} strategy costs {decimal((best - rate) * 100, 10)}% of every "
            "credit bet",
        ]
    return "\n".join(out) + "\n"


def render_holds(
    hand: Sequence[Card],
    values: Sequence[HoldValue],
    table: PayTable,
    bet: int,
    *,
    mark_seed: bool = False,
) -> str:
    """The 32 holds of ``hand``, best first, with their exact expected return in credits.

    With ``mark_seed``, the seed strategy's hold is marked ``<- seed`` with its rule, and a
    last line says what it costs against the best hold.
    """
    out = [
        f"hand {format_cards(list(hand))}, pay table {table.name}, {bet} credits bet",
        f"{'#':>2}  {'hold':<16}{'expected return':>17}  exact",
    ]
    advice = advise(hand) if mark_seed else None
    for number, value in enumerate(values, 1):
        shown = " ".join(str(card) if p in value.positions else "--" for p, card in enumerate(hand))
        row = f"{number:>2}  {shown:<16}{decimal(value.ev, 10):>17}  {value.ev}"
        if advice is not None and value.positions == advice.held:
            row += f"  <- seed: {advice.rule}"
        out.append(row)
    if advice is not None:
        number, seed = next((n, v) for n, v in enumerate(values, 1) if v.positions == advice.held)
        cost = decimal(values[0].ev - seed.ev, 10)
        out.append(f"the seed strategy holds #{number}: {cost} credits below #1")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
