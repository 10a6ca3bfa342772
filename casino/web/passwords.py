"""Members' passwords as the store keeps them: ``hashlib.scrypt`` with the member's own salt,
at OWASP's cost (:data:`OWASP_SCRYPT`) or the one ``casino web --password-cost`` chose (not
below :data:`COST_FLOOR`), the cost kept with the hash so that a hash is checked at its own
cost and made again at a new one (:class:`casino.web.store.Store` uses them).

**A burst of members.** Each hash takes its cost's memory (128 × N × r bytes: 128 MiB at
OWASP's) and a core for a fraction of a second, so that at most :func:`hash_permits` are made
at once (the fewer of the cores and the available memory over one hash's); the others wait
at :class:`HashGate` without holding a worker thread, each at most :data:`WAIT_SECONDS`, and
are then told "busy, try again in N s" (:class:`Busy`: ``casino web`` answers 503 with
``Retry-After``) rather than left without an answer until their client gives up.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
import re
import struct
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass

from casino.errors import OverLimit


@dataclass(frozen=True)
class ScryptCost:
    """What one ``hashlib.scrypt`` costs: N (a power of two), r and p; it takes about
    128 × N × r bytes of memory."""

    n: int
    r: int = 8
    p: int = 1

    def digest(self, password: str, salt: bytes) -> bytes:
        """scrypt of ``password`` with ``salt`` at this cost (32 bytes)."""
        memory = 128 * self.n * self.r * (self.p + 1) + (1 << 20)
        return hashlib.scrypt(
            password.encode("utf-8"), salt=salt, n=self.n, r=self.r, p=self.p, maxmem=memory,
            dklen=32,
        )  # fmt: skip

    @property
    def memory(self) -> int:
        """The bytes one hash at this cost takes (scrypt's table: 128 × N × r)."""
        return 128 * self.n * self.r

    def __str__(self) -> str:
        return f"N=2^{self.n.bit_length() - 1}, r={self.r}, p={self.p}"


OWASP_SCRYPT = ScryptCost(n=2**17, r=8, p=1)
"""OWASP's Password Storage Cheat Sheet's scrypt cost (N=2^17, r=8, p=1: 128 MiB and about
0.3 s a hash on a server core): the default."""
LEGACY_SCRYPT = ScryptCost(n=2**14, r=8, p=1)
"""The cost of a hash stored before costs were stored with it (a bare 32-byte digest)."""
SCRYPT_N_VARIABLE = "CASINO_WEB_SCRYPT_N"
"""An environment variable that sets N instead (a power of two from 2 to 2^20): for tests and
load tests, which register hundreds of members; never lower it for real members."""
COST_FLOOR = ScryptCost(n=2**14, r=8, p=1)
"""The cheapest cost ``--password-cost`` allows: N=2^14 (16 MiB, scrypt's paper's cost for
interactive log-ins, and the one hashes were kept at before costs were stored)."""
COST_CEILING = 2**20
"""The dearest N ``--password-cost`` allows (1 GiB a hash)."""
WAIT_SECONDS = 10.0
"""How long a member waits for a permit to hash before being told to come back: well within
a browser's patience and aiohttp's client timeout (300 s)."""
_HASH_MARK = b"\x00scrypt"


def default_cost(environ: Mapping[str, str] | None = None) -> ScryptCost:
    """:data:`OWASP_SCRYPT`, or N from :data:`SCRYPT_N_VARIABLE` when set (a bad value is
    ignored: the default holds)."""
    text = (os.environ if environ is None else environ).get(SCRYPT_N_VARIABLE, "")
    n = int(text) if text.isdigit() else 0
    if 2 <= n <= 2**20 and n & (n - 1) == 0:
        return ScryptCost(n=n)
    return OWASP_SCRYPT


def stored_hash(cost: ScryptCost, digest: bytes) -> bytes:
    """What the ``hash`` column keeps: a mark, the cost, and the digest, so that a hash can be
    checked at its own cost and made again at a new one (:func:`read_hash`)."""
    return _HASH_MARK + struct.pack(">IHH", cost.n, cost.r, cost.p) + digest


def read_hash(stored: bytes) -> tuple[ScryptCost, bytes]:
    """The cost and the digest of a kept hash (a bare digest: :data:`LEGACY_SCRYPT`)."""
    if stored.startswith(_HASH_MARK) and len(stored) == len(_HASH_MARK) + 8 + 32:
        n, r, p = struct.unpack(">IHH", stored[len(_HASH_MARK) : len(_HASH_MARK) + 8])
        return ScryptCost(n, r, p), stored[-32:]
    return LEGACY_SCRYPT, stored


def password_hash(password: str, salt: bytes, cost: ScryptCost | None = None) -> bytes:
    """The kept hash of the password with the member's salt (:func:`stored_hash`), at
    ``cost`` (default: :func:`default_cost`)."""
    cost = cost or default_cost()
    return stored_hash(cost, cost.digest(password, salt))


def parse_cost(text: str) -> ScryptCost:
    """``--password-cost``: N as ``2^K`` or as the number (a power of two), r=8 and p=1 as
    OWASP's; :class:`ValueError` below :data:`COST_FLOOR` or above :data:`COST_CEILING`."""
    found = re.fullmatch(r"\s*(?:N=)?(?:2\^(\d{1,2})|(\d{1,8}))\s*", text)
    if found is None:
        raise ValueError(f"not a cost (N as 2^K or a power of two): {text[:40]!r}")
    n = 2 ** int(found.group(1)) if found.group(1) else int(found.group(2))
    if n & (n - 1) or not COST_FLOOR.n <= n <= COST_CEILING:
        raise ValueError(
            f"N must be a power of two from 2^14 to 2^20 (OWASP's: 2^17), not {text.strip()}"
        )
    return ScryptCost(n=n)


def available_memory() -> int:
    """The bytes the machine can give without swapping (``MemAvailable``, else free pages)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def hash_permits(cost: ScryptCost, cpus: int | None = None, memory: int | None = None) -> int:
    """How many hashes at ``cost`` may be made at once: min(cores, available memory / one
    hash's memory), at least one."""
    cpus = cores() if cpus is None else cpus
    memory = available_memory() if memory is None else memory
    return max(1, min(cpus, memory // cost.memory))


class Busy(OverLimit):
    """Every permit to hash is taken and will be for a while: try again in ``seconds``."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"busy: try again in {seconds} s")
        self.seconds = seconds


class HashGate:
    """At most ``permits`` hashes at once (an :class:`asyncio.Semaphore`: the waiting members
    hold no thread); a member waits in order at most ``wait`` seconds, and is told :class:`Busy`
    at once when the members ahead would already take longer. Each member told so is given a
    later slot of its own (:attr:`booked`), so that those told to come back come one after
    another at the pace the permits serve them, none sent back again and again."""

    def __init__(
        self, permits: int, wait: float = WAIT_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.permits = permits
        self.wait = wait
        self.clock = clock
        self.waiting = 0
        self.seconds = 0.5
        """The time a hash holds its permit (an average of the last ones; 0.5 s at first)."""
        self.booked = 0.0
        """When (on ``clock``) the slots given to the members told :class:`Busy` end."""
        self._free = asyncio.Semaphore(permits)

    def later(self) -> float:
        """The seconds until a member arriving now would have a permit (an estimate)."""
        return (self.waiting + 1) * self.seconds / self.permits

    def busy(self) -> Busy:
        """:class:`Busy`, with the next free slot after those already given."""
        now = self.clock()
        slot = max(now + self.later(), self.booked)
        self.booked = slot + self.seconds / self.permits
        return Busy(max(1, math.ceil(slot - now)))

    @asynccontextmanager
    async def permit(self) -> AsyncIterator[None]:
        """Hold a permit for the block; :class:`Busy` if none comes within ``wait``."""
        if self._free.locked() and self.later() > self.wait:
            raise self.busy()
        self.waiting += 1
        try:
            async with asyncio.timeout(self.wait):
                await self._free.acquire()
        except TimeoutError:
            raise self.busy() from None
        finally:
            self.waiting -= 1
        began = self.clock()
        try:
            yield
        finally:
            self.seconds = 0.8 * self.seconds + 0.2 * (self.clock() - began)
            self._free.release()
