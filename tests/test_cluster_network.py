"""A replica larger than one instance may run as pipeline stages on several instances where the provider
documents a network between them that the listed price includes (``Offer.cluster_network``: AWS's EFA on
P5, Azure's InfiniBand on ND H100 v5). Before, NET003 excluded every such rental while own hardware split
the same replica over two servers: a French DeepSeek-R1 service was recommended four HGX nodes by
DEP009's fallback, with no rental to compare them with."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from helpers import EVALUATED_ON, run

from gpu_advisor.engine.apps.check.run import check_document
from gpu_advisor.engine.apps.overrides import knowledge_with_overrides
from gpu_advisor.engine.domain.options import Option
from gpu_advisor.engine.domain.proposal import ProposalDocument
from gpu_advisor.engine.present.memo import render_memo

REASONING = {
    "name": "reasoning",
    "model": {"name": "deepseek-r1", "precision": "fp8"},
    "requests_per_day": 200_000,
    "avg_input_tokens": 1000,
    "avg_output_tokens": 1500,
    "load_pattern": "steady",
    "latency_sensitive": True,
    "personal_data": True,
    "company_country": "FR",
}


def test_a_16_card_replica_rents_two_p5_instances_over_efa() -> None:
    result = run(REASONING)
    best = result.best_option
    assert best is not None
    assert (best.provider, best.offer, best.gpu, best.jurisdiction) == (
        "aws",
        "p5-on-demand-stockholm",
        "h100-sxm",
        "EU",
    )
    # Three replicas (one a spare) of 16 cards: six p5.48xlarge, billed every hour of the month. (Two
    # until each card was known to keep the whole latent cache of every sequence, eight copies a stage.)
    assert (best.replicas, best.spare_replicas, best.gpus_rented) == (3, 1, 48)
    assert [(i.gpus, i.count) for i in best.instances] == [(8, 6)]
    assert abs(best.usd_per_month - 48 * best.usd_per_gpu_hour * 730) < 0.01
    excluded = {o.offer: o.excluded_by for o in result.options if o.gpu == "h100-sxm"}
    assert "NET003" not in excluded["p5-on-demand-stockholm"]
    assert "NET003" not in excluded["nd-h100-v5-swedencentral"]
    # No network recorded between these offers' instances: the replica is not split over them.
    assert "NET003" in excluded["a3-high-europe-west4"] and "NET003" in excluded["h100-sxm-8-80g"]
    # Owning is weighed against the rental now, not taken as the only route left.
    assert result.decision.deployment == "own_hardware"
    assert "TCO001" in result.fired_rules and "DEP009" not in result.fired_rules
    memo = " ".join(render_memo(result).split())
    assert (
        "One replica needs 16 × h100-sxm cards, more than one p5-on-demand-stockholm instance holds (8): it "
        "runs as 2 pipeline stages, one per instance, each on its instance's NVLink, with only the "
        "activations passing between them over AWS's Elastic Fabric Adapter (EFA) with GPUDirect RDMA: "
        "3,200 Gbit/s per instance, in the listed price. It needs its instances in one subnet of one "
        "Availability Zone with EFA enabled and a security group that admits all traffic to and from "
        "itself (AWS recommends a cluster placement group); set the serving engine's pipeline parallelism "
        "to the stages and its tensor parallelism to one instance's cards."
    ) in memo


def test_a_replica_that_fits_one_instance_needs_no_cluster_network() -> None:
    result = run({**REASONING, "model": {"name": "llama-3.1-70b", "precision": "fp8"}})
    assert "NET006" not in result.fired_rules


def proposal_status(provider: str, offer: str) -> str | None:
    document = ProposalDocument.model_validate(
        {
            "workload": REASONING,
            "proposal": {
                "name": "two nodes",
                "deployment": "dedicated_cloud",
                "provider": provider,
                "offer": offer,
                "gpu": "h100-sxm",
                "gpus": 16,
            },
        }
    )
    result = check_document(document, "case.yaml", 1, dt.date(2026, 11, 30))
    return next((item.status for item in result.results if item.rule_id == "NET004"), None)


def test_check_admits_two_instances_only_over_a_documented_network() -> None:
    assert proposal_status("aws", "p5-on-demand-stockholm") == "pass"
    assert proposal_status("scaleway", "h100-sxm-8-80g") == "fail"


NEGOTIATED_EU_P5 = """\
added_offers:
  - provider: aws
    offer: p5-negotiated-eu
    gpu: h100-sxm
    usd_per_gpu_hour: 2.40
    pricing: on_demand
    instance_gpus: [8]
    regions: [eu-north-1]
    price_jurisdiction: EU
    as_of: 2026-11-20
    {network}
"""
EFA = """cluster_network:
      kind: AWS's Elastic Fabric Adapter (EFA)
      gbps_per_instance: 3200
      condition: its instances in one Availability Zone with EFA enabled
      source: {url: "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html", title: "EFA"}
      as_of: 2026-12-03"""


def test_an_added_offer_carries_its_network_where_its_provider_documents_one(tmp_path: Path) -> None:
    """A team's negotiated P5 rate, added in an overrides file, was excluded by NET003 for a 16-card
    replica while the list-price row was admitted: an added offer could not state its network."""

    def option(network: str) -> Option:
        path = tmp_path / "rates.yaml"
        path.write_text(NEGOTIATED_EU_P5.format(network=network), encoding="utf-8")
        result = run(REASONING, knowledge=knowledge_with_overrides(str(path), EVALUATED_ON))
        return next(o for o in result.options if o.offer == "p5-negotiated-eu")

    with_network = option(EFA)
    assert not with_network.excluded_by and (with_network.gpus_rented, with_network.usd_per_gpu_hour) == (
        48,
        2.4,
    )
    assert "NET003" in option("note: no network stated").excluded_by


def test_no_set_up_steps_for_a_rental_the_data_may_not_go_to() -> None:
    """The data may not leave the building (DEP006): the best rental still spans two p5.48xlarge per
    replica, but NET006 told the engineer how to set up EFA for a route ruled out."""
    result = run({**REASONING, "on_premises_required": True})
    assert result.best_option is not None and result.best_option.offer == "p5-on-demand-stockholm"
    assert "dedicated_cloud" in result.resolution.ruled_out
    assert "NET006" not in result.fired_rules
