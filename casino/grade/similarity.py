"""Copied code: ``casino grade --similarity`` compares every pair of submissions.

The comparison is copydetect's (https://github.com/blingenf/copydetect, the optional
``[similarity]`` extra): each source file is tokenized with Pygments (so a renamed variable or
function, a change of layout or comments changes nothing), cut into k-grams of
:data:`NOISE` tokens, and winnowed as MOSS does (Schleimer, Wilkerson and Aiken, 2003); two
files share what their fingerprints share. casino adds what a course needs around it:

- a **submission** is compared, not a file: for each of a student's source files, the most it
  shares with any one file of the other student (so a renamed file is still found), summed
  over the student's files and divided by the tokens they have. A pair's similarity is the
  larger of its two sides (a short program copied into a long one shows on the short side);
- **starter code** (``--template DIR``: what the course handed out) is left out: every k-gram
  of the template's files is removed from every submission's fingerprints (copydetect's
  *boilerplate*), so a starter file every student kept makes no pair similar;
- **earlier years** (``--archive``: last years' submissions, read as SUBMISSIONS is, by
  :func:`casino.grade.intake.open_submissions`: a folder of folders, a zip, a platform's
  download, a Git list) are compared with this year's, never with one another, and named
  ``archive/NAME``;
- the results: ``similarity.csv`` (every pair that shares anything, most similar first) and
  ``similarity/index.html`` (the ranked list), with a side-by-side page per pair at or above
  :data:`SHOWN_AT` (``similarity/pair-N.html``: both submissions' files that share code, the
  shared code marked), linked from the summary page.

Only files whose extension is a programming language's (:data:`SOURCE_SUFFIXES`) are compared,
at most :data:`MAX_FILE_BYTES` each; a file that is not UTF-8 is read with replacement
characters. The order is fixed (similarity, then names), so the same course gives the same files.

**Within limits**, like the intake: a submission's folder is walked without recursion (a tree
1,100 folders deep is read like any other), looking at no more than :data:`MAX_WALKED`
entries; at most :data:`MAX_SOURCE_FILES` source files and :data:`MAX_SOURCE_BYTES` of source
in all are compared per submission, in name order, and the files beyond are left out (counted
on the index page). ``casino grade`` compares only the submissions it graded. The comparison
runs in a forked worker (:func:`bounded`, the one ``out_re`` patterns use) with
:data:`CPU_SECONDS` of CPU, :data:`MEMORY_BYTES` of data and :data:`WALL_SECONDS` in all: past
any of them it is stopped, the index page and the summary say so, and the gradebook is
written as ever. What it cost (CPU seconds, peak memory) is in the summary's section.
"""

from __future__ import annotations

import csv
import html
import io
import os
import resource
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any
from urllib.parse import quote

from casino.errors import SetupError
from casino.files import write_atomic
from casino.harness.regex import PatternTimeout, bounded
from casino.harness.report import plural
from casino.page import page_head

NOISE = 25
"""Tokens in a k-gram: a match shorter than this is never counted (copydetect's default)."""
GUARANTEE = 30
"""A match at least this long is always found (the winnowing window is GUARANTEE − NOISE + 1)."""
SHOWN_AT = 0.3
"""A pair at or above this similarity gets a side-by-side page."""
MAX_FILE_BYTES = 256 << 10
"""What is read of each source file (its first 256 KiB): one 1 MiB file cost up to 29 CPU s."""
MAX_SOURCE_FILES = 200
"""Source files compared per submission (in name order; the rest left out)."""
MAX_SOURCE_BYTES = 512 << 10
"""Bytes of source compared per submission, in all."""
MAX_WALKED = 10_000
"""Files and folders looked at per submission (the intake's ``MAX_SUBMISSION_FILES``)."""
CPU_SECONDS = 600
"""CPU seconds the whole comparison may take (its worker gets ``RLIMIT_CPU``)."""
MEMORY_BYTES = 2 << 30
"""Bytes of data its worker may allocate (``RLIMIT_DATA``)."""
WALL_SECONDS = 2 * CPU_SECONDS
"""Seconds it may take in all, on a busy machine."""
SOURCE_SUFFIXES = frozenset(
    {".java", ".py", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".js", ".ts", ".go", ".rs"}
    | {".rb", ".kt", ".scala", ".swift", ".php", ".pl", ".hs", ".ml", ".sh", ".m", ".lua"}
    | {".r", ".jl", ".dart"}
)
"""What is compared: the extensions of programming languages' source files."""
ARCHIVE = "archive/"
"""How a submission of an earlier year is named."""


