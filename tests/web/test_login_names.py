"""Log-in that tells nothing of which names exist, and names that look like a computer
player's refused (issue 39's Low items)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.net.names import COMPUTER_MARK, BadName, check_name, computer_marked, skeleton
from casino.web.passwords import ScryptCost
from casino.web.store import StoreError

from .forms import PASSWORD, temporary_store


def test_an_unknown_name_costs_a_log_in_the_same_hash_as_a_known_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The time a log-in takes is its scrypt hash: one for a known name with a wrong
    password, one (of a dummy salt, at the store's cost) for a name nobody has — it used to
    be none, 80 ms against 6.3 s under load."""
    with temporary_store() as store:
        store.register("Zoe", PASSWORD)
        made: list[int] = []
        digest = ScryptCost.digest

        def counted(cost: ScryptCost, password: str, salt: bytes) -> bytes:
            made.append(cost.n)
            return digest(cost, password, salt)

        monkeypatch.setattr(ScryptCost, "digest", counted)
        for name in ["Zoe", "Nobody"]:
            with pytest.raises(StoreError, match="wrong name or password"):
                store.login(name, "not the password")
        store.login("Zoe", PASSWORD)
        assert made == [store.cost.n] * 3


@pytest.mark.parametrize(
    "name",
    ["Ana (bοt)", "Ana (b0t)", "Ana [bot]", "Ana{BOT}", "Ana ⟨bot⟩", "Ana <b0t>", "Ana (bót)",
     "Ana (вот)", "Ana (b_o-t)", "Ana（ｂｏｔ）", "Ana (ʙᴏᴛ)"],
)  # fmt: skip
def test_look_alikes_of_the_computer_mark_are_a_computer_players(name: str) -> None:
    assert skeleton(name).endswith("(bot)") and computer_marked(name)
    with pytest.raises(BadName, match="computer player"):
        check_name(name.replace(" ", ""))  # the line server's names (no spaces)


@pytest.mark.parametrize("name", ["Ana", "Zoë", "Robot", "Ana bot", "Abbott (B)", "Bo (tt)"])
def test_names_that_only_share_letters_with_the_mark_are_peoples(name: str) -> None:
    assert not computer_marked(name)


def test_the_skeleton_of_a_name() -> None:
    assert skeleton("Ana [B0T]") == "ana(bot)"
    assert skeleton("José Núñez") == "josenunez"
    assert skeleton(f"Ana {COMPUTER_MARK}") == "ana(bot)"


@given(st.text(min_size=1, max_size=12))
def test_a_name_marked_by_any_look_alike_spacing_or_case_is_refused(first: str) -> None:
    for mark in ["(bot)", "(BOT)", "[b0t]", "( b ο t )"]:
        assert computer_marked(f"{first} {mark}")
