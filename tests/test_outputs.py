"""Memo options a reader meets: currency and language formats, the user's own prices, chart files, and
the catalog listings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import EXAMPLES_DIR

from gpu_advisor.cli import main
from gpu_advisor.engine.i18n.formats import Format

PUBLIC_CHAT = str(EXAMPLES_DIR / "public-chat.yaml")


def invoke(*args: str):
    return CliRunner().invoke(main, [*args, "--as-of", "2026-11-30"])


@pytest.mark.parametrize(
    ("fmt", "amount", "number"),
    [
        (Format(), "$1,420.32", "1,420.3"),
        (Format(lang="de"), "1.420,32 $", "1.420,3"),
        (Format(currency="EUR", usd_per_eur=1.16), "€1,224.41", "1,420.3"),
        (Format(lang="de", currency="EUR", usd_per_eur=1.16), "1.224,41 €", "1.420,3"),
    ],
)
def test_number_and_money_formats(fmt: Format, amount: str, number: str) -> None:
    assert fmt.money(1420.32) == amount
    assert fmt.number(1420.32, 1) == number
    assert fmt.money(0.0000163) == fmt.money(0.0000163, 2)
    assert fmt.money_small(0.0000163).startswith(("$0.0000163", "0,0000163", "€0.0000141", "0,0000141"))


@pytest.mark.parametrize(
    ("usd", "text"),
    [(0.016, "$0.016"), (0.021, "$0.021"), (0.35, "$0.35"), (0.0000163, "$0.0000163"), (2.5, "$2.50")],
)
def test_amounts_under_a_dollar_keep_three_significant_digits(usd: float, text: str) -> None:
    # GPT-4o's $0.016 and Claude's $0.021 per request were both '$0.02' at two decimals.
    assert Format().money_small(usd) == text


def test_memo_in_eur_states_the_rate() -> None:
    text = invoke("recommend", PUBLIC_CHAT, "--currency", "EUR").output
    assert "Amounts are shown in EUR, converted from USD at 1.16 USD per EUR (2025-12-31)." in text
    # The hosted API: 1,000,000 x 30.42 x 450 x 0.40 / 1e6 = $5,475.60 = EUR 4,720.34.
    assert "**€4,720 per month**" in text
    assert "$5,476" not in text
    # A EUR list price shows as it is listed (OVHcloud's H100 at 2.80 EUR), not converted twice.
    assert "| ovhcloud | h100 | h100-pcie |" in text and "| €2.80 |" in text and "(€2.80)" not in text


def test_overrides_replace_prices_and_are_marked(tmp_path: Path) -> None:
    overrides = tmp_path / "own.yaml"
    overrides.write_text(
        yaml.safe_dump(
            {
                "offers": [
                    {"provider": "runpod", "offer": "community", "gpu": "h100-sxm", "usd_per_gpu_hour": 1.5}
                ],
                "own_server": {"price_usd": 200000, "usd_per_kwh": 0.3},
                "exchange_rate": {"usd_per_eur": 1.05},
                "as_of": "2026-11-28",
            }
        ),
        encoding="utf-8",
    )
    # Own weights: no model API may serve them, so a rental is chosen.
    workload = tmp_path / "chat.yaml"
    chat = yaml.safe_load(Path(PUBLIC_CHAT).read_text(encoding="utf-8"))
    workload.write_text(yaml.safe_dump({**chat, "model": {**chat["model"], "custom_weights": True}}))
    result = invoke("recommend", str(workload), "--overrides", str(overrides), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    chosen = next(o for o in data["options"] if o["chosen"])
    assert (chosen["provider"], chosen["offer"], chosen["usd_per_gpu_hour"]) == ("runpod", "community", 1.5)
    assert chosen["as_of"] == "2026-11-28"
    assert data["exchange_rate_usd_per_eur"] == 1.05
    # Offers listed in EUR follow the user's rate: OVHcloud's H100 at 2.80 EUR x 1.05.
    ovh = next(o for o in data["options"] if (o["provider"], o["offer"]) == ("ovhcloud", "h100"))
    assert (ovh["list_price_per_gpu_hour"], ovh["usd_per_gpu_hour"]) == (2.80, pytest.approx(2.94))
    memo = invoke("recommend", str(workload), "--overrides", str(overrides)).output
    assert (
        "Figures replaced with the user's own values: runpod/community/h100-sxm = 1.5 USD per GPU-hour"
        in memo
    )
    assert "hgx-h100-8.price_usd = 200000" in memo


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            {
                "offers": [
                    {"provider": "runpod", "offer": "community", "gpu": "h100-sxn", "usd_per_gpu_hour": 1}
                ]
            },
            "did you mean 'runpod/community/h100-sxm'?",
        ),
        ({"own_server": {"price": 1}}, "own_server.price: unknown field"),
        (
            {"exchange_rate": {"usd_per_eur": -1}},
            "exchange_rate.usd_per_eur: Input should be greater than or equal to 0.5",
        ),
    ],
)
def test_bad_overrides_exit_2(tmp_path: Path, content: dict, expected: str) -> None:
    overrides = tmp_path / "own.yaml"
    overrides.write_text(yaml.safe_dump(content), encoding="utf-8")
    result = invoke("recommend", PUBLIC_CHAT, "--overrides", str(overrides))
    assert result.exit_code == 2
    assert expected in result.output


def test_chart_files_are_written_and_linked(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    result = invoke("recommend", PUBLIC_CHAT, "--charts", str(tmp_path / "charts"), "-o", str(memo))
    assert result.exit_code == 0, result.output
    pngs = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert pngs == ["public-chat-api-versus-self-hosted.png", "public-chat-buy-versus-rent.png"]
    for name in pngs:
        assert (tmp_path / "charts" / name).read_bytes().startswith(b"\x89PNG")
    text = memo.read_text(encoding="utf-8")
    assert "![Monthly cost against node utilization](charts/public-chat-buy-versus-rent.png)" in text
    first = (tmp_path / "charts" / "public-chat-buy-versus-rent.png").read_bytes()
    invoke("recommend", PUBLIC_CHAT, "--charts", str(tmp_path / "charts"), "-o", str(memo))
    assert (tmp_path / "charts" / "public-chat-buy-versus-rent.png").read_bytes() == first


def test_catalog_lists_with_sources_and_flags_stale_prices() -> None:
    offers = invoke("catalog", "offers", "--gpu", "h100-sxm", "--provider", "runpod").output
    # a pipe: the table fits 100 columns, the sources listed under it (tests/test_text_width.py)
    assert (
        "runpod/community/h100-sxm     $2.69 on-demand       unknown       1,2,4,8   2026-10-10  [1]"
        in offers
    )
    eu = json.loads(invoke("catalog", "offers", "--eu", "--format", "json").output)
    assert {row["provider"] for row in eu} == {"aws", "azure", "gcp", "stackit", "ovhcloud", "scaleway"}
    # The documents' March prices are older than 180 days on 2026-11-30, and none of them is an EU price
    # any more (the providers' own EU prices are); the providers' own are not stale.
    every = json.loads(invoke("catalog", "offers", "--format", "json").output)
    assert {row["stale"] for row in every if row["as_of"] == "2026-03-27"} == {True}
    assert not [row for row in eu if row["as_of"] == "2026-03-27"]
    assert {row["stale"] for row in eu if row["as_of"] > "2026-06-01"} == {False}
    # a price older than the stale threshold carries a star, explained under the table
    stale = invoke("catalog", "offers", "--provider", "vast", "--as-of", "2026-11-30").output
    assert "vast/spot/h100-pcie    $1.49* spot" in stale
    assert stale.endswith("* older than 180 days on 2026-11-30: check the provider's current price.\n")
    models = invoke("catalog", "models").output
    assert "deepseek-r1" in models and "671" in models
    # Latent attention caches one 576-wide latent a token, not its config's nominal 128 KV heads.
    assert "deepseek-r1            671        37 mla            61  1 latent       576" in models
    assert invoke("catalog", "offers", "--provider", "lambda-labs").exit_code == 2


def test_catalog_of_eu_offers_shows_the_price_recommendations_use_in_the_eu() -> None:
    """The documents price the hyperscalers' H100 in the US. Where the catalog holds the provider's own EU
    price, that is the EU price; the documents' EU premium (20 %, the midpoint of their 10 to 30 %) is no
    longer estimated on top of their US price."""
    text = invoke("catalog", "offers", "--eu", "--gpu", "h100-sxm", "--provider", "gcp").output
    assert "a3-high-europe-west4" in text and "a3-high-on-demand " not in text
    rows = json.loads(invoke("catalog", "offers", "--format", "json").output)
    by_offer = {(row["provider"], row["offer"], row["gpu"]): row for row in rows}
    gcp = by_offer[("gcp", "a3-high-on-demand", "h100-sxm")]
    assert (gcp["eu_usd_per_gpu_hour"], gcp["eu_price_basis"]) == (None, None)
    gcp_eu = by_offer[("gcp", "a3-high-europe-west4", "h100-sxm")]
    assert gcp_eu["eu_price_basis"] == "list" and gcp_eu["eu_usd_per_gpu_hour"] > 13
    # AWS lists no P5 in Frankfurt: the documents' P5 price is a US price only.
    aws = by_offer[("aws", "p5-on-demand", "h100-sxm")]
    assert (aws["eu_usd_per_gpu_hour"], aws["eu_price_basis"]) == (None, None)
    # An EU provider's price is its list price, converted from EUR, with no premium.
    stackit = by_offer[("stackit", "n3-gpu-server", "h100-sxm")]
    assert (stackit["eu_usd_per_gpu_hour"], stackit["eu_price_basis"]) == (
        pytest.approx(8.04134722222 * 1.16),
        "list",
    )
    runpod = by_offer[("runpod", "community", "h100-sxm")]
    assert (runpod["eu_usd_per_gpu_hour"], runpod["eu_price_basis"]) == (None, None)  # not sold in the EU
    assert "EU $/GPU-h" not in invoke("catalog", "offers").output


@pytest.mark.parametrize(
    ("share", "text"), [(0.0, "0 %"), (0.0004, "< 1 %"), (0.005, "< 1 %"), (0.0051, "1 %"), (0.6098, "61 %")]
)
def test_a_share_above_zero_never_reads_as_zero_percent(share: float, text: str) -> None:
    assert Format().pct(share) == text


def test_one_share_worked_out_two_ways_reads_the_same() -> None:
    """A batch replica's busy share and its servers' (every card used): 0.045 and 0.045000000000000005
    read '4 %' and '5 %' in one sentence, the float's last bit deciding the half."""
    assert 0.045 * 100 != 0.045000000000000005 * 100
    assert Format().pct(0.045) == Format().pct(0.045000000000000005) == "4 %"