class SimilarityError(SetupError):
    """The comparison cannot be made (copydetect missing, a folder unreadable): one line."""


def available() -> bool:
    """Whether copydetect can be imported here (without importing it)."""
    import importlib.util

    return importlib.util.find_spec("copydetect") is not None


def _copydetect() -> Any:
    try:
        from copydetect import detector
    except ImportError:
        raise SimilarityError(
            "--similarity needs copydetect: pip install -e '.[similarity]' in casino's folder"
        ) from None
    return detector


@dataclass(frozen=True)
class Source:
    """One source file of a submission, fingerprinted."""

    path: str
    """Its path inside the submission."""
    print: Any
    """copydetect's ``CodeFingerprint``."""


@dataclass(frozen=True)
class Submission:
    """A submission's source files."""

    name: str
    sources: tuple[Source, ...]

    @property
    def tokens(self) -> int:
        """The tokens its files have that fingerprints cover (starter code left out)."""
        return sum(int(source.print.token_coverage) for source in self.sources)


@dataclass(frozen=True)
class Shared:
    """What one file of a pair shares with the other submission's file that shares most."""

    left: str
    right: str
    left_slices: tuple[tuple[int, int], ...]
    right_slices: tuple[tuple[int, int], ...]
    tokens: int


@dataclass(frozen=True)
class Pair:
    """Two submissions and what they share."""

    left: str
    right: str
    left_share: float
    right_share: float
    shared: tuple[Shared, ...]

    @property
    def similarity(self) -> float:
        """The larger share."""
        return max(self.left_share, self.right_share)


def source_paths(folder: Path) -> Iterator[str]:
    """The source files under ``folder``, relative to it, in name order (links not followed,
    hidden folders left out), walked with a stack, not recursion, looking at no more than
    :data:`MAX_WALKED` entries."""
    todo, walked = [""], 0
    while todo and walked < MAX_WALKED:
        here = todo.pop()
        try:
            entries = sorted(os.scandir(folder / here if here else folder), key=lambda e: e.name)
        except OSError:
            continue
        folders = []
        for entry in entries[: MAX_WALKED - walked]:
            walked += 1
            relative = f"{here}/{entry.name}" if here else entry.name
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode) and not entry.name.startswith("."):
                folders.append(relative)
            elif stat.S_ISREG(mode) and Path(entry.name).suffix.lower() in SOURCE_SUFFIXES:
                yield relative
        todo += reversed(folders)  # the first folder is walked next: name order


def source_files(folder: Path, skipped: list[str] | None = None) -> Iterator[tuple[str, str]]:
    """Each source file under ``folder`` (:func:`source_paths`): its path inside the folder
    and its text, within :data:`MAX_SOURCE_FILES` and :data:`MAX_SOURCE_BYTES`; the paths of
    the files left out go to ``skipped``."""
    files = total = 0
    for path in source_paths(folder):
        if files >= MAX_SOURCE_FILES or total >= MAX_SOURCE_BYTES:
            if skipped is not None:
                skipped.append(path)
            continue
        try:
            with open(folder / path, "rb") as handle:
                data = handle.read(min(MAX_FILE_BYTES, MAX_SOURCE_BYTES - total))
        except OSError:
            continue
        files, total = files + 1, total + len(data)
        yield path, data.decode("utf-8", "replace")


