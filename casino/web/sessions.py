"""Members and the signed session cookie that brings a closed tab back to its seat.

The cookie is ``TOKEN.SIGNATURE``: a random token and its HMAC-SHA256 under the server's
secret (random per run unless given). A cookie whose signature does not match is ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

COOKIE = "casino_session"
NAME_LENGTH = 20
MOST_BANKROLL = 10**6


@dataclass
class Profile:
    """A member: the name they gave, the chips they bring to a table, their language."""

    name: str
    bankroll: int
    lang: str


class Sessions:
    """Signed tokens → profiles."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or secrets.token_bytes(32)
        self.profiles: dict[str, Profile] = {}

    def sign(self, token: str) -> str:
        """The cookie value for ``token``."""
        mac = hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()
        return f"{token}.{mac}"

    def token_of(self, cookie: str | None) -> str | None:
        """The token of a correctly signed cookie, else ``None``."""
        if not cookie or cookie.count(".") != 1:
            return None
        token = cookie.split(".")[0]
        return token if hmac.compare_digest(self.sign(token), cookie) else None

    def profile_of(self, cookie: str | None) -> Profile | None:
        """The member a cookie names, or ``None`` (unsigned, forged, unknown)."""
        token = self.token_of(cookie)
        return None if token is None else self.profiles.get(token)

    def start(self, profile: Profile, cookie: str | None = None) -> str:
        """Remember ``profile`` (under the cookie's token if it is a valid one); the cookie."""
        token = self.token_of(cookie) or secrets.token_urlsafe(18)
        self.profiles[token] = profile
        return self.sign(token)


def clean_name(text: str) -> str:
    """A member's name: printable characters, trimmed, at most 20 (escaping is the page's)."""
    kept = "".join(ch for ch in text if ch.isprintable()).strip()
    return kept[:NAME_LENGTH]
