"""The signed session cookie of a logged-in member, and the forms' CSRF token.

The cookie is ``TOKEN.SIGNATURE``: a random token and its HMAC-SHA256 under the server's
secret (random per run unless given). A cookie whose signature does not match is ignored.
A session ends when it has not been used for ``session_idle`` seconds or ``session_age``
seconds after it started (on the injected clock); :attr:`Sessions.on_end` hears of each (the
server drops what the session had). At most ``sessions`` are kept: beyond that a new one is
refused (:class:`SessionsFull`) rather than ending a member's, so a flood of joins harms no
member already in.

The form's CSRF token is the HMAC of a second random cookie (``casino_form``, ``HttpOnly``,
``SameSite=Strict``) that the lobby sets: another site's page can neither read that cookie
nor the token, nor make the browser send the cookie with its form.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from casino.clock import Clock, MonotonicClock
from casino.errors import OverLimit
from casino.net.names import computer_marked
from casino.web.guard import Limits

COOKIE = "casino_session"
FORM_COOKIE = "casino_form"
FORM_FIELD = "csrf"
SWEEP_SECONDS = 60.0
"""How often (on the clock) ended sessions are looked for."""


class SessionsFull(OverLimit):
    """As many sessions as the limit are alive: no new one until some end."""


@dataclass
class Profile:
    """A logged-in member: their name, their account in the store, their language."""

    name: str
    member: int
    """The member's account id in :class:`casino.web.store.Store`."""
    lang: str


@dataclass
class Session:
    """A profile and when its session started and was last used."""

    profile: Profile
    started: float
    used: float


class Sessions:
    """Signed tokens → profiles, each ending after its idle time or its age."""

    def __init__(
        self,
        secret: bytes | None = None,
        clock: Clock | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.secret = secret or secrets.token_bytes(32)
        self.clock: Clock = clock or MonotonicClock()
        self.limits = limits or Limits()
        self.sessions: dict[str, Session] = {}
        self.swept = self.clock.now()
        self.on_end: Callable[[str], None] | None = None

    def sign(self, token: str, purpose: str = "") -> str:
        """The cookie value for ``token`` (``purpose`` keeps the form's token apart)."""
        mac = hmac.new(self.secret, (purpose + token).encode(), hashlib.sha256).hexdigest()
        return f"{token}.{mac}"

    def token_of(self, cookie: str | None) -> str | None:
        """The token of a correctly signed cookie, else ``None``."""
        if not cookie or cookie.count(".") != 1 or len(cookie) > 200:
            return None
        token = cookie.split(".")[0]
        return token if hmac.compare_digest(self.sign(token), cookie) else None

    def profile_of(self, cookie: str | None) -> Profile | None:
        """The member a cookie names, or ``None`` (unsigned, forged, unknown, ended)."""
        token = self.token_of(cookie)
        return None if token is None or not self.use(token) else self.sessions[token].profile

    def use(self, token: str) -> bool:
        """Whether the session is alive (it is then used now); an ended one is dropped."""
        self.sweep()
        session = self.sessions.get(token)
        if session is None:
            return False
        if self.ended(session):
            self.end(token)
            return False
        session.used = self.clock.now()
        return True

    def ended(self, session: Session) -> bool:
        """Whether ``session`` is past its idle time or its age."""
        now = self.clock.now()
        return (
            now - session.used > self.limits.session_idle
            or now - session.started > self.limits.session_age
        )

    def end(self, token: str) -> None:
        """End a session (the server hears of it)."""
        if self.sessions.pop(token, None) is not None and self.on_end is not None:
            self.on_end(token)

    def sweep(self, now: bool = False) -> None:
        """End the ended sessions (at most once every :data:`SWEEP_SECONDS` unless ``now``)."""
        if not now and self.clock.now() - self.swept < SWEEP_SECONDS:
            return
        self.swept = self.clock.now()
        for token in [t for t, s in self.sessions.items() if self.ended(s)]:
            self.end(token)

    def start(self, profile: Profile, cookie: str | None = None) -> str:
        """Remember ``profile`` (under the cookie's token if it is a live one); the cookie.

        :class:`SessionsFull` if a new session is needed and the limit is reached.
        """
        token = self.token_of(cookie)
        if token is None or not self.use(token):
            token = secrets.token_urlsafe(18)
            if len(self.sessions) >= self.limits.sessions:
                self.sweep(now=True)
            if len(self.sessions) >= self.limits.sessions:
                raise SessionsFull(f"{len(self.sessions)} sessions")
            now = self.clock.now()
            self.sessions[token] = Session(profile, now, now)
        else:
            self.sessions[token].profile = profile
        return self.sign(token)

    def form_token(self, form_cookie: str) -> str:
        """The CSRF token the lobby's form carries for its ``casino_form`` cookie."""
        return self.sign(form_cookie, "form:").split(".")[1]

    def form_ok(self, form_cookie: str | None, token: str | None) -> bool:
        """Whether a form's token is the one of its cookie."""
        if not form_cookie or not token or len(form_cookie) > 100:
            return False
        return hmac.compare_digest(self.form_token(form_cookie), token)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a member's (empty, not printable text, ending in the computer
    players' mark ``(bot)``: every other name, ``Ana`` too, is a person's to take)."""
    if not name:
        return "a name is needed"
    if not name.isprintable():
        return "a name is printable text (no control characters)"
    if computer_marked(name):
        return "a name ending in (bot) is a computer player's"
    return None
