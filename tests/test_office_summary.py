"""The summary of an own-hardware decision names the cost lines it counts: a machine in an office has no
housing or staff line, so its summary says capital and power only (it said 'housing and staff' beside
$0 lines)."""

from __future__ import annotations

from helpers import run

from gpu_advisor.engine.i18n.formats import Format
from gpu_advisor.engine.present.memo import render_memo

HR_CHAT = {
    "name": "hr-chat-8b",
    "model": {"name": "llama-3.1-8b", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 250,
    "personal_data": True,
    "company_country": "DE",
    "latency_sensitive": True,
    "on_premises_required": True,
}


def summary_line(memo: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(("Recommendation:", "Empfehlung:")))


def test_an_office_workstation_is_summarised_by_capital_and_power() -> None:
    result = run(HR_CHAT)
    assert result.own_hardware.costs is not None and result.own_hardware.costs.housing == "office"
    assert summary_line(render_memo(result)) == (
        "Recommendation: **Own hardware**, 2 × RTX 5090 workstation (2 × rtx-5090), **$310 per month** in "
        "capital and power, whether busy or not (a machine in an office: no housing or staff line)."
    )
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert summary_line(german) == (
        "Empfehlung: **Eigene Hardware**, 2 × RTX-5090-Workstation (2 × rtx-5090), **310 $ pro Monat** für "
        "Kapital und Strom, ob ausgelastet oder nicht (ein Rechner im Büro: ohne Posten für Unterbringung "
        "und Personal)."
    )


def test_a_server_in_a_rack_is_summarised_with_housing_and_staff() -> None:
    result = run({**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}})
    assert result.own_hardware.costs is not None and result.own_hardware.costs.housing == "in_house"
    assert summary_line(render_memo(result)).endswith(
        "per month** in capital, power, housing and staff, whether busy or not."
    )


def capital_line(memo: str) -> str:
    return next(line for line in memo.splitlines() if "bought up front" in line or "vorab gekauft" in line)


def test_the_summary_states_what_is_bought_up_front() -> None:
    # Two RTX 5090 at their launch price of $1,999: $3,998, the host machine not included.
    office = run(HR_CHAT)
    assert office.own_hardware.nodes == 2 and office.own_hardware.capital_usd == 2 * 1_999
    assert capital_line(render_memo(office)) == (
        "The cards are bought up front: $3,998 (2 × $1,999, the cards alone; the machines they go into are "
        "taken to stand ready), written off over 36 months."
    )
    # One HGX H100 node at the catalog's $285,000.
    rack = run({**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}})
    assert rack.own_hardware.nodes == 1 and rack.own_hardware.capital_usd == 285_000
    assert capital_line(render_memo(rack)) == (
        "The server is bought up front: $285,000, written off over 36 months."
    )
    german = render_memo(rack, Format("de", "USD", rack.exchange_rate_usd_per_eur))
    assert capital_line(german) == "Der Server wird vorab gekauft: 285.000 $, abgeschrieben über 36 Monate."


def test_two_servers_bought_up_front_are_summed() -> None:
    # Business-critical: the spare replica runs on a second server (SIZ015), 2 × $285,000.
    result = run(
        {**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "business_critical": True}
    )
    assert result.own_hardware.nodes == 2
    assert capital_line(render_memo(result)) == (
        "The servers are bought up front: $570,000 (2 × $285,000), written off over 36 months."
    )


def test_a_rental_decision_states_no_purchase() -> None:
    result = run({**HR_CHAT, "on_premises_required": False, "personal_data": False})
    assert result.decision.deployment != "own_hardware"
    assert "bought up front" not in render_memo(result)


def test_a_server_whose_staff_is_not_costed_says_so_in_the_summary() -> None:
    # The catalog has no sourced salary for France: the staff line is $0, and the summary names the lines
    # it does count and how to add staff, instead of 'capital, power, housing and staff'.
    result = run({**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "company_country": "FR"})
    staff = next(line for line in result.own_hardware.costs.lines if line.line == "staff")
    assert staff.origin == "not_costed" and staff.usd_per_month == 0
    assert summary_line(render_memo(result)).endswith(
        "per month** in capital, power and housing, whether busy or not. Staff is not in that figure: the "
        "catalog has no sourced salary for FR, so owning costs more than it says; enter your staff cost as "
        "`own_server: staff_usd_per_month` in an overrides file (`--overrides`)."
    )
    # A memo in EUR names the field an overrides file takes in EUR.
    in_eur = render_memo(result, Format.named("en", "EUR"))
    assert "enter your staff cost as `own_server: staff_eur_per_month` in an overrides file" in in_eur


