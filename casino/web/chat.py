"""Chat in the lobby and at each table: members only, kept in the store, muted per viewer.

**Rooms.** ``lobby``; ``holdem/N`` (Hold'em table N); ``dominoes`` (every member playing
dominoes: each plays the computer alone, so they share one room). A room's listeners are the
sockets open on its page (:class:`casino.web.app.WebServer` joins them), each with the
:class:`Viewer` it serves: a member, or ``None`` for one who may only read (a watcher).

**Lines.** A member's ``{"type": "chat", "text": …}`` is one line: its spaces collapsed (no
line breaks), at most :attr:`Limits.chat_length` characters (a longer one is refused, saying
so), at most :attr:`Limits.chat_lines` per :attr:`Limits.chat_period` seconds of the
server's clock per member, every room together (casino's one
:class:`~casino.net.guard.Quota`; over it: refused, saying so). Each line is kept in the
store (table ``chat_lines``: the room, the member, the text as typed, the time from the
store's injected ``now()``, and the store's game, i.e. the hand, it was said in at a table)
before it is sent to the room's listeners. The text is sent as it is; every page puts it in
as text (``textContent``; the lobby's first lines with :func:`html.escape`), never as HTML.

**Mutes.** ``{"type": "chat", "mute": member}`` (and ``"unmute"``) is kept in the store
(``chat_mutes``); a muted member's lines are still kept, only not sent to who muted them
(nor in the last lines they see on joining a room). Whoever joins a room is sent its last
:data:`RECENT` lines they do not mute, the members they mute, and the chat's words in their
language (``{"type": "chat", "reset": true, …}``); then each new line
(``{"type": "chat", "lines": [line]}``); a refusal is ``{"type": "chat", "refused": …}``.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from casino.clock import Clock
from casino.net.guard import Quota
from casino.web.bank import Bank
from casino.web.guard import LOG, Limits
from casino.web.store import Store
from casino.web.words import CHAT, fill, words

LOBBY = "lobby"
DOMINOES = "dominoes"
RECENT = 50
"""Lines a member joining a room is sent (the last ones, of members they do not mute)."""

Post = Callable[[dict[str, Any]], None]
"""A socket's :meth:`casino.web.guard.Outbox.post`."""


def holdem_room(number: int) -> str:
    """The room of Hold'em table ``number``."""
    return f"holdem/{number}"


@dataclass(frozen=True)
class Line:
    """One line said in a room."""

    id: int
    room: str
    member: int
    name: str
    text: str
    at: float
    game: int | None
    """The store's game (the hand) it was said in, at a table; ``None`` in the lobby or
    between two hands."""


@dataclass(frozen=True)
class Viewer:
    """Who a socket of a room serves: a member (``None``: one who may only read)."""

    member: int | None
    lang: str


