"""``gpu-advisor tco`` as users and scripts meet it: the JSON contract, overrides, a server of another card
count and refusals in the reader's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import invoke


def test_tco_json_contract() -> None:
    # The documents' own figures are the US defaults, with a staff line of 5 % of the US salary ($90,520 a
    # year, $377.17 a month) over the server's 8 cards x 730 hours: $0.0646 a GPU-hour.
    data = json.loads(invoke("tco", "--country", "US", "--format", "json").output)
    lines = data["usd_per_gpu_hour"]
    assert lines["staff"] == pytest.approx(90_520 * 0.05 / 12 / (8 * 730))
    assert [round(lines[k], 2) for k in ("capital", "power", "rack", "staff", "total")] == [
        1.36,
        0.11,
        0.17,
        0.06,
        1.70,
    ]
    # $1.7006 / $2.69 = 63 %.
    row = next(b for b in data["break_even"] if b["provider"] == "runpod" and b["offer"] == "community")
    assert (row["usd_per_gpu_hour"], round(row["utilization"], 2)) == (2.69, 0.63)
    assert data["overridden"] == []
    # Not against a figure the provider's own newer list replaces (KNB010), but against that list.
    offers = {(b["provider"], b["offer"]) for b in data["break_even"]}
    assert not {("aws", "p5-on-demand"), ("gcp", "a3-high-on-demand")} & offers
    assert {("aws", "p5-on-demand-2026-09"), ("gcp", "a3-high-on-demand-2026-07")} <= offers


def test_the_power_line_is_said_beside_a_measured_idle_draw() -> None:
    """The power line charges 8 x 700 W x 1.3 = 7.28 kW in every hour; an H100 holding a model with no
    request in flight drew 145.5 W (said as 146), which the line does not use: the text says both."""
    text = invoke("tco", "--country", "DE").output
    assert (
        "  - Power: the line charges each card's rated 700 W (times 1.3 for the rest of the server) in every "
        "hour of the month, busy or not, as the documents' line does. A card that holds the model with no "
        "request in flight draws far less: 146 W (mean of 7 H100 SXM (HBM3) in production"
    ) in text
    data = json.loads(invoke("tco", "--country", "DE", "--format", "json").output)
    costs = data["costs"]
    assert (costs["gpu_watts"], costs["idle_watts"], costs["node_kw"]) == (700.0, 145.5, 7.28)
    # The office card has no measured idle draw in the catalog (its memo says its idle draw is far less).
    office = invoke("tco", "--country", "DE", "--gpu", "rtx-5090")
    assert office.exit_code == 0
    power = "  power       $0.14   ($99/month: 0.575 kW × 730 h × $0.2364/kWh (default for DE))\n"
    assert power in office.output
    assert "draws far less" not in office.output
    # One card in a computer that stands already: no InfiniBand to leave out, and one launch price, not a
    # low and a high alike.
    assert "  total       $0.21   ($155/month; spares and the host computer not included)\n" in office.output
    assert "  list price      $1,999, resale value 0 %: capital $0.08, total $0.21\n" in office.output
    assert "high price" not in office.output and "low price" not in office.output


def test_tco_overrides() -> None:
    data = json.loads(invoke("tco", "--country", "US", "--server-price", "250000", "--format", "json").output)
    # $250,000 / 36 months / 5,840 GPU-hours = $1.189, with the power ($0.109), rack ($0.171) and US staff
    # ($0.065) lines: $1.534.
    assert round(data["usd_per_gpu_hour"]["total"], 3) == 1.534
    assert data["overridden"] == ["server_price_usd"]
    b200 = json.loads(invoke("tco", "--country", "US", "--gpu-watts", "1000", "--format", "json").output)
    assert round(b200["usd_per_gpu_hour"]["power"], 3) == round(1.0 * 1.3 * 0.12, 3)


def test_a_server_of_another_card_count_comes_with_its_price() -> None:
    """The catalog's $285,000 is the 8-GPU HGX H100's, cards included: spread over 4 cards it would double
    the capital per GPU-hour of a server nobody sells. With the 4-card server's price the heading names
    no catalog server: $150,000 over 36 months and 4 cards is 150,000 / (36 x 730 x 4) = $1.43 an hour."""
    refused = invoke("tco", "--country", "US", "--gpus-per-server", "4")
    assert refused.exit_code == 2
    assert "--gpus-per-server needs --server-price" in refused.output
    text = invoke("tco", "--country", "US", "--gpus-per-server", "4", "--server-price", "150000").output
    assert "Own server: your 4 x h100-sxm server at $150,000, written off over 36 months" in text
    assert "hgx-h100-8" not in text
    data = json.loads(
        invoke(
            "tco", "--country", "US", "--gpus-per-server", "4", "--server-price", "150000", "--format", "json"
        ).output
    )
    assert round(data["usd_per_gpu_hour"]["capital"], 4) == round(150_000 / (36 * 730 * 4), 4) == 1.4269
    # Neither the catalog server's name nor its $250,000-$320,000 range is the 4-card server's: only the
    # resale scenario, at the given price, is left.
    assert data["server"] is None
    assert [s["name"] for s in data["scenarios"]] == ["residual value"]
    assert "low price" not in text and "$250,000" not in text


def test_the_catalog_servers_own_card_count_needs_no_price() -> None:
    """--gpus-per-server 8 names the catalog server's own count: its price and name stay."""
    text = invoke("tco", "--country", "US", "--gpus-per-server", "8").output
    assert "Own server: hgx-h100-8 (8 x h100-sxm) at $285,000, written off over 36 months" in text
    assert "  low price       $250,000, resale value 0 %" in text


