"""The machine a benchmark ran on, for the first lines of its report."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
from pathlib import Path


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo, or what the platform module knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def nproc() -> int:
    """The CPUs this process may run on, as ``nproc`` counts them (its affinity, not the host)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def describe() -> str:
    """One line: cores, CPU model, Python implementation and version, OS."""
    return (
        f"machine: nproc {nproc()}, {cpu_model()}, "
        f"{platform.python_implementation()} {sys.version.split()[0]}, {platform.system()}"
    )


def peak_memory_mib() -> tuple[float, float]:
    """Peak resident memory so far of this process and of its largest waited-for child (MiB)."""
    divisor = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes or KiB
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / divisor
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / divisor
    return own, children


def compile_bytecode(root: Path) -> str:
    """Compile the bytecode of the checkout's ``casino`` package (each module whose ``.pyc`` is
    missing or older than its source), so that the casino processes a benchmark starts load it
    as an installed casino does, and as any casino does after its first start, instead of
    compiling every module again: with ``PYTHONDONTWRITEBYTECODE`` set (as on some machines
    here), Python reads bytecode but never writes it, and an editable checkout would pay for
    compiling its imports at every start. One line that says so, for the report."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(root / "casino")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    setting = os.environ.get("PYTHONDONTWRITEBYTECODE")
    return f"bytecode: {root / 'casino'} compiled first (PYTHONDONTWRITEBYTECODE={setting!r})"