@dataclass(frozen=True)
class Fingerprint:
    """A file's fingerprints, with the attributes copydetect's ``compare_files`` reads."""

    raw_code: str
    filtered_code: str
    offsets: Any
    hashes: set[int]
    hash_idx: dict[int, list[int]]
    k: int
    token_coverage: int


def kgram_hashes(text: str, k: int) -> Any:
    """The hash of every k-gram of ``text``: 8 bytes of BLAKE2b, the same in every process
    (copydetect's own uses Python's ``hash()``, salted per process, so which fingerprints
    winnowing keeps, and so the similarities, would change from one run to the next)."""
    import numpy as np

    values = [
        int.from_bytes(blake2b(text[at : at + k].encode(), digest_size=8).digest(), "little")
        - (1 << 63)
        for at in range(len(text) - k + 1)
    ]
    return np.array(values, dtype=np.int64)


def _fingerprint(detector: Any, path: str, text: str, boilerplate: Any, window: int) -> Any:
    """copydetect's ``CodeFingerprint`` of ``text``, its k-grams hashed by :func:`kgram_hashes`:
    Pygments' tokens with names, numbers and strings made one symbol each
    (``filter_code``), winnowed (``winnow``), the starter code's hashes taken out."""
    import numpy as np
    from copydetect import utils

    filtered, offsets = utils.filter_code(text, path)
    hashes, idx = utils.winnow(kgram_hashes(filtered, NOISE), window, remove_duplicates=False)
    if boilerplate is not None and len(boilerplate):
        keep = ~np.isin(hashes, boilerplate)
        hashes, idx = hashes[keep], idx[keep]
    where: dict[int, list[int]] = {}
    for value, at in zip(hashes.tolist(), idx.tolist(), strict=True):
        where.setdefault(value, []).append(at)
    coverage = int(utils.get_token_coverage(where, NOISE, len(filtered)))
    return Fingerprint(text, filtered, offsets, set(where), where, NOISE, coverage)


def template_hashes(detector: Any, folder: Path | None) -> Any:
    """Every k-gram hash of the starter code (a window of 1: all of them)."""
    import numpy as np

    found: list[Any] = []
    if folder is not None:
        for path, text in source_files(folder):
            found.extend(_fingerprint(detector, path, text, None, 1).hashes)
    return np.unique(np.array(found, dtype=np.int64))


def load(
    detector: Any, name: str, folder: Path, boilerplate: Any, skipped: list[str] | None = None
) -> Submission:
    """A submission's source files, fingerprinted with the starter code left out (those
    beyond the caps named in ``skipped``)."""
    window = GUARANTEE - NOISE + 1
    sources = tuple(
        Source(path, _fingerprint(detector, path, text, boilerplate, window))
        for path, text in source_files(folder, skipped)
    )
    return Submission(name, sources)


def compare(detector: Any, left: Submission, right: Submission) -> Pair:
    """What ``left`` and ``right`` share (each file against the other's that shares most)."""
    best_left = _best(detector, left, right)
    best_right = _best(detector, right, left)
    shared = tuple(
        Shared(a.path, b.path, _slices(mine), _slices(theirs), tokens)
        for a, b, tokens, mine, theirs in best_left
    )
    left_tokens = sum(item[2] for item in best_left)
    right_tokens = sum(item[2] for item in best_right)
    return Pair(
        left.name,
        right.name,
        min(1.0, left_tokens / left.tokens) if left.tokens else 0.0,
        min(1.0, right_tokens / right.tokens) if right.tokens else 0.0,
        shared,
    )


def _best(detector: Any, mine: Submission, theirs: Submission) -> list[tuple[Any, ...]]:
    """For each of ``mine``'s files that shares anything: the file of ``theirs`` sharing
    most, the tokens, and both sides' copied slices."""
    found = []
    for a in mine.sources:
        best: tuple[Any, ...] | None = None
        for b in theirs.sources:
            tokens, _, (slices_a, slices_b) = detector.compare_files(a.print, b.print)
            if tokens > 0 and (best is None or tokens > best[2]):
                best = (a, b, int(tokens), slices_a, slices_b)
        if best is not None:
            found.append(best)
    return found


