"""Behaviour credit: a run's facts aligned with the expected ones, each difference its own cost.

The expected facts of a whole run (:class:`Expected`, each with its weight and the step that
holds it) and the facts the program printed are aligned as two sequences: a longest common
subsequence (:func:`common_pairs`), exact, computed bit-parallel so that a long run stays cheap
(rows of the dynamic programme are integers, one bit per fact of the program; past
:data:`ROW_BITS` bits of table the alignment is split Hirschberg's way, still exact, in memory
bounded by the output). Between two facts that match, a *gap* holds ``n`` expected facts the
program did not print and ``m`` facts it printed instead: ``min(n, m)`` of them are wrong facts
(the expected fact's weight lost), the other expected ones missing (their weight lost), and the
``m - n`` printed beyond them extra (each costs one behaviour fact's share, so printing
everything does not score). So one missing, extra or wrong fact costs its own share, and
nothing after it: the facts after it still match (:func:`credit`).

The rule and why: ``docs/transcripts.md``, "Behaviour credit".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

ROW_BITS = 1 << 25
"""The bits of alignment table kept at once (4 MiB); a larger alignment is split in two at the
point where the two halves' best alignments meet (Hirschberg), each half aligned alike."""
CONTEXT = 3
"""Facts shown on each side of the first difference in the feedback."""
SHOWN = 6
"""Differing facts shown at most, on each side, in the feedback."""


@dataclass(frozen=True)
class Expected:
    """One fact the run should print: its canonical text, what it is worth (0: the program
    prints it whatever its input, :func:`casino.harness.judging.free_facts`) and the step
    holding it (``step 3 (out)``)."""

    text: str
    weight: float
    label: str


@dataclass(frozen=True)
class Behaviour:
    """How a run that is not exact did on its facts (:func:`credit`)."""

    format_share: float
    """The part of the run's points that needs the exact text (the rubric's)."""
    facts: int
    """The facts of the expected output that carry behaviour points (those the input
    decides; an ``out_re`` counts the facts its match holds, or one when not found)."""
    right: int
    """Of those, the ones the program printed, in their place in the sequence."""
    extra: int = 0
    """Facts the program printed beyond every expected one (each costs one fact's share)."""
    wrong: str | None = None
    """The first difference in words, with its neighbours (``step 3 (out): expected …
    player is betting [5] player's hand …, got … player is betting [nothing] player's hand
    …``)."""
    weight: float = 0.0
    """The expected facts' weight in all (``facts`` when every fact weighs 1)."""
    weight_right: float = 0.0
    """The weight of the facts right."""

    @property
    def kept(self) -> float:
        """The share of the behaviour points kept (0 to 1): the weight right, less one fact's
        share per extra fact, over the weight in all."""
        if self.weight <= 0:
            return 0.0
        unit = self.weight / self.facts if self.facts else 0.0
        return max(0.0, min(1.0, (self.weight_right - self.extra * unit) / self.weight))

    @property
    def credit(self) -> float:
        """The share of the run's points kept."""
        return (1 - self.format_share) * self.kept

    @property
    def perfect(self) -> bool:
        """Every fact right and none extra."""
        return self.right == self.facts and not self.extra and self.wrong is None


