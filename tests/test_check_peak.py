"""A hybrid proposal that names its busier hours' offer (``peak_provider``, ``peak_offer``) has that offer
judged by the checks of where and with whom it runs, as the base is. Before, only the base's provider and
region were read: a German company's personal data on an EU reservation with Lambda (US) for the busier
hours passed RES005, and a peak at a provider company policy does not approve passed ORG004."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from helpers import NEGOTIATED_AWS
from test_check_fleet import WORKLOAD

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.check.peak_part import merged
from gpu_advisor.engine.domain.proposal import CheckItem, ProposalInput, Status

AS_OF = "2026-11-30"
# The recommended mix of tests/test_check_fleet.py, its peak named: 8 reserved H100 at AWS and up to 4
# hourly ones at Lambda.
HYBRID: dict[str, Any] = {
    "name": "mix",
    "deployment": "hybrid",
    "provider": "aws",
    "offer": "p5-reserved-3y",
    "gpu": "h100-sxm",
    "gpus": 12,
    "pricing": "reserved",
    "region": "us-east-1",
    "peak_provider": "lambda",
    "peak_offer": "2-gpu-plan",
}
ORG_POLICY = str(Path(__file__).resolve().parents[1] / "examples" / "org-policy")


def checked(tmp_path: Path, workload: dict[str, Any], proposal: dict[str, Any], *args: str) -> Any:
    """``check`` of the proposal, at the team's negotiated AWS rates (``helpers.NEGOTIATED_AWS``) unless
    ``args`` name other overrides."""
    path = tmp_path / "proposal.yaml"
    path.write_text(yaml.safe_dump({"workload": workload, "proposal": proposal}), encoding="utf-8")
    rates = () if "--overrides" in args else ("--overrides", NEGOTIATED_AWS)
    return CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF, "--format", "json", *rates, *args])


def results(tmp_path: Path, workload: dict[str, Any], proposal: dict[str, Any], *args: str) -> dict[str, Any]:
    result = checked(tmp_path, workload, proposal, *args)
    assert result.exit_code in (0, 1), result.output
    (data,) = json.loads(result.output)
    return {item["rule_id"]: item for item in data["results"]}


def test_a_peak_outside_the_eu_fails_residency(tmp_path: Path) -> None:
    """A German company's personal data, OVHcloud's monthly H100 (Gravelines) as the base: Scaleway's
    H100 for the busier hours makes a mix in the EU, where the peak runs, and RES005 passes; RunPod's
    community cloud (locations unknown) makes none, and the peak's place fails RES005."""
    workload = {**WORKLOAD, "requests_per_day": 600_000, "personal_data": True, "company_country": "DE"}
    base = {
        **HYBRID,
        "provider": "ovhcloud",
        "offer": "h100-monthly",
        "gpu": "h100-pcie",
        "gpus": 8,
        "region": "EU",
    }
    scaleway = results(tmp_path, workload, {**base, "peak_provider": "scaleway", "peak_offer": "h100-80g"})
    assert (scaleway["RES005"]["status"], scaleway["RES005"]["part"]) == ("pass", "proposal")
    runpod = results(tmp_path, workload, {**base, "peak_provider": "runpod", "peak_offer": "community"})
    res005 = runpod["RES005"]
    assert (res005["status"], res005["part"]) == ("fail", "peak")
    assert res005["message"] == (
        "The busier hours' offer (runpod community): The workload processes personal data, and the "
        "proposed region (unknown) lies outside the jurisdictions the law that applies admits: RES001 "
        "(GDPR: gpu-advisor keeps personal data of people in the EU/EEA in EU regions). The catalog lists "
        "no region "
        "where runpod sells h100-pcie and the workload may run; OVHcloud, Scaleway sell it there."
    )
    assert res005["evidence"]["jurisdiction"] == "unknown"
    # In German the unknown place is said as such, and only it: "unbekannt".
    german = results(
        tmp_path, workload, {**base, "peak_provider": "runpod", "peak_offer": "community"}, "--lang", "de"
    )["RES005"]["message"]
    assert "und die vorgeschlagene Region (unbekannt) liegt außerhalb der Rechtsräume" in german