def _slices(array: Any) -> tuple[tuple[int, int], ...]:
    """copydetect's 2×N array of starts and ends as pairs."""
    if len(array) == 0 or len(array[0]) == 0:
        return ()
    return tuple((int(s), int(e)) for s, e in zip(array[0], array[1], strict=True))


def rank(
    students: Sequence[tuple[str, Path]],
    template: Path | None = None,
    earlier: Sequence[tuple[str, Path]] = (),
) -> tuple[list[Pair], dict[str, dict[str, str]]]:
    """Every pair of ``students`` (name, folder) and of a student and an earlier year's
    submission that shares anything, most similar first; and each submission's source texts
    (for the side-by-side pages)."""
    return _rank(students, template, earlier, {})


def _rank(
    students: Sequence[tuple[str, Path]],
    template: Path | None,
    earlier: Sequence[tuple[str, Path]],
    skipped: dict[str, int],
) -> tuple[list[Pair], dict[str, dict[str, str]]]:
    """:func:`rank`, counting in ``skipped`` the files each submission had beyond the caps."""
    detector = _copydetect()
    boilerplate = template_hashes(detector, template)

    def loaded(name: str, folder: Path) -> Submission:
        left_out: list[str] = []
        submission = load(detector, name, folder, boilerplate, left_out)
        if left_out:
            skipped[name] = len(left_out)
        return submission

    current = [loaded(name, folder) for name, folder in students]
    old = [loaded(ARCHIVE + name, folder) for name, folder in earlier]
    pairs = []
    for index, left in enumerate(current):
        for right in [*current[index + 1 :], *old]:
            pair = compare(detector, left, right)
            if pair.shared:
                pairs.append(pair)
    pairs.sort(key=lambda p: (-round(p.similarity, 6), p.left, p.right))
    texts = {
        submission.name: {source.path: source.print.raw_code for source in submission.sources}
        for submission in [*current, *old]
    }
    return pairs, texts


def folders_in(folder: Path) -> list[tuple[str, Path]]:
    """The submissions of a plain folder of folders (hidden ones left out), by name."""
    if not folder.is_dir():
        raise SimilarityError(f"--archive: no such folder: {folder}")
    return sorted(
        (entry.name, Path(entry.path))
        for entry in os.scandir(folder)
        if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
    )


def percent(share: float) -> str:
    """``87%``."""
    return f"{share * 100:.0f}%"


def similarity_csv(pairs: Sequence[Pair]) -> str:
    """``similarity.csv``: rank, both names, both shares, the larger, the page."""
    from casino.grade.books import text_cell

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["rank", "student", "other", "share", "other_share", "similarity", "page"])
    for number, pair in enumerate(pairs, 1):
        page = _page_name(number) if pair.similarity >= SHOWN_AT else ""
        writer.writerow(
            [
                number,
                text_cell(pair.left),
                text_cell(pair.right),
                f"{pair.left_share:.3f}",
                f"{pair.right_share:.3f}",
                f"{pair.similarity:.3f}",
                page and f"similarity/{page}",
            ]
        )
    return buffer.getvalue()


def _page_name(number: int) -> str:
    return f"pair-{number}.html"


_STYLE = (
    "body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
    ".side{display:flex;gap:1em}.side>div{flex:1;min-width:0}"
    "pre{background:#f7f7f7;padding:4px;overflow-x:auto;font-size:12px}mark{background:#fd7}"
)


