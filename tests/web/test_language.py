"""One language at a time on the server's side: numbers and dollars written for the member's
language (as the pages' ``Intl.NumberFormat``), in the tables' logs and the members' pages;
every error the server can send (a page or a socket's ``error``) in Spanish by default and
from the ``web`` catalog, never an English literal."""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp import DummyCookieJar, WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer

from casino.clock import FakeClock
from casino.domino.money import Ledger, settle_hand
from casino.domino.rules import MEMBER, Finish, Result
from casino.holdem.engine import Hand
from casino.holdem.view import blind_posts
from casino.i18n import translator
from casino.web import pages
from casino.web.app import WebServer
from casino.web.bank import Bank
from casino.web.domino import DominoGame
from casino.web.guard import Limits
from casino.web.holdem import WebTable
from casino.web.holdemlog import line_text
from casino.web.holdemseats import TableSettings
from casino.web.sessions import COOKIE
from casino.web.store import HistoryEntry, Member
from casino.web.words import fill, money, number

from .forms import PASSWORD, post_form, register, temporary_store

WEB = Path(pages.__file__).parent
NBSP = "\u00a0"


# --- numbers and dollars -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "es", "en"),
    [
        (0, "0", "0"),
        (999, "999", "999"),
        (1250, "1250", "1,250"),  # Spanish groups from five digits
        (10000, "10.000", "10,000"),
        (1234567, "1.234.567", "1,234,567"),
        (-12500, "-12.500", "-12,500"),
    ],
)
def test_a_number_in_each_language(value: int, es: str, en: str) -> None:
    assert (number(value, "es"), number(value, "en")) == (es, en)


@pytest.mark.parametrize(
    ("value", "es", "en"),
    [
        (10, f"10{NBSP}US$", "$10"),
        (1250, f"1250{NBSP}US$", "$1,250"),
        (12500, f"12.500{NBSP}US$", "$12,500"),
        (-1250, f"-1250{NBSP}US$", "-$1,250"),
    ],
)
def test_dollars_in_each_language(value: int, es: str, en: str) -> None:
    assert (money(value, "es"), money(value, "en")) == (es, en)


def test_a_message_is_filled_with_dollars_numbers_and_words() -> None:
    template = "{name}: ${stake} · {count} · {flag}"
    assert fill(template, "es", name="Ana", stake=12500, count=10000, flag=True) == (
        f"Ana: 12.500{NBSP}US$ · 10.000 · True"
    )
    assert fill(template, "en", name="Ana", stake=12500, count=10000, flag=True) == (
        "Ana: $12,500 · 10,000 · True"
    )


# --- the tables' logs --------------------------------------------------------------------


def test_the_holdem_log_writes_chips_for_the_language() -> None:
    hand = Hand.deal([50000, 50000], 0, (5, 10), list(range(52)))
    posts = blind_posts(hand)
    raised = hand.bet_or_raise(12500)
    hand.fold()
    names = ("Ana", "Bo")
    lines = {
        lang: [
            line_text(translator("holdem", lang), "ACTION", (raised, "Ana"), lang),
            line_text(translator("holdem", lang), "SHOWDOWN", (hand, names), lang),
            line_text(translator("holdem", lang), "BLINDS", (posts, ("Ana", "Bo (bot)")), lang),
            line_text(
                translator("holdem", lang),
                "--- Hand {number} · button: {name} ---",
                (12345, "Ana"),
                lang,
            ),
        ]
        for lang in ("es", "en")
    }
    assert lines["es"] == [
        "Ana: sube a 12.500",
        "Ana: recupera 12.490 (no igualado)\nAna: gana 20 (el bote)",
        "Ana: ciega pequeña 5\nBo (bot): ciega grande 10",
        "--- Mano 12345 · botón: Ana ---",
    ]
    assert lines["en"] == [
        "Ana: raises to 12,500",
        "Ana: gets back 12,490 (uncalled)\nAna: wins 20 (the pot)",
        "Ana: small blind 5\nBo (bot): big blind 10",
        "--- Hand 12345 · button: Ana ---",
    ]
    last = {lang: WebTable._last_said(raised, translator("holdem", lang), lang) for lang in lines}
    assert last == {"es": "sube a 12.500", "en": "raises to 12,500"}  # under the seat


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "es",
            [
                "--- Mano 12345 ---",
                f"Ganas la mano y 10{NBSP}US$.",
                f"Saldos: tú 12.510{NBSP}US$, la computadora 12.490{NBSP}US$.",
            ],
        ),
        (
            "en",
            [
                "--- Hand 12345 ---",
                "You win the hand and $10.",
                "Bankrolls: you $12,510, the computer $12,490.",
            ],
        ),
    ],
)
def test_the_dominoes_log_writes_dollars_for_the_language(lang: str, said: list[str]) -> None:
    with temporary_store() as store:
        game = DominoGame("Zoe", lang, 1, Bank(store), FakeClock(), 1)
        game.say("--- Hand {number} ---", number="12345")
        settle_hand(Ledger.even(12500), Result(MEMBER, Finish.DOMINO, (0, 9)), game.say)
    assert game.log == said