FRANKFURT = {
    "added_offers": [
        {
            "provider": "aws",
            "offer": "p5-reserved-3y-frankfurt",
            "gpu": "h100-sxm",
            "usd_per_gpu_hour": 1.90,
            "pricing": "reserved",
            "commitment_months": 36,
            "instance_gpus": [8],
            "nvlink_instance_gpus": [8],
            "regions": ["eu-central-1"],
            "price_jurisdiction": "EU",
            "as_of": "2026-11-30",
            "note": "a 3-year P5 reservation in Frankfurt at the US reserved price (the catalog has none)",
        }
    ]
}
"""An overrides file that adds an AWS reservation in Frankfurt, which the catalog does not list: a
proposal may name only a region its offer is sold in."""


def in_frankfurt(tmp_path: Path) -> tuple[dict[str, Any], tuple[str, str]]:
    """The hybrid proposal on the added Frankfurt reservation, and the option that adds it."""
    path = tmp_path / "frankfurt.yaml"
    path.write_text(yaml.safe_dump(FRANKFURT), encoding="utf-8")
    proposal = {**HYBRID, "offer": "p5-reserved-3y-frankfurt", "region": "eu-central-1"}
    return proposal, ("--overrides", str(path))


def test_a_peak_whose_provider_serves_two_jurisdictions_is_unknown_not_passed(tmp_path: Path) -> None:
    """Lambda (US) beside an AWS reservation in Frankfurt (added by overrides: no mix of the two is
    priced, so the peak runs wherever Lambda does): RES005 fails; Hugging Face, with EU and US regions and
    no H100 SXM offer, cannot be placed, and RES005 is unknown rather than the base's pass."""
    workload = {**WORKLOAD, "personal_data": True, "company_country": "DE"}
    proposal, frankfurt = in_frankfurt(tmp_path)
    lambda_peak = results(tmp_path, workload, proposal, *frankfurt)["RES005"]
    assert (lambda_peak["status"], lambda_peak["part"], lambda_peak["evidence"]["jurisdiction"]) == (
        "fail",
        "peak",
        "US",
    )
    hugging_face = {**proposal, "peak_provider": "huggingface"}
    del hugging_face["peak_offer"]
    res005 = results(tmp_path, workload, hugging_face, *frankfurt)["RES005"]
    assert (res005["status"], res005["part"]) == ("unknown", "peak")
    assert res005["message"].startswith("The busier hours' offer (huggingface): Cannot tell whether")


def test_a_peak_at_a_provider_policy_does_not_approve_fails(tmp_path: Path) -> None:
    """examples/org-policy approves AWS, Google Cloud, Azure and OVHcloud: Lambda's peak fails ORG004 and
    the run fails; AWS's own P5 on demand for the peak passes it."""
    result = checked(tmp_path, WORKLOAD, HYBRID, "--policy", ORG_POLICY)
    assert result.exit_code == 1
    (data,) = json.loads(result.output)
    org004 = next(item for item in data["results"] if item["rule_id"] == "ORG004")
    assert (org004["status"], org004["part"]) == ("fail", "peak")
    assert org004["message"] == (
        "The busier hours' offer (lambda 2-gpu-plan): lambda is not an approved provider (AWS, Google "
        "Cloud, Azure, OVHcloud)."
    )
    aws_peak = {**HYBRID, "peak_provider": "aws", "peak_offer": "p5-on-demand"}
    assert results(tmp_path, WORKLOAD, aws_peak, "--policy", ORG_POLICY)["ORG004"]["status"] == "pass"


def test_a_business_critical_peak_without_an_established_sla_is_warned(tmp_path: Path) -> None:
    """AWS publishes an enterprise SLA, Lambda's is not established (knowledge/providers.yaml): the base
    passes PRV012, the peak warns."""
    items = results(tmp_path, {**WORKLOAD, "business_critical": True}, HYBRID)
    prv012 = items["PRV012"]
    assert (prv012["status"], prv012["part"]) == ("warn", "peak")
    assert prv012["message"].startswith(
        "The busier hours' offer (lambda 2-gpu-plan): The workload is business-critical and whether lambda "
        "publishes an enterprise SLA"
    )
    assert results(tmp_path, WORKLOAD, HYBRID).get("PRV012") is None  # not business-critical: no check