def index_html(
    pairs: Sequence[Pair], compared: int, template: bool, archive: int, cost: Cost | None = None
) -> str:
    """``similarity/index.html``: the ranked list (and what it cost, when told)."""
    e = html.escape
    parts = [
        page_head("casino grade: similarity", _STYLE, compact=True),
        "<h1>Similar submissions</h1>",
        f"<p>{plural(compared, 'submission')} compared pair by pair with copydetect "
        f"(winnowed {NOISE}-token fingerprints)"
        f"{', and with ' + plural(archive, 'earlier submission') if archive else ''}; "
        f"starter code {'left out (--template)' if template else 'not given'}. "
        f"A pair's similarity is the larger share of one side's code found in the other; "
        f"pairs at {percent(SHOWN_AT)} or more link to a side-by-side page.</p>",
    ]
    if cost is not None:
        parts.append(f"<p>{e(cost.line())}</p>")
        parts += [
            f"<p>{e(name)}: {plural(count, 'file')} left out beyond the caps.</p>"
            for name, count in sorted(cost.skipped.items())
        ]
    if not pairs:
        return "\n".join([*parts, "<p>No two submissions share code.</p></body></html>\n"])
    parts.append(
        "<table><tr><th>#</th><th>submission</th><th>other</th><th>similarity</th>"
        "<th>shares</th></tr>"
    )
    for number, pair in enumerate(pairs, 1):
        label = percent(pair.similarity)
        if pair.similarity >= SHOWN_AT:
            label = f'<a href="{quote(_page_name(number))}">{label}</a>'
        shares = f"{percent(pair.left_share)} / {percent(pair.right_share)}"
        parts.append(
            f"<tr><td>{number}</td><td>{e(pair.left)}</td><td>{e(pair.right)}</td>"
            f"<td>{label}</td><td>{shares}</td></tr>"
        )
    return "\n".join([*parts, "</table></body></html>\n"])


def pair_html(number: int, pair: Pair, texts: dict[str, dict[str, str]]) -> str:
    """A side-by-side page: each file of the pair that shares code, the shared code marked."""
    e = html.escape
    title = f"{pair.left} and {pair.right}: {percent(pair.similarity)}"
    parts = [
        page_head(title, _STYLE, compact=True),
        f'<p><a href="index.html">all pairs</a></p><h1>#{number}: {e(title)}</h1>',
        f"<p>{e(pair.left)}: {percent(pair.left_share)} of its code is in {e(pair.right)}; "
        f"{e(pair.right)}: {percent(pair.right_share)} of its code is in {e(pair.left)}.</p>",
    ]
    for shared in pair.shared:
        left = _marked(texts[pair.left][shared.left], shared.left_slices)
        right = _marked(texts[pair.right][shared.right], shared.right_slices)
        parts += [
            f"<h2>{e(shared.left)} ↔ {e(shared.right)} ({shared.tokens} tokens)</h2>",
            f'<div class="side"><div><h3>{e(pair.left)}/{e(shared.left)}</h3><pre>{left}</pre>'
            f"</div><div><h3>{e(pair.right)}/{e(shared.right)}</h3><pre>{right}</pre></div></div>",
        ]
    return "\n".join([*parts, "</body></html>\n"])


def _marked(text: str, slices: Sequence[tuple[int, int]]) -> str:
    """``text`` HTML-escaped with the ``slices`` (character ranges) in ``<mark>``."""
    out, at = [], 0
    for start, end in sorted(slices):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        out += [html.escape(text[at:start]), "<mark>", html.escape(text[start:end]), "</mark>"]
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)


class Ranked(list[Pair]):
    """The ranked pairs, with what the comparison cost and whether it was stopped."""

    def __init__(self, pairs: Sequence[Pair] = (), cost: Cost | None = None) -> None:
        super().__init__(pairs)
        self.cost = cost or Cost()


