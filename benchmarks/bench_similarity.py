"""What ``casino grade --similarity`` costs for a course: fingerprinting and comparing every pair.

    python benchmarks/bench_similarity.py [--submissions 100] [--methods 12]

Makes N submissions of one Java file each, the size of a Nimsys project (``--methods`` methods
of about 12 lines, plus a starter file every student kept): every fifth a renamed copy of the
one before it, the others written independently (random arithmetic, names and order). Prints
the CPU time to fingerprint, to compare the N(N-1)/2 pairs, pairs per second, the copies found
at the top of the list, and what a course of 300 would take at that pace. The independent
programs come from one small grammar, so they look more alike to the comparison than students'
programs do (the most similar of them is printed too). Figures only: it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from machine import describe

from casino.grade.similarity import rank

STARTER = """\
import java.util.Scanner;

public class Starter {
    private final Scanner scanner = new Scanner(System.in);

    public String nextCommand() {
        System.out.print("$");
        if (!scanner.hasNextLine()) {
            return "exit";
        }
        return scanner.nextLine().trim();
    }
}
"""


def method(rng: random.Random, number: int) -> str:
    """One method of random arithmetic and loops, about 12 lines."""
    names = [f"{rng.choice('abcdefgh')}{rng.choice('xyzuvw')}{number}" for _ in range(3)]
    lines = [f"    static int {rng.choice(['calc', 'step', 'move', 'rank'])}{number}(int n) {{"]
    lines.append(f"        int {names[0]} = {rng.randint(1, 99)};")
    for _ in range(rng.randint(3, 6)):
        op = rng.choice(["+", "-", "*", "%"])
        a, b = rng.sample([names[0], "n"], 2)
        if rng.random() < 0.4:
            lines.append(f"        for (int i = 0; i < {a}; i++) {{ {names[0]} {op}= i; }}")
        elif rng.random() < 0.5:
            lines.append(f"        if ({a} > {rng.randint(0, 50)}) {{ {names[0]} = {b} {op} 3; }}")
        else:
            lines.append(f"        {names[0]} = {a} {op} {b} + {rng.randint(0, 9)};")
    lines += [f"        return {names[0]};", "    }"]
    return "\n".join(lines)


def program(rng: random.Random, methods: int) -> str:
    """A student's own program."""
    body = [method(rng, n) for n in range(methods)]
    rng.shuffle(body)
    return "public class Nimsys {\n" + "\n\n".join(body) + "\n}\n"


def renamed(text: str, rng: random.Random) -> str:
    """A copy with every method renamed."""
    for word in ("calc", "step", "move", "rank"):
        text = text.replace(word, rng.choice(["compute", "doIt", "work", "go"]) + word[:1])
    return text.replace("Nimsys", "Game")


def make(folder: Path, count: int, methods: int) -> list[tuple[str, Path]]:
    """``count`` submissions under ``folder``; their names and folders."""
    rng = random.Random(7)
    students, previous = [], ""
    for number in range(count):
        text = renamed(previous, rng) if number % 5 == 4 else program(rng, methods)
        previous = text
        student = folder / f"s{number:03d}"
        student.mkdir(parents=True)
        (student / "Nimsys.java").write_text(text)
        (student / "Starter.java").write_text(STARTER)
        students.append((student.name, student))
    (folder / "template").mkdir()
    (folder / "template" / "Starter.java").write_text(STARTER)
    return students


def main() -> None:
    """Run it and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=100)
    parser.add_argument("--methods", type=int, default=12)
    args = parser.parse_args()
    print(describe())
    with tempfile.TemporaryDirectory() as scratch:
        students = make(Path(scratch), args.submissions, args.methods)
        import copydetect.detector  # noqa: F401  (its import is not the comparison's cost)

        cpu, wall = time.process_time(), time.perf_counter()
        pairs, _ = rank(students, Path(scratch) / "template")
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    count = args.submissions * (args.submissions - 1) // 2
    copies = args.submissions // 5
    top = pairs[:copies]
    found = sum(int(p.left[1:]) + 1 == int(p.right[1:]) and int(p.right[1:]) % 5 == 4 for p in top)
    per_pair = cpu / count
    print(f"{args.submissions} submissions, {count} pairs: {cpu:.1f} s CPU ({wall:.1f} s wall)")
    print(f"  {count / cpu:,.0f} pairs per CPU second; {len(pairs)} pairs share any code")
    print(f"  the {copies} renamed copies: {found} of them are the top {copies} pairs")
    if len(pairs) > copies:
        rest = pairs[copies]
        print(
            f"  the most similar pair after them: {rest.similarity:.0%} ({rest.left}, {rest.right})"
        )
    print(f"  a course of 300 (44,850 pairs) at this pace: {44_850 * per_pair:.0f} s CPU")


if __name__ == "__main__":
    main()