def test_a_marketplace_peak_for_a_team_without_devops_fails(tmp_path: Path) -> None:
    items = results(
        tmp_path,
        {**WORKLOAD, "devops_capacity": False},
        {**HYBRID, "peak_provider": "runpod", "peak_offer": "secure"},
    )
    assert (items["PRV010"]["status"], items["PRV010"]["part"]) == ("fail", "peak")
    assert items["PRV010"]["message"].startswith(
        "The busier hours' offer (runpod secure): runpod (marketplace)"
    )
    sound = results(
        tmp_path,
        {**WORKLOAD, "devops_capacity": False},
        {**HYBRID, "peak_provider": "aws", "peak_offer": "p5-on-demand"},
    )
    assert (sound["PRV010"]["status"], sound["PRV010"]["part"]) == ("pass", "proposal")


def test_a_peak_offer_the_catalog_does_not_know_is_named(
    tmp_path: Path,
) -> None:
    """KNB004 names the unknown peak offer; the peak has no pricing to read, so PRC008 cannot tell for it.
    German as well."""
    proposal = {**HYBRID, "peak_offer": "spot-ish"}
    items = results(tmp_path, WORKLOAD, proposal)
    assert (items["KNB004"]["status"], items["KNB004"]["part"]) == ("warn", "peak")
    assert items["KNB004"]["message"] == (
        "The busier hours' offer (lambda spot-ish): lambda has no catalog offer for h100-sxm under that "
        "name, so its price and date cannot be checked, and its cost is not known: the checks of its cost "
        "are left out or cannot tell."
    )
    assert (items["PRC008"]["status"], items["PRC008"]["part"]) == ("unknown", "peak")
    # Its unknown says why: the offer, not a field the proposal could add.
    assert items["PRC008"]["message"] == (
        "The busier hours' offer (lambda spot-ish): Cannot tell whether \"A 1- to 3-year reservation for a "
        'load that is not steady": the catalog has no offer of that name for the proposed GPU (KNB004).'
    )
    german = results(tmp_path, WORKLOAD, proposal, "--lang", "de")["KNB004"]["message"]
    assert german.startswith(
        "Das Angebot der stärkeren Stunden (lambda spot-ish): lambda hat im Katalog kein"
    )


def test_the_recommended_mix_named_passes_as_the_base_does(tmp_path: Path) -> None:
    """The peak part changes nothing where the named peak is as sound as the base: every result is the
    proposal's. Evaluated later, the peak offer's own list price is old: Lambda's of 2026-09-20, 222
    days on 2027-04-30 (KNB014), the peak's result; the base's is the team's rate of 2026-11-28."""
    items = results(tmp_path, WORKLOAD, HYBRID)
    assert {item["part"] for item in items.values()} == {"proposal"}
    assert {item["status"] for item in items.values()} == {"pass"}
    later = results(tmp_path, WORKLOAD, HYBRID, "--as-of", "2027-04-30")
    stale = later["KNB014"]
    assert (stale["part"], stale["status"]) == ("peak", "warn")
    assert "lambda 2-gpu-plan at a list price 222 days old" in stale["message"]
    others = [item for rule_id, item in later.items() if rule_id != "KNB014"]
    assert {item["part"] for item in others} == {"proposal"}