def test_a_share_of_thousands_of_percent_is_grouped_as_other_figures() -> None:
    # LAT007's "2724 % beyond" beside figures written with separators.
    assert (Format().pct(27.24), Format.named("de").pct(27.24)) == ("2,724 %", "2.724 %")


@pytest.mark.parametrize(
    ("share", "edge", "text"),
    [
        (0.296, 0.30, "29.6 %"),  # DEP007's "below the 30 % edge" would read "30 %" against "30 %"
        (0.2996, 0.30, "29.96 %"),
        (0.5049, 0.50, "50.5 %"),
        (0.30, 0.30, "30 %"),  # at the edge: the edge's own figure
        (0.45, 0.30, "45 %"),  # apart at whole percent: no decimals
        (0.004, 0.30, "< 1 %"),
        (0.29999, 0.30, "29.99 %"),  # cut towards its side of the edge, never '30.00 %' below 30 %
        (0.30001, 0.30, "30.01 %"),
        (0.1 + 0.2, 0.30, "30 %"),  # 0.30000000000000004: float noise is the edge
    ],
)
def test_a_share_beside_the_edge_it_is_compared_with_reads_apart_from_it(
    share: float, edge: float, text: str
) -> None:
    assert Format().pct(share, edge) == text


def test_a_rule_message_gives_the_share_that_tells_it_from_the_edge() -> None:
    """DEP007 at 29.6 % of the paid hours: the share below the 30 % edge, not '30 %, below the 30 %'."""
    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
    from gpu_advisor.engine.report.findings import render_rule_message
    from gpu_advisor.engine.rulebook.loading import load_rulebook

    knowledge, rulebook = load_knowledge(), load_rulebook()
    fact = {"utilization": 0.296, "on_premises_required": False}
    texts = {
        lang: " ".join(
            render_rule_message(
                rulebook.rule("DEP007"), fact, knowledge, rulebook, Format.named(lang)
            ).split()
        )
        for lang in ("en", "de")
    }
    assert (
        "needed in only 29.6 % of the paid hours (the share of hours with a request in flight), below the "
        "30 % edge" in texts["en"]
    )
    assert (
        "nur in 29,6 % der bezahlten Stunden gebraucht (der Anteil der Stunden mit einer Anfrage in "
        "Bearbeitung), unter der Grenze von 30 %"
    ) in texts["de"]