# --- the members' pages ------------------------------------------------------------------


def test_the_member_page_writes_every_amount_for_the_language() -> None:
    zoe = Member(1, "Zoe", 12500)
    history = [
        HistoryEntry(7, "holdem", "table 1", 0.0, 1000, 11000, "settled"),
        HistoryEntry(8, "domino", "dominoes", 60.0, 10, 0, "settled"),
    ]
    leaders = [zoe, Member(2, "Bo", 1000)]
    spanish = text_of(pages.member_page("es", zoe, history, leaders))
    assert f"Saldo: 12.500{NBSP}US$" in spanish
    assert f"Texas Hold'em | 1000{NBSP}US$ | 11.000{NBSP}US$ | ganaste 10.000{NBSP}US$" in spanish
    assert f"Dominó | 10{NBSP}US$ | 0{NBSP}US$ | perdiste 10{NBSP}US$" in spanish
    assert f"Zoe: 12.500{NBSP}US$ | Bo: 1000{NBSP}US$" in spanish
    english = text_of(pages.member_page("en", zoe, history, leaders))
    assert "Bankroll: $12,500" in english
    assert "1970-01-01 00:00 | Texas Hold'em | $1,000 | $11,000 | won $10,000" in english
    assert "Zoe: $12,500 | Bo: $1,000" in english
    lobby = pages.lobby("es", "token", zoe)
    assert f'saldo <data id="balance" value="12500">12.500{NBSP}US$</data>' in lobby


def test_a_member_page_with_its_most_rows_is_under_100_kb_with_its_stylesheet() -> None:
    zoe = Member(1, "Zoe", 12500)
    history = [HistoryEntry(k, "holdem", "t", 0.0, 1000, 1000 + k, "settled") for k in range(50)]
    page = pages.member_page(
        "es", zoe, history, [Member(k, f"M{k}" * 12, 10**9) for k in range(10)]
    )
    assert not re.search(r'(?:href|src)="(?:https?:)?//', page)  # nothing from another site
    weight = len(page.encode()) + (WEB / "static" / "casino.css").stat().st_size
    assert 20_000 < weight < 100_000


def text_of(page: str) -> str:
    """A page's text as a person reads it: its cells and items apart (`` | ``)."""
    cells = re.sub(r"</t[dh]>|</li>", " | ", page)
    return html.unescape(re.sub(r"[ \n]+", " ", re.sub(r"<[^>]+>", "", cells)))


# --- every error the server can send -----------------------------------------------------


def serve(body: Any, limits: Limits | None = None) -> None:
    """``body(client)`` against a server of two-seat tables (a FakeClock)."""
    settings = TableSettings(seats=2, pause=0, bot_delay=0, samples=10)
    with temporary_store() as store:
        server = WebServer(settings, 1, 3, FakeClock(), b"l" * 32, limits, store=store)

        async def run() -> None:
            async with TestClient(TestServer(server.app()), cookie_jar=DummyCookieJar()) as c:
                await asyncio.wait_for(body(c), 60)

        asyncio.run(run())


def problem(page: str) -> str:
    """What an error page says (its alert), checked to be a page of the casino."""
    assert page.startswith("<!doctype html>") and 'href="/static/casino.css"' in page
    found = re.search(r'<p id="problem" role="alert">([^<]+)</p>', page)
    assert found is not None, page
    return found.group(1)