def common_pairs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)`` of a longest common subsequence of ``a`` and ``b``, in order
    (exact; time about ``len(a) * len(b) / 64`` machine words, memory :data:`ROW_BITS`)."""
    pairs: list[tuple[int, int]] = []
    codes: dict[str, int] = {}
    left = [codes.setdefault(x, len(codes)) for x in a]
    right = [codes.setdefault(x, len(codes)) for x in b]
    _pairs(left, right, 0, 0, pairs)
    pairs.sort()
    return pairs


def _pairs(a: list[int], b: list[int], i0: int, j0: int, out: list[tuple[int, int]]) -> None:
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        out.append((i0 + start, j0 + start))
        start += 1
    a, b = a[start:], b[start:]  # (no common end taken off: matches go as early as they can)
    i0, j0 = i0 + start, j0 + start
    if not a or not b:
        return
    if len(a) * len(b) <= ROW_BITS or len(a) == 1:
        _traced(a, b, i0, j0, out)
        return
    middle = len(a) // 2
    ahead = _ones(_last_row(a[:middle], b), len(b))
    behind = _ones(_last_row(a[middle:][::-1], b[::-1]), len(b))
    m = len(b)
    split = max(range(m + 1), key=lambda j: (j - ahead[j]) + (m - j - behind[m - j]))
    _pairs(a[:middle], b[:split], i0, j0, out)
    _pairs(a[middle:], b[split:], i0 + middle, j0 + split, out)


def _masks(b: list[int]) -> dict[int, int]:
    masks: dict[int, int] = {}
    for j, x in enumerate(b):
        masks[x] = masks.get(x, 0) | (1 << j)
    return masks


def _rows(a: list[int], b: list[int]) -> list[int]:
    """The rows of the LCS table, bit-parallel (Allison and Dix; Hyyrö): in row ``i``, bit
    ``j`` is 0 where the LCS of ``a[:i]`` and ``b[:j + 1]`` is one longer than of
    ``a[:i]`` and ``b[:j]``."""
    masks = _masks(b)
    full = (1 << len(b)) - 1
    row = full
    rows = [row]
    for x in a:
        hits = row & masks.get(x, 0)
        row = ((row + hits) | (row - hits)) & full
        rows.append(row)
    return rows


def _last_row(a: list[int], b: list[int]) -> int:
    masks = _masks(b)
    full = (1 << len(b)) - 1
    row = full
    for x in a:
        hits = row & masks.get(x, 0)
        row = ((row + hits) | (row - hits)) & full
    return row


def _ones(row: int, width: int) -> list[int]:
    """``ones[j]``: the 1 bits among the ``j`` lowest of ``row``."""
    bits = format(row, f"0{width}b")[::-1] if width else ""
    return [0, *accumulate(bit == "1" for bit in bits)]


def _traced(a: list[int], b: list[int], i0: int, j0: int, out: list[tuple[int, int]]) -> None:
    rows = _rows(a, b)

    def length(i: int, j: int) -> int:
        return j - (rows[i] & ((1 << j) - 1)).bit_count()

    i, j = len(a), len(b)
    here = length(i, j)
    while i > 0 and j > 0 and here > 0:  # each match as early in ``b`` as it can be
        if length(i, j - 1) == here:
            j -= 1
        elif length(i - 1, j) == here:
            i -= 1
        else:
            i, j, here = i - 1, j - 1, here - 1
            out.append((i0 + i, j0 + j))


@dataclass(frozen=True)
class Gap:
    """Expected facts ``[i, i_end)`` not printed, facts ``[j, j_end)`` printed instead."""

    i: int
    i_end: int
    j: int
    j_end: int


def gaps(pairs: list[tuple[int, int]], n: int, m: int) -> list[Gap]:
    """The gaps between the matched ``pairs`` of an ``n``- and an ``m``-long sequence."""
    found = []
    i = j = 0
    for pi, pj in [*pairs, (n, m)]:
        if pi > i or pj > j:
            found.append(Gap(i, pi, j, pj))
        i, j = pi + 1, pj + 1
    return found


def credit(
    expected: Sequence[Expected], printed: Sequence[str], format_share: float, bonus: int = 0
) -> Behaviour:
    """The behaviour of ``printed`` against ``expected`` (``bonus``: facts right found by an
    ``out_re``, weighing 1 each, counted in and right)."""
    pairs = common_pairs([fact.text for fact in expected], printed)
    weighted = sum(1 for fact in expected if fact.weight > 0)
    right = sum(1 for i, _ in pairs if expected[i].weight > 0) + bonus
    weight = sum(fact.weight for fact in expected) + bonus
    weight_right = sum(expected[i].weight for i, _ in pairs) + bonus
    holes = gaps(pairs, len(expected), len(printed))
    extra = sum(max(0, (g.j_end - g.j) - (g.i_end - g.i)) for g in holes)
    first = next((g for g in holes if _costs(g, expected)), None)
    wrong = None if first is None else _shown(first, expected, printed)
    return Behaviour(
        format_share, weighted + bonus, right, extra, wrong, float(weight), float(weight_right)
    )


def _costs(gap: Gap, expected: Sequence[Expected]) -> bool:
    lost = any(fact.weight > 0 for fact in expected[gap.i : gap.i_end])
    return lost or gap.j_end - gap.j > gap.i_end - gap.i


def _shown(gap: Gap, expected: Sequence[Expected], printed: Sequence[str]) -> str:
    """The gap in words, its neighbours around it (the same on both sides: they matched)."""
    texts = [fact.text for fact in expected]
    before = _facts(texts, max(0, gap.i - CONTEXT), gap.i, ellipsis_before=gap.i > CONTEXT)
    after = _facts(
        texts, gap.i_end, gap.i_end + CONTEXT, ellipsis_after=gap.i_end + CONTEXT < len(texts)
    )
    wanted = _middle(texts[gap.i : gap.i_end])
    got = _middle(list(printed[gap.j : gap.j_end]))
    if gap.i < len(expected):
        label = expected[gap.i].label
    elif gap.i_end < len(expected):
        label = expected[gap.i_end].label
    else:
        label = "at the end"
    around = " ".join(part for part in (before, "{}", after) if part)
    return f"{label}: expected {around.format(wanted)}, got {around.format(got)}"


def _facts(
    texts: list[str],
    start: int,
    end: int,
    *,
    ellipsis_before: bool = False,
    ellipsis_after: bool = False,
) -> str:
    shown = " ".join(texts[start:end])
    if ellipsis_before:
        shown = "… " + shown
    if ellipsis_after:
        shown += " …"
    return shown.replace("{", "{{").replace("}", "}}")


def _middle(facts: list[str]) -> str:
    if not facts:
        return "[nothing]"
    more = f" … ({len(facts) - SHOWN} more)" if len(facts) > SHOWN else ""
    return "[" + " ".join(facts[:SHOWN]) + more + "]"