def test_a_provider_named_alone_gives_its_cheapest_admitted_offer(tmp_path: Path) -> None:
    """peak_provider: aws alone: P5 spot is excluded for a latency-sensitive service (PRC002) and the
    documents' March figure for P5 on demand by AWS's own newer list (KNB010), so the busier hours are
    priced on P5 on demand at $6.88, in whole 8-card instances (a 2-card replica needs linked cards) in
    the 19 hours beyond the base's four replicas: 8 x $6.88 x 19 h x 30.42 days = $31,812 on top of the
    reservation's $11,096; not spot, so PRC007 passes, and DEP033 warns of the difference."""
    proposal = {**HYBRID, "peak_provider": "aws"}
    del proposal["peak_offer"]
    result = checked(tmp_path, WORKLOAD, proposal)
    (data,) = json.loads(result.output)
    assert round(data["usd_per_month"]) == round(8 * 1.90 * 730 + 8 * 6.88 * 19 * 30.42) == 42908
    status = {item["rule_id"]: item["status"] for item in data["results"]}
    assert (status["PRC007"], status["DEP033"]) == ("pass", "warn")


def test_a_waiver_covers_the_peaks_result(tmp_path: Path) -> None:
    path = tmp_path / "proposal.yaml"
    waiver = {"rule": "PRV012", "reason": "Lambda's SLA is being negotiated", "owner": "platform"}
    document = {"workload": {**WORKLOAD, "business_critical": True}, "proposal": HYBRID, "waivers": [waiver]}
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path), "--as-of", AS_OF, "--format", "json"])
    (data,) = json.loads(result.output)
    prv012 = next(item for item in data["results"] if item["rule_id"] == "PRV012")
    assert (prv012["status"], prv012["part"], prv012["waived"]) == ("warn", "peak", True)


def test_the_base_keeps_a_result_the_peak_does_no_worse_on() -> None:
    """A failure of the base stands beside the peak's warning; the peak's failure replaces the base's
    pass; a check only the peak reports is added in the rulebook's order."""

    def item(rule_id: str, status: Status) -> CheckItem:
        return CheckItem(
            rule_id=rule_id,
            name=rule_id,
            topic="provider",
            severity="warning",
            origin="builtin",
            status=status,
            title=rule_id,
            message=f"{rule_id} {status}",
            evidence={},
            knowledge=(),
            source="",
            waived=False,
            waiver_reason=None,
        )

    part = ProposalInput(deployment="dedicated_cloud", provider="lambda", offer="on-demand")
    base = (item("A", "fail"), item("B", "pass"))
    peak = (item("A", "warn"), item("B", "fail"), item("C", "unknown"))
    kept = merged(base, peak, part, ["C", "A", "B"])
    assert [(i.rule_id, i.status, i.part, i.message) for i in kept] == [
        ("C", "unknown", "peak", "The busier hours' offer (lambda on-demand): C unknown"),
        ("A", "fail", "proposal", "A fail"),
        ("B", "fail", "peak", "The busier hours' offer (lambda on-demand): B fail"),
    ]


def test_peak_fields_name_a_known_provider_beside_a_reservation(tmp_path: Path) -> None:
    typo = checked(tmp_path, WORKLOAD, {**HYBRID, "peak_provider": "lamda"})
    assert typo.exit_code == 2
    assert "proposal.peak_provider: unknown value 'lamda'" in typo.output
    assert "(did you mean 'lambda'?)" in typo.output
    hourly = checked(tmp_path, WORKLOAD, {**HYBRID, "offer": "p5-on-demand", "pricing": "on_demand"})
    assert hourly.exit_code == 2
    assert (
        "proposal.peak_provider: a mixed fleet's busier hours and reserved base go with a reservation; aws "
        "p5-on-demand bills by the hour"
    ) in hourly.output
    reserved_peak = checked(
        tmp_path, WORKLOAD, {**HYBRID, "peak_provider": "aws", "peak_offer": "p5-reserved-1y"}
    )
    assert reserved_peak.exit_code == 2
    assert (
        "proposal.peak_offer: the busier hours' offer is an hourly one; aws p5-reserved-1y is a reservation"
    ) in reserved_peak.output
    offer_alone = {**HYBRID}
    del offer_alone["peak_provider"]
    unnamed = checked(tmp_path, WORKLOAD, offer_alone)
    assert unnamed.exit_code == 2
    assert "proposal.peak_offer: an offer of peak_provider: name the provider too" in unnamed.output