def test_your_price_for_the_catalog_server_replaces_its_range() -> None:
    """--server-price for the catalog's own 8-card server: the low- and high-price scenarios of the
    catalog's $250,000-$320,000 range are not the user's (one read $250,000 as the "low" price above the
    user's $240,000); the resale scenario is worked out at the user's price, as an overrides file's."""
    data = json.loads(invoke("tco", "--country", "US", "--server-price", "240000", "--format", "json").output)
    assert [(s["name"], s["server_price_usd"]) for s in data["scenarios"]] == [("residual value", 240_000)]


def test_a_server_of_another_gpu_is_compared_with_that_gpus_offers() -> None:
    """--gpu h200 with your server's price: the catalog prices no H200 server, so the default server's
    lines are taken with the H200's 700 W TDP, and the break-even is against H200 offers only. At the
    documents' US figures: $420,000 over 36 months and 8 cards is 420,000 / (36 x 730 x 8) = $1.998 an
    hour; power 0.7 kW x 1.3 x $0.12 = $0.109."""
    data = json.loads(
        invoke(
            "tco", "--country", "US", "--gpu", "h200", "--server-price", "420000", "--format", "json"
        ).output
    )
    assert (data["server"], data["gpu"], data["gpu_watts"]) == (None, "h200", 700)
    assert round(data["usd_per_gpu_hour"]["capital"], 4) == round(420_000 / (36 * 730 * 8), 4)
    assert round(data["usd_per_gpu_hour"]["power"], 3) == round(0.7 * 1.3 * 0.12, 3)
    assert {b["gpu"] for b in data["break_even"]} == {"h200"}
    assert data["power_source"] is not None and data["power_source"].startswith("NVIDIA")
    assert [(b["provider"], b["offer"]) for b in data["break_even"]][:2] == [
        ("runpod", "community"),
        ("ovhcloud", "h200-1920"),
    ]
    refused = invoke("tco", "--gpu", "h200")
    assert refused.exit_code == 2
    assert (
        "  --gpu needs --server-price, --server-price-eur or --server-price-chf: the catalog prices no "
        "server of h200; give your server's price" in refused.output
    )
    unknown = invoke("tco", "--gpu", "h900")
    assert unknown.exit_code == 2 and "--gpu: unknown value 'h900'; allowed: " in unknown.output
    assert "(did you mean 'h200'?)\n" in unknown.output


def test_a_gpu_the_catalog_prices_a_server_of_takes_that_server() -> None:
    """The RTX 5090 workstation has one card: its own count needs no price, eight would spread one card's
    price over eight."""
    text = invoke("tco", "--country", "US", "--gpu", "rtx-5090").output
    assert "Own server: workstation-rtx-5090 (1 x rtx-5090) at $1,999, written off over 36 months" in text
    own_count = invoke("tco", "--country", "US", "--gpu", "rtx-5090", "--gpus-per-server", "1").output
    assert "Own server: workstation-rtx-5090 (1 x rtx-5090) at $1,999" in own_count
    eight = invoke("tco", "--gpu", "rtx-5090", "--gpus-per-server", "8")
    assert eight.exit_code == 2
    assert (
        "--gpus-per-server needs --server-price, --server-price-eur or --server-price-chf: the catalog's "
        "price is its own server's" in eight.output
    )


def test_a_gpu_without_offers_says_so() -> None:
    text = invoke("tco", "--gpu", "mi300x", "--server-price", "300000").output
    assert "\nBreak-even: the catalog lists no mi300x offer to rent instead.\n" in text
    assert "Break-even against each" not in text


def test_tco_refusals_are_said_in_german_with_the_options_names() -> None:
    both = invoke("tco", "--months", "24", "--depreciation-years", "3", "--lang", "de")
    assert both.exit_code == 2
    assert "  geben Sie --months oder --depreciation-years an, nicht beides" in both.output
    priced = invoke("tco", "--gpus-per-server", "4", "--lang", "de").output
    assert (
        "  --gpus-per-server braucht --server-price, --server-price-eur oder --server-price-chf: Der Preis "
        "des Katalogs ist der seines " in priced
    )


