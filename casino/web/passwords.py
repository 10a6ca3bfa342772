"""Members' passwords as the store keeps them: ``hashlib.scrypt`` with the member's own salt,
at OWASP's cost (:data:`OWASP_SCRYPT`), the cost kept with the hash so that a hash is checked
at its own cost and made again at a new one (:class:`casino.web.store.Store` uses them)."""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass


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


OWASP_SCRYPT = ScryptCost(n=2**17, r=8, p=1)
"""OWASP's Password Storage Cheat Sheet's scrypt cost (N=2^17, r=8, p=1: 128 MiB and about
0.3 s a hash on a server core): the default."""
LEGACY_SCRYPT = ScryptCost(n=2**14, r=8, p=1)
"""The cost of a hash stored before costs were stored with it (a bare 32-byte digest)."""
SCRYPT_N_VARIABLE = "CASINO_WEB_SCRYPT_N"
"""An environment variable that sets N instead (a power of two from 2 to 2^20): for tests and
load tests, which register hundreds of members; never lower it for real members."""
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
