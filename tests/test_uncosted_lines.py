"""An owned server's cost line that is zero because it is unknown (``not_costed``: the staff of a country
the catalog has no sourced salary for) is told apart from one that is zero because the server needs none
(``none``: colocation beside a rack, an office machine's housing and staff), in the JSON of ``tco`` and
``recommend``, and in the text and the memo, which show no amount for the unknown one."""

from __future__ import annotations

import json

from helpers import invoke

NO_CHAT = {
    "name": "no-chat",
    "model": {"name": "llama-3.1-70b", "precision": "fp8"},
    "requests_per_day": 20_000,
    "avg_input_tokens": 800,
    "avg_output_tokens": 250,
    "personal_data": True,
    "company_country": "NO",
    "latency_sensitive": True,
    "on_premises_required": True,
}


def tco_costs(*args: str) -> dict:
    result = invoke("tco", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["costs"]


def origins(costs: dict) -> list[tuple[str, str, float]]:
    return [(line["line"], line["origin"], round(line["usd_per_month"], 2)) for line in costs["lines"]]


def test_staff_without_a_sourced_salary_is_not_costed_and_colocation_beside_a_rack_is_none() -> None:
    costs = tco_costs("--country", "NO")
    assert costs["staff_uncosted"] is True
    assert origins(costs) == [
        ("power", "documents", 637.73),
        ("rack", "documents", 1000.0),
        ("colocation", "none", 0.0),
        ("staff", "not_costed", 0.0),
    ]


def test_a_country_with_a_salary_costs_its_staff() -> None:
    costs = tco_costs("--country", "DE")
    assert costs["staff_uncosted"] is False
    assert origins(costs) == [
        ("power", "country", 1256.37),
        ("rack", "none", 0.0),
        ("colocation", "country", 1581.94),
        ("staff", "country", 252.3),
    ]


def test_an_office_machine_needs_no_staff_line_which_is_no_gap() -> None:
    costs = tco_costs("--gpu", "rtx-5090", "--country", "NO")
    assert (costs["housing"], costs["staff_uncosted"]) == ("office", False)
    assert [(line, origin) for line, origin, _ in origins(costs)] == [
        ("power", "documents"),
        ("rack", "none"),
        ("colocation", "none"),
        ("staff", "none"),
    ]


def test_your_staff_figure_costs_the_line_where_the_catalog_has_none() -> None:
    costs = tco_costs("--country", "NO", "--staff-usd-per-month", "300")
    assert costs["staff_uncosted"] is False
    assert origins(costs)[3] == ("staff", "yours", 300.0)


def test_the_tco_text_shows_no_amount_for_staff_not_costed() -> None:
    result = invoke("tco", "--country", "NO")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "  colocation  $0.00   ($0/month: none: housed in a rack)" in lines
    assert "  staff       \u2013       (not costed: no sourced salary for NO)" in lines
    german = invoke("tco", "--country", "NO", "--lang", "de")
    assert (
        "  Personal    \u2013        (nicht berechnet: kein belegtes Gehalt für NO)"
        in german.output.splitlines()
    )


def test_the_us_defaults_are_named_for_the_country() -> None:
    """The US entry's power and rack are the documents' figures (their lines say so), its salary the
    BLS median wage: it was named "United States (the documents' figures)"."""
    result = invoke("tco", "--country", "US")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == "Cost defaults: US (United States)"
    assert tco_costs("--country", "US")["country_name"] == "United States"


def test_recommend_says_staff_is_not_costed_in_its_json_and_memo() -> None:
    workload = json.dumps(NO_CHAT)
    result = invoke("recommend", "-", "--as-of", "2026-11-30", "--format", "json", stdin=workload)
    assert result.exit_code == 0, result.output
    costs = json.loads(result.output)["own_hardware"]["costs"]
    assert costs["staff_uncosted"] is True
    assert [(line["line"], line["origin"]) for line in costs["lines"]][2:] == [
        ("colocation", "none"),
        ("staff", "not_costed"),
    ]
    memo = invoke("recommend", "-", "--as-of", "2026-11-30", stdin=workload)
    assert memo.exit_code == 0, memo.output
    assert "| Staff | \u2013 | \u2013 | not costed: no sourced salary for NO |" in memo.output.splitlines()
    # The headline adds the lines up: the uncosted one is no $0.00 in it (the documents' $0.11 power and
    # $0.17 rack, no colocation beside the rack).
    assert (
        "Per GPU-hour: $1.36 capital + $0.11 power + $0.17 rack + $0.00 colocation + \u2013 staff = **$1.64**"
        in memo.output
    )
