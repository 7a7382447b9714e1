"""An organization policy can keep data in one country: ``{field: countries, not_in: [DE]}`` excludes every
option with no region wholly in the countries listed (a region spanning several countries, or of
countries the catalog does not know, qualifies none), and ``equals`` excludes the options with no region
known to lie outside the country named."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import EVALUATED_ON

from gpu_advisor import api
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.common.errors import InputError
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.present.memo import render_memo
from gpu_advisor.engine.rulebook.schema import OptionFilter

DOCS = {
    "name": "de-dokumentenassistent",
    "model": {"name": "llama-3.3-70b", "precision": "fp8"},
    "requests_per_day": 6000,
    "avg_input_tokens": 4000,
    "avg_output_tokens": 400,
    "context_tokens": 16384,
    "schedule": "workdays",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "DE",
}

POLICY = """\
schema_version: 1
family: ORG
rules:
  - id: ORG010
    name: personal-data-stays-in-germany
    topic: residency
    severity: critical
    fact: workload
    when:
      - {fact: personal_data, value: true}
    then:
      exclude_options:
        - {field: countries, %s}
    title: "Company policy: personal data stays in Germany"
    message: "Personal data is processed in German data centres only."
    rationale: "The customers' contracts name Germany."
    source: {document: cloud-gpu-costs-2026, section: "DACH-Perspektive: Datenschutz und GPU-Souveränität"}
  - id: ORG011
    name: proposal-outside-germany
    topic: residency
    severity: critical
    fact: proposal
    applies:
      - {fact: personal_data, value: true}
    needs: [country]
    when:
      - {fact: country, op: not_in, values: [DE]}
    then:
      verdict: fail
    title: "Company policy: the proposal processes personal data outside Germany"
    message: "The proposal runs in {{ country }}, not in Germany."
    rationale: "The customers' contracts name Germany."
    source: {document: cloud-gpu-costs-2026, section: "DACH-Perspektive: Datenschutz und GPU-Souveränität"}
"""


@pytest.mark.parametrize(
    ("regions", "kept"),
    [
        ((("DE",),), True),
        ((("FR",), ("PL",)), False),  # Scaleway's Paris and Warsaw
        ((("FR",), ("DE",)), True),  # one region qualifies
        ((("RO", "SE", "NL", "CZ", "FR"),), False),  # RunPod's EU pool: no choice of country
        ((("DE", "NL"),), False),  # a region that spans a country outside the list
        (((),), False),  # countries unknown
        ((), False),  # no region
    ],
)
def test_an_allow_list_keeps_an_option_one_of_whose_regions_lies_wholly_in_it(
    regions: tuple[tuple[str, ...], ...], kept: bool
) -> None:
    in_germany = OptionFilter(field="countries", not_in=("DE",))
    assert in_germany.excludes({"countries": regions}) is not kept


@pytest.mark.parametrize(
    ("regions", "kept"),
    [((("US",),), False), ((("US",), ("DE",)), True), ((("DE",),), True), (((),), False)],
)
def test_a_country_excluded_keeps_an_option_with_a_region_known_to_lie_outside_it(
    regions: tuple[tuple[str, ...], ...], kept: bool
) -> None:
    assert OptionFilter(field="countries", equals="US").excludes({"countries": regions}) is not kept


def policy(tmp_path: Path, test: str) -> Path:
    (tmp_path / "germany.yaml").write_text(POLICY % test, encoding="utf-8")
    return tmp_path


def test_german_data_keeps_the_german_regions_and_the_german_api(tmp_path: Path) -> None:
    result = api.recommend(DOCS, EVALUATED_ON, policy_dir=policy(tmp_path, "not_in: [DE]"))
    assert (result.decision.deployment, result.decision.provider) == ("api", "ionos")
    compared = next(a for a in result.api_costs if a.compared)
    assert compared.countries == ("DE",)
    by_offer = {(o.provider, o.offer, o.gpu, o.jurisdiction): o for o in result.options}
    # Azure's German region stays; Scaleway's Paris and Warsaw, OVHcloud's France and RunPod's EU pool go.
    assert "ORG010" not in by_offer["azure", "nc-h100-v5", "h100-nvl", "EU"].excluded_by
    assert "ORG010" in by_offer["scaleway", "h100-80g", "h100-pcie", "EU"].excluded_by
    assert "ORG010" in by_offer["runpod", "serverless", "h200", "EU"].excluded_by
    assert all("ORG010" in o.excluded_by for o in result.options if "DE" not in o.countries)
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.countries, round(best.usd_per_month)) == (
        "azure",
        "nc-h100-v5",
        ("DE",),
        4772,
    )
    summary = render_memo(result).split("## Summary")[1].split("## Why")[0]
    assert "Its provider processes the requests in the EU (DE).\n" in summary


def test_without_the_policy_the_eu_is_enough() -> None:
    """The GDPR keeps the data in the EU (RES001), not in Germany: the best rental is Scaleway's Paris
    ($3,911), which the policy excludes for Azure's German region ($4,772)."""
    best = api.recommend(DOCS, EVALUATED_ON).best_option
    assert best is not None
    assert (best.provider, best.offer, best.countries, round(best.usd_per_month)) == (
        "scaleway",
        "h100-sxm-4-80g",
        ("FR",),
        3911,
    )