def test_a_stated_reserved_base_is_priced_as_stated(tmp_path: Path) -> None:
    """base_gpus: the cards reserved for every hour. 16 (two P5, 8 replicas of 2 cards, more than the
    busiest hour's 6) leave nothing to Lambda: 16 x $1.90 x 730 h = $22,192, and DEP033 warns it costs
    more than the recommended mix's $17,214; 8 are the recommended base (8 x $1.90 x 730 h + Lambda's 48
    card-hours a day x 30.42 days x $4.19: 24 replica-hours beyond the base's four, 5 replicas in 14
    hours and 6 in 5); without base_gpus the base is recommend's, whatever gpus says."""

    def cost(proposal: dict[str, Any]) -> tuple[float, str]:
        (data,) = json.loads(checked(tmp_path, WORKLOAD, proposal).output)
        status = next(item["status"] for item in data["results"] if item["rule_id"] == "DEP033")
        return round(data["usd_per_month"]), status

    assert (
        cost({**HYBRID, "gpus": 16, "base_gpus": 16}) == (round(16 * 1.90 * 730), "warn") == (22192, "warn")
    )
    recommended = round(8 * 1.90 * 730 + 48 * 30.42 * 4.19)
    assert cost({**HYBRID, "base_gpus": 8}) == (recommended, "pass") == (17214, "pass")
    assert cost({**HYBRID, "gpus": 16}) == (recommended, "pass")


def test_a_stated_base_belongs_to_a_hybrid_and_within_its_cards(tmp_path: Path) -> None:
    dedicated = {**HYBRID, "deployment": "dedicated_cloud", "base_gpus": 8}
    del dedicated["peak_provider"], dedicated["peak_offer"]
    refused = checked(tmp_path, WORKLOAD, dedicated)
    assert refused.exit_code == 2
    assert (
        "proposal.base_gpus: a mixed fleet's reserved cards: only with deployment: hybrid" in refused.output
    )
    hourly = {**HYBRID, "offer": "p5-on-demand-2026-09", "pricing": "on_demand", "base_gpus": 8}
    del hourly["peak_provider"], hourly["peak_offer"]
    refused = checked(tmp_path, WORKLOAD, hourly)
    assert refused.exit_code == 2
    assert "proposal.base_gpus: a mixed fleet's busier hours and reserved base go with a reservation" in (
        refused.output
    )
    too_many = checked(tmp_path, WORKLOAD, {**HYBRID, "base_gpus": 16})
    assert too_many.exit_code == 2
    assert "proposal.base_gpus: at most the cards in all (gpus: 12)" in too_many.output


def test_a_base_that_fills_no_whole_instance_is_told_what_it_bills(tmp_path: Path) -> None:
    """10 reserved H100 on P5: five replicas of 2 cards need two 8-card instances, 16 cards, and the mix
    runs eight replicas on them in every hour ($22,192 as for base_gpus: 16); PRC018 says so. 8 fill one
    instance and pass."""
    found = results(tmp_path, WORKLOAD, {**HYBRID, "base_gpus": 10})
    assert found["PRC018"]["status"] == "warn"
    assert found["PRC018"]["message"] == (
        "The proposal reserves 10 cards for every hour; p5-reserved-3y is sold in whole instances, and a "
        "replica's cards are not split between two, so the reservation bills 16, and the mix runs replicas "
        "on all of them in every hour (its cost counts them so). Propose base_gpus: 16, what is billed (with "
        "gpus at least that), or 8, the largest base below it that fills its instances."
    )
    assert results(tmp_path, WORKLOAD, {**HYBRID, "base_gpus": 8})["PRC018"]["status"] == "pass"
    # 1 card: one replica of 2 already fills what one instance bills, so there is no base below it.
    assert results(tmp_path, WORKLOAD, {**HYBRID, "base_gpus": 1})["PRC018"]["message"].endswith(
        "Propose base_gpus: 8, what is billed (with gpus at least that)."
    )
    # Without base_gpus the base is recommend's, sized as it pays: nothing to tell.
    assert "PRC018" not in results(tmp_path, WORKLOAD, HYBRID)
    # Business-critical (SIZ015), a base of 8 fills one instance: a lost one takes its four replicas, and
    # every hour runs three beyond its spare on the busier hours' instances, so 8 cards bill 8 and pass
    # (the message had put 16 down to the spread, and 16 then billed 32). 10 bill 16 for whole instances.
    critical = {**WORKLOAD, "business_critical": True}
    assert results(tmp_path, critical, {**HYBRID, "base_gpus": 8})["PRC018"]["status"] == "pass"
    assert results(tmp_path, critical, {**HYBRID, "base_gpus": 10})["PRC018"]["message"] == (
        "The proposal reserves 10 cards for every hour; p5-reserved-3y is sold in whole instances, and a "
        "replica's cards are not split between two, so the reservation bills 16, and the mix runs replicas "
        "on all of them in every hour (its cost counts them so). Propose base_gpus: 16, what is billed (with "
        "gpus at least that), or 8, the largest base below it that fills its instances."
    )


