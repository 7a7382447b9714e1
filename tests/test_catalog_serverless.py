"""``gpu-advisor catalog serverless``: the serverless GPU products of knowledge/serverless.yaml, how each
bills, where it runs and what its GPUs cost, with the filters of the other listings (and ``--country``,
which ``catalog offers`` takes too)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from gpu_advisor.cli import main
from gpu_advisor.engine.domain.knowledge.loading import load_knowledge
from gpu_advisor.engine.domain.knowledge.serving import ServerlessRegion

AS_OF = "2026-11-30"
PIPE = {"COLUMNS": ""}
"""Written to a pipe: tables 100 columns wide, prose in whole lines."""


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["catalog", "serverless", *args], env=PIPE)


def test_the_h100_rows_as_worked_out_from_the_yaml() -> None:
    """Modal bills per second (billing_increment_seconds 1), scales to zero after 60 s, starts in 1 s, runs
    anywhere (region global: jurisdiction unknown, no country); its H100 costs 0.001097 USD a second,
    3.9492 an hour: $3.95, on instances of 1 to 8 GPUs (1-8). RunPod bills per second, idles 5 s, starts in
    2.3 s, in variable locations and its EU data centres (RO, SE, NL, CZ, FR); flex 4.176 an hour ($4.18),
    active 3.348 ($3.35), one GPU a worker; its prices of 2026-05-08 are 206 days old on 2026-11-30, over
    the 180 that make a price stale. Hugging Face sells no H100."""
    result = run("--gpu", "h100-sxm", "--as-of", AS_OF)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:3] == [
        "Product           Billed per Idle s Start s Managed Regions    Countries      As of       Source",
        "modal/functions   second         60       1 no      unknown    -              2026-08-19  [1]",
        "runpod/serverless second          5     2.3 yes     EU/unknown RO,SE,NL,CZ,FR 2026-05-08* [2]",
    ]
    # A note on one GPU's price alone (RunPod's "H100 PRO" pool) has its own column.
    prices = lines.index("Product/GPU                 Memory   $/GPU-h Always-on Sizes     Note")
    assert lines[prices + 1 : prices + 4] == [
        "modal/functions/h100-sxm     80 GB     $3.95         - 1-8",
        "runpod/serverless/h100-sxm   80 GB     $4.18     $3.35 1         'H100 PRO' pool taken as H100 SXM",
        "",
    ]
    assert lines[prices + 4].startswith("Billed per: the time an instance is up is billed in these steps.")
    assert "at 2.5 GB/s at best (<https://modal.com/docs/guide/volumes>, 2026-08-19;" in lines[prices + 4]
    assert lines[prices + 5 :] == [
        "",
        "* older than 180 days on 2026-11-30: check the provider's current price.",
    ]
    # the cold start's own source is cited beside the price's
    assert "start: RunPod FlashBoot: 95 % of cold starts under" in result.output
    assert "Note: how that GPU's price was read, where it concerns that GPU alone." in lines[prices + 4]


def test_hugging_face_bills_per_minute_and_scales_down_after_300_s() -> None:
    """Its L40S is sold as 1, 4 and 8 GPUs at 1.8, 2.075 and 2.9375 USD per GPU-hour; an instance idles an
    hour (3,600 s) before it scales to zero, one no longer needed among others runs on 300 s; start 120 s
    (gpu-advisor's assumption), regions AWS us-east-1 (US) and eu-west-1 (IE)."""
    result = run("--provider", "huggingface", "--gpu", "l40s", "--as-of", AS_OF)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[2] == (
        "huggingface/inference-endpoints minute    3,600     120 yes     EU/US   US,IE     2026-05-19* [1]"
    )
    prices = lines.index("Product/GPU                           Memory   $/GPU-h Always-on Sizes")
    assert lines[prices + 1 : prices + 4] == [
        "huggingface/inference-endpoints/l40s   48 GB     $1.80         - 1",
        "huggingface/inference-endpoints/l40s   48 GB     $2.08         - 4",
        "huggingface/inference-endpoints/l40s   48 GB     $2.94         - 8",
    ]
    assert lines[-3] == (
        "huggingface/inference-endpoints: an instance no longer needed while others keep serving runs on "
        "for 300 s before it stops, billed, rather than its idle timeout."
    )
    assert "start: gpu-advisor assumptions (2026-11-30), assumption: Hugging Face says scaling up" in (
        " ".join(line.strip() for line in lines)
    )


def test_json_fields() -> None:
    result = run("--format", "json", "--as-of", AS_OF)
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    # 7 Modal GPUs, 6 RunPod, 9 Hugging Face price entries
    assert [(r["provider"], r["product"]) for r in rows] == (
        [("modal", "functions")] * 7
        + [("runpod", "serverless")] * 6
        + [("huggingface", "inference-endpoints")] * 9
    )
    runpod = next(r for r in rows if r["provider"] == "runpod" and r["gpu"] == "h100-sxm")
    assert {k: v for k, v in runpod.items() if not k.endswith(("source", "source_label"))} == {
        "provider": "runpod",
        "product": "serverless",
        "name": "RunPod Serverless",
        "gpu": "h100-sxm",
        "memory_gb": 80.0,
        "usd_per_gpu_hour": 4.176,
        "warm_usd_per_gpu_hour": 3.348,
        "instance_gpus": [1],
        "billing_increment_seconds": 1,
        "idle_timeout_seconds": 5.0,
        "scale_down_seconds": 5.0,
        "start_seconds": 2.3,
        "weights_load_gb_per_second": 2.5,
        "managed": True,
        "regions": [
            {
                "region": "variable",
                "name": "variable locations",
                "jurisdiction": "unknown",
                "countries": [],
                "price_multiplier": 1.0,
            },
            {
                "region": "eu-datacenters",
                "name": "EU data centres (Romania, Sweden, Netherlands, Czechia, France)",
                "jurisdiction": "EU",
                "countries": ["RO", "SE", "NL", "CZ", "FR"],
                "price_multiplier": 1.0,
            },
        ],
        "jurisdictions": "EU/unknown",
        "countries": ["RO", "SE", "NL", "CZ", "FR"],
        "note": "the per-second table moved to runpod.io/pricing on 2026-06-29 and may have changed since",
        "gpu_note": "'H100 PRO' pool taken as H100 SXM",
        "as_of": "2026-05-08",
        "stale": True,
    }
    assert runpod["source"]["url"] == "https://docs.runpod.io/serverless/pricing"
    assert (
        runpod["start_source"]["url"]
        == "https://www.runpod.io/blog/introducing-flashboot-serverless-cold-start"
    )
    assert runpod["scale_down_source"] is None and runpod["scale_down_source_label"] is None
    hugging_face = next(r for r in rows if r["provider"] == "huggingface")
    assert (hugging_face["billing_increment_seconds"], hugging_face["idle_timeout_seconds"]) == (60, 3600.0)
    assert (hugging_face["scale_down_seconds"], hugging_face["start_seconds"]) == (300.0, 120.0)
    assert hugging_face["start_source"]["document"] == "gpu-advisor"
    modal = rows[0]
    assert (modal["gpu"], modal["usd_per_gpu_hour"], modal["stale"]) == ("h100-sxm", 3.9492, False)
    assert (modal["managed"], modal["jurisdictions"], modal["countries"]) == (False, "unknown", [])


@pytest.mark.parametrize(
    ("args", "products"),
    [
        (("--eu",), ["runpod/serverless", "huggingface/inference-endpoints"]),
        (("--non-eu",), ["modal/functions"]),
        (("--country", "IE"), ["huggingface/inference-endpoints"]),
        (("--country", "RO"), ["runpod/serverless"]),
        (("--provider", "modal", "--gpu", "a10g"), ["modal/functions"]),
    ],
)
def test_filters(args: tuple[str, ...], products: list[str]) -> None:
    rows = json.loads(run(*args, "--format", "json").output)
    assert list(dict.fromkeys(f"{r['provider']}/{r['product']}" for r in rows)) == products


def test_a_filter_that_matches_nothing_says_so() -> None:
    """No region of the catalog's serverless products is in Germany (RunPod's EU data centres are in
    RO, SE, NL, CZ and FR; Hugging Face's in IE); no product sells the RTX 5090; Modal has no EU region."""
    nothing = "No serverless product matches (GPU offers: catalog offers; managed APIs: catalog apis)."
    assert run("--country", "DE").output == (
        f"{nothing} Filters applied: --country DE. A region counts for --country only where the catalog "
        "names the countries of its data centres.\n"
    )
    assert run("--gpu", "rtx-5090").output == f"{nothing} Filters applied: --gpu rtx-5090.\n"
    assert run("--eu", "--provider", "modal").output == f"{nothing} Filters applied: --provider modal --eu.\n"
    assert run("--country", "DE", "--format", "json").output == "[]\n"
    german = run("--country", "DE", "--lang", "de").output
    assert german.startswith("Kein Serverless-Produkt passt (GPU-Angebote: catalog offers;")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--country", "Germany"),
            "error: --country: an ISO 3166 code of two letters (got 'Germany')\n",
        ),
        (("--country", "zz"), "error: --country: 'zz' is no ISO 3166-1 country code\n"),
        (("--provider", "modall"), None),
        (("--gpu", "h100"), None),
        (("--as-of", "2026-11-31"), "error: --as-of: '2026-11-31' is not a date; use YYYY-MM-DD\n"),
    ],
)
def test_bad_option_values_exit_2_with_a_message(args: tuple[str, ...], message: str | None) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output + result.stderr
    assert result.stdout == ""
    if message is not None:
        assert result.stderr == message
    elif args[0] == "--provider":
        assert result.stderr.startswith("error: --provider: unknown value 'modall'; allowed: ")
        assert result.stderr.endswith(" (did you mean 'modal'?)\n")
    else:
        assert result.stderr.endswith("(did you mean one of 'h100-nvl', 'h100-pcie', 'h100-sxm'?)\n")