@pytest.mark.parametrize(
    ("test", "problem"),
    [
        (
            "not_in: [DEU]",
            "rule ORG010: field then.exclude_options.0: countries is never 'DEU' (not an ISO 3166-1 code "
            "the catalog knows), so the options it was meant to admit are excluded",
        ),
        ("equals: true", "countries is tested against a country code (equals: DE) or a list (not_in)"),
    ],
)
def test_a_country_the_catalog_does_not_know_is_refused(tmp_path: Path, test: str, problem: str) -> None:
    with pytest.raises(InputError) as error:
        api.recommend(DOCS, EVALUATED_ON, policy_dir=policy(tmp_path, test))
    assert problem in str(error.value)


def rental(provider: str, offer: str, gpu: str, region: str) -> dict[str, object]:
    """A proposal of two cards of ``offer`` on demand in ``region`` (an ID or a jurisdiction)."""
    return {
        "name": "p",
        "deployment": "dedicated_cloud",
        "provider": provider,
        "offer": offer,
        "gpu": gpu,
        "gpus": 2,
        "pricing": "on_demand",
        "region": region,
    }


def checked(tmp_path: Path, proposal: dict[str, object]) -> dict[str, str]:
    document = ProposalDocument.model_validate({"workload": DOCS, "proposal": proposal})
    directory = str(policy(tmp_path, "not_in: [DE]"))
    result = check_document(document, "p.yaml", 1, EVALUATED_ON, policy_dir=directory)
    return {item.rule_id: item.status for item in result.results}


@pytest.mark.parametrize(
    ("provider", "offer", "gpu", "region", "status"),
    [
        ("scaleway", "h100-sxm-4-80g", "h100-sxm", "fr-par-2", "fail"),
        ("azure", "nc-h100-v5", "h100-nvl", "germanywestcentral", "pass"),
        # Azure sells the offer in its German region only: "EU" is Germany here.
        ("azure", "nc-h100-v5", "h100-nvl", "EU", "pass"),
        # Scaleway's H100 PCIe is sold in Paris and Warsaw: which one "EU" means is not known.
        ("scaleway", "h100-80g", "h100-pcie", "EU", "unknown"),
    ],
)
def test_a_proposal_is_held_to_the_country_it_runs_in(
    tmp_path: Path, provider: str, offer: str, gpu: str, region: str, status: str
) -> None:
    assert checked(tmp_path, rental(provider, offer, gpu, region))["ORG011"] == status


def test_a_proposal_rule_naming_a_country_the_catalog_does_not_know_is_refused(tmp_path: Path) -> None:
    text = (POLICY % "not_in: [DE]").replace("values: [DE]", "values: [GER]")
    (tmp_path / "germany.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as error:
        api.recommend(DOCS, EVALUATED_ON, policy_dir=tmp_path)
    assert "rule ORG011: field when.0: no country is named 'GER' in the catalog" in str(error.value)


@pytest.mark.parametrize(
    ("provider", "offer", "gpu", "region", "status"),
    [
        ("scaleway", "h100-sxm-4-80g", "h100-sxm", "fr-par-2", "fail"),
        ("azure", "nc-h100-v5", "h100-nvl", "germanywestcentral", "pass"),
        # Paris or Warsaw: neither lies in Germany, so "EU" is excluded either way.
        ("scaleway", "h100-80g", "h100-pcie", "EU", "fail"),
    ],
)
def test_a_proposal_of_an_offer_the_policy_excludes_fails_without_a_proposal_rule(
    tmp_path: Path, provider: str, offer: str, gpu: str, region: str, status: str
) -> None:
    """A policy that only excludes options (no proposal rule of its own): DEP049 holds a proposed rental to
    it as the recommendation's options are held."""
    exclusion_only = (POLICY % "not_in: [DE]").split("  - id: ORG011")[0]
    (tmp_path / "germany.yaml").write_text(exclusion_only, encoding="utf-8")
    proposal = rental(provider, offer, gpu, region)
    document = ProposalDocument.model_validate({"workload": DOCS, "proposal": proposal})
    result = check_document(document, "p.yaml", 1, EVALUATED_ON, policy_dir=str(tmp_path))
    found = {item.rule_id: item for item in result.results}
    assert found["DEP049"].status == status
    if status == "fail":
        assert found["DEP049"].message == (
            f"{provider} {offer} in {region} is excluded for this workload by the company's own rules, as in "
            "the recommendation's options: ORG010 (Company policy: personal data stays in Germany)."
        )


@pytest.mark.parametrize(
    ("named", "status"),
    [
        # Every Scaleway H100 SXM is in Paris: excluded whichever offer is meant.
        ({"provider": "scaleway", "gpu": "h100-sxm"}, "fail"),
        # Azure sells the H100 NVL in Frankfurt only.
        ({"provider": "azure", "gpu": "h100-nvl"}, "pass"),
        # Azure's German H100 NVL, or its H100 SXM elsewhere: which is meant decides.
        ({"provider": "azure"}, "unknown"),
        # No provider: no offer to hold to the rules.
        ({"gpu": "h100-sxm"}, "unknown"),
    ],
)
def test_a_proposal_that_names_no_offer_is_held_to_every_offer_it_may_mean(
    tmp_path: Path, named: dict[str, str], status: str
) -> None:
    (tmp_path / "germany.yaml").write_text((POLICY % "not_in: [DE]").split("  - id: ORG011")[0], "utf-8")
    proposal = {"name": "p", "deployment": "dedicated_cloud", "gpus": 2, **named}
    document = ProposalDocument.model_validate({"workload": DOCS, "proposal": proposal})
    result = check_document(document, "p.yaml", 1, EVALUATED_ON, policy_dir=str(tmp_path))
    assert {item.rule_id: item.status for item in result.results}["DEP049"] == status
