"""phevaluator's C evaluators timed in a C loop, on hands given by the caller.

Nothing of phevaluator is kept in this repository: its source distribution is fetched at
benchmark time (``pip download --no-binary :all: --no-deps phevaluator==VERSION`` into a
temporary directory), and its 5- and 7-card evaluator sources are compiled with the driver
below (``cc -O3``), which reads the hands from a file, times (in its own CPU time) the best
of ``repeats`` passes of ``evaluate_5cards``/``evaluate_7cards`` over them, and prints the
rates and the sum of the ranks (the caller checks the sums against phevaluator's extension
module: same hands, same answers).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int evaluate_5cards(int a, int b, int c, int d, int e);
int evaluate_7cards(int a, int b, int c, int d, int e, int f, int g);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);  /* CPU time: the load moves it less */
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static unsigned char *load(const char *path, long size) {
  unsigned char *data = malloc(size);
  FILE *file = fopen(path, "rb");
  if (!data || !file || fread(data, 1, size, file) != (size_t)size) exit(2);
  fclose(file);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 5) return 2;
  long n = atol(argv[3]), repeats = atol(argv[4]);
  const unsigned char *h5 = load(argv[1], 5 * n), *h7 = load(argv[2], 7 * n);
  double best5 = 1e300, best7 = 1e300;
  long long sum5 = 0, sum7 = 0;
  for (long r = 0; r < repeats; r++) {
    long long s = 0;
    double start = now();
    for (long i = 0; i < n; i++) {
      const unsigned char *c = h5 + 5 * i;
      s += evaluate_5cards(c[0], c[1], c[2], c[3], c[4]);
    }
    double took = now() - start;
    if (took < best5) best5 = took;
    sum5 = s;
    s = 0;
    start = now();
    for (long i = 0; i < n; i++) {
      const unsigned char *c = h7 + 7 * i;
      s += evaluate_7cards(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }
    took = now() - start;
    if (took < best7) best7 = took;
    sum7 = s;
  }
  printf("%.0f %.0f %lld %lld\n", n / best5, n / best7, sum5, sum7);
  return 0;
}
"""

SOURCES = (
    "evaluator5.c",
    "evaluator7.c",
    "hash.c",
    "hashtable.c",
    "hashtable5.c",
    "hashtable7.c",
    "dptables.c",
    "tables_bitwise.c",
)
"""The files of phevaluator's C source that the 5- and 7-card evaluators need."""


@dataclass(frozen=True)
class NativeRates:
    """Evaluations per second in a C loop, and the sums of the ranks it computed."""

    five: float
    seven: float
    five_sum: int
    seven_sum: int


def measure(
    version: str, fives: Sequence[Sequence[int]], sevens: Sequence[Sequence[int]], repeats: int
) -> NativeRates | str:
    """Time phevaluator ``version``'s C evaluators on these hands, or say why it could not."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return "no C compiler"
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        source = _fetch(version, folder)
        if isinstance(source, str):
            return source
        program = folder / "pheval-bench"
        (folder / "driver.c").write_text(DRIVER)
        built = subprocess.run(
            [compiler, "-O3", "-o", str(program), str(folder / "driver.c"),
             *(str(source / "src" / name) for name in SOURCES),
             f"-I{source / 'include'}", f"-I{source / 'src'}"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if built.returncode != 0:
            return f"cannot compile: {built.stderr.strip().splitlines()[-1:]}"
        (folder / "h5").write_bytes(bytes(card for hand in fives for card in hand))
        (folder / "h7").write_bytes(bytes(card for hand in sevens for card in hand))
        ran = subprocess.run(
            [str(program), str(folder / "h5"), str(folder / "h7"), str(len(fives)), str(repeats)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    five, seven, five_sum, seven_sum = ran.stdout.split()
    return NativeRates(float(five), float(seven), int(five_sum), int(seven_sum))


def _fetch(version: str, folder: Path) -> Path | str:
    """phevaluator's C sources (``_pheval_csrc``) from its sdist, unpacked under ``folder``."""
    fetched = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", ":all:",
         "--no-deps", "--dest", str(folder), f"phevaluator=={version}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    archives = sorted(folder.glob("phevaluator-*.tar.gz"))
    if fetched.returncode != 0 or not archives:
        return "pip download of its sdist failed"
    with tarfile.open(archives[0]) as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            archive.extractall(folder, filter="data")
        else:  # pragma: no cover
            archive.extractall(folder)  # an sdist from the package index
    sources = sorted(folder.glob("phevaluator-*/_pheval_csrc"))
    return sources[0] if sources else "its sdist has no _pheval_csrc"