BINDS = (
    "That binds for the 36 months of the write-off, as the 1- to 3-year reservations PRC004 keeps out for a "
    "load that is not steady would bind: buying pays where the load stays at this level for that time."
)


def test_buying_for_a_load_that_is_not_steady_says_it_binds_as_a_reservation_would() -> None:
    # A variable 405B service in the US: reservations are kept out (PRC004), and five owned nodes (four
    # replicas for the peak and a spare) are the decision, bought for a 36-month write-off. One more server
    # costs the documents' $9,554 a month and the US staff line's $377 (5 % of $90,520 a year).
    service = {
        "name": "us-saas-405b",
        "model": {"name": "llama-3.1-405b", "precision": "fp8"},
        "requests_per_day": 200_000,
        "avg_input_tokens": 1000,
        "avg_output_tokens": 300,
        "load_pattern": "variable",
        "max_time_to_first_token_ms": 800,
        "max_time_per_output_token_ms": 50,
        "business_critical": True,
        "company_country": "US",
    }
    variable = run(service)
    assert variable.decision.deployment == "own_hardware" and "PRC004" in variable.fired_rules
    lines = render_memo(variable).splitlines()
    # After the capital, the room the servers leave to grow (no API is compared here, and the Summary
    # says it all the same), the GPUs on which the load needs fewer cards and whose servers the catalog
    # does not price (H200, B200, MI300X), then the binding.
    after = lines.index(capital_line("\n".join(lines)))
    assert variable.charts.api_versus_self_hosted is None
    # The peak, 6.80 requests/s at 200,000 a day, takes 4 replicas within 50 ms a token, not 3: a replica
    # carries 2.17 requests/s within it, 32.5 sequences decoding, whose steps without a prompt all-reduce
    # 32.5 tokens (532,000 elements), at 0.18 of the link on 8 cards, not 0.41. The four keep the target
    # up to 4 x 2.17 / 6.80 x 200,000 = 255,800 requests a day, said to within 2 % and rounded down (2.20
    # requests/s and 257,000 when every output token took a decode step at the bandwidth share of 0.87).
    assert lines[after + 1] == (
        "They hold the load up to about 254,000 requests a day (27 % more than today's); beyond that one "
        "more server is needed: $9,932 a month more and $285,000 up front."
    )
    assert lines[after + 2].startswith(
        "That figure is for h100-sxm. The catalog prices no server of h200, b200, mi300x"
    )
    assert lines[after + 3] == BINDS
    german = render_memo(variable, Format("de", "USD", variable.exchange_rate_usd_per_eur))
    assert "Das bindet für die 36 Monate der Abschreibungsdauer" in german
    # Steady, or on premises (where no rental binds either way): no such sentence.
    steady = run({**service, "load_pattern": "steady"})
    assert "PRC004" not in steady.fired_rules and BINDS not in render_memo(steady)
    on_premises = run({**HR_CHAT, "load_pattern": "variable"})
    assert on_premises.decision.deployment == "own_hardware" and "PRC004" in on_premises.fired_rules
    assert BINDS not in render_memo(on_premises)


def test_a_country_without_cost_defaults_says_its_power_and_housing_are_the_documents() -> None:
    """A Polish company's owned servers: no salary, and the power price and the rack are the documents' US
    figures, which only the Assumptions section said."""
    result = run({**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "company_country": "NO"})
    assert result.decision.deployment == "own_hardware"
    memo = render_memo(result).splitlines()
    line = memo.index(summary_line("\n".join(memo)))
    assert memo[line + 1] == (
        "For this server, the power price and the rack are the documents' US figures: the catalog has none "
        "for NO (see Assumptions); give your own in an overrides file (`--overrides`)."
    )
    german = render_memo(result, Format("de", "USD", result.exchange_rate_usd_per_eur))
    assert "Für diesen Server gelten für den Strompreis und das Rack die US-Zahlen der Dokumente" in german
    # A US company's power and rack are the documents' figures, which are its country's: nothing to say.
    us = run({**HR_CHAT, "model": {"name": "llama-3.1-70b", "precision": "fp8"}, "company_country": "US"})
    assert us.decision.deployment == "own_hardware"
    assert {(line.line, line.origin, line.country) for line in us.own_hardware.costs.lines} >= {
        ("power", "documents", "US"),
        ("rack", "documents", "US"),
    }
    assert "For this server," not in render_memo(us)
