"""The statistics table: the seed's rows, our layout (locked by a snapshot), exact percentages."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from casino.videopoker.paytable import PayLine
from casino.videopoker.stats import Statistics, percent, render_table


def test_percent_is_exact_and_rounds_half_up() -> None:
    assert percent(10000, 10000) == "100.00"
    assert percent(1, 8) == "12.50"
    assert percent(1, 3) == "33.33"
    assert percent(2, 3) == "66.67"
    assert percent(1, 40000) == "0.00"  # 0.0025 %
    assert percent(1, 20000) == "0.01"  # 0.005 %: half a hundredth rounds up
    assert percent(40676, 10000) == "406.76"
    assert percent(0, 7) == "0.00"


def test_rows_sum_four_of_a_kind_and_count_losses_as_other() -> None:
    stats = Statistics(100)
    for line, bet, payout in [
        (PayLine.FOUR_ACES, 5, 800),
        (PayLine.FOUR_2_4, 1, 80),
        (PayLine.FOUR_5_K, 1, 50),
        (PayLine.NOTHING, 5, 0),
        (PayLine.FULL_HOUSE, 2, 20),
    ]:
        stats.record(line, bet, payout)
    rows = dict(stats.rows())
    assert rows["Four of a Kind"] == 3 and rows["Other"] == 1 and rows["Full house"] == 1
    assert rows["Total"] == 5 == stats.deals
    assert stats.credit == 100 - 14 + 950


def test_table_layout(snapshot: SnapshotAssertion) -> None:
    empty = Statistics(10000)
    assert "\n".join(render_table(empty, 10000)) == snapshot
    busy = Statistics(10000)
    busy.add_counts({PayLine.JACKS_OR_BETTER: 190_123, PayLine.NOTHING: 550_000}, 5, 0)
    assert "\n".join(render_table(busy, 9_995)) == snapshot


def test_every_line_has_the_label_column_then_right_aligned_numbers() -> None:
    lines = render_table(Statistics(50), 1234567)
    assert [line[:15].rstrip() for line in lines] == [
        "Hand",
        "Jacks or Better",
        "Two Pair",
        "Three of a Kind",
        "Straight",
        "Flush",
        "Full house",
        "Four of a Kind",
        "Straight Flush",
        "Royal Flush",
        "Other",
        "Total",
        "Credit",
    ]
    assert lines[0] == "Hand" + " " * 17 + "Nb"
    assert lines[-1] == "Credit          1234567 (2469134.00%)"