def test_a_misspelt_kind_and_format_exit_2() -> None:
    kind = CliRunner().invoke(main, ["catalog", "serverles"], env=PIPE)
    assert kind.exit_code == 2
    assert kind.stderr.endswith(
        "Error: Invalid value for '{gpus|offers|models|apis|serverless}': 'serverles' is not one of 'gpus', "
        "'offers', 'models', 'apis', 'serverless'.\n"
    )
    fmt = run("--format", "yaml")
    assert fmt.exit_code == 2
    assert fmt.stderr.endswith("Error: Invalid value for '--format': 'yaml' is not one of 'text', 'json'.\n")


def test_german_country_error() -> None:
    result = run("--country", "Deutschland", "--lang", "de")
    assert result.exit_code == 2
    assert result.stderr == (
        "Fehler: --country: ein ISO-3166-Code aus zwei Buchstaben (angegeben: 'Deutschland')\n"
    )


def test_a_country_in_small_letters_is_its_code() -> None:
    """ISO 3166 codes differ by more than case: 'de' lists what 'DE' lists, in every catalog part."""
    for kind in ("offers", "serverless", "apis"):
        small, capital = (
            CliRunner().invoke(main, ["catalog", kind, "--country", code, "--format", "json"], env=PIPE)
            for code in ("de", "DE")
        )
        assert small.exit_code == capital.exit_code == 0
        assert small.output == capital.output
        assert json.loads(small.output) or kind == "serverless"  # no serverless region is placed in DE