class ChatStore:
    """The chat's rows of the store (migration 3 of :data:`casino.web.schema.MIGRATIONS`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, room: str, member: int, text: str, game: int | None) -> Line:
        """Keep a line (said now by the store's clock); the line kept."""
        at = self.store.now()
        with self.store.transaction() as run:
            row = run(
                "INSERT INTO chat_lines (room, member, text, at, game) "
                "VALUES (?, ?, ?, ?, ?) RETURNING id",
                room,
                member,
                text,
                at,
                game,
            ).fetchone()
            name = run("SELECT name FROM accounts WHERE id = ?", member).fetchone()[0]
        return Line(int(row[0]), room, member, str(name), text, at, game)

    def recent(self, room: str, viewer: int | None, count: int = RECENT) -> list[Line]:
        """The room's last ``count`` lines, oldest first, but those of members ``viewer``
        mutes."""
        with self.store.transaction() as run:
            rows = run(
                "SELECT c.id, c.room, c.member, a.name, c.text, c.at, c.game "
                "FROM chat_lines c JOIN accounts a ON a.id = c.member WHERE c.room = ? "
                "AND c.member NOT IN (SELECT muted FROM chat_mutes WHERE member = ?) "
                "ORDER BY c.id DESC LIMIT ?",
                room,
                -1 if viewer is None else viewer,
                count,
            ).fetchall()
        return [_line(row) for row in reversed(rows)]

    def mute(self, member: int, muted: int, on: bool = True) -> None:
        """``member`` mutes ``muted`` (``on=False``: unmutes them); an unknown member or
        oneself: nothing."""
        with self.store.transaction() as run:
            run("DELETE FROM chat_mutes WHERE member = ? AND muted = ?", member, muted)
            known = run("SELECT 1 FROM accounts WHERE id = ? AND kind = 'member'", muted).fetchone()
            if on and known and member != muted:
                run("INSERT INTO chat_mutes (member, muted) VALUES (?, ?)", member, muted)

    def muted_by(self, member: int) -> dict[int, str]:
        """The members ``member`` mutes (id → name)."""
        with self.store.transaction() as run:
            rows = run(
                "SELECT m.muted, a.name FROM chat_mutes m JOIN accounts a ON a.id = m.muted "
                "WHERE m.member = ? ORDER BY a.folded",
                member,
            ).fetchall()
        return {int(r[0]): str(r[1]) for r in rows}

    def lines(self, room: str) -> list[Line]:
        """Every line of the room, oldest first (muted or not: what the store keeps)."""
        with self.store.transaction() as run:
            rows = run(
                "SELECT c.id, c.room, c.member, a.name, c.text, c.at, c.game "
                "FROM chat_lines c JOIN accounts a ON a.id = c.member WHERE c.room = ? "
                "ORDER BY c.id",
                room,
            ).fetchall()
        return [_line(row) for row in rows]


def _line(row: Any) -> Line:
    game = None if row[6] is None else int(row[6])
    at = float(row[5])
    return Line(int(row[0]), str(row[1]), int(row[2]), str(row[3]), str(row[4]), at, game)


BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The direction overrides and isolates: a line may not turn the next ones' text around."""


def tidy(text: str) -> str:
    """A line as kept: its spaces, line breaks, control characters and direction overrides
    collapsed to one space (joiners stay: an emoji made of several is one)."""
    kept = (" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI else c for c in text)
    return " ".join("".join(kept).split())


class Chat:
    """The rooms of one server: who listens where, the rate of each member, the mutes."""

    def __init__(self, bank: Bank, clock: Clock, limits: Limits) -> None:
        self.bank = bank
        self.book = ChatStore(bank.store)
        self.limits = limits
        self.quota = Quota(clock, limits.chat_period, limits.chat_lines)
        self.rooms: dict[str, dict[Post, Viewer]] = {}
        self.mutes: dict[int, dict[int, str]] = {}
        """What each listening member mutes (id → name), as the store has it."""

    async def join(self, room: str, viewer: Viewer, post: Post) -> None:
        """A socket of ``room`` opened: it is sent the room's last lines, then every new one."""
        self.rooms.setdefault(room, {})[post] = viewer
        if viewer.member is not None and viewer.member not in self.mutes:
            self.mutes[viewer.member] = await self.bank.call(self.book.muted_by, viewer.member)
        await self._reset(room, viewer, post)

    def leave(self, room: str, post: Post) -> None:
        """The socket closed."""
        viewer = self.rooms.get(room, {}).pop(post, None)
        if not self.rooms.get(room, True):
            del self.rooms[room]
        if viewer is not None and viewer.member is not None and not self._listening(viewer.member):
            self.mutes.pop(viewer.member, None)

    def _listening(self, member: int) -> bool:
        return any(v.member == member for room in self.rooms.values() for v in room.values())

    async def receive(
        self, room: str, post: Post, message: dict[str, Any], game: int | None = None
    ) -> None:
        """A chat message of a socket of ``room`` (``game``: the hand under way there)."""
        viewer = self.rooms.get(room, {}).get(post)
        if viewer is None:
            return
        if viewer.member is None:
            self._refuse(viewer, post, "readers_only")
        elif "text" in message:
            await self._say(room, viewer.member, viewer, post, message["text"], game)
        elif "mute" in message or "unmute" in message:
            on = "mute" in message
            other = message.get("mute" if on else "unmute")
            if isinstance(other, int) and not isinstance(other, bool) and 0 < other < 2**62:
                await self.bank.call(self.book.mute, viewer.member, other, on)
                self.mutes[viewer.member] = await self.bank.call(self.book.muted_by, viewer.member)
                await self._reset_member(viewer.member)

    async def _say(
        self, room: str, member: int, viewer: Viewer, post: Post, said: Any, game: int | None
    ) -> None:
        text = tidy(said) if isinstance(said, str) else ""
        if not text:
            return
        if len(text) > self.limits.chat_length:
            self._refuse(viewer, post, "chat_long", count=self.limits.chat_length)
            return
        if self.quota.admit(member) is None:
            LOG.info("chat: member %d over the chat's rate in %s", member, room)
            self._refuse(
                viewer,
                post,
                "chat_fast",
                lines=self.limits.chat_lines,
                seconds=int(self.limits.chat_period),
            )
            return
        line = await self.bank.call(self.book.add, room, member, text, game)
        for other, listener in list(self.rooms.get(room, {}).items()):
            if listener.member is None or member not in self.mutes.get(listener.member, {}):
                _post(other, {"type": "chat", "lines": [_shown(line, listener)]})

    def _refuse(self, viewer: Viewer, post: Post, key: str, **values: object) -> None:
        said = words({key: CHAT[key]}, viewer.lang)[key]
        _post(post, {"type": "chat", "refused": fill(said, viewer.lang, **values)})

    async def _reset(self, room: str, viewer: Viewer, post: Post) -> None:
        lines = await self.bank.call(self.book.recent, room, viewer.member)
        muted = self.mutes.get(viewer.member, {}) if viewer.member is not None else {}
        _post(
            post,
            {
                "type": "chat",
                "reset": True,
                "member": viewer.member is not None,
                "length": self.limits.chat_length,
                "lines": [_shown(line, viewer) for line in lines],
                "muted": [{"member": k, "name": v} for k, v in muted.items()],
                "words": words(CHAT, viewer.lang),
            },
        )

    async def _reset_member(self, member: int) -> None:
        for room, listeners in list(self.rooms.items()):
            for post, viewer in list(listeners.items()):
                if viewer.member == member:
                    await self._reset(room, viewer, post)


def _shown(line: Line, viewer: Viewer) -> dict[str, Any]:
    shown = asdict(line)
    del shown["room"]
    shown["mine"] = line.member == viewer.member
    return shown


def _post(post: Post, data: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError):  # dropped: its socket is closing, says why
        post(data)