@dataclass(frozen=True)
class Cost:
    """What the comparison's worker used; ``stopped``: why it did not finish."""

    cpu_seconds: float = 0.0
    peak_mib: float = 0.0
    stopped: str | None = None
    skipped: dict[str, int] = field(default_factory=dict)
    """Files left out beyond the caps, per submission."""

    def line(self) -> str:
        """One sentence for the summary and the index page."""
        limits = (
            f"limits: {CPU_SECONDS} CPU s, {MEMORY_BYTES >> 20} MiB, {WALL_SECONDS} s; per "
            f"submission {MAX_SOURCE_FILES} source files, {MAX_SOURCE_BYTES >> 10} KiB"
        )
        if self.stopped is not None:
            return f"The comparison was stopped ({self.stopped}; {limits}): no pairs."
        left = sum(self.skipped.values())
        beyond = f"; {plural(left, 'file')} left out beyond the caps" if left else ""
        return (
            f"Compared in {self.cpu_seconds:.1f} CPU s, peak {self.peak_mib:.0f} MiB "
            f"({limits}{beyond})."
        )


Compared = tuple[list[Pair], dict[str, dict[str, str]], Cost]


def bounded_rank(
    students: Sequence[tuple[str, Path]],
    template: Path | None = None,
    earlier: Sequence[tuple[str, Path]] = (),
) -> Compared:
    """:func:`rank` in a forked worker with :data:`CPU_SECONDS`, :data:`MEMORY_BYTES` and
    :data:`WALL_SECONDS`; its cost, or why it was stopped (then no pairs)."""
    _copydetect()  # its absence is one line here, not a stopped worker

    def work() -> Compared:
        for kind, value in (
            (resource.RLIMIT_CPU, CPU_SECONDS),
            (resource.RLIMIT_DATA, MEMORY_BYTES),
        ):
            hard = resource.getrlimit(kind)[1]
            limit = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (limit, hard))
        skipped: dict[str, int] = {}
        pairs, texts = _rank(students, template, earlier, skipped)
        used = resource.getrusage(resource.RUSAGE_SELF)
        cost = Cost(used.ru_utime + used.ru_stime, used.ru_maxrss / 1024, None, skipped)
        return pairs, texts, cost

    try:
        return bounded(work, "--similarity", WALL_SECONDS)
    except PatternTimeout:
        return [], {}, Cost(stopped="it went past its CPU, memory or time limit")


def write_similarity(
    out: Path,
    students: Sequence[tuple[str, Path]],
    template: Path | None = None,
    earlier: Sequence[tuple[str, Path]] = (),
) -> Ranked:
    """Compare (:func:`bounded_rank`), then write ``similarity.csv``,
    ``similarity/index.html`` and a page per pair at or above :data:`SHOWN_AT`; the ranked
    pairs, with their cost."""
    pairs, texts, cost = bounded_rank(students, template, earlier)
    folder = out / "similarity"
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("pair-*.html"):
        stale.unlink()
    write_atomic(out / "similarity.csv", similarity_csv(pairs))
    page = index_html(pairs, len(students), template is not None, len(earlier), cost)
    write_atomic(folder / "index.html", page)
    for number, pair in enumerate(pairs, 1):
        if pair.similarity >= SHOWN_AT:
            write_atomic(folder / _page_name(number), pair_html(number, pair, texts))
    return Ranked(pairs, cost)


def summary_section(pairs: Sequence[Pair], top: int = 5) -> str:
    """The summary page's section: the most similar pairs, linked to the full list."""
    e = html.escape
    lines = [
        "<h2>Similar submissions</h2>",
        '<p><a href="similarity/index.html">every pair, ranked</a> '
        f"({plural(len(pairs), 'pair')} sharing code; similarity.csv)</p>",
    ]
    if isinstance(pairs, Ranked):
        lines.append(f"<p>{e(pairs.cost.line())}</p>")
    if pairs:
        lines.append("<ol>")
        for number, pair in enumerate(pairs[:top], 1):
            text = f"{e(pair.left)} and {e(pair.right)}: {percent(pair.similarity)}"
            if pair.similarity >= SHOWN_AT:
                text = f'<a href="similarity/{quote(_page_name(number))}">{text}</a>'
            lines.append(f"<li>{text}</li>")
        lines.append("</ol>")
    return "\n".join(lines)