def test_a_checks_knowledge_names_the_offer_proposed_and_the_peaks_its_own(tmp_path: Path) -> None:
    """The dated price behind a check is the named offer's (AWS's 3-year P5 reservation at $1.90), not
    the first of its provider's offers of that GPU (AWS's P5 on demand at $3.90, which it read); the
    busier hours' result cites Lambda's 2-GPU H100 instance at $4.19."""
    workload = {**WORKLOAD, "personal_data": True, "company_country": "DE"}
    proposal, frankfurt = in_frankfurt(tmp_path)
    res005 = results(tmp_path, workload, proposal, *frankfurt)["RES005"]
    assert res005["part"] == "peak"
    assert [k for k in res005["knowledge"] if k.startswith("offers: ")] == [
        "offers: lambda/2-gpu-plan/h100-sxm at 4.19 USD per GPU-hour (2026-09-20)"
    ]
    base = {k: v for k, v in HYBRID.items() if not k.startswith("peak_")}
    own = results(tmp_path, workload, {**base, "deployment": "dedicated_cloud", "gpus": 8})["RES005"]
    assert [k for k in own["knowledge"] if k.startswith("offers: ")] == [
        "offers: aws/p5-reserved-3y/h100-sxm at 1.9 USD per GPU-hour (2026-11-28)"
    ]


def test_a_misspelled_offer_s_cost_check_says_the_offer_is_unknown(tmp_path: Path) -> None:
    """A rental whose offer name has a typo gives its offer and cards: DEP033 cannot tell for want of the
    offer's price, not of fields the proposal left out, and KNB004 lists the names the catalog knows."""
    proposal = {
        "deployment": "dedicated_cloud",
        "provider": "runpod",
        "offer": "communty",
        "gpu": "h100-sxm",
        "gpus": 64,
        "pricing": "on_demand",
    }
    items = results(tmp_path, WORKLOAD, proposal)
    assert items["DEP033"]["status"] == "unknown"
    assert items["DEP033"]["message"] == (
        'Cannot tell whether "The proposal costs more than the recommendation": the catalog has no offer of '
        "that name for the proposed GPU (KNB004)."
    )
    assert items["KNB004"]["message"].endswith(
        "The catalog lists runpod's h100-sxm as 'community', 'secure': name one of them to have the proposal "
        "priced."
    )


def test_dep052_warns_of_the_busier_hours_cards_unless_the_provider_confirms_them(tmp_path: Path) -> None:
    """A business-critical service's mix starts its busier hours' cards each day from capacity paid by the
    hour: DEP052 warns, unless the workload says the provider confirms them (capacity_confirmed), as
    DEP051 then only says what the recommendation's mix rests on."""
    critical = {**WORKLOAD, "business_critical": True}
    warned = results(tmp_path, critical, HYBRID)["DEP052"]
    assert warned["status"] == "warn"
    assert warned["message"].startswith(
        "The proposal runs up to 2 cards of the busier hours on lambda 2-gpu-plan by the hour, started each "
        "day from on-demand capacity that no provider promises in every hour."
    )
    confirmed = results(tmp_path, {**critical, "capacity_confirmed": True}, HYBRID)["DEP052"]
    assert confirmed["status"] == "pass"
