"""Check messages say what the proposal gave and lacks: TCO021 names the rules that keep the proposed
machine's housing out (office machines for a service answered around the clock, TCO023, not the business-
critical TCO018 the workload does not fire); an unknown check names the fields a figure is worked out from."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner
from helpers import EVALUATED_ON

from gpu_advisor.cli import main
from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.domain.proposal import CheckItem, ProposalDocument

WORKLOAD = {"name": "w", "model": {"name": "llama-3.1-8b", "precision": "bf16"}, "requests_per_day": 50_000}
WORKSTATIONS = {"deployment": "own_hardware", "server": "workstation-rtx-5090", "servers": 2}


def checked(proposal: dict[str, Any], workload: dict[str, Any] = WORKLOAD) -> dict[str, CheckItem]:
    """The proposal's check items by rule."""
    document = ProposalDocument.model_validate({"workload": workload, "proposal": proposal})
    return {i.rule_id: i for i in check_document(document, "proposal.yaml", 1, EVALUATED_ON).results}


def test_office_machines_for_a_service_around_the_clock_fail_without_calling_it_critical() -> None:
    item = checked(WORKSTATIONS)["TCO021"]
    assert item.status == "fail"
    assert item.message == (
        "The proposal buys 2 office machines (RTX 5090 workstation), which stand where the rules keep this "
        "workload's own hardware out (TCO023): an office machine has no redundant power or network, no one "
        "on call and no service commitment; see gpu-advisor recommend for each rule's reason and whether its "
        "own hardware is costed elsewhere."
    )


def test_office_machines_in_office_hours_pass() -> None:
    assert checked(WORKSTATIONS, {**WORKLOAD, "schedule": "office_hours"})["TCO021"].status == "pass"


def test_an_unknown_check_names_the_fields_a_figure_is_worked_out_from() -> None:
    """An own-hardware proposal without a server: its cards come from a server (or gpus of the catalog
    server's GPU), and the latency is estimated from them; the proposal has no 'latency' field to give."""
    items = checked({"deployment": "own_hardware"})
    messages = {rule: i.message for rule, i in items.items() if i.status == "unknown"}
    assert messages["SIZ007"] == (
        'Cannot tell whether "Too few cards to hold the weights": the proposal does not give its gpus (or '
        "server), which this check needs."
    )
    assert messages["LAT005"] == (
        'Cannot tell whether "The proposal misses the time-to-first-token target": the proposal does not '
        "give its gpus (or server), from which its latency is estimated, which this check needs."
    )
    latency = checked({"deployment": "dedicated_cloud", "provider": "runpod", "gpu": "h100-sxm"})["LAT005"]
    assert latency.message is not None and latency.message.endswith(
        "does not give its gpus, from which its latency is estimated, which this check needs."
    )
    # The cost is worked out from the offer and the cards: gpus are not named a second time.
    idle = checked({"deployment": "dedicated_cloud", "provider": "runpod", "offer": "community"})["PRC013"]
    assert idle.message is not None and idle.message.endswith(
        "does not give its offer and gpus, from which its cost is worked out, which this check needs."
    )


def test_a_stale_price_of_another_gpu_is_not_told_about_h100_prices_alone() -> None:
    """KNB014 on an A10G offer: the documents' H100 price cut is the example of how fast GPU prices move,
    not a claim about the A10G."""
    proposal = {
        "deployment": "dedicated_cloud",
        "provider": "aws",
        "offer": "g5-on-demand",
        "gpu": "a10g",
        "gpus": 4,
        "pricing": "on_demand",
    }
    item = checked(proposal)["KNB014"]
    assert item.status == "warn"
    # The offer's list price dates from 2026-03-27: 248 days before 2026-11-30.
    assert item.message == (
        "The cost checks price aws g5-on-demand at a list price 248 days old, older than 180 days; GPU "
        "prices move fast (H100 list prices fell by up to 44 % within 2025). Check the provider's current "
        "price before signing."
    )


def test_a_stale_rate_of_your_own_is_called_your_rate(tmp_path: Any) -> None:
    """A rate from an overrides file is the team's, not a list price: KNB014 dates it as such."""
    overrides = tmp_path / "rates.yaml"
    overrides.write_text(
        "offers:\n  - {provider: aws, offer: g5-on-demand, gpu: a10g, usd_per_gpu_hour: 1.0,"
        " as_of: '2025-01-15'}\n",
        encoding="utf-8",
    )
    proposal = tmp_path / "proposal.yaml"
    proposal.write_text(
        "workload: {name: w, model: {name: llama-3.1-8b, precision: bf16}, requests_per_day: 50000}\n"
        "proposal: {deployment: dedicated_cloud, provider: aws, offer: g5-on-demand, gpu: a10g, gpus: 4,"
        " pricing: on_demand}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main, ["check", str(proposal), "--overrides", str(overrides), "--as-of", "2026-11-30"]
    )
    # 2025-01-15 to 2026-11-30: 684 days.
    assert (
        "The cost checks price aws g5-on-demand at your rate, dated 684 days ago, older than 180 days;"
    ) in " ".join(result.output.split())