def test_sources_give_the_api_sla_pages_where_an_exclusion_read_them() -> None:
    """PRV003 excludes the APIs without a published SLA for a business-critical workload: the memo's
    sources then give the page behind each shown API's verdict; elsewhere no SLA page is listed."""
    from helpers import run

    from gpu_advisor.engine.domain.knowledge.loading import load_knowledge

    base = yaml.safe_load(Path(PUBLIC_CHAT).read_text(encoding="utf-8"))
    critical = run({**base, "business_critical": True})
    assert "PRV003" in critical.fired_rules
    shown = {api.api for api in critical.api_costs if api.listed}
    expected = {
        (entry.sla_source.document or entry.sla_source.url, entry.sla_as_of)
        for entry in load_knowledge().api_prices.apis
        if entry.id in shown
    }
    listed = {(p.document, p.as_of) for p in critical.price_dates if p.used_for == "managed API SLA terms"}
    assert listed == expected and len(listed) >= 3
    # A page is listed by its title as published; what it says of an SLA is the entry's sla_note, not
    # part of the title (a German memo showed "rate limits, no availability commitment" in English).
    titles = {p.title for p in critical.price_dates if p.used_for == "managed API SLA terms"}
    assert "OVHcloud, AI Endpoints - Features, Capabilities and Limitations (updated 2025-08-18)" in titles
    for entry in load_knowledge().api_prices.apis:
        if entry.sla_source.url is not None:
            assert entry.sla_note and entry.sla_source.title and ": " not in entry.sla_source.title, entry.id
    plain = run(base)
    assert "PRV003" not in plain.fired_rules
    assert not [p for p in plain.price_dates if p.used_for == "managed API SLA terms"]