def test_tco_text() -> None:
    text = invoke("tco", "--country", "US").output
    # The documents' $9,554 a month and the staff line's $377 (5 % of the US $90,520 a year).
    assert (
        "  staff       $0.06   ($377/month: 5 % of an engineer's salary of $90,520 a year (default for US))\n"
        "  total       $1.70   ($9,932/month; spares and InfiniBand not included)"
    ) in text
    assert "  runpod/community               on-demand       $2.69   63 %  (2026-10-10)" in text


def test_tco_says_the_exchange_rates_its_figures_pass_through() -> None:
    """105,000 CHF became $114,168 with no rate, source or date in the output, English or German."""
    swiss = invoke("tco", "--country", "CH")
    assert swiss.exit_code == 0, swiss.output
    assert (
        "Euro figures are converted at 1.16 USD per EUR (2025-12-31): gpu-advisor's assumption, a round "
        "figure near the ECB's reference rate of late 2025, not a published rate.\n"
    ) in swiss.output
    assert (
        "  - Swiss franc figures are converted at 0.9197 CHF per EUR (ECB euro reference rate" in swiss.output
    )
    data = json.loads(invoke("tco", "--country", "CH", "--format", "json").output)
    assert (data["currencies"], data["costs"]["chf_per_eur"], data["exchange_rate_usd_per_eur"]) == (
        ["CHF", "USD"],
        0.9197,
        1.16,
    )
    # The documents' US figures pass through no rate; a price quoted in euros does, and so do amounts shown
    # in euros.
    american = invoke("tco", "--country", "US")
    assert "converted at" not in american.output and "euros at" not in american.output
    shown = invoke("tco", "--country", "US", "--currency", "EUR")
    assert "Amounts are shown in euros at 1.16 USD per EUR (2025-12-31)" in shown.output
    quoted = invoke("tco", "--country", "US", "--server-price-eur", "250000")
    assert "Euro figures are converted at 1.16 USD per EUR" in quoted.output
    assert "Swiss franc" not in quoted.output


def test_a_memo_says_the_franc_rate_of_its_swiss_cost_defaults(tmp_path: Path) -> None:
    """The memo listed its franc figures (105,000 CHF a year of staff beside $552 a month) with no rate."""
    path = tmp_path / "ch.yaml"
    path.write_text(
        "name: ch\nmodel: {name: llama-3.1-8b, precision: fp8}\nrequests_per_day: 12000\n"
        "on_premises_required: true\ncompany_country: CH\n",
        encoding="utf-8",
    )
    memo = invoke("recommend", str(path), "--as-of", "2026-11-30").output
    assert "  - Power: 0.2604 CHF per kWh:" in memo
    assert "  - Swiss franc figures are converted at 0.9197 CHF per EUR (ECB euro reference rate" in memo
    german = invoke("recommend", str(path), "--as-of", "2026-11-30", "--lang", "de").output
    assert (
        "  - Franken-Beträge sind zu 0,9197 CHF je EUR umgerechnet (Euro-Referenzkurs der EZB, Schweizer "
        "Franken je Euro (über fetchseries) <https://www.fetchseries.com/" in german
    )
    # No franc, no line.
    assert "Swiss franc figures" not in invoke("tco", "--country", "DE").output


def test_a_capacity_block_s_break_even_is_a_share_of_the_month_s_days() -> None:
    """A capacity block is bought in whole days and paid up front for the days a run needs: every hour of
    those days is paid, not every hour of the month, so the break-even against it is the share of a
    month's days above which owning costs less. It read "29 %" as if owning paid off from 29 % busy
    against an offer paid by the hour, and then "price ratio 29 %" beside a header that said owning
    costs less at any utilization, while recommend bills blocks only for the days a batch runs."""
    text = invoke("tco", "--country", "AT").output
    flat = " ".join(text.split())
    assert "aws/p5-capacity-block capacity block $5.97 29 % of a month's days, bought in whole days" in flat
    assert (
        "a price ratio against a reservation, which is paid for every calendar hour of its term like the "
        "server (under 100 %: owning costs less at any utilization); against a capacity block, bought in "
        "whole days for the days it is used, the share of a month's days above which owning costs less"
    ) in flat
    german = " ".join(invoke("tco", "--country", "AT", "--lang", "de").output.split())
    assert "29 % der Tage eines Monats, in ganzen Tagen gekauft" in german


