"""The documents write an owned server off in equal parts with no interest; where the catalog holds the
company country's rate on new loans to companies, the memo says what borrowing the price would add."""

from __future__ import annotations

import pytest
from helpers import run
from test_next_server import IN_HOUSE

from gpu_advisor.engine.calc.own_hardware import financing_usd_per_month
from gpu_advisor.engine.present.memo import render_memo


def test_a_loan_s_monthly_payment_above_the_straight_line() -> None:
    # $285,000 at 3.51 % a year, 36 monthly payments: r = 0.0029250, payment = P r / (1 - (1 + r)^-36)
    # = $8,352.35, against $7,916.67 written off a month: $435.69 more, 5.5 %.
    r = 0.0351 / 12
    payment = 285_000 * r / (1 - (1 + r) ** -36)
    assert payment == pytest.approx(8352.35, abs=0.01)
    assert financing_usd_per_month(285_000, 0.0, 36, 0.0351) == pytest.approx(payment - 285_000 / 36)
    assert financing_usd_per_month(285_000, 0.0, 36, 0.0351) == pytest.approx(435.69, abs=0.01)
    # A resale value left to repay at the end: the straight line writes off less, the loan pays interest
    # on the whole price.
    with_resale = financing_usd_per_month(285_000, 0.3, 36, 0.0351)
    assert with_resale > financing_usd_per_month(285_000, 0.0, 36, 0.0351)


def test_the_memo_says_what_financing_the_servers_would_add_where_a_rate_is_known() -> None:
    result = run(IN_HOUSE)
    own = result.own_hardware
    assert own.nodes == 2 and own.financing_usd_per_month == pytest.approx(2 * 435.69, abs=0.02)
    assert (
        "- The capital line writes the servers off in equal parts with no interest. Borrowed at 3.51 % a "
        "year "
        "(the euro area's cost of borrowing for new loans to corporations, October 2025, a euro-area figure; "
    ) in render_memo(result)
    assert (
        "and repaid over the same 36 months, they would cost about $871 a month more for the 2 servers (6 % "
        "of the capital line)."
    ) in render_memo(result)
    # No Swiss rate in the catalog: nothing is said, and the JSON has none.
    swiss = run({**IN_HOUSE, "company_country": "CH"})
    assert swiss.own_hardware.financing_usd_per_month is None
    assert "The capital line writes" not in render_memo(swiss)