def test_offers_by_country() -> None:
    """The offers with a region the catalog places in Germany: Azure's germanywestcentral, STACKIT's eu01."""
    result = CliRunner().invoke(main, ["catalog", "offers", "--country", "DE", "--format", "json"], env=PIPE)
    assert [f"{o['provider']}/{o['offer']}/{o['gpu']}" for o in json.loads(result.output)] == [
        "azure/nc-h100-v5/h100-nvl",
        "stackit/n3-gpu-server/h100-sxm",
        "stackit/n2-gpu-server/l40s",
        "stackit/n1-gpu-server/a100-80gb-pcie",
    ]


def test_a_regional_price_multiplier_is_stated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped products price every region alike; a region priced apart is named under the table."""
    from gpu_advisor.engine.domain.knowledge import loading

    knowledge = load_knowledge()
    modal = knowledge.serverless.products[0]
    pinned = modal.model_copy(update={"regions": (ServerlessRegion(region="global", price_multiplier=1.5),)})
    serverless = knowledge.serverless.model_copy(update={"products": (pinned,)})
    monkeypatch.setattr(
        loading, "load_knowledge", lambda: knowledge.model_copy(update={"serverless": serverless})
    )
    lines = run("--gpu", "l4", "--as-of", AS_OF).output.splitlines()
    assert lines[-1] == "modal/functions: 1.5 times the price in region global."