def test_break_evens_without_a_staff_figure_say_so_before_the_table() -> None:
    """France has no sourced salary: the staff line is $0 and every break-even is lower than it is, which
    the table now says where it starts; Germany's is costed, and nothing is said."""
    french = invoke("tco", "--country", "FR").output
    caveat = (
        "Staff is not costed here (no sourced salary for FR): each break-even below is lower than it is; "
        "give staff_usd_per_month (gpu-advisor tco --staff-usd-per-month) to include it.\nBreak-even "
        "against each h100-sxm offer"
    )
    assert caveat in french
    assert "Staff is not costed here" not in invoke("tco", "--country", "DE").output
    assert (
        "Staff is not costed here"
        not in invoke("tco", "--country", "FR", "--staff-usd-per-month", "500").output
    )


def test_months_help_states_the_maximum_its_check_refuses_beyond() -> None:
    """The help said ``[x>=1]`` while 241 months and more were refused only by the request's own check
    ("less than or equal to 240"): the option's range now has the maximum, so help and refusal agree."""
    from gpu_advisor.engine.domain.limits import MAX_WRITE_OFF_MONTHS

    assert MAX_WRITE_OFF_MONTHS == 240
    assert "Write-off period (default 36).  [1<=x<=240]" in invoke("tco", "--help").output
    beyond = invoke("tco", "--months", "100000000")
    assert beyond.exit_code == 2
    assert "Invalid value for '--months': 100000000 is not in the range 1<=x<=240." in beyond.output
    longest = json.loads(invoke("tco", "--months", "240", "--format", "json").output)
    assert longest["costs"]["months"] == 240


def test_every_bounded_option_states_the_requests_bound_in_its_help() -> None:
    """--gpus-per-server (at most 1,024 cards), the prices, the power figures and the monthly costs were
    refused above the request's bound while their help said only ``[x>0]`` or ``[x>=0]``: each option's
    range now has the bound the request checks, from the same constant, so the help states it and the
    option refuses beyond it."""
    import annotated_types

    from gpu_advisor.engine.commands.sizing import TCO_OPTIONS, tco
    from gpu_advisor.engine.domain.limits import MAX_GPUS_PER_SERVER
    from gpu_advisor.engine.domain.requests import TcoRequest

    options = {param.opts[0]: param for param in tco.params}
    bounded = {}
    for field, info in TcoRequest.model_fields.items():
        for bound in info.metadata:
            # hours_per_month has no option: the command line takes the catalog's month.
            if isinstance(bound, (annotated_types.Le, annotated_types.Lt)) and field != "hours_per_month":
                option = TCO_OPTIONS[field]
                below = isinstance(bound, annotated_types.Lt)
                most = bound.lt if isinstance(bound, annotated_types.Lt) else bound.le
                bounded[option] = (getattr(options[option].type, "max", None), options[option].type.max_open)
                assert bounded[option] == (most, below), option
    assert sorted(bounded) == [
        "--colocation-usd-per-month",
        "--eur-per-kwh",
        "--gpu-watts",
        "--gpus-per-server",
        "--months",
        "--power-overhead",
        "--rack-usd-per-month",
        "--residual",
        "--server-price",
        "--server-price-chf",
        "--server-price-eur",
        "--staff-usd-per-month",
        "--usd-per-kwh",
    ]
    help_text = " ".join(invoke("tco", "--help").output.split())
    for said in (
        "(a European quote). [0<x<=1000000000]",
        "a server with that many cards. [1<=x<=1024]",
        "server's or the GPU's TDP). [0<x<=10000]",
        "power-supply losses (default 1.3). [1<=x<=10]",
        "Electricity price (default: the country's). [0<=x<=10]",
        "the staff share). [0<=x<=10000000]",
        "as a share of the price (default 0). [0<=x<1]",
    ):
        assert said in help_text
    beyond = invoke("tco", "--gpus-per-server", str(MAX_GPUS_PER_SERVER + 1), "--server-price", "300000")
    assert beyond.exit_code == 2
    assert "Invalid value for '--gpus-per-server': 1025 is not in the range 1<=x<=1024." in beyond.output
    most = json.loads(
        invoke("tco", "--gpus-per-server", "1024", "--server-price", "1", "--format", "json").output
    )
    assert most["gpus_per_server"] == 1024


def test_the_depreciation_years_option_spans_the_years_the_knowledge_base_offers() -> None:
    """--depreciation-years' range (its help's ``[3<=x<=5]``) is the request's check, which reads the years
    from the knowledge base; the two may not drift apart."""
    from gpu_advisor.engine.commands.sizing import tco
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    (option,) = [param for param in tco.params if param.opts[0] == "--depreciation-years"]
    years = load_knowledge().cost_defaults.depreciation.years
    assert (option.type.min, option.type.max) == (min(years), max(years))
    assert "Economic life in years (instead of --months; default 3). [3<=x<=5]" in " ".join(
        invoke("tco", "--help").output.split()
    )
