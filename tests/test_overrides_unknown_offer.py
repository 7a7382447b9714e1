"""An overrides file that re-prices, under ``offers``, an offer the catalog lacks is refused naming the file,
the line and the entry, the catalog's offers of that provider (or its providers) instead of all ninety, and
where an offer of one's own goes: under ``added_offers``."""

from __future__ import annotations

from pathlib import Path

from helpers import EXAMPLES_DIR, invoke

AWS_OFFERS = (
    "aws/g5-on-demand/a10g, aws/p5-capacity-block/h100-sxm, aws/p5-on-demand-2026-09/h100-sxm, "
    "aws/p5-on-demand-stockholm/h100-sxm, aws/p5-on-demand/h100-sxm, aws/p5-reserved-1y-2026-09/h100-sxm, "
    "aws/p5-reserved-1y/h100-sxm, aws/p5-reserved-3y-2026-09/h100-sxm, aws/p5-reserved-3y/h100-sxm, "
    "aws/p5-spot/h100-sxm"
)
ADDED = (
    "an offer the catalog lacks goes under added_offers, with its pricing, instance_gpus, regions, "
    "price_jurisdiction and as_of"
)


def priced(tmp_path: Path, *offers: str, lang: str = "en") -> tuple[Path, int, str]:
    overrides = tmp_path / "rates.yaml"
    lines = "".join(f"  - {{{offer}, gpu: h100-sxm, usd_per_gpu_hour: 1}}\n" for offer in offers)
    overrides.write_text(f"offers:\n{lines}", encoding="utf-8")
    result = invoke(
        "recommend", str(EXAMPLES_DIR / "prototype.yaml"), "--overrides", str(overrides), "--lang", lang
    )
    return overrides, result.exit_code, result.output


def refused(overrides: Path, text: str) -> str:
    """What ``recommend`` says, exiting 2, of the prototype with ``text`` as its overrides file."""
    overrides.write_text(text, encoding="utf-8")
    result = invoke("recommend", str(EXAMPLES_DIR / "prototype.yaml"), "--overrides", str(overrides))
    assert result.exit_code == 2, result.output
    return result.output


def test_an_offer_the_catalog_lacks_names_the_file_the_entry_and_added_offers(tmp_path: Path) -> None:
    path, code, output = priced(tmp_path, "provider: aws, offer: p5-on-demand", "provider: aws, offer: nope")
    assert code == 2
    assert output == (
        f"error: --overrides {path}:3: offers[1]: the catalog has no offer 'aws/nope/h100-sxm' to re-price "
        f"(its offers of aws: {AWS_OFFERS}); {ADDED}\n"
    )


def test_a_misspelt_offer_is_named_with_the_one_meant(tmp_path: Path) -> None:
    path, code, output = priced(tmp_path, "provider: aws, offer: p5-on-demnd")
    assert code == 2
    assert output == (
        f"error: --overrides {path}:2: offers[0]: the catalog has no offer 'aws/p5-on-demnd/h100-sxm' to "
        f"re-price (its offers of aws: {AWS_OFFERS}; did you mean 'aws/p5-on-demand/h100-sxm'?); {ADDED}\n"
    )


def test_a_provider_the_catalog_lacks_lists_its_providers_in_german_too(tmp_path: Path) -> None:
    path, code, output = priced(tmp_path, "provider: nimbus, offer: nope", lang="de")
    assert code == 2
    assert output == (
        f"Fehler: --overrides {path}:2: offers[0]: der Katalog hat kein Angebot 'nimbus/nope/h100-sxm', "
        "dessen Preis sich ersetzen ließe (die Anbieter des Katalogs: aws, azure, gcp, gmi, lambda, "
        "ovhcloud, runpod, scaleway, stackit, vast); ein Angebot, das der Katalog nicht kennt, gehört unter "
        "added_offers, mit pricing, instance_gpus, regions, price_jurisdiction und as_of\n"
    )


def test_catalog_diff_names_the_side(tmp_path: Path) -> None:
    path, _, _ = priced(tmp_path, "provider: aws, offer: nope")
    result = invoke("catalog", "diff", str(path), str(path))
    assert result.exit_code == 2
    assert result.output.startswith(
        f"error: OLD {path}:2: offers[0]: the catalog has no offer 'aws/nope/h100-sxm' to re-price"
    )


def test_a_misspelt_gpu_is_named_with_the_one_meant(tmp_path: Path) -> None:
    """No offer of the provider has the misspelt GPU: the suggestion among none of them ended in an
    internal error (exit code 4)."""
    overrides = tmp_path / "rates.yaml"
    output = refused(
        overrides, "offers:\n  - {provider: runpod, offer: community, gpu: h100-sxn, usd_per_gpu_hour: 1}\n"
    )
    assert output.startswith(
        f"error: --overrides {overrides}:2: offers[0]: the catalog has no offer 'runpod/community/h100-sxn' "
        "to re-price (its offers of runpod: "
    )
    assert output.endswith(f"; did you mean 'runpod/community/h100-sxm'?); {ADDED}\n")


def test_each_entry_is_named_with_the_line_it_starts_on(tmp_path: Path) -> None:
    """An entry of ``offers``, ``regions`` or ``added_offers`` the catalog refuses was named by its index
    alone (``offers[2]``), which a long file makes a count of dashes; the YAML reader knows the line each
    entry starts on, as it names for a value it refuses itself (``rates.yaml:4: ...``), and the error names
    it too. JSON's reader knows no lines: the entry alone, as before."""
    overrides = tmp_path / "rates.yaml"
    offers = (
        "# negotiated rates\n"
        "offers:\n"
        "  - provider: aws\n"
        "    offer: p5-on-demand\n"
        "    gpu: h100-sxm\n"
        "    usd_per_gpu_hour: 3\n"
        "  - provider: aws\n"
        "    offer: nope\n"
        "    gpu: h100-sxm\n"
        "    usd_per_gpu_hour: 3\n"
    )
    assert refused(overrides, offers) == (
        f"error: --overrides {overrides}:7: offers[1]: the catalog has no offer 'aws/nope/h100-sxm' to "
        f"re-price (its offers of aws: {AWS_OFFERS}); {ADDED}\n"
    )
    regions = (
        "regions:\n"
        "  - {provider: aws, id: fra-1, name: Frankfurt}\n"
        "  - {provider: nimbus, id: fra-1, name: Frankfurt}\n"
    )
    assert refused(overrides, regions).startswith(
        f"error: --overrides {overrides}:3: regions[1]: provider: unknown value 'nimbus'"
    )
    added_offers = (
        "added_offers:\n"
        "  -\n"
        "    as_of: 2026-11-01\n"
        "    provider: aws\n"
        "    offer: p5-own\n"
        "    gpu: h100-sxn\n"
        "    pricing: on_demand\n"
        "    usd_per_gpu_hour: 3\n"
        "    instance_gpus: [8]\n"
        "    regions: [us-east-1]\n"
        "    price_jurisdiction: US\n"
    )
    assert refused(overrides, added_offers).startswith(
        f"error: --overrides {overrides}:3: added_offers[0] (aws/p5-own/h100-sxn): gpu: unknown value "
        "'h100-sxn'"
    )
    as_json = tmp_path / "rates.json"
    offers_json = (
        '{"offers": [{"provider": "aws", "offer": "nope", "gpu": "h100-sxm", "usd_per_gpu_hour": 3}]}'
    )
    assert refused(as_json, offers_json).startswith(
        f"error: --overrides {as_json}: offers[0]: the catalog has no offer"
    )