def test_an_evaluation_dated_before_the_sources_says_so() -> None:
    """Evaluated before the catalog's dates, the figures are today's catalog's, not that date's market."""
    early = CliRunner().invoke(main, ["recommend", PUBLIC_CHAT, "--as-of", "1990-01-01"])
    later = invoke("recommend", PUBLIC_CHAT)
    note = "The evaluation date lies before some of the dated sources below (the newest is dated"
    assert early.exit_code == 0 and note in early.output
    assert later.exit_code == 0 and note not in later.output


def test_replaced_figures_are_said_in_the_memo_s_language(tmp_path: Path) -> None:
    """A server price given in EUR is listed with its USD value at the exchange rate, in the memo's
    language: 230,000 EUR x 1.16 = 266,800 USD, 0.14 EUR/kWh x 1.16 = 0.1624 USD (four significant
    digits, the rate as given)."""
    overrides = tmp_path / "mine.yaml"
    overrides.write_text("own_server:\n  price_eur: 230000\n  eur_per_kwh: 0.14\n", encoding="utf-8")
    english = invoke("recommend", PUBLIC_CHAT, "--overrides", str(overrides)).output
    assert (
        "Figures replaced with the user's own values: hgx-h100-8.price_eur = 230000 (= 266,800 USD at 1.16 "
        "USD per EUR), own_server.eur_per_kwh = 0.14 (= 0.1624 USD at 1.16 USD per EUR)." in english
    )
    german = invoke("recommend", PUBLIC_CHAT, "--overrides", str(overrides), "--lang", "de").output
    assert (
        "Durch eigene Werte ersetzte Zahlen: hgx-h100-8.price_eur = 230000 (= 266.800 USD bei 1,16 USD je "
        "EUR), own_server.eur_per_kwh = 0.14 (= 0,1624 USD bei 1,16 USD je EUR)." in german
    )


@pytest.mark.parametrize(
    ("gb", "en", "de"),
    [
        (70.55, "70.6", "70,6"),
        (70.45, "70.5", "70,5"),
        (16.06, "16.1", "16,1"),
        (140.0, "140", "140"),
        (8.04, "8", "8"),
        (99.96, "100", "100"),
        (141.46, "141", "141"),
        (142.5, "143", "143"),
        (1234.5, "1,235", "1.235"),
    ],
)
def test_gigabytes_round_half_up_on_the_figure_as_written(gb: float, en: str, de: str) -> None:
    """70.55 GB of FP8 weights beside "70.55B parameters × 1 byte": the float lies just below the half
    and read 70.5; a reader rounds the written figure up. From 100 GB whole, rounded once (142.5 read
    142: to a tenth, then to even)."""
    assert (Format().gb(gb), Format.named("de").gb(gb)) == (en, de)


@pytest.mark.parametrize(
    ("billions", "en", "de"),
    [(70.55, "70.55", "70,55"), (46.7, "46.7", "46,7"), (70.0, "70", "70"), (1200.0, "1,200", "1.200")],
)
def test_a_parameter_count_keeps_its_hundredths_and_no_trailing_zero(
    billions: float, en: str, de: str
) -> None:
    assert (Format().billions(billions), Format.named("de").billions(billions)) == (en, de)