def test_every_error_page_is_in_spanish_by_default_and_in_english_when_chosen() -> None:
    async def body(client: TestClient[Any, Any]) -> None:
        said = {}
        for path, method in [("/nowhere", "GET"), ("/static/nothing.css", "GET")]:
            response = await client.request(method, path)
            said[response.status] = problem(await response.text())
        response = await client.get("/logout")
        assert response.headers["Allow"] == "POST"
        said[response.status] = problem(await response.text())
        response = await client.post("/login", data={"name": "Zoe"})  # no CSRF token
        said[response.status] = problem(await response.text())
        assert said == {
            404: "Esa página no existe.",
            405: "El casino no puede hacer eso: vuelve al vestíbulo.",
            403: "el formulario ha caducado: vuelve a abrir el vestíbulo",
        }
        english = await client.get("/nowhere?lang=en")
        assert problem(await english.text()) == "There is no such page."
        english = await client.post("/login?lang=en", data={"name": "Zoe"})
        assert problem(await english.text()) == "the form has expired: open the lobby again"

    serve(body)


def test_an_unexpected_failure_is_a_page_in_the_members_language_and_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_: object) -> str:
        raise RuntimeError("a bug in the casino")

    monkeypatch.setattr(pages, "account_form", broken)

    async def body(client: TestClient[Any, Any]) -> None:
        said = {}
        for lang in ("es", "en"):
            response = await client.get(f"/login?lang={lang}")
            said[lang] = (response.status, problem(await response.text()))
        assert said == {
            "es": (500, "Algo ha fallado en el casino. Inténtalo de nuevo."),
            "en": (500, "Something went wrong in the casino. Try again."),
        }

    serve(body)
    failures = [r for r in caplog.records if r.getMessage() == "GET /login failed"]
    assert len(failures) == 2 and all(r.exc_info for r in failures)


def test_the_limits_refusals_are_in_spanish() -> None:
    async def body(client: TestClient[Any, Any]) -> None:
        await register(client, "Zoe", "es")  # the only session there may be
        form = {"name": "Bo", "password": PASSWORD, "lang": "es"}
        full = await post_form(client, "/register", form)
        assert full.status == 503
        assert problem(await full.text()) == "el casino está lleno: inténtalo más tarde"
        busy = await post_form(client, "/login", form)
        assert busy.status == 429
        assert (
            problem(await busy.text()) == "demasiadas entradas desde tu dirección: espera un minuto"
        )

    serve(body, Limits(sessions=1, join_burst=2, join_rate=0.001))


def test_every_socket_error_is_in_the_members_language() -> None:
    async def body(client: TestClient[Any, Any]) -> None:
        nobody = await client.ws_connect("/ws/holdem")
        assert json.loads(await nobody.receive_str()) == {
            "type": "error",
            "reason": "no hay sesión: entra desde el vestíbulo",
        }
        await nobody.close()
        sockets = []
        for name in ["Zoe", "Bo"]:  # the table's two seats
            cookie = await register(client, name, "es")
            ws = await client.ws_connect("/ws/holdem", headers={"Cookie": f"{COOKIE}={cookie}"})
            while json.loads(await ws.receive_str())["type"] != "state":
                pass
            sockets.append(ws)
        for lang, reason in [("es", "no hay ningún asiento libre"), ("en", "no free seat")]:
            cookie = await register(client, f"Cy{lang}", lang)
            late = await client.ws_connect("/ws/holdem", headers={"Cookie": f"{COOKIE}={cookie}"})
            assert json.loads(await late.receive_str()) == {"type": "error", "reason": reason}
            await late.close()
        for ws in sockets:
            await ws.close()
        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect("/ws/holdem", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403

    serve(body)


def test_no_english_literal_reaches_a_member_from_the_server() -> None:
    """The server's refusals and socket errors are catalog ids (every one of them is in the
    Spanish catalog: test_catalog); a literal reason or page text would be English."""
    spanish = translator("web", "es")
    for source in WEB.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert not re.search(r'"reason": "', text), source.name
        for message in re.findall(r'text="([^"]+)"', text):
            assert spanish.gettext(message) != message, (source.name, message)
        assert not re.search(r"text=f?'|text=f\"", text), source.name
